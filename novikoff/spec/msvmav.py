"""S1 and S2: the margin-distribution optimizer MSVMAv (the IJCAI paper).

S1: for theta > 0, mean((1 - y h/theta)_+^2) = SV/theta^2 (per sample:
(1 - m/theta)_+^2 = ((theta - m)_+)^2/theta^2). S2: the Sherman-Morrison update
keeps M equal to the inverse, (A + u v^T)^-1 = A^-1 - A^-1 u v^T A^-1/(1 + v^T A^-1 u).
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement

__all__ = ["RC1", "S1", "S2"]

theta = sp.Symbol("theta", positive=True)
m = sp.Symbol("m", real=True)  # a margin y_i w.x_i
a, u, v = sp.symbols("a u v", real=True)  # the scalar case of the rank-one identity

S1 = Statement(
    id="S1",
    name="squared_hinge_of_normalized_margin_eq_semivariance_term_div_theta_sq",
    symbols=(theta, m),
    hypotheses=(sp.Gt(theta, 0, evaluate=False),),
    conclusion=sp.Eq(sp.Max(0, 1 - m / theta) ** 2, sp.Max(0, theta - m) ** 2 / theta**2, evaluate=False),
    source="the IJCAI paper (margin loss and semi-variance)",
)

S2 = Statement(
    id="S2",
    name="sherman_morrison_rank_one_update_is_the_inverse",
    symbols=(a, u, v),
    hypotheses=(sp.Ne(a, 0, evaluate=False), sp.Ne(a + u * v, 0, evaluate=False)),
    hypothesis_names=("a_nonzero", "denominator_nonzero"),
    conclusion=sp.Eq((a + u * v) * (1 / a - (u * v / a**2) / (1 + v * u / a)), 1, evaluate=False),
    source="the IJCAI paper (7)-(8)",
    note="stated here in the scalar case; the proofs check the matrix identity for 2 x 2 and 3 x 3 "
    "symbolic matrices",
)


# --------------------------------------------------------- the IJCAI paper's section 3
# Theorem 1 (the margin-distribution generalization bound) cannot be stated: its formula was
# lost in extraction, and its proof rests on Rademacher-complexity results (Bartlett and
# Mendelson 2002, with the paper's intervals for theta_h) not formalized here. What survives
# with a formula is the bound on the empirical Rademacher complexity of the linear class it is
# applied to: for ||x_i|| <= r and ||w|| <= Lam,
#     R_S(H) = (Lam/n) E_sigma ||sum_i sigma_i x_i|| <= r Lam / sqrt(n),
# from Jensen (E||.|| <= sqrt(E||.||^2)) and E||sum sigma_i x_i||^2 = sum ||x_i||^2 <= n r^2.
# RC1 states it with e1 = E||sum sigma_i x_i|| and e2 = E||sum sigma_i x_i||^2 as symbols.

n_s = sp.Symbol("n", positive=True)
r_s = sp.Symbol("r", positive=True)
lam_s = sp.Symbol("Lam", positive=True)
e1_s = sp.Symbol("e1", nonnegative=True)
e2_s = sp.Symbol("e2", nonnegative=True)

RC1 = Statement(
    id="RC1",
    name="linear_empirical_rademacher_le_radius_mul_norm_div_sqrt_n",
    symbols=(n_s, r_s, lam_s, e1_s, e2_s),
    hypotheses=(sp.Ge(n_s, 1, evaluate=False),),
    hypothesis_names=("n_ge_1",),
    conclusion=sp.Le(lam_s * e1_s / n_s, r_s * lam_s / sp.sqrt(n_s), evaluate=False),
    premises=(
        ("jensen", sp.Le(e1_s**2, e2_s, evaluate=False)),
        ("orthogonality", sp.Le(e2_s, n_s * r_s**2, evaluate=False)),
    ),
    source="IJCAI-22 paper section 3 (the linear class's empirical Rademacher complexity, after "
    "Shalev-Shwartz and Ben-David 2014); Theorem 1 itself was lost in extraction",
    note="R_S(H) = Lam e1 / n; the orthogonality premise is E sigma_i sigma_j = [i = j] with ||x_i|| <= r",
)
