"""``novikoff textbook-tables``: the textbook's tables (section 6.6, exercises 6.1 and 6.3)
recomputed with exact bounds.

``novikoff seed-tables`` is its deprecated name, still accepted
(:data:`novikoff.cli.app.DEPRECATED_COMMANDS`)."""

from __future__ import annotations

import argparse
from typing import Any

from novikoff.commands.options import add_time_limit
from novikoff.runtime.jsonout import dumps

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the sub-parser to ``sub`` (argparse's subparsers action); its handler is :func:`run`."""
    t = sub.add_parser(
        "textbook-tables", help="the textbook's tables (6.6, ex. 6.1, ex. 6.3) recomputed with exact bounds"
    )
    t.add_argument("--json", action="store_true")
    add_time_limit(t, 600)
    t.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from novikoff.replications.tables import format_tables, seed_tables

    tables = seed_tables()
    print(dumps(tables) if args.json else format_tables(tables))
    return 0
