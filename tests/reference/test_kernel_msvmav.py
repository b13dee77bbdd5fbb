"""Kernel MSVMAv: the float twin against the exact reference and against a direct solve; the
reference's Sherman-Morrison check; bad input."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.errors import InputError, InvariantViolation
from novikoff.reference import kernel_msvmav as ref
from novikoff.reference.kernel_msvmav import run_kernel_msvmav
from novikoff.twins.kernel_msvmav import gaussian_gram, kernel_decision, kernel_msvmav_twin


def poly_gram(rows: list[list[int]]) -> list[list[Fraction]]:
    """(x.x' + 1)^2, exact."""
    return [[Fraction(sum(a * b for a, b in zip(u, v)) + 1) ** 2 for v in rows] for u in rows]


@st.composite
def problems(draw: Any) -> tuple[list[list[int]], list[int]]:
    d = draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=3, max_size=7))
    labels = draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows), max_size=len(rows)))
    return rows, labels


def direct(K: np.ndarray, y: np.ndarray, alpha: float, beta: float, iterations: int) -> list[float]:
    """The iteration written independently: a fresh solve of the normal equations each step."""
    n = len(y)
    G = K + np.eye(n)
    a = y / np.sqrt(y @ K @ y)
    thetas = [float((y * (K @ a)).mean())]
    for _ in range(iterations):
        m = y * (K @ a)
        A = m < m.mean()
        H = G + K[:, A] @ K[:, A].T / (n * beta)
        a1 = np.linalg.solve(H, G @ a + m.mean() * K[:, A] @ y[A] / (n * beta))
        a = a1 + y / (2 * alpha * n)
        a = a / np.sqrt(a @ K @ a)
        if (y * (K @ a)).mean() < 0:
            a = -a
        thetas.append(float((y * (K @ a)).mean()))
    return thetas


@settings(max_examples=15, deadline=None)
@given(
    problems(),
    st.sampled_from([Fraction(1, 4), Fraction(1), Fraction(8)]),
    st.sampled_from([Fraction(1, 8), 1, 4]),
)
def test_the_twin_follows_the_exact_reference(
    problem: tuple[list[list[int]], list[int]], alpha: Fraction, beta: Any
) -> None:
    rows, labels = problem
    K = poly_gram(rows)
    yKy = sum(labels[i] * labels[j] * K[i][j] for i in range(len(rows)) for j in range(len(rows)))
    if yKy <= 0:
        with pytest.raises(InputError, match="y\\^T K y is not positive"):
            run_kernel_msvmav(K, labels, alpha, beta, iterations=3)
        return
    exact = run_kernel_msvmav(K, labels, alpha, beta, iterations=6, precision=200)
    assert exact.sm_checks == 6
    Kf = np.array([[float(v) for v in r] for r in K])
    y = np.array(labels, dtype=float)
    twin = kernel_msvmav_twin(Kf, y, alpha=float(alpha), beta=float(beta), iterations=6)
    assert twin.active == exact.active
    assert np.allclose(twin.theta, exact.theta, rtol=1e-7, atol=1e-9)
    assert np.allclose(twin.coefficients, exact.float_coefficients(), rtol=1e-6, atol=1e-9)
    a = twin.coefficients
    assert abs(a @ Kf @ a - 1) < 1e-9  # normalized in feature space


def test_sherman_morrison_matches_a_direct_solve_on_a_gaussian_kernel() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    K = gaussian_gram(X, gamma=0.5, offset=1.0)
    twin = kernel_msvmav_twin(K, y, alpha=2.0, beta=0.25, iterations=30)
    assert np.allclose(twin.theta, direct(K, y, 2.0, 0.25, 30), rtol=1e-8)
    # the decision values on the training points are the margins' signs times y
    assert np.allclose(y * kernel_decision(K, twin.coefficients), y * (K @ twin.coefficients))


def test_the_gaussian_gram_matrix_by_hand() -> None:
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    K = gaussian_gram(X, gamma=0.5, offset=1.0)
    assert K[0, 0] == 2.0 and np.isclose(K[0, 1], np.exp(-0.5 * 5) + 1)
    with pytest.raises(InputError, match="gamma must be a positive finite number"):
        gaussian_gram(X, gamma=0.0)


def test_a_broken_sherman_morrison_update_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    rows, labels = [[1, 0], [0, 1], [2, 1], [-1, -1]], [1, 1, -1, -1]
    real = ref._sm

    def off_by_a_bit(M: Any, u: Any, nb: Any, add: bool) -> Any:
        return real(M, u, nb * 2, add)  # the wrong denominator

    monkeypatch.setattr(ref, "_sm", off_by_a_bit)
    with pytest.raises(InvariantViolation, match="Sherman-Morrison"):
        run_kernel_msvmav(poly_gram(rows), labels, 1, 1, iterations=3)


@pytest.mark.parametrize(
    ("K", "y", "message"),
    [
        ([[1, 0], [0, 1]], [1], "must be 1 x 1"),
        ([[1, 2], [3, 1]], [1, -1], "K is not symmetric: K[1][0] != K[0][1]"),
        ([[1, 0], [0, 1]], [1, 0], "label 1 must be +1 or -1, got 0"),
        ([[1, 0], [0, 1]], [True, -1], "label 0 must be +1 or -1, got True"),
        ([], [], "no samples"),
    ],
)
def test_bad_gram_matrices_and_labels_are_clear_errors(K: Any, y: Any, message: str) -> None:
    with pytest.raises(InputError) as err:
        run_kernel_msvmav(K, y, 1, 1)
    assert message in str(err.value)


def test_bad_twin_input_is_a_clear_error() -> None:
    K, y = np.eye(2), np.array([1.0, -1.0])
    with pytest.raises(InputError, match="alpha must be > 0"):
        kernel_msvmav_twin(K, y, alpha=0.0, beta=1.0)
    with pytest.raises(InputError, match="finite 2 x 2"):
        kernel_msvmav_twin(np.eye(3), y, alpha=1.0, beta=1.0)
    with pytest.raises(InputError, match="labels must be"):
        kernel_msvmav_twin(K, np.array([1.0, 2.0]), alpha=1.0, beta=1.0)
