"""What a run achieved: its directional margin, exactly, against the certificate's.

For final weights w (exact, or a float twin's weights converted exactly) and t
updates:

- gamma' = min_i w.z_i / ||w|| (the directional margin of w); gamma'^2 is rational,
  reported with its sign;
- gamma'/gamma against the certificate's gamma^2 = ||p*||^2: its square is
  rational and exact; the ratio itself is exact when that square is a rational
  square, else a rigorous interval (mpmath, 128 bits, outward rounding);
- the after-run estimate 1 - gamma' t/||w|| = 1 - t min_i w.z_i/||w||^2 (rational):
  by D3 (gamma <= ||w||/t) it bounds the relative accuracy 1 - gamma'/gamma from
  above (the PDM paper's (5)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.approx import sqrt_float
from novikoff.exact.rational import to_fraction

__all__ = ["AchievedMargin", "achieved_margin", "format_interval"]


@dataclass(frozen=True)
class AchievedMargin:
    """The margin a weight vector achieves (see the module docstring); all exact but the interval."""

    min_decision: Fraction  # min_i w.z_i
    w_norm2: Fraction
    gamma_prime2: Fraction  # gamma'^2 = min_decision^2 / ||w||^2
    sign: int  # sign of gamma'
    ratio2: Fraction | None  # (gamma'/gamma)^2, None without a certificate
    ratio_exact: Fraction | None  # gamma'/gamma when ratio2 is a rational square
    ratio_interval: tuple[Fraction, Fraction] | None  # rigorous lo <= gamma'/gamma <= hi (dyadic)
    after_run_estimate: Fraction | None  # 1 - t min_decision / ||w||^2, None when t == 0

    @property
    def gamma_prime(self) -> float:
        """gamma' as a float (display only)."""
        return self.sign * sqrt_float(self.gamma_prime2)


def _dyadic(endpoint: object) -> Fraction:
    """An mpmath interval endpoint (a degenerate interval) as the exact binary fraction it is."""
    with mpmath.workprec(4 * mpmath.iv.prec):  # wide enough to hold the endpoint exactly
        value = mpmath.mpf(endpoint.a)  # type: ignore[attr-defined]
    man, exp = value.man_exp
    return Fraction(man) * Fraction(2) ** exp


def format_interval(lo: Fraction, hi: Fraction, digits: int = 12) -> str:
    """``[lo, hi]`` rounded outward to ``digits`` decimals (still a rigorous enclosure)."""
    scale = 10**digits
    down = math.floor(lo * scale)
    up = math.ceil(hi * scale)
    return f"[{Fraction(down, scale).__float__():.{digits}f}, {Fraction(up, scale).__float__():.{digits}f}]"


def _sqrt_exact(q: Fraction) -> Fraction | None:
    a, b = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


def achieved_margin(
    dataset: Dataset,
    weights: Sequence[object],
    updates: int,
    certificate: SeparableCertificate | None = None,
) -> AchievedMargin:
    """The exact margin report for ``weights`` (length = dataset dimension) after ``updates``."""
    w = [to_fraction(v) for v in weights]
    if len(w) != dataset.dimension:
        raise InputError(f"weights have length {len(w)}, the dataset's dimension is {dataset.dimension}")
    w_norm2 = sum((v * v for v in w), Fraction(0))
    if w_norm2 == 0:
        raise InputError("weights are zero: no direction, no margin")
    min_decision = min(
        sum((a * b for a, b in zip(w, dataset.pattern(i))), Fraction(0)) for i in range(dataset.n_samples)
    )
    sign = (min_decision > 0) - (min_decision < 0)
    gamma_prime2 = min_decision * min_decision / w_norm2
    ratio2 = ratio_exact = interval = None
    if certificate is not None:
        ratio2 = gamma_prime2 / certificate.gamma2
        root = _sqrt_exact(ratio2)
        ratio_exact = None if root is None else sign * root
        saved, mpmath.iv.prec = mpmath.iv.prec, 128
        try:
            iv = mpmath.iv.sqrt(mpmath.iv.mpf(ratio2.numerator) / ratio2.denominator) * sign
            interval = (_dyadic(iv.a), _dyadic(iv.b))
        finally:
            mpmath.iv.prec = saved
    estimate = None if updates == 0 else 1 - updates * min_decision / w_norm2
    return AchievedMargin(min_decision, w_norm2, gamma_prime2, sign, ratio2, ratio_exact, interval, estimate)
