"""DS1, PDM-succ's stage ratio bound: its proof, broken copies the checker rejects, and the
runtime check on exact runs (and on a fabricated run that breaks it)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.fuzz.strategies import certified_separable
from novikoff.proofs.core import FailureKind, check_obligation
from novikoff.proofs.pdm.succ_ratio import energy_from_t0, energy_premise, obligation, sums_from_t0
from novikoff.proofs.wrong_variants import scale_claim
from novikoff.reference.large_margin import run_pdm_succ
from novikoff.reference.pdm_succ_ratio import check_pdm_succ_ratio
from novikoff.spec.pdm import PDM_SUCC_RATIO

EPS = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16)]


def ratio_bound(t0: int, eps_prev: float, eps: float, r2_over_g2: float) -> float:
    """The bound on t_k, by hand in floats: t0 (1/(1-eps')^2 + (R/gamma)^2/((1-2eps) t0))^(1/(2eps))."""
    return t0 * (1 / (1 - eps_prev) ** 2 + r2_over_g2 / ((1 - 2 * eps) * t0)) ** (1 / (2 * eps))


def test_the_proof_checks() -> None:
    result = check_obligation(obligation())
    assert result.ok, result.message


def test_a_constant_one_percent_too_good_is_rejected() -> None:
    result = check_obligation(scale_claim(obligation(), sp.Rational(99, 100)))
    assert not result.ok and result.kind == FailureKind.RESIDUAL


def test_without_the_previous_stage_the_certificate_has_nothing_to_stand_on() -> None:
    ob = obligation()
    hyps = {k: v for k, v in ob.hypotheses.items() if k != "previous"}
    result = check_obligation(dataclasses.replace(ob, hypotheses=hyps))
    assert not result.ok and "previous" in result.message


def test_a_wrong_previous_stage_bound_is_rejected() -> None:
    ob = obligation()
    _t, t0, _eps, eps_prev, _R2, gamma2 = PDM_SUCC_RATIO.symbols
    a_t0 = sp.Symbol("a_t0", nonnegative=True)
    hyps = dict(ob.hypotheses)
    hyps["previous"] = sp.LessThan(a_t0 * (1 - eps_prev), t0**2 * gamma2, evaluate=False)  # one power short
    result = check_obligation(dataclasses.replace(ob, hypotheses=hyps))
    assert not result.ok and result.kind == FailureKind.RESIDUAL


@settings(max_examples=25, deadline=None)
@given(certified_separable(), st.sampled_from([EPS, EPS[:3], [Fraction(1, 2), Fraction(1, 10)]]))
def test_every_exact_pdm_succ_run_satisfies_ds1(
    pair: tuple[Dataset, SeparableCertificate], eps: list[Fraction]
) -> None:
    ds, cert = pair
    run = run_pdm_succ(ds, eps, certificate=cert, max_epochs=5000)
    checks = check_pdm_succ_ratio(run.stages, cert.R2, cert.gamma2, converged=run.converged)
    stages = run.stages if run.converged else run.stages[:-1]
    applicable = [(a, b) for a, b in itertools.pairwise(stages) if a[1] >= 1 and b[0] < Fraction(1, 2)]
    assert len(checks) == len(applicable)
    r = float(cert.R2 / cert.gamma2)
    for (e0, t0, _), (e1, t1, _) in applicable:  # the same bound by hand, with a float margin
        assert t1 <= ratio_bound(t0, float(e0), float(e1), r) * (1 + 1e-9)


def test_ds1_applies_to_every_stage_below_one_half_of_a_real_run() -> None:
    ds = Dataset.from_fraction_rows(
        [[Fraction(2), Fraction(1)], [Fraction(-1), Fraction(3)], [Fraction(1, 2), Fraction(-1)]], [1, -1, 1]
    )
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = run_pdm_succ(ds, EPS, certificate=cert)
    assert run.converged and all(t >= 1 for _, t, _ in run.stages)
    checks = check_pdm_succ_ratio(run.stages, cert.R2, cert.gamma2)
    assert checks == {"DS1 (eps = 1/4)": "held", "DS1 (eps = 1/8)": "held", "DS1 (eps = 1/16)": "held"}


def test_a_fabricated_run_with_too_many_updates_fails_ds1() -> None:
    t0, t = 100, 10**7
    stages = [(Fraction(1, 2), t0, 3), (Fraction(1, 4), t, 9)]
    assert t > ratio_bound(t0, 0.5, 0.25, 10.0)  # the hand bound says so too
    with pytest.raises(InvariantViolation) as err:
        check_pdm_succ_ratio(stages, Fraction(10), Fraction(1))
    assert err.value.theorem == "DS1" and err.value.values["t"] == t
    # just below the hand bound it holds
    ok = math.floor(ratio_bound(t0, 0.5, 0.25, 10.0) * (1 - 1e-9))
    assert check_pdm_succ_ratio(
        [(Fraction(1, 2), t0, 3), (Fraction(1, 4), ok, 9)], Fraction(10), Fraction(1)
    ) == {"DS1 (eps = 1/4)": "held"}


def test_stages_at_or_above_one_half_and_an_unconverged_last_stage_are_skipped() -> None:
    stages = [(1.0, 5, 1), (0.5, 7, 1), (0.25, 10**9, 2)]
    assert check_pdm_succ_ratio(stages, Fraction(1), Fraction(1), converged=False) == {}
    with pytest.raises(InvariantViolation):
        check_pdm_succ_ratio(stages, Fraction(1), Fraction(1))


@pytest.mark.parametrize(
    ("stages", "message"),
    [
        ([(Fraction(1, 2), 3)], "stage 0 is not (eps, updates, epochs)"),
        ([("1/2", 3, 1)], "stage 0 has eps = '1/2', not a number"),
        ([(float("nan"), 3, 1)], "stage 0 has eps = nan, not finite"),
        ([(Fraction(3, 2), 3, 1)], "stage 0 has eps = 3/2 or updates = 3 out of range"),
        ([(Fraction(1, 2), -1, 1)], "stage 0 has eps = 1/2 or updates = -1 out of range"),
        (
            [(Fraction(1, 2), 5, 1), (Fraction(1, 4), 4, 1)],
            "stage 1 has fewer updates (4) than the stage before",
        ),
    ],
)
def test_bad_stages_are_clear_errors(stages: list[tuple[object, ...]], message: str) -> None:
    with pytest.raises(InputError) as err:
        check_pdm_succ_ratio(stages, Fraction(1), Fraction(1))  # type: ignore[arg-type]
    assert message in str(err.value)


def test_nonpositive_radius_or_margin_is_an_error() -> None:
    with pytest.raises(InputError, match="R2 and gamma2 must be positive"):
        check_pdm_succ_ratio([], Fraction(0), Fraction(1))


def test_the_energy_premise_is_proved_from_the_recursion() -> None:
    for ob in (energy_from_t0(), sums_from_t0(), energy_premise()):
        result = check_obligation(ob)
        assert result.ok, (ob.name, result.message)


def test_without_the_recursion_the_energy_induction_fails() -> None:
    ob = energy_from_t0()
    hyps = {k: v for k, v in ob.hypotheses.items() if k != "recursion"}
    result = check_obligation(dataclasses.replace(ob, hypotheses=hyps))
    assert not result.ok and "recursion" in result.message


def test_a_power_sum_bound_one_percent_too_good_is_rejected() -> None:
    result = check_obligation(scale_claim(sums_from_t0(), sp.Rational(99, 100)))
    assert not result.ok


def test_run_pdm_succ_reports_ds1_among_its_checks() -> None:
    ds = Dataset.from_fraction_rows(
        [[Fraction(2), Fraction(1)], [Fraction(-1), Fraction(3)], [Fraction(1, 2), Fraction(-1)]], [1, -1, 1]
    )
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = run_pdm_succ(ds, EPS, certificate=cert)
    ds1 = {k: v for k, v in run.checks.items() if k.startswith("DS1")}
    assert ds1 == check_pdm_succ_ratio(run.stages, cert.R2, cert.gamma2)
    assert set(ds1) == {"DS1 (eps = 1/4)", "DS1 (eps = 1/8)", "DS1 (eps = 1/16)"}
    assert not any(k.startswith("DS1") for k in run_pdm_succ(ds, EPS).checks)  # no certificate, no DS1
