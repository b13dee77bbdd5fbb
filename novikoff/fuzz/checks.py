"""The properties ``novikoff diff`` checks, one small named function each, in the style of
scikit-learn's estimator checks.

A check takes the exact reference run, what the implementation returned
(:class:`~novikoff.fuzz.contract.ImplementationResult`), the dataset and a
:class:`CheckContext`, and returns its findings (:class:`Discrepancy`, empty when the
property holds). A check whose quantity the implementation did not report (``reports``
is None in the result) finds nothing. :data:`CHECKS` lists them in the order ``diff``
reports the first difference; :func:`compare` runs them.

Decisions and weight *directions* are compared, never raw scale (a learning rate
rescales the weights without changing a decision). On float-exact data the direction
is compared exactly; on general float data to 1e-9. Whether a difference on float data
is a bug or rounding is decided by the caller (:mod:`novikoff.fuzz.rounding`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.fuzz.contract import ImplementationResult
from novikoff.rational import format_rational
from novikoff.runs import RunRecord

__all__ = [
    "CHECKS",
    "Check",
    "CheckContext",
    "Discrepancy",
    "check_convergence_flag",
    "check_epoch_count",
    "check_mistake_count",
    "check_named",
    "check_updates_match_reference",
    "check_weight_direction",
    "compare",
]


@dataclass(frozen=True)
class CheckContext:
    """What a check needs besides the two runs: whether float64 arithmetic is ``exact`` on
    the data, and ``describe_update(k)``, the reference's k-th update (0-based) in words."""

    exact: bool
    describe_update: Callable[[int], str]


@dataclass(frozen=True)
class Discrepancy:
    """One property that failed: the check's name and what differed."""

    check: str
    message: str


def _notes(impl: ImplementationResult) -> str:
    return f" (note: {'; '.join(impl.notes)})" if impl.notes else ""


def check_updates_match_reference(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The implementation updated on the same samples, in the same order, as the exact
    reference; reports the first update that differs and the reference's reason for it."""
    ref = run.update_indices
    if impl.updates is None or impl.updates == ref:
        return []
    k = next(
        (j for j, (a, b) in enumerate(zip(impl.updates, ref)) if a != b),
        min(len(impl.updates), len(ref)),
    )
    theirs = f"sample {impl.updates[k]}" if k < len(impl.updates) else "no sample (it stopped updating)"
    ours = context.describe_update(k) if k < len(ref) else "no sample (it had converged)"
    return [
        Discrepancy(
            "check_updates_match_reference",
            f"update #{k + 1} differs: the implementation updated on {theirs}; "
            f"the exact reference on {ours}{_notes(impl)}",
        )
    ]


def check_mistake_count(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported number of mistakes (updates) equals the exact reference's."""
    if impl.mistakes is None or impl.mistakes == run.mistakes:
        return []
    return [
        Discrepancy(
            "check_mistake_count",
            f"mistakes: implementation {impl.mistakes}, exact reference {run.mistakes}{_notes(impl)}",
        )
    ]


def check_epoch_count(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported number of epochs equals the exact reference's (the clean epoch that
    proves convergence included)."""
    if impl.epochs is None or impl.epochs == run.epochs:
        return []
    return [
        Discrepancy(
            "check_epoch_count",
            f"epochs: implementation {impl.epochs}, exact reference {run.epochs}{_notes(impl)}",
        )
    ]


def check_convergence_flag(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported convergence flag equals the exact reference's (an epoch without an
    update within max_epochs)."""
    if impl.converged is None or impl.converged == run.converged:
        return []
    return [
        Discrepancy(
            "check_convergence_flag",
            f"converged: implementation {impl.converged}, exact reference {run.converged}{_notes(impl)}",
        )
    ]


def _direction_matches(w: np.ndarray, W: Sequence[Fraction], exact: bool) -> bool:
    if not any(W):
        return not w.any()
    if exact:
        j = next(i for i, v in enumerate(W) if v)
        c = Fraction(float(w[j])) / W[j]
        return c > 0 and all(Fraction(float(a)) == c * b for a, b in zip(w, W))
    ref = np.array([float(v) for v in W])
    nw, nr = np.linalg.norm(w), np.linalg.norm(ref)
    return bool(nw > 0 and np.linalg.norm(w / nw - ref / nr) <= 1e-9)


def check_weight_direction(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The final weights point the same way as the exact reference's: a positive multiple
    of them, exactly on float-exact data, to 1e-9 in direction otherwise (zero only when
    the reference's are zero)."""
    exact_weights = [Fraction(v) for v in run.weights]
    if _direction_matches(impl.weights, exact_weights, context.exact):
        return []
    ref = ", ".join(str(format_rational(v)) for v in exact_weights)
    return [
        Discrepancy(
            "check_weight_direction",
            f"final weights point elsewhere: implementation {impl.weights.tolist()}, "
            f"exact reference ({ref}) after {run.mistakes} updates{_notes(impl)}",
        )
    ]


CheckFunction = Callable[[RunRecord, ImplementationResult, Any, CheckContext], list[Discrepancy]]


@dataclass(frozen=True)
class Check:
    """A registered check: its ``name``, the function, and ``reports``, the field of
    :class:`ImplementationResult` it compares (when the implementation did not report it,
    the field is None and the check finds nothing)."""

    name: str
    function: CheckFunction
    reports: str

    def __call__(
        self, run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
    ) -> list[Discrepancy]:
        return self.function(run, impl, data, context)

    def applies(self, impl: ImplementationResult) -> bool:
        """True iff the implementation reported the quantity this check compares."""
        return getattr(impl, self.reports) is not None


#: Every check, in the order ``novikoff diff`` reports the first difference.
CHECKS: tuple[Check, ...] = (
    Check("check_updates_match_reference", check_updates_match_reference, "updates"),
    Check("check_mistake_count", check_mistake_count, "mistakes"),
    Check("check_epoch_count", check_epoch_count, "epochs"),
    Check("check_convergence_flag", check_convergence_flag, "converged"),
    Check("check_weight_direction", check_weight_direction, "weights"),
)

_BY_NAME: Mapping[str, Check] = MappingProxyType({c.name: c for c in CHECKS})


def check_named(name: str) -> Check:
    """The registered check called ``name``; InputError lists them."""
    if name not in _BY_NAME:
        raise InputError(f"unknown check {name!r}; checks: {', '.join(_BY_NAME)}")
    return _BY_NAME[name]


def compare(
    data: Any,
    run: RunRecord,
    impl: ImplementationResult,
    context: CheckContext,
    checks: Sequence[Check] = CHECKS,
) -> list[Discrepancy]:
    """Every finding of ``checks`` (default: all, in order) on one example; empty iff the
    implementation agrees with the exact reference on each property checked."""
    return [d for check in checks for d in check(run, impl, data, context)]
