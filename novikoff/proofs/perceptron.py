"""Step obligations of Novikoff's theorem (the N2 expansion, the Cauchy-Schwarz step, N3), T1, G1
and D3; N1 and N2 themselves are proved by induction in :mod:`novikoff.proofs.headlines`.

Notation as in :mod:`novikoff.spec.perceptron`: ``pw(k) = p*.w_k``,
``w2(k) = ||w_k||^2``, ``g2 = ||p*||^2 = gamma^2``, ``R2 = max ||z_i||^2``; on an
update by pattern z: ``pz = p*.z``, ``wz = w_k.z``, ``z2 = ||z||^2``.
"""

from __future__ import annotations

import itertools

import sympy as sp

from novikoff.proofs.core import Certificate, Identity, Obligation, Term, ge, gt, le
from novikoff.spec.invariance import G1_PAD, G1_ROTATE, G1_SCALE
from novikoff.spec.tightness import T1

__all__ = ["MAX_EXPLICIT_DIMENSION", "obligations"]

#: Dimensions for which the coordinate identities (expansion, Lagrange) are expanded.
MAX_EXPLICIT_DIMENSION = 6

k = sp.Symbol("k", integer=True)
g2, R2 = sp.symbols("g2 R2", real=True)
pz, wz, z2, pw_, w2_ = sp.symbols("pz wz z2 pw w2", real=True)


def _vec(name: str, n: int) -> list[sp.Symbol]:
    return list(sp.symbols(f"{name}1:{n + 1}", real=True))


def _dot(u: list[sp.Symbol], v: list[sp.Symbol]) -> sp.Expr:
    return sum((a * b for a, b in zip(u, v)), sp.Integer(0))


def n2_expansion(n: int) -> Obligation:
    """||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 in n coordinates (bilinearity and symmetry)."""
    w, z = _vec("w", n), _vec("z", n)
    s = [a + b for a, b in zip(w, z)]
    return Obligation(
        name=f"N2 expansion of ||w + z||^2 in dimension {n}",
        spec_id="N2",
        hypotheses={},
        claim=sp.Eq(_dot(s, s), _dot(w, w) + 2 * _dot(w, z) + _dot(z, z)),
        proof=Identity(),
    )


def cauchy_schwarz(n: int) -> Obligation:
    """(u.v)^2 <= ||u||^2 ||v||^2 by Lagrange's identity: the difference is
    sum_{i<j} (u_i v_j - u_j v_i)^2, a sum of squares."""
    u, v = _vec("u", n), _vec("v", n)
    squares = tuple(u[i] * v[j] - u[j] * v[i] for i, j in itertools.combinations(range(n), 2))
    return Obligation(
        name=f"Cauchy-Schwarz by Lagrange's identity in dimension {n}",
        spec_id="N3",
        hypotheses={},
        claim=le(_dot(u, v) ** 2, _dot(u, u) * _dot(v, v)),
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


def t1() -> list[Obligation]:
    """T1 for symbolic n: the certificate lambda_i = 1/n, the trajectory, the count."""
    n = sp.Symbol("n", integer=True, positive=True)
    i = sp.Symbol("i", integer=True, positive=True)
    j = sp.Symbol("j", integer=True, positive=True)
    kk = sp.Symbol("k", integer=True, nonnegative=True)
    lam = 1 / n
    return [
        Obligation(
            name="T1 certificate: lambda_i = 1/n sums to 1",
            spec_id="T1",
            hypotheses={},
            claim=sp.Eq(sp.Sum(lam, (i, 1, n)), 1),
            proof=Identity(),
        ),
        Obligation(
            name="T1 certificate: ||p*||^2 = sum (1/n)^2 = 1/n",
            spec_id="T1",
            hypotheses={},
            claim=sp.Eq(sp.Sum(lam**2, (i, 1, n)), 1 / n),
            proof=Identity(),
        ),
        Obligation(
            name="T1 certificate: e_j.p* = p*_j = 1/n >= ||p*||^2, so p* is the min-norm point",
            spec_id="T1",
            hypotheses={"j_in_range": le(j, n), "j_pos": ge(j, 1)},
            claim=ge(sp.Sum(lam * sp.KroneckerDelta(i, j), (i, 1, n)), 1 / n),
            proof=Certificate(),
        ),
        Obligation(
            name="T1 trajectory: w_k = e_1 + ... + e_k has w_k.e_{k+1} = 0, so e_{k+1} is a mistake",
            spec_id="T1",
            hypotheses={},
            claim=sp.Eq(sp.Sum(sp.KroneckerDelta(i, kk + 1), (i, 1, kk)), 0),
            proof=Identity(),
        ),
        Obligation(
            name="T1 trajectory: ||w_k||^2 = k, so N2 holds with equality at every update",
            spec_id="T1",
            hypotheses={},
            claim=sp.Eq(sp.Sum(1, (i, 1, kk)), kk),
            proof=Identity(),
        ),
        Obligation(
            name="T1 count: k = n updates equals R^2/gamma^2 = 1/(1/n)",
            spec_id="T1",
            hypotheses={h.lhs.name: h for h in T1.hypotheses},
            claim=T1.conclusion,
            proof=Identity(substitutions=tuple(h.lhs.name for h in T1.hypotheses)),
        ),
    ]


def g1() -> list[Obligation]:
    """G1: the decision quantities are invariant (scaling, Cayley rotation, zero features)."""
    c = sp.Symbol("c", real=True)
    scale_identity = Obligation(
        name="G1 scaling: every decision value becomes c^2 w.z",
        spec_id="G1",
        hypotheses={},
        claim=sp.Eq(
            _dot([c * x for x in _vec("w", 3)], [c * x for x in _vec("z", 3)]),
            c**2 * _dot(_vec("w", 3), _vec("z", 3)),
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
    """Every obligation of this module, in dependency order."""
    out = [n2_expansion(n) for n in range(1, MAX_EXPLICIT_DIMENSION + 1)]
    out += [cauchy_schwarz(n) for n in range(1, MAX_EXPLICIT_DIMENSION + 1)]
    out += [n3(), d3()]
    out += t1()
    out += g1()
    return out
