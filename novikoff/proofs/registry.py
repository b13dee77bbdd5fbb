"""Every proof obligation novikoff checks, and the wrong variants its checker must reject.

``all_obligations()`` is what ``novikoff verify`` and the pytest plugin run: the step
obligations of each module, then the headline obligation of every spec statement
(:mod:`novikoff.proofs.headlines`). ``wrong_variants()`` pairs each theorem with
deliberately broken copies (a constant 1 % off, a hypothesis weakened to a
tautology, a flipped inequality, a wrong exponent) and the kind of failure each must
meet; the test suite requires every one of them to fail for that reason. A weakened
hypothesis keeps its name, so the variant fails for the mathematics (a residual, a
sign), not because a name is missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sympy as sp

from novikoff.proofs import lemma1, pdm, pdm_small_eps, perceptron, pfm
from novikoff.proofs.core import FailureKind, Forall, Obligation
from novikoff.proofs.headlines import headlines

__all__ = ["SPEC_IDS", "WrongVariant", "all_obligations", "headline_obligation", "wrong_variants"]

#: The normative ids of DESIGN section 3 (plus MU, the repeated-update count).
SPEC_IDS = ("N1", "N2", "N3", "T1", "G1", "M1", "P1", "D1", "D2", "D3", "L1", "S1", "S2", "MU")


def all_obligations() -> list[Obligation]:
    """All obligations in dependency order."""
    out = perceptron.obligations()
    out += [lemma1.log_ge_zero(), lemma1.l1_core(), lemma1.l1()]
    out += pdm.obligations()
    out += pdm_small_eps.obligations()
    out += pfm.obligations()
    out += [ob for _st, ob in headlines()]
    return out


def headline_obligation(spec_id: str, index: int = 0) -> Obligation:
    """The headline obligation of the ``index``-th statement of ``spec_id``."""
    return [ob for st, ob in headlines() if st.id == spec_id][index]


@dataclasses.dataclass(frozen=True)
class WrongVariant:
    """A broken copy of a theorem and the kind of failure the checker must report."""

    spec_id: str
    obligation: Obligation
    kind: FailureKind


def _scale_claim(ob: Obligation, factor: sp.Rational) -> Obligation:
    """Multiply the larger side of the claim by ``factor`` < 1 (e.g. 99/100): a strictly
    stronger claim wherever that side is positive, so a constant 1 % too good."""
    if not 0 < factor < 1:
        raise ValueError(f"a wrong variant shrinks the larger side: factor {factor} is not in (0, 1)")
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


def _tautology(h: sp.Basic | Forall) -> sp.Basic | Forall:
    if isinstance(h, Forall):
        return Forall(h.var, _tautology(h.body), h.start)
    if isinstance(h, sp.Equality):
        return sp.Eq(h.lhs, h.lhs, evaluate=False)
    return sp.Ge(sp.Integer(0), 0, evaluate=False)


def _drop(ob: Obligation, hypothesis: str) -> Obligation:
    """The obligation with ``hypothesis`` weakened to a tautology (0 >= 0, x = x) under the
    same name: the proof still names it, and must fail for the mathematics."""
    if hypothesis not in ob.hypotheses:
        raise KeyError(f"{ob.name}: no hypothesis {hypothesis!r}")
    hyps = {k: (_tautology(v) if k == hypothesis else v) for k, v in ob.hypotheses.items()}
    return dataclasses.replace(ob, name=f"{ob.name} [without {hypothesis}]", hypotheses=hyps)


def _exponent(ob: Obligation, old: sp.Expr, new: sp.Expr) -> Obligation:
    return dataclasses.replace(ob, name=f"{ob.name} [{old} -> {new}]", claim=ob.claim.xreplace({old: new}))


def wrong_variants() -> list[WrongVariant]:
    """Broken obligations, each with the kind of failure the checker must report."""
    k, g2 = perceptron.k, perceptron.g2
    makers: list[tuple[str, FailureKind, Callable[[], Obligation]]] = [
        ("N1", FailureKind.RESIDUAL, lambda: _scale_claim(headline_obligation("N1"), sp.Rational(99, 100))),
        ("N1", FailureKind.RESIDUAL, lambda: _drop(headline_obligation("N1"), "minnorm")),
        ("N2", FailureKind.RESIDUAL, lambda: _scale_claim(headline_obligation("N2"), sp.Rational(99, 100))),
        ("N2", FailureKind.RESIDUAL, lambda: _drop(headline_obligation("N2"), "mistake")),
        (
            "N2",
            FailureKind.RESIDUAL,
            lambda: dataclasses.replace(
                perceptron.n2_expansion(3),
                name="N2 expansion without the cross term",
                claim=sp.Eq(
                    perceptron.n2_expansion(3).claim.lhs,
                    perceptron.n2_expansion(3).claim.rhs.xreplace({sp.Integer(2): sp.Integer(1)}),
                ),
            ),
        ),
        ("N3", FailureKind.RESIDUAL, lambda: _scale_claim(perceptron.n3(), sp.Rational(99, 100))),
        ("N3", FailureKind.RESIDUAL, lambda: _drop(perceptron.n3(), "N2")),
        ("N3", FailureKind.RESIDUAL, lambda: _flip(perceptron.cauchy_schwarz(3))),
        ("N3", FailureKind.RESIDUAL, lambda: _exponent(perceptron.n3(), k * g2, k**2 * g2)),
        (
            "D3",
            FailureKind.RESIDUAL,
            lambda: _exponent(
                perceptron.d3(), sp.Symbol("t", integer=True) ** 2, sp.Symbol("t", integer=True) ** 3
            ),
        ),
        ("D3", FailureKind.RESIDUAL, lambda: _drop(perceptron.d3(), "progress")),
        (
            "T1",
            FailureKind.RESIDUAL,
            lambda: dataclasses.replace(
                perceptron.t1()[1],
                name="T1 ||p*||^2 = 1/n^2 (wrong)",
                claim=sp.Eq(perceptron.t1()[1].claim.lhs, perceptron.t1()[1].claim.rhs ** 2),
            ),
        ),
        (
            "G1",
            FailureKind.RESIDUAL,
            lambda: dataclasses.replace(
                perceptron.g1()[0],
                name="G1 scaling by c (wrong power)",
                claim=sp.Eq(
                    perceptron.g1()[0].claim.lhs, perceptron.g1()[0].claim.rhs / sp.Symbol("c", real=True)
                ),
            ),
        ),
        ("L1", FailureKind.RESIDUAL, lambda: _scale_claim(lemma1.l1_core(), sp.Rational(99, 100))),
        ("L1", FailureKind.RESIDUAL, lambda: _drop(lemma1.l1_core(), "hyp")),
        ("L1", FailureKind.RESIDUAL, lambda: _flip(lemma1.l1_core())),
    ]
    makers += pdm.wrong_variant_makers()
    makers += [
        ("D1", FailureKind.MISMATCH, lambda: _flip(pdm_small_eps.bernoulli())),
        ("D1", FailureKind.RESIDUAL, lambda: _drop(pdm_small_eps.bernoulli(), "p_ge_1")),
        (
            "D1",
            FailureKind.MISMATCH,
            lambda: _scale_claim(pdm_small_eps.final_small_eps(), sp.Rational(99, 100)),
        ),
        ("D1", FailureKind.RESIDUAL, lambda: _drop(pdm_small_eps.energy_small_eps(), "recursion")),
        ("P1", FailureKind.MISMATCH, lambda: _scale_claim(pfm.p1(), sp.Rational(99, 100))),
        ("P1", FailureKind.RESIDUAL, lambda: _drop(pfm.p1(), "gamma_le_R")),
        ("P1", FailureKind.RESIDUAL, lambda: _drop(pfm.norm_step(), "energy")),
        (
            "P1",
            FailureKind.COUNTEREXAMPLE,
            lambda: _exponent(
                pfm.small_x_bound(), -2 * sp.Symbol("x", real=True), -sp.Symbol("x", real=True) / 4
            ),
        ),
    ]
    return [WrongVariant(sid, make(), kind) for sid, kind, make in makers]
