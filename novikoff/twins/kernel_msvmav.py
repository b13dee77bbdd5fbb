"""float64 twin of kernel MSVMAv (:mod:`novikoff.reference.kernel_msvmav`), any Gram matrix.

The same iteration in numpy: M = (I + K + sum_{i in A} K_i K_i^T / (n beta))^-1 starts as
(I + K)^-1 and is kept by Sherman-Morrison updates as samples enter and leave A, O(n^2) per
change instead of a fresh O(n^3) inverse; the tests hold it to the exact reference and to a
direct solve. Also the Gaussian Gram matrix (:func:`gaussian_gram`) and the decision values
of new points (:func:`kernel_decision`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from novikoff.errors import InputError

__all__ = ["KernelTwinRun", "gaussian_gram", "kernel_decision", "kernel_msvmav_twin"]


@dataclass
class KernelTwinRun:
    """Final coefficients a (a^T K a = 1) and the per-iteration theta, SV and |A|."""

    coefficients: np.ndarray
    iterations: int
    theta: list[float] = field(default_factory=list)
    semivariance: list[float] = field(default_factory=list)
    active: list[int] = field(default_factory=list)


def gaussian_gram(
    X: np.ndarray, Y: np.ndarray | None = None, *, gamma: float, offset: float = 0.0
) -> np.ndarray:
    """exp(-gamma ||x - x'||^2) + offset for the rows of X against those of Y (default X);
    ``offset`` = rho^2 adds the bias trick's constant feature."""
    if not (gamma > 0 and np.isfinite(gamma)):
        raise InputError(f"gaussian_gram: gamma must be a positive finite number, got {gamma!r}")
    Y = X if Y is None else Y
    sq = (X * X).sum(1)[:, None] + (Y * Y).sum(1)[None, :] - 2 * X @ Y.T
    return np.asarray(np.exp(-gamma * np.maximum(sq, 0.0)) + offset)


def kernel_decision(K_test: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """h(x) = sum_j a_j kappa(x_j, x) for each row of K_test (test x train)."""
    return np.asarray(K_test @ coefficients)


def kernel_msvmav_twin(
    K: np.ndarray, y: np.ndarray, *, alpha: float, beta: float, iterations: int = 100
) -> KernelTwinRun:
    """Kernel MSVMAv in float64 with Sherman-Morrison updates of M (module docstring).

    InputError for a K that is not n x n and finite, labels not +-1, alpha or beta not
    positive, or y^T K y <= 0."""
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    n = y.shape[0]
    if K.shape != (n, n) or not np.all(np.isfinite(K)):
        raise InputError(f"kernel MSVMAv: K must be a finite {n} x {n} array, got shape {K.shape}")
    if not np.all(np.abs(y) == 1):
        raise InputError("kernel MSVMAv: labels must be +1 or -1")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not (v > 0 and np.isfinite(v)):
            raise InputError(f"{name} must be > 0, got {v!r}")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InputError(f"iterations must be an integer >= 0, got {iterations!r}")
    yKy = float(y @ K @ y)
    if not yKy > 0:
        raise InputError("y^T K y is not positive: kernel MSVMAv's a_0 = y/sqrt(y^T K y) is undefined")
    nb = n * beta
    G = K + np.eye(n)

    def normalize(v: np.ndarray) -> np.ndarray:
        return np.asarray(v / np.sqrt(v @ K @ v))

    def stats(a: np.ndarray) -> tuple[float, float, np.ndarray]:
        ms = y * (K @ a)
        theta = float(ms.mean())
        d = theta - ms
        return theta, float((d[d > 0] ** 2).sum() / n), ms

    a = normalize(y.copy())
    theta, sv, ms = stats(a)
    run = KernelTwinRun(coefficients=a, iterations=iterations, theta=[theta], semivariance=[sv])
    M = np.linalg.inv(G)
    active = np.zeros(n, dtype=bool)
    for _ in range(iterations):
        new = ms < theta
        for i in np.flatnonzero(active & ~new):  # removals first, as the reference does
            Mu = M @ K[:, i]
            M = M + np.outer(Mu, Mu) / (nb - K[:, i] @ Mu)
        for i in np.flatnonzero(new & ~active):
            Mu = M @ K[:, i]
            M = M - np.outer(Mu, Mu) / (nb + K[:, i] @ Mu)
        active = new
        rhs = G @ a + theta * (K[:, active] @ y[active]) / nb
        a = normalize(M @ rhs + y / (2 * alpha * n))
        theta, sv, ms = stats(a)
        if theta < 0:
            a = -a
            theta, sv, ms = stats(a)
        run.active.append(int(active.sum()))
        run.theta.append(theta)
        run.semivariance.append(sv)
    run.coefficients = a
    return run
