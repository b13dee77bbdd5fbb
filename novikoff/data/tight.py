"""The textbook's tight example as data: the basis dataset and its rotated and scaled copies.

z_i = e_i (i = 1..n), labels +1, no bias: the perceptron makes exactly n = R^2/gamma^2
updates on it (the statement is ``novikoff.spec.tightness.T1``). A rational orthogonal
matrix (a Cayley transform) rotates it and a scale c > 0 scales it, exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

import flint

from novikoff.data.dataset import Dataset
from novikoff.exact.rational import to_fraction

__all__ = ["basis_dataset", "cayley_orthogonal", "rotated_basis_dataset"]


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
