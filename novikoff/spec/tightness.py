"""T1: Novikoff's bound is attained. The basis construction and its rotated and scaled variants.

z_i = e_i (i = 1..n), labels +1, rho = 0, natural order: the perceptron updates on
every e_i once (w.e_{k+1} = 0 <= 0 is a mistake), so k = n, while R^2 = 1 and
gamma^2 = ||p*||^2 = ||(1/n, ..., 1/n)||^2 = 1/n, hence k = n = R^2/gamma^2.
Rotating every z_i by one rational orthogonal matrix (a Cayley transform) and
scaling them by one c > 0 keep both the run and the ratio (G1).
"""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import sympy as sp

from novikoff.data import Dataset
from novikoff.rational import to_fraction
from novikoff.spec.core import Statement
from novikoff.spec.perceptron import R2, gamma2, k

__all__ = ["T1", "basis_dataset", "cayley_orthogonal", "n", "rotated_basis_dataset"]

n = sp.Symbol("n", integer=True, positive=True)

T1 = Statement(
    id="T1",
    name="basis_vectors_updates_eq_radius_sq_div_gamma_sq",
    symbols=(n, k, R2, gamma2),
    hypotheses=(
        sp.Eq(R2, 1, evaluate=False),
        sp.Eq(gamma2, 1 / n, evaluate=False),
        sp.Eq(k, n, evaluate=False),
    ),
    conclusion=sp.Eq(k, R2 / gamma2, evaluate=False),
    source="seed 000 section 6.7 and exercise 6.3",
    note="hypotheses are what the construction yields (checked on exact runs for each n); "
    "the conclusion then follows symbolically: R2/gamma2 = 1/(1/n) = n = k",
)


def basis_dataset(size: int, scale: object = 1) -> Dataset:
    """The T1 dataset: features ``scale * e_i`` (i < size), labels +1, no bias."""
    if size < 1:
        raise ValueError(f"T1 needs n >= 1, got {size}")
    c = to_fraction(scale)
    if c <= 0:
        raise ValueError(f"scale must be > 0, got {c}")
    rows = [[c if i == j else Fraction(0) for j in range(size)] for i in range(size)]
    return Dataset.from_fraction_rows(rows, [1] * size, bias=0, name=f"T1(n={size}, scale={c})")


def cayley_orthogonal(size: int, seed: int = 0, spread: int = 3) -> list[list[Fraction]]:
    """A rational orthogonal matrix Q = (I - A)(I + A)^{-1}, A skew-symmetric with small integer entries.

    I + A is invertible for skew-symmetric A (its eigenvalues are 1 + i t), and
    Q^T Q = I exactly; tests re-check that identity in Fractions.
    """
    rng = random.Random(seed)
    A = [[Fraction(0)] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            v = Fraction(rng.randint(-spread, spread), rng.randint(1, spread))
            A[i][j], A[j][i] = v, -v
    eye = flint.fmpq_mat(size, size, [int(i == j) for i in range(size) for j in range(size)])
    Am = flint.fmpq_mat(
        size,
        size,
        [flint.fmpq(A[i][j].numerator, A[i][j].denominator) for i in range(size) for j in range(size)],
    )
    Q = (eye - Am) * (eye + Am).inv()
    return [[Fraction(int(Q[i, j].p), int(Q[i, j].q)) for j in range(size)] for i in range(size)]


def rotated_basis_dataset(size: int, seed: int = 0, scale: object = 1) -> Dataset:
    """T1 rotated: features ``scale * Q e_i`` for a Cayley-transform Q, labels +1, no bias."""
    Q = cayley_orthogonal(size, seed)
    c = to_fraction(scale)
    rows = [[c * Q[j][i] for j in range(size)] for i in range(size)]
    return Dataset.from_fraction_rows(rows, [1] * size, bias=0, name=f"T1(n={size}, rotated seed={seed})")
