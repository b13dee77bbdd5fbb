"""``novikoff replay FILE``: rerun a falsify counterexample file exactly and re-evaluate its bound."""

from __future__ import annotations

import argparse
from typing import Any

from novikoff.commands.options import add_time_limit
from novikoff.jsonout import dumps
from novikoff.limits import phase
from novikoff.rational import format_rational

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    rp = sub.add_parser(
        "replay",
        help="rerun a falsify counterexample file: its algorithm, order and bound",
        description="Rerun the counterexample FILE written by falsify: the recorded algorithm and "
        "parameters in the recorded order, exactly, and the recorded bound evaluated at the data. "
        "Prints both; exit 1 when the bound is violated, 0 when it holds, 2 on a bad file.",
    )
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--json", action="store_true", help="print one JSON object")
    add_time_limit(rp, 600)
    rp.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from novikoff.fuzz.falsify import replay_file

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
    return 1 if r.violated else 0
