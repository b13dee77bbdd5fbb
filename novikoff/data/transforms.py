"""Exact dataset transforms used by the large-margin experiments.

- :func:`soft_margin`: the 2-norm soft-margin extension (PDM paper, Section 5):
  x_k -> (x_k, Delta e_k), one new feature per sample. It makes every dataset
  separable: w = (0, y_1 Delta, ..., y_m Delta, 0) gives w.z_k = Delta^2 > 0, and
  hard-margin learning on the extension is soft-margin learning with squared
  slacks in the original space.
- :func:`min_max_scaled`: every feature mapped affinely onto [0, 1] (constant
  features to 0), exactly.
"""

from __future__ import annotations

from fractions import Fraction

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import exact_parameter

__all__ = ["min_max_scaled", "soft_margin"]


def soft_margin(dataset: Dataset, delta: object) -> Dataset:
    """x_k -> (x_k, Delta e_k) (m new features after the old ones; bias stays last)."""
    d = exact_parameter(delta, "soft margin Delta")
    if d <= 0:
        raise InputError(f"soft margin Delta must be > 0, got {d}")
    m = dataset.n_samples
    rows = [[*dataset.features(k), *(d if j == k else Fraction(0) for j in range(m))] for k in range(m)]
    return Dataset.from_fraction_rows(
        rows, dataset.labels, bias=dataset.bias, name=f"{dataset.name}+soft({d})"
    )


def min_max_scaled(dataset: Dataset) -> Dataset:
    """Each feature affinely onto [0, 1] (min -> 0, max -> 1; a constant feature -> 0)."""
    rows = [dataset.features(i) for i in range(dataset.n_samples)]
    cols = list(zip(*rows)) if rows else []
    lo = [min(c) for c in cols]
    span = [max(c) - min(c) for c in cols]
    scaled = [[(v - lo[j]) / span[j] if span[j] else Fraction(0) for j, v in enumerate(row)] for row in rows]
    return Dataset.from_fraction_rows(scaled, dataset.labels, bias=dataset.bias, name=f"{dataset.name}[0,1]")
