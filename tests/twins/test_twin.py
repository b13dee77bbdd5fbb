"""The float twin against the exact reference: identical runs where float64 is exact."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz import FLOAT_EXACT_BOUND, float_exact_separable, nonseparable_datasets, orderings
from novikoff.reference import run_perceptron
from novikoff.twins import perceptron_twin


def _within_bound(ds: Dataset) -> bool:
    limit, e = FLOAT_EXACT_BOUND["numerator"], FLOAT_EXACT_BOUND["exponent"]
    return ds.dimension <= FLOAT_EXACT_BOUND["dimension"] and all(
        (v * 2**e).denominator == 1 and abs(v * 2**e) <= limit * 2**e
        for i in range(ds.n_samples)
        for v in ds.pattern(i)
    )


@given(st.data())
def test_twin_reproduces_the_reference_update_sequence(data: st.DataObject) -> None:
    ds = data.draw(float_exact_separable())
    assert _within_bound(ds)
    order = data.draw(orderings(ds.n_samples))
    exact = run_perceptron(ds, order=order, max_epochs=5000)
    twin = perceptron_twin(ds, order=order, max_epochs=5000)
    assert exact.mistakes <= FLOAT_EXACT_BOUND["updates"]
    assert twin.updates == exact.updates
    assert (twin.epochs, twin.converged) == (exact.epochs, exact.converged)
    assert [Fraction(float(v)) for v in twin.weights] == list(exact.weights)


@given(nonseparable_datasets(values="int", max_dim=4), st.integers(1, 30))
def test_twin_matches_on_nonseparable_runs(ds: Dataset, epochs: int) -> None:
    exact = run_perceptron(ds, max_epochs=epochs)
    twin = perceptron_twin(ds, max_epochs=epochs)
    assert twin.updates == exact.updates and not twin.converged and twin.epochs == epochs


def test_twin_on_arrays_with_bias() -> None:
    X = np.array([[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0], [-2.0, 0.0]])
    y = np.array([1, 1, -1, -1])
    run = perceptron_twin(X, y, bias=1.0)
    assert run.converged and run.updates == [(0, 0)]
    np.testing.assert_array_equal(run.weights, [1.0, 1.0, 1.0])


def test_twin_long_scan_blocks() -> None:
    # many samples: the block scan must find the first mistake inside large blocks too
    rng = np.random.default_rng(0)
    X = rng.integers(-20, 21, size=(700, 5)).astype(float)
    w = np.array([3.0, -1.0, 2.0, 0.5, 1.0])
    s = X @ w + 0.25
    y = np.where(s > 0, 1, -1)
    from novikoff.data.dataset import Dataset

    ds = Dataset.from_arrays(X, y)
    assert perceptron_twin(X, y).updates == run_perceptron(ds).updates


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.array([[np.nan, 1.0]]), np.array([1]), "NaN"),
        (np.array([[1.0, 1.0]]), np.array([2]), r"not \{-1,\+1\} or \{0,1\}"),
        (np.zeros((0, 2)), np.zeros(0), "non-empty"),
        (np.ones((2, 2)), np.ones(3), "shape"),
    ],
)
def test_twin_input_errors(X: np.ndarray, y: np.ndarray, message: str) -> None:
    with pytest.raises(InputError, match=message):
        perceptron_twin(X, y)


def test_numpy_screening_engages_and_changes_nothing() -> None:
    from novikoff.twins.perceptron import perceptron_on_patterns
    from novikoff.twins.screen import ScreenedScan

    rng = np.random.default_rng(1)
    w_star = rng.integers(-5, 6, size=12)
    X = rng.integers(-8, 9, size=(12000, 12))
    s = X @ w_star
    keep = np.abs(s) >= 2
    X, y = X[keep][:3000].astype(float), np.where(s[keep][:3000] > 0, 1.0, -1.0)
    Z = np.hstack([X, np.ones((len(X), 1))]) * y[:, None]
    screened, w = ScreenedScan(Z, exact=False), np.zeros(Z.shape[1])
    updates: list[tuple[int, int]] = []
    for e in range(5000):
        before = len(updates)
        for j, _ in screened.epoch(w):
            w += Z[j]  # in place: the scan holds w
            updates.append((e, j))
        if len(updates) == before:
            break
    assert screened.refreshes > 5, "screening never engaged: the test data are too easy"
    plain = perceptron_on_patterns(Z, max_epochs=5000, screening=False, engine="numpy")
    assert plain.converged and updates == plain.updates
    assert isinstance(plain.weights, np.ndarray)  # a float twin's weights are a float64 array
    assert np.array_equal(w, plain.weights)
