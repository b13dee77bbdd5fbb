"""Differential testing of anyone's perceptron against the exact reference.

Implementation contract: ``fit(X, y, max_epochs=E, order=O)`` with ``X`` float64
(m x d), ``y`` in {-1, +1}, ``order`` None (0..m-1 every epoch) or a list of
sample indices presented each epoch. It returns the weight vector (length d+1,
bias last, bias input 1) or a mapping/object with ``weights`` and any of
``mistakes``, ``updates`` (sample indices in update order), ``epochs``,
``converged``.

Oracle: everything the implementation returned is compared with the exact
reference run. Decisions and weight *directions* are compared, never raw scale
(a learning rate rescales the weights without changing a decision). On data
whose float64 arithmetic is exact (``FLOAT_EXACT_BOUND``) any difference is a
bug. On general float data a difference is reported as *ambiguous* (rounding)
when the exact run made a decision whose margin lies within the float64 error
bound of evaluating it; otherwise it is a bug. A bug is shrunk by Hypothesis to
a minimal dataset, printed exactly with the first divergence and a command that
reproduces it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis import strategies as st

from novikoff.data import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.strategies import float_exact_separable, nonseparable_datasets
from novikoff.limits import TimeLimitReached, deadline
from novikoff.rational import format_rational
from novikoff.runs import RunRecord
from novikoff.twins.exact import exact_perceptron

__all__ = [
    "Finding",
    "ImplementationResult",
    "Report",
    "Unsupported",
    "call_time_limit",
    "check_implementation",
    "check_settings",
    "family_check",
    "float_with_exact",
    "load_callable",
    "parametrize_with_checks",
    "sklearn_fit",
]

FitFunction = Callable[..., Any]
_U = 2.0**-53  # unit roundoff of float64

# the parameter values an implementation is called with (dyadic: exact in float64)
PARAMETERS: dict[str, tuple[Fraction | None, ...]] = {
    "perceptron": (None,),
    "pdm": (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4)),
    "pfm": (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)),
    "multiclass": (None,),
}
_KEYWORD = {"pdm": "eps", "pfm": "beta"}

#: Seconds one call of an implementation may take (``novikoff diff --call-timeout``).
DEFAULT_CALL_TIMEOUT = 30.0


class CallTimeLimit(TimeLimitReached):
    """One call of an implementation outlived its per-call limit."""


class _CallBudget:
    """The per-call limit of the campaign under way, and whether a call already hung."""

    seconds: float | None = DEFAULT_CALL_TIMEOUT
    hung: bool = False


def call_time_limit(seconds: float | None) -> None:
    """Set the per-call limit (None or <= 0: unbounded) and forget earlier hung calls."""
    _CallBudget.seconds = seconds
    _CallBudget.hung = False


def reference_run(
    algorithm: str, ds: Dataset, order: Any, max_epochs: int, value: Fraction | None
) -> RunRecord:
    """The exact reference run an implementation is compared with."""
    if algorithm == "pdm":
        from novikoff.reference.large_margin import run_pdm

        return run_pdm(ds, value, order=order, max_epochs=max_epochs)
    if algorithm == "pfm":
        from novikoff.reference.large_margin import run_pfm

        return run_pfm(ds, value, order=order, max_epochs=max_epochs)
    return exact_perceptron(ds, order=order, max_epochs=max_epochs)  # = run_perceptron's run, faster


@dataclass
class ImplementationResult:
    """What an implementation returned, normalized (None: it did not say)."""

    weights: np.ndarray
    mistakes: int | None = None
    updates: list[int] | None = None
    epochs: int | None = None
    converged: bool | None = None
    notes: list[str] = field(default_factory=list)


class ImplementationError(Exception):
    """The implementation raised or returned something outside the contract."""


class Unsupported(Exception):
    """Raised by an implementation (or adapter) for an input it does not handle by design,
    e.g. scikit-learn refusing single-class data; such examples are counted, not failed."""


def _normalize(out: Any, d: int, shapes: Sequence[tuple[int, ...]] | None = None) -> ImplementationResult:
    """The implementation's answer in the contract's terms; weights flattened. Without
    ``shapes`` the weights must hold d + 1 numbers; with it, have one of those shapes."""
    if isinstance(out, Mapping):
        get = out.get
    elif hasattr(out, "weights"):

        def get(key: str, default: Any = None) -> Any:
            return getattr(out, key, default)
    else:
        out = {"weights": out}
        get = out.get
    try:
        raw = np.asarray(get("weights"), dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ImplementationError(f"weights are not numeric: {exc}") from None
    w = raw.ravel()
    if shapes is not None and raw.shape not in shapes:
        wanted = " or ".join(str(sh) for sh in shapes)
        raise ImplementationError(f"weights have shape {raw.shape}, expected {wanted}")
    if shapes is None and w.shape != (d + 1,):
        raise ImplementationError(f"weights have shape {w.shape}, expected ({d + 1},) (bias last)")
    if not np.isfinite(w).all():
        raise ImplementationError("weights contain NaN or infinity")

    def as_int(key: str) -> int | None:
        v = get(key)
        if v is None:
            return None
        try:
            return int(v)
        except (TypeError, ValueError):
            raise ImplementationError(f"{key} is not an integer: {v!r}") from None

    updates = get("updates")
    try:
        upd = None if updates is None else [int(i) for i in updates]
    except (TypeError, ValueError):
        raise ImplementationError(f"updates is not a list of sample indices: {updates!r}") from None
    conv = get("converged")
    notes = list(get("notes") or [])
    return ImplementationResult(
        w, as_int("mistakes"), upd, as_int("epochs"), None if conv is None else bool(conv), notes
    )


def call_implementation(
    fit: FitFunction,
    ds: Any,
    order: Any,
    max_epochs: int,
    algorithm: str = "perceptron",
    value: Fraction | None = None,
    weight_shapes: Sequence[tuple[int, ...]] | None = None,
) -> ImplementationResult:
    """Run ``fit`` on the float form of ``ds`` (a Dataset, or MulticlassData with
    ``weight_shapes``; ``eps=`` for pdm, ``beta=`` for pfm); ImplementationError says
    what went wrong."""
    X, y = ds.to_numpy()
    presented = None if order is None else list(order)
    extra = {} if value is None else {_KEYWORD[algorithm]: float(value)}
    limit = _CallBudget.seconds
    if _CallBudget.hung:  # one hang is a finding; waiting out the limit again proves nothing more
        raise ImplementationError(f"not called: an earlier call did not return within {limit:g} s")
    try:
        with deadline(limit, lambda: CallTimeLimit(limit or 0, "the per-call limit")):
            out = fit(X.copy(), y.copy(), max_epochs=max_epochs, order=presented, **extra)
    except Unsupported:
        raise
    except CallTimeLimit:
        _CallBudget.hung = True
        raise ImplementationError(
            f"fit did not return within {limit:g} s (the per-call limit, --call-timeout)"
        ) from None
    except SystemExit as exc:  # sys.exit() inside fit must not end the campaign as a pass
        raise ImplementationError(f"fit called sys.exit({exc.code!r})") from None
    except Exception as exc:  # anyone's code: report, never crash the harness
        raise ImplementationError(f"fit raised {type(exc).__name__}: {exc}") from None
    return _normalize(out, ds.n_features, weight_shapes)


@dataclass
class Finding:
    """One disagreement (``kind`` is 'bug', 'ambiguous' or 'error')."""

    kind: str
    family: str
    message: str
    dataset: Any  # Dataset, or MulticlassData for --algorithm multiclass
    order: Any
    max_epochs: int
    algorithm: str = "perceptron"
    value: Fraction | None = None

    def describe(self) -> str:
        rows = []
        for i in range(self.dataset.n_samples):
            xs = ", ".join(float_with_exact(v) for v in self.dataset.features(i))
            label = self.dataset.labels[i]
            rows.append(
                f"    x_{i} = ({xs}), y = {label if self.algorithm == 'multiclass' else f'{label:+d}'}"
            )
        order = "natural" if self.order is None else list(self.order)
        param = "" if self.value is None else f", {_KEYWORD[self.algorithm]} = {self.value}"
        bias = getattr(self.dataset, "bias", 1)
        return (
            f"[{self.kind}] {self.family} ({self.algorithm}{param}): {self.message}\n"
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


# ------------------------------------------------------------------------ the oracle


def _ambiguous_decisions(
    ds: Dataset, run: RunRecord, order: Any, algorithm: str = "perceptron", value: Fraction | None = None
) -> bool:
    """True if some decision of the exact run could go either way in float64.

    At each presentation the exact decision value is compared with a bound on the
    error of evaluating it in float64. For p = w.z: gamma_n sum|w_j z_j| (n terms)
    plus gamma_k (A.|z|) for the weights themselves after k float additions (A sums
    |z_u| over the updates so far). For ||w||^2 (PDM, PFM): gamma_n ||w||^2 plus
    2 |w|.(gamma_k A). PDM decides D = (1 - eps)||w||^2 - t p, PFM the sign of p and
    then D = beta^2 ||w||^2 - p^2; their bounds combine those two. Every bound is
    doubled for its own rounding. A value of exactly 0 with a zero bound is a tie.
    """
    from novikoff.runs import epoch_order

    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    present = epoch_order(order, ds.n_samples)
    W = [0] * ds.dimension
    acc = np.zeros(ds.dimension)  # sum of |z_u| over the updates so far
    updates = iter(run.updates)
    pending = next(updates, None)
    n = ds.dimension

    def gamma(j: int) -> float:
        return j * _U / (1 - j * _U)

    def close(exact: Fraction, bound: float) -> bool:
        return bound > 0 and abs(float(exact)) <= bound

    k = 0
    for epoch in range(run.epochs):
        for i in present(epoch):
            p = Fraction(sum(a * b for a, b in zip(W, Z[i])), s * s)
            wf = np.abs(np.array([float(Fraction(v, s)) for v in W]))
            werr = gamma(k) * acc
            err_p = 2 * (gamma(n) * float(wf @ Zf[i]) + float(werr @ Zf[i]))
            if algorithm == "perceptron" and close(p, err_p):
                return True
            if algorithm != "perceptron":
                w2 = Fraction(sum(a * a for a in W), s * s)
                err_w2 = 2 * (gamma(n) * float(wf @ wf) + 2 * float(wf @ werr))
                assert value is not None
                if algorithm == "pdm":
                    D = (1 - value) * w2 - k * p
                    if close(D, 2 * (float(1 - value) * err_w2 + k * err_p)):
                        return True
                else:
                    if close(p, err_p):
                        return True
                    if p > 0:
                        D = value * value * w2 - p * p
                        b2 = float(value * value)
                        if close(D, 2 * (b2 * err_w2 + 2 * abs(float(p)) * err_p + err_p**2)):
                            return True
            while pending == (epoch, i):  # several entries: a multiple update
                W = [a + b for a, b in zip(W, Z[i])]
                acc += Zf[i]
                k += 1
                pending = next(updates, None)
    return False


def _margin_before_update(ds: Dataset, run: RunRecord, k: int) -> Fraction:
    """The exact w.z the reference saw at its k-th update (0-based)."""
    Z, s = ds.scaled_patterns
    W = [0] * ds.dimension
    for _, i in run.updates[:k]:
        W = [a + b for a, b in zip(W, Z[i])]
    i = run.updates[k][1]
    return Fraction(sum(a * b for a, b in zip(W, Z[i])), s * s)


def _direction_matches(w: np.ndarray, W: Sequence[Fraction], exact: bool) -> bool:
    ref = np.array([float(v) for v in W])
    if not any(W):
        return not w.any()
    if exact:
        j = next(i for i, v in enumerate(W) if v)
        c = Fraction(float(w[j])) / W[j]
        return c > 0 and all(Fraction(float(a)) == c * b for a, b in zip(w, W))
    nw, nr = np.linalg.norm(w), np.linalg.norm(ref)
    return bool(nw > 0 and np.linalg.norm(w / nw - ref / nr) <= 1e-9)


def compare(
    ds: Any,
    run: RunRecord,
    impl: ImplementationResult,
    exact: bool,
    reference_update: Callable[[int], str] | None = None,
) -> str | None:
    """None if ``impl`` agrees with the exact reference ``run`` on ``ds``, else the first
    difference (a message). ``reference_update(k)`` describes the reference's k-th update
    (default: the binary decision value w.z it saw)."""
    ref_updates = run.update_indices
    notes = f" (note: {'; '.join(impl.notes)})" if impl.notes else ""
    if impl.updates is not None and impl.updates != ref_updates:
        k = next(
            (j for j, (a, b) in enumerate(zip(impl.updates, ref_updates)) if a != b),
            min(len(impl.updates), len(ref_updates)),
        )
        theirs = f"sample {impl.updates[k]}" if k < len(impl.updates) else "no sample (it stopped updating)"
        if k < len(run.updates) and reference_update is not None:
            ours = reference_update(k)
        elif k < len(run.updates):
            epoch, i = run.updates[k]
            margin = format_rational(_margin_before_update(ds, run, k))
            ours = f"sample {i} in epoch {epoch}, where the exact w.z = {margin} (the update condition held)"
        else:
            ours = "no sample (it had converged)"
        return (
            f"update #{k + 1} differs: the implementation updated on {theirs}; "
            f"the exact reference on {ours}{notes}"
        )
    if impl.mistakes is not None and impl.mistakes != run.mistakes:
        return f"mistakes: implementation {impl.mistakes}, exact reference {run.mistakes}{notes}"
    if impl.epochs is not None and impl.epochs != run.epochs:
        return f"epochs: implementation {impl.epochs}, exact reference {run.epochs}{notes}"
    if impl.converged is not None and impl.converged != run.converged:
        return f"converged: implementation {impl.converged}, exact reference {run.converged}{notes}"
    exact_weights = [Fraction(v) for v in run.weights]
    if not _direction_matches(impl.weights, exact_weights, exact):
        ref = ", ".join(str(format_rational(v)) for v in exact_weights)
        return (
            f"final weights point elsewhere: implementation {impl.weights.tolist()}, "
            f"exact reference ({ref}) after {run.mistakes} updates{notes}"
        )
    return None


# ------------------------------------------------------------------------ data families


@st.composite
def _gaussian_float(draw: Any) -> Dataset:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m, d = draw(st.integers(2, 30)), draw(st.integers(1, 6))
    sep = draw(st.sampled_from([0.5, 2.0, 4.0]))
    X = rng.standard_normal((m, d))
    y = np.where(rng.random(m) < 0.5, -1, 1)
    X[:, 0] += sep * y
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    return Dataset.from_arrays(X, y, name="gaussian float data")


FAMILIES: dict[str, tuple[st.SearchStrategy[Dataset], bool, int]] = {
    # name: (datasets, float arithmetic exact?, max_epochs)
    "separable, exactly representable": (float_exact_separable(), True, 1000),
    "non-separable, exactly representable": (nonseparable_datasets(values="int", max_dim=4), True, 7),
    "general float data": (_gaussian_float(), False, 50),
}


def _with_order(family: str, algorithm: str = "perceptron") -> st.SearchStrategy[tuple[Dataset, Any, Any]]:
    data, _, _ = FAMILIES[family]
    data = data.map(lambda ds: ds.with_bias(1))  # the contract: bias input 1, bias weight last
    return data.flatmap(
        lambda ds: st.tuples(
            st.just(ds),
            st.one_of(st.none(), st.permutations(range(ds.n_samples))),
            st.sampled_from(PARAMETERS[algorithm]),
        )
    )


def _verdict(
    fit: FitFunction, family: str, ds: Dataset, order: Any, value: Any = None, algorithm: str = "perceptron"
) -> tuple[str, str]:
    _, exact, max_epochs = FAMILIES[family]
    try:
        impl = call_implementation(fit, ds, order, max_epochs, algorithm, value)
    except ImplementationError as exc:
        return "error", str(exc)
    except Unsupported as exc:
        return "unsupported", str(exc)
    run = reference_run(algorithm, ds, order, max_epochs, value)
    message = compare(ds, run, impl, exact)
    if message is None:
        return "agree", ""
    if not exact and _ambiguous_decisions(ds, run, order, algorithm, value):
        return "ambiguous", message
    return "bug", message


def _campaign(algorithm: str) -> tuple[dict[str, Any], Callable[[str], Any], Callable[..., tuple[str, str]]]:
    """(families, example strategy for a family, verdict) of an algorithm's campaign."""
    if algorithm == "multiclass":
        from novikoff.fuzz.harness_multiclass import (
            MULTICLASS_FAMILIES,
            multiclass_verdict,
            multiclass_with_order,
        )

        return MULTICLASS_FAMILIES, multiclass_with_order, multiclass_verdict

    def verdict(fit: FitFunction, family: str, ds: Dataset, order: Any, value: Any) -> tuple[str, str]:
        return _verdict(fit, family, ds, order, value, algorithm)

    return FAMILIES, lambda family: _with_order(family, algorithm), verdict


def check_family(
    fit: FitFunction,
    family: str,
    examples: int = 50,
    seed_value: int = 0,
    shrink: bool = True,
    algorithm: str = "perceptron",
) -> Report:
    """Run one data family; a bug is shrunk to a minimal example."""
    families, with_order, verdict = _campaign(algorithm)
    _, _, max_epochs = families[family]
    tally: dict[str, list[Finding]] = {"bug": [], "ambiguous": [], "error": [], "unsupported": []}
    agreed = 0
    seen = 0

    @seed(seed_value)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(with_order(family))
    def run(example: tuple[Any, Any, Any]) -> None:
        nonlocal agreed, seen
        seen += 1
        ds, order, value = example
        kind, message = verdict(fit, family, ds, order, value)
        if kind == "agree":
            agreed += 1
        else:
            tally[kind].append(Finding(kind, family, message, ds, order, max_epochs, algorithm, value))

    run()
    if shrink and tally["bug"]:

        def fails(example: tuple[Any, Any, Any]) -> bool:
            return verdict(fit, family, *example)[0] == "bug"

        smallest = find(
            with_order(family),
            fails,
            settings=settings(
                database=None, max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck)
            ),
        )
        kind, message = verdict(fit, family, *smallest)
        tally["bug"][0] = Finding(
            kind,
            family,
            f"(minimal example) {message}",
            smallest[0],
            smallest[1],
            max_epochs,
            algorithm,
            smallest[2],
        )
    return Report(
        seen, agreed, tally["bug"], tally["ambiguous"], tally["error"], unsupported=len(tally["unsupported"])
    )


def check_implementation(
    fit: FitFunction,
    algorithm: str = "perceptron",
    examples: int = 50,
    seed: int = 0,
    repro: str = "",
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
) -> Report:
    """Differential-test ``fit`` against the exact reference on every data family.

    ``algorithm``: perceptron, pdm (``fit`` gets ``eps=``) or pfm (``beta=``), the values
    drawn from :data:`PARAMETERS`. Guarantees: a call of ``fit`` that raises, calls
    ``sys.exit`` or runs longer than ``call_timeout`` seconds is an error finding (so
    the report is not ok), and after one such hang ``fit`` is not called again.
    """
    _require_callable(fit, "check_implementation")
    if algorithm not in PARAMETERS:
        raise InputError(f"algorithm {algorithm!r}: expected one of {', '.join(PARAMETERS)}")
    call_time_limit(call_timeout)
    families = _campaign(algorithm)[0]
    reports = [check_family(fit, family, examples, seed, algorithm=algorithm) for family in families]
    return Report(
        sum(r.examples for r in reports),
        sum(r.agreed for r in reports),
        [f for r in reports for f in r.bugs],
        [f for r in reports for f in r.ambiguous],
        [f for r in reports for f in r.errors],
        repro,
        sum(r.unsupported for r in reports),
    )


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


def _require_callable(fit: Any, where: str) -> None:
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


def family_check(
    fit: FitFunction,
    family: str,
    examples: int | None = None,
    seed_value: int | None = None,
    algorithm: str = "perceptron",
) -> Callable[[], None]:
    """One data family as a Hypothesis test under the user's settings (:func:`check_settings`):
    a bug or an error raises AssertionError with the example printed exactly, so Hypothesis
    shrinks it, stores it in the profile's database and replays it first next time.
    ``seed_value`` None leaves the seed to Hypothesis (``--hypothesis-seed``, ``derandomize``)."""
    _require_callable(fit, "family_check")
    families, with_order, verdict = _campaign(algorithm)
    if family not in families:
        raise InputError(f"unknown data family {family!r}; families: {', '.join(families)}")
    _, _, max_epochs = families[family]

    @check_settings(examples)
    @given(with_order(family))
    def check(example: tuple[Any, Any, Any]) -> None:
        ds, order, value = example
        kind, message = verdict(fit, family, ds, order, value)
        if kind in ("bug", "error"):
            finding = Finding(kind, family, message, ds, order, max_epochs, algorithm, value)
            raise AssertionError(finding.describe())

    if seed_value is not None:
        check = seed(seed_value)(check)
    return check


def parametrize_with_checks(
    fit: FitFunction,
    examples: int | None = None,
    seed: int | None = None,
    algorithm: str = "perceptron",
    xfail: Mapping[str, str] | None = None,
) -> Any:
    """A pytest decorator: one named test per data family, in the style of scikit-learn's
    ``parametrize_with_checks``::

        @parametrize_with_checks(my_fit)
        def test_my_perceptron(check):
            check()

    Each check is a Hypothesis test run under the active settings profile (its
    ``max_examples`` unless ``examples`` is given, its database, deadline and seeding;
    ``seed`` fixes the seed). ``xfail`` maps a check id (``check_<family>``) or a family
    name to the reason it is expected to fail (a strict xfail: it must fail).
    """
    import pytest

    _require_callable(fit, "parametrize_with_checks")
    families = list(_campaign(algorithm)[0])
    ids = {f"check_{family.replace(' ', '_').replace(',', '')}": family for family in families}
    expected = dict(xfail or {})
    unknown = [k for k in expected if k not in ids and k not in families]
    if unknown:
        raise InputError(f"xfail: unknown check(s) {', '.join(map(repr, unknown))}; checks: {', '.join(ids)}")
    params = []
    for name, family in ids.items():
        check = family_check(fit, family, examples, seed, algorithm)
        check.__name__ = name
        reason = expected.get(name, expected.get(family))
        marks = [pytest.mark.xfail(reason=reason, strict=True, raises=AssertionError)] if reason else []
        params.append(pytest.param(check, marks=marks, id=name))
    return pytest.mark.parametrize("check", params)
