"""Exact minimum-norm point of conv{z_i} in feature space, from the Gram matrix alone (Wolfe 1976).

The feature-space patterns z_i = y_i phi~(x_i) are never formed: a point of their hull is a
weight vector lambda (>= 0, sum 1), and every inner product Wolfe's algorithm needs is an
entry of the reflected Gram matrix G (:class:`~novikoff.data.kernels.ExactGram`):

- the point's squared norm is ||x||^2 = lambda^T G lambda;
- an atom's score is z_a . x = (G lambda)_a, and the linear minimization oracle is
  argmin_a (G lambda)_a;
- the affine minimizer of a corral S solves [G_SS 1; 1^T 0] (mu, -c) = (0, 1).

This is :mod:`novikoff.certificates.minnorm` with dot products replaced by G entries, run in exact integer
arithmetic on G's numerators (one positive scale, which changes no decision and no minimizing
lambda). It stops when min_a (G lambda)_a >= lambda^T G lambda, which is exactly the
certificate the checker (:mod:`novikoff.certificates.kernel_checker`) re-verifies. Finite over
the rationals: every major cycle strictly lowers ||x||^2 and corrals stay affinely independent.
It is untrusted: a bug here can make a certificate fail its check, never pass it wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from novikoff.certificates.minnorm import affine_minimizer_weights
from novikoff.data.kernels import ExactGram
from novikoff.exact.rational import RationalVector

__all__ = ["GramMinNorm", "gram_min_norm_point"]


@dataclass(frozen=True)
class GramMinNorm:
    """The result: ``lambdas`` (one per sample, >= 0, sum 1) and ``value`` = lambda^T G lambda,
    exact in G's own units (gamma^2 in feature space; 0 iff the hull contains the origin)."""

    lambdas: RationalVector
    value: Fraction
    support: tuple[int, ...]
    major_cycles: int


def _affine_minimizer(N: tuple[tuple[int, ...], ...], ids: list[int]) -> RationalVector:
    """Weights mu (sum 1) of the minimum-norm point of the corral's affine hull."""
    return affine_minimizer_weights([[N[i][j] for j in ids] for i in ids])


def gram_min_norm_point(gram: ExactGram, *, max_major_cycles: int = 100_000) -> GramMinNorm:
    """Exact Wolfe over the simplex with the quadratic form G.

    Guarantees on return: lambda >= 0, sum lambda = 1, and min_a (G lambda)_a >= lambda^T G lambda
    (so lambda^T G lambda is the minimum over the simplex). Raises RuntimeError if the
    major-cycle budget runs out (impossible in exact arithmetic before finitely many cycles).
    """
    N = gram.numerators
    n = gram.n
    ids = [min(range(n), key=lambda i: N[i][i])]
    lam = RationalVector([1], 1)
    cycles = 0
    while True:
        nums, den = lam.numerators, lam.denominator
        scores = [sum(c * row[j] for c, j in zip(nums, ids)) for row in N]  # den * (G lambda)_a
        xx = sum(c * scores[j] for c, j in zip(nums, ids))  # den^2 * lambda^T G lambda
        best = min(range(n), key=scores.__getitem__)
        if scores[best] * den >= xx:
            full = [0] * n
            for c, j in zip(nums, ids):
                full[j] = c
            value = Fraction(xx, den * den * gram.denominator)
            return GramMinNorm(RationalVector(full, den), value, tuple(sorted(ids)), cycles)
        cycles += 1
        if cycles > max_major_cycles:
            raise RuntimeError("Wolfe's algorithm (Gram form) exceeded its major-cycle budget")
        if best in ids:  # impossible in exact arithmetic: every corral atom scores x.x
            raise RuntimeError(f"Wolfe (Gram form): improving atom {best} already in the corral")
        ids.append(best)
        weights = [*lam, Fraction(0)]
        lam, ids = _minor_cycles(N, ids, weights)


def _minor_cycles(
    N: tuple[tuple[int, ...], ...], ids: list[int], lam: list[Fraction]
) -> tuple[RationalVector, list[int]]:
    """Move from ``lam`` toward the corral's affine minimizer, dropping atoms that reach 0."""
    while True:
        mu_vec = _affine_minimizer(N, ids)
        if all(v > 0 for v in mu_vec.numerators):
            return mu_vec, ids
        mu = list(mu_vec)
        theta = min(
            lam[i] / (lam[i] - mu[i]) if lam[i] > 0 else Fraction(0) for i in range(len(mu)) if mu[i] <= 0
        )
        lam = [(1 - theta) * lam[i] + theta * mu[i] for i in range(len(mu))]
        keep = [i for i in range(len(lam)) if lam[i] > 0]
        if not keep:  # impossible: the step stops at the first weight that reaches 0
            raise RuntimeError("Wolfe (Gram form): every corral weight reached 0")
        ids = [ids[i] for i in keep]
        lam = [lam[i] for i in keep]
