"""Proofs of :mod:`novikoff.spec.romma` (R1): ROMMA's mistake bound.

Step obligations (``obligations()``), the two facts behind the premises, for the closed form:

- the closed form w' = c_w w + c_z z, c_w = (q l - p)/a, c_z = l (1 - p)/a (a = q l - p^2 > 0),
  meets both constraints with equality (w'.w = l, w'.z = 1) and has
  ||w'||^2 = l + l (1 - p)^2/a, by bilinearity (identities in the Gram entries l, p, q);
- lemma (a), the premise ``step``: under a > 0, l > 0, q > 0,
  q (||w'||^2 - l) >= (1 - p)^2 (a <= q l); with p <= 0 and q <= R^2 this is
  ||w'||^2 >= l + 1/R^2; and for w = 0 (w' = z/q) q (1/q - 0) = 1 = (1 - 0)^2;
- lemma (b), the premise ``minnorm``: any v with v.w >= l and v.z >= 1 has
  v.w' >= ||w'||^2 (c_w, c_z >= 0), so the next constraint set contains every such v and,
  by Cauchy-Schwarz, ||v||^2 >= ||w'||^2: w' is the minimum-norm point, and u/gamma (which
  meets every constraint) gives ||w'||^2 <= 1/gamma^2.

The headline proof (``headline_proofs()``): R2 w2(k) >= k by induction (a mistake raises
||w||^2 by at least 1/R^2), then k gamma^2 <= R^2 from gamma^2 w2(k) <= 1.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Certificate,
    Chain,
    Identity,
    Induction,
    Obligation,
    Proof,
    Step,
    Term,
    ge,
    gt,
    le,
)
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.romma import R1, w2, wz

__all__ = ["closed_form", "headline_proofs", "minimum_norm", "obligations", "step_growth"]

l, p, q, R2 = sp.symbols("l p q R2", real=True)  # noqa: E741 (l = ||w||^2)
a = q * l - p**2
cw = (q * l - p) / a
cz = l * (1 - p) / a
#: ||w'||^2, w'.w and w'.z for w' = cw w + cz z, expanded by bilinearity in the Gram entries
new_norm2 = cw**2 * l + 2 * cw * cz * p + cz**2 * q
new_dot_w = cw * l + cz * p
new_dot_z = cw * p + cz * q


def closed_form() -> list[Obligation]:
    """w'.w = l, w'.z = 1 and ||w'||^2 = l + l (1 - p)^2/a for the closed form (a != 0)."""
    hyps = {"a_pos": gt(a, 0)}
    return [
        Obligation(
            "R1 closed form meets v.w >= ||w||^2 with equality", "R1", hyps, sp.Eq(new_dot_w, l), Identity()
        ),
        Obligation(
            "R1 closed form meets v.z >= 1 with equality", "R1", hyps, sp.Eq(new_dot_z, 1), Identity()
        ),
        Obligation(
            "R1 closed form: ||w'||^2 = ||w||^2 + ||w||^2 (1 - w.z)^2/a",
            "R1",
            hyps,
            sp.Eq(new_norm2, l + l * (1 - p) ** 2 / a),
            Identity(),
        ),
    ]


def step_growth() -> list[Obligation]:
    """Lemma (a): q (||w'||^2 - l) >= (1 - p)^2 for the closed form and for w = 0; with a
    mistake (p <= 0) and q <= R^2 it gives ||w'||^2 >= l + 1/R^2."""
    both = Obligation(
        name="R1 lemma (a): q (||w'||^2 - ||w||^2) >= (1 - w.z)^2 (both constraints tight)",
        spec_id="R1",
        hypotheses={"a_pos": gt(a, 0), "l_pos": gt(l, 0), "q_pos": gt(q, 0)},
        claim=ge(q * (l + l * (1 - p) ** 2 / a - l), (1 - p) ** 2),
        # a * (q l (1 - p)^2/a - (1 - p)^2) = (1 - p)^2 (q l - a) = (p (1 - p))^2
        proof=Certificate(multiplier=("a_pos",), squares=(p * (1 - p),)),
    )
    start = Obligation(
        name="R1 lemma (a) at w = 0: q (||z/q||^2 - 0) = 1 = (1 - 0)^2",
        spec_id="R1",
        hypotheses={"q_pos": gt(q, 0)},
        claim=sp.Eq(q * ((1 / q) ** 2 * q - sp.Integer(0)), (1 - sp.Integer(0)) ** 2, evaluate=False),
        proof=Identity(),
    )
    d = sp.Symbol("d", real=True)  # ||w'||^2 - ||w||^2
    growth = Obligation(
        name="R1 a mistake raises ||w||^2 by at least 1/R^2",
        spec_id="R1",
        hypotheses={
            "step": ge(q * d, (1 - p) ** 2),
            "mistake": le(p, 0),
            "q_pos": gt(q, 0),
            "radius": le(q, R2),
            "R2_pos": gt(R2, 0),
        },
        claim=ge(R2 * d, 1),
        # q (R2 d - 1) = R2 (q d - (1 - p)^2) + R2 p^2 + 2 R2 (-p) + (R2 - q)
        proof=Certificate(
            multiplier=("q_pos",),
            terms=(
                Term(("R2_pos",), "step"),
                Term((("square", p),), "R2_pos"),
                Term((2, "R2_pos"), "mistake"),
                Term((), "radius"),
            ),
        ),
    )
    return [both, start, growth]


def minimum_norm() -> list[Obligation]:
    """Lemma (b): v.w >= l, v.z >= 1, c_w, c_z >= 0 give v.w' >= ||w'||^2 = c_w l + c_z; with
    Cauchy-Schwarz (v.w')^2 <= ||v||^2 ||w'||^2 and ||w'||^2 > 0, ||v||^2 >= ||w'||^2."""
    vw, vz, c1, c2, n2, vv, vwp = sp.symbols("vw vz c1 c2 n2 vv vwp", real=True)
    halfspace = Obligation(
        name="R1 lemma (b): the new constraint v.w' >= ||w'||^2 keeps every v of the old ones",
        spec_id="R1",
        hypotheses={
            "c1_nonneg": ge(c1, 0),
            "c2_nonneg": ge(c2, 0),
            "first": ge(vw, l),
            "second": ge(vz, 1),
            "norm": sp.Eq(n2, c1 * l + c2),
            "dot": sp.Eq(vwp, c1 * vw + c2 * vz),
        },
        claim=ge(vwp, n2),
        proof=Certificate(
            substitutions=("norm", "dot"),
            terms=(Term(("c1_nonneg",), "first"), Term(("c2_nonneg",), "second")),
        ),
    )
    shortest = Obligation(
        name="R1 lemma (b): a feasible v is at least as long as w'",
        spec_id="R1",
        hypotheses={"n2_pos": gt(n2, 0), "halfspace": ge(vwp, n2), "cauchy_schwarz": le(vwp**2, vv * n2)},
        claim=ge(vv, n2),
        # n2 (vv - n2) = (vv n2 - vwp^2) + (vwp - n2)^2 + 2 n2 (vwp - n2)
        proof=Certificate(
            multiplier=("n2_pos",),
            terms=(Term((), "cauchy_schwarz"), Term((2, "n2_pos"), "halfspace")),
            squares=(vwp - n2,),
        ),
    )
    return [halfspace, shortest]


def obligations() -> list[Obligation]:
    """Every step obligation of R1, in dependency order."""
    return [*closed_form(), *step_growth(), *minimum_norm()]


def _r1() -> Proof:
    k, _g2, R2s = R1.symbols
    return Chain(
        steps=(
            Step(
                "energy",
                sp.Ge(R2s * w2(k), k, evaluate=False),
                Induction(
                    k,
                    base=Certificate(substitutions=("w0",)),
                    # z2 (R2 w2(k+1) - k - 1) = z2 (R2 w2(k) - k) + z2 R2 (v2 - w2(k))
                    #   + R2 (z2 (w2(k+1) - v2) - (1 - wz)^2) + R2 wz^2 + 2 R2 (-wz) + (R2 - z2)
                    step=Certificate(
                        multiplier=("pattern",),
                        terms=(
                            Term(("pattern",), "IH"),
                            Term(("pattern", "R2_pos"), "monotone"),
                            Term(("R2_pos",), "step"),
                            Term((("square", wz(k)),), "R2_pos"),
                            Term((2, "R2_pos"), "mistake"),
                            Term((), "radius"),
                        ),
                    ),
                ),
            ),
        ),
        # R2 - k g2 = R2 (1 - g2 w2(k)) + g2 (R2 w2(k) - k)
        final=Certificate(terms=(Term(("R2_pos",), "minnorm"), Term(("gamma2_pos",), "energy"))),
    )


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.romma`."""
    return [
        HeadlineProof(
            R1,
            _r1(),
            "the premises are proved for the closed form by the step obligations (Gram-entry identities)",
        )
    ]
