"""RC1, the linear class's empirical Rademacher bound (the IJCAI paper's section 3): its proof,
broken copies, and the numeric check on the replication's data."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from novikoff.errors import InputError
from novikoff.proofs.core import FailureKind, check_obligation
from novikoff.proofs.msvmav import rc1_obligation as obligation
from novikoff.proofs.registry import headline_obligation
from novikoff.proofs.wrong_variants import scale_claim
from novikoff.reference.rademacher import rademacher_check
from novikoff.spec import THEOREMS
from novikoff.spec.msvmav import RC1


def test_the_proof_checks_and_broken_copies_fail() -> None:
    assert check_obligation(obligation()).ok
    bad = check_obligation(scale_claim(obligation(), sp.Rational(99, 100)))
    assert not bad.ok and bad.kind == FailureKind.RESIDUAL
    ob = obligation()
    no_jensen = dataclasses.replace(ob, hypotheses={k: v for k, v in ob.hypotheses.items() if k != "jensen"})
    result = check_obligation(no_jensen)
    assert not result.ok and "jensen" in result.message


def test_rc1_is_in_the_theorem_registry_with_its_proof() -> None:
    assert THEOREMS["RC1"] == (RC1,) and RC1.id == "RC1"
    registered = headline_obligation("RC1")
    assert registered.claim == obligation().claim and check_obligation(registered).ok


def _wdbc_rows(n: int) -> list[list[Fraction]]:
    from sklearn.datasets import load_breast_cancer

    X, _ = load_breast_cancer(return_X_y=True)
    X = (X - X.min(0)) / np.ptp(X, 0)
    return [[Fraction(f"{v:.2f}") for v in row] + [Fraction(1)] for row in X[:n]]


def test_the_bound_holds_on_the_replications_data_and_matches_numpy() -> None:
    rows = _wdbc_rows(8)
    check = rademacher_check(rows, Fraction(2))
    assert check.holds and check.lhs < check.rhs
    A = np.array([[float(v) for v in r] for r in rows])
    e1 = np.mean([np.linalg.norm(np.array(s) @ A) for s in itertools.product((1, -1), repeat=8)])
    assert np.isclose(check.e1, e1, rtol=1e-12)
    assert np.isclose(check.rhs, np.sqrt(float(check.r2)) * 2 / np.sqrt(8), rtol=1e-12)
    assert check.e2 == sum(sum(v * v for v in r) for r in rows)


def test_orthogonal_rows_of_equal_norm_attain_the_bound() -> None:
    rows = [[Fraction(int(i == j)) for j in range(5)] for i in range(5)]
    check = rademacher_check(rows)
    assert check.holds and np.isclose(check.lhs, check.rhs, rtol=1e-15)


@pytest.mark.parametrize(
    ("rows", "lam", "message"),
    [([], Fraction(1), "n must be in 1..16, got 0"), ([[Fraction(1)]], Fraction(0), "Lam must be > 0")],
)
def test_bad_input_is_a_clear_error(rows: list[list[Fraction]], lam: Fraction, message: str) -> None:
    with pytest.raises(InputError, match=message):
        rademacher_check(rows, lam)
