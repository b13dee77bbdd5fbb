"""The headline proof of every spec statement: the obligation built from the statement
itself (:func:`~novikoff.proofs.statements.headline`), so what is checked is the spec's
theorem. Where the argument lives in a module's step obligations, the headline applies
them as lemmas (:class:`~novikoff.proofs.core.Apply`), and the checker re-checks them.

``SCOPE`` says, per id, where the Python proof is limited (the Coq development covers
every dimension).
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs import lemma1, pdm, pdm_small_eps, pfm
from novikoff.proofs.core import (
    Apply,
    Both,
    Cases,
    Certificate,
    Chain,
    Identity,
    Iff,
    Induction,
    ModusPonens,
    Obligation,
    Proof,
    SignByAssumptions,
    Step,
    Term,
    ge,
    gt,
)
from novikoff.proofs.statements import headline
from novikoff.spec import THEOREMS
from novikoff.spec.core import Statement
from novikoff.spec.invariance import G1_ADD_POINT, G1_PAD, G1_ROTATE, G1_SCALE
from novikoff.spec.msvmav import S1, S2
from novikoff.spec.multiclass import M1
from novikoff.spec.pdm import D1_ABOVE_HALF, D1_BELOW_HALF, D1_HALF, D2, D3, L1, MU, P1
from novikoff.spec.perceptron import N1, N2, N3, pw, w2
from novikoff.spec.tightness import T1

__all__ = ["SCOPE", "headlines"]

#: Where a Python proof covers less than the statement's general form.
SCOPE: dict[str, str] = {
    "N2": "the expansion ||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 is checked in dimensions 1-6",
    "N3": "Cauchy-Schwarz (Lagrange's identity) is checked in dimensions 1-6",
    "M1": "the Kesler identities are checked for K = 3 classes in dimension 2",
    "S2": "the matrix form is checked for 2 x 2 and 3 x 3 matrices; the statement is the scalar case",
}


def _positive(name: str, expr: sp.Expr) -> Step:
    return Step(name, gt(expr, 0), SignByAssumptions())


def _n1() -> Proof:
    k, g2 = N1.symbols[0], N1.symbols[1]
    return Chain(
        steps=(
            Step(
                "progress",
                ge(pw(k), k * g2),
                Induction(
                    k,
                    base=Certificate(substitutions=("w0",)),
                    step=Certificate(substitutions=("update",), terms=(Term((), "IH"), Term((), "minnorm"))),
                ),
            ),
        ),
        final=Certificate(substitutions=("value",), terms=(Term((), "progress"),)),
    )


def _n2() -> Proof:
    k, R2 = N2.symbols[0], N2.symbols[1]
    return Chain(
        steps=(
            Step(
                "energy",
                sp.Le(w2(k), k * R2, evaluate=False),
                Induction(
                    k,
                    base=Certificate(substitutions=("w0",)),
                    step=Certificate(
                        substitutions=("expansion",),
                        terms=(Term((), "IH"), Term((2,), "mistake"), Term((), "radius")),
                    ),
                ),
            ),
        ),
        final=Certificate(substitutions=("value",), terms=(Term((), "energy"),)),
    )


def _squeeze(k: sp.Symbol, g2: sp.Symbol, dot: sp.Symbol, names: dict[str, str], radius: int) -> Proof:
    """k g2 <= radius R2 from progress (dot >= k g2), energy (w2 <= radius k R2) and
    Cauchy-Schwarz (dot^2 <= g2 w2): k = 0 directly; for k > 0,
    k g2 (radius R2 - k g2) = g2 (radius k R2 - w2) + (g2 w2 - dot^2) + (dot - k g2)^2
    + 2 k g2 (dot - k g2), and k g2 > 0 divides out. N3 is radius 1; M1 radius 2."""
    g2_pos, r2_pos = names["g2_pos"], names["R2_pos"]
    return Cases(
        -k,
        nonneg=Certificate(terms=(Term((g2_pos,), "case"), Term((radius,), r2_pos))),  # k = 0
        neg=Certificate(
            multiplier=("case", g2_pos),
            terms=(
                Term((g2_pos,), names["energy"]),
                Term((), "cauchy_schwarz"),
                Term((2, "case", g2_pos), names["progress"]),
            ),
            squares=(dot - k * g2,),
        ),
    )


def _n3() -> Proof:
    k, g2, _R2 = N3.symbols
    names = {"g2_pos": "gamma2_pos", "R2_pos": "R2_pos", "energy": "N2", "progress": "N1"}
    return _squeeze(k, g2, sp.Symbol("pstar_dot_w", real=True), names, 1)


def _m1() -> Proof:
    k, R2, gK2 = M1.symbols
    names = {"g2_pos": "gammaK2_pos", "R2_pos": "R2_pos", "energy": "energy", "progress": "progress"}
    return Chain(
        steps=(_positive("R2_pos", R2),),
        final=_squeeze(k, gK2, sp.Symbol("kesler_dot_w", real=True), names, 2),
    )


def _d3() -> Proof:
    t, g2, _w2 = D3.symbols
    pw_ = sp.Symbol("pstar_dot_w", real=True)
    return Chain(
        steps=(_positive("t_pos", t),),
        final=Certificate(
            multiplier=("gamma2_pos",),
            terms=(Term((), "cauchy_schwarz"), Term((2, "t_pos", "gamma2_pos"), "progress")),
            squares=(pw_ - t * g2,),
        ),
    )


def _d2() -> Proof:
    t, _eps, _s, w_norm, _gamma = D2.symbols
    return Chain(
        steps=(
            _positive("t_pos", t),
            _positive("wn_pos", w_norm),
            Step(
                "one_minus_eps_nonneg", ge(1 - D2.symbols[1], 0), Certificate(terms=(Term((), "eps_le_1"),))
            ),
        ),
        final=Both(
            (
                Certificate(multiplier=("t_pos", "wn_pos"), terms=(Term((), "no_update"),)),
                Certificate(multiplier=("t_pos",), terms=(Term(("one_minus_eps_nonneg",), "D3"),)),
            )
        ),
    )


def _d1_above_half() -> Proof:
    t, eps, _R2, g2 = D1_ABOVE_HALF.symbols
    return Chain(
        steps=(
            _positive("t_pos", t),
            _positive("g2_pos", g2),
            Step("d_pos", gt(2 * eps - 1, 0), Certificate(terms=(Term((2,), "eps_gt_half"),))),
        ),
        final=Certificate(
            multiplier=("t_pos", "d_pos", "g2_pos"),
            terms=(Term(("d_pos",), "energy"), Term(("d_pos",), "D3")),
        ),
    )


def _by_lemma(lemma: Obligation, mapping: dict, premises: dict[str, Proof]) -> Proof:
    return Apply(lemma, mapping, premises)


def _hyp(name: str) -> Proof:
    return Certificate(terms=(Term((), name),))


def _d1_half() -> Proof:
    return _by_lemma(
        pdm.d1_half(),
        {},
        {
            "t_pos": SignByAssumptions(),
            "g2_pos": SignByAssumptions(),
            "g2_le_R2": _hyp("gamma2_le_R2"),
            "D3": _hyp("D3"),
            "energy": _hyp("energy"),
        },
    )


def _d1_below_half() -> Proof:
    lemma = pdm_small_eps.final_small_eps()
    p, g2, R2p = pdm_small_eps.p, pdm_small_eps.g2, pdm_small_eps.R2
    t, eps, R2, gamma2 = D1_BELOW_HALF.symbols
    a_t, s_t = sp.Symbol("a_t", real=True), sp.Symbol("s_t", real=True)
    lemma_symbols = {s.name: s for s in lemma.claim.free_symbols}
    for h in lemma.hypotheses.values():
        if isinstance(h, sp.Basic):
            lemma_symbols.update({s.name: s for s in h.free_symbols})
    mapping = {p: 2 * (1 - eps), g2: gamma2, R2p: R2}
    for name, image in (("t", t), ("a_t", a_t), ("S_t", s_t), ("s_t", s_t)):
        if name in lemma_symbols and lemma_symbols[name] != image:
            mapping[lemma_symbols[name]] = image
    return Chain(
        steps=(
            _positive("t_pos", t),
            _positive("g2_pos", gamma2),
            _positive("R2_pos", R2),
        ),
        final=_by_lemma(
            lemma,
            mapping,
            {
                "t_pos": _hyp("t_pos"),
                "g2_pos": _hyp("g2_pos"),
                "p_gt_1": Certificate(terms=(Term((2,), "eps_lt_half"),)),
                "two_minus_p_pos": SignByAssumptions(),
                "R2_nonneg": _hyp("R2_pos"),
                "D3": _hyp("D3"),
                "energy": _hyp("energy"),
                "sums": _hyp("sums"),
            },
        ),
    )


def _p1() -> Proof:
    return _by_lemma(
        pfm.p1(),
        {},
        {
            "t_pos": SignByAssumptions(),
            "eps_pos": _hyp("eps_pos"),
            "one_minus_eps_nonneg": _hyp("eps_le_1"),
            "gamma_pos": SignByAssumptions(),
            "R_pos": SignByAssumptions(),
            "gamma_le_R": _hyp("gamma_le_R"),
            "lemma_form": _hyp("lemma_form"),
        },
    )


def _l1() -> Proof:
    return _by_lemma(
        lemma1.l1(),
        {},
        {
            "t_pos": SignByAssumptions(),
            "delta_pos": SignByAssumptions(),
            "delta_big": _hyp("h1"),
            "exp_pos": SignByAssumptions(),
            "hyp": _hyp("h2"),
        },
    )


def _g1_scale() -> Proof:
    c, s = G1_SCALE.symbols
    return Iff(
        p=sp.Le(c**2 * s, 0, evaluate=False),
        forward=Certificate(multiplier=("h0", "h0"), terms=(Term((), "left"),)),
        backward=Certificate(terms=(Term((("square", c),), "right"),)),
    )


def _g1_add_point() -> Proof:
    return Both(
        (
            ModusPonens(
                "certificate",
                Certificate(substitutions=("znew_dot",), terms=(Term(("gamma2_pos",), "c_ge_1"),)),
            ),
            Identity(substitutions=("radius", "znew_norm")),
        )
    )


def _proofs() -> dict[int, Proof]:
    return {
        id(N1): _n1(),
        id(N2): _n2(),
        id(N3): _n3(),
        id(T1): Identity(substitutions=("h0", "h1", "h2")),
        id(G1_SCALE): _g1_scale(),
        id(G1_ROTATE): Identity(),
        id(G1_PAD): Identity(substitutions=("h0",)),
        id(G1_ADD_POINT): _g1_add_point(),
        id(M1): _m1(),
        id(P1): _p1(),
        id(D1_ABOVE_HALF): _d1_above_half(),
        id(D1_HALF): _d1_half(),
        id(D1_BELOW_HALF): _d1_below_half(),
        id(D2): _d2(),
        id(D3): _d3(),
        id(L1): _l1(),
        id(S1): Cases(S1.symbols[0] - S1.symbols[1], nonneg=Identity(), neg=Identity(), positive=("h0",)),
        id(S2): Identity(),
        id(MU): Identity(),
    }


def headlines() -> list[tuple[Statement, Obligation]]:
    """(statement, its headline obligation) for every statement of every spec id, in
    the order of :data:`novikoff.spec.THEOREMS`."""
    proofs = _proofs()
    out = []
    for statements in THEOREMS.values():
        for st in statements:
            out.append((st, headline(st, proofs[id(st)], SCOPE.get(st.id, ""))))
    return out
