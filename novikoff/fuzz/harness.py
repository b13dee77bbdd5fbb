"""Differential testing of anyone's implementation against the exact reference.

The implementation contract (how ``fit`` is called, what it may return) is in
:mod:`novikoff.fuzz.contract`, the text protocol of an executable (``diff --command``) in
:mod:`novikoff.fuzz.protocol`; every call runs in a killable worker process
(:mod:`novikoff.fuzz.worker`). The algorithms (reference, parameter, data families,
rounding test) are in :mod:`novikoff.fuzz.registry`; the properties compared, one named
check each, in :mod:`novikoff.fuzz.checks`; what implementations may legitimately do
differently, declared, in :mod:`novikoff.fuzz.semantics`.

Oracle: everything the implementation returned is compared with the exact reference
run of the declared semantics (by default the textbook perceptron). Decisions and
weight *directions* are compared, never raw scale. On data whose floating-point
arithmetic is exact any difference is a bug. On general float data a difference is
reported as *ambiguous* (rounding) when the exact run made a decision within the error
bound of evaluating it; otherwise it is a bug. The first bug is shrunk by Hypothesis to
a minimal dataset (then its all-zero feature columns are dropped), printed exactly with
every failing check, the reference's trace around the first divergence, a hint when an
other declared semantics explains the difference, and a command that reproduces it; the
first crash is shrunk too.

A call that raises, crashes (the worker dies, a command exits nonzero or by a signal),
answers outside the contract or outlives the per-call limit is an error finding. A call
that times out ends its data family (its other examples are *not run*) and the next
family starts in a fresh worker; the campaign reports the first hang once and counts
the others.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
from novikoff.fuzz.checks import Check, CheckContext, Discrepancy, compare
from novikoff.fuzz.contract import (
    DEFAULT_CALL_TIMEOUT,
    FitFunction,
    ImplementationError,
    ImplementationResult,
    Unsupported,
    call_implementation,
    call_limit,
    call_time_limit,
    normalize,
)
from novikoff.fuzz.families import DataFamily
from novikoff.fuzz.registry import Algorithm, lookup
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
from novikoff.fuzz.shrinking import drop_zero_columns, shrink_failure
from novikoff.fuzz.worker import Call, CallOutcome, InProcessRunner, Runner, as_runner, describe_outputs
from novikoff.runtime.runs import RunRecord

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "FamilyCounts",
    "Finding",
    "ImplementationError",
    "ImplementationResult",
    "Outcome",
    "Report",
    "Unsupported",
    "Verdict",
    "call_implementation",
    "call_time_limit",
    "check_family",
    "check_implementation",
    "check_settings",
    "family_check",
    "float_with_exact",
    "load_callable",
    "merge_reports",
    "reference_run",
    "require_callable",
    "select_families",
    "sklearn_fit",
    "verdict",
]

#: Seconds the greedy shrinker may spend on the first crashing example.
CRASH_SHRINK_SECONDS = 10.0
#: Seconds Hypothesis may spend shrinking the first bug (a slow implementation's shrinking
#: stops there, with the smallest failing example found so far).
BUG_SHRINK_SECONDS = 120.0


#: A hint must also explain this many of the failing examples of the run (the first ones).
HINT_CONFIRMATIONS = 5
_PASSES = ("agree", "ambiguous", "unsupported")


class _ShrinkTimeUp(Exception):
    """The shrinking budget is spent."""


def reference_run(algorithm: str, ds: Any, order: Any, max_epochs: int, value: Fraction | None) -> RunRecord:
    """The exact reference run an implementation of ``algorithm`` is compared with."""
    return lookup(algorithm).run(ds, value, order, max_epochs)


@dataclass
class Finding:
    """One disagreement (``kind`` is 'bug', 'ambiguous' or 'error'); ``check`` names the
    first property that failed (empty for an error) and ``others`` the further failing
    checks as (name, message); ``status`` says what an error was (``raised``, ``exit``,
    ``timeout``, ``crash``, ``protocol``, ``contract``); ``stdout``/``stderr`` are what the
    implementation printed in that call; ``hint`` names a declared semantics that explains
    the difference; ``trace`` is the reference's run around the first divergence."""

    kind: str
    family: str
    message: str
    dataset: Any  # Dataset, or MulticlassData for --algorithm multiclass
    order: Any
    max_epochs: int
    algorithm: str = "perceptron"
    value: Fraction | None = None
    check: str = ""
    status: str = ""
    stdout: str = ""
    stderr: str = ""
    others: tuple[tuple[str, str], ...] = ()
    hint: str = ""
    trace: tuple[str, ...] = ()
    initial_weights: tuple[Fraction, ...] | None = None
    semantics: Semantics = DEFAULT
    family_id: str = ""

    def describe(self) -> str:
        """The finding with its dataset printed exactly, one sample a line, every failing
        check, the hint, the reference's trace and the call's output."""
        algo = lookup(self.algorithm)
        rows = []
        for i in range(self.dataset.n_samples):
            xs = ", ".join(float_with_exact(v) for v in self.dataset.features(i))
            rows.append(f"    x_{i} = ({xs}), y = {algo.format_label(self.dataset.labels[i])}")
        order = "natural" if self.order is None else list(self.order)
        if self.semantics.order != "given":
            order = self.semantics.order
        param = "" if self.value is None else f", {algo.keyword} = {self.value}"
        bias = getattr(self.dataset, "bias", 1)
        check = f" {self.check}:" if self.check else ":"
        w0 = ""
        if self.initial_weights is not None:
            w0 = (
                ", initial weights (" + ", ".join(str(format_rational(v)) for v in self.initial_weights) + ")"
            )
        lines = [f"[{self.kind}] {self.family} ({self.algorithm}{param}){check} {self.message}"]
        lines += [f"  also failing: {name}: {message}" for name, message in self.others]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        lines.append(f"  dataset (exact, bias {bias}), order {order}, max_epochs {self.max_epochs}{w0}:")
        lines += rows
        if self.trace:
            lines.append(f"  the exact reference's run ({self.semantics.describe()}):")
            lines += ["    " + t for t in self.trace]
        lines += describe_outputs(CallOutcome(self.status or "ok", stdout=self.stdout, stderr=self.stderr))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The finding as JSON values (exact numbers as ints or "p/q" strings)."""
        return {
            "kind": self.kind,
            "family": self.family,
            "family_id": self.family_id,
            "check": self.check,
            "message": self.message,
            "status": self.status,
            "checks": [
                {"check": name, "message": message}
                for name, message in ((self.check, self.message), *self.others)
                if name
            ],
            "hint": self.hint,
            "trace": list(self.trace),
            "stdout": self.stdout,
            "stderr": self.stderr,
            "bias": format_rational(getattr(self.dataset, "bias", 1)),
            "order": None if self.order is None else list(self.order),
            "max_epochs": self.max_epochs,
            "algorithm": self.algorithm,
            "parameter": None if self.value is None else format_rational(self.value),
            "initial_weights": None
            if self.initial_weights is None
            else [format_rational(v) for v in self.initial_weights],
            "X": [
                [format_rational(v) for v in self.dataset.features(i)] for i in range(self.dataset.n_samples)
            ],
            "y": list(self.dataset.labels),
        }


def float_with_exact(value: Fraction) -> str:
    """``value`` as the float it is closest to, with the exact value beside when that float's
    shortest decimal is not exactly ``value`` (``0.1 (exact 3602879701896397/36028797018963968)``;
    ``0.5``, ``3.0`` and ``1e-300``-style exact values alone)."""
    try:
        f = float(value)
    except OverflowError:
        return str(format_rational(value))
    text = repr(f)
    if not np.isfinite(f) or Fraction(text) != value:
        return f"{text} (exact {format_rational(value)})"
    return text


@dataclass
class FamilyCounts:
    """What one data family saw: examples run (``examples``) and how they ended, plus the
    examples drawn but ``not_run`` (after a hang in that family)."""

    family: str
    id: str
    examples: int = 0
    agreed: int = 0
    bugs: int = 0
    ambiguous: int = 0
    errors: int = 0
    unsupported: int = 0
    timeouts: int = 0
    not_run: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class Report:
    """The outcome of :func:`check_implementation` (or of one family: :func:`check_family`).
    ``errors`` holds the error findings (a hang once per campaign: ``timeouts`` counts them
    all); ``families`` the per-family counts."""

    examples: int
    agreed: int
    bugs: list[Finding]
    ambiguous: list[Finding]
    errors: list[Finding]
    repro: str = ""
    unsupported: int = 0
    first_bug: int | None = None
    families: list[FamilyCounts] = field(default_factory=list)
    timeouts: int = 0
    not_run: int = 0

    @property
    def ok(self) -> bool:
        return not self.bugs and not self.errors

    def summary(self) -> str:
        """The counts (per family too), the first bug and the first error described, and
        the reproducing command when something was found."""
        extra = ""
        if self.timeouts or self.not_run:
            extra = f", {self.timeouts} timeouts, {self.not_run} not run"
        lines = [
            f"{self.examples} examples: {self.agreed} agreed, {len(self.bugs)} bugs, "
            f"{len(self.ambiguous)} ambiguous (rounding), {len(self.errors)} errors, "
            f"{self.unsupported} unsupported by the implementation{extra}"
        ]
        if len(self.families) > 1 or not self.ok:
            lines += family_table(self.families)
        for f in self.bugs[:1] + self.errors[:1]:
            lines.append(f.describe())
        if not self.ok and self.repro:
            lines.append(f"reproduce: {self.repro}")
        return "\n".join(lines)


def family_table(families: Sequence[FamilyCounts]) -> list[str]:
    """The per-family counts as aligned text lines."""
    if not families:
        return []
    width = max(len(f.id) for f in families)
    head = ("agreed", "bugs", "ambiguous", "errors", "unsupported", "timeouts", "not run")
    lines = [f"  {'family':<{width}}  " + "  ".join(head)]
    for f in families:
        values = (f.agreed, f.bugs, f.ambiguous, f.errors, f.unsupported, f.timeouts, f.not_run)
        lines.append(f"  {f.id:<{width}}  " + "  ".join(f"{v:>{len(h)}}" for v, h in zip(values, head)))
    return lines


# ------------------------------------------------------------------------ one example


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
    checks: Sequence[Check],
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
    checks: Sequence[Check] | None = None,
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


def _examples(
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


# ------------------------------------------------------------------------ campaigns


def _key(example: Example) -> str:
    data, order, value, w0 = example
    return repr((data.numerators, data.denominator, data.labels, order, value, w0))


def _finding(
    v: Verdict, fam: DataFamily, algo: Algorithm, sem: Semantics, example: Example, prefix: str = ""
) -> Finding:
    """The finding of verdict ``v`` on ``example`` of family ``fam``."""
    ds, order, value, w0 = example
    return Finding(
        v.kind,
        fam.name,
        prefix + v.message,
        ds,
        order,
        fam.max_epochs,
        algo.name,
        value,
        v.check,
        v.status,
        v.stdout,
        v.stderr,
        v.failing[1:],
        v.hint,
        v.trace,
        w0 if sem.initial_weights == "drawn" else None,
        sem,
        fam.id,
    )


def check_family(
    fit: FitFunction | Runner,
    family: str,
    examples: int = 50,
    seed_value: int = 0,
    shrink: bool = True,
    algorithm: str = "perceptron",
    checks: Sequence[Check] | None = None,
    *,
    semantics: Semantics = DEFAULT,
    isolate: bool = True,
    call_timeout: float | None = None,
) -> Report:
    """Run one data family (its name or id) with ``checks`` (default: the algorithm's).

    ``fit`` is a callable (run in a forked worker, ``isolate``; the per-call limit is
    ``call_timeout``, default :func:`call_time_limit`'s) or a Runner (then it is not
    closed here). With ``shrink``, the first bug is shrunk by Hypothesis to a minimal
    example (its message starts with ``(minimal example)``; all-zero feature columns
    dropped; explained with a hint and the reference's trace), and the first crash (an
    error other than a timeout) by the greedy shrinker. A call that times out ends the
    family: the examples after it are counted ``not_run``. ``Report.first_bug`` is the
    number of the example (1-based) at which the first bug was seen, before shrinking."""
    algo = lookup(algorithm)
    fam = algo.data_family(family)
    sem = _check_semantics(semantics, algo)
    owned = not isinstance(fit, Runner)
    limit = call_limit() if call_timeout is None else call_timeout or None
    runner = as_runner(fit, limit, isolate)
    try:
        return _run_family(runner, algo, fam, examples, seed_value, shrink, checks, sem, shrink)
    finally:
        if owned:
            runner.close()


def _run_family(
    runner: Runner,
    algo: Algorithm,
    fam: DataFamily,
    examples: int,
    seed_value: int,
    shrink: bool,
    checks: Sequence[Check] | None,
    sem: Semantics,
    shrink_errors: bool,
) -> Report:
    tally: dict[str, list[Finding]] = {"bug": [], "ambiguous": [], "error": [], "unsupported": []}
    counts = FamilyCounts(fam.name, fam.id)
    seen = 0
    first_bug: int | None = None
    hung = False
    bug_example: Example | None = None
    bug_examples: list[Example] = []
    error_example: Example | None = None

    def finding(v: Verdict, example: Example, prefix: str = "") -> Finding:
        return _finding(v, fam, algo, sem, example, prefix)

    def judge(example: Example, explain: bool = False, semantics: Semantics = sem) -> Verdict:
        return verdict(
            algo,
            runner,
            fam,
            *example[:3],
            checks,
            semantics=semantics,
            initial_weights=example[3],
            explain=explain,
        )

    @seed(seed_value)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(_examples(algo, fam, sem))
    def run(example: Example) -> None:
        nonlocal seen, first_bug, hung, bug_example, error_example
        if hung:
            counts.not_run += 1
            return
        seen += 1
        v = judge(example)
        if v.kind == "agree":
            counts.agreed += 1
            return
        tally[v.kind].append(finding(v, example))
        if v.kind == "bug":
            counts.bugs += 1
            if first_bug is None:
                first_bug, bug_example = seen, example
            if len(bug_examples) < HINT_CONFIRMATIONS:
                bug_examples.append(example)
        elif v.kind == "ambiguous":
            counts.ambiguous += 1
        elif v.kind == "unsupported":
            counts.unsupported += 1
        elif v.status == "timeout":
            counts.timeouts += 1
            hung = True
        else:
            counts.errors += 1
            if error_example is None:
                error_example = example

    try:
        run()
    except Unsatisfiable:  # a family none of whose examples fit: nothing run, nothing found
        pass
    if shrink and tally["bug"] and bug_example is not None:
        tally["bug"][0] = _shrink_bug(
            judge, finding, fam, algo, sem, bug_example, tally["bug"][0], bug_examples
        )
    if shrink_errors and error_example is not None and isinstance(error_example[0], Dataset):
        index = next(j for j, f in enumerate(tally["error"]) if f.status != "timeout")
        tally["error"][index] = _shrink_error(judge, finding, error_example, tally["error"][index])
    counts.examples = seen
    return Report(
        seen,
        counts.agreed,
        tally["bug"],
        tally["ambiguous"],
        tally["error"],
        unsupported=len(tally["unsupported"]),
        first_bug=first_bug,
        families=[counts],
        timeouts=counts.timeouts,
        not_run=counts.not_run,
    )


def _shrink_bug(
    judge: Callable[..., Verdict],
    finding: Callable[..., Finding],
    fam: DataFamily,
    algo: Algorithm,
    sem: Semantics,
    example: Example,
    unshrunk: Finding,
    seen: Sequence[Example] = (),
) -> Finding:
    """The first bug shrunk by Hypothesis, its all-zero feature columns dropped, explained.
    A call that hangs while shrinking, or :data:`BUG_SHRINK_SECONDS` spent, stops the search
    (the smallest failing example so far is kept). The hint is the first explanation of the
    minimal example that also explains the failing examples ``seen`` during the run (a
    coincidence on a tiny example names no semantics)."""
    hung = False
    smallest_yet: list[Example] = [example]
    stop_at = time.monotonic() + BUG_SHRINK_SECONDS

    def fails(ex: Example) -> bool:
        nonlocal hung
        if hung:
            return False
        if time.monotonic() > stop_at:
            raise _ShrinkTimeUp
        v = judge(ex)
        hung = v.status == "timeout"
        if v.kind == "bug":
            smallest_yet.append(ex)  # Hypothesis tries smaller examples as it goes
        return v.kind == "bug"

    try:
        smallest = find(
            _examples(algo, fam, sem),
            fails,
            settings=settings(
                database=None,
                max_examples=2000,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.generate, Phase.shrink],  # no explain phase: it re-runs the implementation
            ),
        )
    except (NoSuchExample, Unsatisfiable, _ShrinkTimeUp):
        smallest = smallest_yet[-1]
    if isinstance(smallest[0], Dataset):
        ds, w0 = drop_zero_columns(smallest[0], smallest[3])
        narrower = (ds, smallest[1], smallest[2], w0)
        if ds.n_features < smallest[0].n_features and judge(narrower).kind == "bug":
            smallest = narrower
    v = judge(smallest, explain=True)
    if v.kind != "bug":  # flaky: keep the example as first seen
        return unshrunk
    confirmed = next(
        (
            text
            for alt, text in v.explanations
            if all(judge(ex, semantics=alt).kind in _PASSES for ex in seen)
        ),
        "",
    )
    return finding(replace(v, hint=confirmed), smallest, "(minimal example) ")


def _shrink_error(
    judge: Callable[..., Verdict],
    finding: Callable[..., Finding],
    example: Example,
    unshrunk: Finding,
) -> Finding:
    """The first crashing (raising, exiting, ...) example made small by the greedy shrinker
    of :mod:`novikoff.fuzz.shrinking`: an edit is kept when the call fails the same way."""
    status = unshrunk.status
    ds, order, value, w0 = example
    hung = False

    def still_fails(d: Dataset, o: Any) -> bool:
        nonlocal hung
        if hung or (w0 is not None and d.dimension != len(w0)):
            return False
        v = judge((d, o, value, w0))
        hung = v.status == "timeout"
        return v.kind == "error" and v.status == status

    small, small_order = shrink_failure(ds, order, still_fails, CRASH_SHRINK_SECONDS)
    if small is ds:
        return unshrunk
    v = judge((small, small_order, value, w0))
    if v.kind != "error":
        return unshrunk
    return finding(v, (small, small_order, value, w0), "(minimal example) ")


def merge_reports(reports: Sequence[Report], repro: str = "") -> Report:
    """One campaign's report from its families' (in order): counts summed, findings joined
    (a hang reported once: the first; ``timeouts`` counts them all), ``first_bug`` counted
    over the families before the first one that saw a bug."""
    first_bug, before = None, 0
    for r in reports:
        if r.first_bug is not None:
            first_bug = before + r.first_bug
            break
        before += r.examples
    errors: list[Finding] = []
    hang_seen = False
    for f in (f for r in reports for f in r.errors):
        if f.status == "timeout":
            if hang_seen:
                continue
            hang_seen = True
        errors.append(f)
    return Report(
        sum(r.examples for r in reports),
        sum(r.agreed for r in reports),
        [f for r in reports for f in r.bugs],
        [f for r in reports for f in r.ambiguous],
        errors,
        repro,
        sum(r.unsupported for r in reports),
        first_bug,
        [c for r in reports for c in r.families],
        sum(r.timeouts for r in reports),
        sum(r.not_run for r in reports),
    )


def select_families(algorithm: str, families: Sequence[str] | None) -> list[DataFamily]:
    """The data families of ``algorithm`` named in ``families`` (ids or names, in the
    algorithm's order; None: all). An unknown name is an InputError listing the ids."""
    algo = lookup(algorithm)
    if families is None:
        return list(algo.data_families)
    known = {n for f in algo.data_families for n in (f.name, f.id)}
    unknown = [n for n in families if n not in known]
    if unknown or not families:
        ids = ", ".join(repr(f.id) for f in algo.data_families)
        what = f"unknown {', '.join(map(repr, unknown))}" if unknown else "none given"
        raise InputError(f"--families: {what}; families of --algorithm {algo.name}: {ids}")
    return [f for f in algo.data_families if f.name in families or f.id in families]


def _check_semantics(semantics: Semantics, algo: Algorithm) -> Semantics:
    if not isinstance(semantics, Semantics):
        raise TypeError(
            f"semantics: expected a novikoff.fuzz.semantics.Semantics, got {type(semantics).__name__}"
        )
    if not semantics.is_default and algo.name not in DECLARABLE:
        raise InputError(
            f"declared semantics ({' '.join(semantics.options())}) are for --algorithm "
            f"{' or '.join(DECLARABLE)}, not {algo.name}"
        )
    return semantics


def check_implementation(
    fit: FitFunction | Runner,
    algorithm: str = "perceptron",
    examples: int = 50,
    seed: int = 0,
    repro: str = "",
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
    *,
    semantics: Semantics = DEFAULT,
    families: Sequence[str] | None = None,
    isolate: bool = True,
) -> Report:
    """Differential-test ``fit`` against the exact reference of the declared ``semantics``
    on the data families of ``algorithm`` (:data:`novikoff.fuzz.registry.ALGORITHMS`; an
    unknown name is an InputError), all of them or those named in ``families``, with its
    checks (:data:`novikoff.fuzz.checks.CHECKS`, plus the voted checks for ``voted``).

    ``fit`` is a callable (run in a forked worker process unless ``isolate`` is False) or
    a :class:`~novikoff.fuzz.worker.Runner` (e.g. a CommandRunner for an executable). PDM's
    ``fit`` gets ``eps=``, PFM's ``beta=``. Guarantees: a call that raises, calls
    ``sys.exit``, crashes, answers outside the contract or runs longer than
    ``call_timeout`` seconds (None: no limit) is an error finding, so the report is not ok;
    a hang ends its family and the campaign goes on in a fresh worker, reported once. Only
    the first bug found is shrunk to a minimal example; the families after it report their
    bugs as found.
    """
    require_callable(fit, "check_implementation")
    algo = lookup(algorithm)
    sem = _check_semantics(semantics, algo)
    chosen = select_families(algo.name, families)
    call_time_limit(call_timeout)
    runner = as_runner(fit, call_timeout or None, isolate)
    reports: list[Report] = []
    try:
        for fam in chosen:  # shrinking dominates the cost: only the first bug (and crash) is shrunk
            shrink = not any(r.bugs for r in reports)
            shrink_errors = not any(f.status != "timeout" for r in reports for f in r.errors)
            reports.append(_run_family(runner, algo, fam, examples, seed, shrink, None, sem, shrink_errors))
    finally:
        if runner is not fit:
            runner.close()
    return merge_reports(reports, repro)


# ------------------------------------------------------------------------ adapters


def sklearn_fit(estimator: Callable[..., Any], **params: Any) -> FitFunction:
    """Adapt a scikit-learn-style estimator class (``fit``, ``coef_``, ``intercept_``).

    ``max_epochs`` becomes ``max_iter``; an explicit ``order`` is not supported by such
    estimators and is presented by reordering the rows (same samples, same order each
    epoch), which is exact for ``shuffle=False``. The declared order ``sklearn:SEED``
    (passed as ``order="sklearn:SEED"``) sets ``shuffle=True, random_state=SEED``: the
    estimator's own shuffling, replicated by the reference. Notes name what differs from
    the textbook perceptron and the declared semantics that express it.
    """

    def fit(
        X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Sequence[int] | str | None = None
    ) -> dict[str, Any]:
        import warnings

        if len(np.unique(y)) < 2:
            raise Unsupported("scikit-learn estimators need two classes")
        extra: dict[str, Any] = {"max_iter": max_epochs}
        if isinstance(order, str):
            extra.update(shuffle=True, random_state=int(order.partition(":")[2]))
            idx = np.arange(len(y))
        else:
            idx = np.arange(len(y)) if order is None else np.asarray(order)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = estimator(**{**params, **extra}).fit(X[idx], y[idx])
        return {"weights": np.append(np.ravel(model.coef_), model.intercept_), "notes": _sklearn_notes(model)}

    return fit


def _sklearn_notes(model: Any) -> list[str]:
    """What an SGD-style estimator does unlike the textbook perceptron, each with the
    declared semantics that say it (docs/howto/diff.md)."""
    get = model.get_params()
    notes = []
    if get.get("loss", "perceptron") == "hinge":
        notes.append("loss='hinge' updates within margin 1: --margin 1")
    if get.get("penalty") == "l2" and get.get("alpha", 0):
        notes.append(f"penalty='l2' shrinks the weights by (1 - eta alpha) each step: --l2 {get['alpha']!r}")
    if get.get("learning_rate") == "optimal":
        notes.append("learning_rate='optimal' uses eta_t = 1 / (alpha (t0 + t - 1)): --schedule optimal")
    if get.get("tol") is not None:
        n = get.get("n_iter_no_change", 5)
        notes.append(
            f"tol={get['tol']!r} stops after n_iter_no_change={n} epochs without improving the "
            f"objective by tol: --stop tol:{get['tol']!r}:{n}"
        )
    if get.get("shuffle", False):
        notes.append("shuffle=True presents the samples in its own random order: --order sklearn:SEED")
    return notes


def load_callable(spec: str) -> Callable[..., Any]:
    """``module:attribute`` -> the object; InputError names what failed."""
    module_name, colon, attr = spec.partition(":")
    if not colon or not module_name or not attr:
        raise InputError(f"expected MODULE:CALLABLE, got {spec!r}")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except SystemExit as exc:
        raise InputError(f"cannot import {module_name!r}: it called sys.exit({exc.code!r})") from None
    except RecursionError:
        raise InputError(f"cannot import {module_name!r}: RecursionError") from None
    except Exception as exc:
        raise InputError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InputError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise InputError(f"{spec} is not callable")
    return obj


def require_callable(fit: Any, where: str) -> None:
    """TypeError naming ``where`` unless ``fit`` is one callable (or a Runner)."""
    if not callable(fit) and not isinstance(fit, Runner):
        raise TypeError(
            f"{where}: expected one callable fit(X, y, max_epochs=..., order=...), "
            f"got {type(fit).__name__} {_short_repr(fit)} (test several implementations with "
            "one decorator each)"
        )


def _short_repr(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


#: Examples per test of :func:`novikoff.testing.parametrize_with_checks` when neither
#: ``examples`` nor the active profile sets a budget (the profile's ``max_examples`` is
#: Hypothesis' default 100): every example calls the implementation once, and shrinking
#: a failure calls it again.
DEFAULT_EXAMPLES = 20


def check_settings(examples: int | None = None) -> settings:
    """The Hypothesis settings of :func:`parametrize_with_checks`: the active profile's
    (``database``, ``derandomize``, phases, ...), with ``max_examples`` = ``examples`` when
    given, else the profile's when it changed Hypothesis' default (100), else
    :data:`DEFAULT_EXAMPLES`; no deadline unless the profile sets one other than
    Hypothesis' default (200 ms: too short for a real implementation's first call); no
    explain phase unless the profile sets the phases (it re-runs the implementation dozens
    of times after shrinking); and the health checks that certified data generation always
    trips (too slow, large data, filtering) suppressed."""
    base = settings()
    default = settings.get_profile("default")
    slow = {HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much}
    suppressed = list(dict.fromkeys([*base.suppress_health_check, *sorted(slow, key=lambda h: h.name)]))
    overrides: dict[str, Any] = {"suppress_health_check": suppressed}
    if examples is not None:
        overrides["max_examples"] = examples
    elif base.max_examples == default.max_examples:
        overrides["max_examples"] = DEFAULT_EXAMPLES
    if base.deadline == default.deadline:
        overrides["deadline"] = None
    if tuple(base.phases) == tuple(default.phases):
        overrides["phases"] = [p for p in base.phases if p is not Phase.explain]
    return settings(base, **overrides)


@dataclass
class Outcome:
    """What one :func:`family_check` run saw: examples run, and for each check how many
    examples the implementation reported that check's quantity in."""

    examples: int = 0
    reported: dict[str, int] = field(default_factory=dict)


def _bug_found(text: str) -> None:
    """Raise a bug's AssertionError (its own origin, so Hypothesis shrinks and reports a bug
    and an error of one run as two failures: an ExceptionGroup of two AssertionErrors)."""
    raise AssertionError(text)


def _error_found(text: str) -> None:
    """Raise an error finding's AssertionError (see :func:`_bug_found`)."""
    raise AssertionError(text)


def family_check(
    fit: FitFunction | Runner,
    family: str,
    examples: int | None = None,
    seed_value: int | None = None,
    algorithm: str = "perceptron",
    checks: Sequence[Check] | None = None,
    *,
    semantics: Semantics = DEFAULT,
    isolate: bool = True,
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
) -> Callable[[], Outcome]:
    """One data family (its name or id) as a Hypothesis test of ``checks`` under the user's
    settings (:func:`check_settings`): a bug or an error raises AssertionError with the
    example printed exactly, so Hypothesis shrinks it, stores it in the profile's
    database and replays it first next time. ``seed_value`` None leaves the seed to
    Hypothesis (``--hypothesis-seed``, ``derandomize``). A bug and an error are raised from
    two places, so a run that finds both reports both (Hypothesis raises an ExceptionGroup
    of their AssertionErrors). Each run calls ``fit`` in a fresh
    forked worker (``isolate``), each call bounded by ``call_timeout`` seconds; after a
    call times out, only that example is replayed (failing again at once) and no other is
    called, so one hang costs one limit. The returned callable runs the test and returns
    its :class:`Outcome`."""
    require_callable(fit, "family_check")
    algo = lookup(algorithm)
    fam = algo.data_family(family)
    sem = _check_semantics(semantics, algo)
    outcome = Outcome()
    state: dict[str, Any] = {}

    @check_settings(examples)
    @given(_examples(algo, fam, sem))
    def check(example: Example) -> None:
        key = _key(example)
        if "hang" in state:  # one hang, one limit: replay its failure, call nothing else
            if key == state["hang"][0]:
                _error_found(state["hang"][1])
            return
        ds, order, value, w0 = example
        v = verdict(algo, state["runner"], fam, ds, order, value, checks, semantics=sem, initial_weights=w0)
        outcome.examples += 1
        for name in v.applicable:
            outcome.reported[name] = outcome.reported.get(name, 0) + 1
        if v.kind in ("bug", "error"):
            text = _finding(v, fam, algo, sem, example).describe()
            if v.status == "timeout":
                state["hang"] = (key, text)
            (_bug_found if v.kind == "bug" else _error_found)(text)

    if seed_value is not None:
        check = seed(seed_value)(check)

    def run() -> Outcome:
        outcome.examples, outcome.reported = 0, {}
        state.clear()
        state["runner"] = as_runner(fit, call_timeout or None, isolate)
        try:
            check()
        finally:
            if state["runner"] is not fit:
                state["runner"].close()
        return outcome

    return run
