"""Every proof obligation novikoff checks, and the wrong variants its checker must reject.

``all_obligations()`` is what ``novikoff verify`` and the pytest plugin run.
``wrong_variants()`` pairs each theorem with deliberately broken copies (a
constant 1 % too small, a dropped hypothesis, a flipped inequality, a wrong
exponent); the test suite requires every one of them to fail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sympy as sp

from novikoff.proofs import lemma1, pdm, pdm_small_eps, perceptron, pfm
from novikoff.proofs.core import Obligation

__all__ = ["SPEC_IDS", "all_obligations", "wrong_variants"]

#: The normative ids of DESIGN section 3 (plus MU, the repeated-update count).
SPEC_IDS = ("N1", "N2", "N3", "T1", "G1", "M1", "P1", "D1", "D2", "D3", "L1", "S1", "S2", "MU")


def all_obligations() -> list[Obligation]:
    """All obligations in dependency order."""
    out = perceptron.obligations()
    out += [lemma1.log_ge_zero(), lemma1.l1_core(), lemma1.l1()]
    out += pdm.obligations()
    out += pdm_small_eps.obligations()
    out += pfm.obligations()
    return out


def _scale_claim(ob: Obligation, factor: sp.Rational) -> Obligation:
    """Multiply the larger side of the claim by ``factor`` (e.g. 99/100)."""
    c = ob.claim
    if isinstance(c, (sp.LessThan, sp.StrictLessThan)):
        claim = c.func(c.lhs, factor * c.rhs, evaluate=False)
    elif isinstance(c, (sp.GreaterThan, sp.StrictGreaterThan)):
        claim = c.func(factor * c.lhs, c.rhs, evaluate=False)
    else:
        claim = sp.Eq(c.lhs, factor * c.rhs, evaluate=False)
    return dataclasses.replace(ob, name=f"{ob.name} [constant x {factor}]", claim=claim)


def _flip(ob: Obligation) -> Obligation:
    c = ob.claim
    flipped = {
        sp.LessThan: sp.GreaterThan,
        sp.GreaterThan: sp.LessThan,
        sp.StrictLessThan: sp.StrictGreaterThan,
        sp.StrictGreaterThan: sp.StrictLessThan,
    }
    return dataclasses.replace(
        ob, name=f"{ob.name} [flipped]", claim=flipped[type(c)](c.lhs, c.rhs, evaluate=False)
    )


def _drop(ob: Obligation, hypothesis: str) -> Obligation:
    hyps = {k: v for k, v in ob.hypotheses.items() if k != hypothesis}
    return dataclasses.replace(ob, name=f"{ob.name} [without {hypothesis}]", hypotheses=hyps)


def _exponent(ob: Obligation, old: sp.Expr, new: sp.Expr) -> Obligation:
    return dataclasses.replace(ob, name=f"{ob.name} [{old} -> {new}]", claim=ob.claim.xreplace({old: new}))


def wrong_variants() -> list[tuple[str, Obligation]]:
    """(spec id, broken obligation) pairs; each must be rejected by the checker."""
    k, g2 = perceptron.k, perceptron.g2
    makers: list[tuple[str, Callable[[], Obligation]]] = [
        ("N1", lambda: _scale_claim(perceptron.n1(), sp.Rational(101, 100))),
        ("N1", lambda: _drop(perceptron.n1(), "minnorm")),
        ("N2", lambda: _scale_claim(perceptron.n2(), sp.Rational(99, 100))),
        ("N2", lambda: _drop(perceptron.n2(), "mistake")),
        (
            "N2",
            lambda: dataclasses.replace(
                perceptron.n2_expansion(3),
                name="N2 expansion without the cross term",
                claim=sp.Eq(
                    perceptron.n2_expansion(3).claim.lhs,
                    perceptron.n2_expansion(3).claim.rhs.xreplace({sp.Integer(2): sp.Integer(1)}),
                ),
            ),
        ),
        ("N3", lambda: _scale_claim(perceptron.n3(), sp.Rational(99, 100))),
        ("N3", lambda: _drop(perceptron.n3(), "N2")),
        ("N3", lambda: _flip(perceptron.cauchy_schwarz(3))),
        ("N3", lambda: _exponent(perceptron.n3(), k * g2, k**2 * g2)),
        (
            "D3",
            lambda: _exponent(
                perceptron.d3(), sp.Symbol("t", integer=True) ** 2, sp.Symbol("t", integer=True) ** 3
            ),
        ),
        ("D3", lambda: _drop(perceptron.d3(), "progress")),
        (
            "T1",
            lambda: dataclasses.replace(
                perceptron.t1()[1],
                name="T1 ||p*||^2 = 1/n^2 (wrong)",
                claim=sp.Eq(perceptron.t1()[1].claim.lhs, perceptron.t1()[1].claim.rhs ** 2),
            ),
        ),
        (
            "G1",
            lambda: dataclasses.replace(
                perceptron.g1()[0],
                name="G1 scaling by c (wrong power)",
                claim=sp.Eq(
                    perceptron.g1()[0].claim.lhs, perceptron.g1()[0].claim.rhs / sp.Symbol("c", real=True)
                ),
            ),
        ),
        ("L1", lambda: _scale_claim(lemma1.l1_core(), sp.Rational(99, 100))),
        ("L1", lambda: _drop(lemma1.l1_core(), "hyp")),
        ("L1", lambda: _flip(lemma1.l1_core())),
    ]
    makers += pdm.wrong_variant_makers()
    makers += [
        ("D1", lambda: _flip(pdm_small_eps.bernoulli())),
        ("D1", lambda: _drop(pdm_small_eps.bernoulli(), "p_ge_1")),
        ("D1", lambda: _scale_claim(pdm_small_eps.final_small_eps(), sp.Rational(99, 100))),
        ("D1", lambda: _drop(pdm_small_eps.energy_small_eps(), "recursion")),
        ("P1", lambda: _scale_claim(pfm.p1(), sp.Rational(99, 100))),
        ("P1", lambda: _drop(pfm.p1(), "gamma_le_R")),
        ("P1", lambda: _drop(pfm.norm_step(), "energy")),
        (
            "P1",
            lambda: _exponent(
                pfm.small_x_bound(), -2 * sp.Symbol("x", real=True), -sp.Symbol("x", real=True) / 4
            ),
        ),
    ]
    return [(sid, make()) for sid, make in makers]
