"""Differential testing of anyone's implementation against the exact reference.

The implementation contract (how ``fit`` is called, what it may return) is in
:mod:`novikoff.fuzz.contract`; the algorithms (reference, parameter, data families,
rounding test) in :mod:`novikoff.fuzz.registry`; the properties compared, one named
check each, in :mod:`novikoff.fuzz.checks`.

Oracle: everything the implementation returned is compared with the exact
reference run. Decisions and weight *directions* are compared, never raw scale
(a learning rate rescales the weights without changing a decision). On data
whose float64 arithmetic is exact (``FLOAT_EXACT_BOUND``) any difference is a
bug. On general float data a difference is reported as *ambiguous* (rounding)
when the exact run made a decision whose margin lies within the float64 error
bound of evaluating it; otherwise it is a bug. A bug is shrunk by Hypothesis to
a minimal dataset (every number of it drawn by Hypothesis), printed exactly with
the first divergence and a command that reproduces it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.fuzz.checks import Check, CheckContext, compare
from novikoff.fuzz.contract import (
    DEFAULT_CALL_TIMEOUT,
    FitFunction,
    ImplementationError,
    ImplementationResult,
    Unsupported,
    call_implementation,
    call_time_limit,
)
from novikoff.fuzz.families import DataFamily
from novikoff.fuzz.registry import Algorithm, lookup
from novikoff.rational import format_rational
from novikoff.runs import RunRecord

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "Finding",
    "ImplementationError",
    "ImplementationResult",
    "Outcome",
    "Report",
    "Unsupported",
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
    "sklearn_fit",
    "verdict",
]


def reference_run(algorithm: str, ds: Any, order: Any, max_epochs: int, value: Fraction | None) -> RunRecord:
    """The exact reference run an implementation of ``algorithm`` is compared with."""
    return lookup(algorithm).run(ds, value, order, max_epochs)


@dataclass
class Finding:
    """One disagreement (``kind`` is 'bug', 'ambiguous' or 'error'); ``check`` names the
    property that failed (empty for an error)."""

    kind: str
    family: str
    message: str
    dataset: Any  # Dataset, or MulticlassData for --algorithm multiclass
    order: Any
    max_epochs: int
    algorithm: str = "perceptron"
    value: Fraction | None = None
    check: str = ""

    def describe(self) -> str:
        """The finding with its dataset printed exactly, one sample a line."""
        algo = lookup(self.algorithm)
        rows = []
        for i in range(self.dataset.n_samples):
            xs = ", ".join(float_with_exact(v) for v in self.dataset.features(i))
            rows.append(f"    x_{i} = ({xs}), y = {algo.format_label(self.dataset.labels[i])}")
        order = "natural" if self.order is None else list(self.order)
        param = "" if self.value is None else f", {algo.keyword} = {self.value}"
        bias = getattr(self.dataset, "bias", 1)
        check = f" {self.check}:" if self.check else ":"
        return (
            f"[{self.kind}] {self.family} ({self.algorithm}{param}){check} {self.message}\n"
            f"  dataset (exact, bias {bias}), "
            f"order {order}, max_epochs {self.max_epochs}:\n" + "\n".join(rows)
        )


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
class Report:
    """The outcome of :func:`check_implementation`."""

    examples: int
    agreed: int
    bugs: list[Finding]
    ambiguous: list[Finding]
    errors: list[Finding]
    repro: str = ""
    unsupported: int = 0
    first_bug: int | None = None

    @property
    def ok(self) -> bool:
        return not self.bugs and not self.errors

    def summary(self) -> str:
        lines = [
            f"{self.examples} examples: {self.agreed} agreed, {len(self.bugs)} bugs, "
            f"{len(self.ambiguous)} ambiguous (rounding), {len(self.errors)} errors, "
            f"{self.unsupported} unsupported by the implementation"
        ]
        for f in self.bugs[:1] + self.errors[:1]:
            lines.append(f.describe())
        if self.bugs and self.repro:
            lines.append(f"reproduce: {self.repro}")
        return "\n".join(lines)


# ------------------------------------------------------------------------ one example


@dataclass(frozen=True)
class Verdict:
    """One example's outcome: ``kind`` ('agree', 'bug', 'ambiguous', 'error' or
    'unsupported'), the first failing check's name and message, and which of the checks
    asked for could compare something (the implementation reported their quantity)."""

    kind: str
    message: str = ""
    check: str = ""
    applicable: tuple[str, ...] = ()


def verdict(
    algorithm: Algorithm,
    fit: FitFunction,
    family: DataFamily,
    data: Any,
    order: Any,
    value: Fraction | None,
    checks: Sequence[Check] | None = None,
) -> Verdict:
    """Call ``fit`` on one example and run ``checks`` (default: the algorithm's) against
    the exact reference run.

    On float-exact data any finding is a bug. On general float data a finding is
    'ambiguous' when some decision of the exact run lies within float64 error
    (``algorithm.ambiguous``), else a bug. Only the first finding is reported."""
    checks = algorithm.checks if checks is None else checks
    returned: list[Any] = []

    def capture(*args: Any, **kwargs: Any) -> Any:
        returned.append(fit(*args, **kwargs))  # the checks of voters read the output as returned
        return returned[-1]

    try:
        impl = call_implementation(
            capture, data, order, family.max_epochs, algorithm.keyword, value, algorithm.weight_shapes(data)
        )
    except ImplementationError as exc:
        return Verdict("error", str(exc))
    except Unsupported as exc:
        return Verdict("unsupported", str(exc))
    run = algorithm.run(data, value, order, family.max_epochs)
    output = returned[-1] if returned else None
    context = CheckContext(
        family.exact and algorithm.weights_exact, lambda k: algorithm.describe_update(data, run, k), output
    )
    applicable = tuple(c.name for c in checks if c.applies(impl, output))
    found = compare(data, run, impl, context, checks)
    if not found:
        return Verdict("agree", applicable=applicable)
    first = found[0]
    ambiguous = not family.exact and algorithm.ambiguous(data, run, order, value)
    return Verdict("ambiguous" if ambiguous else "bug", first.message, first.check, applicable)


def _examples(algorithm: Algorithm, family: DataFamily) -> st.SearchStrategy[tuple[Any, Any, Any]]:
    """(data, order, parameter value) of one family: the order None or a permutation (None
    only for a family with ``natural_order``); only examples the family's ``keep`` accepts."""

    def orders(ds: Any) -> st.SearchStrategy[Any]:
        return (
            st.none() if family.natural_order else st.one_of(st.none(), st.permutations(range(ds.n_samples)))
        )

    examples = family.data.flatmap(lambda ds: st.tuples(st.just(ds), orders(ds), algorithm.diff_values()))
    keep = family.keep
    if keep is None:
        return examples
    return examples.filter(lambda ex: keep(ex[0], ex[1], family.max_epochs))


# ------------------------------------------------------------------------ campaigns


def check_family(
    fit: FitFunction,
    family: str,
    examples: int = 50,
    seed_value: int = 0,
    shrink: bool = True,
    algorithm: str = "perceptron",
    checks: Sequence[Check] | None = None,
) -> Report:
    """Run one data family (its name or id) with ``checks`` (default: the algorithm's);
    the first bug is shrunk by Hypothesis to a minimal example (its message starts with
    ``(minimal example)``). ``Report.first_bug`` is the number of the example (1-based)
    at which the first bug was seen, before shrinking."""
    algo = lookup(algorithm)
    fam = algo.data_family(family)
    tally: dict[str, list[Finding]] = {"bug": [], "ambiguous": [], "error": [], "unsupported": []}
    agreed = 0
    seen = 0
    first_bug: int | None = None

    def finding(v: Verdict, example: tuple[Any, Any, Any], prefix: str = "") -> Finding:
        ds, order, value = example
        return Finding(
            v.kind, fam.name, prefix + v.message, ds, order, fam.max_epochs, algo.name, value, v.check
        )

    @seed(seed_value)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(_examples(algo, fam))
    def run(example: tuple[Any, Any, Any]) -> None:
        nonlocal agreed, seen, first_bug
        seen += 1
        v = verdict(algo, fit, fam, *example, checks)
        if v.kind == "agree":
            agreed += 1
        else:
            tally[v.kind].append(finding(v, example))
            if v.kind == "bug" and first_bug is None:
                first_bug = seen

    run()
    if shrink and tally["bug"]:

        def fails(example: tuple[Any, Any, Any]) -> bool:
            return verdict(algo, fit, fam, *example, checks).kind == "bug"

        smallest = find(
            _examples(algo, fam),
            fails,
            settings=settings(
                database=None, max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck)
            ),
        )
        tally["bug"][0] = finding(verdict(algo, fit, fam, *smallest, checks), smallest, "(minimal example) ")
    return Report(
        seen,
        agreed,
        tally["bug"],
        tally["ambiguous"],
        tally["error"],
        unsupported=len(tally["unsupported"]),
        first_bug=first_bug,
    )


def merge_reports(reports: Sequence[Report], repro: str = "") -> Report:
    """One campaign's report from its families' (in order): counts summed, findings joined,
    ``first_bug`` counted over the families before the first one that saw a bug."""
    first_bug, before = None, 0
    for r in reports:
        if r.first_bug is not None:
            first_bug = before + r.first_bug
            break
        before += r.examples
    return Report(
        sum(r.examples for r in reports),
        sum(r.agreed for r in reports),
        [f for r in reports for f in r.bugs],
        [f for r in reports for f in r.ambiguous],
        [f for r in reports for f in r.errors],
        repro,
        sum(r.unsupported for r in reports),
        first_bug,
    )


def check_implementation(
    fit: FitFunction,
    algorithm: str = "perceptron",
    examples: int = 50,
    seed: int = 0,
    repro: str = "",
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
) -> Report:
    """Differential-test ``fit`` against the exact reference on every data family of
    ``algorithm`` (:data:`novikoff.fuzz.registry.ALGORITHMS`; an unknown name is an
    InputError), with its checks (:data:`novikoff.fuzz.checks.CHECKS`, plus the voted checks for
    ``voted``).

    PDM's ``fit`` gets ``eps=``, PFM's ``beta=``, the values drawn from the algorithm's
    parameter. Guarantees: a call of ``fit`` that raises, calls ``sys.exit`` or runs
    longer than ``call_timeout`` seconds is an error finding (so the report is not ok),
    and after one such hang ``fit`` is not called again. Only the first bug found is shrunk
    to a minimal example (shrinking is most of a failing campaign's cost); the families after
    it report their bugs as found.
    """
    require_callable(fit, "check_implementation")
    algo = lookup(algorithm)
    call_time_limit(call_timeout)
    reports: list[Report] = []
    for fam in algo.data_families:  # shrinking dominates the cost: only the first bug is shrunk
        shrink = not any(r.bugs for r in reports)
        reports.append(check_family(fit, fam.name, examples, seed, shrink=shrink, algorithm=algo.name))
    return merge_reports(reports, repro)


# ------------------------------------------------------------------------ adapters


def sklearn_fit(estimator: Callable[..., Any], **params: Any) -> FitFunction:
    """Adapt a scikit-learn-style estimator class (``fit``, ``coef_``, ``intercept_``).

    ``max_epochs`` becomes ``max_iter``; an explicit ``order`` is not supported by such
    estimators and is presented by reordering the rows (same samples, same order each
    epoch), which is exact for ``shuffle=False``. Notes explain known semantics
    (``tol`` early stopping, ``shuffle``).
    """

    def fit(
        X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Sequence[int] | None = None
    ) -> dict[str, Any]:
        import warnings

        if len(np.unique(y)) < 2:
            raise Unsupported("scikit-learn estimators need two classes")
        idx = np.arange(len(y)) if order is None else np.asarray(order)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = estimator(**{**params, "max_iter": max_epochs}).fit(X[idx], y[idx])
        notes = []
        if params.get("tol", 1e-3) is not None:
            notes.append(
                "scikit-learn stops when the loss stops improving by tol, not after an epoch "
                "without mistakes; use tol=None"
            )
        if params.get("shuffle", True):
            notes.append("shuffle=True presents the samples in a random order each epoch; use shuffle=False")
        return {"weights": np.append(np.ravel(model.coef_), model.intercept_), "notes": notes}

    return fit


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
    """TypeError naming ``where`` unless ``fit`` is one callable."""
    if not callable(fit):
        raise TypeError(
            f"{where}: expected one callable fit(X, y, max_epochs=..., order=...), "
            f"got {type(fit).__name__} {_short_repr(fit)} (test several implementations with "
            "one decorator each)"
        )


def _short_repr(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def check_settings(examples: int | None = None) -> settings:
    """The Hypothesis settings of :func:`parametrize_with_checks`: the active profile's
    (``max_examples``, ``database``, ``deadline``, ``derandomize``, phases, ...), with
    ``max_examples`` replaced when ``examples`` is given and the health checks that
    certified data generation always trips (too slow, large data, filtering) suppressed."""
    base = settings()
    slow = {HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much}
    suppressed = list(dict.fromkeys([*base.suppress_health_check, *sorted(slow, key=lambda h: h.name)]))
    overrides: dict[str, Any] = {"suppress_health_check": suppressed}
    if examples is not None:
        overrides["max_examples"] = examples
    return settings(base, **overrides)


@dataclass
class Outcome:
    """What one :func:`family_check` run saw: examples run, and for each check how many
    examples the implementation reported that check's quantity in."""

    examples: int = 0
    reported: dict[str, int] = field(default_factory=dict)


def family_check(
    fit: FitFunction,
    family: str,
    examples: int | None = None,
    seed_value: int | None = None,
    algorithm: str = "perceptron",
    checks: Sequence[Check] | None = None,
) -> Callable[[], Outcome]:
    """One data family (its name or id) as a Hypothesis test of ``checks`` under the user's
    settings (:func:`check_settings`): a bug or an error raises AssertionError with the
    example printed exactly, so Hypothesis shrinks it, stores it in the profile's
    database and replays it first next time. ``seed_value`` None leaves the seed to
    Hypothesis (``--hypothesis-seed``, ``derandomize``). The returned callable runs the
    test and returns its :class:`Outcome`."""
    require_callable(fit, "family_check")
    algo = lookup(algorithm)
    fam = algo.data_family(family)
    outcome = Outcome()

    @check_settings(examples)
    @given(_examples(algo, fam))
    def check(example: tuple[Any, Any, Any]) -> None:
        ds, order, value = example
        v = verdict(algo, fit, fam, ds, order, value, checks)
        outcome.examples += 1
        for name in v.applicable:
            outcome.reported[name] = outcome.reported.get(name, 0) + 1
        if v.kind in ("bug", "error"):
            f = Finding(v.kind, fam.name, v.message, ds, order, fam.max_epochs, algo.name, value, v.check)
            raise AssertionError(f.describe())

    if seed_value is not None:
        check = seed(seed_value)(check)

    def run() -> Outcome:
        outcome.examples, outcome.reported = 0, {}
        check()
        return outcome

    return run
