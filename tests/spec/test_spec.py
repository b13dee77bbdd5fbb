"""The spec's statements evaluate exactly, enforce their hypotheses and refuse what they cannot decide."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from novikoff.spec import G1, N1, N2, N3, THEOREMS, HypothesisNotMet
from novikoff.spec.evaluate import compile_exact
from novikoff.spec.invariance import G1_PAD, G1_ROTATE, G1_SCALE

rationals = st.fractions(min_value=-50, max_value=50, max_denominator=30)


def test_every_statement_has_a_source_and_named_claim() -> None:
    for tid, statements in THEOREMS.items():
        for s in statements:
            assert s.id == tid and s.source and s.name and "_" in s.name
            assert {sym.name for sym in s.conclusion.free_symbols} <= {sym.name for sym in s.symbols}


def test_exact_not_float_decisions() -> None:
    x = sp.Symbol("x")
    f = compile_exact(sp.Le(x * 3, 1, evaluate=False))
    assert f({"x": Fraction(1, 3)}) is True
    # 0.1 + 0.2 <= 0.3 is false in floats, true exactly
    a, b = sp.symbols("a b")
    g = compile_exact(sp.Le(a + b, sp.Rational(3, 10), evaluate=False))
    assert g({"a": Fraction(1, 10), "b": Fraction(2, 10)}) is True


@pytest.mark.parametrize(
    "expr", [sp.sqrt(sp.Symbol("x")), sp.log(sp.Symbol("x")), sp.Symbol("x") ** sp.Rational(1, 3)]
)
def test_transcendental_expressions_are_refused(expr: sp.Basic) -> None:
    with pytest.raises(TypeError):
        compile_exact(expr)


def test_hypotheses_are_enforced() -> None:
    with pytest.raises(HypothesisNotMet):
        N3.check({"k": 1, "gamma2": 0, "R2": 1})
    with pytest.raises(HypothesisNotMet):
        N2.check({"k": -1, "R2": 1, "w_norm2": 0})
    with pytest.raises(KeyError):
        N1.check({"k": 1, "gamma2": 1})


@given(st.integers(0, 100), st.fractions(min_value=Fraction(1, 100), max_value=10), rationals)
def test_n1_n3_boundaries(k: int, g2: Fraction, slack: Fraction) -> None:
    assert N1.check({"k": k, "gamma2": g2, "pstar_dot_w": k * g2 + abs(slack)})
    if slack != 0:
        assert not N1.check({"k": k, "gamma2": g2, "pstar_dot_w": k * g2 - abs(slack)})
    assert N3.check({"k": k, "gamma2": g2, "R2": k * g2 if k else 1})


@given(st.fractions(min_value=Fraction(1, 50), max_value=50), rationals)
def test_g1_scale(c: Fraction, s: Fraction) -> None:
    assert G1_SCALE.check({"c": c, "s": s})


@given(rationals, rationals, rationals, rationals, rationals)
def test_g1_rotation_identity_exact(
    a: Fraction, w1: Fraction, w2: Fraction, z1: Fraction, z2: Fraction
) -> None:
    assert G1_ROTATE.check({"a": a, "w1": w1, "w2": w2, "z1": z1, "z2": z2})


def test_g1_rotation_identity_symbolic() -> None:
    lhs, rhs = G1_ROTATE.conclusion.lhs, G1_ROTATE.conclusion.rhs
    assert sp.simplify(lhs - rhs) == 0
    assert G1_PAD.check({"w1": 1, "w2": 2, "w3": 5, "z1": 3, "z2": 4, "z3": 0})
    with pytest.raises(HypothesisNotMet):
        G1_PAD.check({"w1": 1, "w2": 2, "w3": 5, "z1": 3, "z2": 4, "z3": 1})
    assert len(G1) == 4
