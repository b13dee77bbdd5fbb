"""Non-negative least squares in float64 (Lawson and Hanson's active-set method).

:func:`nnls` is a numpy-only drop-in for ``scipy.optimize.nnls`` (a float warm start for the
exact solvers, which re-solve); :func:`step_to_boundary` is the active-set step it shares with
Wolfe's minor cycles (:mod:`novikoff.certificates.warm_start`).
"""

from __future__ import annotations

import numpy as np

from novikoff.exact.bigdot import one_blas_thread

__all__ = ["nnls", "step_to_boundary"]


def nnls(
    A: np.ndarray, b: np.ndarray, maxiter: int | None = None, warm: bool = True
) -> tuple[np.ndarray, float]:
    """``(x, ||A x - b||)`` with ``x >= 0`` minimizing ``||A x - b||`` (float64), by
    Lawson and Hanson's active-set method on the normal equations: numpy only, a drop-in
    for ``scipy.optimize.nnls`` where importing scipy.optimize (0.4-0.8 s) would cost more
    than the solve. The passive set's inverse Gram matrix is kept by bordering and
    deletion (O(k^2) per change) and recomputed at the end, so the result is as accurate
    as one dense solve. A float warm start only: callers that need exactness re-solve.

    ``warm`` (default) starts the active set from the positive entries of the
    unconstrained least-squares solution when ``A'A`` is well conditioned (1-norm
    condition number at most 1e6; one dense inverse): on certificate problems most
    columns carry weight at the optimum, so a handful of changes replace one bordering
    per support column. Any feasible start leaves the method's optimality test
    unchanged; ``warm=False`` (or a badly conditioned ``A'A``) starts from x = 0.
    Guarantees: x >= 0 elementwise; at most ``maxiter`` (default 3 n) variable changes.
    """
    A = np.asarray(A, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = A.shape[1]
    limit = 3 * n if maxiter is None else maxiter
    with one_blas_thread():
        H = A.T @ A
        f = A.T @ b
        x = _lawson_hanson(H, f, limit, warm and 0 < n <= A.shape[0])
        residual = float(np.linalg.norm(A @ x - b))
    return x, residual


def _unconstrained_start(H: np.ndarray, f: np.ndarray) -> np.ndarray | None:
    """The solution of ``H x = f`` (the unconstrained minimizer), or None when H is singular or
    badly conditioned (then the cold start is the safe one)."""
    try:
        with np.errstate(all="ignore"):
            inverse = np.linalg.inv(H)
    except np.linalg.LinAlgError:
        return None
    if not np.isfinite(inverse).all():
        return None
    # the 1-norm condition number: above 1e6 the bordering test of dependence (relative
    # 1e-10) can refuse columns of a large passive set, and the warm start would stop short
    if float(np.abs(H).sum(axis=0).max()) * float(np.abs(inverse).sum(axis=0).max()) > 1e6:
        return None
    return np.asarray(inverse @ f)


def _lawson_hanson(H: np.ndarray, f: np.ndarray, limit: int, warm: bool = False) -> np.ndarray:
    """argmin_{x >= 0} x'Hx/2 - f'x for a positive semidefinite H (see :func:`nnls`)."""
    n = H.shape[0]
    x = np.zeros(n)
    eps = np.finfo(np.float64).eps
    # gradient threshold in the units of A'(b - A x): column norm times |b| (f = A'b)
    scale = float(np.sqrt(np.abs(np.diag(H)).max(initial=0.0))) if n else 0.0
    threshold = 10 * max(n, 1) * eps * max(scale, 1.0) * max(float(np.abs(f).max(initial=0.0)), 1.0)
    passive: list[int] = []
    inverse = _PassiveInverse(n)
    free = np.ones(n, dtype=bool)
    changes = 0
    since_fresh = 0
    refreshes = 0
    start = _unconstrained_start(H, f) if warm else None
    if start is not None:
        chosen = [int(i) for i in np.flatnonzero(start > 0)]
        if chosen and inverse.renew(H, chosen):
            # a feasible point positive on the passive set: the inner loop below moves it to
            # the passive set's optimum, dropping what reaches zero, as after any addition
            passive = chosen
            free[passive] = False
            x[passive] = start[passive]
            changes = _to_passive_optimum(x, f, passive, inverse, free, changes, limit)
    while changes < limit:
        w = f - H @ x
        w[~free] = -np.inf
        j = int(np.argmax(w)) if n else 0
        if not n or not w[j] > threshold:
            # converged with updated inverses: once more from a fresh inverse (no drift)
            if not passive or since_fresh == 0 or refreshes >= 8 or not inverse.renew(H, passive):
                break
            since_fresh, refreshes = 0, refreshes + 1
        else:
            if not inverse.border(H, passive, j):  # j is dependent on the passive set
                free[j] = False
                continue
            passive.append(j)
            free[j] = False
            changes += 1
            since_fresh += 1
            if since_fresh >= 128 and inverse.renew(H, passive):  # bound the updates' drift
                since_fresh = 0
        before = changes
        changes = _to_passive_optimum(x, f, passive, inverse, free, changes, limit)
        since_fresh += changes - before
    return x


def _to_passive_optimum(
    x: np.ndarray,
    f: np.ndarray,
    passive: list[int],
    inverse: _PassiveInverse,
    free: np.ndarray,
    changes: int,
    limit: int,
) -> int:
    """Lawson-Hanson's inner loop: move the feasible ``x`` (positive on ``passive``) toward
    the passive set's optimum, dropping the variables that reach zero (``passive``,
    ``inverse``, ``free`` and ``x`` updated in place); returns the new change count."""
    while passive:
        z = inverse.view() @ f[passive]
        if (z > 0).all():
            x[:] = 0.0
            x[passive] = z
            break
        xp, out = step_to_boundary(x[passive], z)
        for q in sorted(out, reverse=True):
            inverse.delete(q)
            free[passive[q]] = True
            xp = np.delete(xp, q)
            del passive[q]
        changes += 1
        x[:] = 0.0
        x[passive] = xp
        if changes >= limit:
            break
    return changes


def step_to_boundary(current: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The active-set methods' step (Lawson-Hanson's inner loop, Wolfe's minor cycle): from
    ``current`` (all entries > 0) toward ``target`` (some entry <= 0) as far as every entry
    stays >= 0, and the positions to drop, those at (or within 1e-14 relative of) zero;
    never empty (the entry that stops the step when rounding leaves it just above zero)."""
    bad = target <= 0
    theta = float(np.min(current[bad] / (current[bad] - target[bad])))
    new = current + theta * (target - current)
    floor = 1e-14 * float(new.max(initial=0.0))
    out = [q for q in range(len(new)) if new[q] <= floor]
    if not out:
        out = [int(np.argmin(np.where(bad, new, np.inf)))]
    return new, out


class _PassiveInverse:
    """The inverse of H[P, P] for the passive set P, updated in place in one n x n buffer:
    bordering when an index enters (O(k^2), no new k x k array), deletion when one leaves."""

    def __init__(self, n: int) -> None:
        self.buffer = np.empty((n, n))
        self.k = 0

    def view(self) -> np.ndarray:
        return self.buffer[: self.k, : self.k]

    def border(self, H: np.ndarray, passive: list[int], j: int) -> bool:
        """Grow to P + [j]; False (unchanged) if H[P + j, P + j] is (nearly) singular."""
        k = self.k
        V = self.view()
        h = H[passive, j]
        s = V @ h
        sigma = float(H[j, j] - h @ s)
        if not sigma > 1e-10 * max(float(H[j, j]), 1e-300):
            return False
        u = s / sigma
        V += np.multiply.outer(s, u)
        self.buffer[:k, k] = -u
        self.buffer[k, :k] = -u
        self.buffer[k, k] = 1.0 / sigma
        self.k = k + 1
        return True

    def delete(self, q: int) -> None:
        """Drop position q (a symmetric matrix's inverse without row and column q)."""
        V = self.view()
        keep = np.arange(self.k) != q
        c = V[keep, q]
        smaller = V[np.ix_(keep, keep)] - np.multiply.outer(c, c / V[q, q])
        self.k -= 1
        self.buffer[: self.k, : self.k] = smaller

    def renew(self, H: np.ndarray, passive: list[int]) -> bool:
        """Recompute from H (no drift); False (unchanged) if that fails."""
        try:
            fresh = np.linalg.inv(H[np.ix_(passive, passive)])
        except np.linalg.LinAlgError:
            return False
        if not np.isfinite(fresh).all():
            return False
        self.k = len(passive)
        self.buffer[: self.k, : self.k] = fresh
        return True
