"""Float warm starts for the exact minimum-norm-point solvers: untrusted guesses, linear in m.

The exact certificates (:mod:`novikoff.certificates.solver`) solve

    min ||sum_i lambda_i z_i||^2  over  lambda >= 0,  sum_{i in g} lambda_i = 1 for each group g

exactly (Wolfe's algorithm over the integers, :func:`novikoff.certificates.minnorm.min_norm_point`). One
group is the directional margin of the patterns z_i = y_i (x_i, rho); two groups (the reflected
rows x_p and -x_n) are the geometric margin, the distance between the two class hulls. The
exact algorithm is finite from any start, but each of its major cycles costs one exact pass
over the data, so it should start on the optimal support. :func:`simplex_min_norm` guesses that
support in float64 by a working-set method whose cost grows linearly with the data:

1. a working set S of rows (the lowest scores of each group along the groups' mean direction);
2. the problem restricted to S solved by a primal active-set method (Wolfe's minor and major
   cycles generalised to one equality constraint per group), whose KKT matrix
   ``[[G_FF, C_F^T], [C_F, 0]]`` on the free set F has its inverse kept by bordering and
   deletion (O(|F|^2) per change, renewed from scratch every :data:`_RENEW` changes);
3. one matrix-vector product ``Z @ v`` over all rows finds the rows that violate optimality
   (score below their group's multiplier); the worst :func:`_batch` of each group join S,
   the rows S holds at weight zero leave it; repeat until no row violates.

Each round is one pass over the data plus work on S alone, whose size is bounded by the
support plus a batch, never by m. Nothing here is trusted or exact: the result only chooses
where the exact algorithm starts, and any float failure returns None (a cold start).

The method (:func:`working_set_min_norm`) reaches the rows only through a :class:`RowPasses`
oracle: the passes over every row, and the rows of S. :func:`simplex_min_norm` runs it on an
in-memory array (:class:`ArrayRows`); :mod:`novikoff.certificates.sharded` on rows kept by
Dask workers, with the same floats, so that both choose the same start.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from novikoff.certificates.minnorm import step_to_boundary
from novikoff.exact.bigdot import one_blas_thread

__all__ = [
    "ArrayRows",
    "RowPasses",
    "SparseSeed",
    "lowest",
    "multipliers",
    "simplex_min_norm",
    "working_set_min_norm",
]

_RENEW = 256  # inverse updates between two fresh inverses of the KKT matrix
_ROUNDS = 60  # passes over the data at most (a guess that stops early is still a warm start)


def simplex_min_norm(
    Z: np.ndarray,
    groups: np.ndarray | None = None,
    *,
    start: np.ndarray | None = None,
    rounds: int = _ROUNDS,
) -> np.ndarray | None:
    """Float weights ``lambda`` (one per row of ``Z``, >= 0, summing to 1 within each group)
    that approximately minimize ``||Z^T lambda||^2``, or None when float64 fails (non-finite
    data, a singular system it cannot leave). ``groups`` labels each row 0 or 1 (default: one
    group). ``start`` (nonnegative, one per row, with weight in every group) seeds the first
    working set and its weights, e.g. a related problem's solution; any other start is ignored.
    Guarantees only the constraints: lambda is a guess, exactly zero off its support.
    Cost: at most ``rounds`` passes ``Z @ v`` plus work on a working set of the support's size
    plus one batch per group."""
    try:
        with np.errstate(all="ignore"), one_blas_thread():
            return _solve(np.asarray(Z, dtype=np.float64), groups, start, rounds)
    except (np.linalg.LinAlgError, ValueError, FloatingPointError):  # a guess: a cold start instead
        return None


def _batch(dimension: int) -> int:
    """Rows added per group and round: a few times the dimension (the support is at most
    dimension + 2 rows, so a batch this size usually holds it after one or two rounds)."""
    return max(32, 2 * dimension)


def _solve(
    Z: np.ndarray, groups: np.ndarray | None, start: np.ndarray | None, rounds: int
) -> np.ndarray | None:
    m, D = Z.shape
    if m == 0 or not np.isfinite(Z).all():
        return None
    peak = float(np.abs(Z).max())
    if peak == 0:
        return None
    rows = ArrayRows(Z / peak, groups)
    seed = rows.dense_seed = _seed(start, rows.members, m)
    found = working_set_min_norm(rows, D, None if seed is None else SparseSeed.of(seed), rounds)
    if found is None:
        return None
    out = np.zeros(m)
    out[found[0]] = found[1]
    return out


class SparseSeed:
    """A start of :func:`working_set_min_norm`: weights ``values`` (> 0, summing to 1 within
    each group) on the rows ``rows`` (ascending positions); every other row weighs 0."""

    def __init__(self, rows: np.ndarray, values: np.ndarray) -> None:
        self.rows, self.values = rows, values

    @classmethod
    def of(cls, dense: np.ndarray) -> SparseSeed:
        """The nonzero entries of a dense start (one weight per row)."""
        rows = np.flatnonzero(dense)
        return cls(rows, dense[rows])

    def on(self, S: np.ndarray) -> np.ndarray:
        """The weights of the rows ``S`` (ascending, a superset of :attr:`rows`)."""
        return _spread(S, self.rows, self.values)


def _spread(S: np.ndarray, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The vector over the positions ``S`` (ascending) that holds ``values`` at ``rows`` (a
    subset of S) and 0 elsewhere."""
    out = np.zeros(S.size)
    out[np.searchsorted(S, rows)] = values
    return out


class RowPasses(Protocol):
    """What :func:`working_set_min_norm` asks of all the rows z_i (already scaled; positions
    0..m-1, each in one of ``groups`` groups): the passes over every row (steps 1 and 3 of the
    module docstring) and the rows of the working set. :class:`ArrayRows` is the in-memory
    one; :mod:`novikoff.certificates.sharded` keeps the rows on Dask workers. An oracle whose
    floats are the in-memory ones (the same numbers, summed in the same order) makes
    :func:`working_set_min_norm` return the same arrays bit for bit."""

    groups: int

    def codes(self, S: np.ndarray) -> np.ndarray:
        """The group index (0..groups-1) of each row in S."""
        ...

    def direction(self, seed: SparseSeed | None) -> np.ndarray:
        """The first point: ``sum_i seed_i z_i``, or without a seed the sum over the groups of
        each group's mean row (``Z[rows].mean(axis=0)``, in group order)."""
        ...

    def scores(self, v: np.ndarray) -> Any:
        """The pass ``z_i . v`` over every row (``Z @ v``), or a handle that stands for it (it may
        be made by :meth:`lowest`, where the rows are)."""
        ...

    def lowest(
        self, scores: Any, S: np.ndarray | None, lam_S: np.ndarray | None, tol: float | None, k: int
    ) -> list[np.ndarray]:
        """Per group (in order, groups without a candidate left out): the positions of its ``k``
        rows of lowest slack among those with slack below ``-tol`` (all of the group's rows
        when ``tol`` is None), all of them when there are at most k: the set :func:`lowest`
        picks from the group's candidates in position order. The slack is the score less the
        group's :func:`multipliers` at the working set ``S`` with weights ``lam_S`` (the score
        itself when S is None)."""
        ...

    def rows(self, S: np.ndarray) -> np.ndarray:
        """The rows S (ascending positions) as a float64 array (``Z[S]``)."""
        ...


class ArrayRows:
    """:class:`RowPasses` over an in-memory float64 array (rows already scaled) and its
    group labels (None: one group). ``dense_seed``, when set, is the seed as one weight per
    row: :meth:`direction` then makes the very product ``Z.T @ seed`` of the dense code."""

    def __init__(self, Z: np.ndarray, groups: np.ndarray | None = None) -> None:
        m = Z.shape[0]
        g = np.zeros(m, dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
        labels = sorted(set(g.tolist()))
        self.Z = Z
        self.members = [np.flatnonzero(g == k) for k in labels]
        self.code = np.searchsorted(labels, g)  # group index 0..ng-1 of every row
        self.groups = len(labels)
        self.dense_seed: np.ndarray | None = None

    def codes(self, S: np.ndarray) -> np.ndarray:
        return self.code[S]

    def direction(self, seed: SparseSeed | None) -> np.ndarray:
        if seed is None:
            return np.asarray(sum(self.Z[rows].mean(axis=0) for rows in self.members))
        dense = self.dense_seed
        if dense is None:
            dense = np.zeros(self.Z.shape[0])
            dense[seed.rows] = seed.values
        return self.Z.T @ dense

    def scores(self, v: np.ndarray) -> np.ndarray:
        return self.Z @ v

    def lowest(
        self, scores: np.ndarray, S: np.ndarray | None, lam_S: np.ndarray | None, tol: float | None, k: int
    ) -> list[np.ndarray]:
        if S is None or lam_S is None:
            slack = scores
        else:
            slack = scores - multipliers(scores[S], lam_S, self.code[S], self.groups)[self.code]
        out: list[np.ndarray] = []
        for rows in self.members:
            bad = rows if tol is None else rows[slack[rows] < -tol]
            if bad.size:
                out.append(bad[lowest(slack[bad], k)])
        return out

    def rows(self, S: np.ndarray) -> np.ndarray:
        return self.Z[S]


def working_set_min_norm(
    rows: RowPasses,
    dimension: int,
    seed: SparseSeed | None,
    rounds: int = _ROUNDS,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Steps 1-3 of the module docstring over ``rows`` (patterns of length ``dimension``),
    from ``seed`` (None: the groups' mean rows): ``(S, lam_S)``, the working set (ascending
    positions) and its weights (zero off S), or None when float64 fails (a singular system
    it cannot leave). At most ``rounds`` + 1 passes :meth:`RowPasses.scores`; the work
    between them is on the working set alone."""
    ng = rows.groups
    batch = _batch(dimension)
    # the first working set: the seed's support, and the lowest-scoring rows of each group
    # along the seed's point (without a seed, along the sum of the groups' mean rows)
    first = rows.lowest(rows.scores(rows.direction(seed)), None, None, None, batch)
    if seed is not None:
        first.append(seed.rows)
    S = np.unique(np.concatenate(first))
    lam_S: np.ndarray | None = None if seed is None else seed.on(S)
    for _ in range(rounds):
        ZS, code = rows.rows(S), rows.codes(S)
        lam_S = _active_set(ZS, code, ng, lam_S)
        if lam_S is None:
            return None
        v = ZS.T @ lam_S
        norm = float(np.sqrt(v @ v))
        tol = 1e-10 * max(norm, 1e-300)
        new = rows.lowest(rows.scores(v), S, lam_S, tol, batch)
        if not new:
            break
        positive = lam_S > 0
        keep = S[positive]
        added = np.setdiff1d(np.concatenate(new), keep)
        if added.size == 0:
            break
        S, lam_S = np.union1d(keep, added), _spread(np.union1d(keep, added), keep, lam_S[positive])
    if lam_S is None:
        return None
    return S, lam_S


def multipliers(at_S: np.ndarray, lam_S: np.ndarray, code_S: np.ndarray, groups: int) -> np.ndarray:
    """Each group's multiplier: the weighted mean score of its rows in the working set (the
    common score of its free rows at the subproblem's optimum), from the scores ``at_S`` of
    the working set's rows, their weights and groups."""
    return np.array([float(lam_S[code_S == k] @ at_S[code_S == k]) for k in range(groups)])


def _seed(start: np.ndarray | None, members: list[np.ndarray], m: int) -> np.ndarray | None:
    """``start`` normalized within each group, or None when it is not a usable seed."""
    if start is None:
        return None
    seed = np.asarray(start, dtype=np.float64).ravel()
    if seed.shape != (m,) or not np.isfinite(seed).all() or (seed < 0).any():
        return None
    seed = seed.copy()
    for rows in members:
        total = float(seed[rows].sum())
        if not total > 0:
            return None
        seed[rows] /= total
    return seed


def lowest(values: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` smallest entries (all of them when there are at most k)."""
    if values.size <= k:
        return np.arange(values.size)
    return np.argpartition(values, k)[:k]


def _active_set(Z: np.ndarray, code: np.ndarray, ng: int, start: np.ndarray | None) -> np.ndarray | None:
    """min ||Z^T l||^2 over l >= 0 with sum 1 in each group (rows' groups in ``code``), by
    Wolfe's cycles on the Gram matrix: from ``start`` (feasible, or None: each group's
    shortest row), add the row of most negative reduced cost, move toward the free set's
    affine minimizer dropping rows that reach zero, until no reduced cost is negative."""
    n = Z.shape[0]
    G = Z @ Z.T
    scale = float(np.abs(np.diag(G)).max())
    if n <= Z.shape[1] + ng:  # few rows: often all of them are the support (one solve, no cycles)
        every, positive = _all_rows_optimum(G, code, ng, scale)
        if every is not None:
            return every
        if start is None:  # else start where the all-rows minimizer is positive
            start = positive
    sums = None if start is None else np.bincount(code, weights=start, minlength=ng)
    kkt: _KKT | None = None
    if start is not None and sums is not None and (start >= 0).all() and (sums > 0).all():
        lam = start / sums[code]  # renormalized within each group (the start may be slightly off)
        kkt = _KKT(G, code, ng, [int(i) for i in np.flatnonzero(lam > 0)])
    if kkt is None or not kkt.ok:  # no start, or a dependent one: each group's shortest row
        diag = np.diag(G)
        free = [int(np.flatnonzero(code == k)[np.argmin(diag[code == k])]) for k in range(ng)]
        lam = np.zeros(n)
        lam[free] = 1.0
        kkt = _KKT(G, code, ng, free)
    if not kkt.ok:
        return None
    limit = 20 * n + 100
    for _ in range(limit):
        lam = _minor_cycles(kkt, lam)
        if lam is None:
            return None
        F = kkt.free
        # G @ lam, through G when it is the smaller product, else through the rows (no copies)
        grad = G @ lam if n < Z.shape[1] else Z @ (Z.T @ lam)
        # the free rows of a group share one score at the affine minimizer: its multiplier
        mu = np.bincount(code[F], weights=lam[F] * grad[F], minlength=ng)
        reduced = grad - mu[code]
        reduced[kkt.free] = np.inf
        j = int(np.argmin(reduced))
        if not reduced[j] < -1e-12 * max(scale, 1e-300):
            return lam
        if not kkt.add(j):  # dependent on the free set: no better point through it
            return lam
    return lam


def _all_rows_optimum(
    G: np.ndarray, code: np.ndarray, ng: int, scale: float
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(optimum, start)``: the affine minimizer with every row free when it is positive and
    meets the optimality conditions (each group's rows share one score: with every row free
    and positive there is nothing else to check), else None and, when that minimizer exists,
    its positive part normalized within each group (a feasible start for the cycles, usually
    near the support; None when some group has no positive weight)."""
    kkt = _KKT(G, code, ng, list(range(G.shape[0])))
    mu = kkt.affine_minimizer() if kkt.ok else None
    if mu is None:
        return None, None
    if (mu > 0).all():
        grad = G @ mu
        share = np.bincount(code, weights=mu * grad, minlength=ng)
        if float(np.abs(grad - share[code]).max()) <= 1e-9 * max(scale, 1e-300):
            return mu, None
    positive = np.where(mu > 0, mu, 0.0)
    sums = np.bincount(code, weights=positive, minlength=ng)
    return None, (positive / sums[code] if (sums > 0).all() else None)


def _minor_cycles(kkt: _KKT, lam: np.ndarray) -> np.ndarray | None:
    """Wolfe's minor cycles: from feasible ``lam`` (positive on the free set, zero elsewhere),
    move to the free set's affine minimizer if it is positive, else as far toward it as
    feasibility allows, dropping the rows that reach zero, and repeat."""
    for _ in range(len(kkt.free) + 2):
        mu = kkt.affine_minimizer()
        if mu is None:
            return None
        F = kkt.free
        if (mu > 0).all():
            lam[:] = 0.0
            lam[F] = mu
            return lam
        new, out = step_to_boundary(lam[F], mu)
        lam[:] = 0.0
        lam[F] = np.maximum(new, 0.0)
        for q in sorted(out, reverse=True):
            lam[F[q]] = 0.0
            if not kkt.drop(q):  # the last row of a group: numerically stuck
                return None
    return None


class _KKT:
    """The inverse of the KKT matrix ``[[0, C_F], [C_F^T, G_FF]]`` of the free set F (C: one
    indicator row per group), kept in place in one buffer by bordering (a row enters, at the
    end) and deletion (a row leaves: swapped to the end, then cut). Positions: the ``ng``
    constraint rows first, then the free rows in order."""

    def __init__(self, G: np.ndarray, code: np.ndarray, ng: int, free: list[int]) -> None:
        self.G, self.code, self.ng = G, code, ng
        self.free = list(free)
        self.changes = 0
        self.buffer = np.zeros((ng + G.shape[0], ng + G.shape[0]))
        self.ok = self.renew()

    @property
    def V(self) -> np.ndarray:
        n = self.ng + len(self.free)
        return self.buffer[:n, :n]

    def renew(self) -> bool:
        """Recompute the inverse from scratch; False when the matrix is singular."""
        F, ng = self.free, self.ng
        n = ng + len(F)
        M = np.zeros((n, n))
        M[ng:, ng:] = self.G[np.ix_(F, F)]
        M[self.code[F], np.arange(ng, n)] = 1.0
        M[np.arange(ng, n), self.code[F]] = 1.0
        try:
            V = np.linalg.inv(M)
        except np.linalg.LinAlgError:
            return False
        if not np.isfinite(V).all():
            return False
        self.buffer[:n, :n] = V
        self.changes = 0
        return True

    def affine_minimizer(self) -> np.ndarray | None:
        """Weights on F (sum 1 per group) of the min-norm point of the free rows' affine hulls:
        the KKT solution with right-hand side (1, 0), i.e. the constraint columns' sum."""
        mu = self.V[self.ng :, : self.ng].sum(axis=1)
        return mu if np.isfinite(mu).all() else None

    def add(self, j: int) -> bool:
        """Border with row j; False (unchanged) when the new matrix is numerically singular."""
        F, ng = self.free, self.ng
        n = ng + len(F)
        b = np.zeros(n)
        b[ng:] = self.G[F, j]
        b[self.code[j]] = 1.0
        V = self.V
        s = V @ b
        sigma = float(self.G[j, j] - b @ s)
        if not abs(sigma) > 1e-10 * max(float(self.G[j, j]), 1e-300):
            return False
        V += np.multiply.outer(s, s / sigma)
        self.buffer[:n, n] = self.buffer[n, :n] = -s / sigma
        self.buffer[n, n] = 1.0 / sigma
        self.free.append(j)
        return self._counted()

    def drop(self, q: int) -> bool:
        """Remove the free row at position q; False when it is the last row of its group."""
        i = self.free[q]
        if int((self.code[self.free] == self.code[i]).sum()) == 1:
            return False
        ng = self.ng
        n = ng + len(self.free)
        p, last = ng + q, n - 1
        B = self.buffer
        if p != last:  # the symmetric swap of positions p and last (the free order follows)
            B[[p, last], :n] = B[[last, p], :n]
            B[:n, [p, last]] = B[:n, [last, p]]
            self.free[q], self.free[-1] = self.free[-1], self.free[q]
        c = B[:last, last].copy()
        B[:last, :last] -= np.multiply.outer(c, c / B[last, last])
        self.free.pop()
        return self._counted()

    def _counted(self) -> bool:
        self.changes += 1
        return self.renew() if self.changes >= _RENEW else True
