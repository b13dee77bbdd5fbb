"""Proofs of :mod:`novikoff.spec.invariance` (G1): what the perceptron decides is invariant
under scaling, rotation, zero features and adding a point along p*.

``obligations()``: the coordinate identities (scaling by c, the Cayley rotation, a zero
coordinate); ``headline_proofs()``: the four G1 statements.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Both,
    Certificate,
    Identity,
    Iff,
    ModusPonens,
    Obligation,
    Proof,
    Term,
)
from novikoff.proofs.perceptron import dot, vec
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.invariance import G1_ADD_POINT, G1_PAD, G1_ROTATE, G1_SCALE

__all__ = ["g1", "headline_proofs", "obligations"]


def g1() -> list[Obligation]:
    """G1: the decision quantities are invariant (scaling, Cayley rotation, zero features)."""
    c = sp.Symbol("c", real=True)
    scale_identity = Obligation(
        name="G1 scaling: every decision value becomes c^2 w.z",
        spec_id="G1",
        hypotheses={},
        claim=sp.Eq(
            dot([c * x for x in vec("w", 3)], [c * x for x in vec("z", 3)]),
            c**2 * dot(vec("w", 3), vec("z", 3)),
        ),
        proof=Identity(),
        note=f"c > 0 keeps the sign of c^2 s: {G1_SCALE.conclusion}",
    )
    rotate = Obligation(
        name="G1 rotation: (Qw).(Qz) = w.z for the Cayley rotation Q(a)",
        spec_id="G1",
        hypotheses={},
        claim=G1_ROTATE.conclusion,
        proof=Identity(),
    )
    pad = Obligation(
        name="G1 zero features: appending a zero coordinate keeps w.z",
        spec_id="G1",
        hypotheses={h.lhs.name: h for h in G1_PAD.hypotheses},
        claim=G1_PAD.conclusion,
        proof=Identity(substitutions=tuple(h.lhs.name for h in G1_PAD.hypotheses)),
    )
    return [scale_identity, rotate, pad]


def obligations() -> list[Obligation]:
    """Every step obligation of G1."""
    return g1()


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


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.invariance`."""
    return [
        HeadlineProof(G1_SCALE, _g1_scale()),
        HeadlineProof(G1_ROTATE, Identity()),
        HeadlineProof(G1_PAD, Identity(substitutions=("h0",))),
        HeadlineProof(G1_ADD_POINT, _g1_add_point()),
    ]
