"""L1 (the PDM paper's Lemma 1, form inferred) and the facts it rests on; a helper of
:mod:`novikoff.proofs.pdm`.

Change of variables: u = t/delta > 0 and a = C + ln delta. Then the hypothesis
t <= delta (1 + C + ln t) reads phi(u) = u - ln u <= 1 + a, the conclusion reads
u <= g(a) = c (a + b) with c = 1 + 1/e and b = ln(1 + e), and delta >= e^-C reads
a >= 0. The core argument:

- g(a) > 1 for a >= 0 (c b > 1, checked by interval arithmetic);
- h(a) = phi(g(a)) - 1 - a >= 0 for a >= 0: h is decreasing on [0, a*] and
  increasing on [a*, oo) with a* = e - b, and h(a*) = 0 exactly (the bound is
  tight there);
- if u > g(a), the tangent of the convex phi at g gives
  phi(u) >= phi(g) + (1 - 1/g)(u - g) > phi(g) >= 1 + a, contradicting phi(u) <= 1 + a.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Cases,
    Certificate,
    Chain,
    Contradiction,
    Interval,
    Monotone,
    Obligation,
    Step,
    Term,
    ge,
    gt,
    le,
)

__all__ = ["G_OF_A", "l1", "l1_core", "log_ge_zero"]

E = sp.E
u = sp.Symbol("u", positive=True)
a = sp.Symbol("a", real=True)
b_const = sp.log(1 + E)
c_const = 1 + 1 / E
G_OF_A = c_const * (a + b_const)
A_STAR = E - b_const


CONSTANTS = (
    Step("E_pos", gt(E, 0), Interval({}, "a constant")),
    Step("b_pos", gt(b_const, 0), Interval({}, "a constant")),
    Step("c_pos", gt(c_const, 0), Interval({}, "a constant")),
    Step("cb_gt_1", gt(c_const * b_const - 1, 0), Interval({}, "a constant")),
)


def _h_nonneg() -> Cases:
    """h(a) = g - ln g - 1 - a >= 0 for a >= 0, split at a* = e - ln(1 + e)."""
    g = G_OF_A
    h = g - sp.log(g) - 1 - a
    right = Monotone(  # increasing on [a*, oo): (a + b) h'(a) = (a - a*)/e
        f=h,
        x=a,
        a=A_STAR,
        domain=("case",),
        derivative_proof=Chain(
            steps=(
                Step(
                    "apb_pos",
                    gt(a + b_const, 0),
                    Certificate(terms=(Term((), "x_ge_a"), Term((), "E_pos"))),
                ),
            ),
            final=Certificate(multiplier=("apb_pos",), terms=(Term((("inverse", "E_pos"),), "x_ge_a"),)),
        ),
    )
    left = Monotone(  # decreasing on [0, a*]: (a + b)(-h'(a)) = (a* - a)/e
        f=h,
        x=a,
        a=sp.Integer(0),
        b=A_STAR,
        decreasing=True,
        domain=("a_nonneg", "case"),
        derivative_proof=Chain(
            steps=(
                Step(
                    "apb_pos",
                    gt(a + b_const, 0),
                    Certificate(terms=(Term((), "x_ge_a"), Term((), "b_pos"))),
                ),
            ),
            final=Certificate(multiplier=("apb_pos",), terms=(Term((("inverse", "E_pos"),), "x_le_b"),)),
        ),
    )
    return Cases(a - A_STAR, nonneg=right, neg=left)


def l1_core() -> Obligation:
    """u > 0, a >= 0, u - ln u <= 1 + a  =>  u <= (1 + 1/e)(a + ln(1 + e))."""
    g = G_OF_A
    tangent = Monotone(  # phi(u) - phi(g) - (1 - 1/g)(u - g) >= 0 for u >= g (phi convex)
        f=(u - sp.log(u)) - (g - sp.log(g)) - (1 - 1 / g) * (u - g),
        x=u,
        a=g,
        domain=("case",),
        derivative_proof=Chain(  # u >= g > 0 on the interval: u_pos is about the point, not usable
            steps=(Step("u_pos", gt(u, 0), Certificate(terms=(Term((), "x_ge_a"), Term((), "g_pos")))),),
            final=Certificate(multiplier=("u_pos", "g_pos"), terms=(Term((), "x_ge_a"),)),
        ),
    )
    contradiction = Contradiction(
        Certificate(
            terms=(
                Term((), "hyp"),
                Term((), "tangent"),
                Term((), "h_nonneg"),
                Term((("inverse", "g_pos"), "case"), "g_gt_1"),
            )
        )
    )
    return Obligation(
        name="L1 core: u - ln u <= 1 + a implies u <= (1 + 1/e)(a + ln(1 + e))",
        spec_id="L1",
        hypotheses={
            "u_pos": gt(u, 0),
            "a_nonneg": ge(a, 0),
            "hyp": le(u - sp.log(u), 1 + a),
        },
        claim=le(u, g),
        proof=Chain(
            steps=(
                *CONSTANTS,
                Step(
                    "g_gt_1",
                    gt(g - 1, 0),
                    Certificate(terms=(Term(("c_pos",), "a_nonneg"), Term((), "cb_gt_1"))),
                ),
                Step("g_pos", gt(g, 0), Certificate(terms=(Term((), "g_gt_1"), Term((1,), None)))),
                Step("h_nonneg", ge(g - sp.log(g) - 1 - a, 0), _h_nonneg()),
            ),
            final=Cases(
                g - u,
                nonneg=Certificate(terms=(Term((), "case"),)),
                neg=Chain(
                    steps=(Step("tangent", ge(tangent.f, 0), tangent),),
                    final=contradiction,
                ),
            ),
        ),
    )


def log_ge_zero() -> Obligation:
    """ln y >= 0 for y >= 1 (ln 1 = 0 and (ln y)' = 1/y > 0)."""
    y = sp.Symbol("y", positive=True)
    return Obligation(
        name="ln y >= 0 for y >= 1",
        spec_id="L1",
        hypotheses={"y_ge_1": ge(y, 1), "y_pos": gt(y, 0)},
        claim=ge(sp.log(y), 0),
        proof=Monotone(
            f=sp.log(y),
            x=y,
            a=sp.Integer(1),
            domain=("y_ge_1",),
            derivative_proof=Chain(  # y >= 1 > 0 on [1, y]
                steps=(Step("y_pos", gt(y, 0), Certificate(terms=(Term((), "x_ge_a"), Term((1,), None)))),),
                final=Certificate(multiplier=("y_pos",), terms=(Term((1,), None),)),
            ),
        ),
    )


def l1() -> Obligation:
    """L1 in the original variables, through the change of variables and the core.

    Proved with the weaker hypothesis delta >= e^-C (so it implies L1 as stated);
    t >= e^-C is not needed. ``exp_pos`` (e^C > 0) is the one analytic fact assumed.
    """
    t = sp.Symbol("t", positive=True)
    delta = sp.Symbol("delta", positive=True)
    C = sp.Symbol("C", real=True)
    a_of = C + sp.log(delta)
    u_of = t / delta
    return Obligation(
        name="L1: t <= delta (1 + C + ln t) implies t <= (1 + 1/e) delta (C + ln((1 + e) delta))",
        spec_id="L1",
        hypotheses={
            "t_pos": gt(t, 0),
            "delta_pos": gt(delta, 0),
            "delta_big": ge(delta, sp.exp(-C)),
            "exp_pos": gt(sp.exp(C), 0),
            "hyp": le(t, delta * (1 + C + sp.log(t))),
        },
        claim=le(t, (1 + 1 / E) * delta * (C + sp.log((1 + E) * delta))),
        proof=Chain(
            steps=(
                # delta e^C >= 1, so a = C + ln delta = ln(delta e^C) >= 0
                Step(
                    "y_ge_1",
                    ge(delta * sp.exp(C), 1),
                    Certificate(terms=(Term(("exp_pos",), "delta_big"),)),
                ),
                Step(
                    "a_nonneg",
                    ge(a_of, 0),
                    Apply(
                        log_ge_zero(),
                        {sp.Symbol("y", positive=True): delta * sp.exp(C)},
                        {
                            "y_ge_1": Certificate(terms=(Term((), "y_ge_1"),)),
                            "y_pos": Certificate(terms=(Term((), "y_ge_1"), Term((1,), None))),
                        },
                    ),
                ),
                Step(
                    "core",
                    le(u_of, G_OF_A.subs(a, a_of)),
                    Apply(
                        l1_core(),
                        {u: u_of, a: a_of},
                        {
                            "u_pos": Certificate(multiplier=("delta_pos",), terms=(Term((), "t_pos"),)),
                            "a_nonneg": Certificate(terms=(Term((), "a_nonneg"),)),
                            # delta (1 + a - (u - ln u)) = delta (1 + C + ln t) - t
                            "hyp": Certificate(multiplier=("delta_pos",), terms=(Term((), "hyp"),)),
                        },
                    ),
                ),
            ),
            # (1 + 1/e) delta (C + ln((1 + e) delta)) - t = delta (g(a) - u)
            final=Certificate(terms=(Term(("delta_pos",), "core"),)),
        ),
    )
