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

M1 = Statement(
    id="M1",
    name="multiclass_mistakes_le_two_radius_sq_div_kesler_margin_sq",
    symbols=(k, R2, gammaK2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gammaK2, 0, evaluate=False)),
    conclusion=sp.Le(k * gammaK2, 2 * R2, evaluate=False),
    source="seed 001 (multiclass perceptron) with the Kesler construction",
)
