"""Exact minimum-norm point of a polytope given by atoms (Wolfe 1976).

Wolfe's algorithm is finite over the rationals: each major cycle strictly
lowers ||x||^2 and the corral stays affinely independent, so no corral repeats.
This module runs it in exact integer/rational arithmetic (python-flint for the
linear algebra), optionally warm-started from a float guess (any guess: the
exact algorithm corrects it). It is the *untrusted solver*: its output is
re-verified by :mod:`novikoff.certificates.checker`, so a bug here can make certify fail
but never makes a wrong certificate pass.

Atoms are integer vectors (patterns scaled by a common positive factor, which
changes neither the minimizing weights nor any decision): :mod:`novikoff.certificates.atoms`.
The affine minimizer's fast path is :func:`~novikoff.certificates.exact_solve.solve_ones`;
the float warm start's tools are in :mod:`novikoff.certificates.lawson_hanson` (both
re-exported here).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from novikoff.certificates.atoms import Atom, Atoms, PatternAtoms
from novikoff.certificates.exact_solve import best_denominator, solve_ones
from novikoff.certificates.lawson_hanson import nnls, step_to_boundary
from novikoff.exact.bigdot import big_dot
from novikoff.exact.rational import RationalVector

__all__ = [
    "Atom",
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

_PRIME = 2**61 - 1  # for rank tests mod p: independent mod p implies independent over Q


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
    Gram matrix is ``gram`` (k x k integers), from the bordered system
    ``[[G, 1], [1^T, 0]] [mu; nu] = [0; 1]``, solved exactly by FLINT. Raises
    ZeroDivisionError when the bordered matrix is singular (affinely dependent points)."""
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
