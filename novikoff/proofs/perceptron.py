"""Proofs of :mod:`novikoff.spec.perceptron` (N1, N2, N3): Novikoff's theorem.

The step obligations (``obligations()``: the N2 expansion and Cauchy-Schwarz in each
dimension up to :data:`MAX_EXPLICIT_DIMENSION`, the N3 squeeze) and the headline
proofs (``headline_proofs()``): N1 and N2 by induction, N3 by the squeeze
(:func:`squeeze`, which :mod:`novikoff.proofs.multiclass` reuses for M1).

Notation as in :mod:`novikoff.spec.perceptron`: ``pw(k) = p*.w_k``,
``w2(k) = ||w_k||^2``, ``g2 = ||p*||^2 = gamma^2``, ``R2 = max ||z_i||^2``; on an
update by pattern z: ``pz = p*.z``, ``wz = w_k.z``, ``z2 = ||z||^2``.
"""

from __future__ import annotations

import itertools

import sympy as sp

from novikoff.proofs.core import (
    Cases,
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
from novikoff.spec.perceptron import N1, N2, N3, pw, w2

__all__ = [
    "MAX_EXPLICIT_DIMENSION",
    "cauchy_schwarz",
    "dot",
    "headline_proofs",
    "n2_expansion",
    "n3",
    "obligations",
    "squeeze",
    "vec",
]

#: Dimensions for which the coordinate identities (expansion, Lagrange) are expanded.
MAX_EXPLICIT_DIMENSION = 6

k = sp.Symbol("k", integer=True)
g2, R2 = sp.symbols("g2 R2", real=True)
pz, wz, z2, pw_, w2_ = sp.symbols("pz wz z2 pw w2", real=True)


def vec(name: str, n: int) -> list[sp.Symbol]:
    """The symbols name1, ..., name<n> (real): a vector in n coordinates."""
    return list(sp.symbols(f"{name}1:{n + 1}", real=True))


def dot(u: list[sp.Symbol], v: list[sp.Symbol]) -> sp.Expr:
    """The inner product of two coordinate vectors."""
    return sum((a * b for a, b in zip(u, v)), sp.Integer(0))


def n2_expansion(n: int) -> Obligation:
    """||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 in n coordinates (bilinearity and symmetry)."""
    w, z = vec("w", n), vec("z", n)
    s = [a + b for a, b in zip(w, z)]
    return Obligation(
        name=f"N2 expansion of ||w + z||^2 in dimension {n}",
        spec_id="N2",
        hypotheses={},
        claim=sp.Eq(dot(s, s), dot(w, w) + 2 * dot(w, z) + dot(z, z)),
        proof=Identity(),
    )


def cauchy_schwarz(n: int) -> Obligation:
    """(u.v)^2 <= ||u||^2 ||v||^2 by Lagrange's identity: the difference is
    sum_{i<j} (u_i v_j - u_j v_i)^2, a sum of squares."""
    u, v = vec("u", n), vec("v", n)
    squares = tuple(u[i] * v[j] - u[j] * v[i] for i, j in itertools.combinations(range(n), 2))
    return Obligation(
        name=f"Cauchy-Schwarz by Lagrange's identity in dimension {n}",
        spec_id="N3",
        hypotheses={},
        claim=le(dot(u, v) ** 2, dot(u, u) * dot(v, v)),
        proof=Certificate(squares=squares),
        note="in an arbitrary inner-product space Cauchy-Schwarz is the inner-product axiom used",
    )


def n3() -> Obligation:
    """N3, the squeeze: with N1 (pw >= k g2), Cauchy-Schwarz (pw^2 <= g2 w2) and N2
    (w2 <= k R2): k g2 (R2 - k g2) = g2 (k R2 - w2) + (g2 w2 - pw^2)
    + (pw - k g2)^2 + 2 k g2 (pw - k g2), and k g2 > 0 divides out."""
    return Obligation(
        name="N3 mistake bound: k ||p*||^2 <= R^2",
        spec_id="N3",
        hypotheses={
            "k_pos": gt(k, 0),
            "g2_pos": gt(g2, 0),
            "N1": ge(pw_, k * g2),
            "cauchy_schwarz": le(pw_**2, g2 * w2_),
            "N2": le(w2_, k * R2),
        },
        claim=le(k * g2, R2),
        proof=Certificate(
            multiplier=("k_pos", "g2_pos"),
            terms=(
                Term(("g2_pos",), "N2"),
                Term((), "cauchy_schwarz"),
                Term((2, "k_pos", "g2_pos"), "N1"),
            ),
            squares=(pw_ - k * g2,),
        ),
    )


def obligations() -> list[Obligation]:
    """Every obligation of this module, in dependency order."""
    out = [n2_expansion(n) for n in range(1, MAX_EXPLICIT_DIMENSION + 1)]
    out += [cauchy_schwarz(n) for n in range(1, MAX_EXPLICIT_DIMENSION + 1)]
    out.append(n3())
    return out


# ----------------------------------------------------------------------------- headlines


def _n1() -> Proof:
    k, g2 = N1.symbols[0], N1.symbols[1]
    return Chain(
        steps=(
            Step(
                "progress",
                ge(pw(k), k * g2),
                Induction(
                    k,
                    base=Certificate(substitutions=("w0",)),
                    step=Certificate(substitutions=("update",), terms=(Term((), "IH"), Term((), "minnorm"))),
                ),
            ),
        ),
        final=Certificate(substitutions=("value",), terms=(Term((), "progress"),)),
    )


def _n2() -> Proof:
    k, R2 = N2.symbols[0], N2.symbols[1]
    return Chain(
        steps=(
            Step(
                "energy",
                sp.Le(w2(k), k * R2, evaluate=False),
                Induction(
                    k,
                    base=Certificate(substitutions=("w0",)),
                    step=Certificate(
                        substitutions=("expansion",),
                        terms=(Term((), "IH"), Term((2,), "mistake"), Term((), "radius")),
                    ),
                ),
            ),
        ),
        final=Certificate(substitutions=("value",), terms=(Term((), "energy"),)),
    )


def squeeze(k: sp.Symbol, g2: sp.Symbol, dot: sp.Symbol, names: dict[str, str], radius: int) -> Proof:
    """k g2 <= radius R2 from progress (dot >= k g2), energy (w2 <= radius k R2) and
    Cauchy-Schwarz (dot^2 <= g2 w2): k = 0 directly; for k > 0,
    k g2 (radius R2 - k g2) = g2 (radius k R2 - w2) + (g2 w2 - dot^2) + (dot - k g2)^2
    + 2 k g2 (dot - k g2), and k g2 > 0 divides out. N3 is radius 1; M1 radius 2.

    ``names`` maps the roles ``g2_pos``, ``R2_pos``, ``energy`` and ``progress`` to the
    hypothesis names of the statement being proved."""
    g2_pos, r2_pos = names["g2_pos"], names["R2_pos"]
    return Cases(
        -k,
        nonneg=Certificate(terms=(Term((g2_pos,), "case"), Term((radius,), r2_pos))),  # k = 0
        neg=Certificate(
            multiplier=("case", g2_pos),
            terms=(
                Term((g2_pos,), names["energy"]),
                Term((), "cauchy_schwarz"),
                Term((2, "case", g2_pos), names["progress"]),
            ),
            squares=(dot - k * g2,),
        ),
    )


def _n3() -> Proof:
    k, g2, _R2 = N3.symbols
    names = {"g2_pos": "gamma2_pos", "R2_pos": "R2_pos", "energy": "N2", "progress": "N1"}
    return squeeze(k, g2, sp.Symbol("pstar_dot_w", real=True), names, 1)


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.perceptron`."""
    return [
        HeadlineProof(N1, _n1()),
        HeadlineProof(
            N2, _n2(), "the expansion ||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 is checked in dimensions 1-6"
        ),
        HeadlineProof(N3, _n3(), "Cauchy-Schwarz (Lagrange's identity) is checked in dimensions 1-6"),
    ]
