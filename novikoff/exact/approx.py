"""Display approximations of exact values that never overflow and never raise.

Exact results (rationals with thousands of digits, ``1e10000``) are reported
exactly elsewhere; these helpers only make the short human-readable forms and the
``*_float`` companions. Guarantees: no function here raises on a finite rational
of any size; a float result is the nearest float64, or ``inf``/``-inf`` (for
:func:`sqrt_float` and :func:`signed_sqrt_ratio`) or None (for :func:`to_float`)
when the value is beyond float64; :func:`show` gives a correct decimal
approximation (``digits`` significant digits) of any magnitude.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

__all__ = ["show", "show_ratio_sqrt", "signed_sqrt_ratio", "sqrt_float", "to_float"]


def to_float(value: Fraction | int | float) -> float | None:
    """The nearest float64 of ``value``, or None when it overflows (or is not finite)."""
    try:
        f = float(value)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


_CONTEXT = decimal.Context(prec=40, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _decimal(q: Fraction) -> decimal.Decimal:
    return _CONTEXT.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))


def show(value: Fraction | int, digits: int = 6) -> str:
    """``value`` to ``digits`` significant digits: like ``f"{float(value):.6g}"`` when it fits a
    float64, else in decimal scientific notation (``1e+10000``)."""
    q = Fraction(value)
    f = to_float(q)
    if f is not None and (f != 0 or q == 0):
        return f"{f:.{digits}g}"
    return format(_decimal(q), f".{digits}g")


def sqrt_float(q: Fraction) -> float:
    """sqrt(q) for q >= 0 as a float64 (``inf`` beyond the float range)."""
    f = to_float(q)
    if f is not None and (f != 0 or q == 0) and f >= 2.0**-1000:
        return math.sqrt(f)
    if q == 0:
        return 0.0
    return float(_CONTEXT.sqrt(_decimal(q)))  # float(Decimal) gives inf or 0.0 outside the range


def signed_sqrt_ratio(a: Fraction, b2: Fraction) -> float:
    """a / sqrt(b2) for b2 > 0, as a float64 (``inf``/``-inf`` beyond the range)."""
    root = sqrt_float(a * a / b2)
    return root if a >= 0 else -root


def show_ratio_sqrt(a: Fraction, b2: Fraction, digits: int = 6) -> str:
    """a / sqrt(b2) (b2 > 0) to ``digits`` significant digits, of any magnitude."""
    f = signed_sqrt_ratio(a, b2)
    if math.isfinite(f) and (f != 0 or a == 0):
        return f"{f:.{digits}g}"
    value = _decimal(Fraction(a)) / _CONTEXT.sqrt(_decimal(Fraction(b2)))
    return format(_CONTEXT.plus(value), f".{digits}g")
