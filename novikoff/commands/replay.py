"""``novikoff replay FILE``: rerun a falsify counterexample file exactly and re-evaluate its bound.

The file is screened before anything runs (:func:`screen`): read through
:func:`novikoff.runtime.bounded.read_text` (a regular file of at most :data:`MAX_FILE_BYTES`), its
header parsed with every JSON number's length checked before conversion, and every count or
limit the header records capped by this command's own options: ``passes`` by
``--max-passes``, ``bound_limits`` by ``--max-bound-*``, a ``shuffle:SEED`` order's seed at
100 digits as in certificates. A file never lifts a limit.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from novikoff.commands.options import (
    MAX_EPOCHS_LIMIT,
    add_bound_limits,
    add_time_limit,
    bound_limits,
    bounded_int,
    printable,
)
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
from novikoff.runtime.jsonout import dumps
from novikoff.runtime.limits import phase

__all__ = ["DEFAULT_MAX_PASSES", "MAX_FILE_BYTES", "register", "run", "screen"]

#: Replay files larger than this are refused (a falsify counterexample is a few kilobytes).
MAX_FILE_BYTES = 64 << 20
#: The default of ``--max-passes``: the most passes a non-separable replay may ask for.
DEFAULT_MAX_PASSES = 10_000
#: JSON numbers in a replay header have at most this many characters (the contract's limit).
MAX_HEADER_DIGITS = 10_000


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    rp = sub.add_parser(
        "replay",
        help="rerun a falsify counterexample file: its algorithm, order and bound",
        description="Rerun the counterexample FILE written by falsify: the recorded algorithm and "
        "parameters in the recorded order, exactly, and the recorded bound evaluated at the data. "
        "Prints both; exit 1 when the bound is violated, 0 when it holds, 2 on a bad file. "
        "Counts and limits recorded in FILE are capped by the options below, never lifted by it.",
    )
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--json", action="store_true", help="print one JSON object")
    rp.add_argument(
        "--max-passes",
        type=bounded_int(MAX_EPOCHS_LIMIT),
        default=DEFAULT_MAX_PASSES,
        metavar="N",
        help=f"refuse a non-separable replay of more than N passes (default {DEFAULT_MAX_PASSES})",
    )
    add_bound_limits(rp, for_file=True)
    add_time_limit(rp, 600)
    rp.set_defaults(handler=run)


def _int_field(value: object, where: str, cap: int, option: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{where} must be a positive integer")
    if value > cap:
        raise InputError(f"{where} is {value}, more than {option} {cap} (raise {option} to replay it)")


def screen(path: str, args: argparse.Namespace) -> None:
    """Check FILE before the replay reads and runs it (see the module docstring); InputError
    naming the file and line 1 for a header that asks for more than the options allow. A
    file without the replay header passes: the replay itself says what is wrong with it."""
    from novikoff.certificates.format import CertificateFormatError, check_order
    from novikoff.fuzz.bound_limits import limits_from_file
    from novikoff.fuzz.campaign import REPLAY_HEADER  # here: building the parser loads no fuzz
    from novikoff.runtime.bounded import loads_json, read_text

    text = read_text(path, MAX_FILE_BYTES, regular_only=True)
    first = text.split("\n", 1)[0]
    if not first.startswith(REPLAY_HEADER):
        return
    where = f"{path}, line 1"
    try:
        header = loads_json(
            first[len(REPLAY_HEADER) :], max_digits=MAX_HEADER_DIGITS, what="the replay header"
        )
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{where}: bad replay header ({exc})") from None
    if not isinstance(header, dict):
        return
    limits_from_file(header.get("bound_limits"), bound_limits(args), where)
    order = header.get("order", "natural")
    if isinstance(order, str):
        try:
            check_order(order, "order")
        except CertificateFormatError as exc:
            raise InputError(f"{where}: {exc}") from None
    info = header.get("nonseparable")
    if isinstance(info, dict) and "passes" in info:
        _int_field(info["passes"], f"{where}: nonseparable.passes", args.max_passes, "--max-passes")


def run(args: argparse.Namespace) -> int:
    from novikoff.fuzz.falsify import replay_file

    with phase("reading the replay file"):
        screen(args.file, args)
    with phase("the replay"):
        r = replay_file(args.file)
    if args.json:
        print(
            dumps(
                {
                    "file": args.file,
                    "algorithm": r.algorithm,
                    "parameters": r.parameters,
                    "order": r.order,
                    "updates": r.updates,
                    "recorded_updates": r.recorded_updates,
                    "bound": r.bound,
                    "bound_value": r.bound_value,
                    "values": {k: format_rational(v) for k, v in r.values.items()},
                    "violated": r.violated,
                }
            )
        )
    else:
        print(r.summary())
    if r.violated:  # every non-zero exit says why on stderr too, on one line
        print(
            printable(f"novikoff: bound violated: {r.updates} updates, bound {r.bound} {r.bound_value}"),
            file=sys.stderr,
            flush=True,
        )
    return 1 if r.violated else 0
