"""The wrong variants the checker must reject: broken copies of the theorems, and why each fails.

The makers (:func:`scale_claim`, :func:`flip`, :func:`drop_hypothesis`, :func:`tautology`,
:func:`replace_in_claim`, :func:`broken_s2`) turn an obligation into a deliberately broken
one: a constant 1 % off, a hypothesis weakened to a tautology, a flipped inequality, a
wrong exponent. A weakened hypothesis keeps its name, so the variant fails for the
mathematics (a residual, a sign), not because a name is missing. :data:`MAKERS` is the
table ``(spec id, the failure kind the checker must report, maker)``, one row per
variant; :func:`wrong_variants` builds them. The test suite requires every one of them
to fail for that reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sympy as sp

from novikoff.proofs import invariance, msvmav, multiclass, nonseparable, perceptron, tightness
from novikoff.proofs.core import FailureKind, Forall, Obligation
from novikoff.proofs.pdm import lemma1, pfm, small_eps, steps
from novikoff.proofs.registry import headline_obligation
from novikoff.spec import V1_SAMPLE, V1_VOTE

__all__ = [
    "MAKERS",
    "Maker",
    "WrongVariant",
    "broken_s2",
    "drop_hypothesis",
    "flip",
    "replace_in_claim",
    "scale_claim",
    "tautology",
    "wrong_variants",
]

#: A maker builds one wrong variant when called.
Maker = Callable[[], Obligation]


@dataclasses.dataclass(frozen=True)
class WrongVariant:
    """A broken copy of a theorem and the kind of failure the checker must report."""

    spec_id: str
    obligation: Obligation
    kind: FailureKind


def scale_claim(ob: Obligation, factor: sp.Rational) -> Obligation:
    """Multiply the larger side of the claim by ``factor`` < 1 (e.g. 99/100): a strictly
    stronger claim wherever that side is positive, so a constant 1 % too good.

    Raises ValueError unless 0 < factor < 1."""
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


_FLIPPED = {
    sp.LessThan: sp.GreaterThan,
    sp.GreaterThan: sp.LessThan,
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
}


def flip(ob: Obligation) -> Obligation:
    """The claim's inequality reversed (``<=`` becomes ``>=``, ``<`` becomes ``>``).

    Raises ValueError if the claim is not an inequality."""
    c = ob.claim
    if type(c) not in _FLIPPED:
        raise ValueError(f"{ob.name}: only an inequality can be flipped, not {type(c).__name__}")
    return dataclasses.replace(
        ob, name=f"{ob.name} [flipped]", claim=_FLIPPED[type(c)](c.lhs, c.rhs, evaluate=False)
    )


def tautology(h: sp.Basic | Forall) -> sp.Basic | Forall:
    """A hypothesis that says nothing: ``x = x`` for an equation, ``0 >= 0`` otherwise,
    under the same quantifier."""
    if isinstance(h, Forall):
        return Forall(h.var, tautology(h.body), h.start)
    if isinstance(h, sp.Equality):
        return sp.Eq(h.lhs, h.lhs, evaluate=False)
    return sp.Ge(sp.Integer(0), 0, evaluate=False)


def drop_hypothesis(ob: Obligation, hypothesis: str) -> Obligation:
    """The obligation with ``hypothesis`` weakened to a tautology (0 >= 0, x = x) under the
    same name: the proof still names it, and must fail for the mathematics.

    Raises KeyError if ``ob`` has no such hypothesis."""
    if hypothesis not in ob.hypotheses:
        raise KeyError(f"{ob.name}: no hypothesis {hypothesis!r}")
    hyps = {k: (tautology(v) if k == hypothesis else v) for k, v in ob.hypotheses.items()}
    return dataclasses.replace(ob, name=f"{ob.name} [without {hypothesis}]", hypotheses=hyps)


def replace_in_claim(ob: Obligation, old: sp.Expr, new: sp.Expr) -> Obligation:
    """The claim with the subexpression ``old`` replaced by ``new`` (a wrong exponent)."""
    return dataclasses.replace(ob, name=f"{ob.name} [{old} -> {new}]", claim=ob.claim.xreplace({old: new}))


def broken_s2() -> sp.Basic:
    """S2 (Sherman-Morrison, 2 x 2) with 1 - v^T A^-1 u for 1 + v^T A^-1 u: not an identity."""
    size = 2
    Am = sp.Matrix(size, size, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
    u = sp.Matrix(size, 1, lambda i, j: sp.Symbol(f"u{i}", real=True))
    v = sp.Matrix(size, 1, lambda i, j: sp.Symbol(f"v{i}", real=True))
    Ainv = Am.adjugate() / Am.det()
    denom = 1 - (v.T * Ainv * u)[0, 0]
    return sp.Eq((Am + u * v.T) * (Ainv - Ainv * u * v.T * Ainv / denom), sp.eye(size), evaluate=False)


_ONE_PERCENT = sp.Rational(99, 100)


def _n2_without_cross_term() -> Obligation:
    ob = perceptron.n2_expansion(3)
    claim = sp.Eq(ob.claim.lhs, ob.claim.rhs.xreplace({sp.Integer(2): sp.Integer(1)}))
    return dataclasses.replace(ob, name="N2 expansion without the cross term", claim=claim)


def _t1_wrong_norm() -> Obligation:
    ob = tightness.t1()[1]
    return dataclasses.replace(
        ob, name="T1 ||p*||^2 = 1/n^2 (wrong)", claim=sp.Eq(ob.claim.lhs, ob.claim.rhs**2)
    )


def _g1_wrong_power() -> Obligation:
    ob = invariance.g1()[0]
    claim = sp.Eq(ob.claim.lhs, ob.claim.rhs / sp.Symbol("c", real=True))
    return dataclasses.replace(ob, name="G1 scaling by c (wrong power)", claim=claim)


def _mu_wrong_coefficient() -> Obligation:
    ob = steps.mu()[0]
    eps = sp.Symbol("eps", positive=True)
    return dataclasses.replace(
        ob, name="MU with 1 - eps instead of 1 - 2 eps", claim=ob.claim.xreplace({1 - 2 * eps: 1 - eps})
    )


def _s1_without_square() -> Obligation:
    ob = msvmav.s1()
    claim = sp.Eq(ob.claim.lhs, ob.claim.rhs * sp.Symbol("theta", real=True))
    return dataclasses.replace(ob, name="S1 without the square on theta", claim=claim)


def _s2_wrong_sign() -> Obligation:
    return dataclasses.replace(msvmav.s2(2), name="S2 with 1 - v^T A^-1 u", claim=broken_s2())


def _fs1_without_cross_term() -> Obligation:
    """FS1's squeeze with (R + D)^2 replaced by R^2 + D^2: false (x = sqrt(k) R, y = sqrt(k) D)."""
    ob = nonseparable.squeeze()
    R, D = (next(s for s in ob.claim.free_symbols if s.name == name) for name in ("R", "D"))
    return replace_in_claim(ob, (R + D) ** 2, R**2 + D**2)


def _v1_without_factor_two(index: int) -> Obligation:
    """V1 (the vote, or the test sample) with the factor 2 dropped: W <= Ew (W nv <= ewt)."""
    ob = headline_obligation("V1", index)
    weight = (V1_VOTE if index == 1 else V1_SAMPLE).symbols[-1]
    return replace_in_claim(ob, 2 * weight, weight)


_k, _g2 = perceptron.k, perceptron.g2
_t = sp.Symbol("t", integer=True)

#: (spec id, the failure kind the checker must report, maker), one row per wrong variant.
MAKERS: tuple[tuple[str, FailureKind, Maker], ...] = (
    ("N1", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("N1"), _ONE_PERCENT)),
    ("N1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("N1"), "minnorm")),
    ("N2", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("N2"), _ONE_PERCENT)),
    ("N2", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("N2"), "mistake")),
    ("N2", FailureKind.RESIDUAL, _n2_without_cross_term),
    ("R1", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("R1"), _ONE_PERCENT)),
    ("R1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("R1"), "step")),
    ("R1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("R1"), "minnorm")),
    ("FS1", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("FS1"), _ONE_PERCENT)),
    ("FS1", FailureKind.RESIDUAL, lambda: scale_claim(nonseparable.squeeze(), _ONE_PERCENT)),
    ("FS1", FailureKind.RESIDUAL, _fs1_without_cross_term),
    ("FS1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("FS1"), "unit")),
    ("FS1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("FS1"), "presented")),
    ("FS1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("FS1", 1), "per_pattern")),
    ("V1", FailureKind.RESIDUAL, lambda: _v1_without_factor_two(1)),
    ("V1", FailureKind.RESIDUAL, lambda: _v1_without_factor_two(2)),
    ("V1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("V1"), "prefix")),
    ("N3", FailureKind.RESIDUAL, lambda: scale_claim(perceptron.n3(), _ONE_PERCENT)),
    ("N3", FailureKind.RESIDUAL, lambda: drop_hypothesis(perceptron.n3(), "N2")),
    ("N3", FailureKind.RESIDUAL, lambda: flip(perceptron.cauchy_schwarz(3))),
    ("N3", FailureKind.RESIDUAL, lambda: replace_in_claim(perceptron.n3(), _k * _g2, _k**2 * _g2)),
    ("D3", FailureKind.RESIDUAL, lambda: replace_in_claim(steps.d3(), _t**2, _t**3)),
    ("D3", FailureKind.RESIDUAL, lambda: drop_hypothesis(steps.d3(), "progress")),
    ("T1", FailureKind.RESIDUAL, _t1_wrong_norm),
    ("G1", FailureKind.RESIDUAL, _g1_wrong_power),
    ("L1", FailureKind.RESIDUAL, lambda: scale_claim(lemma1.l1_core(), _ONE_PERCENT)),
    ("L1", FailureKind.RESIDUAL, lambda: drop_hypothesis(lemma1.l1_core(), "hyp")),
    ("L1", FailureKind.RESIDUAL, lambda: flip(lemma1.l1_core())),
    ("D2", FailureKind.RESIDUAL, lambda: drop_hypothesis(steps.d2()[0], "no_update")),
    ("D2", FailureKind.RESIDUAL, lambda: scale_claim(steps.d2()[1], _ONE_PERCENT)),
    ("D1", FailureKind.RESIDUAL, lambda: drop_hypothesis(steps.d1_recursion(), "pdm_update")),
    ("D1", FailureKind.RESIDUAL, lambda: scale_claim(steps.d1_above_half(), _ONE_PERCENT)),
    ("D1", FailureKind.MISMATCH, lambda: scale_claim(steps.d1_half(), _ONE_PERCENT)),
    ("D1", FailureKind.MISMATCH, lambda: flip(steps.log_one_plus_ge())),
    ("MU", FailureKind.RESIDUAL, _mu_wrong_coefficient),
    ("S1", FailureKind.RESIDUAL, _s1_without_square),
    ("S2", FailureKind.UNDEFINED, _s2_wrong_sign),
    ("M1", FailureKind.RESIDUAL, lambda: scale_claim(multiclass.m1()[-1], sp.Rational(1, 2))),
    # DS1: the ratio 1 % too good; without the previous stage's end, without D3 (the margin
    # progress of the current stage), the certificate leaves a residual; without eps < 1/2 the
    # factor 1/(1 - 2 eps) may be undefined.
    ("DS1", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("DS1"), _ONE_PERCENT)),
    ("DS1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("DS1"), "previous")),
    ("DS1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("DS1"), "D3")),
    ("DS1", FailureKind.UNDEFINED, lambda: drop_hypothesis(headline_obligation("DS1"), "eps_lt_half")),
    # RC1: the bound 1 % too good; without Jensen (e1^2 <= e2) or the orthogonality of the
    # Rademacher signs (e2 <= n r^2) the certificate leaves a residual.
    ("RC1", FailureKind.RESIDUAL, lambda: scale_claim(headline_obligation("RC1"), _ONE_PERCENT)),
    ("RC1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("RC1"), "jensen")),
    ("RC1", FailureKind.RESIDUAL, lambda: drop_hypothesis(headline_obligation("RC1"), "orthogonality")),
    ("D1", FailureKind.MISMATCH, lambda: flip(small_eps.bernoulli())),
    ("D1", FailureKind.RESIDUAL, lambda: drop_hypothesis(small_eps.bernoulli(), "p_ge_1")),
    ("D1", FailureKind.MISMATCH, lambda: scale_claim(small_eps.final_small_eps(), _ONE_PERCENT)),
    ("D1", FailureKind.RESIDUAL, lambda: drop_hypothesis(small_eps.energy_small_eps(), "recursion")),
    ("P1", FailureKind.MISMATCH, lambda: scale_claim(pfm.p1(), _ONE_PERCENT)),
    ("P1", FailureKind.RESIDUAL, lambda: drop_hypothesis(pfm.p1(), "gamma_le_R")),
    ("P1", FailureKind.RESIDUAL, lambda: drop_hypothesis(pfm.norm_step(), "energy")),
    (
        "P1",
        FailureKind.COUNTEREXAMPLE,
        lambda: replace_in_claim(
            pfm.small_x_bound(), -2 * sp.Symbol("x", real=True), -sp.Symbol("x", real=True) / 4
        ),
    ),
)


def wrong_variants() -> list[WrongVariant]:
    """Every wrong variant of :data:`MAKERS`, built, with the failure kind it must meet."""
    return [WrongVariant(sid, make(), kind) for sid, kind, make in MAKERS]
