"""The check types ``novikoff verify`` runs and reports, in a module with no imports of its own.

:mod:`novikoff.verify` builds and runs :class:`Check` objects; :mod:`novikoff.proofs.contracts`
raises :class:`Skip` when an optional tool is missing. Both import this module, so neither
imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["Check", "CheckResult", "Skip"]


class Skip(Exception):
    """A check that cannot run here (e.g. an optional dependency is missing)."""


@dataclass(frozen=True)
class Check:
    """A named check: ``run`` returns None on success or raises with the reason.

    ``spec_id`` is the theorem the check is reported under (the table's row, the JUnit
    classname); ``ids`` is every spec id the check bears on. ``ids`` always contains
    ``spec_id`` (it is added when missing), so ``--only X`` selects exactly the checks
    with ``X in check.ids``.
    """

    group: str
    spec_id: str
    name: str
    run: Callable[[], None]
    ids: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", frozenset(self.ids) | {self.spec_id})

    def bears_on(self, only: Iterable[str]) -> bool:
        """True iff some id of ``only`` is one of this check's ids."""
        return not self.ids.isdisjoint(only)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one :class:`Check`: ``ok`` (skipped counts as ok), seconds, message."""

    check: Check
    ok: bool
    seconds: float
    message: str = ""
    skipped: bool = False
