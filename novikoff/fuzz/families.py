"""The data families ``novikoff diff`` draws examples from, per algorithm family.

Each :class:`DataFamily` says whether float64 arithmetic is exact on its data (then any
difference from the exact reference is a bug; otherwise a difference may be rounding).
Every number is drawn by Hypothesis -- the general float data through
:func:`hypothesis.extra.numpy.arrays` with float elements -- so a failing example
shrinks to a small dataset with simple values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from novikoff.data import Dataset
from novikoff.fuzz.strategies import float_exact_separable, nonseparable_datasets
from novikoff.multiclass import MulticlassData

__all__ = [
    "BINARY_FAMILIES",
    "MULTICLASS_FAMILIES",
    "DataFamily",
    "gaussian_like_blobs",
    "general_float_data",
]


@dataclass(frozen=True)
class DataFamily:
    """One family of examples: ``name`` (printed in findings), ``id`` (the test id of
    :func:`novikoff.testing.parametrize_with_checks`), the ``data`` strategy, whether
    float64 arithmetic is ``exact`` on it, and the ``max_epochs`` each run gets."""

    name: str
    id: str
    data: st.SearchStrategy[Any]
    exact: bool
    max_epochs: int


def _float_values(magnitude: float) -> st.SearchStrategy[float]:
    """Finite floats in [-magnitude, magnitude]; tiny ones (|v| < 2^-30) become 0, so exact
    arithmetic on them stays cheap. Shrinks towards 0 and short decimals."""
    raw = st.floats(-magnitude, magnitude, allow_nan=False, allow_infinity=False, allow_subnormal=False)
    return raw.map(lambda v: v if abs(v) >= 2.0**-30 else 0.0)


@st.composite
def general_float_data(draw: Any) -> Dataset:
    """m in 2..30 samples of d in 1..6 float64 features in [-4, 4] and labels +-1, the first
    feature shifted by sep * y (sep in 0.5, 2, 4) so most draws are nearly separable; both
    labels occur. Drawn by Hypothesis element by element: failures shrink."""
    m, d = draw(st.integers(2, 30)), draw(st.integers(1, 6))
    X = draw(arrays(np.float64, (m, d), elements=_float_values(4.0)))
    y = draw(arrays(np.int64, (m,), elements=st.sampled_from([-1, 1])))
    sep = draw(st.sampled_from([0.5, 2.0, 4.0]))
    X[:, 0] += sep * y
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    return Dataset.from_arrays(X, y, name="general float data")


@st.composite
def _small_integer_data(draw: Any, separable: bool) -> MulticlassData:
    K, d = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(st.integers(-4, 4), min_size=d, max_size=d), min_size=2, max_size=8))
    if separable:
        W = draw(
            st.lists(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1), min_size=K, max_size=K)
        )
        labels = []
        for x in rows:
            scores = [sum(a * b for a, b in zip(w, [*x, 1])) for w in W]
            labels.append(scores.index(max(scores)))
    else:
        labels = draw(st.lists(st.integers(0, K - 1), min_size=len(rows), max_size=len(rows)))
    if len(set(labels)) < 2:
        labels[0] = 1 - labels[0] if labels[0] <= 1 else 0
    return MulticlassData.from_arrays(rows, labels, name="generated")


@st.composite
def gaussian_like_blobs(draw: Any) -> MulticlassData:
    """K in 2..4 classes around float centres in [-6, 6]^d, m in 4..30 samples each its
    centre plus a float offset in [-2, 2]^d (d in 1..4); classes 0 and 1 both occur.
    Drawn by Hypothesis element by element: failures shrink."""
    K, d, m = draw(st.integers(2, 4)), draw(st.integers(1, 4)), draw(st.integers(4, 30))
    centres = draw(arrays(np.float64, (K, d), elements=_float_values(6.0)))
    y = draw(arrays(np.int64, (m,), elements=st.integers(0, K - 1)))
    y[:2] = [0, 1]
    X = centres[y] + draw(arrays(np.float64, (m, d), elements=_float_values(2.0)))
    return MulticlassData.from_arrays(X, y, name="gaussian-like blobs")


def _unit_bias(ds: Dataset) -> Dataset:
    return ds.with_bias(1)  # the contract: bias input 1, bias weight last


BINARY_FAMILIES: tuple[DataFamily, ...] = (
    DataFamily(
        "separable, exactly representable",
        "float-exact separable",
        float_exact_separable().map(_unit_bias),
        True,
        1000,
    ),
    DataFamily(
        "non-separable, exactly representable",
        "float-exact non-separable",
        nonseparable_datasets(values="int", max_dim=4).map(_unit_bias),
        True,
        7,
    ),
    DataFamily("general float data", "general float", general_float_data().map(_unit_bias), False, 50),
)

MULTICLASS_FAMILIES: tuple[DataFamily, ...] = (
    DataFamily(
        "multiclass, planted, exactly representable",
        "float-exact planted",
        _small_integer_data(separable=True),
        True,
        300,
    ),
    DataFamily(
        "multiclass, random labels, exactly representable",
        "float-exact random labels",
        _small_integer_data(separable=False),
        True,
        7,
    ),
    DataFamily("multiclass, gaussian float data", "general float", gaussian_like_blobs(), False, 50),
)
