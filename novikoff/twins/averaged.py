"""Float64 twins of the averaged and voted perceptrons (Freund and Schapire 1999).

The run is the perceptron twin's (:func:`~novikoff.twins.perceptron.perceptron_on_patterns`,
numpy scan or the compiled numba kernel, ``engine`` as there: ``"compiled"`` needs numba
and the natural order, ``"auto"`` uses it when it can and falls back to numpy). Its
updates give, with the presentation order, the survival counts c_0..c_k (presentations
after which w_j was current; sum N = epochs x m) and the weights w_j after j updates as
running sums of the updated rows, added in run order (so each w_j is bit for bit the
twin's own weight after j updates). Independent of :mod:`novikoff.reference.averaged`.

Public API (stable; the fuzz registry calls the first two like ``perceptron_twin``)::

    run_averaged(X, y=None, *, bias=1.0, order=None, max_epochs=1000, engine="auto")
        -> AveragedTwinRun       # also named averaged_twin
    run_voted(X, y=None, *, bias=1.0, order=None, max_epochs=1000, engine="auto")
        -> VotedTwinRun          # also named voted_twin
    survival_counts(updates, m, epochs, order=None) -> np.ndarray (int64, c_0..c_k)
    predict_averaged(weights, X_tilde) -> np.ndarray of +1/-1
    predict_voted(voter_weights, counts, X_tilde) -> np.ndarray of +1/-1

``X`` may be a :class:`~novikoff.data.dataset.Dataset` (then its labels and bias are used).
Predictions take augmented rows x~ = (x, rho), bias coordinate last, and use
sign(0) = -1 (ties predict -1), deciding on float64 values.

**The average's rounding** (stated and tested): the twin computes
S = sum_j c_j w_j in float64 (products, then sums in blocks, in an order of numpy's and
BLAS's choosing) and w_avg = S / N. With u = 2^-53 and gamma_n = n u / (1 - n u), every
coordinate t satisfies |w_avg[t] - (1/N) sum_j c_j w_j[t]| <= gamma_(k+2) (1/N) sum_j c_j |w_j[t]|
(k + 1 products and any summation order of k + 1 terms: gamma_(k+1); the division: one
more rounding), where w_j are the twin's own weights, exact dyadic rationals. On data
whose float arithmetic is exact those are the reference's w_j, so the bound compares the
twin's average with the exact one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.runtime.runs import Order, RunRecord, TwinEngine, epoch_order
from novikoff.twins.perceptron import input_patterns, perceptron_on_patterns

__all__ = [
    "AveragedTwinRun",
    "VotedTwinRun",
    "average_error_bound",
    "averaged_twin",
    "predict_averaged",
    "predict_voted",
    "run_averaged",
    "run_voted",
    "survival_counts",
    "voted_twin",
]

_BLOCK = 4096  # updates per block when summing c_j w_j without storing every w_j


def _empty() -> np.ndarray:
    return np.zeros(0)


def _empty_counts() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass
class AveragedTwinRun(RunRecord):
    """The perceptron twin's run with ``weights`` = w_avg (float64, bias weight last);
    ``final_weights`` the perceptron's last weights, ``weight_sum`` = the float sum_j c_j w_j,
    ``counts`` c_0..c_k, ``presentations`` N."""

    weights: np.ndarray
    final_weights: np.ndarray = field(default_factory=_empty)
    presentations: int = 0
    weight_sum: np.ndarray = field(default_factory=_empty)
    counts: np.ndarray = field(default_factory=_empty_counts)


@dataclass
class VotedTwinRun(RunRecord):
    """The perceptron twin's run with its voters: row j of ``voter_weights`` is w_j
    (j = 0..k, row 0 = 0), ``counts[j]`` = c_j. ``weights`` is w_k, the last voter."""

    weights: np.ndarray
    voter_weights: np.ndarray = field(default_factory=_empty)
    counts: np.ndarray = field(default_factory=_empty_counts)
    presentations: int = 0

    @property
    def voters(self) -> list[tuple[np.ndarray, int]]:
        """The (w_j, c_j) pairs."""
        return [(w, int(c)) for w, c in zip(self.voter_weights, self.counts)]


def survival_counts(
    updates: Sequence[tuple[int, int]], m: int, epochs: int, order: Order = None
) -> np.ndarray:
    """c_0..c_k (int64) for a run of ``epochs`` epochs over ``m`` samples in ``order`` with
    these (epoch, sample) updates: c_j = #{s : w^(s) = w_j}, sum = epochs x m. InputError if
    an update lies outside the run or the updates are not in presentation order."""
    total = epochs * m
    if not updates:
        return np.array([total], dtype=np.int64)
    pairs = np.asarray(updates, dtype=np.int64).reshape(-1, 2)
    ep, idx = pairs[:, 0], pairs[:, 1]
    if ep.min() < 0 or ep.max() >= epochs or idx.min() < 0 or idx.max() >= m:
        raise InputError(f"updates: an update lies outside a run of {epochs} epochs over {m} samples")
    if order is None or order == "natural":
        pos = idx
    else:
        presentation = epoch_order(order, m)
        pos = np.empty_like(idx)
        for e in np.unique(ep).tolist():
            inverse = np.empty(m, dtype=np.int64)
            inverse[np.asarray(presentation(e), dtype=np.int64)] = np.arange(m)
            mask = ep == e
            pos[mask] = inverse[idx[mask]]
    bounds = np.concatenate(([1], ep * m + pos + 1, [total + 1]))
    counts = np.diff(bounds)
    if (counts[1:-1] <= 0).any() or counts[0] < 0 or counts[-1] <= 0:
        raise InputError("updates: not in presentation order (one update per presentation at most)")
    return counts


def _run(Z: np.ndarray, order: Order, max_epochs: int, engine: TwinEngine) -> tuple[RunRecord, np.ndarray]:
    run = perceptron_on_patterns(Z, max_epochs=max_epochs, order=order, engine=engine)
    counts = survival_counts(run.updates, Z.shape[0], run.epochs, order)
    return run, counts


def _update_rows(run: RunRecord) -> np.ndarray:
    return np.asarray([i for _, i in run.updates], dtype=np.intp)


def run_averaged(
    X: Any,
    y: Any | None = None,
    *,
    bias: float = 1.0,
    order: Order = None,
    max_epochs: int = 1000,
    engine: TwinEngine = "auto",
) -> AveragedTwinRun:
    """The float64 averaged perceptron (module docstring): same updates, epochs and
    convergence as :func:`~novikoff.twins.perceptron.perceptron_twin`; ``weights`` = S / N
    with S = sum_j c_j w_j accumulated block by block (never all w_j at once), within
    :func:`average_error_bound` of the exact average of the twin's own w_j."""
    Z = input_patterns(X, y, bias)
    run, counts = _run(Z, order, max_epochs, engine)
    rows = _update_rows(run)
    d = Z.shape[1]
    w = np.zeros(d)
    total = np.zeros(d)  # c_0 w_0 = 0
    for a in range(0, rows.size, _BLOCK):
        block = rows[a : a + _BLOCK]
        W = np.cumsum(np.vstack((w, Z[block])), axis=0)[1:]  # sequential: the twin's own w_j
        total += counts[a + 1 : a + 1 + block.size].astype(np.float64) @ W
        w = W[-1]
    n = int(counts.sum())
    return AveragedTwinRun(
        weights=total / n,
        updates=run.updates,
        epochs=run.epochs,
        converged=run.converged,
        algorithm="averaged",
        final_weights=w,
        presentations=n,
        weight_sum=total,
        counts=counts,
    )


def run_voted(
    X: Any,
    y: Any | None = None,
    *,
    bias: float = 1.0,
    order: Order = None,
    max_epochs: int = 1000,
    engine: TwinEngine = "auto",
) -> VotedTwinRun:
    """The float64 voted perceptron: the perceptron twin's run, every w_j (running sums of
    the updated rows in run order, row 0 = 0) and its count c_j."""
    Z = input_patterns(X, y, bias)
    run, counts = _run(Z, order, max_epochs, engine)
    rows = _update_rows(run)
    voters = np.cumsum(np.vstack((np.zeros((1, Z.shape[1])), Z[rows])), axis=0)
    return VotedTwinRun(
        weights=voters[-1].copy(),
        updates=run.updates,
        epochs=run.epochs,
        converged=run.converged,
        algorithm="voted",
        voter_weights=voters,
        counts=counts,
        presentations=int(counts.sum()),
    )


averaged_twin = run_averaged
voted_twin = run_voted


def average_error_bound(k: int) -> float:
    """gamma_(k+2) = (k+2) u / (1 - (k+2) u), u = 2^-53: the relative factor of the module
    docstring's bound for a run with k updates."""
    n = (k + 2) * 2.0**-53
    return n / (1 - n)


def _rows(X_tilde: Any, d: int) -> np.ndarray:
    try:
        A = np.asarray(X_tilde, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("X_tilde: not a numeric array") from None
    A = A.reshape(1, -1) if A.ndim == 1 else A
    if A.ndim != 2 or A.shape[1] != d:
        raise InputError(f"X_tilde: rows of {d} values expected (x~ = (x, rho), bias last), got {A.shape}")
    return A


def predict_averaged(weights: Any, X_tilde: Any) -> np.ndarray:
    """sign(x~_i.w) per row with sign(0) = -1, on float64 values."""
    w = np.asarray(weights, dtype=np.float64).ravel()
    return np.where(_rows(X_tilde, w.size) @ w > 0, 1, -1)


def predict_voted(voter_weights: Any, counts: Any, X_tilde: Any) -> np.ndarray:
    """sign(sum_j c_j sign(x~_i.w_j)) per row, sign(0) = -1 in both places (float64 values,
    integer tallies)."""
    V = np.asarray(voter_weights, dtype=np.float64)
    c = np.asarray(counts).astype(np.int64).ravel()
    if V.ndim != 2 or V.shape[0] != c.size:
        raise InputError(f"counts: {c.size} counts for voter weights of shape {V.shape}")
    if (c < 0).any():
        raise InputError("counts: must be nonnegative")
    A = _rows(X_tilde, V.shape[1])
    tally = np.zeros(A.shape[0], dtype=np.int64)
    for a in range(0, c.size, _BLOCK):
        signs = np.where(A @ V[a : a + _BLOCK].T > 0, 1, -1)
        tally += signs @ c[a : a + _BLOCK]
    return np.where(tally > 0, 1, -1)
