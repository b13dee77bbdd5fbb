"""Every proof obligation checks; every deliberately wrong variant is rejected; the
checker's kinds fail for the right reasons."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from novikoff.proofs.core import (
    Certificate,
    Chain,
    FailureKind,
    Identity,
    Interval,
    Monotone,
    Obligation,
    Step,
    Term,
    check_obligation,
)
from novikoff.proofs.registry import SPEC_IDS, all_obligations, headline_proofs
from novikoff.proofs.statements import HeadlineProof, matches_statement
from novikoff.proofs.wrong_variants import WrongVariant, wrong_variants
from novikoff.spec import THEOREMS

OBLIGATIONS = all_obligations()
WRONG = wrong_variants()


@pytest.mark.parametrize("ob", OBLIGATIONS, ids=lambda ob: f"{ob.spec_id}:{ob.name}")
def test_obligation_checks(ob: Obligation) -> None:
    result = check_obligation(ob)
    assert result.ok, result.message


@pytest.mark.parametrize("variant", WRONG, ids=lambda w: f"{w.spec_id}:{w.obligation.name}")
def test_wrong_variant_is_rejected_for_the_mathematics(variant: WrongVariant) -> None:
    result = check_obligation(variant.obligation)
    assert not result.ok, f"the checker accepted a wrong {variant.spec_id}: {variant.obligation.name}"
    assert result.kind is variant.kind, (result.kind, result.message)
    assert result.kind not in (FailureKind.UNKNOWN, FailureKind.SCOPE, FailureKind.MALFORMED)


def test_every_proved_id_has_a_wrong_variant() -> None:
    proved = {ob.spec_id for ob in OBLIGATIONS}
    broken = {w.spec_id for w in WRONG}
    assert proved <= broken
    assert proved <= set(SPEC_IDS)


x, y = sp.symbols("x y", real=True)


def test_certificate_residual_is_reported() -> None:
    ob = Obligation(
        "x^2 + y^2 >= 2xy",
        "N3",
        {},
        sp.Ge(x**2 + y**2, 2 * x * y, evaluate=False),
        Certificate(squares=(x + y,)),
    )  # wrong square: (x - y)^2 is right
    result = check_obligation(ob)
    assert not result.ok and "-4*x*y" in result.message
    good = dataclasses.replace(ob, proof=Certificate(squares=(x - y,)))
    assert check_obligation(good).ok


def test_multipliers_and_coefficients_must_be_positive() -> None:
    hyps = {"x_pos": sp.Gt(x, 0, evaluate=False), "y_nonneg": sp.Ge(y, 0, evaluate=False)}
    claim = sp.Ge(x * y, 0, evaluate=False)
    assert check_obligation(
        Obligation("xy>=0", "N1", hyps, claim, Certificate(terms=(Term(("x_pos",), "y_nonneg"),)))
    ).ok
    negative = Certificate(terms=(Term((-1, "x_pos"), "y_nonneg"),))
    assert not check_obligation(Obligation("neg", "N1", hyps, sp.Ge(-x * y, 0, evaluate=False), negative)).ok
    non_strict_multiplier = Certificate(multiplier=("y_nonneg",), terms=())
    assert not check_obligation(
        Obligation("m", "N1", hyps, sp.Ge(0, 0, evaluate=False), non_strict_multiplier)
    ).ok


def test_strict_claims_need_a_strict_term() -> None:
    hyps = {"y_nonneg": sp.Ge(y, 0, evaluate=False)}
    ob = Obligation(
        "y > 0?", "N1", hyps, sp.Gt(y, 0, evaluate=False), Certificate(terms=(Term((), "y_nonneg"),))
    )
    assert "strict" in check_obligation(ob).message


def test_interval_is_rigorous_not_sampled() -> None:
    # max of 2 x^2 e^{-2x} on [0, 1] is 2/e^2 = 0.2707: 0.2708 passes, 0.27 is refuted with a box
    f = 2 * x**2 * sp.exp(-2 * x)
    domain = {"x_ge_0": sp.Ge(x, 0, evaluate=False), "x_le_1": sp.Le(x, 1, evaluate=False)}
    ok = Obligation(
        "ok",
        "P1",
        domain,
        sp.Lt(f, sp.Rational(2708, 10000), evaluate=False),
        Interval({"x": (0, 1)}, "x in [0, 1]"),
    )
    bad = dataclasses.replace(ok, claim=sp.Lt(f, sp.Rational(27, 100), evaluate=False))
    assert check_obligation(ok).ok
    result = check_obligation(bad)
    assert not result.ok and "counterexample box" in result.message
    # the box must be the domain: without x <= 1 the claim is not shown for x > 1
    uncovered = dataclasses.replace(ok, hypotheses={"x_ge_0": domain["x_ge_0"]})
    assert "does not cover" in check_obligation(uncovered).message


def test_monotone_needs_domain_hypotheses() -> None:
    f = sp.log(1 + x) - x / (1 + x)
    proof = Monotone(
        f=f,
        x=x,
        a=sp.Integer(0),
        domain=("x_nonneg",),
        derivative_proof=Chain(  # 1 + x > 0 on [0, x], from x_ge_a: not from a hypothesis about the point
            steps=(
                Step(
                    "opx",
                    sp.Gt(1 + x, 0, evaluate=False),
                    Certificate(terms=(Term((), "x_ge_a"), Term((1,), None))),
                ),
            ),
            final=Certificate(multiplier=("opx", "opx"), terms=(Term((), "x_ge_a"),)),
        ),
    )
    hyps = {"x_nonneg": sp.Ge(x, 0, evaluate=False), "opx": sp.Gt(1 + x, 0, evaluate=False)}
    claim = sp.Ge(f, 0, evaluate=False)
    assert check_obligation(Obligation("ok", "D1", hyps, claim, proof)).ok
    without = {"opx": hyps["opx"]}  # x >= 0 dropped: the claim is false for x in (-1, 0)
    result = check_obligation(Obligation("no domain", "D1", without, claim, proof))
    assert not result.ok and result.kind is FailureKind.UNKNOWN and "x_nonneg" in result.message


def test_identity_rejects_a_non_identity() -> None:
    ob = Obligation("(x+y)^2", "N2", {}, sp.Eq((x + y) ** 2, x**2 + y**2, evaluate=False), Identity())
    result = check_obligation(ob)
    assert not result.ok and "2*x*y" in result.message


def test_every_design_id_has_a_statement_a_proof_and_a_wrong_variant() -> None:
    from novikoff.spec import THEOREMS

    assert set(THEOREMS) == set(SPEC_IDS)
    assert {ob.spec_id for ob in OBLIGATIONS} == set(SPEC_IDS)
    assert {w.spec_id for w in WRONG} == set(SPEC_IDS)


def test_margin_distribution_statements_evaluate_exactly() -> None:
    from fractions import Fraction

    from novikoff.spec import S1, S2

    cases: list[tuple[Fraction | int, Fraction | int]] = [
        (2, 3),
        (2, 1),
        (Fraction(1, 3), Fraction(-5, 7)),
        (5, 5),
    ]
    for theta, m in cases:
        assert S1.check({"theta": theta, "m": m})
    assert S2.check({"a": 3, "u": 2, "v": Fraction(1, 4)})


def test_apply_refuses_images_outside_the_lemmas_domain() -> None:
    from novikoff.proofs.core import Apply
    from novikoff.proofs.pdm.lemma1 import log_ge_zero

    lemma = log_ge_zero()
    y = next(iter(lemma.claim.free_symbols))  # declared positive
    premises = {
        "y_ge_1": Certificate(terms=(Term((), "x_ge_1"),)),
        "y_pos": Certificate(terms=(Term((), "x_pos"),)),
    }
    claim = sp.Ge(sp.log(x), 0, evaluate=False)
    # x is only declared real and nothing here says x > 0
    bare = Obligation("ln x >= 0", "L1", {}, claim, Apply(lemma, {y: x}, premises))
    result = check_obligation(bare)
    assert not result.ok and result.kind in (FailureKind.DOMAIN, FailureKind.UNDEFINED)
    # with x >= 1 in the hypotheses the image is known positive where the lemma is used
    hyps = {"x_ge_1": sp.Ge(x, 1, evaluate=False), "x_pos": sp.Gt(x, 0, evaluate=False)}
    assert check_obligation(Obligation("ln x >= 0", "L1", hyps, claim, Apply(lemma, {y: x}, premises))).ok
    # an image known negative is refused for the domain
    neg = Obligation(
        "ln(-x)", "L1", hyps, sp.Ge(sp.log(-x), 0, evaluate=False), Apply(lemma, {y: -x}, premises)
    )
    assert not check_obligation(neg).ok


@pytest.mark.parametrize("record", headline_proofs(), ids=lambda r: f"{r.spec_id}:{r.statement.name}")
def test_headline_proves_exactly_the_spec_statement(record: HeadlineProof) -> None:
    ob = record.obligation()
    assert matches_statement(ob, record.statement) is None
    result = check_obligation(ob)
    assert result.ok, result.message


def test_every_spec_statement_has_a_headline() -> None:
    covered = [r.statement for r in headline_proofs()]
    assert [id(st) for sts in THEOREMS.values() for st in sts] == [id(st) for st in covered]


def test_a_restated_headline_with_a_changed_domain_does_not_match() -> None:
    record = headline_proofs()[0]  # N1: k is a nonnegative integer
    statement, ob = record.statement, record.obligation()
    k = statement.symbols[0]
    loose = sp.Symbol(k.name, integer=True)
    renamed = dataclasses.replace(
        ob,
        claim=ob.claim.xreplace({k: loose}),
        hypotheses={
            n: (h.xreplace({k: loose}) if isinstance(h, sp.Basic) else h) for n, h in ob.hypotheses.items()
        },
    )
    reason = matches_statement(renamed, statement)
    assert reason is not None and "domain" in reason
    dropped = dataclasses.replace(ob, hypotheses={n: h for n, h in ob.hypotheses.items() if n != "minnorm"})
    assert (
        matches_statement(dropped, statement)
        == "the hypotheses differ from the statement's hypotheses and premises"
    )
