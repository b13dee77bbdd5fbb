"""The runtime check of DS1 (:data:`novikoff.spec.pdm.PDM_SUCC_RATIO`) on a PDM-succ run.

A PDM-succ run records its stages as (eps_k, t_k, epochs): t_k is the update count when the
stage with eps_k converged. For every pair of consecutive converged stages with
eps_k < 1/2, DS1 bounds t_k by t_(k-1):

    t_k^(2 eps_k) <= t_(k-1)^(2 eps_k) (1/(1 - eps_(k-1))^2 + R^2/((1 - 2 eps_k) gamma^2 t_(k-1))),

with R^2 and gamma^2 from the exact certificate. Its premises hold for the exact
perceptron's states (the previous stage's D2 and the true maximum margin), so the check is
made on exact runs; the powers are irrational, so it is decided in interval arithmetic.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

from novikoff.errors import InputError, InvariantViolation
from novikoff.spec.pdm import PDM_SUCC_RATIO

__all__ = ["check_pdm_succ_ratio"]


def _rational(value: object, k: int) -> Fraction:
    """eps as a Fraction: a float (a twin's stage record) by its shortest decimal, which is
    the rational the run was given."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        raise InputError(f"DS1 check: stage {k} has eps = {value!r}, not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(f"DS1 check: stage {k} has eps = {value!r}, not finite")
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def check_pdm_succ_ratio(
    stages: Sequence[tuple[object, int, int]],
    R2: Fraction,
    gamma2: Fraction,
    *,
    converged: bool = True,
) -> dict[str, str]:
    """DS1 on every applicable stage pair; returns ``{"DS1 (eps = e)": "held"}`` for each
    stage it applied to (eps_k < 1/2 and t_(k-1) >= 1), raises InvariantViolation on the
    first failure, InputError for a stage that is not (eps, updates, epochs) with
    0 < eps <= 1 rational and updates never decreasing. With ``converged=False`` the last
    stage (which did not converge) is not checked."""
    if not (R2 > 0 and gamma2 > 0):
        raise InputError(f"DS1 check: R2 and gamma2 must be positive, got {R2} and {gamma2}")
    parsed: list[tuple[Fraction, int]] = []
    for k, stage in enumerate(stages):
        if not isinstance(stage, (tuple, list)) or len(stage) != 3:
            raise InputError(f"DS1 check: stage {k} is not (eps, updates, epochs): {stage!r}")
        eps = _rational(stage[0], k)
        t = stage[1]
        if not 0 < eps <= 1 or isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise InputError(f"DS1 check: stage {k} has eps = {eps} or updates = {t!r} out of range")
        if parsed and t < parsed[-1][1]:
            raise InputError(f"DS1 check: stage {k} has fewer updates ({t}) than the stage before")
        parsed.append((eps, t))
    if not converged:
        parsed = parsed[:-1]
    checks: dict[str, str] = {}
    for (eps_prev, t0), (eps, t) in itertools.pairwise(parsed):
        if eps >= Fraction(1, 2) or t0 < 1 or eps_prev >= 1:
            continue
        values: dict[str, Fraction] = {
            "t": Fraction(t),
            "t0": Fraction(t0),
            "eps": eps,
            "eps_prev": eps_prev,
            "R2": R2,
            "gamma2": gamma2,
        }
        if not PDM_SUCC_RATIO.holds_rigorously(values):
            raise InvariantViolation(
                "DS1", str(PDM_SUCC_RATIO.conclusion), dict(values), f"at the stage eps = {eps}"
            )
        checks[f"DS1 (eps = {eps})"] = "held"
    return checks
