"""The commands of the ``novikoff`` command line, one module each.

Every command module has ``register(sub)``, which adds its sub-parser to argparse's
subparsers action and sets ``handler=run``, and ``run(args) -> int``, which returns the exit
status (0 success, 1 a failed check or a found counterexample, 2 bad input; see
:mod:`novikoff.cli`). Shared argument types and the data options are in
:mod:`novikoff.commands.options`. ``COMMANDS`` lists the modules in the order ``novikoff --help``
shows them.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from novikoff.commands import certify, check, diff, falsify, margins, prove, replay, run, seed_tables, verify

__all__ = ["COMMANDS", "register_all"]

COMMANDS: tuple[ModuleType, ...] = (
    certify,
    check,
    run,
    margins,
    seed_tables,
    diff,
    falsify,
    prove,
    replay,
    verify,
)


def register_all(sub: Any) -> None:
    """Add every command's sub-parser to ``sub`` (argparse's subparsers action), in ``COMMANDS`` order."""
    for command in COMMANDS:
        command.register(sub)
