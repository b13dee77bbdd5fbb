"""The float64 MSVMAv twin: M kept by Sherman-Morrison as the set A changes.

Independent of :mod:`novikoff.reference.msvmav` (which inverts exactly and keeps
the weights in mpmath). M is updated by Sherman-Morrison, one rank-one step per
sample entering or leaving A, which costs O(D^2) each; when more than D samples
change in one iteration, a direct inverse of I + Z_A^T Z_A/(n beta) (O(|A| D^2 + D^3))
is cheaper and is used instead. Both are tested against the exact reference.

:func:`msvmav_grid` runs the same iteration for a whole grid of (alpha, beta) pairs
at once (the cross-validation loops of the Table 1 replication), with the same
arithmetic per pair (Sherman-Morrison steps in the same order, the direct inverse
when more than D samples change), and shares work only where the mathematics makes
it the same work:

- the margins of every pair come from one product ``W @ Z^T``, and the rank-one
  steps of all pairs run together, round j taking every pair's j-th change;
- the factorization: with ``G_A = Z_A^T Z_A = V diag(lam) V^T`` (symmetric
  eigendecomposition), for every beta > 0
  ``(I + G_A/(n beta))^-1 = V diag(n beta / (n beta + lam_j)) V^T``,
  so one eigendecomposition serves every pair that needs a direct inverse for the
  same set A (all 121 pairs of the paper's grid at iteration 1, where w_0 does not
  depend on alpha or beta);
- a pair whose set A did not change keeps its M (the factorization is warm-started;
  the iterate itself starts from w_0 for every pair, since T steps from w_0 is the
  algorithm), and a pair whose weights come back bit for bit the same is at a fixed
  point of the float64 iteration and is frozen (every later step would return the
  same bits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.twins.perceptron import input_patterns

__all__ = ["MSVMAvGridRun", "MSVMAvTwinRun", "msvmav_grid", "msvmav_twin"]


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


@dataclass
class MSVMAvGridRun:
    """Final unit weights of every grid point, row g for (alpha[g], beta[g]).

    ``min_gap[g]`` is the smallest |w.z_i - theta| met in a set-A decision of grid
    point g (a decision that close to a tie may differ from another float64 run's);
    ``factorizations`` counts the direct inverses (or shared eigendecompositions)
    computed, ``refreshes`` the grid-point inverses they gave (refreshes/factorizations
    is the sharing), ``rank_one`` the Sherman-Morrison steps.
    """

    weights: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    min_gap: np.ndarray
    factorizations: int = 0
    refreshes: int = 0
    rank_one: int = 0
    live: list[int] = field(default_factory=list)  # grid points still iterating, per iteration


def _positive_finite(values: Sequence[float], name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise InputError(f"{name} must be a non-empty list of finite numbers > 0, got {list(values)!r}")
    return arr


SHARE_MIN = 4  # a set A shared by this many grid points gets one eigendecomposition


def _refresh(
    cols: np.ndarray,
    new: np.ndarray,
    state: _GridState,
    run: MSVMAvGridRun,
) -> None:
    """Bring r_A, G_A and M of the grid points ``cols`` (whose sets A changed to ``new``) up
    to date, as :func:`msvmav_twin` does: Sherman-Morrison per sample (those leaving A
    first, then those entering, each in index order) when at most D samples changed, else
    the direct inverse of I + G_A/(n beta).

    The rank-one steps run in rounds, round j taking the j-th change of every grid point at
    once. G_A is kept by the same +-z z^T steps; a set A that SHARE_MIN or more grid points
    reach with a direct inverse gets G_A = Z_A^T Z_A afresh and one eigendecomposition for
    all of them."""
    active = state.active
    diff = new != active[cols]  # every grid point in cols has a change
    big = diff.sum(axis=1) > state.Z.shape[1]
    if not big.all():
        _rank_one_rounds(cols[~big], new[~big], diff[~big], state, run)
    if big.any():
        _direct(cols[big], new[big], diff[big], state, run)
    active[cols] = new


def _rank_one_rounds(
    cols: np.ndarray, new: np.ndarray, diff: np.ndarray, state: _GridState, run: MSVMAvGridRun
) -> None:
    """Sherman-Morrison on M and +-z z^T on G_A, one rank-one step per changed sample."""
    Z, r, GA, M, nb = state.Z, state.r, state.GA, state.M, state.nb
    gi, ni = np.nonzero(diff)  # sorted by grid point, then by index
    entering = new[gi, ni]
    order = np.argsort(2 * gi + entering, kind="stable")  # leaving before entering, by index
    gi, ni, entering = gi[order], ni[order], entering[order]
    sign = np.where(entering, 1.0, -1.0)
    starts = np.searchsorted(gi, np.arange(len(cols)))
    r[cols] += np.add.reduceat(Z[ni] * sign[:, None], starts, axis=0)
    rank = np.arange(len(gi)) - starts[gi]
    for j in range(int(rank.max()) + 1):
        sel = rank == j
        g = cols[gi[sel]]
        z, sg = Z[ni[sel]], sign[sel]
        Mz = np.einsum("gij,gj->gi", M[g], z)
        denom = nb[g] + sg * np.einsum("gi,gi->g", z, Mz)
        M[g] -= (sg / denom)[:, None, None] * (Mz[:, :, None] * Mz[:, None, :])
        GA[g] += sg[:, None, None] * (z[:, :, None] * z[:, None, :])
        run.rank_one += len(g)


def _direct(
    cols: np.ndarray, new: np.ndarray, diff: np.ndarray, state: _GridState, run: MSVMAvGridRun
) -> None:
    """The direct inverse of I + G_A/(n beta): one eigendecomposition per set A that
    SHARE_MIN or more of these grid points share (G_A and r_A recomputed from A), else
    G_A and r_A updated by the changes and inverted per grid point."""
    Z, r, GA, M, nb = state.Z, state.r, state.GA, state.M, state.nb
    groups: dict[bytes, list[int]] = {}
    for pos, key in enumerate(np.packbits(new, axis=1)):
        groups.setdefault(key.tobytes(), []).append(pos)
    single: list[int] = []
    for members in groups.values():
        if len(members) < SHARE_MIN:
            single += members
            continue
        idx = cols[members]  # (I + G_A/(n beta))^-1 = V diag(n beta/(n beta + lam)) V^T
        ZA = Z[new[members[0]]]
        GA[idx] = ZA.T @ ZA
        r[idx] = ZA.sum(axis=0)
        lam, V = np.linalg.eigh(GA[idx[0]])
        scale = nb[idx, None] / (nb[idx, None] + np.maximum(lam, 0.0)[None, :])
        M[idx] = np.einsum("ik,gk,jk->gij", V, scale, V)
        run.factorizations += 1
        run.refreshes += len(idx)
    for pos in single:
        changed = np.flatnonzero(diff[pos])
        Zg = Z[changed]
        Zs = Zg * np.where(new[pos, changed], 1.0, -1.0)[:, None]
        GA[cols[pos]] += Zs.T @ Zg
        r[cols[pos]] += Zs.sum(axis=0)
    if single:
        idx = cols[single]
        M[idx] = np.linalg.inv(np.eye(Z.shape[1]) + GA[idx] / nb[idx, None, None])
        run.factorizations += len(idx)
        run.refreshes += len(idx)


@dataclass
class _GridState:
    """What :func:`msvmav_grid` keeps per grid point between iterations."""

    Z: np.ndarray
    nb: np.ndarray  # n beta
    r: np.ndarray  # r_A = sum_{i in A} z_i
    GA: np.ndarray  # G_A = sum_{i in A} z_i z_i^T
    M: np.ndarray  # (I + G_A/(n beta))^-1
    active: np.ndarray  # A, as a (grid, n) mask


def msvmav_grid(
    patterns: np.ndarray,
    alphas: Sequence[float],
    betas: Sequence[float],
    *,
    iterations: int = 100,
    track_gaps: bool = False,
) -> MSVMAvGridRun:
    """MSVMAv in float64 for every pair of ``alphas`` x ``betas`` (alpha-major order).

    ``patterns`` are the z_i = y_i (x_i, bias) rows. Row g of the result is what
    :func:`msvmav_twin` returns for that pair, up to float rounding (the tests bound
    the difference by the conditioning of I + G_A/(n beta)), as long as no set-A
    decision is within rounding of a tie (``track_gaps=True`` records the closest
    decision of each grid point in ``min_gap``; otherwise it stays inf).

    A grid point whose weights come back bit-for-bit unchanged from an iteration
    is at a fixed point of the float64 iteration (same w, hence the same theta, the
    same A and the same factorization, hence the same next w), so it is frozen:
    its remaining iterations would all return the same bits.
    """
    a = _positive_finite(alphas, "alphas")
    b = _positive_finite(betas, "betas")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InputError(f"iterations must be an integer >= 0, got {iterations!r}")
    Z = np.ascontiguousarray(patterns, dtype=float)
    if Z.ndim != 2 or Z.shape[0] == 0 or not np.all(np.isfinite(Z)):
        raise InputError("patterns must be a non-empty finite 2-d array")
    n, D = Z.shape
    s = Z.sum(axis=0)
    if not s.any():
        raise InputError("sum_i y_i x~_i is zero: w_0 = s/||s|| is undefined")
    alpha = np.repeat(a, len(b))
    beta = np.tile(b, len(a))
    G = len(alpha)
    nb = n * beta
    shift = s[None, :] / (2 * alpha[:, None] * n)
    W = np.tile(s / np.linalg.norm(s), (G, 1))
    run = MSVMAvGridRun(weights=W, alpha=alpha, beta=beta, min_gap=np.full(G, np.inf))
    state = _GridState(
        Z=Z,
        nb=nb,
        r=np.zeros((G, D)),
        GA=np.zeros((G, D, D)),
        M=np.tile(np.eye(D), (G, 1, 1)),
        active=np.zeros((G, n), dtype=bool),
    )
    live = np.arange(G)
    ZT = np.ascontiguousarray(Z.T)
    for _ in range(iterations):
        if not len(live):
            break
        run.live.append(len(live))
        Wl = W[live]
        margins = Wl @ ZT  # (live, n)
        theta = margins.mean(axis=1)
        flip = theta < 0
        if flip.any():  # theta(w) < 0: use -w (negation is exact, so are the negated margins)
            Wl[flip] = -Wl[flip]
            margins[flip] = -margins[flip]
            theta[flip] = -theta[flip]
            W[live[flip]] = Wl[flip]
        if track_gaps:
            run.min_gap[live] = np.minimum(run.min_gap[live], np.abs(margins - theta[:, None]).min(axis=1))
        new = margins < theta[:, None]
        changed = (new != state.active[live]).any(axis=1)
        cols = live[changed]
        if len(cols):
            _refresh(cols, new[changed], state, run)
        rhs = theta[:, None] * state.r[live] / nb[live, None] + Wl
        Wn = np.einsum("gij,gj->gi", state.M[live], rhs) + shift[live]
        Wn /= np.linalg.norm(Wn, axis=1, keepdims=True)
        fixed = (Wn == Wl).all(axis=1)
        W[live] = Wn
        live = live[~fixed]
    if len(live):  # the final theta(w_T) < 0 check
        flip = live[(W[live] @ ZT).mean(axis=1) < 0]
        W[flip] = -W[flip]
    run.weights = W
    return run
