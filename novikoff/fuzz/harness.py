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

The pieces: one example's verdict in :mod:`novikoff.fuzz.verdicts`, the findings and
reports in :mod:`novikoff.fuzz.findings`, the adapters (scikit-learn estimators,
``MODULE:CALLABLE`` names) in :mod:`novikoff.fuzz.adapters`; this module runs the
campaigns (:func:`check_implementation`, :func:`check_family`) and the Hypothesis tests
of :func:`novikoff.testing.parametrize_with_checks` (:func:`family_check`), and
re-exports the rest of its API.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.adapters import load_callable, require_callable, sklearn_fit
from novikoff.fuzz.checks import DiffCheck
from novikoff.fuzz.contract import (
    DEFAULT_CALL_TIMEOUT,
    FitFunction,
    ImplementationError,
    ImplementationResult,
    Unsupported,
    call_implementation,
    call_limit,
    call_time_limit,
)
from novikoff.fuzz.families import DataFamily
from novikoff.fuzz.findings import FamilyCounts, Finding, Report, float_with_exact, merge_reports
from novikoff.fuzz.registry import Algorithm, lookup
from novikoff.fuzz.semantics import DECLARABLE, DEFAULT, Semantics
from novikoff.fuzz.shrinking import drop_zero_columns, shrink_failure
from novikoff.fuzz.verdicts import Example, Verdict, example_strategy, verdict
from novikoff.fuzz.worker import Runner, as_runner
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
    "campaign_settings",
    "check_family",
    "check_implementation",
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
    checks: Sequence[DiffCheck] | None = None,
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
    checks: Sequence[DiffCheck] | None,
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
    @given(example_strategy(algo, fam, sem))
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
            example_strategy(algo, fam, sem),
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

    Args:
        fit: The implementation: ``fit(X, y, max_epochs=..., order=...)`` returning the
            weights (bias last), or a Runner for an executable (:mod:`novikoff.fuzz.contract`).
        algorithm: The algorithm it implements (:data:`novikoff.fuzz.registry.ALGORITHMS`).
        examples: Hypothesis examples per data family.
        seed: The campaign's seed.
        repro: The command line that reproduces the campaign, printed with findings.
        call_timeout: Seconds one call may take (None: no limit).
        semantics: The declared semantics (tie rule, margin, learning rate, ...).
        families: The data families to draw from (default: all of ``algorithm``'s).
        isolate: Call ``fit`` in a forked worker process that can be killed.

    Returns:
        The report: per family, the examples that agreed, the bugs (each with its
        failing checks and minimal example), ambiguous roundings, errors and timeouts;
        ``report.ok`` is True iff there is no bug and no error.

    Raises:
        InputError: An unknown ``algorithm`` or family, or semantics ``algorithm`` does not
            support.

    Examples:
        >>> from novikoff.twins.perceptron import perceptron_twin
        >>> def fit(X, y, max_epochs=1000, order=None):
        ...     return perceptron_twin(X, y, max_epochs=max_epochs, order=order).weights
        >>> check_implementation(fit, examples=5, isolate=False).ok
        True
        >>> def no_bias(X, y, max_epochs=1000, order=None):
        ...     return [*fit(X, y, max_epochs, order)[:-1], 0.0]
        >>> report = check_implementation(no_bias, examples=5, isolate=False)
        >>> report.ok, report.bugs[0].check
        (False, 'check_weight_direction')
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


#: Examples per test of :func:`novikoff.testing.parametrize_with_checks` when neither
#: ``examples`` nor the active profile sets a budget (the profile's ``max_examples`` is
#: Hypothesis' default 100): every example calls the implementation once, and shrinking
#: a failure calls it again.
DEFAULT_EXAMPLES = 20


def campaign_settings(examples: int | None = None) -> settings:
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
    checks: Sequence[DiffCheck] | None = None,
    *,
    semantics: Semantics = DEFAULT,
    isolate: bool = True,
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
) -> Callable[[], Outcome]:
    """One data family (its name or id) as a Hypothesis test of ``checks`` under the user's
    settings (:func:`campaign_settings`): a bug or an error raises AssertionError with the
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

    @campaign_settings(examples)
    @given(example_strategy(algo, fam, sem))
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


#: Deprecated name of :func:`campaign_settings` (it builds settings; it checks nothing).
check_settings = campaign_settings
