"""S1 and S2: the margin-distribution optimizer MSVMAv (seed 003).

S1: for theta > 0, mean((1 - y h/theta)_+^2) = SV/theta^2 (per sample:
(1 - m/theta)_+^2 = ((theta - m)_+)^2/theta^2). S2: the Sherman-Morrison update
keeps M equal to the inverse, (A + u v^T)^-1 = A^-1 - A^-1 u v^T A^-1/(1 + v^T A^-1 u).
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement

__all__ = ["S1", "S2"]

theta = sp.Symbol("theta", positive=True)
m = sp.Symbol("m", real=True)  # a margin y_i w.x_i
a, u, v = sp.symbols("a u v", real=True)  # the scalar case of the rank-one identity

S1 = Statement(
    id="S1",
    name="squared_hinge_of_normalized_margin_eq_semivariance_term_div_theta_sq",
    symbols=(theta, m),
    hypotheses=(sp.Gt(theta, 0, evaluate=False),),
    conclusion=sp.Eq(sp.Max(0, 1 - m / theta) ** 2, sp.Max(0, theta - m) ** 2 / theta**2, evaluate=False),
    source="seed 003 (margin loss and semi-variance)",
)

S2 = Statement(
    id="S2",
    name="sherman_morrison_rank_one_update_is_the_inverse",
    symbols=(a, u, v),
    hypotheses=(sp.Ne(a, 0, evaluate=False), sp.Ne(a + u * v, 0, evaluate=False)),
    hypothesis_names=("a_nonzero", "denominator_nonzero"),
    conclusion=sp.Eq((a + u * v) * (1 / a - (u * v / a**2) / (1 + v * u / a)), 1, evaluate=False),
    source="seed 003 (7)-(8)",
    note="stated here in the scalar case; the proofs check the matrix identity for 2 x 2 and 3 x 3 "
    "symbolic matrices",
)
