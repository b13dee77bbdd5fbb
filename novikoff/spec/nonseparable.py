"""FS1: the Freund-Schapire mistake bound without separability (Freund and Schapire 1999).

For a unit vector u (for any nonzero u, apply it to u/||u||: the slacks below are then
defined with u.z/||u||), a margin gamma > 0 and a presented sequence of patterns z (labels
folded in), d = max(0, gamma - u.z) is the slack of a presentation and D^2 the sum of d^2
over the presented sequence; R^2 >= max ||z||^2. Then the perceptron's number k of
mistakes on that sequence obeys k gamma^2 <= (R + D)^2, i.e. k <= ((R + D)/gamma)^2. With
D = 0 it is Novikoff's bound (N3).

The run, for the premises, indexed by mistakes j = 0, 1, ... (mistake j + 1 is the update
after j updates): ``pw(j)`` = u.w and ``w2(j)`` = ||w||^2 after j updates (w_1 = 0);
``uz(j)``, ``wz(j)``, ``z2(j)`` and ``d(j)`` = u.z, w.z, ||z||^2 and a slack of the pattern
z of mistake j + 1; ``sd(j)`` and ``sd2(j)`` = the sums of d and of d^2 over the first j
mistakes. The premise on the slack is ``d(j) >= gamma - uz(j)``: max(0, gamma - u.z)
satisfies it (and is the least slack that does), no sign of d is needed.

Two statements (the one-pass and the T-pass forms):

- :data:`FS1_ONE_PASS`: the mistakes are some of the presentations, so
  ``sd2(k) <= D^2`` (premise ``presented``);
- :data:`FS1_PASSES`: T full passes over n patterns with slacks ``dd(i)``; pattern i is
  mistaken ``m(i) <= T`` times (it is presented T times), the mistakes' squared slacks
  regrouped by pattern are sum_i m(i) dd(i)^2 (premise ``regroup``, with the running sums
  ``am`` and ``ad``), and the bound is k gamma^2 <= (R + sqrt(T sumd2))^2 with
  sumd2 = sum_i dd(i)^2: D^2 = T sum_i d_i^2.

Proof (``novikoff.proofs.nonseparable``): u.w_k >= k gamma - sd(k) (progress),
||w_k||^2 <= k R^2 (energy), (u.w_k)^2 <= ||w_k||^2 (Cauchy-Schwarz, ||u|| = 1),
sd(k)^2 <= k sd2(k) <= k D^2 (Cauchy-Schwarz on the mistakes' slacks); then
sqrt(k) gamma <= R + D.

:func:`fs_bound_holds` decides the conclusion exactly on a run's squared quantities
(R^2, D^2, gamma^2 are rational where R, D, gamma are not).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from novikoff.errors import InputError
from novikoff.spec.core import Forall, Statement

__all__ = [
    "FS1_ONE_PASS",
    "FS1_PASSES",
    "D",
    "R",
    "T",
    "fs_bound_holds",
    "gamma",
    "k",
    "n",
    "pw",
    "sd",
    "sd2",
    "sumd2",
    "w2",
]

k = sp.Symbol("k", integer=True, nonnegative=True)
gamma = sp.Symbol("gamma", positive=True)
R = sp.Symbol("R", nonnegative=True)
D = sp.Symbol("D", nonnegative=True)
T = sp.Symbol("T", integer=True, nonnegative=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
sumd2 = sp.Symbol("sumd2", nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
pw, w2, uz, wz, z2, d, sd, sd2 = (
    sp.Function(name) for name in ("pw", "w2", "uz", "wz", "z2", "d", "sd", "sd2")
)
m, dd, am, ad = (sp.Function(name) for name in ("m", "dd", "am", "ad"))

#: The run's premises shared by both forms (indexed by mistakes j).
_RUN: tuple[tuple[str, sp.Basic | Forall], ...] = (
    ("pw0", sp.Eq(pw(0), 0)),
    ("progress", Forall(j, sp.Eq(pw(j + 1), pw(j) + uz(j)))),
    ("w0", sp.Eq(w2(0), 0)),
    ("expansion", Forall(j, sp.Eq(w2(j + 1), w2(j) + 2 * wz(j) + z2(j)))),
    ("mistake", Forall(j, sp.Le(wz(j), 0, evaluate=False))),
    ("radius", Forall(j, sp.Le(z2(j), R**2, evaluate=False))),
    ("unit", sp.Le(pw(k) ** 2, w2(k), evaluate=False)),
    ("slack", Forall(j, sp.Ge(d(j), gamma - uz(j), evaluate=False))),
    ("sd0", sp.Eq(sd(0), 0)),
    ("sd_step", Forall(j, sp.Eq(sd(j + 1), sd(j) + d(j)))),
    ("sd20", sp.Eq(sd2(0), 0)),
    ("sd2_step", Forall(j, sp.Eq(sd2(j + 1), sd2(j) + d(j) ** 2))),
)

_SOURCE = "Freund and Schapire 1999, Theorem 2 (extends Block-Novikoff)"

FS1_ONE_PASS = Statement(
    id="FS1",
    name="mistakes_mul_gamma_sq_le_radius_plus_slack_sq",
    symbols=(k, gamma, R, D),
    hypotheses=(
        sp.Ge(k, 0, evaluate=False),
        sp.Gt(gamma, 0, evaluate=False),
        sp.Ge(R, 0, evaluate=False),
        sp.Ge(D, 0, evaluate=False),
    ),
    hypothesis_names=("k_nonneg", "gamma_pos", "R_nonneg", "D_nonneg"),
    conclusion=sp.Le(k * gamma**2, (R + D) ** 2, evaluate=False),
    premises=(*_RUN, ("presented", sp.Le(sd2(k), D**2, evaluate=False))),
    source=_SOURCE,
    note="unit u (any nonzero u: use u/||u||); d_j >= gamma - u.z_j (max(0, .) is the least such); "
    "the mistakes are some of the presentations, so their squared slacks sum to at most D^2. "
    "u.w_k >= k gamma - sum d_j >= k gamma - sqrt(k) D, (u.w_k)^2 <= ||w_k||^2 <= k R^2: "
    "sqrt(k) gamma <= R + D",
)

FS1_PASSES = Statement(
    id="FS1",
    name="passes_mistakes_mul_gamma_sq_le_radius_plus_slack_sq",
    symbols=(k, n, T, gamma, R, sumd2),
    hypotheses=(
        sp.Ge(k, 0, evaluate=False),
        sp.Ge(n, 0, evaluate=False),
        sp.Ge(T, 0, evaluate=False),
        sp.Gt(gamma, 0, evaluate=False),
        sp.Ge(R, 0, evaluate=False),
        sp.Ge(sumd2, 0, evaluate=False),
    ),
    hypothesis_names=("k_nonneg", "n_nonneg", "T_nonneg", "gamma_pos", "R_nonneg", "sumd2_nonneg"),
    conclusion=sp.Le(k * gamma**2, (R + sp.sqrt(T * sumd2)) ** 2, evaluate=False),
    premises=(
        *_RUN,
        ("ad0", sp.Eq(ad(0), 0)),
        ("ad_step", Forall(i, sp.Eq(ad(i + 1), ad(i) + dd(i) ** 2))),
        ("total", sp.Eq(ad(n), sumd2)),
        ("am0", sp.Eq(am(0), 0)),
        ("am_step", Forall(i, sp.Eq(am(i + 1), am(i) + m(i) * dd(i) ** 2))),
        ("per_pattern", Forall(i, sp.Le(m(i), T, evaluate=False))),
        ("regroup", sp.Eq(sd2(k), am(n))),
    ),
    source=_SOURCE,
    note="T full passes over patterns z_1..z_n with slacks dd(i) (d_i = max(0, gamma - u.z_i) for "
    "unit u): pattern i is presented T times, so mistaken m(i) <= T times, and the mistakes' "
    "squared slacks are sum_i m(i) dd(i)^2 <= T sum_i dd(i)^2 = D^2; then the one-pass argument",
)


def _exact(value: object, name: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise InputError(f"fs_bound_holds: {name} must be an int or a Fraction, got {value!r}")
    return Fraction(value)


def fs_bound_holds(k: int, R2: int | Fraction, deviation2: int | Fraction, gamma2: int | Fraction) -> bool:
    """Whether ``k gamma^2 <= (R + D)^2`` (FS1's conclusion), decided exactly from the
    squares ``R2 = R^2``, ``deviation2 = D^2`` and ``gamma2 = gamma^2``.

    (R + D)^2 = R2 + deviation2 + 2 sqrt(R2 deviation2): with L = k gamma2 - R2 - deviation2
    the bound holds iff L <= 0 or L^2 <= 4 R2 deviation2 (both sides of
    L <= 2 sqrt(R2 deviation2) are then nonnegative, so squaring is exact). Only integer and
    rational arithmetic; no floats.

    Raises :class:`~novikoff.errors.InputError` (naming the argument) unless k is a
    nonnegative int, R2 and deviation2 are nonnegative and gamma2 positive ints or Fractions."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InputError(f"fs_bound_holds: k must be a nonnegative int, got {k!r}")
    r2, d2, g2 = _exact(R2, "R2"), _exact(deviation2, "deviation2"), _exact(gamma2, "gamma2")
    if r2 < 0:
        raise InputError(f"fs_bound_holds: R2 must be >= 0, got {r2}")
    if d2 < 0:
        raise InputError(f"fs_bound_holds: deviation2 must be >= 0, got {d2}")
    if g2 <= 0:
        raise InputError(f"fs_bound_holds: gamma2 must be > 0, got {g2}")
    excess = k * g2 - r2 - d2
    return excess <= 0 or excess * excess <= 4 * r2 * d2
