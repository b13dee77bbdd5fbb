"""Step obligations of the dynamic-margin perceptron (D1 for eps >= 1/2, D2, D3) and of
repeated updates (MU); a helper of :mod:`novikoff.proofs.pdm`.

Notation: ``a(t) = ||w_t||^2``, ``R2 = R^2``, ``g2 = gamma^2``, PDM's update
condition ``t w.z <= (1 - eps) ||w||^2``. D1 is derived here:
the PDM condition gives the recursion a(t+1) <= (1 + 2(1 - eps)/t) a(t) + R^2,
D3 gives a(t) >= t^2 g2, and the regimes differ in how the recursion is solved.
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
from novikoff.proofs.pdm import lemma1
from novikoff.spec.pdm import D1_ABOVE_HALF, D1_HALF, MU

__all__ = [
    "d1_above_half",
    "d1_half",
    "d1_recursion",
    "d2",
    "d3",
    "log_one_plus_ge",
    "mu",
    "obligations",
]

E = sp.E
t = sp.Symbol("t", integer=True)
eps, R2, g2 = sp.symbols("eps R2 g2", real=True)
A = sp.Function("a")  # a(t) = ||w_t||^2
H = sp.Function("H")  # harmonic numbers
wz, z2, a_, a1 = sp.symbols("wz z2 a a1", real=True)
pw_, w2_ = sp.symbols("pw w2", real=True)  # p*.w_t and ||w_t||^2 in D3


# ----------------------------------------------------------------------------- D2


def d2() -> list[Obligation]:
    """D2: at convergence t s > (1 - eps)||w||^2 for every sample, so
    s/||w|| > (1 - eps)||w||/t, and (1 - eps)||w||/t >= (1 - eps) gamma by D3."""
    tt, s, wn, gamma = sp.symbols("t s w_norm gamma", real=True)
    hyps = {
        "t_pos": gt(tt, 0),
        "wn_pos": gt(wn, 0),
        "gamma_pos": gt(gamma, 0),
        "one_minus_eps_nonneg": ge(1 - eps, 0),
        "no_update": gt(tt * s, (1 - eps) * wn**2),
        "D3": ge(wn, tt * gamma),
    }
    return [
        Obligation(
            name="D2 converged margin: w.z/||w|| > (1 - eps)||w||/t",
            spec_id="D2",
            hypotheses=hyps,
            claim=gt(s / wn, (1 - eps) * wn / tt),
            proof=Certificate(multiplier=("t_pos", "wn_pos"), terms=(Term((), "no_update"),)),
        ),
        Obligation(
            name="D2 dynamic bound: (1 - eps)||w||/t >= (1 - eps) gamma",
            spec_id="D2",
            hypotheses=hyps,
            claim=ge((1 - eps) * wn / tt, (1 - eps) * gamma),
            proof=Certificate(multiplier=("t_pos",), terms=(Term(("one_minus_eps_nonneg",), "D3"),)),
        ),
    ]


# ----------------------------------------------------------------------------- D1


def d1_recursion() -> Obligation:
    """||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 with t w.z <= (1 - eps)||w||^2 and
    ||z||^2 <= R^2 give a' <= (1 + 2 (1 - eps)/t) a + R^2."""
    a_next = sp.Symbol("a_next", real=True)
    return Obligation(
        name="D1 recursion: a(t+1) <= (1 + 2(1 - eps)/t) a(t) + R^2",
        spec_id="D1",
        hypotheses={
            "t_pos": gt(t, 0),
            "expansion": sp.Eq(a_next, a_ + 2 * wz + z2),
            "pdm_update": le(t * wz, (1 - eps) * a_),
            "radius": le(z2, R2),
        },
        claim=le(a_next, (1 + 2 * (1 - eps) / t) * a_ + R2),
        proof=Certificate(
            multiplier=("t_pos",),
            substitutions=("expansion",),
            terms=(Term((2,), "pdm_update"), Term(("t_pos",), "radius")),
        ),
    )


def _recursion(p: sp.Expr) -> Forall:
    """a(t + 1) <= (1 + p/t) a(t) + R^2 at every update t >= 1."""
    return Forall(t, le(A(t + 1), (1 + p / t) * A(t) + R2), start=1)


def d1_above_half_energy() -> Obligation:
    """eps > 1/2: a(t) <= R^2 t/(2 eps - 1) by induction from t = 1."""
    d = 2 * eps - 1
    return Obligation(
        name="D1 (eps > 1/2) energy: a(t) <= R^2 t/(2 eps - 1)",
        spec_id="D1",
        hypotheses={
            "t_ge_1": ge(t, 1),
            "d_pos": gt(d, 0),
            "one_minus_eps_nonneg": ge(1 - eps, 0),
            "first": le(A(1), R2),
            "first_nonneg": ge(A(1), 0),
            "recursion": _recursion(2 * (1 - eps)),
        },
        claim=le(A(t), R2 * t / d),
        proof=Induction(
            t,
            start=1,
            # (2 eps - 1)(R^2/(2 eps - 1) - a1) = (R^2 - a1) + 2 (1 - eps) a1
            base=Certificate(
                multiplier=("d_pos",),
                terms=(Term((), "first"), Term((2, "one_minus_eps_nonneg"), "first_nonneg")),
            ),
            step=Chain(
                steps=(positive_in_induction("t_pos", t, 1),),
                final=Certificate(
                    terms=(
                        Term((), "recursion"),
                        Term((), "IH"),
                        Term((2, ("inverse", "t_pos"), "one_minus_eps_nonneg"), "IH"),
                    )
                ),
            ),
        ),
    )


def d1_above_half() -> Obligation:
    """eps > 1/2: t^2 g2 <= a(t) <= R^2 t/(2 eps - 1) gives D1's first regime."""
    d = 2 * eps - 1
    a_t = sp.Symbol("a_t", real=True)
    spec = D1_ABOVE_HALF.conclusion
    tt = sp.Symbol("t", positive=True)
    claim = spec.xreplace(
        {
            sp.Symbol("eps", positive=True): eps,
            sp.Symbol("R2", positive=True): R2,
            sp.Symbol("gamma2", positive=True): g2,
            tt: t,
        }
    )
    return Obligation(
        name="D1 (eps > 1/2): t <= R^2/((2 eps - 1) gamma^2)",
        spec_id="D1",
        hypotheses={
            "t_pos": gt(t, 0),
            "t_ge_1": ge(t, 1),
            "d_pos": gt(d, 0),
            "g2_pos": gt(g2, 0),
            "energy": le(a_t, R2 * t / d),
            "D3": le(t**2 * g2, a_t),
        },
        claim=claim,
        proof=Certificate(
            multiplier=("t_pos", "d_pos", "g2_pos"),
            terms=(Term(("d_pos",), "energy"), Term(("d_pos",), "D3")),
        ),
    )


def log_one_plus_ge() -> Obligation:
    """ln(1 + x) >= x/(1 + x) for x >= 0 (equal at 0; derivative x/(1 + x)^2 >= 0)."""
    x = sp.Symbol("x", real=True)
    return Obligation(
        name="ln(1 + x) >= x/(1 + x) for x >= 0",
        spec_id="D1",
        hypotheses={"x_nonneg": ge(x, 0), "opx_pos": gt(1 + x, 0)},
        claim=ge(sp.log(1 + x), x / (1 + x)),
        proof=Monotone(
            f=sp.log(1 + x) - x / (1 + x),
            x=x,
            a=sp.Integer(0),
            domain=("x_nonneg",),
            derivative_proof=Chain(  # 1 + x >= 1 > 0 on [0, x]
                steps=(
                    Step("opx_pos", gt(1 + x, 0), Certificate(terms=(Term((), "x_ge_a"), Term((1,), None)))),
                ),
                final=Certificate(multiplier=("opx_pos", "opx_pos"), terms=(Term((), "x_ge_a"),)),
            ),
        ),
    )


def harmonic_bound() -> Obligation:
    """H(t) <= 1 + ln t for t >= 1, with H(1) = 1 and H(t+1) = H(t) + 1/(t+1)."""
    tp = sp.Symbol("t", integer=True, positive=True)
    h = sp.Function("H")
    x = sp.Symbol("x", real=True)
    return Obligation(
        name="harmonic numbers: H(t) <= 1 + ln t",
        spec_id="D1",
        hypotheses={
            "H1": sp.Eq(h(1), 1),
            "Hstep": Forall(tp, sp.Eq(h(tp + 1), h(tp) + 1 / (tp + 1)), start=1),
        },
        claim=le(h(tp), 1 + sp.log(tp)),
        proof=Induction(tp, start=1, base=Certificate(substitutions=("H1",)), step=_harmonic_step(tp, h, x)),
    )


def _harmonic_step(tp: sp.Symbol, h: sp.Function, x: sp.Symbol) -> Chain:
    return Chain(
        steps=(
            positive_in_induction("t_pos", tp, 1),
            Step(
                "log_step",
                ge(sp.log(1 + 1 / tp), 1 / (tp + 1)),
                Apply(
                    log_one_plus_ge(),
                    {x: 1 / tp},
                    {
                        "x_nonneg": Certificate(multiplier=("t_pos",), terms=(Term((1,), None),)),
                        "opx_pos": Certificate(terms=(Term((1,), None), Term((("inverse", "t_pos"),), None))),
                    },
                ),
            ),
        ),
        # 1 + ln(t + 1) - H(t + 1) = (1 + ln t - H(t)) + (ln(1 + 1/t) - 1/(t + 1))
        final=Certificate(substitutions=("Hstep",), terms=(Term((), "IH"), Term((), "log_step"))),
    )


def d1_half_energy() -> Obligation:
    """eps = 1/2: a(t) <= R^2 t H(t) by induction (the recursion with 2(1 - eps) = 1)."""
    return Obligation(
        name="D1 (eps = 1/2) energy: a(t) <= R^2 t H(t)",
        spec_id="D1",
        hypotheses={
            "t_ge_1": ge(t, 1),
            "first": le(A(1), R2),
            "H1": sp.Eq(H(1), 1),
            "Hstep": Forall(t, sp.Eq(H(t + 1), H(t) + 1 / (t + 1)), start=1),
            "recursion": _recursion(sp.Integer(1)),
        },
        claim=le(A(t), R2 * t * H(t)),
        proof=Induction(
            t,
            start=1,
            base=Certificate(substitutions=("H1",), terms=(Term((), "first"),)),
            step=Chain(
                steps=(
                    positive_in_induction("t_pos", t, 1),
                    positive_in_induction("tp1_pos", t + 1, 2),
                ),
                # R^2 (t+1) H(t+1) - a(t+1) >= ((t+1)/t)(R^2 t H(t) - a(t))
                final=Certificate(
                    substitutions=("Hstep",),
                    terms=(Term((), "recursion"), Term((("inverse", "t_pos"), "tp1_pos"), "IH")),
                ),
            ),
        ),
    )


def d1_half() -> Obligation:
    """eps = 1/2: t^2 g2 <= a(t) <= R^2 t (1 + ln t), so t <= delta (1 + ln t) with
    delta = R^2/g2 >= 1 = e^-0, and Lemma 1 with C = 0 gives D1's middle regime."""
    tt = sp.Symbol("t", positive=True)
    d = sp.Symbol("delta", positive=True)
    a_t = sp.Symbol("a_t", real=True)
    R2p, g2p = sp.Symbol("R2", positive=True), sp.Symbol("gamma2", positive=True)
    C = sp.Symbol("C", real=True)
    claim = D1_HALF.conclusion
    return Obligation(
        name="D1 (eps = 1/2): t <= (1 + 1/e)(R^2/gamma^2) ln((1 + e) R^2/gamma^2)",
        spec_id="D1",
        hypotheses={
            "t_pos": gt(tt, 0),
            "g2_pos": gt(g2p, 0),
            "g2_le_R2": le(g2p, R2p),
            "D3": le(tt**2 * g2p, a_t),
            "energy": le(a_t, R2p * tt * (1 + sp.log(tt))),
        },
        claim=claim,
        proof=Chain(
            steps=(
                Step(
                    "lemma_hyp",
                    le(tt, (R2p / g2p) * (1 + sp.log(tt))),
                    Certificate(multiplier=("t_pos", "g2_pos"), terms=(Term((), "energy"), Term((), "D3"))),
                ),
            ),
            final=Apply(
                lemma1.l1(),
                {sp.Symbol("t", positive=True): tt, d: R2p / g2p, C: sp.Integer(0)},
                {
                    "t_pos": Certificate(terms=(Term((), "t_pos"),)),
                    "delta_pos": Certificate(
                        multiplier=("g2_pos",), terms=(Term((1,), "g2_le_R2"), Term((), "g2_pos"))
                    ),
                    "delta_big": Certificate(multiplier=("g2_pos",), terms=(Term((), "g2_le_R2"),)),
                    "exp_pos": Certificate(terms=(Term((1,), None),)),
                    "hyp": Certificate(terms=(Term((), "lemma_hyp"),)),
                },
            ),
        ),
    )


# ----------------------------------------------------------------------------- MU


def mu() -> list[Obligation]:
    """Repeated updates: the PDM condition at (w + n z, t + n) is a quadratic in n
    (the repeated-update count), and (for q > 0) the condition holds exactly between its roots."""
    n, p, q, l_, tt = sp.symbols("n p q l t", real=True)
    quad = eps * q * n**2 + (tt * q - (1 - 2 * eps) * p) * n - ((1 - eps) * l_ - tt * p)
    return [
        Obligation(
            name="MU: (t + n)(w + n z).z - (1 - eps)||w + n z||^2 is a quadratic in n",
            spec_id="MU",
            hypotheses={},
            claim=MU.conclusion,
            proof=Identity(),
        ),
        Obligation(
            name="MU: ||w + n z||^2 = l + 2 n p + n^2 q and (w + n z).z = p + n q",
            spec_id="MU",
            hypotheses={},
            claim=sp.Eq(
                sum(
                    (
                        (w + n * z) ** 2
                        for w, z in zip(sp.symbols("w1:4", real=True), sp.symbols("z1:4", real=True))
                    )
                ),
                sum(w**2 for w in sp.symbols("w1:4", real=True))
                + 2
                * n
                * sum((w * z for w, z in zip(sp.symbols("w1:4", real=True), sp.symbols("z1:4", real=True))))
                + n**2 * sum(z**2 for z in sp.symbols("z1:4", real=True)),
            ),
            proof=Identity(),
        ),
        Obligation(
            name="MU: with eps q > 0, quad(n) <= 0 iff n lies between the roots (complete the square)",
            spec_id="MU",
            hypotheses={},
            claim=sp.Eq(
                4 * eps * q * quad,
                (2 * eps * q * n + (tt * q - (1 - 2 * eps) * p)) ** 2
                - ((tt * q - (1 - 2 * eps) * p) ** 2 + 4 * eps * q * ((1 - eps) * l_ - tt * p)),
            ),
            proof=Identity(),
            note="so the count floor(root) + 1 is the first n >= 1 past the positive root",
        ),
    ]


# ----------------------------------------------------------------------------- D3


def d3() -> Obligation:
    """D3: gamma <= ||w_t||/t for t >= 1 and any rule w <- w + z: progress p*.w_t >= t g2
    holds for every such rule (N1's induction never used the mistake condition), so
    g2 (w2 - t^2 g2) = (g2 w2 - pw^2) + (pw - t g2)^2 + 2 t g2 (pw - t g2)."""
    t = sp.Symbol("t", integer=True)
    return Obligation(
        name="D3 dynamic bound: t^2 gamma^2 <= ||w_t||^2",
        spec_id="D3",
        hypotheses={
            "t_pos": gt(t, 0),
            "g2_pos": gt(g2, 0),
            "progress": ge(pw_, t * g2),
            "cauchy_schwarz": le(pw_**2, g2 * w2_),
        },
        claim=le(t**2 * g2, w2_),
        proof=Certificate(
            multiplier=("g2_pos",),
            terms=(Term((), "cauchy_schwarz"), Term((2, "t_pos", "g2_pos"), "progress")),
            squares=(pw_ - t * g2,),
        ),
        note="squared form of gamma <= ||w_t||/t (both sides nonnegative)",
    )


def obligations() -> list[Obligation]:
    """Every obligation of this module."""
    out = [d3()]
    out += d2()
    out += [d1_recursion(), d1_above_half_energy(), d1_above_half()]
    out += [log_one_plus_ge(), harmonic_bound(), d1_half_energy(), d1_half()]
    out += mu()
    return out
