"""The proof of :data:`novikoff.spec.pdm.PDM_SUCC_RATIO` (DS1), PDM-succ's stage ratio bound.

With p = 2(1 - eps), a = ||w_t||^2 and a0 = ||w_t0||^2 the three premises are
D3 (t^2 gamma^2 <= a), the energy recursion from t0 and the previous stage's end
(a0 (1 - eps')^2 <= t0^2 gamma^2). With A = t^(2 eps) and
B = t0^(2 eps) (1/(1 - eps')^2 + R^2/((1 - 2 eps) gamma^2 t0)) the claim A <= B is one
certificate:

    gamma^2 t^p (B - A) = (a - t^2 gamma^2)
                        + (t^p (a0 t0^-p + R^2 t0^(1-p)/(1 - 2 eps)) - a)
                        + t^p t0^-p (1 - eps')^-2 (t0^2 gamma^2 - a0 (1 - eps')^2).

The energy premise is the recursion a(j+1) <= (1 + p/j) a(j) + R^2 of PDM's condition,
telescoped from t0 with Bernoulli ((1 + p/j) <= ((j+1)/j)^p) and the integral comparison
sum_{t0 < j <= t} j^-p <= t0^(1-p)/(p - 1): :func:`energy_from_t0`, :func:`sums_from_t0` and
:func:`energy_premise` prove it from the recursion (the steps
:mod:`novikoff.proofs.pdm.small_eps` proves from t = 1, here from t0), the recursion being
PDM's one-update inequality, a premise as in D1.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Certificate,
    Chain,
    Forall,
    Induction,
    Obligation,
    SignByAssumptions,
    Step,
    Term,
    ge,
    gt,
    le,
)
from novikoff.proofs.pdm import small_eps
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.pdm import PDM_SUCC_RATIO

__all__ = ["energy_from_t0", "energy_premise", "headline", "obligation", "obligations", "sums_from_t0"]


def _proof() -> Chain:
    t, t0, eps, eps_prev, _R2, gamma2 = PDM_SUCC_RATIO.symbols
    p = 2 - 2 * eps
    return Chain(
        steps=(
            Step("t_pos", gt(t, 0), SignByAssumptions()),
            Step("t0_pos", gt(t0, 0), SignByAssumptions()),
            Step("g2_pos", gt(gamma2, 0), SignByAssumptions()),
            Step(
                "one_minus_eps_prev_pos",
                gt(1 - eps_prev, 0),
                Certificate(terms=(Term((), "eps_prev_lt_1"),)),
            ),
        ),
        final=Certificate(
            multiplier=("g2_pos", ("power", "t_pos", p)),
            terms=(
                Term((), "D3"),
                Term((), "energy"),
                Term(
                    (
                        ("power", "t_pos", p),
                        ("power", "t0_pos", -p),
                        ("power", "one_minus_eps_prev_pos", -2),
                    ),
                    "previous",
                ),
            ),
        ),
    )


def headline() -> HeadlineProof:
    """DS1's headline proof record (in the proof registry)."""
    return HeadlineProof(PDM_SUCC_RATIO, _proof())


def obligation() -> Obligation:
    """DS1 as an obligation: premises and hypotheses imply the conclusion."""
    return headline().obligation()


# --------------------------------------------------------------- the energy premise from t0
p, x, y, R2 = small_eps.p, small_eps.x, small_eps.y, small_eps.R2
A, S = small_eps.A, small_eps.S
k = sp.Symbol("k", integer=True, nonnegative=True)
t0 = sp.Symbol("t0", positive=True)
T = t0 + k
Q = A(t0) * t0 ** (-p) + R2 * (S(T) - S(t0))


def energy_from_t0() -> Obligation:
    """The recursion a(t+1) <= (1 + p/t) a(t) + R^2 telescoped from t0, by induction on k with
    Bernoulli at y = t0 + k (as :func:`novikoff.proofs.pdm.small_eps.energy_small_eps` from 1)."""
    return Obligation(
        name="DS1 energy from t0: a(t0+k) <= (t0+k)^p (a(t0) t0^-p + R^2 (S(t0+k) - S(t0)))",
        spec_id="DS1",
        hypotheses={
            "p_ge_1": ge(p - 1, 0),
            "p_pos": gt(p, 0),
            "t0_pos": gt(t0, 0),
            "R2_nonneg": ge(R2, 0),
            "a0_nonneg": ge(A(t0), 0),
            "Sstep": Forall(k, sp.Eq(S(T + 1), S(T) + (T + 1) ** (-p)), start=0),
            "S_mono": Forall(k, ge(S(T) - S(t0), 0), start=0),
            "recursion": Forall(k, le(A(T + 1), (1 + p / T) * A(T) + R2), start=0),
        },
        claim=le(A(T), T**p * Q),
        proof=Induction(
            k,
            start=0,
            base=Certificate(),
            step=Chain(
                steps=(
                    Step("t_pos", gt(T, 0), Certificate(terms=(Term((), "n_ge_start"), Term((), "t0_pos")))),
                    Step(
                        "bernoulli",
                        ge((T + 1) ** p, T**p + p * T ** (p - 1)),
                        Apply(
                            small_eps.bernoulli(),
                            {y: T, x: sp.Integer(1)},
                            {
                                "y_pos": Certificate(terms=(Term((), "t_pos"),)),
                                "x_nonneg": Certificate(terms=(Term((1,), None),)),
                                "p_ge_1": Certificate(terms=(Term((), "p_ge_1"),)),
                            },
                        ),
                    ),
                ),
                final=Certificate(
                    substitutions=("Sstep",),
                    terms=(
                        Term((), "recursion"),
                        Term((), "IH"),
                        Term(("p_pos", ("inverse", "t_pos")), "IH"),
                        Term(("a0_nonneg", ("power", "t0_pos", -p)), "bernoulli"),
                        Term(("R2_nonneg", "S_mono"), "bernoulli"),
                    ),
                ),
            ),
        ),
    )


def sums_from_t0() -> Obligation:
    """sum_{t0 < j <= t0+k} j^-p <= (t0^(1-p) - (t0+k)^(1-p))/(p-1), by induction on k with the
    tangent gap of x^(1-p)."""
    return Obligation(
        name="DS1 power sums from t0: S(t0+k) - S(t0) <= (t0^(1-p) - (t0+k)^(1-p))/(p-1)",
        spec_id="DS1",
        hypotheses={
            "p_gt_1": gt(p - 1, 0),
            "p_pos": gt(p, 0),
            "t0_ge_1": ge(t0 - 1, 0),
            "Sstep": Forall(k, sp.Eq(S(T + 1), S(T) + (T + 1) ** (-p)), start=0),
        },
        claim=le(S(T) - S(t0), (t0 ** (1 - p) - T ** (1 - p)) / (p - 1)),
        proof=Induction(
            k,
            start=0,
            base=Certificate(),
            step=Chain(
                steps=(
                    Step(
                        "gap",
                        ge(T ** (1 - p) - (T + 1) ** (1 - p), (p - 1) * (T + 1) ** (-p)),
                        Apply(
                            small_eps.tangent_gap(),
                            {sp.Symbol("t", positive=True): T, x: sp.Integer(1)},
                            {
                                "t_ge_1": Certificate(terms=(Term((), "t0_ge_1"), Term((), "n_ge_start"))),
                                "p_gt_1": Certificate(terms=(Term((), "p_gt_1"),)),
                                "p_pos": Certificate(terms=(Term((), "p_pos"),)),
                                "x_ge_0": Certificate(terms=(Term((1,), None),)),
                                "x_le_1": Certificate(),
                            },
                        ),
                    ),
                ),
                final=Certificate(
                    multiplier=("p_gt_1",),
                    substitutions=("Sstep",),
                    terms=(Term(("p_gt_1",), "IH"), Term((), "gap")),
                ),
            ),
        ),
    )


def energy_premise() -> Obligation:
    """The two above give DS1's energy premise, a(t) <= t^p (a(t0) t0^-p + R^2 t0^(1-p)/(p-1))
    (with p = 2(1 - eps): t0^-p = t0^(2 eps - 2), t0^(1-p) = t0^(2 eps - 1), p - 1 = 1 - 2 eps)."""
    return Obligation(
        name="DS1 energy premise: a(t) <= t^p (a(t0) t0^-p + R^2 t0^(1-p)/(p-1)), t = t0 + k",
        spec_id="DS1",
        hypotheses={
            "p_gt_1": gt(p - 1, 0),
            "t0_pos": gt(t0, 0),
            "R2_nonneg": ge(R2, 0),
            "energy": le(A(T), T**p * Q),
            "sums": le(S(T) - S(t0), (t0 ** (1 - p) - T ** (1 - p)) / (p - 1)),
        },
        claim=le(A(T), T**p * (A(t0) * t0 ** (-p) + R2 * t0 ** (1 - p) / (p - 1))),
        proof=Chain(
            steps=(Step("T_pos", gt(T, 0), SignByAssumptions()),),
            final=Certificate(
                terms=(
                    Term((), "energy"),
                    Term(("R2_nonneg", ("power", "T_pos", p)), "sums"),
                    Term(
                        (
                            "R2_nonneg",
                            ("power", "T_pos", p),
                            ("power", "T_pos", 1 - p),
                            ("inverse", "p_gt_1"),
                        ),
                        None,
                    ),
                )
            ),
        ),
    )


def obligations() -> list[Obligation]:
    """The step obligations of DS1's energy premise (DS1 itself is :func:`headline`, which the
    registry checks with the other headline proofs)."""
    return [energy_from_t0(), sums_from_t0(), energy_premise()]
