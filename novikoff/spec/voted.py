"""V1: the voted perceptron's generalization bound (Freund and Schapire 1999, Theorem 1 and
its corollary), as the deterministic facts that make it true.

Freund and Schapire: train on m examples, predict example m + 1; with the examples i.i.d.,
the voted perceptron errs with probability at most 2 E[k]/(m + 1), k the mistakes of one
online pass over the m + 1 examples (bounded by FS1, or by Novikoff's bound). The argument
has three deterministic parts, stated and proved here, and one probabilistic step that is
not formalized:

- :data:`V1_PREFIXES` (online to batch): the perceptron trained on the first r examples
  is the online run after r presentations (premise ``prefix``: its decision value on
  example r + 1 is the run's), so the number of prefixes r in {0..n-1} whose perceptron errs
  on example r + 1 equals the run's mistake count k; with FS1 (premise ``fs1``) the
  fraction of erring prefixes is at most ((R + D)/gamma)^2/n.
- :data:`V1_VOTE` (one test point): voters j = 0..J-1 with weights c(j) (survival counts)
  and s(j) = y sign(w_j.x) in {-1, +1} (sign(0) = -1: ties predict -1), so
  s(j) = 1 - 2 er(j) with er(j) = 1 exactly for the erring voters; if the vote
  sign(sum_j c(j) sign(w_j.x)) is wrong then y sum_j c(j) sign(w_j.x) <= 0 (with y = +1 the
  sum is <= 0, ties included; with y = -1 it is > 0), and then the erring voters carry at
  least half the total weight: W <= 2 Ew.
- :data:`V1_SAMPLE` (a finite test sample, linearity): on N test points with vote-wrong
  indicators wv(t) in [0, 1] and erring weights Ew(t) >= 0, where a wrong vote has
  W <= 2 Ew(t) (V1_VOTE), the vote's error count satisfies W nv <= 2 sum_t Ew(t): the
  voted error rate is at most twice the error rate of the randomized predictor that
  samples voter j with probability c(j)/W (a uniform prefix when the c(j) are survival
  counts, W = m + 1).

Not formalized: the i.i.d. sampling itself (measure theory): that the randomized
predictor's expected error on a fresh example equals the expected fraction of erring
prefixes of a sequence of m + 1 i.i.d. examples (exchangeability). The expectation step
proved here is linearity over a finite uniform sample.

The statements' sympy functions are exported for the proofs (:mod:`novikoff.proofs.voted`):
pv, rv, e, u, ecount and kcount in V1_PREFIXES; cw, ew and vs in V1_VOTE; wv, ewp, nvc
and ewc in V1_SAMPLE.
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Forall, Statement

__all__ = [
    "V1_PREFIXES",
    "V1_SAMPLE",
    "V1_VOTE",
    "cw",
    "e",
    "ecount",
    "ew",
    "ewc",
    "ewp",
    "kcount",
    "nvc",
    "pv",
    "rv",
    "u",
    "vs",
    "wv",
]

_SOURCE = "Freund and Schapire 1999, Theorem 1 and its corollary (the voted perceptron)"

r = sp.Symbol("r", integer=True, nonnegative=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
errs = sp.Symbol("errs", integer=True, nonnegative=True)
gamma = sp.Symbol("gamma", positive=True)
R = sp.Symbol("R", nonnegative=True)
D = sp.Symbol("D", nonnegative=True)
pv, rv, e, u, ecount, kcount = (sp.Function(name) for name in ("pv", "rv", "e", "u", "ecount", "kcount"))

V1_PREFIXES = Statement(
    id="V1",
    name="erring_prefixes_eq_mistakes_le_fs_bound",
    symbols=(n, k, errs, gamma, R, D),
    hypotheses=(
        sp.Ge(n, 0, evaluate=False),
        sp.Ge(k, 0, evaluate=False),
        sp.Ge(errs, 0, evaluate=False),
        sp.Gt(gamma, 0, evaluate=False),
        sp.Ge(R, 0, evaluate=False),
        sp.Ge(D, 0, evaluate=False),
    ),
    hypothesis_names=("n_nonneg", "k_nonneg", "errs_nonneg", "gamma_pos", "R_nonneg", "D_nonneg"),
    conclusion=sp.And(sp.Eq(errs, k), sp.Le(errs * gamma**2, (R + D) ** 2, evaluate=False)),
    premises=(
        ("prefix", Forall(r, sp.Eq(pv(r), rv(r)))),
        ("errs_if", Forall(r, sp.Implies(sp.Le(pv(r), 0, evaluate=False), sp.Eq(e(r), 1)))),
        ("errs_else", Forall(r, sp.Implies(sp.Gt(pv(r), 0, evaluate=False), sp.Eq(e(r), 0)))),
        ("mistake_if", Forall(r, sp.Implies(sp.Le(rv(r), 0, evaluate=False), sp.Eq(u(r), 1)))),
        ("mistake_else", Forall(r, sp.Implies(sp.Gt(rv(r), 0, evaluate=False), sp.Eq(u(r), 0)))),
        ("ecount0", sp.Eq(ecount(0), 0)),
        ("ecount_step", Forall(r, sp.Eq(ecount(r + 1), ecount(r) + e(r)))),
        ("kcount0", sp.Eq(kcount(0), 0)),
        ("kcount_step", Forall(r, sp.Eq(kcount(r + 1), kcount(r) + u(r)))),
        ("erring", sp.Eq(errs, ecount(n))),
        ("mistakes", sp.Eq(k, kcount(n))),
        ("fs1", sp.Le(k * gamma**2, (R + D) ** 2, evaluate=False)),
    ),
    source=_SOURCE,
    note="pv(r): the decision value on example r + 1 of the perceptron trained on the first r "
    "examples; rv(r): the online run's at presentation r + 1 (equal: training on a prefix is "
    "the run's first r steps); e, u: their error and mistake indicators; fs1: FS1 for the n "
    "examples. Proved: the count of erring prefixes is k, so the fraction errs/n is at most "
    "((R + D)/gamma)^2/n",
)

J = sp.Symbol("J", integer=True, nonnegative=True)
W = sp.Symbol("W", real=True)
Ew = sp.Symbol("Ew", real=True)
jv = sp.Symbol("j", integer=True, nonnegative=True)
c, s, er, cw, ew, vs = (sp.Function(name) for name in ("c", "s", "er", "cw", "ew", "vs"))

V1_VOTE = Statement(
    id="V1",
    name="wrong_vote_erring_weight_ge_half",
    symbols=(J, W, Ew),
    hypotheses=(sp.Ge(J, 0, evaluate=False),),
    hypothesis_names=("J_nonneg",),
    conclusion=sp.Le(W, 2 * Ew, evaluate=False),
    premises=(
        ("vote_sign", Forall(jv, sp.Eq(s(jv), 1 - 2 * er(jv)))),
        ("cw0", sp.Eq(cw(0), 0)),
        ("cw_step", Forall(jv, sp.Eq(cw(jv + 1), cw(jv) + c(jv)))),
        ("ew0", sp.Eq(ew(0), 0)),
        ("ew_step", Forall(jv, sp.Eq(ew(jv + 1), ew(jv) + c(jv) * er(jv)))),
        ("vs0", sp.Eq(vs(0), 0)),
        ("vs_step", Forall(jv, sp.Eq(vs(jv + 1), vs(jv) + c(jv) * s(jv)))),
        ("total", sp.Eq(W, cw(J))),
        ("erring", sp.Eq(Ew, ew(J))),
        ("wrong", sp.Le(vs(J), 0, evaluate=False)),
    ),
    source=_SOURCE,
    note="s(j) = y sign(w_j.x) with sign(0) = -1 (ties predict -1), so s = 1 - 2 er with er = 1 "
    "exactly for the erring voters; vs(J) = y sum_j c(j) sign(w_j.x) <= 0 when the vote is "
    "wrong. Then sum_j c(j) s(j) = W - 2 Ew: a wrong vote has W <= 2 Ew",
)

N = sp.Symbol("N", integer=True, nonnegative=True)
nv = sp.Symbol("nv", real=True)
ewt = sp.Symbol("ewt", real=True)
Wp = sp.Symbol("W", positive=True)
t = sp.Symbol("t", integer=True, nonnegative=True)
wv, ewp, nvc, ewc = (sp.Function(name) for name in ("wv", "ewp", "nvc", "ewc"))

V1_SAMPLE = Statement(
    id="V1",
    name="vote_errors_le_twice_randomized_errors",
    symbols=(N, Wp, nv, ewt),
    hypotheses=(sp.Ge(N, 0, evaluate=False), sp.Gt(Wp, 0, evaluate=False)),
    hypothesis_names=("N_nonneg", "W_pos"),
    conclusion=sp.Le(Wp * nv, 2 * ewt, evaluate=False),
    premises=(
        ("wv_nonneg", Forall(t, sp.Ge(wv(t), 0, evaluate=False))),
        ("wv_le_one", Forall(t, sp.Le(wv(t), 1, evaluate=False))),
        ("ew_nonneg", Forall(t, sp.Ge(ewp(t), 0, evaluate=False))),
        (
            "vote",
            Forall(t, sp.Implies(sp.Gt(wv(t), 0, evaluate=False), sp.Le(Wp, 2 * ewp(t), evaluate=False))),
        ),
        ("nvc0", sp.Eq(nvc(0), 0)),
        ("nvc_step", Forall(t, sp.Eq(nvc(t + 1), nvc(t) + wv(t)))),
        ("ewc0", sp.Eq(ewc(0), 0)),
        ("ewc_step", Forall(t, sp.Eq(ewc(t + 1), ewc(t) + ewp(t)))),
        ("wrong_votes", sp.Eq(nv, nvc(N))),
        ("erring_weight", sp.Eq(ewt, ewc(N))),
    ),
    source=_SOURCE,
    note="test points t = 0..N-1, the same voters and total weight W > 0; wv(t) = 1 when the vote "
    "is wrong on t (then W <= 2 ewp(t), V1_VOTE), else 0; ewp(t) = the erring voters' weight on "
    "t. Proved: W nv <= 2 sum_t ewp(t), i.e. the voted error rate nv/N is at most twice the "
    "randomized predictor's (mean of ewp(t)/W). Not formalized: the i.i.d. draw of the sample",
)
