"""M1: the multiclass perceptron's mistake bound through the Kesler construction (the notes).

Kesler vectors phi(x, y) - phi(x, j) (j != y) have squared norm 2 ||x~||^2 <= 2 R^2,
and a multiclass mistake is a perceptron mistake on one of them, so Novikoff's
argument gives mistakes <= 2 R^2/gamma_K^2, gamma_K the Kesler margin (||W||_F = 1).
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement

__all__ = ["FALSE_CLAIMS", "M1", "NOTES_FREE_BIAS"]

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
    source="the notes (multiclass perceptron) with the Kesler construction",
)


# --------------------------------------------------------------------------- a false claim
# The notes' convergence theorem as written: R = max_i ||x_i|| over the features
# alone, a unit w* with a *separately* chosen bias b, y_i (w*.x_i + b) >= gamma, and the
# perceptron updating w <- w + y x, b <- b + y. It is false: the bias is updated in steps
# of 1 while nothing bounds |b| by R, so data far from the origin defeat it (x = 40 with
# label +1 and x = 20 with label -1: gamma = 10, R = 40, bound 16, and the perceptron makes
# 1,205 mistakes). The correct form is N3 on the augmented x~ = (x, 1), whose R and gamma
# include the bias coordinate. This statement is *not* in THEOREMS (nothing proves it);
# FALSE_CLAIMS holds it with its counterexample, which the tests check exactly.

Rx2 = sp.Symbol("Rx2", positive=True)  # max_i ||x_i||^2, the bias not counted
gamma_b2 = sp.Symbol("gamma_b2", positive=True)  # the squared margin with a free bias (geometric)

NOTES_FREE_BIAS = Statement(
    id="NOTES_FREE_BIAS",
    name="perceptron_with_separate_bias_mistakes_le_feature_radius_sq_div_margin_sq",
    symbols=(k, Rx2, gamma_b2),
    hypotheses=(sp.Ge(k, 0, evaluate=False), sp.Gt(gamma_b2, 0, evaluate=False)),
    hypothesis_names=("k_nonneg", "gamma_b2_pos"),
    conclusion=sp.Le(k * gamma_b2, Rx2, evaluate=False),
    source="the notes (their convergence theorem, as written: R = max ||x^i||, bias b separate)",
    note="FALSE: x = 40 (label +1), x = 20 (label -1) gives k = 1205 > R^2/gamma^2 = 16; "
    "the correct form is N3 on (x, 1)",
)

#: Claims of the sources that are false as written, by id: statement and a counterexample
#: (rows, labels) on which the notes' perceptron (w <- w + y x, b <- b + y) refutes it.
FALSE_CLAIMS: dict[str, tuple[Statement, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]] = {
    "NOTES_FREE_BIAS": (NOTES_FREE_BIAS, (((40,), (20,)), (1, -1))),
}
