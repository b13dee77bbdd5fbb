"""One example of a differential campaign: the implementation called once, its answer
compared by the checks with the exact reference run of the declared semantics, and the
:class:`Verdict` (agree, bug, ambiguous, error or unsupported), a bug explained by the
other declared semantics under which it passes and the reference's trace around the first
divergence. :func:`example_strategy` draws the examples of one data family.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.exact.rational import format_rational
from novikoff.fuzz.checks import CheckContext, DiffCheck, Discrepancy, compare
from novikoff.fuzz.contract import (
    FitFunction,
    ImplementationError,
    ImplementationResult,
    call_limit,
    normalize,
)
from novikoff.fuzz.families import DataFamily
from novikoff.fuzz.registry import Algorithm
from novikoff.fuzz.semantics import (
    DECLARABLE,
    DEFAULT,
    DeclaredRun,
    Semantics,
    alternatives,
    declared_run,
    direction_tolerance,
    trace_lines,
)
from novikoff.fuzz.semantics import ambiguous as declared_ambiguous
from novikoff.fuzz.worker import Call, InProcessRunner, Runner
from novikoff.runtime.runs import RunRecord

__all__ = ["Example", "Verdict", "example_strategy", "verdict"]


@dataclass(frozen=True)
class Verdict:
    """One example's outcome: ``kind`` ('agree', 'bug', 'ambiguous', 'error' or
    'unsupported'), the first failing check's name and message, which of the checks asked
    for could compare something (the implementation reported their quantity), every
    failing check (``failing``), an error's ``status``, the call's output, and (when
    explained) the ``hint`` and the reference's ``trace``; ``explanations`` are every
    (semantics, hint) under which this example passes, the hint the first of them."""

    kind: str
    message: str = ""
    check: str = ""
    applicable: tuple[str, ...] = ()
    failing: tuple[tuple[str, str], ...] = ()
    status: str = ""
    stdout: str = ""
    stderr: str = ""
    hint: str = ""
    trace: tuple[str, ...] = ()
    explanations: tuple[tuple[Semantics, str], ...] = ()


def _declared_update(run: DeclaredRun, k: int) -> str:
    """The declared run's k-th update (0-based) in words, with the exact y w.x~ it saw."""
    p = next(p for p in run.presentations if p.updated and p.k == k)
    return (
        f"sample {p.index} in epoch {p.epoch}, where the exact w.z = {format_rational(p.p)} "
        "(the update condition held)"
    )


def _given_order(sem: Semantics, order: Any) -> Any:
    """The order the implementation is given under the declared order."""
    if sem.order == "given":
        return order
    return None if sem.order == "natural" else sem.order


@dataclass(frozen=True)
class _Reference:
    run: RunRecord
    exact: bool
    describe: Callable[[int], str]
    ambiguous: Callable[[], bool]
    tolerance: float = 1e-9


def _reference(
    algorithm: Algorithm,
    family: DataFamily,
    data: Any,
    order: Any,
    value: Fraction | None,
    sem: Semantics,
    w0: tuple[Fraction, ...] | None,
) -> _Reference:
    if sem.is_default:
        run = algorithm.run(data, value, order, family.max_epochs)
        return _Reference(
            run,
            family.exact and algorithm.weights_exact,
            lambda k: algorithm.describe_update(data, run, k),
            lambda: not family.exact and algorithm.ambiguous(data, run, order, value),
        )
    declared = declared_run(data, sem, order, family.max_epochs, w0, trace=True, check_bits=True)
    exact = bool(declared.float_exact)
    return _Reference(
        declared,
        exact,
        lambda k: _declared_update(declared, k),
        lambda: not exact and declared_ambiguous(declared),
        direction_tolerance(declared),
    )


def _divergence(impl: ImplementationResult, run: RunRecord) -> int | None:
    """The index of the first update where the implementation's reported updates part from
    the reference's (None when it reported none, or they agree)."""
    if impl.updates is None:
        return None
    ref = run.update_indices
    k = next(
        (j for j, (a, b) in enumerate(zip(impl.updates, ref)) if a != b), min(len(impl.updates), len(ref))
    )
    return None if impl.updates == ref else min(k, max(len(ref) - 1, 0))


def _describer(run: DeclaredRun) -> Callable[[int], str]:
    return lambda k: _declared_update(run, k)


def _rate_guess(impl: ImplementationResult, run: DeclaredRun) -> Fraction | None:
    """The learning rate the implementation's weights suggest: the declared rate times
    their ratio to the reference's (on the first nonzero coordinate), as the nearest
    fraction with a denominator up to 1000; None when there is no positive ratio."""
    j = next((i for i, v in enumerate(run.weights) if v), None)
    if j is None or not np.isfinite(impl.weights[j]):
        return None
    ratio = float(impl.weights[j]) / float(run.weights[j])
    if not ratio > 0:
        return None
    return (Fraction(ratio) * run.semantics.learning_rate).limit_denominator(1000) or None


def _explain(
    algorithm: Algorithm,
    family: DataFamily,
    data: Any,
    order: Any,
    sem: Semantics,
    w0: tuple[Fraction, ...] | None,
    impl: ImplementationResult,
    output: Any,
    checks: Sequence[DiffCheck],
) -> tuple[tuple[tuple[Semantics, str], ...], tuple[str, ...]]:
    """(explanations, trace) for a bug of the binary perceptron: the alternative semantics
    under which every check passes on this example, each with its hint, in the order of
    :func:`~novikoff.fuzz.semantics.alternatives`; and the reference's presentations around
    the first divergence (from the start when the implementation reported no updates)."""
    if algorithm.name not in DECLARABLE or not isinstance(data, Dataset):
        return (), ()
    run = declared_run(data, sem, order, family.max_epochs, w0, trace=True)
    trace = tuple(trace_lines(run, _divergence(impl, run)))
    found = []
    for alt, text in alternatives(sem, _rate_guess(impl, run)):
        other = declared_run(data, alt, order, family.max_epochs, w0, check_bits=True, trace=True)
        context = CheckContext(bool(other.float_exact), _describer(other), output, direction_tolerance(other))
        if not compare(data, other, impl, context, checks):
            found.append((alt, text))
    return tuple(found), trace


def verdict(
    algorithm: Algorithm,
    fit: FitFunction | Runner,
    family: DataFamily,
    data: Any,
    order: Any,
    value: Fraction | None,
    checks: Sequence[DiffCheck] | None = None,
    *,
    semantics: Semantics = DEFAULT,
    initial_weights: tuple[Fraction, ...] | None = None,
    explain: bool = False,
) -> Verdict:
    """Call the implementation on one example and run ``checks`` (default: the algorithm's)
    against the exact reference run of the declared ``semantics``.

    ``fit`` is a :class:`~novikoff.fuzz.worker.Runner` or a callable (called in this
    process, bounded by :func:`call_time_limit`). On float-exact data (for declared
    semantics: when the declared precision computes the run exactly) any finding is a bug;
    otherwise a finding is 'ambiguous' when some decision of the exact run lies within the
    rounding bound, else a bug. Every failing check is in ``failing``; ``explain`` adds the
    hint and the trace to a bug."""
    checks = algorithm.checks if checks is None else checks
    runner = fit if isinstance(fit, Runner) else InProcessRunner(fit, call_limit())
    sem = semantics
    w0 = initial_weights if sem.initial_weights == "drawn" else None
    call = Call(
        data, _given_order(sem, order), family.max_epochs, algorithm.keyword, value, w0, sem, algorithm.name
    )
    outcome = runner.call(call)
    out, err = outcome.stdout, outcome.stderr
    if outcome.status == "unsupported":
        return Verdict("unsupported", outcome.message, stdout=out, stderr=err)
    if outcome.failed:
        return Verdict("error", outcome.message, status=outcome.status, stdout=out, stderr=err)
    try:
        impl = normalize(outcome.output, data.n_features, algorithm.weight_shapes(data))
    except ImplementationError as exc:
        return Verdict("error", str(exc), status="contract", stdout=out, stderr=err)
    ref = _reference(algorithm, family, data, order, value, sem, w0)
    context = CheckContext(ref.exact, ref.describe, outcome.output, ref.tolerance)
    applicable = tuple(c.name for c in checks if c.applies(impl, outcome.output))
    found: list[Discrepancy] = compare(data, ref.run, impl, context, checks)
    if not found:
        return Verdict("agree", applicable=applicable, stdout=out, stderr=err)
    first = found[0]
    kind = "ambiguous" if ref.ambiguous() else "bug"
    failing = tuple((d.check, d.message) for d in found)
    explanations: tuple[tuple[Semantics, str], ...] = ()
    trace: tuple[str, ...] = ()
    if explain and kind == "bug":
        explanations, trace = _explain(algorithm, family, data, order, sem, w0, impl, outcome.output, checks)
    hint = explanations[0][1] if explanations else ""
    return Verdict(
        kind, first.message, first.check, applicable, failing, "", out, err, hint, trace, explanations
    )


Example = tuple[Any, Any, Any, Any]  # data, order, parameter value, initial weights


def example_strategy(
    algorithm: Algorithm, family: DataFamily, semantics: Semantics = DEFAULT
) -> st.SearchStrategy[Example]:
    """(data, order, parameter value, initial weights) of one family: the order None or a
    permutation (None only for a family with ``natural_order`` or a declared order other
    than ``given``); initial weights small integers when declared ``drawn``, else None;
    with the default semantics only examples the family's ``keep`` accepts (declared
    semantics decide exactness per example instead)."""
    fixed_order = family.natural_order or semantics.order != "given"

    def orders(ds: Any) -> st.SearchStrategy[Any]:
        return st.none() if fixed_order else st.one_of(st.none(), st.permutations(range(ds.n_samples)))

    def weights(ds: Any) -> st.SearchStrategy[Any]:
        if semantics.initial_weights != "drawn":
            return st.none()
        n = ds.dimension
        return st.lists(st.integers(-3, 3).map(Fraction), min_size=n, max_size=n).map(tuple)

    examples = family.data.flatmap(
        lambda ds: st.tuples(st.just(ds), orders(ds), algorithm.diff_values(), weights(ds))
    )
    keep = family.keep
    if keep is None or not semantics.is_default:
        return examples
    return examples.filter(lambda ex: keep(ex[0], ex[1], family.max_epochs))
