"""Shrink a failing (dataset, order) pair to a small one that still fails.

Hypothesis's generic shrinker re-draws the whole example (including its exact
certificate) for every attempt and, on perceptron data, spent minutes on a single
counterexample. This one edits the data directly: it deletes samples, deletes
feature columns, simplifies values (0, their sign, their integer part, fewer
binary digits), sets the bias to 1 and the order to natural, keeping an edit only
when ``still_fails`` (which the caller decides exactly) says the smaller pair
still fails. It repeats until nothing changes or ``budget_seconds`` pass, so it
always stops and always returns a failing pair (at worst the one it was given).

:func:`drop_zero_columns` removes the feature columns that are zero in every sample (they
change no decision of a perceptron-family run: the weight on such a column never moves
from its initial value), for a bug's minimal example after Hypothesis has shrunk it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.runtime.runs import Order

__all__ = ["drop_zero_columns", "shrink_failure"]

Failure = tuple[Dataset, Order]


def _rows(ds: Dataset) -> list[list[Fraction]]:
    return [ds.features(i) for i in range(ds.n_samples)]


def _rebuild(ds: Dataset, rows: list[list[Fraction]], labels: list[int], bias: Fraction) -> Dataset:
    return Dataset.from_fraction_rows(rows, labels, bias=bias, name=ds.name)


def _is_index(value: object) -> bool:
    return isinstance(value, (int, np.integer))


def _order_without(order: Order, index: int) -> Order:
    """The order for the data with sample ``index`` removed (indices above it shift down)."""
    if order is None or isinstance(order, str):
        return order
    seq: list[Any] = list(order)
    nested: list[list[int]] = (
        [[int(i) for i in p] for p in seq] if seq and not _is_index(seq[0]) else [[int(i) for i in seq]]
    )
    shifted = [[i - (i > index) for i in p if i != index] for p in nested]
    return shifted if len(shifted) > 1 else shifted[0]


def _simpler_values(v: Fraction) -> Iterator[Fraction]:
    """Candidates simpler than ``v``, simplest first."""
    if v == 0:
        return
    yield Fraction(0)
    sign = Fraction(1 if v > 0 else -1)
    if v != sign:
        yield sign
    whole = Fraction(int(v))
    if whole not in (0, v, sign):
        yield whole
    if v.denominator > 1:
        yield Fraction(round(v * 2), 2) if v.denominator > 2 else Fraction(round(v))


def _candidates(ds: Dataset, order: Order) -> Iterator[Failure]:
    rows, labels, bias = _rows(ds), list(ds.labels), ds.bias
    if order is not None:
        yield ds, None
    for i in range(ds.n_samples):
        if ds.n_samples > 1:
            yield (
                _rebuild(ds, rows[:i] + rows[i + 1 :], labels[:i] + labels[i + 1 :], bias),
                _order_without(order, i),
            )
    for j in range(ds.n_features):
        if ds.n_features > 1:
            yield _rebuild(ds, [r[:j] + r[j + 1 :] for r in rows], labels, bias), order
    if bias not in (0, 1):
        yield _rebuild(ds, rows, labels, Fraction(1)), order
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            for simpler in _simpler_values(v):
                new_rows = [list(r) for r in rows]
                new_rows[i][j] = simpler
                yield _rebuild(ds, new_rows, labels, bias), order


def shrink_failure(
    ds: Dataset,
    order: Order,
    still_fails: Callable[[Dataset, Order], bool],
    budget_seconds: float = 30.0,
) -> Failure:
    """A pair no larger than ``(ds, order)`` on which ``still_fails`` holds.

    ``still_fails(ds, order)`` must hold on entry. Greedy: the first candidate edit
    that still fails is kept and the candidates are regenerated from it.
    """
    deadline = time.monotonic() + budget_seconds
    current: Failure = (ds, order)
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in _candidates(*current):
            if time.monotonic() >= deadline:
                break
            if still_fails(*candidate):
                current, improved = candidate, True
                break
    return current


def drop_zero_columns(
    ds: Dataset, initial_weights: Sequence[Fraction] | None = None
) -> tuple[Dataset, tuple[Fraction, ...] | None]:
    """``ds`` without its all-zero feature columns (one column is always kept), and the
    initial weights without the same entries (None stays None; the bias weight is last)."""
    keep = [j for j in range(ds.n_features) if any(row[j] for row in ds.numerators)] or [0]
    if len(keep) == ds.n_features:
        return ds, None if initial_weights is None else tuple(initial_weights)
    rows = [[r[j] for j in keep] for r in _rows(ds)]
    narrower = _rebuild(ds, rows, list(ds.labels), ds.bias)
    if initial_weights is None:
        return narrower, None
    w0 = list(initial_weights)
    return narrower, tuple([w0[j] for j in keep] + w0[ds.n_features :])
