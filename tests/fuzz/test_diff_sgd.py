"""The SGD semantics (an L2 penalty, scikit-learn's optimal schedule, its tol stop and its
shuffling): each option against its reference, the float64 replica's rounding bound
checked against the exact and the real-number runs, and scikit-learn's SGDClassifier and
Perceptron with their *default* parameters passing ``diff`` when their semantics is
declared and caught when it is not."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction as F
from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.harness import Report, check_implementation, sklearn_fit
from novikoff.fuzz.semantics import Semantics, declared_run
from novikoff.fuzz.sgd import sklearn_order
from novikoff.fuzz.strategies import nonseparable_datasets, separable_datasets

sklearn = pytest.importorskip("sklearn.linear_model")

SGD_DEFAULTS = dict(margin=F(1), l2=F(1, 10000), schedule="optimal", stop="tol:1/1000:5")
PERCEPTRON_DEFAULTS = dict(stop="tol:1/1000:5")
SOME = ["float-exact separable", "general float", "gordan non-separable"]


def campaign(fit: Any, families: list[str] | None = None, examples: int = 8, **declared: Any) -> Report:
    return check_implementation(
        fit, examples=examples, seed=2, semantics=Semantics(**declared), families=families or SOME
    )


def float_data(draw: Any, max_samples: int = 8) -> Dataset:
    m = draw(st.integers(2, max_samples))
    d = draw(st.integers(1, 3))
    value = st.integers(-999, 999).map(lambda v: F(v, 100))
    rows = draw(st.lists(st.lists(value, min_size=d, max_size=d), min_size=m, max_size=m))
    labels = draw(st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m))
    labels[:2] = [1, -1]
    return Dataset.from_fraction_rows(rows, labels, bias=1)


@st.composite
def datasets(draw: Any) -> Dataset:
    return float_data(draw)


def sklearn_weights(estimator: Any, ds: Dataset, **params: Any) -> tuple[np.ndarray, int]:
    X, y = ds.to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = estimator(**params).fit(X, y)
    return np.append(model.coef_.ravel(), model.intercept_), int(model.n_iter_)


@settings(max_examples=40, deadline=None, database=None)
@given(datasets(), st.integers(0, 2**31 - 1))
def test_the_replica_is_sgdclassifier_with_its_defaults_bit_for_bit(ds: Dataset, seed: int) -> None:
    run = declared_run(ds, Semantics(**SGD_DEFAULTS, order=f"sklearn:{seed}"), None, 200)  # type: ignore[arg-type]
    w, epochs = sklearn_weights(sklearn.SGDClassifier, ds, random_state=seed, max_iter=200)
    assert [float(v) for v in run.weights] == list(w)
    assert run.epochs == epochs


@settings(max_examples=30, deadline=None, database=None)
@given(datasets(), st.integers(0, 2**31 - 1))
def test_the_replica_is_perceptron_with_its_defaults_bit_for_bit(ds: Dataset, seed: int) -> None:
    run = declared_run(ds, Semantics(**PERCEPTRON_DEFAULTS, order=f"sklearn:{seed}"), None, 200)  # type: ignore[arg-type]
    w, epochs = sklearn_weights(sklearn.Perceptron, ds, random_state=seed, max_iter=200)
    assert [float(v) for v in run.weights] == list(w)
    assert run.epochs == epochs


def test_sklearn_order_is_a_fisher_yates_pass_repeated_on_the_current_order() -> None:
    """Independently of the weights: the order's permutation is the same each epoch,
    composed with the previous epoch's order."""
    present = sklearn_order(5, 7)
    first = present(0)
    assert sorted(first) == list(range(7))
    for e in range(1, 4):
        assert present(e) == [present(e - 1)[i] for i in first]


def exact_l2_run(ds: Dataset, eta: F, alpha: F, margin: F, epochs: int) -> tuple[F, ...]:
    """The L2-penalised rule in exact rationals, written independently of the replica."""
    X = [ds.features(i) for i in range(ds.n_samples)]
    w = [F(0)] * ds.n_features
    b = F(0)
    for _ in range(epochs):
        for x, y in zip(X, ds.labels):
            p = sum(a * c for a, c in zip(w, x)) + b
            update = y * p <= margin
            w = [max(F(0), 1 - eta * alpha) * a for a in w]
            if update:
                w = [a + eta * y * c for a, c in zip(w, x)]
                b += eta * y
    return (*w, b)


@settings(max_examples=60, deadline=None, database=None)
@given(separable_datasets(values="dyadic", max_dim=3, max_samples=6).map(lambda d: d.with_bias(1)))
def test_the_l2_penalty_against_its_exact_run_within_the_stated_bound(ds: Dataset) -> None:
    sem = Semantics(margin=F(1), learning_rate=F(1, 3), l2=F(1, 10), stop="all-epochs")
    run = declared_run(ds, sem, None, 6)
    exact = exact_l2_run(ds, F(1, 3), F(1, 10), F(1), 6)
    assert run.replica is not None
    if run.replica.ambiguous_decisions == 0:
        distance = math.sqrt(sum(float(a - e) ** 2 for a, e in zip(run.weights, exact)))
        assert distance <= run.replica.weight_error / 2, (distance, run.replica)


def real_optimal_run(ds: Dataset, alpha: F, margin: F, epochs: int, seed: int) -> list[Any]:
    """scikit-learn's optimal schedule in 60-digit arithmetic (the real-number run up to
    10^-50, alpha the float64 nearest to it), written independently of the replica."""
    mpmath.mp.dps = 60
    a = mpmath.mpf(float(alpha))  # the declared alpha is taken as the float64 nearest to it
    eta0 = mpmath.sqrt(1 / mpmath.sqrt(a))
    t0 = 1 / (eta0 * a)
    X = [[mpmath.mpf(c.numerator) / c.denominator for c in ds.features(i)] for i in range(ds.n_samples)]
    w = [mpmath.mpf(0)] * ds.n_features
    b = mpmath.mpf(0)
    t = 1
    present = sklearn_order(seed, ds.n_samples)
    for e in range(epochs):
        for i in present(e):
            x, y = X[i], ds.labels[i]
            p = mpmath.fsum(u * c for u, c in zip(w, x)) + b
            eta = 1 / (a * (t0 + t - 1))
            w = [max(mpmath.mpf(0), 1 - eta * a) * u for u in w]
            if y * p <= mpmath.mpf(margin.numerator) / margin.denominator:
                w = [u + eta * y * c for u, c in zip(w, x)]
                b += eta * y
            t += 1
    return [*w, b]


@settings(max_examples=25, deadline=None, database=None)
@given(datasets(), st.integers(0, 1000))
def test_the_optimal_schedule_within_the_stated_bound_of_the_real_run(ds: Dataset, seed: int) -> None:
    sem = Semantics(
        margin=F(1), l2=F(1, 10000), schedule="optimal", stop="all-epochs", order=f"sklearn:{seed}"
    )
    run = declared_run(ds, sem, None, 5)
    assert run.replica is not None
    real = real_optimal_run(ds, F(1, 10000), F(1), 5, seed)
    if run.replica.ambiguous_decisions == 0:
        distance = math.sqrt(sum(float(mpmath.mpf(float(v)) - r) ** 2 for v, r in zip(run.weights, real)))
        assert distance <= run.replica.weight_error / 2, (distance, run.replica)


def test_a_decision_on_the_margin_is_ambiguous_and_a_clear_one_is_not() -> None:
    """x = 1, y = +1, no bias: the first presentation updates (p = 0), the second sees
    y p = 1 (the weight 1 after one rounded step): on the margin 1 that decision lies within
    the bound; against the margin 1/2 it does not; the very first, p = 0 from zero weights,
    is exact (its bound is 0) even on the margin 0."""
    ds = Dataset.from_fraction_rows([[F(1)]], [1], bias=0)
    on_margin = declared_run(ds, Semantics(margin=F(1), stop="tol:0:100"), None, 2)
    assert on_margin.replica is not None and on_margin.replica.ambiguous_decisions == 1
    clear = declared_run(ds, Semantics(margin=F(1, 2), stop="tol:0:100"), None, 2)
    assert clear.replica is not None and clear.replica.ambiguous_decisions == 0
    start = declared_run(ds, Semantics(stop="tol:0:100"), None, 1)
    assert start.replica is not None and start.replica.ambiguous_decisions == 0
    assert start.updates == [(0, 0)]


def test_sgdclassifier_with_its_defaults_passes_when_declared_and_is_caught_when_not() -> None:
    fit = sklearn_fit(sklearn.SGDClassifier)  # every parameter its default; the order sets random_state
    declared = campaign(fit, **SGD_DEFAULTS, order="sklearn:11")  # type: ignore[arg-type]
    assert declared.ok and declared.agreed >= 12, declared.summary()
    textbook = campaign(fit, families=SOME[:2])
    assert textbook.bugs, textbook.summary()
    notes = textbook.bugs[0].message
    assert "--l2 0.0001" in notes and "--schedule optimal" in notes and "--stop tol:0.001:5" in notes
    for wrong in (
        dict(SGD_DEFAULTS, l2=F(1, 1000)),
        dict(SGD_DEFAULTS, stop="tol:1/100:5"),
        dict(SGD_DEFAULTS, stop="all-epochs"),
        dict(SGD_DEFAULTS, margin=F(0)),
        dict(SGD_DEFAULTS, schedule="constant"),
    ):
        caught = campaign(fit, families=SOME[1:2], **wrong, order="sklearn:11")  # type: ignore[arg-type]
        assert caught.bugs, (wrong, caught.summary())
    shuffled_otherwise = campaign(fit, families=SOME[1:2], **SGD_DEFAULTS, order="shuffle-v1:11")  # type: ignore[arg-type]
    assert not shuffled_otherwise.ok


def test_perceptron_with_its_defaults_passes_when_declared() -> None:
    fit = sklearn_fit(sklearn.Perceptron)
    declared = campaign(fit, **PERCEPTRON_DEFAULTS, order="sklearn:4")  # type: ignore[arg-type]
    assert declared.ok and declared.agreed >= 12, declared.summary()


def test_invalid_sgd_declarations_name_the_option() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"schedule": "optimal"}, "needs --l2 ALPHA > 0"),
        ({"schedule": "invscaling", "l2": F(1)}, "--schedule: expected one of constant, optimal"),
        ({"l2": F(-1)}, "--l2: expected a rational >= 0"),
        ({"l2": F(1), "schedule": "optimal", "learning_rate": F(1, 2)}, "sets the rate itself"),
        ({"stop": "tol:x:5"}, "--stop: expected tol:TOL:N"),
        ({"stop": "tol:1/10:0"}, "--stop: expected tol:TOL:N"),
        ({"l2": F(1, 10), "precision": "float32"}, "have a float64 replica only"),
        ({"order": "sklearn:-3"}, "sklearn:SEED"),
    ]
    for kwargs, words in cases:
        with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
            Semantics(**kwargs)


def test_cli_sgdclassifier_defaults_declared(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["diff", "sklearn.linear_model:SGDClassifier", "--sklearn", "", "--examples", "6"]
    args += ["--families", "general float", "--json"]
    declared = [*args, "--margin", "1", "--l2", "1/10000", "--schedule", "optimal"]
    declared += ["--stop", "tol:1/1000:5", "--order", "sklearn:5"]
    assert cli.main(declared) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["semantics"]["schedule"] == "optimal", out
    assert "--l2 1/10000" in out["reproduce"]
    assert cli.main(args) == 1
    assert cli.main([*declared[:-2], "--schedule", "optimal", "--learning-rate", "2"]) == 2


def exact_tol_stop_epochs(ds: Dataset, tol: F, patience: int, max_epochs: int) -> tuple[int, tuple[F, ...]]:
    """The textbook rule with scikit-learn's tol stop, the objective (the perceptron loss
    max(0, -y p) summed over an epoch's presentations, over m) in exact rationals, written
    independently of the replica: (epochs run, final weights)."""
    Z, s = ds.scaled_patterns
    w = [F(0)] * ds.dimension
    best, count = None, 0
    for epoch in range(1, max_epochs + 1):
        total = F(0)
        for z in Z:
            p = sum(a * F(c, s) for a, c in zip(w, z))
            total += max(F(0), -p)
            if p <= 0:
                w = [a + F(c, s) for a, c in zip(w, z)]
        mean = total / len(Z)
        count = count + 1 if best is not None and mean > best - tol else 0
        best = mean if best is None or mean < best else best
        if count >= patience:
            return epoch, tuple(w)
    return max_epochs, tuple(w)


@settings(max_examples=60, deadline=None, database=None)
@given(
    st.one_of(
        separable_datasets(values="dyadic", max_dim=3, max_samples=6),
        nonseparable_datasets(values="int", max_dim=2, max_samples=6),
    ).map(lambda d: d.with_bias(1)),
    st.sampled_from([F(0), F(1, 4), F(2)]),
    st.integers(1, 4),
)
def test_the_tol_stop_against_its_exact_run(ds: Dataset, tol: F, patience: int) -> None:
    run = declared_run(ds, Semantics(stop=f"tol:{tol}:{patience}"), None, 30)
    assert run.replica is not None
    epochs, weights = exact_tol_stop_epochs(ds, tol, patience, 30)
    if run.replica.ambiguous_stop == 0 and run.replica.ambiguous_decisions == 0:
        assert run.epochs == epochs
        assert run.weights == weights  # small dyadic data: the float64 run is exact
