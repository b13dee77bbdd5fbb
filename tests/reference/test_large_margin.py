"""PFM, PDM and PDM-succ: the exact references check D1-D3 and P1 on every run, the
multiple-update count agrees three ways, and the float twins (dense and CSR, with and
without active sets) agree with the reference or satisfy D2 exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import assume, given
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.transforms import soft_margin
from novikoff.errors import InputError, InvariantViolation
from novikoff.fuzz.strategies import certified_separable, float_exact_separable, separable_datasets
from novikoff.reference.achieved import achieved_margin
from novikoff.reference.kernels import repeated_update_count, repeated_update_count_closed_form
from novikoff.reference.large_margin import (
    PDMRule,
    PFMRule,
    repeat_count,
    run_pdm,
    run_pdm_succ,
    run_pfm,
)
from novikoff.spec import D1_ABOVE_HALF, D2
from novikoff.spec.intervals import SquareRoot
from novikoff.twins.large_margin import pdm_succ_twin, pdm_twin, pfm_twin

EPS = st.sampled_from([Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 3), Fraction(1, 10)])


# --- the multiple-update count: definition (galloping), linear loop, closed form ----------------


@given(
    t=st.integers(0, 40),
    p=st.integers(-60, 60),
    q=st.integers(1, 30),
    extra=st.integers(0, 200),
    eps=EPS,
)
def test_pdm_repeat_count_three_ways(t: int, p: int, q: int, extra: int, eps: Fraction) -> None:
    w2 = max(p * p // q + 1, 0) + extra  # Cauchy-Schwarz: p^2 <= w2 q
    assume(p * p <= w2 * q)
    rule = PDMRule(eps)
    assume(rule.updates(t, p, w2, 1))
    n = repeat_count(rule, t, p, q, w2, 1)
    if t >= 1:  # the kernel's contract needs t >= 1
        assert n == repeated_update_count(t, p, q, w2, eps.numerator, eps.denominator)
    assert n == repeated_update_count_closed_form(t, p, q, w2, eps.numerator, eps.denominator)
    assert not rule.updates(t + n, p + n * q, w2 + 2 * n * p + n * n * q, 1)
    assert all(rule.updates(t + k, p + k * q, w2 + 2 * k * p + k * k * q, 1) for k in range(n))


def test_pdm_repeat_count_at_integer_roots_eps_one_half_and_p_zero() -> None:
    # eps = 1/2, t = 1, p = 0, q = 1, w2 = 2: quadratic n^2/2 + n - 1 <= 0 ... holds at n = 0 only
    assert repeat_count(PDMRule(Fraction(1, 2)), 1, 0, 1, 2, 1) == 1
    # eps = 1 (the perceptron): holds while t p <= 0, i.e. p + n q <= 0; p = -6, q = 3: n = 0, 1, 2 hold
    assert repeat_count(PDMRule(Fraction(1)), 1, -6, 3, 36, 1) == 3  # p + 2q = 0 is a tie: updates
    for t, p, q, w2, e in [
        (1, -6, 3, 36, Fraction(1)),
        (2, 0, 1, 4, Fraction(1, 2)),
        (3, -4, 2, 16, Fraction(1, 4)),
    ]:
        n = repeat_count(PDMRule(e), t, p, q, w2, 1)
        assert n == repeated_update_count_closed_form(t, p, q, w2, e.numerator, e.denominator)


@given(
    p=st.integers(-50, 50),
    q=st.integers(1, 30),
    extra=st.integers(0, 100),
    beta=st.sampled_from([0, 1, 2, 3]),
)
def test_pfm_repeat_count_is_the_first_failure(p: int, q: int, extra: int, beta: int) -> None:
    assume(beta * beta < q)
    w2 = p * p // q + 1 + extra
    rule = PFMRule(Fraction(beta))
    assume(rule.updates(0, p, w2, 1))
    n = repeat_count(rule, 0, p, q, w2, 1)
    assert not rule.updates(0, p + n * q, w2 + 2 * n * p + n * n * q, 1)
    assert all(rule.updates(0, p + k * q, w2 + 2 * k * p + k * k * q, 1) for k in range(n))


# --- the exact references check their theorems --------------------------------------------------


@given(pair=certified_separable(max_samples=7, max_dim=4), eps=EPS, multiple=st.booleans())
def test_pdm_reference_checks_d1_d2_d3_on_every_run(
    pair: tuple[Dataset, SeparableCertificate], eps: Fraction, multiple: bool
) -> None:
    ds, cert = pair
    run = run_pdm(ds, eps, certificate=cert, multiple_updates=multiple, max_epochs=5000)
    assert run.converged
    assert run.checks["D3"] == f"held at all {run.mistakes} updates"
    assert run.checks["D1"] in ("held",) or run.checks["D1"].startswith("undecided")
    if eps < 1 and run.mistakes:
        assert run.checks["D2"] == "held"


@given(pair=certified_separable(max_samples=6, max_dim=3), multiple=st.booleans())
def test_pfm_reference_checks_p1_below_the_margin(
    pair: tuple[Dataset, SeparableCertificate], multiple: bool
) -> None:
    ds, cert = pair
    # beta = gamma/2 rounded down to a rational: beta^2 <= gamma^2 / 4
    g2 = cert.gamma2 / 4
    beta = Fraction(int((g2 * 10**6) ** 0.5), 10**3)
    assume(beta * beta <= g2)
    run = run_pfm(ds, beta, certificate=cert, multiple_updates=multiple, max_epochs=5000)
    assert run.converged
    if run.mistakes:
        assert run.checks["P1"] == "held"
    assert isinstance(run.weights, tuple)  # the reference's weights are exact
    margin = achieved_margin(ds, run.weights, run.mistakes, cert)
    assert margin.sign > 0 and margin.gamma_prime2 > beta * beta  # PFM's guarantee at convergence


def test_a_false_certificate_is_caught_by_d3() -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], [1, 1], bias=0)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    lie = SeparableCertificate(cert.lambdas, cert.pstar, cert.gamma2 * 4, cert.weights, cert.R2, cert.bound)
    with pytest.raises(InvariantViolation, match="D3"):
        run_pdm(ds, Fraction(1, 2), certificate=lie)


def test_pdm_succ_checks_d2_after_every_stage_and_d1_only_for_the_first() -> None:
    ds = Dataset.from_fraction_rows(
        [[Fraction(2), Fraction(1)], [Fraction(-1), Fraction(3)], [Fraction(1, 2), Fraction(-1)]], [1, -1, 1]
    )
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = run_pdm_succ(ds, ["1/2", "1/4", "1/10"], certificate=cert)
    assert run.converged and [e for e, _, _ in run.stages] == [
        Fraction(1, 2),
        Fraction(1, 4),
        Fraction(1, 10),
    ]
    assert {k for k in run.checks if k.startswith("D2")} == {
        "D2 (eps = 1/2)",
        "D2 (eps = 1/4)",
        "D2 (eps = 1/10)",
    }
    assert [k for k in run.checks if k.startswith("D1")] == ["D1 (eps = 1/2)"]
    assert all(v == "held" or k == "D3" for k, v in run.checks.items())
    assert run.stages[-1][1] == run.mistakes


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda ds: run_pdm(ds, 0), "in \\(0, 1\\]"),
        (lambda ds: run_pdm(ds, "1.5"), "in \\(0, 1\\]"),
        (lambda ds: run_pfm(ds, -1), "beta must be >= 0"),
        (lambda ds: run_pdm_succ(ds, []), "empty"),
        (lambda ds: run_pdm_succ(ds, ["0.1", "0.2"]), "decrease strictly"),
        (lambda ds: soft_margin(ds, 0), "Delta must be > 0"),
        (lambda ds: run_pfm(ds, 5, multiple_updates=True), "not below min"),
        (lambda ds: pdm_twin(ds, eps=0), "in \\(0, 1\\]"),
        (lambda ds: pdm_succ_twin(ds, epsilons=["0.5", "0.5"]), "decrease strictly"),
        (lambda ds: pfm_twin(ds, beta=-1), "beta must be >= 0"),
    ],
)
def test_bad_parameters_are_clear_errors(call: object, message: str) -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1)], [Fraction(-1)]], [1, -1])
    with pytest.raises(InputError, match=message):
        call(ds)  # type: ignore[operator]


def test_non_separable_data_stops_at_max_epochs_and_soft_margin_makes_it_separable() -> None:
    xor = Dataset.from_fraction_rows(
        [
            [Fraction(0), Fraction(0)],
            [Fraction(1), Fraction(1)],
            [Fraction(0), Fraction(1)],
            [Fraction(1), Fraction(0)],
        ],
        [1, 1, -1, -1],
    )
    assert not certify(xor).separable
    run = run_pdm(xor, Fraction(1, 2), max_epochs=25)
    assert not run.converged and run.epochs == 25
    soft = soft_margin(xor, 1)
    assert soft.n_features == 2 + 4 and soft.bias == xor.bias
    cert = certify(soft)
    assert isinstance(cert, SeparableCertificate)
    assert run_pdm(soft, Fraction(1, 2), certificate=cert).converged


def test_achieved_margin_ratio_and_after_run_estimate() -> None:
    ds = Dataset.from_fraction_rows(
        [[Fraction(3), Fraction(1)], [Fraction(-1), Fraction(2)], [Fraction(1), Fraction(-2)]], [1, -1, 1]
    )
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = run_pdm(ds, Fraction(1, 10), certificate=cert)
    assert isinstance(run.weights, tuple)  # the reference's weights are exact
    a = achieved_margin(ds, run.weights, run.mistakes, cert)
    assert a.ratio_interval is not None and a.ratio2 is not None and a.after_run_estimate is not None
    lo, hi = a.ratio_interval
    assert 0 < lo <= hi <= 1 and lo * lo <= a.ratio2 <= hi * hi
    # (5): 1 - gamma'/gamma <= 1 - gamma' t/||w||, i.e. the estimate bounds the accuracy from above
    assert 1 - hi <= a.after_run_estimate
    assert a.ratio2 >= Fraction(81, 100)  # D2: gamma' >= (1 - eps) gamma
    # the maximum-margin weights achieve ratio exactly 1
    best = achieved_margin(ds, list(cert.weights), 0, cert)
    assert best.ratio_exact == 1 and best.after_run_estimate is None


# --- twins against the reference ------------------------------------------------------------------


@given(ds=float_exact_separable(max_samples=8), eps=EPS, multiple=st.booleans(), sparse=st.booleans())
def test_pdm_twin_reproduces_the_reference_on_exact_data(
    ds: Dataset, eps: Fraction, multiple: bool, sparse: bool
) -> None:
    ref = run_pdm(ds, eps, multiple_updates=multiple, max_epochs=300)
    X, y = ds.to_numpy()
    twin = pdm_twin(
        sps.csr_matrix(X) if sparse else X,
        y,
        eps=eps,
        bias=float(ds.bias),
        multiple_updates=multiple,
        max_epochs=300,
    )
    assert twin.updates == ref.updates and twin.converged == ref.converged and twin.epochs == ref.epochs
    assert [Fraction(float(v)) for v in twin.weights] == list(ref.weights)


@given(
    ds=float_exact_separable(max_samples=8),
    beta=st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(1)]),
    multiple=st.booleans(),
)
def test_pfm_twin_reproduces_the_reference_on_exact_data(ds: Dataset, beta: Fraction, multiple: bool) -> None:
    Z, s = ds.scaled_patterns
    assume(not multiple or all(beta * beta * s * s < sum(v * v for v in z) for z in Z))
    ref = run_pfm(ds, beta, multiple_updates=multiple, max_epochs=60, max_updates=50_000)
    twin = pfm_twin(ds, beta=beta, multiple_updates=multiple, max_epochs=60, max_updates=50_000)
    assert twin.updates == ref.updates and twin.converged == ref.converged


@given(ds=float_exact_separable(max_samples=8), multiple=st.booleans())
def test_pdm_succ_twin_reproduces_the_reference_on_exact_data(ds: Dataset, multiple: bool) -> None:
    eps = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)]
    ref = run_pdm_succ(ds, eps, multiple_updates=multiple, max_epochs=300)
    twin = pdm_succ_twin(ds, epsilons=eps, multiple_updates=multiple, max_epochs=300)
    assert twin.updates == ref.updates and [t for _, t, _ in twin.stages] == [t for _, t, _ in ref.stages]


@given(
    ds=separable_datasets(values="rational", max_samples=9, max_dim=5),
    eps=st.sampled_from([Fraction(1, 2), Fraction(1, 5), Fraction(1, 20)]),
    multiple=st.booleans(),
    active=st.booleans(),
    sparse=st.booleans(),
)
def test_every_twin_run_satisfies_d2_and_d1_exactly(
    ds: Dataset, eps: Fraction, multiple: bool, active: bool, sparse: bool
) -> None:
    X, y = ds.to_numpy()  # rational data rounded to floats: the twin's problem is these floats
    floats = Dataset.from_arrays(X, y, bias=float(ds.bias))
    cert = certify(floats)
    assume(isinstance(cert, SeparableCertificate))  # rounding may (rarely) break separability
    assert isinstance(cert, SeparableCertificate)
    twin = pdm_twin(
        sps.csr_matrix(X) if sparse else X,
        y,
        eps=eps,
        bias=float(ds.bias),
        multiple_updates=multiple,
        active_sets=active,
        max_epochs=2000,
    )
    assert twin.converged
    t = twin.mistakes
    w = [Fraction(float(v)) for v in twin.weights]
    w2 = sum((v * v for v in w), Fraction(0))
    decisions = [sum(a * b for a, b in zip(w, floats.pattern(i))) for i in range(floats.n_samples)]
    # the clean final pass: no sample satisfies the update condition, exactly
    assert all(t * s > (1 - eps) * w2 for s in decisions)
    values = {
        "t": Fraction(t),
        "eps": eps,
        "s": min(decisions),
        "w_norm": SquareRoot(w2),
        "gamma": SquareRoot(cert.gamma2),
    }
    assert D2.check_rigorous(values)
    if eps > Fraction(1, 2):
        assert D1_ABOVE_HALF.check({"t": t, "eps": eps, "R2": cert.R2, "gamma2": cert.gamma2})


def test_sparse_and_dense_twins_agree_with_active_sets() -> None:
    rng = np.random.default_rng(3)
    X = rng.integers(-4, 5, size=(60, 12)).astype(float)
    X[rng.random(X.shape) < 0.6] = 0.0
    w = rng.integers(-3, 4, size=12).astype(float)
    y = np.where(X @ w + 0.5 > 0, 1.0, -1.0)
    dense = pdm_twin(X, y, eps=Fraction(1, 10), multiple_updates=True, active_sets=True)
    sparse = pdm_twin(sps.csr_matrix(X), y, eps=Fraction(1, 10), multiple_updates=True, active_sets=True)
    assert dense.converged and dense.updates == sparse.updates and dense.mini_epochs == sparse.mini_epochs > 0


def test_a_huge_multiple_update_stops_at_max_updates_instead_of_looping() -> None:
    # z = e_1, e_2 and beta = 1 - 1e-12, just below ||z|| = 1: after e_1, the repeats on e_2
    # continue while n^2 (1 - beta^2) <= beta^2, about 707,000 times
    ds = Dataset.from_fraction_rows([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], [1, 1], bias=0)
    beta = 1 - Fraction(1, 10**12)
    ref = run_pfm(ds, beta, multiple_updates=True, max_updates=10_000)
    twin = pfm_twin(ds, beta=beta, multiple_updates=True, max_updates=10_000)
    for run in (ref, twin):
        assert not run.converged and "max_updates = 10000" in run.stopped and run.mistakes <= 10_000


def test_d3_inside_a_multiple_update_is_checked_at_every_single_update() -> None:
    # the vertex argument: a certificate that is false only at an interior k must be caught
    ds = Dataset.from_fraction_rows([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], [1, 1], bias=0)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = run_pdm(ds, Fraction(1, 10), certificate=cert, multiple_updates=True)
    assert run.checks["D3"] == f"held at all {run.mistakes} updates"
