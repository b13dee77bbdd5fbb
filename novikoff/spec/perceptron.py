"""Novikoff's theorem for the classic perceptron: N1 progress, N2 energy, N3 mistake bound.

Quantities (DESIGN section 2/3): k = number of updates so far; p* the
minimum-norm point of conv{z_i}, gamma^2 = ||p*||^2 (rational); R^2 = max ||z_i||^2.
Everything is stated with squares and p* instead of gamma and the unit w*,
so every statement is rational and is decided exactly: ``p*.w_k >= k ||p*||^2``
is N1 multiplied by ||p*|| = gamma.
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement

__all__ = ["N1", "N2", "N3", "R2", "gamma2", "k", "pstar_dot_w", "w_norm2"]

k = sp.Symbol("k", integer=True, nonnegative=True)
gamma2 = sp.Symbol("gamma2", positive=True)  # ||p*||^2 = gamma^2
R2 = sp.Symbol("R2", positive=True)  # max_i ||z_i||^2
pstar_dot_w = sp.Symbol("pstar_dot_w", real=True)  # p* . w_k
w_norm2 = sp.Symbol("w_norm2", nonnegative=True)  # ||w_k||^2

N1 = Statement(
    id="N1",
    name="pstar_dot_weights_ge_updates_mul_gamma_sq",
    symbols=(k, gamma2, pstar_dot_w),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma2, 0, evaluate=False)),
    conclusion=sp.Ge(pstar_dot_w, k * gamma2, evaluate=False),
    source="seed 000 section 6.4 step 1 (w*.w_k >= k gamma, times gamma = ||p*||)",
    note="each update adds z_i with p*.z_i >= ||p*||^2 because p* is the min-norm point of conv{z_i}",
)

N2 = Statement(
    id="N2",
    name="weights_norm_sq_le_updates_mul_radius_sq",
    symbols=(k, R2, w_norm2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(R2, 0, evaluate=False)),
    conclusion=sp.Le(w_norm2, k * R2, evaluate=False),
    source="seed 000 section 6.4 step 2",
    note="||w + z||^2 = ||w||^2 + 2 w.z + ||z||^2 and w.z <= 0 on a mistake",
)

N3 = Statement(
    id="N3",
    name="updates_mul_gamma_sq_le_radius_sq",
    symbols=(k, gamma2, R2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma2, 0, evaluate=False), sp.Gt(R2, 0, evaluate=False)),
    conclusion=sp.Le(k * gamma2, R2, evaluate=False),
    source="Novikoff 1962; seed 000 section 6.4 step 3 (k <= R^2/gamma^2)",
    note="squeeze: k^2 gamma^2 <= (p*.w_k)^2/||p*||^2 <= ||w_k||^2 <= k R^2 (Cauchy-Schwarz)",
)
