"""ODM, the margin-distribution baseline: the Newton minimizer against an independent
quasi-Newton minimization, its optimality, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from novikoff.errors import InputError
from novikoff.replications.odm import odm_fit, odm_objective


def problem(seed: int, n: int = 80, d: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    return np.hstack([X, np.ones((n, 1))]) * y[:, None]


@pytest.mark.parametrize(
    ("seed", "C", "mu", "theta"), [(0, 1.0, 0.5, 0.3), (1, 64.0, 0.1, 0.8), (2, 2.0**-6, 1.0, 0.5)]
)
def test_newton_reaches_the_minimum_an_independent_method_finds(
    seed: int, C: float, mu: float, theta: float
) -> None:
    Z = problem(seed)
    fit = odm_fit(Z, C=C, mu=mu, theta=theta)
    other = minimize(
        lambda w: odm_objective(Z, w, C, mu, theta),
        np.zeros(Z.shape[1]),
        method="BFGS",
        options={"gtol": 1e-10},
    )
    assert fit.objective <= other.fun + 1e-9 * max(1.0, abs(other.fun))
    assert np.allclose(fit.weights, other.x, atol=1e-4)
    # strongly convex: any other point is worse by at least half its squared distance (up to tol)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        v = fit.weights + rng.normal(size=fit.weights.shape) * 0.1
        gap = odm_objective(Z, v, C, mu, theta) - fit.objective
        assert gap >= 0.5 * np.sum((v - fit.weights) ** 2) - 1e-6


def test_with_every_margin_inside_the_band_the_minimum_is_zero() -> None:
    Z = np.array([[0.0, 0.0], [0.0, 0.0]])  # margins all 0 < 1 - theta: the loss pulls nowhere
    fit = odm_fit(Z, C=1.0, mu=1.0, theta=0.5)
    assert np.array_equal(fit.weights, np.zeros(2)) and fit.iterations == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"C": 0.0, "mu": 1.0, "theta": 0.5}, "C must be a positive finite number"),
        ({"C": 1.0, "mu": -1.0, "theta": 0.5}, "mu must be a positive finite number"),
        ({"C": 1.0, "mu": 1.0, "theta": 1.0}, "theta must be in (0, 1)"),
    ],
)
def test_bad_parameters_are_clear_errors(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(InputError) as err:
        odm_fit(problem(0), C=kwargs["C"], mu=kwargs["mu"], theta=kwargs["theta"])
    assert message in str(err.value)


def test_bad_patterns_are_a_clear_error() -> None:
    with pytest.raises(InputError, match="finite non-empty 2-D"):
        odm_fit(np.array([[np.nan, 1.0]]), C=1.0, mu=1.0, theta=0.5)
