"""Multiclass data and the Kesler construction (the notes).

:class:`MulticlassData` holds K >= 2 classes exactly: integer rows over one common
denominator, class indices 0..K-1 (the sorted distinct labels, names kept), the
bias rho last. Augmented rows x~_i = (x_i, rho) are exposed as integers
X_i = s x~_i with one scale s.

The Kesler construction maps (x, y) with K classes to the K - 1 vectors
phi(x, y) - phi(x, j), j != y, in R^(K D) (D = dim x~): block y holds x~, block j
holds -x~. Their squared norm is 2 ||x~||^2. W = (w_1, ..., w_K) classifies x
correctly with margin iff W.v > 0 for all its Kesler vectors v, so the Kesler
margin gamma_K (||W||_F = 1) is the minimum-norm-point margin of the Kesler
vectors, certified exactly by :func:`novikoff.certificates.certify` on
:func:`kesler` (a Gordan certificate when no W separates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from novikoff.data.dataset import Dataset, exact_rows, validate_bias
from novikoff.errors import InputError

__all__ = ["MulticlassData", "kesler", "kesler_index"]


@dataclass(frozen=True, eq=False)
class MulticlassData:
    """K-class data, exact. Build it with :meth:`from_arrays`."""

    numerators: tuple[tuple[int, ...], ...]
    denominator: int
    labels: tuple[int, ...]  # class indices 0..K-1
    class_names: tuple[str, ...]
    bias: Fraction = Fraction(1)
    name: str = "multiclass"

    @classmethod
    def from_arrays(cls, X: Any, y: Any, *, bias: object = 1, name: str = "arrays") -> MulticlassData:
        """From rows of numbers (floats converted exactly) and any hashable labels (>= 2 classes)."""
        rows = exact_rows(X, name)
        labels = [v.item() if hasattr(v, "item") else v for v in list(y)]
        if len(labels) != len(rows):
            raise InputError(f"{name}: {len(labels)} labels for {len(rows)} samples")
        if not rows:
            raise InputError(f"{name}: no samples")
        classes = sorted(set(labels), key=lambda v: (str(type(v)), v))
        if len(classes) < 2:
            raise InputError(f"{name}: fewer than two classes ({classes})")
        index = {c: k for k, c in enumerate(classes)}
        den = math.lcm(*{v.denominator for row in rows for v in row})
        nums = tuple(tuple(v.numerator * (den // v.denominator) for v in row) for row in rows)
        return cls(
            nums,
            den,
            tuple(index[v] for v in labels),
            tuple(str(c) for c in classes),
            validate_bias(bias, name),
            name,
        )

    @property
    def n_samples(self) -> int:
        return len(self.numerators)

    def features(self, i: int) -> list[Fraction]:
        """x_i as exact Fractions."""
        return [Fraction(v, self.denominator) for v in self.numerators[i]]

    @property
    def n_features(self) -> int:
        return len(self.numerators[0])

    def to_numpy(self) -> tuple[Any, Any]:
        """(X float64 without the bias column, class indices as int64)."""
        import numpy as np

        X = np.array([[v / self.denominator for v in row] for row in self.numerators], dtype=np.float64)
        return X, np.array(self.labels, dtype=np.int64)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    @property
    def dimension(self) -> int:
        """D = features + 1 if rho > 0 (the augmented dimension)."""
        return len(self.numerators[0]) + (1 if self.bias else 0)

    @cached_property
    def scaled_rows(self) -> tuple[tuple[tuple[int, ...], ...], int]:
        """``(X, s)``: integer augmented rows X_i = s (x_i, rho) and the scale s > 0."""
        rho = self.bias
        s = math.lcm(self.denominator, rho.denominator)
        k = s // self.denominator
        if rho == 0:
            return tuple(tuple(k * v for v in row) for row in self.numerators), s
        r = rho.numerator * (s // rho.denominator)
        return tuple((*(k * v for v in row), r) for row in self.numerators), s

    @cached_property
    def R2(self) -> Fraction:
        """max_i ||x~_i||^2, exactly."""
        X, s = self.scaled_rows
        return Fraction(max(sum(v * v for v in row) for row in X), s * s)

    def float_rows(self) -> Any:
        import numpy as np

        X, s = self.scaled_rows
        return np.array([[v / s for v in row] for row in X], dtype=np.float64)


def kesler_index(data: MulticlassData) -> list[tuple[int, int]]:
    """(sample i, class j) of each Kesler vector, in :func:`kesler`'s order: i ascending, then j."""
    return [(i, j) for i in range(data.n_samples) for j in range(data.n_classes) if j != data.labels[i]]


def kesler(data: MulticlassData) -> Dataset:
    """The Kesler vectors as a binary dataset (labels +1, no extra bias: x~ carries rho)."""
    X, s = data.scaled_rows
    D, K = data.dimension, data.n_classes
    rows: list[list[int]] = []
    for i, j in kesler_index(data):
        v = [0] * (K * D)
        y = data.labels[i]
        v[y * D : (y + 1) * D] = X[i]
        v[j * D : (j + 1) * D] = [-a for a in X[i]]
        rows.append(v)
    return Dataset.from_integer_rows(rows, s, [1] * len(rows), bias=0, name=f"kesler({data.name})")
