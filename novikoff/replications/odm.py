"""The optimal margin distribution machine (ODM, Zhang and Zhou 2019), linear, as a baseline.

The IJCAI-22 paper compares MSVMAv with ODM in its Tables 1 and 2 and its Figure 1. ODM's
primal on patterns z_i = y_i (x_i, 1) with margins m_i = z_i.w:

    min_w  1/2 ||w||^2 + C / (n (1 - theta)^2) sum_i [ (1 - theta - m_i)_+^2 + mu (m_i - 1 - theta)_+^2 ]

(the slack of each side squared, margins in [1 - theta, 1 + theta] free; 0 < theta < 1,
0 < mu, C > 0). The objective is strongly convex and piecewise quadratic, so its minimizer
is unique; :func:`odm_fit` finds it by Newton's method on the generalized Hessian
(I + 2c sum_{lower} z z^T + 2c mu sum_{upper} z z^T) with a backtracking line search, and
returns only when the gradient norm is at most ``tol`` (so f(w) - min f <= tol^2 / 2,
f being 1-strongly convex).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from novikoff.errors import InputError

__all__ = ["ODMFit", "odm_fit", "odm_objective"]


@dataclass(frozen=True)
class ODMFit:
    weights: np.ndarray
    objective: float
    gradient_norm: float
    iterations: int


def _check(Z: np.ndarray, C: float, mu: float, theta: float) -> None:
    if Z.ndim != 2 or Z.shape[0] == 0 or not np.all(np.isfinite(Z)):
        raise InputError(f"odm: the patterns must be a finite non-empty 2-D array, got shape {Z.shape}")
    for name, v in (("C", C), ("mu", mu)):
        if not (v > 0 and np.isfinite(v)):
            raise InputError(f"odm: {name} must be a positive finite number, got {v!r}")
    if not 0 < theta < 1:
        raise InputError(f"odm: theta must be in (0, 1), got {theta!r}")


def odm_objective(Z: np.ndarray, w: np.ndarray, C: float, mu: float, theta: float) -> float:
    """ODM's primal objective at w (module docstring)."""
    m = Z @ w
    c = C / (Z.shape[0] * (1 - theta) ** 2)
    low = np.maximum(1 - theta - m, 0.0)
    up = np.maximum(m - 1 - theta, 0.0)
    return float(0.5 * w @ w + c * (low @ low + mu * up @ up))


def odm_fit(
    Z: np.ndarray, *, C: float, mu: float, theta: float, tol: float = 1e-9, max_iter: int = 200
) -> ODMFit:
    """The ODM minimizer to a gradient norm <= ``tol`` (relative to max(1, ||w||)); InputError
    for bad parameters, RuntimeError if Newton's method does not get there in ``max_iter``."""
    Z = np.asarray(Z, dtype=float)
    _check(Z, C, mu, theta)
    n, D = Z.shape
    c = C / (n * (1 - theta) ** 2)
    lo, hi = 1 - theta, 1 + theta
    w = np.zeros(D)
    f = odm_objective(Z, w, C, mu, theta)
    for k in range(max_iter):
        m = Z @ w
        low, up = m < lo, m > hi
        g = w - 2 * c * (Z[low].T @ (lo - m[low])) + 2 * c * mu * (Z[up].T @ (m[up] - hi))
        gn = float(np.linalg.norm(g))
        if gn <= tol * max(1.0, float(np.linalg.norm(w))):
            return ODMFit(w, f, gn, k)
        H = np.eye(D) + 2 * c * (Z[low].T @ Z[low]) + 2 * c * mu * (Z[up].T @ Z[up])
        step = np.linalg.solve(H, -g)
        t, slope = 1.0, float(g @ step)
        while True:  # Armijo backtracking (the objective is only piecewise quadratic)
            w_new = w + t * step
            f_new = odm_objective(Z, w_new, C, mu, theta)
            if f_new <= f + 1e-4 * t * slope or t < 1e-12:
                break
            t /= 2
        w, f = w_new, f_new
    raise RuntimeError(
        f"odm: no convergence in {max_iter} Newton steps (C = {C}, mu = {mu}, theta = {theta})"
    )
