"""M1: the multiclass perceptron's mistake bound through the Kesler construction (seed 001).

Kesler vectors phi(x, y) - phi(x, j) (j != y) have squared norm 2 ||x~||^2 <= 2 R^2,
and a multiclass mistake is a perceptron mistake on one of them, so Novikoff's
argument gives mistakes <= 2 R^2/gamma_K^2, gamma_K the Kesler margin (||W||_F = 1).
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement

__all__ = ["M1"]

k = sp.Symbol("k", integer=True, nonnegative=True)
R2 = sp.Symbol("R2", positive=True)
gammaK2 = sp.Symbol("gammaK2", positive=True)

kesler_dot_w = sp.Symbol("kesler_dot_w", real=True)  # U*.W_k, U* the Kesler certificate
kesler_w_norm2 = sp.Symbol("kesler_w_norm2", nonnegative=True)  # ||W_k||_F^2

M1 = Statement(
    id="M1",
    name="multiclass_mistakes_le_two_radius_sq_div_kesler_margin_sq",
    symbols=(k, R2, gammaK2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gammaK2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "gammaK2_pos"),
    conclusion=sp.Le(k * gammaK2, 2 * R2, evaluate=False),
    premises=(  # N1, N2 and Cauchy-Schwarz for the Kesler patterns (squared norm 2 ||x~||^2 <= 2 R^2)
        ("progress", sp.Ge(kesler_dot_w, k * gammaK2, evaluate=False)),
        ("energy", sp.Le(kesler_w_norm2, 2 * k * R2, evaluate=False)),
        ("cauchy_schwarz", sp.Le(kesler_dot_w**2, gammaK2 * kesler_w_norm2, evaluate=False)),
    ),
    source="seed 001 (multiclass perceptron) with the Kesler construction",
)
