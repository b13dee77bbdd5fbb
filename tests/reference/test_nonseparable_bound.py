"""The Freund-Schapire bound on non-separable data (novikoff.reference.nonseparable): exact
ordering of x + y sqrt(p), the exact choice of gamma, the bound on every run, the extremal
family, and the checks that catch a wrong run."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import certificate_document, certify
from novikoff.certificates.checker import check_document
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.fuzz.falsify_nonseparable import extremal_ratio, fs_extremal_dataset, label_noise_datasets
from novikoff.fuzz.strategies import nonseparable_datasets, orderings
from novikoff.reference import run_perceptron
from novikoff.reference.nonseparable import SqrtValue, best_gamma, nonseparable_bound
from novikoff.runtime.runs import RunRecord

XOR = Dataset.from_arrays([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1])


def _mp(q: F) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _high(v: SqrtValue) -> mpmath.mpf:
    with mpmath.workdps(80):
        return _mp(v.x) + _mp(v.y) * mpmath.sqrt(_mp(v.p))


# ------------------------------------------------------------------------------ exact ordering


@pytest.mark.parametrize(
    ("a", "b", "less", "equal"),
    [
        (SqrtValue(F(1), F(1), F(4)), SqrtValue(F(3), F(0), F(0)), False, True),  # 1 + 2 = 3
        (SqrtValue(F(0), F(1), F(2)), SqrtValue(F(0), F(1), F(2)), False, True),
        (SqrtValue(F(0), F(1), F(2)), SqrtValue(F(7, 5), F(0), F(0)), False, False),  # 1.414 > 1.4
        (SqrtValue(F(0), F(1), F(2)), SqrtValue(F(99, 70), F(0), F(0)), True, False),  # 1.41421 < 1.41428
        (SqrtValue(F(5), F(1), F(2)), SqrtValue(F(4), F(1), F(6)), True, False),  # 6.414 < 6.449
        (SqrtValue(F(0), F(1), F(8)), SqrtValue(F(0), F(2), F(2)), False, True),  # sqrt 8 = 2 sqrt 2
    ],
)
def test_sqrt_values_are_ordered_exactly(a: SqrtValue, b: SqrtValue, less: bool, equal: bool) -> None:
    assert (a < b) is less
    assert (b < a) is (not less and not equal)
    assert (a <= b) is (less or equal)


small = st.fractions(min_value=-20, max_value=20, max_denominator=12)
nonneg = st.fractions(min_value=0, max_value=20, max_denominator=12)


@settings(max_examples=80, deadline=None)
@given(small, nonneg, nonneg, small, nonneg, nonneg)
def test_sqrt_order_agrees_with_80_digits(x1: F, y1: F, p1: F, x2: F, y2: F, p2: F) -> None:
    a, b = SqrtValue(x1, y1, p1), SqrtValue(x2, y2, p2)
    ha, hb = _high(a), _high(b)
    if abs(ha - hb) > mpmath.mpf(10) ** -60:  # clearly apart: the exact order must agree
        assert (a < b) is bool(ha < hb)
    assert not (a < b and b < a)


# ------------------------------------------------------------------------------ gamma for one u


def _value_at(g: F, margins: list[F], N: F, R2: F, T: int) -> SqrtValue:
    """((sqrt(R2 N) + sqrt(T S(g)))/g)^2 written out from the definition."""
    S = sum((max(F(0), g - a) ** 2 for a in margins), F(0))
    return SqrtValue((R2 * N + T * S) / (g * g), F(2) / (g * g), R2 * N * T * S)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.fractions(min_value=-6, max_value=6, max_denominator=5), min_size=1, max_size=7),
    st.fractions(min_value=F(1, 4), max_value=9, max_denominator=4),
    st.fractions(min_value=F(1, 4), max_value=9, max_denominator=4),
    st.integers(1, 6),
)
def test_the_chosen_gamma_beats_every_breakpoint(margins: list[F], N: F, R2: F, T: int) -> None:
    g, value = best_gamma(margins, N, R2, T)
    assert g > 0
    assert not (value < _value_at(g, margins, N, R2, T)) and not (_value_at(g, margins, N, R2, T) < value)
    for a in margins:
        if a > 0:
            assert value <= _value_at(a, margins, N, R2, T)
    # no rational on a grid does better (beyond the rounding of the stationary points), unless
    # the bound only approaches its infimum T m as g grows: then it is below T m + 1
    best = float(_high(value))
    if value < SqrtValue(F(T * len(margins) + 1), F(0), F(0)):
        return
    for k in range(1, 100):
        probe = F(k, 4)
        assert best <= float(_high(_value_at(probe, margins, N, R2, T))) * (1 + 1e-9)


def test_a_separating_direction_gives_novikoffs_bound() -> None:
    # margins 2, 2, 2 with R = 2, ||u|| = 1: for g <= 2 the bound is 4/g^2; beyond 2 it is
    # ((2 + sqrt(3)(g - 2))/g)^2, increasing since sqrt(3) * 2 > 2: the minimum is 1 at g = 2
    g, value = best_gamma([2, 2, 2], 1, 4, 1)
    assert g == 2 and (value.x, value.y * value.p) == (1, 0)


def test_the_infimum_at_infinity_is_approached() -> None:
    # margins 1, -1 (R = 1, one pass): the bound decreases toward T m = 2 and never reaches it
    _, value = best_gamma([1, -1], 1, 1, 1)
    two, three = SqrtValue(F(2), F(0), F(0)), SqrtValue(F(3), F(0), F(0))
    assert two < value < three
    assert value < _value_at(F(1), [F(1), F(-1)], F(1), F(1), 1)  # better than the breakpoint 1


def test_an_interior_minimum_is_found_and_is_local() -> None:
    # a wide margin for most points, one point at -1: the minimum is a stationary point (beyond
    # the breakpoint 5 here), better than the breakpoint and than the limit T m = 7
    margins = [F(5)] * 6 + [F(-1)]
    g, value = best_gamma(margins, 1, 4, 1)
    assert g not in margins and g.denominator > 1
    assert value < _value_at(F(5), margins, F(1), F(4), 1)
    assert value < SqrtValue(F(7), F(0), F(0))
    for step in (F(1, 10**6), F(1, 10**3)):
        assert value <= _value_at(g + step, margins, F(1), F(4), 1)
        assert value <= _value_at(g - step, margins, F(1), F(4), 1)


def test_best_gamma_refuses_bad_arguments() -> None:
    with pytest.raises(InputError, match="no margins"):
        best_gamma([], 1, 1, 1)
    with pytest.raises(InputError, match="T >= 1"):
        best_gamma([1], 1, 1, 0)
    with pytest.raises(InputError, match="u"):
        best_gamma([1], 0, 1, 1)


# ------------------------------------------------------------------------------ the bound on runs


def _independent_numbers(ds: Dataset, u: list[F], gamma: F, T: int) -> tuple[F, F, F]:
    """R2, gamma2 and deviation2 from the definitions, with the patterns rebuilt from the features."""
    rows = []
    for i in range(ds.n_samples):
        x = ds.features(i) + ([F(ds.bias)] if ds.bias else [])
        rows.append([ds.labels[i] * v for v in x])
    N = sum((v * v for v in u), F(0))
    R2 = max(sum((v * v for v in z), F(0)) for z in rows)
    slack = sum((max(F(0), gamma - sum((a * b for a, b in zip(u, z)), F(0))) ** 2 for z in rows), F(0))
    return R2, gamma * gamma / N, T * slack / N


@settings(max_examples=25, deadline=None)
@given(
    st.one_of(nonseparable_datasets(max_dim=3, max_samples=5), label_noise_datasets(max_dim=3, max_samples=5))
    .flatmap(lambda ds: st.tuples(st.just(ds), orderings(ds.n_samples)))
    .filter(lambda pair: isinstance(pair[1], (str, type(None)))),
    st.integers(1, 4),
)
def test_the_bound_holds_on_every_run(pair: tuple[Dataset, object], T: int) -> None:
    ds, order = pair
    assert not certify(ds).separable
    fs = nonseparable_bound(ds, passes=T, order=order)  # type: ignore[arg-type]
    run = run_perceptron(ds, order=order, max_epochs=T)  # type: ignore[arg-type]
    assert fs.passes == T and fs.checks == T and fs.mistakes == run.mistakes
    R2, gamma2, deviation2 = _independent_numbers(ds, list(fs.u), fs.gamma, T)
    assert (fs.R2, fs.gamma2, fs.deviation2) == (R2, gamma2, deviation2)
    with mpmath.workdps(50):
        bound = (mpmath.sqrt(_mp(R2)) + mpmath.sqrt(_mp(deviation2))) ** 2 / _mp(gamma2)
        assert abs(_high(fs.bound) - bound) <= bound * mpmath.mpf(10) ** -40
    # k gamma^2 <= (R + D)^2 decided exactly: k gamma^2 - R^2 - D^2 <= 2 R D, squared when positive
    # (a 50-digit evaluation rounds an exact tie, e.g. R = 0, D^2 = 8, gamma^2 = 4, k = 2, below)
    excess = fs.mistakes * gamma2 - R2 - deviation2
    assert excess <= 0 or excess * excess <= 4 * R2 * deviation2
    # the trusted checker accepts it as a certificate file's claim
    text_order = "natural" if order is None else str(order)
    doc = certificate_document(ds, certify(ds), run, text_order, fs.claim())
    assert check_document(ds, doc).valid


def test_xor() -> None:
    fs = nonseparable_bound(XOR, max_epochs=6)
    # every presentation of XOR in natural order is a mistake (w returns to 0 after each pass)
    assert (fs.passes, fs.mistakes) == (6, 24)
    assert fs.bound_float is not None and 24 <= fs.bound_float
    # with u = (1, 0, 0) and gamma = 1 fixed: margins 0, 0, 1, -1, d = 1, 1, 0, 2, D^2 = 6 T
    fixed = nonseparable_bound(XOR, max_epochs=6, direction=[1, 0, 0], gamma=F(1))
    assert (fixed.gamma2, fixed.deviation2, fixed.R2) == (1, 36, 3)
    assert fixed.bound_float == pytest.approx((math.sqrt(3) + 6) ** 2)
    assert not fixed.bound < fs.bound  # the optimized gamma is at least as good


def test_label_noise() -> None:
    # a separable line with two labels flipped
    ds = Dataset.from_arrays([[1, 0], [2, 1], [0, 1], [-1, -1], [-2, 0], [1, 1]], [1, 1, 1, -1, -1, -1])
    assert not certify(ds).separable
    fs = nonseparable_bound(ds, max_epochs=20)
    assert fs.passes == 20 and fs.mistakes == run_perceptron(ds, max_epochs=20).mistakes
    assert fs.bound_float is not None and fs.mistakes <= fs.bound_float < 20 * ds.n_samples


def test_a_forged_run_is_caught_by_fs1() -> None:
    real = run_perceptron(XOR, max_epochs=3)
    forged = RunRecord(real.weights, [(0, 0)] * 10_000, 3, False)
    with pytest.raises(InvariantViolation) as info:
        nonseparable_bound(XOR, run=forged)
    assert info.value.theorem == "FS1" and "after pass 1" in str(info.value)


def test_bad_arguments() -> None:
    with pytest.raises(InputError, match="passes"):
        nonseparable_bound(XOR, passes=0, run=run_perceptron(XOR, max_epochs=1))
    with pytest.raises(InputError, match="direction"):
        nonseparable_bound(XOR, max_epochs=2, direction=[1, 0])
    with pytest.raises(InputError, match="direction"):
        nonseparable_bound(XOR, max_epochs=2, direction=[0, 0, 0])
    with pytest.raises(InputError, match="gamma"):
        nonseparable_bound(XOR, max_epochs=2, gamma=F(1))
    empty = Dataset.from_integer_rows([[], []], 1, [1, -1], bias=0)
    with pytest.raises(InputError, match="no coordinates"):
        nonseparable_bound(empty, max_epochs=2)


def test_all_zero_patterns_give_the_trivial_bound() -> None:
    # z = 0 twice: every presentation is a mistake (w.z = 0), R = 0, every margin is 0, so
    # D^2 = T m gamma^2 / ||u||^2 and the bound is exactly T m
    zeros = Dataset.from_arrays([[0], [0]], [1, -1], bias=0)
    fs = nonseparable_bound(zeros, max_epochs=3)
    assert (fs.mistakes, fs.R2) == (6, 0)
    assert (fs.bound.x, fs.bound.y * fs.bound.p) == (6, 0)


# ------------------------------------------------------------------------------ the extremal family


@pytest.mark.parametrize(("n", "T"), [(1, 1), (4, 2), (9, 3)])
def test_the_extremal_family_counts(n: int, T: int) -> None:
    # scale 1: n mistakes on e_1..e_n, one on the copy; each later pass errs on e_1 (w.e_1 = 0)
    # and on the copy. Scale 1/4: the copy lowers w_1 by 1/4 per pass, so e_1 errs again only
    # once w_1 reaches 0 (pass 5): n + T mistakes while T <= 4.
    assert (
        nonseparable_bound(fs_extremal_dataset(n, 1), passes=T, direction=[1] * n).mistakes == n + 2 * T - 1
    )
    assert nonseparable_bound(fs_extremal_dataset(n, F(1, 4)), passes=T, direction=[1] * n).mistakes == n + T


def test_the_extremal_family_nearly_attains_the_bound() -> None:
    assert extremal_ratio(200) > 0.99
    assert extremal_ratio(20) < extremal_ratio(200) <= 1
    with pytest.raises(ValueError, match="size"):
        fs_extremal_dataset(0)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(-3000, 3000), min_size=150, max_size=400, unique=True),
    st.integers(1, 30),
    st.integers(1, 5000),
    st.integers(1, 12),
)
def test_the_float_prefilter_keeps_the_exact_choice(margins: list[int], N: int, R2: int, T: int) -> None:
    # with more than 64 candidates only those whose float interval can hold the least bound
    # are compared exactly: the result must be the exhaustive exact comparison's, bit for bit
    import novikoff.reference.nonseparable as ns

    filtered = best_gamma(margins, N, R2, T)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ns, "_plausible_minima", lambda candidates, *rest: list(candidates))
        exhaustive = best_gamma(margins, N, R2, T)
    assert filtered == exhaustive and type(filtered[0]) is F
    for a in set(margins):  # and the guarantee itself: no breakpoint is better
        if a > 0:
            assert filtered[1] <= _value_at(F(a), [F(v) for v in margins], F(N), F(R2), T)


def test_integer_and_fraction_margins_give_the_same_gamma() -> None:
    margins = [(-1) ** i * (i * 7919 % 1000) for i in range(500)]
    as_ints = best_gamma(margins, 13, 10**6, 9)
    as_fractions = best_gamma([F(v) for v in margins], F(13), F(10**6), 9)
    assert as_ints == as_fractions and type(as_ints[0]) is F
