"""Proofs of :mod:`novikoff.spec.nonseparable` (FS1): the Freund-Schapire bound.

Step obligation (``obligations()``): :func:`squeeze`, the scalar core. With k > 0,
x = u.w_k, y = the mistakes' summed slack, x + y >= k gamma, x^2 <= k R^2 and
y^2 <= k D^2: k gamma^2 <= (R + D)^2. By cases: y <= 0 (then x >= k gamma and
k gamma^2 <= R^2, Novikoff's squeeze), x <= 0 (symmetrically k gamma^2 <= D^2), and
x, y > 0, where R = 0 or D = 0 contradicts x^2 <= k R^2 or y^2 <= k D^2, and with R, D > 0

    R D (R + D) ((R + D)^2 - k gamma^2) = D (gamma^2 (k R^2 - x^2) + (gamma x - R (R + D))^2)
        + R (gamma^2 (k D^2 - y^2) + (gamma y - D (R + D))^2) + 2 gamma R D (R + D) (x + y - k gamma)

(the two squares are the tangents at x = sqrt(k) R, y = sqrt(k) D, sqrt(k) = (R + D)/gamma).

The headline proofs (``headline_proofs()``), one per statement, by induction on the
mistakes: u.w_k + sd(k) >= k gamma (progress with d(j) >= gamma - u.z), ||w_k||^2 <= k R^2
(energy), so (u.w_k)^2 <= k R^2 (premise ``unit``); for k > 0 (k = 0 is immediate),
sd(k)^2 <= k sd2(k) (Cauchy-Schwarz on the mistakes' slacks, by induction from k = 1:
n (n + 1) sd2(n + 1) - n sd(n + 1)^2 = (n + 1) (n sd2(n) - sd(n)^2) + (sd(n) - n d(n))^2),
so sd(k)^2 <= k D^2 by the premise relating the slacks to D^2; then :func:`squeeze`.
The T-pass form first proves am(n) <= T ad(n) (each pattern mistaken at most T times), so
the mistakes' squared slacks are at most T sumd2 = D^2 with D = sqrt(T sumd2).
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Apply,
    Cases,
    Certificate,
    Chain,
    Contradiction,
    Identity,
    Induction,
    Obligation,
    Proof,
    SignByAssumptions,
    Step,
    Term,
    ge,
    gt,
    le,
    positive_in_induction,
)
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.nonseparable import (
    FS1_ONE_PASS,
    FS1_PASSES,
    D,
    R,
    T,
    gamma,
    k,
    n,
    pw,
    sd,
    sd2,
    sumd2,
    w2,
)
from novikoff.spec.nonseparable import ad as _ad
from novikoff.spec.nonseparable import am as _am
from novikoff.spec.nonseparable import d as _d
from novikoff.spec.nonseparable import dd as _dd

__all__ = ["headline_proofs", "obligations", "squeeze"]

# the squeeze's own symbols (k real here: the core holds for every k > 0)
_k = sp.Symbol("k", nonnegative=True)
_g = sp.Symbol("gamma", positive=True)
_R = sp.Symbol("R", nonnegative=True)
_D = sp.Symbol("D", nonnegative=True)
_x, _y = sp.symbols("x y", real=True)


def _named(name: str, claim: sp.Basic) -> Step:
    """The case hypothesis of the enclosing :class:`Cases` kept under ``name`` (nested
    case splits reuse the name ``case``)."""
    return Step(name, claim, Certificate(terms=(Term((), "case"),)))


def _one_sided(big: sp.Expr, big_sq: str, other_radius: sp.Expr, other_name: str) -> Proof:
    """k gamma^2 <= (R + D)^2 when the other part is <= 0 (hypothesis ``case``: -other >= 0):
    big >= k gamma, so k ((R + D)^2 - k gamma^2) = (k r^2 - big^2) + (big - k gamma)^2
    + 2 k gamma (big - k gamma) + k (2 R D + other_radius^2), r the radius of ``big``."""
    return Certificate(
        multiplier=("k_pos",),
        terms=(
            Term((), big_sq),
            Term((2, "k_pos", "gamma_pos"), "progress"),
            Term((2, "k_pos", "gamma_pos"), "case"),
            Term((2, "k_pos", "R_nonneg"), "D_nonneg"),
            Term(("k_pos", ("square", other_radius)), None),
        ),
        squares=(big - _k * _g,),
    )


def _impossible(part: sp.Symbol, part_sq: str, part_pos: str, radius_nonneg: str) -> Proof:
    """A positive part with radius <= 0 (hypothesis ``case``: -radius >= 0) contradicts
    part^2 <= k radius^2: 0 = (k r^2 - part^2) + part * part + k r (-r)."""
    return Contradiction(
        Certificate(
            terms=(Term((), part_sq), Term((part_pos,), part_pos), Term(("k_pos", radius_nonneg), "case"))
        )
    )


def squeeze() -> Obligation:
    """The scalar core of FS1: k > 0, x + y >= k gamma, x^2 <= k R^2, y^2 <= k D^2 give
    k gamma^2 <= (R + D)^2 (see the module docstring for the cases and the certificate)."""
    k_, g, R_, D_, x, y = _k, _g, _R, _D, _x, _y
    main = Certificate(
        multiplier=("R_pos", "D_pos", "RD_pos"),
        terms=(
            Term(("D_pos", ("square", g)), "xsq"),
            Term(("D_pos", ("square", g * x - R_ * (R_ + D_))), None),
            Term(("R_pos", ("square", g)), "ysq"),
            Term(("R_pos", ("square", g * y - D_ * (R_ + D_))), None),
            Term((2, "gamma_pos", "R_pos", "D_pos", "RD_pos"), "progress"),
        ),
    )
    both_radii = Cases(
        -D_,
        nonneg=_impossible(y, "ysq", "y_pos", "D_nonneg"),
        neg=Chain(
            steps=(
                _named("D_pos", gt(D_, 0)),
                Step("RD_pos", gt(R_ + D_, 0), Certificate(terms=(Term((), "R_pos"), Term((), "D_pos")))),
            ),
            final=main,
        ),
    )
    both_positive = Cases(
        -R_,
        nonneg=_impossible(x, "xsq", "x_pos", "R_nonneg"),
        neg=Chain(steps=(_named("R_pos", gt(R_, 0)),), final=both_radii),
    )
    proof = Cases(
        -y,
        nonneg=_one_sided(x, "xsq", D_, "D"),
        neg=Chain(
            steps=(_named("y_pos", gt(y, 0)),),
            final=Cases(
                -x,
                nonneg=_one_sided(y, "ysq", R_, "R"),
                neg=Chain(steps=(_named("x_pos", gt(x, 0)),), final=both_positive),
            ),
        ),
    )
    return Obligation(
        name="FS1 squeeze: x + y >= k gamma, x^2 <= k R^2, y^2 <= k D^2 give k gamma^2 <= (R + D)^2",
        spec_id="FS1",
        hypotheses={
            "k_pos": gt(k_, 0),
            "gamma_pos": gt(g, 0),
            "R_nonneg": ge(R_, 0),
            "D_nonneg": ge(D_, 0),
            "progress": ge(x + y, k_ * g),
            "xsq": le(x**2, k_ * R_**2),
            "ysq": le(y**2, k_ * D_**2),
        },
        claim=le(k_ * g**2, (R_ + D_) ** 2),
        proof=proof,
    )


def obligations() -> list[Obligation]:
    """Every step obligation of FS1."""
    return [squeeze()]


# ----------------------------------------------------------------------------- headlines


def _fresh() -> sp.Symbol:
    return sp.Symbol("instance", integer=True, nonnegative=True)


def _at_zero(name: str, claim: sp.Basic, premise: str) -> Step:
    """``claim``, the :class:`Forall` premise ``premise`` instantiated at j = 0: an
    induction on a fresh variable the claim does not mention, whose base case sees the
    instance (the step is the hypothesis itself)."""
    return Step(name, claim, Induction(_fresh(), base=Identity((premise,)), step=Identity(("IH",))))


def _fs1(dexpr: sp.Expr, before: tuple[Step, ...]) -> Proof:
    """FS1 with D := ``dexpr``; ``before`` proves ``presented_sq`` (sd2(k) <= D^2) and
    ``D_nonneg`` (D >= 0) from the statement's own premises."""
    progress = Step(
        "progress_sum",
        ge(pw(k) + sd(k), k * gamma),
        Induction(
            k,
            base=Certificate(substitutions=("pw0", "sd0")),
            step=Certificate(
                substitutions=("progress", "sd_step"), terms=(Term((), "IH"), Term((), "slack"))
            ),
        ),
    )
    energy = Step(
        "energy",
        le(w2(k), k * R**2),
        Induction(
            k,
            base=Certificate(substitutions=("w0",)),
            step=Certificate(
                substitutions=("expansion",),
                terms=(Term((), "IH"), Term((2,), "mistake"), Term((), "radius")),
            ),
        ),
    )
    xsq = Step("xsq", le(pw(k) ** 2, k * R**2), Certificate(terms=(Term((), "unit"), Term((), "energy"))))
    # k >= 1 for an integer k > 0: k (k - 1) >= 0 by induction, divided by k
    integral = Step(
        "integral",
        ge(k * (k - 1), 0),
        Induction(
            k,
            base=Certificate(),
            step=Certificate(terms=(Term(("n_ge_start",), "n_ge_start"), Term((), "n_ge_start"))),
        ),
    )
    k_ge_1 = Step("k_ge_1", ge(k, 1), Certificate(multiplier=("k_pos",), terms=(Term((), "integral"),)))
    slack_cs = Step(
        "slack_cs",
        le(sd(k) ** 2, k * sd2(k)),
        Induction(
            k,
            start=1,
            base=Certificate(substitutions=("sd1", "sd21", "sd0", "sd20")),
            step=Chain(
                steps=(positive_in_induction("n_pos", k, 1),),
                final=Certificate(
                    multiplier=("n_pos",),
                    substitutions=("sd_step", "sd2_step"),
                    terms=(Term(("n_pos",), "IH"), Term((), "IH")),
                    squares=(sd(k) - k * _d(k),),
                ),
            ),
        ),
    )
    ysq = Step(
        "ysq",
        le(sd(k) ** 2, k * dexpr**2),
        Certificate(terms=(Term((), "slack_cs"), Term(("k_nonneg",), "presented_sq"))),
    )
    squeezed = Apply(
        squeeze(),
        {_k: k, _g: gamma, _R: R, _D: dexpr, _x: pw(k), _y: sd(k)},
        {
            name: Certificate(terms=(Term((), source),))
            for name, source in (
                ("k_pos", "k_pos"),
                ("gamma_pos", "gamma_pos"),
                ("R_nonneg", "R_nonneg"),
                ("D_nonneg", "D_nonneg"),
                ("progress", "progress_sum"),
                ("xsq", "xsq"),
                ("ysq", "ysq"),
            )
        },
    )
    positive_k = Chain(
        steps=(
            _named("k_pos", gt(k, 0)),
            integral,
            k_ge_1,
            _at_zero("sd1", sp.Eq(sd(1), sd(0) + _d(0)), "sd_step"),
            _at_zero("sd21", sp.Eq(sd2(1), sd2(0) + _d(0) ** 2), "sd2_step"),
            slack_cs,
            ysq,
        ),
        final=squeezed,
    )
    return Chain(
        steps=(*before, progress, energy, xsq),
        final=Cases(
            -k,
            # k = 0: (R + D)^2 - k gamma^2 = (R + D)^2 + gamma^2 (-k)
            nonneg=Certificate(terms=(Term((("square", gamma),), "case"),), squares=(R + dexpr,)),
            neg=positive_k,
        ),
    )


def _one_pass() -> Proof:
    return _fs1(D, (Step("presented_sq", le(sd2(k), D**2), Certificate(terms=(Term((), "presented"),))),))


def _passes() -> Proof:
    dexpr = sp.sqrt(T * sumd2)
    regrouped = Step(
        "regrouped",
        le(_am(n), T * _ad(n)),
        Induction(
            n,
            base=Certificate(substitutions=("am0", "ad0")),
            step=Certificate(
                substitutions=("am_step", "ad_step"),
                terms=(Term((), "IH"), Term((("square", _dd(n)),), "per_pattern")),
            ),
        ),
    )
    presented = Step(
        "presented_sq",
        le(sd2(k), dexpr**2),
        Certificate(substitutions=("regroup", "total"), terms=(Term((), "regrouped"),)),
    )
    nonneg = Step("D_nonneg", ge(dexpr, 0), SignByAssumptions())
    return _fs1(dexpr, (regrouped, presented, nonneg))


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.nonseparable`."""
    return [HeadlineProof(FS1_ONE_PASS, _one_pass()), HeadlineProof(FS1_PASSES, _passes())]
