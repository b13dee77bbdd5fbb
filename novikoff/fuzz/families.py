"""The data families ``novikoff diff`` draws examples from, per algorithm family.

Each :class:`DataFamily` says whether float64 arithmetic is exact on its data (then any
difference from the exact reference is a bug; otherwise a difference may be rounding).
Every number is drawn by Hypothesis -- the general float data through
:func:`hypothesis.extra.numpy.arrays` with float elements -- so a failing example
shrinks to a small dataset with simple values.

The perceptron's families (:data:`PERCEPTRON_FAMILIES`) add :data:`TIE_FAMILIES`: exact
ties, near-ties from a few ulps to 2^-10 above and below 0, scaled copies and reversed
duplicates, and near-ties at the float64 integer boundary, each example kept only when
float64 computes its exact run exactly (:func:`perceptron_float_exact`), and
:data:`GORDAN_FAMILY`: integer data that certify proves non-separable with the bias input
(a Gordan certificate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from novikoff.certificates import GordanCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.fuzz.semantics import fits_in_bits
from novikoff.fuzz.strategies import float_exact_separable, nonseparable_datasets
from novikoff.runtime.runs import RunRecord, epoch_order
from novikoff.twins.exact import exact_perceptron

__all__ = [
    "BINARY_FAMILIES",
    "GORDAN_FAMILY",
    "MULTICLASS_FAMILIES",
    "PERCEPTRON_FAMILIES",
    "TIE_FAMILIES",
    "DataFamily",
    "copies_data",
    "float_exact_run",
    "gaussian_like_blobs",
    "general_float_data",
    "gordan_certified",
    "near_tie_data",
    "perceptron_float_exact",
]


@dataclass(frozen=True)
class DataFamily:
    """One family of examples: ``name`` (printed in findings), ``id`` (the test id of
    :func:`novikoff.testing.parametrize_with_checks`), the ``data`` strategy, whether
    float64 arithmetic is ``exact`` on it, and the ``max_epochs`` each run gets.

    ``natural_order``: every example is presented in the natural order (the family's data
    are built for it) instead of the natural order or a drawn permutation; ``keep``: when
    given, only examples (data, order, max_epochs) for which it holds are run (the
    harness filters the drawn examples)."""

    name: str
    id: str
    data: st.SearchStrategy[Any]
    exact: bool
    max_epochs: int
    natural_order: bool = False
    keep: Callable[[Any, Any, int], bool] | None = None


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

# ------------------------------------------------------------------ the teeth: ties and boundaries
#
# The families below put the perceptron's decision values exactly where a wrong update
# rule differs from ``w.z <= 0``: exactly at 0 with w != 0 (ties), a few ulps, ~1e-12,
# ~1e-9, ~1e-6 and ~1e-3 above or below 0, at terms near 2^52 (where the next float
# above 2^53 is 2 away), on copies of a point presented right after it (a revisit after
# its update) and on duplicates presented in the opposite order. Every example is kept
# only if float64 computes its exact run exactly (:func:`float_exact_run`, whatever the
# summation order), so any difference from the exact reference is a bug, never rounding.

_SIGNS = st.sampled_from([1, -1])
_SMALL = st.integers(-4, 4)
#: 2^-k for the near-ties: ~1e-3, ~1e-6, ~1e-9, ~1e-12 and ~3.6e-15 (None: a few ulps of
#: the decision's terms, the smallest nonzero value float64 can resolve there).
_NEAR_TIE_EXPONENTS = (None, 10, 20, 30, 40, 48)


def _bits_ok(values: Sequence[int]) -> bool:
    """:func:`novikoff.fuzz.semantics.fits_in_bits` at float64's 53 bits."""
    return fits_in_bits(values, 53)


def float_exact_run(ds: Dataset, run: RunRecord, order: Any) -> bool:
    """True iff float64 carries out the perceptron run ``run`` on ``ds`` (in ``order``)
    exactly: every pattern coordinate is a float, and at every presentation every partial
    sum of the products w_j z_j, and every update w_j + z_j, is a float whatever the
    summation order (:func:`_bits_ok` on integer numerators over a power-of-two scale).
    Then a correct float64 implementation makes exactly the reference's decisions and
    ends with exactly its weights (times a power-of-two learning rate)."""
    Z, s = ds.scaled_patterns
    if s & (s - 1) or not all(_bits_ok([v]) for row in Z for v in row):
        return False  # not dyadic, or a coordinate is not a float
    present = epoch_order(order, ds.n_samples)
    W = [0] * ds.dimension
    updates = iter(run.updates)
    pending = next(updates, None)
    for epoch in range(run.epochs):
        for i in present(epoch):
            if not _bits_ok([a * b for a, b in zip(W, Z[i])]):
                return False
            if pending == (epoch, i):
                if not all(_bits_ok([a, b]) for a, b in zip(W, Z[i])):
                    return False
                W = [a + b for a, b in zip(W, Z[i])]
                pending = next(updates, None)
    return True


def perceptron_float_exact(ds: Dataset, order: Any, max_epochs: int) -> bool:
    """:func:`float_exact_run` of the exact perceptron's run on ``ds`` (the filter of the
    families below: their examples are kept only when this holds)."""
    return float_exact_run(ds, exact_perceptron(ds, order=order, max_epochs=max_epochs), order)


def _small_point(draw: Any, d: int) -> list[Fraction]:
    """d small integers."""
    return [Fraction(draw(_SMALL)) for _ in range(d)]


def _both_labels(draw: Any, rows: list[list[Fraction]], labels: list[int]) -> None:
    """Append a small point with the missing label when only one occurs (scikit-learn
    refuses one class; a point at the end changes nothing presented before it)."""
    if len(set(labels)) < 2:
        rows.append(_small_point(draw, len(rows[0])))
        labels.append(-labels[0])


@st.composite
def near_tie_data(draw: Any, huge: bool = False) -> Dataset:
    """Data whose second presentation has w.z exactly 0 (a tie with w != 0) or a tiny
    dyadic delta above or below 0 (bias 1, natural order).

    x_0 has one coordinate +-2^a (a <= 2), so after the first update (w = z_0) a probe
    point x' can be solved for exactly: its other coordinates drawn, that one chosen so
    that y' w.(x', 1) = delta, with delta = c 2^-k (c in 1..3, k from
    :data:`_NEAR_TIE_EXPONENTS`, clamped so the probe's decision is float-exact: k <=
    52 - bits of the sum of |terms|). Then a tail of small points, each maybe followed by
    a copy of itself (revisited right after its update). ``huge``: the drawn coordinates
    are +-(2^24 or 2^25 + r), so the terms of w.z approach 2^52 and delta is a few
    units there (the float64 exact-integer boundary: above 2^53, x + 1 == x); then d >= 2,
    delta is above 0, the probe's label is the other one and no point follows but the
    probe's copy, so the run (one update, then a clean epoch) stays float-exact: an update
    on the probe would square its ~51-bit values."""
    d = draw(st.integers(2 if huge else 1, 3))
    coord = (
        st.builds(lambda s, e, r: s * (2**e + r), _SIGNS, st.sampled_from([24, 25]), st.integers(-7, 7))
        if huge
        else _SMALL
    )
    j = draw(st.integers(0, d - 1))
    x0 = [draw(coord) for _ in range(d)]
    x0[j] = draw(_SIGNS) * 2 ** draw(st.integers(0, 2))
    y0 = draw(_SIGNS)
    w = [y0 * v for v in x0] + [y0]  # after the first presentation (w = 0 always updates)
    yp = -y0 if huge else draw(_SIGNS)
    xp: list[Fraction] = [Fraction(draw(coord)) for _ in range(d)]
    rest = sum(w[k] * int(xp[k]) for k in range(d) if k != j) + w[d]
    terms = sum(abs(w[k] * int(xp[k])) for k in range(d) if k != j) + abs(w[d]) + abs(rest) + 4
    room = 52 - terms.bit_length()  # finest 2^-k that keeps the probe's w.z exact in float64
    kind = "above" if huge else draw(st.sampled_from(["tie", "above", "below"]))
    if kind == "tie":
        delta = Fraction(0)
    else:
        wanted = draw(st.sampled_from(_NEAR_TIE_EXPONENTS))
        k = room if wanted is None else min(wanted, room)
        delta = draw(st.integers(1, 3)) * Fraction(2) ** -k * (1 if kind == "above" else -1)
    xp[j] = (yp * delta - rest) / w[j]  # y' (w_j x'_j + rest) = delta, exactly
    rows: list[list[Fraction]] = [[Fraction(v) for v in x0], xp]
    labels = [y0, yp]
    if draw(st.booleans()):  # the probe again right after (revisited after an update when delta <= 0)
        rows.append(list(xp))
        labels.append(yp)
    for _ in range(0 if huge else draw(st.integers(0, 3))):
        x = _small_point(draw, d)
        y = draw(_SIGNS)
        rows.append(x)
        labels.append(y)
        if draw(st.booleans()):
            rows.append(list(x))
            labels.append(y)
    _both_labels(draw, rows, labels)
    name = "integer boundary near-ties" if huge else "near ties"
    return Dataset.from_fraction_rows(rows, labels, bias=1, name=name)


_COPY_FACTORS = (Fraction(1), Fraction(2), Fraction(3), Fraction(1, 2), Fraction(-1), Fraction(-1, 2))


@st.composite
def copies_data(draw: Any) -> Dataset:
    """Small integer points, each maybe followed right away by a scaled copy c x (c in
    1, 2, 3, 1/2, -1, -1/2, same or opposite label; with the bias input 1 this is not a
    scaled pattern), and maybe all of them again in reverse order (duplicates presented in
    the opposite order). Natural order: a copy is presented right after its original."""
    d = draw(st.integers(1, 3))
    rows: list[list[Fraction]] = []
    labels: list[int] = []
    for _ in range(draw(st.integers(1, 4))):
        x = [Fraction(draw(_SMALL)) for _ in range(d)]
        y = draw(_SIGNS)
        rows.append(x)
        labels.append(y)
        if draw(st.booleans()):
            c = draw(st.sampled_from(_COPY_FACTORS))
            rows.append([c * v for v in x])
            labels.append(y * draw(_SIGNS))
    if draw(st.booleans()):
        rows += [list(r) for r in reversed(rows)]
        labels += labels[::-1]
    _both_labels(draw, rows, labels)
    return Dataset.from_fraction_rows(rows, labels, bias=1, name="copies")


#: The perceptron's extra families (also the averaged and voted perceptrons'): ties,
#: near-ties, copies and the integer boundary, each float-exact by :func:`perceptron_float_exact`.
TIE_FAMILIES: tuple[DataFamily, ...] = (
    DataFamily(
        "ties and near-ties, exactly representable",
        "float-exact near ties",
        near_tie_data(),
        True,
        50,
        natural_order=True,
        keep=perceptron_float_exact,
    ),
    DataFamily(
        "scaled copies and duplicates, exactly representable",
        "float-exact copies",
        copies_data(),
        True,
        20,
        natural_order=True,
        keep=perceptron_float_exact,
    ),
    DataFamily(
        "near-ties at the float64 integer boundary, exactly representable",
        "float-exact integer boundary",
        near_tie_data(huge=True),
        True,
        20,
        natural_order=True,
        keep=perceptron_float_exact,
    ),
)


def gordan_certified(ds: Dataset) -> bool:
    """True iff :func:`novikoff.certificates.certify` proves ``ds`` (with its bias) not
    linearly separable: its answer is a checked GordanCertificate."""
    return isinstance(certify(ds), GordanCertificate)


#: Non-separable data *after* the bias input 1: the integer non-separable constructions
#: (a conflicting duplicate, an XOR square, an opposite pair) with bias 1, each kept only
#: when certify returns a Gordan certificate (an opposite pair x, -x with the same label
#: is separable once the bias is added: such draws are dropped). The perceptron never
#: converges on them, so every run lasts max_epochs epochs.
GORDAN_FAMILY = DataFamily(
    "non-separable after the bias, Gordan-certified",
    "gordan non-separable",
    nonseparable_datasets(values="int", max_dim=4).map(_unit_bias).filter(gordan_certified),
    True,
    7,
)

#: The perceptron's families: the binary ones, the ties, then the Gordan-certified ones.
PERCEPTRON_FAMILIES: tuple[DataFamily, ...] = BINARY_FAMILIES + TIE_FAMILIES + (GORDAN_FAMILY,)

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
