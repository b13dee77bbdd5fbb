"""The float64 MSVMAv twin: M kept by Sherman-Morrison as the set A changes.

Independent of :mod:`novikoff.reference.msvmav` (which inverts exactly and keeps
the weights in mpmath). M is updated by Sherman-Morrison, one rank-one step per
sample entering or leaving A, which costs O(D^2) each; when more than D samples
change in one iteration, a direct inverse of I + Z_A^T Z_A/(n beta) (O(|A| D^2 + D^3))
is cheaper and is used instead. Both are tested against the exact reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.twins.perceptron import input_patterns

__all__ = ["MSVMAvTwinRun", "msvmav_twin"]


@dataclass
class MSVMAvTwinRun:
    weights: np.ndarray
    theta: list[float] = field(default_factory=list)
    semivariance: list[float] = field(default_factory=list)
    active: list[int] = field(default_factory=list)


def _stats(Z: np.ndarray, w: np.ndarray) -> tuple[float, float, np.ndarray]:
    ms = Z @ w
    theta = float(ms.mean())
    below = ms[ms < theta]
    return theta, float(((theta - below) ** 2).sum() / len(ms)), ms


def msvmav_twin(
    X: Any,
    y: Any | None = None,
    *,
    alpha: float,
    beta: float,
    iterations: int = 100,
    bias: float = 1.0,
    patterns: np.ndarray | None = None,
) -> MSVMAvTwinRun:
    """MSVMAv in float64 (``X`` a Dataset, or arrays with labels ``y`` in {-1, +1})."""
    if not (np.isfinite(alpha) and np.isfinite(beta)) or alpha <= 0 or beta <= 0:
        raise InputError(f"alpha and beta must be > 0, got alpha = {alpha}, beta = {beta}")
    if patterns is not None:  # z_i = y_i (x_i, bias) already built (cross-validation loops)
        Z = patterns
    else:
        Z = input_patterns(X, y, bias)
    n, D = Z.shape
    s = Z.sum(axis=0)
    if not s.any():
        raise InputError("sum_i y_i x~_i is zero: w_0 = s/||s|| is undefined")
    nb = n * float(beta)
    shift = s / (2 * float(alpha) * n)
    w = s / np.linalg.norm(s)
    theta, sv, ms = _stats(Z, w)
    run = MSVMAvTwinRun(weights=w, theta=[theta], semivariance=[sv])
    M = np.eye(D)
    active = np.zeros(n, dtype=bool)
    for _ in range(iterations):
        new = ms < theta
        leaving, entering = np.flatnonzero(active & ~new), np.flatnonzero(new & ~active)
        if len(leaving) + len(entering) > D:
            ZA = Z[new]
            M = np.linalg.inv(np.eye(D) + ZA.T @ ZA / nb)
        else:
            for i in leaving:  # Sherman-Morrison removal
                Mz = M @ Z[i]
                M += np.outer(Mz, Mz) / (nb - Z[i] @ Mz)
            for i in entering:  # Sherman-Morrison addition
                Mz = M @ Z[i]
                M -= np.outer(Mz, Mz) / (nb + Z[i] @ Mz)
        active = new
        r = Z[active].sum(axis=0)
        w = M @ (theta * r / nb + w) + shift
        w /= np.linalg.norm(w)
        theta, sv, ms = _stats(Z, w)
        if theta < 0:
            w = -w
            theta, sv, ms = _stats(Z, w)
        run.active.append(int(active.sum()))
        run.theta.append(theta)
        run.semivariance.append(sv)
    run.weights = w
    return run
