"""``novikoff check DATA FILE.json``: check anyone's certificate file against the data.

Reads FILE.json strictly (:func:`novikoff.certificates.from_json`), reads DATA with the
certificate's bias rho, and runs the trusted checker alone
(:func:`novikoff.certificates.checker.check_document`: no solver is imported). Exit 0 when
every fact holds (prints ``valid: ...``), 1 at the first false fact (prints
``invalid: CODE: ...`` with its reason code, and says so on one line of stderr), 2 on bad
input: unreadable data or file, text that is not a certificate (the message names the JSON
path), a recorded run or bound claiming more epochs than ``--max-epochs`` (refused before
any replay). FILE.json is read to at most :data:`MAX_FILE_BYTES` plus one byte whatever its
size says (:func:`novikoff.runtime.bounded.read_bytes`), and its JSON numbers' lengths are checked
before they are converted.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from novikoff.commands.options import (
    MAX_EPOCHS_LIMIT,
    add_time_limit,
    bounded_int,
    int_arg,
    load_data,
    printable,
)
from novikoff.errors import InputError
from novikoff.runtime.jsonout import error_json, print_json
from novikoff.runtime.limits import phase

__all__ = ["register", "run"]

#: Certificate files larger than this are refused (read to this size plus one byte, never
#: trusting st_size; a real one is far smaller).
MAX_FILE_BYTES = 1 << 30
#: The default of ``--max-epochs``: the most epochs (or passes) of a recorded run that check
#: replays; a certificate claiming more is refused before the replay.
DEFAULT_MAX_EPOCHS = 100_000


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    c = sub.add_parser(
        "check",
        help="check a certificate file (novikoff certify --certificate) against DATA",
        description="Check the certificate FILE.json against DATA with the trusted checker alone: "
        "the data binding (sizes, bias, SHA-256 digest), the certificate's defining conditions and "
        "the recorded perceptron run (replayed exactly). DATA is read with the certificate's bias. "
        "Exit 0 valid, 1 invalid (the first false fact and its reason code), 2 bad input.",
    )
    c.add_argument("data", metavar="DATA")
    c.add_argument("file", metavar="FILE.json")
    c.add_argument(
        "--format", choices=["csv", "libsvm"], help="DATA's file format (default: from the suffix)"
    )
    c.add_argument(
        "--label-column",
        type=int_arg,
        default=-1,
        metavar="N",
        help="CSV label column, 0-based, negative from the end (default -1: last)",
    )
    c.add_argument("--header", choices=["auto", "yes", "no"], default="auto", help="CSV header line")
    c.add_argument(
        "--positive", metavar="LABEL", help="the label mapped to +1 when labels are not {-1,1}/{0,1}"
    )
    c.add_argument(
        "--max-epochs",
        type=bounded_int(MAX_EPOCHS_LIMIT),
        default=DEFAULT_MAX_EPOCHS,
        metavar="N",
        help="refuse (exit 2) a certificate whose recorded run or Freund-Schapire bound claims more "
        f"than N epochs (passes) to replay (default {DEFAULT_MAX_EPOCHS}, at most {MAX_EPOCHS_LIMIT})",
    )
    c.add_argument("--json", action="store_true", help="print one JSON object")
    add_time_limit(c, 600)
    c.set_defaults(handler=run)


def _read_file(path: str) -> bytes:
    from novikoff.runtime.bounded import read_bytes

    return read_bytes(path, MAX_FILE_BYTES)


def _claimed_epochs(doc: Any, limit: int) -> None:
    """InputError naming the field when the document asks for more than ``limit`` epochs of
    replay (the run's epochs, the bound's passes): refused before any replay starts."""
    claims = []
    if doc.perceptron is not None:
        claims.append(("perceptron.epochs", doc.perceptron.epochs))
    if doc.nonseparable_bound is not None:
        claims.append(("nonseparable_bound.passes", doc.nonseparable_bound.passes))
    for field, value in claims:
        if value > limit:
            raise InputError(
                f"{field}: the certificate claims {value} epochs to replay, more than --max-epochs "
                f"{limit} (raise --max-epochs to check it)"
            )


def run(args: argparse.Namespace) -> int:
    from novikoff.certificates.checker import check_document
    from novikoff.certificates.format import CertificateFormatError, from_json

    with phase("reading the certificate"):
        text = _read_file(args.file)
        try:
            doc = from_json(text)
        except CertificateFormatError as exc:
            message = printable(f"{args.file}: {exc}")
            if args.json:
                print(error_json(message, 2, reason=exc.code, path=exc.path), flush=True)
            print(f"novikoff: error: {message}", file=sys.stderr, flush=True)
            return 2
        try:
            _claimed_epochs(doc, args.max_epochs)
        except InputError as exc:
            raise InputError(f"{args.file}: {exc}") from None
    args.bias = doc.dataset.bias
    with phase("reading the data"):
        ds = load_data(args)
    with phase("checking the certificate"):
        verdict = check_document(ds, doc)
    if args.json:
        print_json(
            {
                "file": args.file,
                "dataset": ds.name,
                "valid": verdict.valid,
                "reason": verdict.code,
                "message": verdict.message,
            }
        )
    elif verdict.valid:
        print(f"valid: {verdict.message}")
    else:
        print(f"invalid: {verdict.code}: {verdict.message}")
    if not verdict.valid:  # every non-zero exit says why on stderr too, on one line
        print(
            printable(f"novikoff: certificate invalid: {verdict.code}: {verdict.message}"),
            file=sys.stderr,
            flush=True,
        )
    return 0 if verdict.valid else 1
