"""Large-margin perceptrons: PFM (P1), PDM (D1, D2, D3), Lemma 1 (L1), multiple updates (MU).

The PDM paper's printed constants were lost in extraction, so
P1 and D1 are *derived here* from the update conditions (the paper's (7) and
(8)) and proved step by step in :mod:`novikoff.proofs.pdm`; they are not the
paper's Theorems 3.1/3.2 verbatim. PFM(beta) updates iff w.z <= beta ||w||;
PDM(eps) updates iff t (w.z) <= (1 - eps) ||w||^2 (t = updates so far).
"""

from __future__ import annotations

import sympy as sp

from novikoff.spec.core import Statement
from novikoff.spec.perceptron import pstar_dot_w

__all__ = ["D1_ABOVE_HALF", "D1_BELOW_HALF", "D1_HALF", "D2", "D3", "L1", "MU", "P1", "PDM_SUCC_RATIO"]

t = sp.Symbol("t", positive=True)  # updates so far
delta = sp.Symbol("delta", positive=True)
C = sp.Symbol("C", real=True)
eps = sp.Symbol("eps", positive=True)
gamma = sp.Symbol("gamma", positive=True)
R = sp.Symbol("R", positive=True)
R2 = sp.Symbol("R2", positive=True)
gamma2 = sp.Symbol("gamma2", positive=True)
w_norm = sp.Symbol("w_norm", positive=True)  # ||w_t||
w_norm2 = sp.Symbol("w_norm2", nonnegative=True)
s = sp.Symbol("s", real=True)  # a decision value w.z_i
a_t = sp.Symbol("a_t", real=True)  # ||w_t||^2 in the D1 premises
s_t = sp.Symbol("s_t", real=True)  # the power sum S(t) = sum_{j <= t} j^-p

E = sp.E


def _rel(kind: type, a: sp.Expr, b: sp.Expr) -> sp.Basic:
    return kind(a, b, evaluate=False)


L1 = Statement(
    id="L1",
    name="lemma1_updates_le_log_bound",
    symbols=(t, delta, C),
    hypotheses=(
        _rel(sp.GreaterThan, t, sp.exp(-C)),
        _rel(sp.StrictGreaterThan, delta, sp.exp(-C)),
        _rel(sp.LessThan, t, delta * (1 + C + sp.log(t))),
    ),
    conclusion=_rel(sp.LessThan, t, (1 + 1 / E) * delta * (C + sp.log((1 + E) * delta))),
    source="PDM paper, Lemma 1 (form inferred)",
    note="tight: with u = t/delta and a = C + ln delta it reads u - ln u <= 1 + a => "
    "u <= (1 + 1/e)(a + ln(1 + e)), with equality at a = e - ln(1 + e)",
)

D3 = Statement(
    id="D3",
    name="margin_le_weight_norm_div_updates",
    symbols=(t, gamma2, w_norm2),
    hypotheses=(_rel(sp.GreaterThan, t, 1), _rel(sp.StrictGreaterThan, gamma2, 0)),
    hypothesis_names=("t_ge_1", "gamma2_pos"),
    conclusion=_rel(sp.LessThan, t**2 * gamma2, w_norm2),
    premises=(
        ("progress", _rel(sp.GreaterThan, pstar_dot_w, t * gamma2)),  # N1's induction, any rule w += z
        ("cauchy_schwarz", _rel(sp.LessThan, pstar_dot_w**2, gamma2 * w_norm2)),
    ),
    source="PDM paper (4); squared form of gamma <= ||w_t||/t",
    note="holds for any rule w <- w + z_i, since p*.w_t >= t ||p*||^2 needs no mistake condition",
)

D2 = Statement(
    id="D2",
    name="pdm_converged_margin_gt_dynamic_bound",
    symbols=(t, eps, s, w_norm, gamma),
    hypotheses=(
        _rel(sp.StrictGreaterThan, t * s, (1 - eps) * w_norm**2),  # no update at convergence
        _rel(sp.GreaterThan, w_norm, t * gamma),  # D3
        _rel(sp.LessThan, eps, 1),
    ),
    hypothesis_names=("no_update", "D3", "eps_le_1"),
    conclusion=sp.And(
        _rel(sp.StrictGreaterThan, s / w_norm, (1 - eps) * w_norm / t),
        _rel(sp.GreaterThan, (1 - eps) * w_norm / t, (1 - eps) * gamma),
        evaluate=False,
    ),
    source="PDM paper section 3",
)

D1_ABOVE_HALF = Statement(
    id="D1",
    name="pdm_updates_le_radius_sq_div_two_eps_minus_one_gamma_sq",
    symbols=(t, eps, R2, gamma2),
    hypotheses=(_rel(sp.StrictGreaterThan, eps, sp.Rational(1, 2)), _rel(sp.LessThan, eps, 1)),
    hypothesis_names=("eps_gt_half", "eps_le_1"),
    conclusion=_rel(sp.LessThan, t, R2 / ((2 * eps - 1) * gamma2)),
    premises=(
        ("t_ge_1", _rel(sp.GreaterThan, t, 1)),
        ("energy", _rel(sp.LessThan, a_t, R2 * t / (2 * eps - 1))),  # the recursion, by induction
        ("D3", _rel(sp.LessThan, t**2 * gamma2, a_t)),
    ),
    source="derived here from the PDM condition (8)",
)

D1_HALF = Statement(
    id="D1",
    name="pdm_half_updates_le_log_bound",
    symbols=(t, R2, gamma2),
    hypotheses=(),
    conclusion=_rel(sp.LessThan, t, (1 + 1 / E) * (R2 / gamma2) * sp.log((1 + E) * R2 / gamma2)),
    premises=(
        ("gamma2_le_R2", _rel(sp.LessThan, gamma2, R2)),  # a certificate's margin is at most R
        ("D3", _rel(sp.LessThan, t**2 * gamma2, a_t)),
        ("energy", _rel(sp.LessThan, a_t, R2 * t * (1 + sp.log(t)))),  # recursion and harmonic bound
    ),
    source="derived here from the PDM condition (8) with Lemma 1 (eps = 1/2)",
)

D1_BELOW_HALF = Statement(
    id="D1",
    name="pdm_updates_le_power_bound",
    symbols=(t, eps, R2, gamma2),
    hypotheses=(_rel(sp.StrictLessThan, eps, sp.Rational(1, 2)),),
    hypothesis_names=("eps_lt_half",),
    conclusion=_rel(sp.LessThan, t, (2 * (1 - eps) / (1 - 2 * eps) * R2 / gamma2) ** (1 / (2 * eps))),
    premises=(
        ("D3", _rel(sp.LessThan, t**2 * gamma2, a_t)),
        ("energy", _rel(sp.LessThan, a_t, R2 * t ** (2 * (1 - eps)) * s_t)),  # recursion, Bernoulli
        ("sums", _rel(sp.LessThan, s_t, 2 * (1 - eps) / (1 - 2 * eps))),  # power sums <= p/(p - 1)
    ),
    source="derived here from the PDM condition (8)",
)

P1 = Statement(
    id="P1",
    name="pfm_updates_le_lemma1_bound",
    symbols=(t, eps, R, gamma),
    hypotheses=(_rel(sp.StrictGreaterThan, eps, 0), _rel(sp.LessThan, eps, 1), _rel(sp.LessThan, gamma, R)),
    hypothesis_names=("eps_pos", "eps_le_1", "gamma_le_R"),
    premises=(  # the norm recursion, telescoped, in Lemma 1's form (pfm.lemma_form)
        (
            "lemma_form",
            _rel(sp.LessThan, t, R**2 / (2 * eps * gamma**2) * (1 + 2 * gamma / R + sp.log(t))),
        ),
    ),
    conclusion=_rel(
        sp.LessThan,
        t,
        (1 + 1 / E)
        * (R**2 / (2 * eps * gamma**2))
        * (2 * gamma / R + sp.log((1 + E) * R**2 / (2 * eps * gamma**2))),
    ),
    source="derived here from the PFM condition (7) through Lemma 1; beta = (1 - eps) gamma",
)

n_rep = sp.Symbol("n", integer=True, positive=True)
p, q, l_ = sp.symbols("p q l", real=True)  # p = w.z, q = ||z||^2, l = ||w||^2

MU = Statement(
    id="MU",
    name="pdm_repeated_update_condition_is_quadratic",
    symbols=(n_rep, t, eps, p, q, l_),
    hypotheses=(),
    conclusion=sp.Eq(
        (t + n_rep) * (p + n_rep * q) - (1 - eps) * (l_ + 2 * n_rep * p + n_rep**2 * q),
        eps * q * n_rep**2 + (t * q - (1 - 2 * eps) * p) * n_rep - ((1 - eps) * l_ - t * p),
        evaluate=False,
    ),
    source="PDM paper section 4 (multiple updates)",
    note="the PDM condition at (w + n z, t + n) is 'quadratic(n) <= 0'; the count is the smallest "
    "n >= 1 where it fails: floor(root) + 1 for the positive root when the condition holds at n = 0",
)

t0 = sp.Symbol("t0", positive=True)  # updates at the end of the previous stage
eps_prev = sp.Symbol("eps_prev", positive=True)  # the previous stage's accuracy parameter
a_t0 = sp.Symbol("a_t0", nonnegative=True)  # ||w_{t0}||^2

PDM_SUCC_RATIO = Statement(
    id="DS1",
    name="pdm_succ_stage_updates_ratio_pow_le",
    symbols=(t, t0, eps, eps_prev, R2, gamma2),
    hypotheses=(
        _rel(sp.StrictLessThan, eps, sp.Rational(1, 2)),
        _rel(sp.StrictLessThan, eps_prev, 1),
        _rel(sp.GreaterThan, t0, 1),
        _rel(sp.GreaterThan, t, 1),
    ),
    hypothesis_names=("eps_lt_half", "eps_prev_lt_1", "t0_ge_1", "t_ge_1"),
    conclusion=_rel(
        sp.LessThan,
        t ** (2 * eps),
        t0 ** (2 * eps) * (1 / (1 - eps_prev) ** 2 + R2 / ((1 - 2 * eps) * gamma2 * t0)),
    ),
    premises=(
        # the previous stage converged at t0 (D2) and gamma is the maximum margin
        ("previous", _rel(sp.LessThan, a_t0 * (1 - eps_prev) ** 2, t0**2 * gamma2)),
        # the recursion a(j+1) <= (1 + p/j) a(j) + R^2 (p = 2(1 - eps)) from t0, with Bernoulli
        # (1 + p/j) <= ((j+1)/j)^p and sum_{j > t0} j^-p <= t0^(1-p)/(p - 1)
        (
            "energy",
            _rel(
                sp.LessThan,
                a_t,
                t ** (2 - 2 * eps) * (a_t0 * t0 ** (2 * eps - 2) + R2 * t0 ** (2 * eps - 1) / (1 - 2 * eps)),
            ),
        ),
        ("D3", _rel(sp.LessThan, t**2 * gamma2, a_t)),
    ),
    source="PDM paper section 3 (the successive-run scenario's bound on t_k/t_(k-1); constants "
    "lost in extraction, derived here from the PDM condition (8))",
    note="(t_k/t_(k-1))^(2 eps_k) <= 1/(1 - eps_(k-1))^2 + R^2/((1 - 2 eps_k) gamma^2 t_(k-1)), "
    "in multiplied form; for t_(k-1) >> R^2/gamma^2 the ratio t_k/t_(k-1) is at most about "
    "(1 - eps_(k-1))^(-1/eps_k)",
)
