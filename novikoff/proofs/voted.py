"""Proofs of :mod:`novikoff.spec.voted` (V1): the deterministic core of the voted
perceptron's generalization bound.

- V1_PREFIXES: ecount(n) = kcount(n) by induction on n, splitting on the sign of the
  prefix perceptron's decision value pv(n) (both indicators are 1 when it is <= 0, both 0
  when > 0, since pv = rv); then errs = k and errs gamma^2 <= (R + D)^2 by FS1.
- V1_VOTE: vs(J) = cw(J) - 2 ew(J) by induction (s = 1 - 2 er, linearity); a wrong vote
  has vs(J) <= 0, so W <= 2 Ew.
- V1_SAMPLE: W nvc(N) <= 2 ewc(N) by induction on N; each test point adds
  W wv(t) <= 2 ewp(t) (wv <= 0: W wv <= 0 <= 2 ewp; wv > 0: W <= 2 ewp and
  2 ewp - W wv = 2 ewp (1 - wv) + wv (2 ewp - W)).

No step obligations: every fact is proved inside the headline proofs.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Both,
    Cases,
    Certificate,
    Chain,
    Identity,
    Induction,
    ModusPonens,
    Obligation,
    Proof,
    Step,
    Term,
    le,
)
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.voted import (
    V1_PREFIXES,
    V1_SAMPLE,
    V1_VOTE,
    cw,
    e,
    ecount,
    ew,
    ewc,
    ewp,
    kcount,
    nvc,
    pv,
    u,
    vs,
    wv,
)

__all__ = ["headline_proofs", "obligations"]


def obligations() -> list[Obligation]:
    """V1 has no step obligations of its own (the headline proofs carry every step)."""
    return []


def _indicators(n: sp.Symbol, value: int, errs: str, mistake: str) -> tuple[Step, ...]:
    """e(n) = u(n) = ``value`` from the implications ``errs`` and ``mistake`` and the case
    hypothesis on the sign of pv(n) (rv(n) = pv(n) by the premise ``prefix``)."""
    return (
        Step("e_n", sp.Eq(e(n), value), ModusPonens(errs, Certificate(terms=(Term((), "case"),)))),
        Step(
            "u_n",
            sp.Eq(u(n), value),
            ModusPonens(mistake, Certificate(substitutions=("prefix",), terms=(Term((), "case"),))),
        ),
    )


def _prefixes() -> Proof:
    n = V1_PREFIXES.symbols[0]
    step = Identity(("ecount_step", "kcount_step", "IH", "e_n", "u_n"))
    count = Step(
        "count",
        sp.Eq(ecount(n), kcount(n)),
        Induction(
            n,
            base=Identity(("ecount0", "kcount0")),
            step=Cases(
                -pv(n),
                nonneg=Chain(steps=_indicators(n, 1, "errs_if", "mistake_if"), final=step),
                neg=Chain(steps=_indicators(n, 0, "errs_else", "mistake_else"), final=step),
            ),
        ),
    )
    subs = ("erring", "mistakes", "count")
    parts: list[Proof] = [
        Identity(subs)
        if isinstance(part, sp.Equality)
        else Certificate(substitutions=subs, terms=(Term((), "fs1"),))
        for part in V1_PREFIXES.conclusion.args
    ]
    return Chain(steps=(count,), final=Both(tuple(parts)))


def _vote() -> Proof:
    J = V1_VOTE.symbols[0]
    sums = Step(
        "vs_sum",
        sp.Eq(vs(J), cw(J) - 2 * ew(J)),
        Induction(
            J,
            base=Identity(("vs0", "cw0", "ew0")),
            step=Identity(("vs_step", "cw_step", "ew_step", "vote_sign", "IH")),
        ),
    )
    return Chain(
        steps=(sums,),
        final=Certificate(substitutions=("total", "erring", "vs_sum"), terms=(Term((), "wrong"),)),
    )


def _sample() -> Proof:
    N, W = V1_SAMPLE.symbols[:2]
    pointwise = Step(
        "pointwise",
        le(W * wv(N), 2 * ewp(N)),
        Cases(
            -wv(N),
            # the vote is right (wv = 0): W wv <= 0 <= 2 ewp
            nonneg=Certificate(terms=(Term((2,), "ew_nonneg"), Term(("W_pos",), "case"))),
            # the vote is wrong: W <= 2 ewp (V1_VOTE), and wv <= 1
            neg=Chain(
                steps=(
                    Step(
                        "half",
                        le(W, 2 * ewp(N)),
                        ModusPonens("vote", Certificate(terms=(Term((), "case"),))),
                    ),
                ),
                final=Certificate(terms=(Term((2, "ew_nonneg"), "wv_le_one"), Term(("case",), "half"))),
            ),
        ),
    )
    total = Step(
        "sum",
        le(W * nvc(N), 2 * ewc(N)),
        Induction(
            N,
            base=Certificate(substitutions=("nvc0", "ewc0")),
            step=Chain(
                steps=(pointwise,),
                final=Certificate(
                    substitutions=("nvc_step", "ewc_step"), terms=(Term((), "IH"), Term((), "pointwise"))
                ),
            ),
        ),
    )
    return Chain(
        steps=(total,),
        final=Certificate(substitutions=("wrong_votes", "erring_weight"), terms=(Term((), "sum"),)),
    )


def headline_proofs() -> list[HeadlineProof]:
    """The proof of every statement of :mod:`novikoff.spec.voted`."""
    return [
        HeadlineProof(V1_PREFIXES, _prefixes()),
        HeadlineProof(V1_VOTE, _vote()),
        HeadlineProof(V1_SAMPLE, _sample()),
    ]
