"""Exact minimum-norm point of a polytope given by atoms (Wolfe 1976).

Wolfe's algorithm is finite over the rationals: each major cycle strictly
lowers ||x||^2 and the corral stays affinely independent, so no corral repeats.
This module runs it in exact integer/rational arithmetic (python-flint for the
linear algebra), optionally warm-started from a float guess (any guess: the
exact algorithm corrects it). It is the *untrusted solver*: its output is
re-verified by :mod:`novikoff.checker`, so a bug here can make certify fail
but never makes a wrong certificate pass.

Atoms are integer vectors (patterns scaled by a common positive factor, which
changes neither the minimizing weights nor any decision).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Hashable, Protocol, Sequence

import flint

__all__ = ["Atoms", "PatternAtoms", "MinNormPoint", "min_norm_point"]

_PRIME = 2**61 - 1  # for rank tests mod p: independent mod p implies independent over Q


class Atoms(Protocol):
    """A finite set of integer vectors with a linear minimization oracle."""

    def vector(self, atom: Hashable) -> Sequence[int]:
        """The integer vector of ``atom``."""
        ...

    def lmo(self, direction: Sequence[int]) -> tuple[Hashable, int]:
        """An atom minimizing ``atom . direction`` and that minimal value."""
        ...


class PatternAtoms:
    """The rows of an integer matrix as atoms (the z_i of a dataset)."""

    def __init__(self, rows: Sequence[Sequence[int]]) -> None:
        self.rows = rows
        self._matrix = flint.fmpz_mat([list(r) for r in rows])

    def vector(self, atom: Hashable) -> Sequence[int]:
        return self.rows[atom]  # type: ignore[index]

    def scores(self, direction: Sequence[int]) -> list[int]:
        """``row . direction`` for every row, exactly."""
        col = flint.fmpz_mat(len(direction), 1, list(direction))
        return [int(v) for v in (self._matrix * col).entries()]

    def lmo(self, direction: Sequence[int]) -> tuple[Hashable, int]:
        s = self.scores(direction)
        best = min(range(len(s)), key=s.__getitem__)
        return best, s[best]


@dataclass(frozen=True)
class MinNormPoint:
    """The result: convex weights on a corral and the exact point.

    ``point = numerator / denominator`` coordinatewise (in the atoms' integer
    coordinates); ``weights`` are > 0 and sum to 1.
    """

    atoms: tuple[Hashable, ...]
    weights: tuple[Fraction, ...]
    numerator: tuple[int, ...]
    denominator: int
    major_cycles: int


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(a * b for a, b in zip(u, v))


class _Corral:
    """Atoms in the corral with their Gram matrix, kept incrementally."""

    def __init__(self, atoms: Atoms) -> None:
        self.atoms = atoms
        self.ids: list[Hashable] = []
        self.gram: dict[tuple[Hashable, Hashable], int] = {}

    def add(self, a: Hashable) -> None:
        va = self.atoms.vector(a)
        for b in self.ids:
            g = _dot(va, self.atoms.vector(b))
            self.gram[a, b] = self.gram[b, a] = g
        self.gram[a, a] = _dot(va, va)
        self.ids.append(a)

    def add_many(self, new: Sequence[Hashable]) -> None:
        """Add atoms with one matrix product (the warm start adds hundreds)."""
        if len(new) < 8:
            for a in new:
                self.add(a)
            return
        V = flint.fmpz_mat([list(self.atoms.vector(a)) for a in new])
        G = V * V.transpose()
        for i, a in enumerate(new):
            for j, b in enumerate(new):
                self.gram[a, b] = int(G[i, j])
        for a in new:
            for b in self.ids:
                self.gram[a, b] = self.gram[b, a] = _dot(self.atoms.vector(a), self.atoms.vector(b))
        self.ids.extend(new)

    def remove(self, keep: Sequence[Hashable]) -> None:
        self.ids = list(keep)

    def affine_minimizer(self) -> list[Fraction]:
        """Weights mu (sum 1) of the min-norm point of the affine hull of the corral.

        Solves ``[G 1; 1^T 0] (mu, -c) = (0, 1)``, nonsingular iff the corral is
        affinely independent (which Wolfe's algorithm maintains).
        """
        k = len(self.ids)
        A = flint.fmpq_mat(k + 1, k + 1)
        for i, a in enumerate(self.ids):
            for j, b in enumerate(self.ids):
                A[i, j] = self.gram[a, b]
            A[i, k] = 1
            A[k, i] = 1
        rhs = flint.fmpq_mat(k + 1, 1)
        rhs[k, 0] = 1
        sol = A.solve(rhs)
        return [Fraction(int(sol[i, 0].p), int(sol[i, 0].q)) for i in range(k)]


def _point(atoms: Atoms, ids: Sequence[Hashable], weights: Sequence[Fraction]) -> tuple[list[int], int]:
    den = math.lcm(*(w.denominator for w in weights))
    dim = len(atoms.vector(ids[0]))
    num = [0] * dim
    for a, w in zip(ids, weights):
        c = w.numerator * (den // w.denominator)
        v = atoms.vector(a)
        for j in range(dim):
            if v[j]:
                num[j] += c * v[j]
    return num, den


def independent_subset(atoms: Atoms, candidates: Sequence[Hashable]) -> list[Hashable]:
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
    start: Hashable,
    warm: Sequence[tuple[Hashable, float]] = (),
    max_major_cycles: int = 1_000_000,
) -> MinNormPoint:
    """Exact Wolfe: the minimum-norm point of the convex hull of ``atoms``.

    ``start`` is any atom (used when there is no warm start); ``warm`` is an
    optional float guess of (atom, weight) pairs, larger weights first.
    """
    corral = _Corral(atoms)
    lam: list[Fraction]
    guess = [(a, w) for a, w in warm if w > 0]
    chosen = independent_subset(atoms, [a for a, _ in guess]) if guess else []
    if chosen:
        weight = dict(guess)
        corral.add_many(chosen)
        raw = [Fraction(weight[a]) for a in chosen]
        total = sum(raw)
        lam = [w / total for w in raw]
        lam = _minor_cycles(corral, lam, None)
    else:
        corral.add(start)
        lam = [Fraction(1)]
    cycles = 0
    while True:
        num, den = _point(atoms, corral.ids, lam)
        xx = _dot(num, num)
        a, score = atoms.lmo(num)
        # stop iff atom . x >= x . x for every atom: (score/den) >= xx/den^2
        if score * den >= xx:
            return MinNormPoint(tuple(corral.ids), tuple(lam), tuple(num), den, cycles)
        cycles += 1
        if cycles > max_major_cycles:
            raise RuntimeError("Wolfe's algorithm exceeded its major-cycle budget")
        if a in corral.ids:  # impossible in exact arithmetic: every corral atom has a.x = x.x
            raise RuntimeError(f"Wolfe: improving atom {a!r} already in the corral")
        corral.add(a)
        lam = _minor_cycles(corral, lam + [Fraction(0)], a)


def _minor_cycles(corral: _Corral, lam: list[Fraction], added: Hashable | None) -> list[Fraction]:
    """Move from weights ``lam`` toward the affine minimizer, dropping atoms that reach 0."""
    while True:
        mu = corral.affine_minimizer()
        if all(m > 0 for m in mu):
            return mu
        # mu_i <= 0 < lam_i for every corral atom except a just-added one (lam = 0),
        # whose step length is 0
        theta = min(
            lam[i] / (lam[i] - mu[i]) if lam[i] > 0 else Fraction(0)
            for i in range(len(mu))
            if mu[i] <= 0
        )
        lam = [(1 - theta) * lam[i] + theta * mu[i] for i in range(len(mu))]
        keep = [i for i in range(len(lam)) if lam[i] > 0]
        if added is not None and theta == 0 and corral.ids[-1] == added and len(lam) - 1 not in keep:
            raise RuntimeError("Wolfe: the improving atom was dropped at once (not affinely independent)")
        corral.remove([corral.ids[i] for i in keep])
        lam = [lam[i] for i in keep]
