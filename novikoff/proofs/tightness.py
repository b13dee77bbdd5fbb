"""Proofs of :mod:`novikoff.spec.tightness` (T1): Novikoff's bound is attained.

For symbolic n: the certificate lambda_i = 1/n, the trajectory w_k = e_1 + ... + e_k
and the count k = n = R^2/gamma^2 (``obligations()``); the headline T1 is an identity
after substituting the statement's defining hypotheses (``headline_proofs()``).
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import Certificate, Identity, Obligation, ge, le
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.tightness import T1

__all__ = ["headline_proofs", "obligations", "t1"]


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


def obligations() -> list[Obligation]:
    """Every step obligation of T1."""
    return t1()


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.tightness`."""
    return [HeadlineProof(T1, Identity(substitutions=("h0", "h1", "h2")))]
