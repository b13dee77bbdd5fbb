"""Proofs of :mod:`novikoff.spec.msvmav` (S1, S2, RC1): the margin-distribution identities.

``obligations()``: S1 per sample and S2 (Sherman-Morrison) for 2 x 2 and 3 x 3
matrices; ``headline_proofs()``: S1 by cases on theta - m, S2 (the scalar case) as an
identity. ``rc1_obligation()``: RC1 (the linear class's Rademacher bound), by one
certificate: with s = r sqrt(n) + e1 > 0, s (r sqrt(n) - e1) = (e2 - e1^2) + (n r^2 - e2),
then times Lam/n > 0; ``headline_proofs()`` holds it too.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Cases,
    Certificate,
    Chain,
    Identity,
    Obligation,
    SignByAssumptions,
    Step,
    Term,
    gt,
    le,
)
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.msvmav import RC1, S1, S2

__all__ = ["headline_proofs", "obligations", "rc1_obligation", "s1", "s2"]


def s1() -> Obligation:
    """S1 per sample: for theta > 0, (1 - m/theta)_+^2 = (theta - m)_+^2/theta^2;
    averaging over the samples gives mean((1 - y h/theta)_+^2) = SV/theta^2."""
    theta, m = sp.symbols("theta m", real=True)
    return Obligation(
        name="S1: (1 - m/theta)_+^2 = ((theta - m)_+)^2/theta^2 for theta > 0",
        spec_id="S1",
        hypotheses={"theta_pos": gt(theta, 0)},
        claim=sp.Eq(sp.Max(0, 1 - m / theta) ** 2, sp.Max(0, theta - m) ** 2 / theta**2, evaluate=False),
        proof=Cases(theta - m, nonneg=Identity(), neg=Identity(), positive=("theta_pos",)),
    )


def s2(size: int) -> Obligation:
    """S2: Sherman-Morrison, (A + u v^T)(A^-1 - A^-1 u v^T A^-1/(1 + v^T A^-1 u)) = I,
    for a symbolic invertible size x size matrix."""
    Am = sp.Matrix(size, size, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
    u = sp.Matrix(size, 1, lambda i, j: sp.Symbol(f"u{i}", real=True))
    v = sp.Matrix(size, 1, lambda i, j: sp.Symbol(f"v{i}", real=True))
    Ainv = Am.adjugate() / Am.det()
    denom = 1 + (v.T * Ainv * u)[0, 0]
    product = (Am + u * v.T) * (Ainv - Ainv * u * v.T * Ainv / denom)
    return Obligation(
        name=f"S2 Sherman-Morrison rank-one update, {size} x {size}",
        spec_id="S2",
        hypotheses={"A_invertible": sp.Ne(Am.det(), 0), "denominator_nonzero": sp.Ne(denom, 0)},
        claim=sp.Eq(product, sp.eye(size), evaluate=False),
        proof=Identity(),
        note="every entry of (A + u v^T) M - I cancels to 0 as a rational function",
    )


def obligations() -> list[Obligation]:
    """Every step obligation of S1 and S2."""
    return [s1(), s2(2), s2(3)]


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.msvmav`."""
    return [
        HeadlineProof(
            S1, Cases(S1.symbols[0] - S1.symbols[1], nonneg=Identity(), neg=Identity(), positive=("h0",))
        ),
        HeadlineProof(
            S2,
            Identity(),
            "the matrix form is checked for 2 x 2 and 3 x 3 matrices; the statement is the scalar case",
        ),
        HeadlineProof(RC1, _rc1_proof()),
    ]


def _rc1_proof() -> Chain:
    n, r, lam, e1, _e2 = RC1.symbols
    return Chain(
        steps=(
            Step("s_pos", gt(r * sp.sqrt(n) + e1, 0), SignByAssumptions()),
            Step("lam_pos", gt(lam, 0), SignByAssumptions()),
            Step("n_pos", gt(n, 0), SignByAssumptions()),
            Step(
                "e1_le",
                le(e1, r * sp.sqrt(n)),
                Certificate(multiplier=("s_pos",), terms=(Term((), "jensen"), Term((), "orthogonality"))),
            ),
        ),
        final=Certificate(terms=(Term(("lam_pos", ("inverse", "n_pos")), "e1_le"),)),
    )


def rc1_obligation() -> Obligation:
    """RC1 as an obligation (premises and hypotheses imply the conclusion)."""
    return HeadlineProof(RC1, _rc1_proof()).obligation()
