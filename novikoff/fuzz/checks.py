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

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
from novikoff.fuzz.contract import ImplementationResult
from novikoff.runtime.runs import RunRecord

__all__ = [
    "CHECKS",
    "VOTED_CHECKS",
    "CheckContext",
    "DiffCheck",
    "Discrepancy",
    "compare",
    "convergence_flag_discrepancies",
    "epoch_count_discrepancies",
    "mistake_count_discrepancies",
    "named_check",
    "reported_voters",
    "updates_discrepancies",
    "vote_count_discrepancies",
    "voted_prediction_discrepancies",
    "weight_direction_discrepancies",
]


@dataclass(frozen=True)
class CheckContext:
    """What a check needs besides the two runs: whether float64 arithmetic is ``exact`` on
    the data (for the weights: the averaged perceptron's division by N is not, so its
    weights are compared to 1e-9 even there), ``describe_update(k)``, the reference's k-th
    update (0-based) in words, ``output``, what the implementation returned as it
    returned it (the voted checks read its ``voters``), and ``tolerance``, how far in
    direction (the norm of the difference of the unit vectors) inexact weights may be from
    the reference's: 1e-9 by default, the float32 rounding bound for a declared float32
    implementation."""

    exact: bool
    describe_update: Callable[[int], str]
    output: Any = None
    tolerance: float = 1e-9


@dataclass(frozen=True)
class Discrepancy:
    """One property that failed: the check's name and what differed."""

    check: str
    message: str


def _notes(impl: ImplementationResult) -> str:
    return f" (note: {'; '.join(impl.notes)})" if impl.notes else ""


def _differs(
    check: str, what: str, theirs: object, ours: object, impl: ImplementationResult
) -> list[Discrepancy]:
    """One discrepancy of ``check`` when the implementation's ``theirs`` differs from the exact
    reference's ``ours`` (none when they are equal)."""
    if theirs == ours:
        return []
    return [Discrepancy(check, f"{what}: implementation {theirs}, exact reference {ours}{_notes(impl)}")]


def updates_discrepancies(
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


def mistake_count_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported number of mistakes (updates) equals the exact reference's."""
    if impl.mistakes is None:  # not reported: nothing to compare
        return []
    return _differs("check_mistake_count", "mistakes", impl.mistakes, run.mistakes, impl)


def epoch_count_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported number of epochs equals the exact reference's (the clean epoch that
    proves convergence included)."""
    if impl.epochs is None:  # not reported: nothing to compare
        return []
    return _differs("check_epoch_count", "epochs", impl.epochs, run.epochs, impl)


def convergence_flag_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The reported convergence flag equals the exact reference's (an epoch without an
    update within max_epochs)."""
    if impl.converged is None:  # not reported: nothing to compare
        return []
    return _differs("check_convergence_flag", "converged", impl.converged, run.converged, impl)


def _direction_matches(w: np.ndarray, W: Sequence[Fraction], exact: bool, tolerance: float = 1e-9) -> bool:
    if not any(W):
        return not w.any()
    if exact:
        j = next(i for i, v in enumerate(W) if v)
        c = Fraction(float(w[j])) / W[j]
        return c > 0 and all(Fraction(float(a)) == c * b for a, b in zip(w, W))
    ref = np.array([float(v) for v in W])
    nw, nr = np.linalg.norm(w), np.linalg.norm(ref)
    return bool(nw > 0 and np.linalg.norm(w / nw - ref / nr) <= tolerance)


def _exact_direction_matches(w: Sequence[Fraction], W: Sequence[Fraction]) -> bool:
    """Exact weights ``w`` are a positive multiple of ``W`` (zero iff ``W`` is zero)."""
    if not any(W):
        return not any(w)
    j = next(i for i, v in enumerate(W) if v)
    c = w[j] / W[j]
    return c > 0 and all(a == c * b for a, b in zip(w, W))


def weight_direction_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The final weights point the same way as the exact reference's: a positive multiple
    of them, exactly on float-exact data, to 1e-9 in direction otherwise (zero only when
    the reference's are zero). A declared float32 implementation gets the float32 rounding
    bound instead of 1e-9 (``CheckContext.tolerance``). Weights a command wrote exactly
    (integers, p/q) are compared exactly on every family."""
    exact_weights = [Fraction(v) for v in run.weights]
    if impl.exact_weights is not None:
        if _exact_direction_matches(impl.exact_weights, exact_weights):
            return []
        theirs = "(" + ", ".join(str(format_rational(v)) for v in impl.exact_weights) + ")"
    elif _direction_matches(impl.weights, exact_weights, context.exact, context.tolerance):
        return []
    else:
        theirs = str(impl.weights.tolist())
    ref = ", ".join(str(format_rational(v)) for v in exact_weights)
    return [
        Discrepancy(
            "check_weight_direction",
            f"final weights point elsewhere: implementation {theirs}, "
            f"exact reference ({ref}) after {run.mistakes} updates{_notes(impl)}",
        )
    ]


def reported_voters(output: Any) -> list[tuple[np.ndarray, int]] | None:
    """The ``voters`` a voted implementation returned (a mapping key or an attribute: a
    sequence of (weights, count) pairs), as float64 vectors and ints; None when it did not
    report them. A malformed list raises InputError saying what is wrong."""
    raw = output.get("voters") if isinstance(output, Mapping) else getattr(output, "voters", None)
    if raw is None:
        return None
    voters = []
    try:
        for j, (w, c) in enumerate(raw):
            vector = np.asarray(w, dtype=np.float64).ravel()
            if not np.isfinite(vector).all():
                raise InputError(f"voters[{j}]: weights contain NaN or infinity")
            if isinstance(c, (bool, np.bool_)) or int(c) != c or c < 0:
                raise InputError(f"voters[{j}]: count {c!r} is not a nonnegative integer")
            voters.append((vector, int(c)))
    except (TypeError, ValueError) as exc:
        raise InputError(f"voters: expected (weights, count) pairs: {exc}") from None
    return voters


def _integer_vector(values: Sequence[Any]) -> list[int]:
    """The exact values (floats taken at their dyadic value) times their positive common
    denominator: the signs of dot products are unchanged."""
    exact = [Fraction(v) if isinstance(v, (int, Fraction)) else Fraction(float(v)) for v in values]
    den = math.lcm(*(v.denominator for v in exact)) if exact else 1
    return [v.numerator * (den // v.denominator) for v in exact]


def _votes(data: Any, voters: Sequence[tuple[Any, int]]) -> list[int]:
    """sign(sum_j c_j sign(w_j.x~_i)) for every sample, sign(0) = -1, exactly
    (w.x~_i = y_i w.z_i)."""
    Z, _ = data.scaled_patterns
    tally = [0] * data.n_samples
    for w, c in voters:
        if c == 0:
            continue
        W = _integer_vector(w)
        if len(W) != data.dimension:
            raise InputError(f"voters: a vector of {len(W)} weights, expected {data.dimension} (bias last)")
        for i, (z, y) in enumerate(zip(Z, data.labels)):
            p = y * sum(a * b for a, b in zip(W, z))
            tally[i] += c if p > 0 else -c
    return [1 if t > 0 else -1 for t in tally]


def _voters_of(
    context: CheckContext, name: str
) -> tuple[list[tuple[np.ndarray, int]] | None, list[Discrepancy]]:
    """(the voters the implementation returned or None, []) or (None, [a finding]) when
    they are malformed."""
    try:
        return reported_voters(context.output), []
    except InputError as exc:
        return None, [Discrepancy(name, f"the implementation's voters are malformed: {exc}")]


def vote_count_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The voted implementation's survival counts, those above 0 in order, equal the exact
    reference's (the presentations after which each weight vector was current)."""
    got, bad = _voters_of(context, "check_vote_counts")
    if got is None:
        return bad
    theirs = [c for _, c in got if c > 0]
    ours = [c for _, c in getattr(run, "voters", ()) if c > 0]
    return _differs("check_vote_counts", "survival counts (those > 0)", theirs, ours, impl)


def voted_prediction_discrepancies(
    run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
) -> list[Discrepancy]:
    """The vote of the implementation's voters (exactly: sign(sum_j c_j sign(w_j.x~)),
    sign(0) = -1) equals the exact reference's on every training input."""
    got, bad = _voters_of(context, "check_voted_predictions")
    if got is None:
        return bad
    try:
        theirs = _votes(data, got)
    except InputError as exc:
        return [Discrepancy("check_voted_predictions", f"the implementation's voters are malformed: {exc}")]
    ours = _votes(data, getattr(run, "voters", ()))
    i = next((k for k, (a, b) in enumerate(zip(theirs, ours)) if a != b), None)
    if i is None:
        return []
    return [
        Discrepancy(
            "check_voted_predictions",
            f"the vote on sample {i}: implementation {theirs[i]:+d}, "
            f"exact reference {ours[i]:+d}{_notes(impl)}",
        )
    ]


CheckFunction = Callable[[RunRecord, ImplementationResult, Any, CheckContext], list[Discrepancy]]


@dataclass(frozen=True)
class DiffCheck:
    """A property ``novikoff diff`` checks on every example (not one of ``novikoff verify``'s
    checks, :class:`novikoff.proofs.results.Check`). A registered check: its ``name``, the
    function, and ``reports``, the field of :class:`ImplementationResult` it compares (when
    the implementation did not report it, the field is None and the check finds nothing),
    or a key of the implementation's own output (``voters``)."""

    name: str
    function: CheckFunction
    reports: str

    def __call__(
        self, run: RunRecord, impl: ImplementationResult, data: Any, context: CheckContext
    ) -> list[Discrepancy]:
        return self.function(run, impl, data, context)

    def applies(self, impl: ImplementationResult, output: Any = None) -> bool:
        """True iff the implementation reported the quantity this check compares (a field of
        ``impl``, or else of its ``output`` as returned)."""
        if hasattr(impl, self.reports):
            return getattr(impl, self.reports) is not None
        found = (
            output.get(self.reports) if isinstance(output, Mapping) else getattr(output, self.reports, None)
        )
        return found is not None


#: Every check, in the order ``novikoff diff`` reports the first difference.
CHECKS: tuple[DiffCheck, ...] = (
    DiffCheck("check_updates_match_reference", updates_discrepancies, "updates"),
    DiffCheck("check_mistake_count", mistake_count_discrepancies, "mistakes"),
    DiffCheck("check_epoch_count", epoch_count_discrepancies, "epochs"),
    DiffCheck("check_convergence_flag", convergence_flag_discrepancies, "converged"),
    DiffCheck("check_weight_direction", weight_direction_discrepancies, "weights"),
)

#: The voted perceptron's checks besides :data:`CHECKS` (they read the ``voters`` it returned).
VOTED_CHECKS: tuple[DiffCheck, ...] = (
    DiffCheck("check_vote_counts", vote_count_discrepancies, "voters"),
    DiffCheck("check_voted_predictions", voted_prediction_discrepancies, "voters"),
)

_BY_NAME: Mapping[str, DiffCheck] = MappingProxyType({c.name: c for c in CHECKS + VOTED_CHECKS})


def named_check(name: str) -> DiffCheck:
    """The registered check called ``name``; InputError lists them.

    Args:
        name: A check's name, e.g. ``"check_weight_direction"``.

    Returns:
        The registered :class:`DiffCheck` of that name.

    Raises:
        InputError: No check is called ``name`` (the message lists them).
    """
    if name not in _BY_NAME:
        raise InputError(f"unknown check {name!r}; checks: {', '.join(_BY_NAME)}")
    return _BY_NAME[name]


def compare(
    data: Any,
    run: RunRecord,
    impl: ImplementationResult,
    context: CheckContext,
    checks: Sequence[DiffCheck] = CHECKS,
) -> list[Discrepancy]:
    """Every finding of ``checks`` (default: all, in order) on one example; empty iff the
    implementation agrees with the exact reference on each property checked."""
    return [d for check in checks for d in check(run, impl, data, context)]


#: Deprecated names, still importable: :class:`DiffCheck` was ``Check`` (``novikoff verify``'s
#: checks are :class:`novikoff.proofs.results.Check`, an unrelated class), and
#: :func:`named_check` was ``check_named`` (a lookup, not a check); the property functions
#: were named as their checks (``check_weight_direction``, ...), which they return the
#: discrepancies of: a ``check_*`` raises or returns a result with ``ok``.
Check = DiffCheck
check_named = named_check
check_updates_match_reference = updates_discrepancies
check_mistake_count = mistake_count_discrepancies
check_epoch_count = epoch_count_discrepancies
check_convergence_flag = convergence_flag_discrepancies
check_weight_direction = weight_direction_discrepancies
check_vote_counts = vote_count_discrepancies
check_voted_predictions = voted_prediction_discrepancies
