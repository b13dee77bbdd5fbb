"""Novikoff's theorem for the classic perceptron: N1 progress, N2 energy, N3 mistake bound.

Quantities: k = number of updates so far; p* the
minimum-norm point of conv{z_i}, gamma^2 = ||p*||^2 (rational); R^2 = max ||z_i||^2.
Everything is stated with squares and p* instead of gamma and the unit w*,
so every statement is rational and is decided exactly: ``p*.w_k >= k ||p*||^2``
is N1 multiplied by ||p*|| = gamma.
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Forall, Statement

__all__ = ["N1", "N2", "N3", "R2", "gamma2", "k", "pstar_dot_w", "w_norm2"]

k = sp.Symbol("k", integer=True, nonnegative=True)
gamma2 = sp.Symbol("gamma2", positive=True)  # ||p*||^2 = gamma^2
R2 = sp.Symbol("R2", positive=True)  # max_i ||z_i||^2
pstar_dot_w = sp.Symbol("pstar_dot_w", real=True)  # p* . w_k
w_norm2 = sp.Symbol("w_norm2", nonnegative=True)  # ||w_k||^2

# the run, for the premises: j counts updates; pw(j) = p*.w_j, pz(j) = p*.z of the j-th
# update's pattern, w2(j) = ||w_j||^2, wz(j) = w_j.z and z2(j) = ||z||^2 for that pattern
j = sp.Symbol("j", integer=True, nonnegative=True)
pw, pz, w2, wz, z2 = (sp.Function(name) for name in ("pw", "pz", "w2", "wz", "z2"))

N1 = Statement(
    id="N1",
    name="pstar_dot_weights_ge_updates_mul_gamma_sq",
    symbols=(k, gamma2, pstar_dot_w),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "gamma2_pos"),
    conclusion=sp.Ge(pstar_dot_w, k * gamma2, evaluate=False),
    premises=(
        ("w0", sp.Eq(pw(0), 0)),
        ("update", Forall(j, sp.Eq(pw(j + 1), pw(j) + pz(j)))),
        ("minnorm", Forall(j, sp.Ge(pz(j), gamma2, evaluate=False))),
        ("value", sp.Eq(pstar_dot_w, pw(k))),
    ),
    source="the textbook, section 6.4 step 1 (w*.w_k >= k gamma, times gamma = ||p*||)",
    note="each update adds z_i with p*.z_i >= ||p*||^2 because p* is the min-norm point of conv{z_i}",
)

N2 = Statement(
    id="N2",
    name="weights_norm_sq_le_updates_mul_radius_sq",
    symbols=(k, R2, w_norm2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(R2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "R2_pos"),
    conclusion=sp.Le(w_norm2, k * R2, evaluate=False),
    premises=(
        ("w0", sp.Eq(w2(0), 0)),
        ("expansion", Forall(j, sp.Eq(w2(j + 1), w2(j) + 2 * wz(j) + z2(j)))),
        ("mistake", Forall(j, sp.Le(wz(j), 0, evaluate=False))),
        ("radius", Forall(j, sp.Le(z2(j), R2, evaluate=False))),
        ("value", sp.Eq(w_norm2, w2(k))),
    ),
    source="the textbook, section 6.4 step 2",
    note="||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 and w.z <= 0 on a mistake",
)

N3 = Statement(
    id="N3",
    name="updates_mul_gamma_sq_le_radius_sq",
    symbols=(k, gamma2, R2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma2, 0, evaluate=False), sp.Gt(R2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "gamma2_pos", "R2_pos"),
    conclusion=sp.Le(k * gamma2, R2, evaluate=False),
    premises=(
        ("N1", sp.Ge(pstar_dot_w, k * gamma2, evaluate=False)),
        ("N2", sp.Le(w_norm2, k * R2, evaluate=False)),
        ("cauchy_schwarz", sp.Le(pstar_dot_w**2, gamma2 * w_norm2, evaluate=False)),
    ),
    source="Novikoff 1962; the textbook, section 6.4 step 3 (k <= R^2/gamma^2)",
    note="squeeze: k^2 gamma^2 <= (p*.w_k)^2/||p*||^2 <= ||w_k||^2 <= k R^2 (Cauchy-Schwarz)",
)
