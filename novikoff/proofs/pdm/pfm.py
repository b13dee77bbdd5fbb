"""P1: the fixed-margin perceptron PFM(beta), beta = (1 - eps) gamma, through Lemma 1; a
helper of :mod:`novikoff.proofs.pdm`.

Derived here from PFM's update condition w.z <= beta ||w|| (the paper's (7)):

1. energy: ||w'||^2 <= ||w||^2 + 2 beta ||w|| + R^2;
2. norm step: ||w'|| <= ||w|| + beta + R^2/(2 ||w||);
3. telescoping with ||w_k|| >= k gamma (D3): ||w_t|| <= R + (t - 1) beta + (R^2/(2 gamma)) H(t - 1);
4. with t gamma <= ||w_t|| and H(t) <= 1 + ln t: t <= delta (1 + C + ln t),
   delta = R^2/(2 eps gamma^2), C = 2 gamma/R;
5. Lemma 1 (delta >= e^-C because 2 x^2 e^-2x <= 1 on [0, 1], x = gamma/R).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Certificate,
    Chain,
    Forall,
    Induction,
    Interval,
    Obligation,
    SignByAssumptions,
    Step,
    Term,
    ge,
    gt,
    le,
    positive_in_induction,
)
from novikoff.proofs.pdm import lemma1
from novikoff.spec.pdm import P1

__all__ = ["norm_step", "obligations", "p1", "small_x_bound"]

E = sp.E
R, gamma, eps = sp.symbols("R gamma eps", positive=True)
t = sp.Symbol("t", integer=True)
beta = (1 - eps) * gamma
HALF = Fraction(1, 2)


def energy() -> Obligation:
    wn, wn1, wz, z2 = sp.symbols("wn wn1 wz z2", real=True)
    return Obligation(
        name="P1 energy: ||w'||^2 <= ||w||^2 + 2 beta ||w|| + R^2",
        spec_id="P1",
        hypotheses={
            "expansion": sp.Eq(wn1**2, wn**2 + 2 * wz + z2),
            "pfm_update": le(wz, beta * wn),
            "radius": le(z2, R**2),
        },
        claim=le(wn1**2, wn**2 + 2 * beta * wn + R**2),
        proof=Certificate(substitutions=("expansion",), terms=(Term((2,), "pfm_update"), Term((), "radius"))),
    )


def norm_step() -> Obligation:
    """From the energy bound: ||w'|| <= X = ||w|| + beta + R^2/(2||w||), since
    (X + ||w'||)(X - ||w'||) = X^2 - ||w'||^2 >= beta^2 + beta R^2/||w|| + (R^2/(2||w||))^2 >= 0."""
    wn, wn1 = sp.symbols("wn wn1", real=True)
    X = wn + beta + R**2 / (2 * wn)
    return Obligation(
        name="P1 norm step: ||w'|| <= ||w|| + beta + R^2/(2 ||w||)",
        spec_id="P1",
        hypotheses={
            "wn_pos": gt(wn, 0),
            "wn1_nonneg": ge(wn1, 0),
            "beta_nonneg": ge(beta, 0),
            "energy": le(wn1**2, wn**2 + 2 * beta * wn + R**2),
        },
        claim=le(wn1, X),
        proof=Chain(
            steps=(
                Step(
                    "sum_pos",
                    gt(X + wn1, 0),
                    Certificate(
                        terms=(
                            Term((), "wn_pos"),
                            Term((), "beta_nonneg"),
                            Term((HALF, ("square", R), ("inverse", "wn_pos")), None),
                            Term((), "wn1_nonneg"),
                        )
                    ),
                ),
            ),
            final=Certificate(
                multiplier=("sum_pos",),
                terms=(Term((), "energy"), Term((("square", R), ("inverse", "wn_pos")), "beta_nonneg")),
                squares=(beta, R**2 / (2 * wn)),
            ),
        ),
    )


def telescoping() -> Obligation:
    """||w_t|| <= R + (t - 1) beta + (R^2/(2 gamma)) H(t - 1) by induction from t = 1."""
    W, H = sp.Function("W"), sp.Function("H")
    return Obligation(
        name="P1 telescoping: ||w_t|| <= R + (t - 1) beta + (R^2/(2 gamma)) H(t - 1)",
        spec_id="P1",
        hypotheses={
            "t_ge_1": ge(t, 1),
            "first": le(W(1), R),
            "H0": sp.Eq(H(0), 0),
            "Hstep": Forall(t, sp.Eq(H(t), H(t - 1) + 1 / t), start=1),
            "step": Forall(t, le(W(t + 1), W(t) + beta + R**2 / (2 * W(t))), start=1),
            "D3": Forall(t, ge(W(t), t * gamma), start=1),
            "W_pos": Forall(t, gt(W(t), 0), start=1),
            "gamma_pos": gt(gamma, 0),
        },
        claim=le(W(t), R + (t - 1) * beta + R**2 / (2 * gamma) * H(t - 1)),
        proof=Induction(
            t,
            start=1,
            base=Certificate(substitutions=("H0",), terms=(Term((), "first"),)),
            step=Chain(
                steps=(positive_in_induction("t_pos", t, 1),),
                # R^2/(2 gamma t) - R^2/(2 W) = R^2 (W - t gamma)/(2 gamma t W)
                final=Certificate(
                    substitutions=("Hstep",),
                    terms=(
                        Term((), "IH"),
                        Term((), "step"),
                        Term(
                            (
                                HALF,
                                ("square", R),
                                ("inverse", "gamma_pos"),
                                ("inverse", "t_pos"),
                                ("inverse", "W_pos"),
                            ),
                            "D3",
                        ),
                    ),
                ),
            ),
        ),
    )


def lemma_form() -> Obligation:
    """t gamma <= ||w_t|| <= R + (t - 1) beta + (R^2/(2 gamma)) H(t - 1) and
    H(t - 1) = H(t) - 1/t, H(t) <= 1 + ln t give t <= delta (1 + C + ln t)."""
    Wt, Hm, Ht = sp.symbols("W_t H_prev H_t", real=True)
    tp = sp.Symbol("t", positive=True)
    delta = R**2 / (2 * eps * gamma**2)
    C = 2 * gamma / R
    return Obligation(
        name="P1 lemma form: t <= delta (1 + C + ln t), delta = R^2/(2 eps gamma^2), C = 2 gamma/R",
        spec_id="P1",
        hypotheses={
            "t_pos": gt(tp, 0),
            "eps_pos": gt(eps, 0),
            "gamma_pos": gt(gamma, 0),
            "one_minus_eps_nonneg": ge(1 - eps, 0),
            "D3": ge(Wt, tp * gamma),
            "tele": le(Wt, R + (tp - 1) * beta + R**2 / (2 * gamma) * Hm),
            "Hstep": sp.Eq(Ht, Hm + 1 / tp),
            "harmonic": le(Ht, 1 + sp.log(tp)),
        },
        claim=le(tp, delta * (1 + C + sp.log(tp))),
        proof=Certificate(
            multiplier=("eps_pos", "gamma_pos"),
            substitutions=("Hstep",),
            terms=(
                Term((HALF, ("square", R), ("inverse", "gamma_pos")), "harmonic"),
                Term((HALF, ("square", R), ("inverse", "gamma_pos"), ("inverse", "t_pos")), None),
                Term((), "tele"),
                Term((), "D3"),
                Term(("one_minus_eps_nonneg",), "gamma_pos"),
            ),
        ),
        note="W_t, H_prev, H_t stand for ||w_t||, H(t - 1), H(t); 'tele' is the telescoping obligation, "
        "'harmonic' the harmonic-number bound, 'D3' the dynamic bound",
    )


def small_x_bound() -> Obligation:
    """2 x^2 e^{-2x} <= 1 on [0, 1] (its maximum there is 2/e^2)."""
    x = sp.Symbol("x", real=True)
    return Obligation(
        name="2 x^2 exp(-2x) <= 1 for x in [0, 1]",
        spec_id="P1",
        hypotheses={"x_ge_0": ge(x, 0), "x_le_1": le(x, 1)},
        claim=le(2 * x**2 * sp.exp(-2 * x), 1),
        proof=Interval({"x": (0, 1)}, "x = gamma/R lies in [0, 1] because gamma <= R"),
    )


def p1() -> Obligation:
    """P1 itself: Lemma 1 applied with delta = R^2/(2 eps gamma^2) and C = 2 gamma/R."""
    tp = sp.Symbol("t", positive=True)
    delta = R**2 / (2 * eps * gamma**2)
    C = 2 * gamma / R
    x = sp.Symbol("x", real=True)
    claim = P1.conclusion.xreplace({sp.Symbol("t", positive=True): tp})
    return Obligation(
        name="P1: PFM updates t <= (1 + 1/e) delta (C + ln((1 + e) delta))",
        spec_id="P1",
        hypotheses={
            "t_pos": gt(tp, 0),
            "eps_pos": gt(eps, 0),
            "one_minus_eps_nonneg": ge(1 - eps, 0),
            "gamma_pos": gt(gamma, 0),
            "R_pos": gt(R, 0),
            "gamma_le_R": le(gamma, R),
            "lemma_form": le(tp, delta * (1 + C + sp.log(tp))),
        },
        claim=claim,
        proof=Chain(
            steps=(
                Step(
                    "small_x",
                    le(2 * (gamma / R) ** 2 * sp.exp(-2 * gamma / R), 1),
                    Apply(
                        small_x_bound(),
                        {x: gamma / R},
                        {
                            "x_ge_0": Certificate(multiplier=("R_pos",), terms=(Term((), "gamma_pos"),)),
                            "x_le_1": Certificate(multiplier=("R_pos",), terms=(Term((), "gamma_le_R"),)),
                        },
                    ),
                ),
                Step("exp_neg_pos", gt(sp.exp(-2 * gamma / R), 0), SignByAssumptions()),
                # (2 eps gamma^2/R^2)(delta - e^-C) = (1 - 2x^2 e^-2x) + 2 x^2 e^-2x (1 - eps), x = gamma/R
                Step(
                    "delta_big",
                    ge(delta, sp.exp(-C)),
                    Certificate(
                        multiplier=(
                            2,
                            "eps_pos",
                            "gamma_pos",
                            "gamma_pos",
                            ("inverse", "R_pos"),
                            ("inverse", "R_pos"),
                        ),
                        terms=(
                            Term((), "small_x"),
                            Term((2, ("square", gamma / R), "exp_neg_pos"), "one_minus_eps_nonneg"),
                        ),
                    ),
                ),
            ),
            final=Apply(
                lemma1.l1(),
                {
                    sp.Symbol("t", positive=True): tp,
                    sp.Symbol("delta", positive=True): delta,
                    sp.Symbol("C", real=True): C,
                },
                {
                    "t_pos": Certificate(terms=(Term((), "t_pos"),)),
                    "delta_pos": SignByAssumptions(),
                    "delta_big": Certificate(terms=(Term((), "delta_big"),)),
                    "exp_pos": SignByAssumptions(),
                    "hyp": Certificate(terms=(Term((), "lemma_form"),)),
                },
            ),
        ),
    )


def obligations() -> list[Obligation]:
    return [energy(), norm_step(), telescoping(), lemma_form(), small_x_bound(), p1()]
