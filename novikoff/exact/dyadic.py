"""Float64 arrays as exact integers over one power of two (every float is a dyadic rational)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from novikoff.errors import InputError

__all__ = ["dyadic_integers"]

_FLOAT_EXACT = 2**53


def dyadic_integers(A: np.ndarray) -> tuple[np.ndarray, int]:
    """``(N, k)`` with ``A = N / 2^k`` exactly and ``k >= 0`` the least such exponent.

    ``N`` is float64 (integer values) when every ``|N_ij| <= 2^53``, else an object
    array of Python ints. ``A`` must be finite float64 (InputError otherwise).
    """
    A = np.asarray(A, dtype=np.float64)
    peak = float(np.abs(A).max(initial=0.0))
    if not np.isfinite(peak):
        raise InputError("values must be finite (no NaN or infinity)")
    if peak <= _FLOAT_EXACT and np.array_equal(A, np.trunc(A)):  # integers already: k = 0
        return A, 0
    mant, expo = np.frexp(A)  # A = mant 2^expo, 0.5 <= |mant| < 1 (0 for 0)
    ints = (mant * 2.0**53).astype(np.int64)  # exact: 53-bit integer mantissas
    nonzero = ints != 0
    if not nonzero.any():
        return np.zeros(A.shape), 0
    low = ints[nonzero] & -ints[nonzero]  # lowest set bit
    trailing = np.log2(low.astype(np.float64)).astype(np.int64)
    k = int(max(0, (53 - expo[nonzero].astype(np.int64) - trailing).max()))
    with np.errstate(over="ignore"):
        scaled = np.ldexp(A, k)  # exact unless it overflows (then: Python ints below)
    if np.isfinite(scaled).all() and float(np.abs(scaled).max()) <= _FLOAT_EXACT:
        return scaled, k
    # beyond 2^53 (or past float64's range): Python ints, m 2^e scaled exactly
    exact = [int(Fraction(v) * 2**k) for v in A.ravel().tolist()]
    return np.array(exact, dtype=object).reshape(A.shape), k
