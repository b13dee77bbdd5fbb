"""The ``novikoff`` command line: :func:`main` (the console script) and :func:`build_parser`.

The commands live in :mod:`novikoff.commands`, one module each; this package parses the
command line, dispatches to the chosen command's handler and maps exceptions to exit
statuses (see :mod:`novikoff.cli.app`).
"""

from novikoff.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
