"""Proofs of :mod:`novikoff.spec.pdm` (P1, D1, D2, D3, L1, MU): the large-margin perceptrons.

This package is the proof module of ``novikoff.spec.pdm``: its ``headline_proofs()``
proves every statement of that module, and ``obligations()`` lists every step
obligation of the family in dependency order. The steps live in helper modules that
no other spec module maps to:

- :mod:`novikoff.proofs.pdm.lemma1`: L1 (the PDM paper's Lemma 1) and its change of variables;
- :mod:`novikoff.proofs.pdm.steps`: D3, D2, the D1 recursion and D1 for eps >= 1/2, MU;
- :mod:`novikoff.proofs.pdm.small_eps`: D1 for eps < 1/2 (Bernoulli, power sums);
- :mod:`novikoff.proofs.pdm.pfm`: P1 (the fixed-margin perceptron through Lemma 1).

Where the argument lives in the step obligations, the headline applies them as lemmas
(:class:`~novikoff.proofs.core.Apply`), and the checker re-checks them.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Both,
    Certificate,
    Chain,
    Identity,
    Obligation,
    Proof,
    SignByAssumptions,
    Step,
    Term,
    ge,
    gt,
)
from novikoff.proofs.pdm import lemma1, pfm, small_eps, steps, succ_ratio
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.pdm import D1_ABOVE_HALF, D1_BELOW_HALF, D1_HALF, D2, D3, L1, MU, P1

__all__ = ["headline_proofs", "obligations"]


def obligations() -> list[Obligation]:
    """Every step obligation of the family, each after the lemmas it applies."""
    out = [lemma1.log_ge_zero(), lemma1.l1_core(), lemma1.l1()]
    out += steps.obligations()
    out += small_eps.obligations()
    out += pfm.obligations()
    out += succ_ratio.obligations()
    return out


def _positive(name: str, expr: sp.Expr) -> Step:
    return Step(name, gt(expr, 0), SignByAssumptions())


def _hyp(name: str) -> Proof:
    return Certificate(terms=(Term((), name),))


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


def _d1_half() -> Proof:
    return Apply(
        steps.d1_half(),
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
    lemma = small_eps.final_small_eps()
    p, g2, R2p = small_eps.p, small_eps.g2, small_eps.R2
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
        final=Apply(
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
    return Apply(
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
    return Apply(
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


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.pdm`."""
    return [
        HeadlineProof(P1, _p1()),
        HeadlineProof(D1_ABOVE_HALF, _d1_above_half()),
        HeadlineProof(D1_HALF, _d1_half()),
        HeadlineProof(D1_BELOW_HALF, _d1_below_half()),
        HeadlineProof(D2, _d2()),
        HeadlineProof(D3, _d3()),
        HeadlineProof(L1, _l1()),
        HeadlineProof(MU, Identity()),
        succ_ratio.headline(),
    ]
