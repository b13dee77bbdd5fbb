"""The numeric check of RC1 (:data:`novikoff.spec.msvmav.RC1`) on data.

:func:`rademacher_check` evaluates the statement on actual rows: it enumerates all 2^n sign
vectors (n <= 16), computes e2 = E ||sum sigma_i x_i||^2 exactly (and checks it equals
sum ||x_i||^2, the orthogonality identity), e1 = E ||sum sigma_i x_i|| in 100-bit arithmetic,
and returns both sides of R_S(H) = Lam e1 / n <= r Lam / sqrt(n); ``holds`` compares them
with a relative slack of 2^-90 for that arithmetic's rounding (equality is attained by
orthogonal rows of equal norm).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from novikoff.errors import InputError

__all__ = ["RademacherCheck", "rademacher_check"]


@dataclass(frozen=True)
class RademacherCheck:
    n: int
    r2: Fraction  # max ||x_i||^2
    e2: Fraction  # E ||sum sigma_i x_i||^2, exact
    e1: float  # E ||sum sigma_i x_i||
    lhs: float  # Lam e1 / n
    rhs: float  # r Lam / sqrt(n)
    holds: bool


def rademacher_check(rows: Sequence[Sequence[Fraction]], lam: Fraction = Fraction(1)) -> RademacherCheck:
    """RC1 on ``rows`` (exact rationals, 1 <= n <= 16 rows) with ||w|| <= ``lam``: all 2^n sign
    vectors enumerated; InputError outside that size or for lam <= 0."""
    n = len(rows)
    if not 1 <= n <= 16:
        raise InputError(f"rademacher_check enumerates 2^n sign vectors: n must be in 1..16, got {n}")
    if lam <= 0:
        raise InputError(f"rademacher_check: Lam must be > 0, got {lam}")
    d = len(rows[0])
    X = [[Fraction(v) for v in row] for row in rows]
    if any(len(row) != d for row in X):
        raise InputError("rademacher_check: every row needs the same length")
    r2 = max(sum((v * v for v in row), Fraction(0)) for row in X)
    total2 = Fraction(0)
    with mpmath.workprec(100):
        total1 = mpmath.mpf(0)
        for signs in itertools.product((1, -1), repeat=n):
            s = [sum((sg * row[j] for sg, row in zip(signs, X)), Fraction(0)) for j in range(d)]
            q = sum((v * v for v in s), Fraction(0))
            total2 += q
            total1 += mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator)
        e1 = total1 / 2**n
        e2 = total2 / 2**n
        if e2 != sum((sum((v * v for v in row), Fraction(0)) for row in X), Fraction(0)):
            raise AssertionError("E||sum sigma_i x_i||^2 != sum ||x_i||^2: the enumeration is wrong")
        lam_f = mpmath.mpf(lam.numerator) / lam.denominator
        lhs = lam_f * e1 / n
        rhs = mpmath.sqrt(mpmath.mpf(r2.numerator) / r2.denominator) * lam_f / mpmath.sqrt(n)
        return RademacherCheck(
            n, r2, e2, float(e1), float(lhs), float(rhs), bool(lhs <= rhs * (1 + mpmath.mpf(2) ** -90))
        )
