"""The exact fast path (integer tiers) against the exact reference: identical runs, always."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.examples import basis_dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.exact.bigdot import small_times_big
from novikoff.fuzz import certified_separable, nonseparable_datasets, orderings
from novikoff.reference import run_perceptron
from novikoff.runtime.runs import RunRecord, TwinEngine
from novikoff.twins.exact import exact_perceptron
from novikoff.twins.integer import IntegerPatterns

TIERS = [None, "int64", "python-int"]


def _same_run(a: RunRecord, b: RunRecord) -> None:
    assert a.updates == b.updates
    assert a.epochs == b.epochs and a.converged == b.converged
    assert tuple(a.weights) == tuple(b.weights)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(TIERS), st.sampled_from(["auto", "numpy"]))
def test_exact_twin_equals_the_reference_with_invariants(
    data: st.DataObject, tier: str | None, engine: TwinEngine
) -> None:
    ds, cert = data.draw(certified_separable())
    order = data.draw(orderings(ds.n_samples))
    ref = run_perceptron(ds, order=order, certificate=cert, max_epochs=10_000, track_norms=True)
    fast = exact_perceptron(
        ds, order=order, certificate=cert, max_epochs=10_000, track_norms=True, start_tier=tier, engine=engine
    )
    _same_run(ref, fast)
    assert fast.norm2_history == ref.norm2_history
    assert fast.invariants_checked == ref.invariants_checked
    assert fast.arithmetic[0] == (tier or fast.arithmetic[0])


@settings(max_examples=40, deadline=None)
@given(nonseparable_datasets(), st.integers(1, 5), st.sampled_from(TIERS))
def test_exact_twin_equals_the_reference_on_nonseparable_data(
    ds: Dataset, epochs: int, tier: str | None
) -> None:
    _same_run(run_perceptron(ds, max_epochs=epochs), exact_perceptron(ds, max_epochs=epochs, start_tier=tier))


def _wide_dataset() -> Dataset:
    rng = np.random.default_rng(3)
    rows = [[int(v) for v in rng.integers(-(2**40), 2**40, size=3)] for _ in range(12)]
    labels = [1 if sum(r) % 3 else -1 for r in rows]
    return Dataset.from_integer_rows(rows, 1, labels, bias=1)


def test_int64_moves_to_python_ints_before_it_would_overflow() -> None:
    # entries near 2^40: W.Z passes 2^63 within a few updates, where int64 would wrap
    ds = _wide_dataset()
    ref = run_perceptron(ds, max_epochs=40)
    fast = exact_perceptron(ds, max_epochs=40, start_tier="int64")
    _same_run(ref, fast)
    assert fast.arithmetic == ("int64", "python-int")
    assert max(abs(int(v)) for v in fast.weights) * 2**40 > 2**63  # int64 would have overflowed


def test_every_tier_change_mid_run_keeps_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.twins.exact as exact

    rng = np.random.default_rng(5)
    X = rng.integers(-8, 9, size=(60, 5))
    labels = [1 if v > 0 else -1 for v in X @ np.array([3, -2, 1, 4, -1]) + 0.5]
    ds = Dataset.from_integer_rows(X.tolist(), 1, labels, bias=1)
    ref = run_perceptron(ds, max_epochs=200)
    final = max(abs(int(v)) for v in ref.weights)
    assert ref.converged and final >= 40
    L = int(np.abs(X).sum(axis=1).max()) + 1
    # limits the run must cross: a quarter and a half of the final weight size
    monkeypatch.setattr(
        exact, "LIMITS", {"float64": final // 4 * L, "int64": final // 2 * L, "python-int": None}
    )
    fast = exact.exact_perceptron(ds, max_epochs=200)
    _same_run(ref, fast)
    assert fast.arithmetic == ("float64", "int64", "python-int")


def test_entries_beyond_int64_start_with_python_ints() -> None:
    ds = Dataset.from_integer_rows([[2**70, 1], [-(2**69), 3], [5, -(2**80)]], 1, [1, -1, 1], bias=1)
    ref, fast = run_perceptron(ds, max_epochs=20), exact_perceptron(ds, max_epochs=20)
    _same_run(ref, fast)
    assert fast.arithmetic == ("python-int",)


def test_float_arrays_convert_exactly() -> None:
    # 0.1 is 3602879701896397/2^55: the exact run is on that dyadic value, as the reference's
    X = np.array([[0.1, -0.3], [0.7, 0.2], [-0.25, 1e-3], [0.5, -0.5]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    ds = Dataset.from_arrays(X, y, bias=1)
    _same_run(run_perceptron(ds, max_epochs=50), exact_perceptron(X, y, bias=1.0, max_epochs=50))
    patterns = IntegerPatterns.from_float_patterns(np.array([[0.1, 1.0], [-3.0, 2.0**-60]]))
    assert patterns.scale == 2**60
    assert int(patterns.matrix("python-int")[0, 0]) == 3602879701896397 * 2**5


def test_an_overclaimed_margin_fails_in_the_fast_path_too() -> None:
    ds = basis_dataset(4)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    wrong = dataclasses.replace(cert, gamma2=cert.gamma2 * Fraction(101, 100))
    with pytest.raises(InvariantViolation) as info:
        exact_perceptron(ds, certificate=wrong)
    assert info.value.theorem in {"N1", "N3"} and "after update" in str(info.value)
    with pytest.raises(InvariantViolation, match="N2"):
        exact_perceptron(ds, certificate=dataclasses.replace(cert, R2=Fraction(1, 2)))


def test_bad_input_is_refused() -> None:
    with pytest.raises(InputError, match="NaN"):
        exact_perceptron(np.array([[np.nan, 1.0]]), np.array([1.0]))
    with pytest.raises(InputError, match="max_epochs"):
        exact_perceptron(basis_dataset(2), max_epochs=0)
    with pytest.raises(ValueError, match="start_tier"):
        exact_perceptron(basis_dataset(2), start_tier="float32")


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda c: st.tuples(
            st.lists(st.lists(st.integers(-(2**45), 2**45), min_size=c, max_size=c), min_size=1, max_size=5),
            st.lists(st.integers(-(2**3000), 2**3000), min_size=c, max_size=c),
        )
    )
)
def test_small_times_big_is_exact(case: tuple[list[list[int]], list[int]]) -> None:
    rows, v = case
    want = [sum(a * b for a, b in zip(r, v)) for r in rows]
    assert small_times_big(np.array(rows, dtype=np.int64), v) == want


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 50),
    st.integers(-(10**6), 10**6),
    st.integers(0, 10**8),
    st.fractions(min_value=Fraction(1, 10**4), max_value=100),
    st.fractions(min_value=Fraction(1, 10**4), max_value=100),
    st.integers(1, 7),
    st.integers(1, 50),
)
def test_the_integer_form_is_the_spec(
    k: int, pw: int, ww: int, gamma2: Fraction, R2: Fraction, pd: int, s: int
) -> None:
    from novikoff.exact.rational import RationalVector
    from novikoff.spec import N1, N2, N3
    from novikoff.twins.exact import n1_n2_n3_integer_form

    cert = SeparableCertificate(
        lambdas=RationalVector([1], 1),
        pstar=RationalVector([1], pd),
        gamma2=gamma2,
        weights=RationalVector([1], 1),
        R2=R2,
        bound=R2 / gamma2,
    )
    spec = (
        N1.check({"k": k, "gamma2": gamma2, "pstar_dot_w": Fraction(pw, pd * s)}),
        N2.check({"k": k, "R2": R2, "w_norm2": Fraction(ww, s * s)}),
        N3.check({"k": k, "gamma2": gamma2, "R2": R2}),
    )
    assert n1_n2_n3_integer_form(k, pw, ww, cert, s) == spec
