"""Hypothesis strategies for perceptron data: separable with a certified margin,
non-separable with a Gordan certificate, orderings, and the T1 family.

All strategies are composable values and shrink toward few samples, low
dimension and small numbers. Separable data are *planted*: a hidden integer
direction labels the points (points on its hyperplane are dropped), so they are
separable by construction; ``certified_separable`` additionally returns the
exact certificate that the checker accepted.

``FLOAT_EXACT_BOUND`` documents the magnitudes within which float64
perceptron arithmetic is exact (used to test the twin for identical runs).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from novikoff.certificates import Certificate, GordanCertificate, SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.runtime.runs import Order
from novikoff.spec.tightness import basis_dataset, rotated_basis_dataset

__all__ = [
    "FLOAT_EXACT_BOUND",
    "VALUE_KINDS",
    "certified_nonseparable",
    "certified_separable",
    "float_exact_separable",
    "nonseparable_datasets",
    "orderings",
    "separable_datasets",
    "t1_datasets",
]

VALUE_KINDS = ("int", "dyadic", "rational")

#: Float64 perceptron runs are exact on data whose pattern coordinates (rho included)
#: are n / 2^e with |n / 2^e| <= 2^10 and e <= 4, dimension <= 9 and at most 2^14
#: updates: then |w_j| <= 2^24, every product w_j z_j is a multiple of 2^-8 below 2^34,
#: and every partial sum of w.z is a multiple of 2^-8 below 9 * 2^34 < 2^38, so each
#: needs fewer than 46 significant bits and float64 (53 bits) computes it exactly, in
#: any summation order.
FLOAT_EXACT_BOUND = {"numerator": 2**10, "exponent": 4, "dimension": 9, "updates": 2**14}


def _values(kind: str, magnitude: int = 8) -> st.SearchStrategy[Fraction]:
    ints = st.integers(-magnitude, magnitude)
    if kind == "int":
        return ints.map(Fraction)
    if kind == "dyadic":
        return st.builds(
            lambda n, e: Fraction(n, 2**e), st.integers(-4 * magnitude, 4 * magnitude), st.integers(0, 4)
        )
    if kind == "rational":
        return st.builds(Fraction, ints, st.integers(1, 7))
    raise ValueError(f"unknown value kind {kind!r}; use one of {VALUE_KINDS}")


@st.composite
def separable_datasets(
    draw: Any,
    values: str | None = None,
    min_dim: int = 1,
    max_dim: int = 8,
    min_samples: int = 1,
    max_samples: int = 10,
    bias: Fraction | int | None = None,
    magnitude: int = 8,
) -> Dataset:
    """Linearly separable datasets (through the augmented space with bias rho).

    Includes duplicates, collinear points, single-class sets, points at the
    origin and both d > m and m > d.
    """
    kind = values or draw(st.sampled_from(VALUE_KINDS))
    d = draw(st.integers(min_dim, max_dim))
    rho = (
        Fraction(bias)
        if bias is not None
        else draw(st.sampled_from([Fraction(1), Fraction(0), Fraction(1, 2), Fraction(3)]))
    )
    vals = _values(kind, magnitude)
    layout = draw(st.sampled_from(["general", "collinear", "with_origin"]))
    if layout == "collinear":
        a = draw(st.lists(vals, min_size=d, max_size=d))
        b = draw(st.lists(vals, min_size=d, max_size=d))
        ts = draw(st.lists(st.integers(-3, 3), min_size=min_samples, max_size=max_samples))
        points = [[ai + t * bi for ai, bi in zip(a, b)] for t in ts]
    else:
        points = draw(
            st.lists(st.lists(vals, min_size=d, max_size=d), min_size=min_samples, max_size=max_samples)
        )
        if layout == "with_origin":
            points.append([Fraction(0)] * d)
    if points and draw(st.booleans()):
        dup = draw(st.lists(st.integers(0, len(points) - 1), max_size=3))
        points += [list(points[i]) for i in dup]
    dirs = st.integers(-3, 3)
    w = draw(st.lists(dirs, min_size=d, max_size=d))
    wb = draw(dirs) if rho != 0 else 0
    rows, labels = [], []
    for x in points:
        score = sum((wi * xi for wi, xi in zip(w, x)), Fraction(0)) + wb * rho
        if score != 0:
            rows.append(x)
            labels.append(1 if score > 0 else -1)
    if len(rows) < min_samples or not rows:
        # fall back to a point that the planted direction surely classifies
        j = next((i for i, wi in enumerate(w) if wi != 0), None)
        if j is None and wb == 0:
            w[0] = 1
            j = 0
        x = [Fraction(0)] * d
        if j is not None:
            x[j] = Fraction(1)
        score = sum((wi * xi for wi, xi in zip(w, x)), Fraction(0)) + wb * rho
        while len(rows) < max(min_samples, 1):
            rows.append(list(x))
            labels.append(1 if score > 0 else -1)
    return Dataset.from_fraction_rows(rows, labels, bias=rho, name=f"separable[{kind},{layout}]")


@st.composite
def certified_separable(draw: Any, **kwargs: Any) -> tuple[Dataset, SeparableCertificate]:
    """A separable dataset with its checked exact certificate."""
    ds = draw(separable_datasets(**kwargs))
    cert = certify(ds)
    if not isinstance(cert, SeparableCertificate):  # a planted direction separates: a solver bug
        raise AssertionError(f"planted-separable data certified non-separable: {ds!r}")
    return ds, cert


@st.composite
def nonseparable_datasets(
    draw: Any, values: str | None = None, max_dim: int = 6, max_samples: int = 10
) -> Dataset:
    """Datasets with 0 in conv{z_i}: a conflicting duplicate, an XOR square, or an
    opposite pair without bias; plus random extra points."""
    kind = values or draw(st.sampled_from(VALUE_KINDS))
    vals = _values(kind)
    how = draw(st.sampled_from(["conflict", "xor", "opposite"]))
    d = draw(st.integers(2 if how == "xor" else 1, max_dim))
    rho: Fraction = draw(st.sampled_from([Fraction(1), Fraction(2)])) if how != "opposite" else Fraction(0)
    extra = draw(st.lists(st.lists(vals, min_size=d, max_size=d), max_size=max_samples))
    extra_labels = [draw(st.sampled_from([-1, 1])) for _ in extra]
    if how == "conflict":
        x = draw(st.lists(vals, min_size=d, max_size=d))
        core, core_labels = [x, list(x)], [1, -1]
    elif how == "xor":
        c = draw(st.integers(1, 4))
        pad = [Fraction(0)] * (d - 2)
        core = [
            [Fraction(c), Fraction(c), *pad],
            [-Fraction(c), -Fraction(c), *pad],
            [Fraction(c), -Fraction(c), *pad],
            [-Fraction(c), Fraction(c), *pad],
        ]
        core_labels = [1, 1, -1, -1]
    else:
        x = draw(st.lists(vals, min_size=d, max_size=d))
        core, core_labels = [x, [-v for v in x]], [1, 1]
    at = draw(st.integers(0, len(extra)))
    rows = extra[:at] + core + extra[at:]
    labels = extra_labels[:at] + core_labels + extra_labels[at:]
    return Dataset.from_fraction_rows(rows, labels, bias=rho, name=f"nonseparable[{kind},{how}]")


@st.composite
def certified_nonseparable(draw: Any, **kwargs: Any) -> tuple[Dataset, GordanCertificate]:
    """A non-separable dataset with its checked Gordan certificate."""
    ds = draw(nonseparable_datasets(**kwargs))
    cert: Certificate = certify(ds)
    if not isinstance(cert, GordanCertificate):
        raise AssertionError(f"non-separable data certified separable: {ds!r}")
    return ds, cert


def orderings(m: int, max_epochs_listed: int = 3) -> st.SearchStrategy[Order]:
    """Order specs for m samples: natural, seeded shuffle, one permutation, per-epoch permutations."""
    perm = st.permutations(list(range(m)))
    return st.one_of(
        st.just(None),
        st.integers(0, 2**16).map(lambda s: f"shuffle:{s}"),
        perm,
        st.lists(perm, min_size=1, max_size=max_epochs_listed),
    )


@st.composite
def t1_datasets(draw: Any, max_n: int = 12) -> tuple[int, Dataset]:
    """(n, dataset) from the T1 family: basis e_1..e_n, optionally rotated and scaled."""
    size = draw(st.integers(1, max_n))
    scale = draw(st.sampled_from([Fraction(1), Fraction(1, 3), Fraction(5), Fraction(7, 2)]))
    if draw(st.booleans()):
        return size, rotated_basis_dataset(size, seed=draw(st.integers(0, 1000)), scale=scale)
    return size, basis_dataset(size, scale=scale)


@st.composite
def float_exact_separable(draw: Any, max_samples: int = 10) -> Dataset:
    """Separable data inside FLOAT_EXACT_BOUND (dyadic, small), rho = 1."""
    kind = draw(st.sampled_from(["int", "dyadic"]))
    return draw(
        separable_datasets(
            values=kind, max_dim=FLOAT_EXACT_BOUND["dimension"] - 1, max_samples=max_samples, bias=1
        )
    )
