"""D1 for eps < 1/2 (a helper of :mod:`novikoff.proofs.pdm`): with p = 2(1 - eps) in (1, 2),

1. Bernoulli (homogeneous form): (y + x)^p >= y^p + p y^(p-1) x for y > 0, x >= 0, p >= 1;
2. the power sums S(t) = sum_{j <= t} j^-p satisfy S(t) <= (p - t^(1-p))/(p - 1) <= p/(p - 1),
   from t^(1-p) - (t+1)^(1-p) >= (p - 1)(t+1)^-p (the convex x^(1-p) lies above its tangent);
3. the recursion a(t+1) <= (1 + p/t) a(t) + R^2 gives a(t) <= R^2 t^p S(t) by induction
   (Bernoulli at y = t, x = 1 turns (1 + p/t) t^p into at most (t+1)^p);
4. t^2 gamma^2 <= a(t) <= (p/(p-1)) R^2 t^p, so t^(2-p) <= K = (p/(p-1)) R^2/gamma^2 and
   t <= K^(1/(2-p)), which is D1's third regime with p/(p-1) = 2(1-eps)/(1-2eps), 1/(2-p) = 1/(2 eps).
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Certificate,
    Chain,
    Forall,
    Identity,
    Induction,
    Monotone,
    Obligation,
    Step,
    Term,
    ge,
    gt,
    le,
    positive_in_induction,
)

__all__ = ["bernoulli", "energy_small_eps", "final_small_eps", "obligations"]

p = sp.Symbol("p", real=True)
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", positive=True)
t = sp.Symbol("t", integer=True)
R2, g2 = sp.symbols("R2 g2", real=True)
A = sp.Function("a")
S = sp.Function("S")


def _base_pos(expr: sp.Expr, terms: tuple[Term, ...]) -> Step:
    return Step("base_pos", gt(expr, 0), Certificate(terms=terms))


def bernoulli() -> Obligation:
    """(y + x)^p >= y^p + p y^(p-1) x: increasing in x, since its derivative
    p((y + x)^(p-1) - y^(p-1)) is >= 0 because (y + x)^(p-1) increases in x."""
    inner = Monotone(  # (y + x)^(p-1) - y^(p-1) >= 0 for x >= 0: derivative (p-1)(y+x)^(p-2)
        f=(y + x) ** (p - 1) - y ** (p - 1),
        x=x,
        a=sp.Integer(0),
        domain=("x_ge_a",),
        derivative_proof=Chain(
            steps=(_base_pos(y + x, (Term((), "y_pos"), Term((), "x_ge_a"))),),
            final=Certificate(terms=(Term((("power", "base_pos", p - 2),), "p_ge_1"),)),
        ),
    )
    return Obligation(
        name="Bernoulli: (y + x)^p >= y^p + p y^(p-1) x for y > 0, x >= 0, p >= 1",
        spec_id="D1",
        hypotheses={"y_pos": gt(y, 0), "x_nonneg": ge(x, 0), "p_ge_1": ge(p - 1, 0)},
        claim=ge((y + x) ** p, y**p + p * y ** (p - 1) * x),
        proof=Monotone(
            f=(y + x) ** p - y**p - p * y ** (p - 1) * x,
            x=x,
            a=sp.Integer(0),
            domain=("x_nonneg",),
            derivative_proof=Chain(
                steps=(
                    Step("mono", ge((y + x) ** (p - 1) - y ** (p - 1), 0), inner),
                    Step("p_pos", gt(p, 0), Certificate(terms=(Term((), "p_ge_1"), Term((1,), None)))),
                ),
                final=Certificate(terms=(Term(("p_pos",), "mono"),)),
            ),
        ),
    )


def tangent_gap() -> Obligation:
    """For t >= 1, q = p - 1 > 0 and 0 <= x <= 1:
    (t+1-x)^-q - (t+1)^-q - q (t+1)^(-q-1) x >= 0 (x^-q is convex: its slope rises)."""
    tp = sp.Symbol("t", positive=True)
    q = p - 1
    base = tp + 1 - x
    inner = Monotone(  # (t+1-x)^(-q-1) - (t+1)^(-q-1) >= 0: derivative (q+1)(t+1-x)^(-q-2)
        f=base ** (-q - 1) - (tp + 1) ** (-q - 1),
        x=x,
        a=sp.Integer(0),
        b=sp.Integer(1),
        domain=("x_ge_a", "x_le_b"),
        derivative_proof=Chain(
            steps=(_base_pos(base, (Term((), "t_ge_1"), Term((), "x_le_b"), Term((1,), None))),),
            final=Certificate(terms=(Term((("power", "base_pos", -q - 2),), "p_pos"),)),
        ),
    )
    return Obligation(
        name="power sums: (t+1-x)^(1-p) - (t+1)^(1-p) >= (p-1)(t+1)^-p x for x in [0, 1]",
        spec_id="D1",
        hypotheses={
            "t_ge_1": ge(tp - 1, 0),
            "p_gt_1": gt(p - 1, 0),
            "p_pos": gt(p, 0),
            "x_ge_0": ge(x, 0),
            "x_le_1": le(x, 1),
        },
        claim=ge(base ** (-q) - (tp + 1) ** (-q), q * (tp + 1) ** (-q - 1) * x),
        proof=Monotone(
            f=base ** (-q) - (tp + 1) ** (-q) - q * (tp + 1) ** (-q - 1) * x,
            x=x,
            a=sp.Integer(0),
            b=sp.Integer(1),
            domain=("x_ge_0", "x_le_1"),
            derivative_proof=Chain(
                steps=(Step("slope", ge(base ** (-q - 1) - (tp + 1) ** (-q - 1), 0), inner),),
                final=Certificate(terms=(Term(("p_gt_1",), "slope"),)),
            ),
        ),
    )


def power_sum_bound() -> Obligation:
    """S(t) <= (p - t^(1-p))/(p - 1) for t >= 1 (S(1) = 1, S(t+1) = S(t) + (t+1)^-p)."""
    tp = sp.Symbol("t", integer=True, positive=True)
    bound = (p - tp ** (1 - p)) / (p - 1)
    tpos = sp.Symbol("t", positive=True)
    return Obligation(
        name="power sums: S(t) = sum_{j<=t} j^-p <= (p - t^(1-p))/(p - 1)",
        spec_id="D1",
        hypotheses={
            "p_gt_1": gt(p - 1, 0),
            "p_pos": gt(p, 0),
            "S1": sp.Eq(S(1), 1),
            "Sstep": Forall(tp, sp.Eq(S(tp + 1), S(tp) + (tp + 1) ** (-p)), start=1),
        },
        claim=le(S(tp), bound),
        proof=Induction(
            tp,
            start=1,
            base=Certificate(substitutions=("S1",)),
            step=Chain(
                steps=(
                    Step(
                        "gap",
                        ge(tp ** (1 - p) - (tp + 1) ** (1 - p), (p - 1) * (tp + 1) ** (-p)),
                        Apply(
                            tangent_gap(),
                            {tpos: tp, x: sp.Integer(1)},
                            {
                                "t_ge_1": Certificate(terms=(Term((), "n_ge_start"),)),
                                "p_gt_1": Certificate(terms=(Term((), "p_gt_1"),)),
                                "p_pos": Certificate(terms=(Term((), "p_pos"),)),
                                "x_ge_0": Certificate(terms=(Term((1,), None),)),
                                "x_le_1": Certificate(),
                            },
                        ),
                    ),
                ),
                # (p-1)(bound(t+1) - S(t+1)) = (p-1)(bound(t) - S(t)) + [gap]
                final=Certificate(
                    multiplier=("p_gt_1",),
                    substitutions=("Sstep",),
                    terms=(Term(("p_gt_1",), "IH"), Term((), "gap")),
                ),
            ),
        ),
    )


def energy_small_eps() -> Obligation:
    """a(t) <= R^2 t^p S(t) by induction from the recursion a(t+1) <= (1 + p/t) a(t) + R^2."""
    tp = sp.Symbol("t", integer=True, positive=True)
    return Obligation(
        name="D1 (eps < 1/2) energy: a(t) <= R^2 t^p S(t), p = 2(1 - eps)",
        spec_id="D1",
        hypotheses={
            "p_ge_1": ge(p - 1, 0),
            "p_pos": gt(p, 0),
            "R2_nonneg": ge(R2, 0),
            "first": le(A(1), R2),
            "S1": sp.Eq(S(1), 1),
            "Sstep": Forall(tp, sp.Eq(S(tp + 1), S(tp) + (tp + 1) ** (-p)), start=1),
            "S_nonneg": Forall(tp, ge(S(tp), 0), start=1),
            "recursion": Forall(tp, le(A(tp + 1), (1 + p / tp) * A(tp) + R2), start=1),
        },
        claim=le(A(tp), R2 * tp**p * S(tp)),
        proof=Induction(
            tp,
            start=1,
            base=Certificate(substitutions=("S1",), terms=(Term((), "first"),)),
            step=Chain(
                steps=(
                    positive_in_induction("t_pos", tp, 1),
                    Step(
                        "bernoulli",
                        ge((tp + 1) ** p, tp**p + p * tp ** (p - 1)),
                        Apply(
                            bernoulli(),
                            {y: tp, x: sp.Integer(1)},
                            {
                                "y_pos": Certificate(terms=(Term((), "t_pos"),)),
                                "x_nonneg": Certificate(terms=(Term((1,), None),)),
                                "p_ge_1": Certificate(terms=(Term((), "p_ge_1"),)),
                            },
                        ),
                    ),
                ),
                # R^2 (t+1)^p S(t+1) - a(t+1) >= recursion slack + (1 + p/t) IH slack
                #                                + R^2 S(t) [(t+1)^p - t^p - p t^(p-1)]
                final=Certificate(
                    substitutions=("Sstep",),
                    terms=(
                        Term((), "recursion"),
                        Term((), "IH"),
                        Term(("p_pos", ("inverse", "t_pos")), "IH"),
                        Term(("R2_nonneg", "S_nonneg"), "bernoulli"),
                    ),
                ),
            ),
        ),
    )


def final_small_eps() -> Obligation:
    """t^2 g2 <= a(t), a(t) <= R^2 t^p S(t), S(t) <= p/(p-1): t^(2-p) <= K, so t <= K^(1/(2-p))."""
    tp = sp.Symbol("t", positive=True)
    a_t, s_t = sp.symbols("a_t S_t", real=True)
    K = p / (p - 1) * R2 / g2
    r = 1 / (2 - p)
    w = sp.Symbol("w", real=True)  # its positivity is proven (w_pos), not assumed
    power_mono = Monotone(  # w^r - t >= 0 for w >= t^(2-p): equal at w = t^(2-p), derivative r w^(r-1)
        f=w**r - tp,
        x=w,
        a=tp ** (2 - p),
        domain=("w_ge",),
        derivative_proof=Chain(
            steps=(
                Step(
                    "w_pos",
                    gt(w, 0),
                    Certificate(terms=(Term((), "x_ge_a"), Term((("power", "t_pos", 2 - p),), None))),
                ),
            ),
            final=Certificate(
                terms=(Term((("power", "w_pos", r - 1), ("inverse", "two_minus_p_pos")), None),)
            ),
        ),
    )
    return Obligation(
        name="D1 (eps < 1/2): t <= ((p/(p-1)) R^2/gamma^2)^(1/(2-p))",
        spec_id="D1",
        hypotheses={
            "t_pos": gt(tp, 0),
            "g2_pos": gt(g2, 0),
            "p_gt_1": gt(p - 1, 0),
            "two_minus_p_pos": gt(2 - p, 0),
            "R2_nonneg": ge(R2, 0),
            "D3": le(tp**2 * g2, a_t),
            "energy": le(a_t, R2 * tp**p * s_t),
            "sums": le(s_t, p / (p - 1)),
        },
        claim=le(tp, K**r),
        proof=Chain(
            steps=(
                # g2 (K - t^(2-p)) t^p = (p/(p-1) - S) R^2 t^p + (R^2 t^p S - a) + (a - t^2 g2)
                Step(
                    "w_ge",
                    ge(K - tp ** (2 - p), 0),
                    Certificate(
                        multiplier=("g2_pos", ("power", "t_pos", p)),
                        terms=(
                            Term(("R2_nonneg", ("power", "t_pos", p)), "sums"),
                            Term((), "energy"),
                            Term((), "D3"),
                        ),
                    ),
                ),
            ),
            final=Apply(
                Obligation(
                    "w^r >= t for w >= t^(2-p)",
                    "D1",
                    {
                        "w_ge": ge(w - tp ** (2 - p), 0),
                        "t_pos": gt(tp, 0),
                        "two_minus_p_pos": gt(2 - p, 0),
                    },
                    ge(w**r - tp, 0),
                    power_mono,
                ),
                {w: K},
                {
                    "w_ge": Certificate(terms=(Term((), "w_ge"),)),
                    "t_pos": Certificate(terms=(Term((), "t_pos"),)),
                    "two_minus_p_pos": Certificate(terms=(Term((), "two_minus_p_pos"),)),
                },
            ),
        ),
    )


def in_eps() -> list[Obligation]:
    """The p-form is D1's eps-form: p = 2(1 - eps) gives p/(p - 1) = 2(1 - eps)/(1 - 2 eps)
    and 1/(2 - p) = 1/(2 eps)."""
    eps = sp.Symbol("eps", positive=True)
    sub = {p: 2 * (1 - eps)}
    return [
        Obligation(
            "D1 (eps < 1/2): p/(p - 1) = 2(1 - eps)/(1 - 2 eps) for p = 2(1 - eps)",
            "D1",
            {"eps_lt_half": gt(sp.Rational(1, 2) - eps, 0)},
            sp.Eq((p / (p - 1)).xreplace(sub), 2 * (1 - eps) / (1 - 2 * eps), evaluate=False),
            Identity(),
        ),
        Obligation(
            "D1 (eps < 1/2): 1/(2 - p) = 1/(2 eps) for p = 2(1 - eps)",
            "D1",
            {},
            sp.Eq((1 / (2 - p)).xreplace(sub), 1 / (2 * eps), evaluate=False),
            Identity(),
        ),
    ]


def obligations() -> list[Obligation]:
    """In order; the energy and final steps take S(t) >= 0 (a sum of positive terms) and the
    power-sum bound S(t) <= p/(p - 1) (from ``power_sum_bound``, as t^(1-p) > 0) as hypotheses."""
    return [bernoulli(), tangent_gap(), power_sum_bound(), energy_small_eps(), final_small_eps(), *in_eps()]
