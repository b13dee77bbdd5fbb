"""T1: Novikoff's bound is attained. The basis construction and its rotated and scaled variants.

z_i = e_i (i = 1..n), labels +1, rho = 0, natural order: the perceptron updates on
every e_i once (w.e_{k+1} = 0 <= 0 is a mistake), so k = n, while R^2 = 1 and
gamma^2 = ||p*||^2 = ||(1/n, ..., 1/n)||^2 = 1/n, hence k = n = R^2/gamma^2.
Rotating every z_i by one rational orthogonal matrix (a Cayley transform) and
scaling them by one c > 0 keep both the run and the ratio (G1).
"""

from __future__ import annotations

import sympy as sp

from novikoff.data.tight import basis_dataset, cayley_orthogonal, rotated_basis_dataset
from novikoff.spec.core import Statement
from novikoff.spec.perceptron import R2, gamma2, k

__all__ = ["T1", "basis_dataset", "cayley_orthogonal", "n", "rotated_basis_dataset"]

n = sp.Symbol("n", integer=True, positive=True)

T1 = Statement(
    id="T1",
    name="basis_vectors_updates_eq_radius_sq_div_gamma_sq",
    symbols=(n, k, R2, gamma2),
    hypotheses=(
        sp.Eq(R2, 1, evaluate=False),
        sp.Eq(gamma2, 1 / n, evaluate=False),
        sp.Eq(k, n, evaluate=False),
    ),
    conclusion=sp.Eq(k, R2 / gamma2, evaluate=False),
    source="the textbook, section 6.7 and exercise 6.3",
    note="hypotheses are what the construction yields (checked on exact runs for each n); "
    "the conclusion then follows symbolically: R2/gamma2 = 1/(1/n) = n = k",
)
