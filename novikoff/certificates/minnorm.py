"""Exact minimum-norm point of a polytope given by atoms (Wolfe 1976).

Wolfe's algorithm is finite over the rationals: each major cycle strictly
lowers ||x||^2 and the corral stays affinely independent, so no corral repeats.
This module runs it in exact integer/rational arithmetic (python-flint for the
linear algebra), optionally warm-started from a float guess (any guess: the
exact algorithm corrects it). It is the *untrusted solver*: its output is
re-verified by :mod:`novikoff.certificates.checker`, so a bug here can make certify fail
but never makes a wrong certificate pass.

Atoms are integer vectors (patterns scaled by a common positive factor, which
changes neither the minimizing weights nor any decision).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import flint
import numpy as np

from novikoff.exact.bigdot import big_dot, big_scale, one_blas_thread, small_times_big
from novikoff.exact.rational import RationalVector

__all__ = [
    "Atoms",
    "MinNormPoint",
    "PatternAtoms",
    "affine_minimizer_weights",
    "best_denominator",
    "min_norm_point",
    "nnls",
    "solve_ones",
    "step_to_boundary",
]

Atom = Any  # an atom id: any hashable (an index, a pair of indices)

_PRIME = 2**61 - 1  # for rank tests mod p: independent mod p implies independent over Q


_EXACT = 2**53  # integers below this are exact in float64 (products and partial sums too)
_STEP_BITS = (32, 16)  # bits gained per refinement step, tried in this order


def solve_ones(G: np.ndarray) -> tuple[list[int], int] | None:
    """``y = G^-1 1`` exactly for a square integer matrix ``G`` (int64 array), as
    ``(numerators, denominator)``: ``y_j = numerators_j / denominator``, the denominator the
    least positive common one (so the pair is what FLINT's ``solve(...).numer_denom()``
    gives). None when this fast path does not apply (G singular or too badly conditioned
    for float64, entries too large, a step that fails); the caller then solves with FLINT.

    The method is numeric iterative refinement with exact residuals (Wan 2006): a float64
    inverse proposes ``e`` more bits of y per step, the residual ``2^e r - G d`` is kept
    exactly in int64, so after K steps ``y = (X + G^-1 r_K) / 2^(eK)`` with X an exact
    integer vector. Once ``eK`` exceeds twice the Hadamard bound on ``det G`` (which every
    denominator of y divides), continued fractions give the common denominator (usually one,
    for the first entry) and the numerators are rounded from X. Guarantee: the pair returned is
    checked exactly, ``G numerators = denominator 1`` (one exact BLAS product of G with
    the numerators cut into limbs, :func:`novikoff.exact.bigdot.small_times_big`), so a float
    failure can cost time but never gives a wrong answer.
    """
    k = G.shape[0]
    if G.ndim != 2 or G.shape != (k, k) or k == 0 or G.dtype != np.int64:
        return None
    peak = int(np.abs(G).max())
    if peak == 0 or peak * k >= 2**40:
        return None
    Gf = G.astype(np.float64)
    with np.errstate(all="ignore"), one_blas_thread():
        try:
            inverse = np.linalg.inv(Gf)
        except np.linalg.LinAlgError:
            return None
    if not np.isfinite(inverse).all():
        return None
    # Hadamard: |det G| <= prod of the row norms, and every denominator of y divides det G
    norms = np.sqrt(np.einsum("ij,ij->i", Gf, Gf))
    det_bits = int(np.log2(norms).sum() * (1 + 1e-12)) + 16
    for step in _STEP_BITS:
        with one_blas_thread():
            found = _refine(G, Gf, inverse, peak, step, 2 * det_bits + 16 + 2 + k.bit_length())
            if found is not None:
                return _reconstruct(Gf, found[0], found[1], det_bits)
    return None


def _refine(
    G: np.ndarray, Gf: np.ndarray, inverse: np.ndarray, peak: int, e: int, bits: int
) -> tuple[list[int], int] | None:
    """Integer X with ``|G^-1 1 - X / 2^(e K)| <= |G^-1 r_K| / 2^(e K)``, ``e K >= bits``, or
    None if a step lost control (residual above its bound: float inverse too inaccurate)."""
    k = G.shape[0]
    w = int(np.floor(np.log2(_EXACT / (peak * k))))  # limb width: G @ limb exact in float64
    if w < 8:
        return None
    mask = (1 << w) - 1
    row_sum = float(np.abs(Gf).sum(axis=1).max())
    # |r| = |G delta| with |delta| <= ~1/2 when the float step is good; and 2^e r must fit
    # int64 (the worst case, row_sum 2^e, is often beyond it while the actual |r| is far below)
    limit = min(2 * row_sum + 1, 2.0 ** (62 - e))
    steps = -(-bits // e)
    r = np.ones(k, dtype=np.int64)
    digits = np.empty((steps, k), dtype=np.int64)
    scale = 2.0**e
    for t in range(steps):
        guess = np.rint((inverse @ r.astype(np.float64)) * scale)
        if not np.abs(guess).max() < 2.0**61:
            return None
        d = guess.astype(np.int64)
        top = max(int(np.abs(d).max()), 1).bit_length() + 1  # bits of d with its sign
        n_limbs = -(-top // w)
        # d = sum_l limbs_l 2^(w l): low limbs in [0, 2^w), the top one signed (arithmetic shift)
        limbs = [(d >> (w * j)) & mask for j in range(n_limbs - 1)] + [d >> (w * (n_limbs - 1))]
        # G @ limb is exact in float64 (one matrix-vector product each: BLAS is slower on a
        # k x 2 block); int64 arithmetic wraps, and the true residual is small
        Gd = (Gf @ limbs[0].astype(np.float64)).astype(np.int64)
        for j in range(1, n_limbs):
            Gd += (Gf @ limbs[j].astype(np.float64)).astype(np.int64) << (w * j)
        r = (r << e) - Gd
        if not np.abs(r).max() <= limit:
            return None
        digits[t] = d
    return _join(digits, e), steps * e


def _join(digits: np.ndarray, e: int) -> list[int]:
    """Per column j, sum_t digits[t, j] 2^(e (K - 1 - t)) exactly (e a multiple of 8, <= 32)."""
    D = digits[::-1].T.copy()  # least significant first
    K = D.shape[1]
    mask = (1 << e) - 1
    for t in range(K - 1):
        carry = D[:, t] >> e  # floor: the digit left is in [0, 2^e)
        D[:, t] &= mask
        D[:, t + 1] += carry
    top = D[:, K - 1]
    low = D[:, : K - 1].astype({32: "<u4", 16: "<u2", 8: "u1"}[e])
    shift = e * (K - 1)
    return [int.from_bytes(low[j].tobytes(), "little") + (int(top[j]) << shift) for j in range(D.shape[0])]


def _reconstruct(Gf: np.ndarray, X: list[int], bits: int, det_bits: int) -> tuple[list[int], int] | None:
    """The exact y from its approximation X / 2^bits (error below 2^-bits per entry, bits >
    2 det_bits), or None if the exact check fails. The common denominator d is built
    coordinate by coordinate: d y_j is an integer iff its approximation lies within
    2^-(det_bits + 1) of one (a fraction a/b with 1 < b <= 2^det_bits is 1/b from every
    integer); otherwise a continued fraction gives its denominator, which joins d."""
    den = 1
    close = 1 << (bits - det_bits - 1)
    half = 1 << (bits - 1)
    mask = (1 << bits) - 1
    scaled = X
    j = 0
    while j < len(X):
        # d X_j mod 2^bits, centred: the distance of d y_j's approximation to an integer
        rest = ((scaled[j] + half) & mask) - half
        if abs(rest) > close:
            bound = max(1, (1 << det_bits) // den)
            extra = best_denominator(scaled[j], 1 << bits, bound)
            den *= extra
            scaled = big_scale(X, den)  # rare: usually only for the first entry
        j += 1
    numerators = [(t + half) >> bits for t in scaled]
    if any(v != den for v in small_times_big(Gf, numerators)):
        return None
    return numerators, den


def best_denominator(numerator: int, denominator: int, bound: int) -> int:
    """The denominator of ``Fraction(numerator, denominator).limit_denominator(bound)`` (the
    closest fraction with a denominator at most ``bound``), for ``denominator > 0`` and
    ``bound >= 1``: the same continued fraction, its quotients found by Lehmer's method
    (Knuth 4.5.2, Algorithm L) from the leading 62 bits while the convergents' denominators
    are far below ``bound``, then step by step as :mod:`fractions` does. On 17,000-bit
    inputs (vec400's exact solve) this is several times faster than the big-number steps."""
    if denominator <= 0 or bound < 1:
        raise ValueError("best_denominator needs denominator > 0 and bound >= 1")
    q0, q1 = 1, 0  # the denominators of the last two convergents
    n, d = numerator, denominator
    limit = bound.bit_length() - 64  # below this many bits, a round cannot pass the bound
    first = True
    while d:
        if not first and q1.bit_length() < limit and n.bit_length() > 64:
            # one Lehmer round on the leading bits (n > d > 0 after the first quotient)
            shift = n.bit_length() - 62
            nh, dh = n >> shift, d >> shift
            A, B, C, D = 1, 0, 0, 1  # (n, d) <- (A n + B d, C n + D d)
            m00, m01, m10, m11 = 1, 0, 0, 1  # (q0, q1) <- (q0 m00 + q1 m10, q0 m01 + q1 m11)
            while dh + C != 0 and dh + D != 0:
                a = (nh + A) // (dh + C)
                if a != (nh + B) // (dh + D):
                    break  # the leading bits no longer determine the quotient
                A, B, C, D = C, D, A - a * C, B - a * D
                nh, dh = dh, nh - a * dh
                m00, m01, m10, m11 = m01, m00 + a * m01, m11, m10 + a * m11
            if B != 0:  # at least one quotient: apply the round to the full numbers
                n, d = A * n + B * d, C * n + D * d
                q0, q1 = q0 * m00 + q1 * m10, q0 * m01 + q1 * m11
                continue
        first = False
        a = n // d
        q2 = q0 + a * q1
        if q2 > bound:
            k = (bound - q0) // q1
            # the closer of the semiconvergent (q0 + k q1) and the convergent (q1), as fractions does
            return q1 if 2 * d * (q0 + k * q1) <= denominator else q0 + k * q1
        q0, q1 = q1, q2
        n, d = d, n - a * d
    return q1  # the fraction itself: its reduced denominator is at most bound


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


class Atoms(Protocol):
    """A finite set of integer vectors with a linear minimization oracle."""

    def vector(self, atom: Atom) -> Sequence[int]:
        """The integer vector of ``atom``."""
        ...

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        """The integer Gram matrix of the atoms ``ids``."""
        ...

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        """sum_j coeffs_j vector(ids_j), exactly."""
        ...

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        """An atom minimizing ``atom . direction`` and that minimal value."""
        ...


class PatternAtoms:
    """The rows of an integer matrix as atoms (the z_i of a dataset).

    Products go through exact float64 BLAS when the rows are small enough
    (:func:`novikoff.exact.bigdot.small_times_big`, and a Gram matrix whose entries are below
    2^53), else through FLINT (``matrix`` may pass the rows as an fmpz_mat).
    """

    def __init__(
        self,
        rows: Sequence[Sequence[int]],
        matrix: flint.fmpz_mat | None = None,
        array: np.ndarray | None = None,
    ) -> None:
        self.rows = rows
        self._matrix = matrix
        self.array: np.ndarray | None = None
        ints: np.ndarray | None
        if array is not None:  # the rows as int64, already converted (Dataset.pattern_array)
            if array.dtype != np.int64 or array.shape != (len(rows), len(rows[0]) if len(rows) else 0):
                raise ValueError(f"array of dtype {array.dtype} and shape {array.shape} is not the rows")
            ints = array
        else:
            try:
                ints = np.array(rows, dtype=np.int64)
            except OverflowError:
                ints = None
        if ints is not None and ints.ndim == 2 and ints.size:
            peak = int(np.abs(ints).max())
            if peak**2 * ints.shape[1] < 2**53:  # Gram entries and bigdot limbs are exact
                self.array = ints.astype(np.float64)

    @property
    def matrix(self) -> flint.fmpz_mat:
        if self._matrix is None:
            self._matrix = flint.fmpz_mat([list(r) for r in self.rows])
        return self._matrix

    def vector(self, atom: Atom) -> Sequence[int]:
        return self.rows[atom]

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        G = self.gram_array(ids)
        if G is not None:
            return flint.fmpz_mat(G.tolist())
        V = flint.fmpz_mat([list(self.rows[a]) for a in ids])
        return V * V.transpose()

    def gram_array(self, ids: Sequence[Atom]) -> np.ndarray | None:
        """The Gram matrix of ``ids`` as an exact int64 array (one float64 BLAS product, exact
        because every entry and partial sum is an integer below 2^53), or None when the rows
        are too large for that."""
        if self.array is None:
            return None
        A = self.array[list(ids)]
        with one_blas_thread():
            return (A @ A.T).astype(np.int64)

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        merged: dict[Atom, int] = {}
        for a, c in zip(ids, coeffs):  # an atom may come twice (the pairs of the two hulls)
            merged[a] = merged.get(a, 0) + c
        used = [a for a, c in merged.items() if c]
        if not used:
            return [0] * (len(self.rows[0]) if len(self.rows) else 0)
        weights = [merged[a] for a in used]
        if self.array is not None:  # only the rows used: the cost does not grow with the data
            return small_times_big(self.array[used].T, weights)
        rows = flint.fmpz_mat([list(self.rows[a]) for a in used])
        return [int(v) for v in (flint.fmpz_mat(1, len(used), weights) * rows).entries()]

    def scores(self, direction: Sequence[int]) -> list[int]:
        """``row . direction`` for every row, exactly."""
        if self.array is not None:
            return small_times_big(self.array, direction)
        col = flint.fmpz_mat(len(direction), 1, list(direction))
        return [int(v) for v in (self.matrix * col).entries()]

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        s = self.scores(direction)
        best = min(range(len(s)), key=s.__getitem__)
        return best, s[best]


@dataclass(frozen=True)
class MinNormPoint:
    """The result: convex weights on a corral and the exact point.

    ``point = numerator / denominator`` coordinatewise (in the atoms' integer
    coordinates); ``weights`` are > 0 and sum to 1. ``numerator_norm2`` is
    ``sum numerator_j^2`` when known (Wolfe's stopping test computes it), else None.
    """

    atoms: tuple[Atom, ...]
    weights: RationalVector
    numerator: tuple[int, ...]
    denominator: int
    major_cycles: int
    numerator_norm2: int | None = None

    def norm2_numerator(self) -> int:
        """``sum numerator_j^2``, exactly (computed once by the solver, else here)."""
        if self.numerator_norm2 is not None:
            return self.numerator_norm2
        return big_dot(self.numerator, self.numerator)


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(map(operator.mul, u, v))


class _Corral:
    """Atoms in the corral with their integer Gram matrix (rows in corral order).

    A warm-started corral keeps its Gram matrix as one flint matrix and first
    tries the plain system ``G y = 1``; Python rows are made only if Wolfe's
    iterations go on from there.
    """

    def __init__(self, atoms: Atoms) -> None:
        self.atoms = atoms
        self.ids: list[Atom] = []
        self._rows: list[list[int]] = []
        self._matrix: flint.fmpz_mat | None = None
        self._array: np.ndarray | None = None  # the same Gram matrix in int64, when it fits

    @property
    def gram(self) -> list[list[int]]:
        if self._array is not None:
            self._rows = self._array.tolist()
        elif self._matrix is not None:
            self._rows = [[int(v) for v in row] for row in self._matrix.tolist()]
        self._matrix = self._array = None
        return self._rows

    def add(self, a: Atom) -> None:
        gram = self.gram
        va = self.atoms.vector(a)
        row = [_dot(va, self.atoms.vector(b)) for b in self.ids]
        for r, g in zip(gram, row):
            r.append(g)
        gram.append([*row, _dot(va, va)])
        self.ids.append(a)

    def add_many(self, new: Sequence[Atom]) -> None:
        """Fill an empty corral at once (the warm start adds hundreds of atoms)."""
        if self.ids:
            raise RuntimeError("add_many needs an empty corral")
        gram_array = getattr(self.atoms, "gram_array", None)
        self._array = gram_array(new) if gram_array is not None else None
        if self._array is None:
            self._matrix = self.atoms.gram_matrix(new)
            self._array = _int64_or_none(self._matrix)
        self.ids = list(new)

    def keep(self, positions: Sequence[int]) -> None:
        """Keep the atoms at these corral positions (in order)."""
        gram = self.gram
        self.ids = [self.ids[i] for i in positions]
        self._rows = [[gram[i][j] for j in positions] for i in positions]

    def affine_minimizer(self) -> RationalVector:
        """Weights mu (sum 1) of the min-norm point of the affine hull of the corral.

        Solves ``[G 1; 1^T 0] (mu, -c) = (0, 1)``, nonsingular iff the corral is
        affinely independent (which Wolfe's algorithm maintains). When G itself
        is nonsingular (independent atoms, the separable case) this is
        ``mu = G^-1 1 / (1^T G^-1 1)``, solved without the border.
        """
        k = len(self.ids)
        if self._array is not None:
            fast = solve_ones(self._array)  # exact, checked; None: solve with FLINT below
            if fast is not None:
                return RationalVector(fast[0], sum(fast[0]))  # (ys/den) / (total/den)
            if self._matrix is None:
                self._matrix = flint.fmpz_mat(self._array.tolist())
        if self._matrix is not None:
            try:
                y = self._matrix.solve(flint.fmpz_mat(k, 1, [1] * k))
            except ZeroDivisionError:  # singular G: use the bordered system below
                pass
            else:
                nums, _den = y.numer_denom()  # type: ignore[attr-defined]
                ys = [int(nums[i, 0]) for i in range(k)]
                total = sum(ys)  # 1^T G^-1 1 > 0 for a positive definite G
                return RationalVector(ys, total)  # (ys/den) / (total/den)
        return affine_minimizer_weights(self.gram)


def affine_minimizer_weights(gram: Sequence[Sequence[int]]) -> RationalVector:
    """The weights mu (sum 1) of the minimum-norm point of the affine hull of k points whose
    Gram matrix is ``gram`` (k x k integers), from the bordered system [[G, 1], [1^T, 0]]
    [mu; nu] = [0; 1], solved exactly by FLINT. Raises ZeroDivisionError when the bordered
    matrix is singular (affinely dependent points)."""
    k = len(gram)
    flat: list[int] = []
    for row in gram:
        flat.extend(row)
        flat.append(1)
    flat.extend([1] * k)
    flat.append(0)
    A = flint.fmpz_mat(k + 1, k + 1, flat)
    rhs = flint.fmpz_mat(k + 1, 1, [0] * k + [1])
    nums, den = A.solve(rhs).numer_denom()  # type: ignore[attr-defined]
    return RationalVector([int(nums[i, 0]) for i in range(k)], int(den))


def _int64_or_none(matrix: flint.fmpz_mat) -> np.ndarray | None:
    """An fmpz matrix as an int64 array when every entry fits (below 2^62), else None."""
    try:
        values = [int(v) for v in matrix.entries()]
        if values and max(map(abs, values)) >= 2**62:
            return None
        return np.array(values, dtype=np.int64).reshape(matrix.nrows(), matrix.ncols())
    except (OverflowError, ValueError):
        return None


def _point(atoms: Atoms, ids: Sequence[Atom], weights: RationalVector) -> tuple[list[int], int]:
    """sum_a w_a v_a as (integer vector, denominator)."""
    return atoms.combine(ids, weights.numerators), weights.denominator


def independent_subset(atoms: Atoms, candidates: Sequence[Atom]) -> list[Atom]:
    """A maximal affinely independent subset of ``candidates``, earliest first (rank mod a prime)."""
    if not candidates:
        return []
    rows = [[int(v) % _PRIME for v in atoms.vector(a)] + [1] for a in candidates]
    cols = len(rows[0])
    M = flint.nmod_mat(cols, len(rows), [rows[j][i] for i in range(cols) for j in range(len(rows))], _PRIME)
    R, rank = M.rref()
    pivots = []
    for i in range(rank):
        for j in range(len(rows)):
            if int(R[i, j]) != 0:
                pivots.append(candidates[j])
                break
    return pivots


def min_norm_point(
    atoms: Atoms,
    start: Atom,
    warm: Sequence[tuple[Atom, float]] = (),
    max_major_cycles: int = 1_000_000,
) -> MinNormPoint:
    """Exact Wolfe: the minimum-norm point of the convex hull of ``atoms``.

    ``start`` is any atom (used when there is no warm start); ``warm`` is an
    optional float guess of (atom, weight) pairs, larger weights first. The
    warm corral is used as it is when it is affinely independent, else reduced
    to a maximal independent subset.
    """
    corral = _Corral(atoms)
    lam: RationalVector
    guess = [(a, w) for a, w in warm if w > 0]
    if guess:
        weight = dict(guess)
        corral.add_many([a for a, _ in guess])
        try:
            lam = _warm_weights(corral, weight)
        except ZeroDivisionError:  # affinely dependent guess: keep an independent subset
            chosen = independent_subset(atoms, corral.ids)
            corral = _Corral(atoms)
            corral.add_many(chosen)
            lam = _warm_weights(corral, weight)
    else:
        corral.add(start)
        lam = RationalVector([1], 1)
    cycles = 0
    while True:
        num, den = _point(atoms, corral.ids, lam)
        xx = big_dot(num, num)  # thousands of digits per entry: GMP
        a, score = atoms.lmo(num)
        # stop iff atom . x >= x . x for every atom: (score/den) >= xx/den^2
        if score * den >= xx:
            return MinNormPoint(tuple(corral.ids), lam, tuple(num), den, cycles, xx)
        cycles += 1
        if cycles > max_major_cycles:
            raise RuntimeError("Wolfe's algorithm exceeded its major-cycle budget")
        if a in corral.ids:  # impossible in exact arithmetic: every corral atom has a.x = x.x
            raise RuntimeError(f"Wolfe: improving atom {a!r} already in the corral")
        corral.add(a)
        lam = _minor_cycles(corral, [*lam, Fraction(0)], a)


def _warm_weights(corral: _Corral, weight: dict[Atom, float]) -> RationalVector:
    """Start inside the warm corral: its affine minimizer if positive, else minor cycles
    from the float weights (made exact and normalized). Raises ZeroDivisionError if the
    corral is affinely dependent."""
    mu = corral.affine_minimizer()
    if all(v > 0 for v in mu.numerators):
        return mu
    raw = [Fraction(weight[a]) for a in corral.ids]
    total = sum(raw)
    return _minor_cycles(corral, [w / total for w in raw], None, first=mu)


def _minor_cycles(
    corral: _Corral, lam: list[Fraction], added: Atom | None, first: RationalVector | None = None
) -> RationalVector:
    """Move from weights ``lam`` toward the affine minimizer, dropping atoms that reach 0."""
    mu_vec = first
    while True:
        if mu_vec is None:
            mu_vec = corral.affine_minimizer()
        if all(v > 0 for v in mu_vec.numerators):
            return mu_vec
        mu = list(mu_vec)
        mu_vec = None
        # mu_i <= 0 < lam_i for every corral atom except a just-added one (lam = 0),
        # whose step length is 0
        theta = min(
            lam[i] / (lam[i] - mu[i]) if lam[i] > 0 else Fraction(0) for i in range(len(mu)) if mu[i] <= 0
        )
        lam = [(1 - theta) * lam[i] + theta * mu[i] for i in range(len(mu))]
        keep = [i for i in range(len(lam)) if lam[i] > 0]
        if added is not None and theta == 0 and corral.ids[-1] == added and len(lam) - 1 not in keep:
            raise RuntimeError("Wolfe: the improving atom was dropped at once (not affinely independent)")
        corral.keep(keep)
        lam = [lam[i] for i in keep]
