"""The exact large-margin reference's integer fast path (engine="integer") against the plain loop
(engine="plain", the definition): the same run on generated data for PDM, PFM and PDM-succ with
every option, on the shared benchmark files, and at every arithmetic tier of the kept values;
the thresholds and the guessed repeat counts against the rules' own tests; and the checks that
catch a wrong state."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.readers import load_dataset
from novikoff.data.transforms import soft_margin
from novikoff.errors import InputError, InvariantViolation
from novikoff.fuzz.strategies import certified_separable, nonseparable_datasets, orderings, separable_datasets
from novikoff.reference import large_margin_integer
from novikoff.reference.large_margin import (
    LargeMarginRun,
    PDMRule,
    PFMRule,
    Rule,
    repeat_count,
    repeat_count_near,
    run_pdm,
    run_pdm_succ,
    run_pfm,
)
from novikoff.reference.large_margin_integer import INT64_VALUES_LIMIT, DecisionValues
from novikoff.runtime.runs import ReferenceEngine

EPS = st.sampled_from([Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 3), Fraction(1, 10)])
BETA = st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 3), Fraction(1), Fraction(5, 2)])
ALGORITHMS = st.sampled_from(["pdm", "pfm", "pdm-succ"])


def run(
    algorithm: str, ds: Dataset, engine: ReferenceEngine, *, eps: Fraction, beta: Fraction, **kw: Any
) -> LargeMarginRun:
    if algorithm == "pdm":
        return run_pdm(ds, eps, engine=engine, **kw)
    if algorithm == "pfm":
        return run_pfm(ds, beta, engine=engine, **kw)
    return run_pdm_succ(
        ds, [e for e in (Fraction(1, 2), Fraction(1, 4)) if e > eps] + [eps], engine=engine, **kw
    )


def assert_same_run(a: LargeMarginRun, b: LargeMarginRun) -> None:
    """Everything a run reports, compared field by field (the arithmetic record aside)."""
    assert a.updates == b.updates
    assert a.weights == b.weights
    assert a.integer_state == b.integer_state
    assert (a.epochs, a.converged, a.stopped, a.stages) == (b.epochs, b.converged, b.stopped, b.stages)
    assert (a.checks, a.invariants_checked, a.parameters) == (b.checks, b.invariants_checked, b.parameters)


def both(algorithm: str, ds: Dataset, **kw: Any) -> tuple[LargeMarginRun, LargeMarginRun]:
    plain = run(algorithm, ds, "plain", **kw)
    fast = run(algorithm, ds, "integer", **kw)
    assert plain.arithmetic == () and fast.arithmetic[0] in ("int64", "python-int")
    assert_same_run(plain, fast)
    return plain, fast


def pfm_multiple_ok(ds: Dataset, beta: Fraction) -> bool:
    """run_pfm accepts multiple updates only for beta below every ||z_i||."""
    Z, s = ds.scaled_patterns
    return all(beta * beta * s * s < sum(v * v for v in z) for z in Z)


# --- the same run, generated data ---------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    ds=separable_datasets(max_samples=8, max_dim=4),
    algorithm=ALGORITHMS,
    eps=EPS,
    beta=BETA,
    multiple=st.booleans(),
    data=st.data(),
)
def test_integer_engine_makes_the_plain_run(
    ds: Dataset, algorithm: str, eps: Fraction, beta: Fraction, multiple: bool, data: st.DataObject
) -> None:
    assume(not (multiple and algorithm == "pfm" and not pfm_multiple_ok(ds, beta)))
    order = data.draw(st.one_of(st.none(), st.just("shuffle:3"), orderings(ds.n_samples)))
    both(algorithm, ds, eps=eps, beta=beta, multiple_updates=multiple, order=order, max_epochs=60)


@settings(max_examples=25, deadline=None)
@given(
    pair=certified_separable(max_samples=6, max_dim=3), algorithm=ALGORITHMS, eps=EPS, multiple=st.booleans()
)
def test_integer_engine_runs_the_same_theorem_checks(
    pair: tuple[Dataset, SeparableCertificate], algorithm: str, eps: Fraction, multiple: bool
) -> None:
    ds, cert = pair
    beta = Fraction(0) if algorithm == "pfm" else Fraction(1, 10)  # beta = 0 < gamma: P1 applies
    plain, _ = both(
        algorithm, ds, eps=eps, beta=beta, multiple_updates=multiple, certificate=cert, max_epochs=3000
    )
    if plain.mistakes:
        assert plain.checks["D3"] == f"held at all {plain.mistakes} updates"


@settings(max_examples=25, deadline=None)
@given(
    ds=nonseparable_datasets(max_samples=6, max_dim=3), algorithm=ALGORITHMS, eps=EPS, multiple=st.booleans()
)
def test_integer_engine_stops_where_the_plain_run_stops(
    ds: Dataset, algorithm: str, eps: Fraction, multiple: bool
) -> None:
    beta = Fraction(0)
    assume(not (multiple and algorithm == "pfm" and not pfm_multiple_ok(ds, beta)))
    plain, _ = both(
        algorithm, ds, eps=eps, beta=beta, multiple_updates=multiple, max_epochs=20, max_updates=60
    )
    assert not plain.converged


def test_max_updates_stops_both_before_the_same_update() -> None:
    ds = Dataset.from_fraction_rows([[Fraction(3), Fraction(1)], [Fraction(-1), Fraction(2)]], [1, -1])
    for multiple in (False, True):
        plain, _ = both(
            "pdm", ds, eps=Fraction(1, 100), beta=Fraction(0), multiple_updates=multiple, max_updates=5
        )
        assert plain.stopped.startswith("stopped before update") and plain.mistakes <= 5


# --- the same run, the shared benchmark files (sonar and vec50, capped) --------------------------


@pytest.mark.parametrize("multiple", [False, True])
@pytest.mark.parametrize("algorithm", ["pdm", "pfm", "pdm-succ"])
def test_integer_engine_on_the_benchmark_files(coq_dir: Path, algorithm: str, multiple: bool) -> None:
    sonar = soft_margin(load_dataset(coq_dir / "rocks_and_mines.csv"), 1)
    vec50 = load_dataset(coq_dir / "vec50_1.csv")
    for ds, epochs in ((sonar, 15), (vec50, 40)):
        both(
            algorithm,
            ds,
            eps=Fraction(1, 10),
            beta=Fraction(1, 100),
            multiple_updates=multiple,
            max_epochs=epochs,
            order="shuffle:1" if multiple else None,
        )


@pytest.mark.parametrize("cached", [True, False])
def test_natural_order_multiple_updates_on_sonar_make_the_plain_run(
    coq_dir: Path, cached: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # natural order without a certificate: DecisionValues.run's int64 stretch, n = 1 decided by
    # the next threshold, n >= 2 by the closed form, n G_k from the cache of multiples or not
    if not cached:
        monkeypatch.setattr(large_margin_integer, "_MULTIPLES", 0)
    sonar = soft_margin(load_dataset(coq_dir / "rocks_and_mines.csv"), 1)
    for algorithm in ("pdm", "pfm", "pdm-succ"):
        _, fast = both(
            algorithm, sonar, eps=Fraction(1, 10), beta=Fraction(1, 100), multiple_updates=True, max_epochs=25
        )
        runs = [len(list(g)) for _, g in itertools.groupby(fast.updates)]
        if algorithm != "pfm":  # PFM(1/100) repeats no update here
            assert max(runs) >= 2 and min(runs) == 1  # both kinds of count were made


def test_pattern_array_gives_the_same_values_and_a_wrong_array_is_refused() -> None:
    ds = scaled(ROWS, LABELS, 3)
    Z, _ = ds.scaled_patterns
    A = ds.pattern_array
    assert A is not None
    a, b = DecisionValues(Z, [0, 0, 0], A), DecisionValues(Z, [0, 0, 0])
    for values in (a, b):
        values.add(1, 2)
        values.add(3, 1)
    assert a.p.tolist() == b.p.tolist() and a.weights() == b.weights()
    with pytest.raises(ValueError, match=r"array must be int64 of shape \(4, 3\)"):
        DecisionValues(Z, [0, 0, 0], A[:3])
    with pytest.raises(ValueError, match="array must be int64"):
        DecisionValues(Z, [0, 0, 0], A.astype(np.float64))


def test_run_refuses_a_count_without_its_search() -> None:
    values = DecisionValues([[1]], [0])
    with pytest.raises(ValueError, match="count needs search"):
        values.run([(0, None)], lambda t, w2: 0, t=0, w2=0, updates=[], max_updates=5, count=lambda *a: 1)


# --- the arithmetic tiers of the kept values -----------------------------------------------------


def scaled(rows: list[list[int]], labels: list[int], factor: int) -> Dataset:
    return Dataset.from_fraction_rows([[Fraction(v * factor) for v in r] for r in rows], labels, bias=0)


ROWS = [[3, 1, 0], [-1, 2, 1], [2, -3, 1], [1, 1, -2]]
LABELS = [1, -1, 1, -1]


@pytest.mark.parametrize(
    ("factor", "gram"),
    [
        (1, "float64"),  # peak^2 d <= 2^53
        (2**26, "int64"),  # 2^53 < peak^2 d <= 2^63 - 1
        (2**40, "flint"),  # Gram entries beyond int64
        (2**70, "flint"),  # the rows themselves beyond int64
    ],
)
def test_every_tier_makes_the_plain_run(factor: int, gram: str) -> None:
    ds = scaled(ROWS, LABELS, factor)
    Z, _ = ds.scaled_patterns
    assert DecisionValues(Z, [0] * ds.dimension).gram_arithmetic == gram
    for algorithm in ("pdm", "pdm-succ"):
        for multiple in (False, True):
            _, fast = both(
                algorithm,
                ds,
                eps=Fraction(1, 10),
                beta=Fraction(0),
                multiple_updates=multiple,
                max_epochs=200,
            )
            # from W = 0 the values start as int64; an update on z_k adds n G_k with
            # max |G_ik| >= ||Z_k||^2 >= factor^2, beyond 2^62 for factor >= 2^40
            assert fast.arithmetic[0] == "int64"
            assert ("python-int" in fast.arithmetic) == (factor >= 2**40 and fast.mistakes > 0)


def test_sparse_gram_columns_at_the_python_int_tier_make_the_plain_run() -> None:
    # the soft-margin extension makes most of each row zero: Gram columns over the non-zeros
    ds = soft_margin(scaled(ROWS * 6, LABELS * 6, 2**40), 1)  # d = 27, at most 4 non-zeros a row
    Z, _ = ds.scaled_patterns
    values = DecisionValues(Z, [0] * ds.dimension)
    assert values.gram_arithmetic == "flint"
    for k in range(len(Z)):  # the column equals its definition, Z Z_k, entry by entry
        assert values.column(k)[0].tolist() == [sum(a * b for a, b in zip(z, Z[k])) for z in Z]
    for algorithm in ("pdm", "pfm", "pdm-succ"):
        both(algorithm, ds, eps=Fraction(1, 10), beta=Fraction(0), multiple_updates=True, max_epochs=100)


def test_sparse_gram_columns_split_into_heavy_and_light_columns_are_exact() -> None:
    # rows with at most 2 non-zeros of 12 (< d/4) at the flint tier: column 0 has a non-zero in
    # every row (heavy: one fmpz product), columns 1-6 two or one (light: Python ints), 7-11 none
    big = 2**40
    Z = [[big + i] + [0] * 11 for i in range(6)]
    for i, j in enumerate([1, 1, 2, 3, 6, 6]):
        Z[i][j] = -(big * (j + 2)) - i
    Z[5][0] = 0  # row 5: a non-zero in a light column only
    values = DecisionValues(Z, [0] * 12)
    assert values.gram_arithmetic == "flint"
    for k in range(len(Z)):
        assert values.column(k)[0].tolist() == [sum(a * b for a, b in zip(z, Z[k])) for z in Z]
        assert values.column(k)[1] == max(abs(sum(a * b for a, b in zip(z, Z[k]))) for z in Z)


def test_values_move_to_python_ints_exactly_when_the_int64_bound_would_break() -> None:
    # one row, G = [[q]], q = 2^60: four updates reach 2^62, the fifth needs Python ints
    Z = [[2**30]]
    values = DecisionValues(Z, [0])
    for k in range(1, 5):
        values.add(0, 1)
        assert values.arithmetic == "int64" and values.value(0) == k * 2**60
    values.add(0, 1)
    assert values.used == ["int64", "python-int"] and values.value(0) == 5 * 2**60
    values.add(0, 3)
    assert values.value(0) == 8 * 2**60 and values.minimum() == 8 * 2**60
    assert values.weights() == [8 * 2**30]
    assert INT64_VALUES_LIMIT == 2**62


def test_weights_beyond_the_float64_bound_are_exact_and_checked() -> None:
    # float64 Gram (peak^2 d <= 2^53) but peak sum |W| > 2^53: Z W and Z^T a by exact integers
    Z = [[2**20, 1], [3, -(2**20)]]
    W0 = [2**40, 5]
    values = DecisionValues(Z, W0)
    assert values.gram_arithmetic == "float64"
    assert values.p.tolist() == [2**60 + 5, 3 * 2**40 - 5 * 2**20]
    values.add(0, 3)
    values.add(1, 2**33)
    expected = [2**40 + 3 * 2**20 + 2**33 * 3, 5 + 3 - 2**53]
    assert values.weights() == expected
    values.p[0] += 1
    with pytest.raises(InvariantViolation, match="integer-path"):
        values.weights()


def test_values_start_from_nonzero_weights_exactly() -> None:
    Z = [[1, 2], [3, -4], [2**70, 1]]
    W0 = [5, -7]
    values = DecisionValues(Z, W0)
    assert [values.value(i) for i in range(3)] == [5 - 14, 15 + 28, 5 * 2**70 - 7]
    assert values.arithmetic == "python-int"
    values.add(1, 2)
    assert values.weights() == [5 + 6, -7 - 8]


# --- the search ----------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    p=st.lists(st.integers(-(2**61), 2**61), min_size=1, max_size=700),
    data=st.data(),
)
def test_first_at_most_is_the_first_position_in_presentation_order(p: list[int], data: st.DataObject) -> None:
    m = len(p)
    values = DecisionValues([[1]] * m, [0])  # any rows: p is set below
    values.p = np.array(p, dtype=np.int64)
    values.bound = max(abs(v) for v in p) + data.draw(st.integers(0, 5))
    threshold = data.draw(st.one_of(st.none(), st.integers(-(2**62), 2**62), st.sampled_from(p)))
    order = data.draw(
        st.one_of(st.none(), st.permutations(range(m)).map(lambda o: np.array(o, dtype=np.intp)))
    )
    start = data.draw(st.integers(0, m))
    seq = list(range(m)) if order is None else order.tolist()
    expected = next((j for j in range(start, m) if threshold is None or p[seq[j]] <= threshold), -1)
    assert values.first_at_most(threshold, order, start) == expected


def test_first_at_most_finds_a_single_hit_at_every_position_across_the_blocks() -> None:
    m = 3000  # several search blocks
    values = DecisionValues([[1]] * m, [0])
    values.bound = 10
    reverse = np.arange(m - 1, -1, -1, dtype=np.intp)
    for h in range(m):
        values.p = np.full(m, 10, dtype=np.int64)
        values.p[h] = -3
        assert values.first_at_most(-3, None, 0) == h
        assert values.first_at_most(-4, None, 0) == -1
        assert values.first_at_most(-3, reverse, 0) == m - 1 - h
        assert values.first_at_most(-3, None, h + 1) == -1


# --- thresholds and repeat counts against the rules' own tests ----------------------------------


@given(
    t=st.integers(0, 50),
    p=st.integers(-(10**6), 10**6),
    w2=st.integers(0, 10**12),
    s=st.integers(1, 100),
    eps=EPS,
    beta=BETA | st.builds(Fraction, st.integers(0, 50), st.integers(1, 9)),
)
def test_threshold_decides_exactly_as_the_rule(
    t: int, p: int, w2: int, s: int, eps: Fraction, beta: Fraction
) -> None:
    rules: list[Rule] = [PDMRule(eps), PFMRule(beta)]
    for rule in rules:
        T = rule.threshold(t, w2, s)
        assert rule.updates(t, p, w2, s) == (T is None or p <= T)
        if T is not None:  # T is the boundary itself: T updates, T + 1 does not
            assert rule.updates(t, T, w2, s) and not rule.updates(t, T + 1, w2, s)


@given(
    t=st.integers(0, 40),
    p=st.integers(-60, 60),
    q=st.integers(0, 30),
    extra=st.integers(0, 300),
    rule=st.one_of(EPS.map(PDMRule), st.sampled_from([0, 1, 2, 3]).map(lambda b: PFMRule(Fraction(b)))),
    guess=st.integers(-5, 400),
    limit=st.one_of(st.none(), st.integers(1, 50)),
)
def test_repeat_count_near_is_repeat_count_from_any_guess(
    t: int, p: int, q: int, extra: int, rule: Rule, guess: int, limit: int | None
) -> None:
    w2 = (p * p // q + 1 if q else p * p) + extra  # Cauchy-Schwarz: p^2 <= w2 q
    assume(q > 0 or p == 0)
    if limit is None:  # else the count need not exist: z = 0, or PFM with beta >= ||z||
        assume(q > 0 and (isinstance(rule, PDMRule) or rule.beta**2 < q))
    assume(rule.updates(t, p, w2, 1))
    expected = repeat_count(rule, t, p, q, w2, 1, limit)
    assert repeat_count_near(rule, t, p, q, w2, 1, limit, guess) == expected
    assert repeat_count_near(rule, t, p, q, w2, 1, limit, rule.repeat_guess(t, p, q, w2, 1)) == expected


@settings(max_examples=300, deadline=None)
@given(
    t=st.integers(0, 10**6),
    w=st.lists(st.integers(-(10**9), 10**9), min_size=3, max_size=3),
    z=st.lists(st.integers(-(10**5), 10**5), min_size=3, max_size=3),
    s=st.integers(1, 10**4),
    rule=st.one_of(
        EPS.map(PDMRule),
        st.builds(Fraction, st.integers(0, 10**6), st.integers(1, 10**6)).map(PFMRule),
    ),
)
def test_closed_form_count_is_repeat_count(t: int, w: list[int], z: list[int], s: int, rule: Rule) -> None:
    # p, w2, q from real vectors (so Cauchy-Schwarz holds as in a run), the test holding at n = 0
    p, w2, q = sum(a * b for a, b in zip(w, z)), sum(a * a for a in w), sum(b * b for b in z)
    assume(rule.updates(t, p, w2, s))
    n = rule.repeat_count_exact(t, p, q, w2, s)
    if isinstance(rule, PFMRule) and rule.beta**2 * s * s >= q:  # no count exists: refused
        assert n is None
        return
    if q == 0:
        assert n is None
        return
    assert n == repeat_count(rule, t, p, q, w2, s)
    assert n == rule.repeat_count_function(s)(t, p, q, w2)


# --- checks that catch a wrong state, and bad input ----------------------------------------------


def test_weights_refuse_values_that_are_not_z_times_w() -> None:
    values = DecisionValues([[1, 2], [3, 4]], [0, 0])
    values.add(0, 1)
    values.p[1] += 1  # a drifted decision value
    with pytest.raises(InvariantViolation, match="integer-path failed at the end of a stage") as info:
        values.weights()
    assert info.value.values == {"updates": 1}


def test_unknown_engine_is_an_input_error() -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1])
    for call in (
        lambda: run_pdm(ds, Fraction(1, 2), engine="fast"),  # type: ignore[arg-type]
        lambda: run_pfm(ds, Fraction(0), engine="numba"),  # type: ignore[arg-type]
        lambda: run_pdm_succ(ds, [Fraction(1, 2)], engine=""),  # type: ignore[arg-type]
    ):
        with pytest.raises(InputError, match="engine must be one of integer, plain"):
            call()


def test_a_false_certificate_is_caught_by_d3_on_the_integer_engine() -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], [1, 1], bias=0)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    lie = SeparableCertificate(cert.lambdas, cert.pstar, cert.gamma2 * 4, cert.weights, cert.R2, cert.bound)
    with pytest.raises(InvariantViolation, match="D3"):
        run_pdm(ds, Fraction(1, 2), certificate=lie, engine="integer")
