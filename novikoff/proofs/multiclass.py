"""Proofs of :mod:`novikoff.spec.multiclass` (M1): the multiclass perceptron's mistake bound.

``obligations()``: the Kesler construction (for K = 3 classes in dimension 2: the
update vector's squared norm and its inner product with W) and the squeeze with
R_K^2 = 2 R^2; ``headline_proofs()``: M1 by the squeeze of
:func:`novikoff.proofs.perceptron.squeeze` with radius 2.
"""

from __future__ import annotations

import itertools

import sympy as sp

from novikoff.proofs.core import (
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
    le,
)
from novikoff.proofs.perceptron import squeeze
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.multiclass import M1

__all__ = ["headline_proofs", "m1", "obligations"]


def m1() -> list[Obligation]:
    """M1 through Kesler: the multiclass update is a perceptron update on the Kesler
    vector phi(x, y) - phi(x, j) (K = 3 blocks of dimension 2 here), whose squared norm is
    2 ||x||^2 and whose inner product with W is w_y.x - w_j.x <= 0 on a mistake; N3 with
    R_K^2 = 2 R^2 then gives mistakes <= 2 R^2/gamma_K^2."""
    x = list(sp.symbols("x1:3", real=True))
    W = [list(sp.symbols(f"w{c}_1:3", real=True)) for c in range(3)]

    def phi(cls: int) -> list[sp.Expr]:
        out: list[sp.Expr] = []
        for c in range(3):
            out += x if c == cls else [sp.Integer(0)] * 2
        return out

    def dot(a_: list[sp.Expr], b_: list[sp.Expr]) -> sp.Expr:
        return sum((p * q for p, q in zip(a_, b_)), sp.Integer(0))

    flat_w = [wi for row in W for wi in row]
    obs = []
    for y, j in itertools.permutations(range(3), 2):
        diff = [p - q for p, q in zip(phi(y), phi(j))]
        obs.append(
            Obligation(
                name=f"M1 Kesler vector (y={y}, j={j}): ||phi(x,y) - phi(x,j)||^2 = 2 ||x||^2",
                spec_id="M1",
                hypotheses={},
                claim=sp.Eq(dot(diff, diff), 2 * dot(x, x), evaluate=False),
                proof=Identity(),
            )
        )
        obs.append(
            Obligation(
                name=f"M1 Kesler vector (y={y}, j={j}): W.(phi(x,y) - phi(x,j)) = w_y.x - w_j.x",
                spec_id="M1",
                hypotheses={},
                claim=sp.Eq(dot(flat_w, diff), dot(W[y], x) - dot(W[j], x), evaluate=False),
                proof=Identity(),
            )
        )
    k, gK2, R2m, pw, w2 = sp.symbols("k gK2 R2 pw w2", real=True)
    obs.append(
        Obligation(
            name="M1 bound: k gamma_K^2 <= 2 R^2 (N3 on the Kesler vectors)",
            spec_id="M1",
            hypotheses={
                "k_pos": gt(k, 0),
                "gK2_pos": gt(gK2, 0),
                "progress": ge(pw, k * gK2),
                "cauchy_schwarz": le(pw**2, gK2 * w2),
                "energy": le(w2, k * 2 * R2m),
            },
            claim=le(k * gK2, 2 * R2m),
            proof=Certificate(
                multiplier=("k_pos", "gK2_pos"),
                terms=(
                    Term(("gK2_pos",), "energy"),
                    Term((), "cauchy_schwarz"),
                    Term((2, "k_pos", "gK2_pos"), "progress"),
                ),
                squares=(pw - k * gK2,),
            ),
            note="progress and energy are N1 and N2 for the Kesler patterns (update norm 2||x~||^2 <= 2 R^2)",
        )
    )
    return obs


def obligations() -> list[Obligation]:
    """Every step obligation of M1."""
    return m1()


def _m1() -> Proof:
    k, R2, gK2 = M1.symbols
    names = {"g2_pos": "gammaK2_pos", "R2_pos": "R2_pos", "energy": "energy", "progress": "progress"}
    return Chain(
        steps=(Step("R2_pos", gt(R2, 0), SignByAssumptions()),),
        final=squeeze(k, gK2, sp.Symbol("kesler_dot_w", real=True), names, 2),
    )


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.multiclass`."""
    return [HeadlineProof(M1, _m1(), "the Kesler identities are checked for K = 3 classes in dimension 2")]
