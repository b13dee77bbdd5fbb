"""``y = G^-1 1`` exactly for an integer Gram matrix, by numeric refinement checked exactly.

The fast path of Wolfe's affine minimizer (:mod:`novikoff.certificates.minnorm`): a float64
inverse refined with exact residuals (Wan 2006), the denominator found by continued fractions
(:func:`best_denominator`), and the answer checked exactly, so a float failure costs time
(the caller then solves with FLINT) but never gives a wrong answer. Part of the untrusted
solver: the certificate checker re-verifies what it leads to.
"""

from __future__ import annotations

import numpy as np

from novikoff.exact.bigdot import big_scale, one_blas_thread, small_times_big

__all__ = ["best_denominator", "solve_ones"]

_EXACT = 2**53  # integers below this are exact in float64 (products and partial sums too)
_STEP_BITS = (32, 16)  # bits gained per refinement step, tried in this order


def solve_ones(G: np.ndarray) -> tuple[list[int], int] | None:
    """``y = G^-1 1`` exactly for a square integer matrix ``G`` (int64 array), as
    ``(numerators, denominator)``: ``y_j = numerators_j / denominator``, the denominator the
    least positive common one (so the pair is what FLINT's ``solve(...).numer_denom()``
    gives). None when this fast path does not apply (G singular or too badly conditioned
    for float64, entries too large, a step that fails); the caller then solves with FLINT.

    The method is numeric iterative refinement with exact residuals (Wan 2006): a float64
    inverse proposes ``e`` more bits of y per step, the residual ``2^e r - G d`` is kept
    exactly in int64, so after K steps ``y = (X + G^-1 r_K) / 2^(eK)`` with X an exact
    integer vector. Once ``eK`` exceeds twice the Hadamard bound on ``det G`` (which every
    denominator of y divides), continued fractions give the common denominator (usually one,
    for the first entry) and the numerators are rounded from X. Guarantee: the pair returned is
    checked exactly, ``G numerators = denominator 1`` (one exact BLAS product of G with
    the numerators cut into limbs, :func:`novikoff.exact.bigdot.small_times_big`), so a float
    failure can cost time but never gives a wrong answer.
    """
    k = G.shape[0]
    if G.ndim != 2 or G.shape != (k, k) or k == 0 or G.dtype != np.int64:
        return None
    peak = int(np.abs(G).max())
    if peak == 0 or peak * k >= 2**40:
        return None
    Gf = G.astype(np.float64)
    with np.errstate(all="ignore"), one_blas_thread():
        try:
            inverse = np.linalg.inv(Gf)
        except np.linalg.LinAlgError:
            return None
    if not np.isfinite(inverse).all():
        return None
    # Hadamard: |det G| <= prod of the row norms, and every denominator of y divides det G
    norms = np.sqrt(np.einsum("ij,ij->i", Gf, Gf))
    det_bits = int(np.log2(norms).sum() * (1 + 1e-12)) + 16
    for step in _STEP_BITS:
        with one_blas_thread():
            found = _refine(G, Gf, inverse, peak, step, 2 * det_bits + 16 + 2 + k.bit_length())
            if found is not None:
                return _reconstruct(Gf, found[0], found[1], det_bits)
    return None


def _refine(
    G: np.ndarray, Gf: np.ndarray, inverse: np.ndarray, peak: int, e: int, bits: int
) -> tuple[list[int], int] | None:
    """Integer X with ``|G^-1 1 - X / 2^(e K)| <= |G^-1 r_K| / 2^(e K)``, ``e K >= bits``, or
    None if a step lost control (residual above its bound: float inverse too inaccurate)."""
    k = G.shape[0]
    w = int(np.floor(np.log2(_EXACT / (peak * k))))  # limb width: G @ limb exact in float64
    if w < 8:
        return None
    mask = (1 << w) - 1
    row_sum = float(np.abs(Gf).sum(axis=1).max())
    # |r| = |G delta| with |delta| <= ~1/2 when the float step is good; and 2^e r must fit
    # int64 (the worst case, row_sum 2^e, is often beyond it while the actual |r| is far below)
    limit = min(2 * row_sum + 1, 2.0 ** (62 - e))
    steps = -(-bits // e)
    r = np.ones(k, dtype=np.int64)
    digits = np.empty((steps, k), dtype=np.int64)
    scale = 2.0**e
    for t in range(steps):
        guess = np.rint((inverse @ r.astype(np.float64)) * scale)
        if not np.abs(guess).max() < 2.0**61:
            return None
        d = guess.astype(np.int64)
        top = max(int(np.abs(d).max()), 1).bit_length() + 1  # bits of d with its sign
        n_limbs = -(-top // w)
        # d = sum_l limbs_l 2^(w l): low limbs in [0, 2^w), the top one signed (arithmetic shift)
        limbs = [(d >> (w * j)) & mask for j in range(n_limbs - 1)] + [d >> (w * (n_limbs - 1))]
        # G @ limb is exact in float64 (one matrix-vector product each: BLAS is slower on a
        # k x 2 block); int64 arithmetic wraps, and the true residual is small
        Gd = (Gf @ limbs[0].astype(np.float64)).astype(np.int64)
        for j in range(1, n_limbs):
            Gd += (Gf @ limbs[j].astype(np.float64)).astype(np.int64) << (w * j)
        r = (r << e) - Gd
        if not np.abs(r).max() <= limit:
            return None
        digits[t] = d
    return _join(digits, e), steps * e


def _join(digits: np.ndarray, e: int) -> list[int]:
    """Per column j, sum_t digits[t, j] 2^(e (K - 1 - t)) exactly (e a multiple of 8, <= 32)."""
    D = digits[::-1].T.copy()  # least significant first
    K = D.shape[1]
    mask = (1 << e) - 1
    for t in range(K - 1):
        carry = D[:, t] >> e  # floor: the digit left is in [0, 2^e)
        D[:, t] &= mask
        D[:, t + 1] += carry
    top = D[:, K - 1]
    low = D[:, : K - 1].astype({32: "<u4", 16: "<u2", 8: "u1"}[e])
    shift = e * (K - 1)
    return [int.from_bytes(low[j].tobytes(), "little") + (int(top[j]) << shift) for j in range(D.shape[0])]


def _reconstruct(Gf: np.ndarray, X: list[int], bits: int, det_bits: int) -> tuple[list[int], int] | None:
    """The exact y from its approximation X / 2^bits (error below 2^-bits per entry, bits >
    2 det_bits), or None if the exact check fails. The common denominator d is built
    coordinate by coordinate: d y_j is an integer iff its approximation lies within
    2^-(det_bits + 1) of one (a fraction a/b with 1 < b <= 2^det_bits is 1/b from every
    integer); otherwise a continued fraction gives its denominator, which joins d."""
    den = 1
    close = 1 << (bits - det_bits - 1)
    half = 1 << (bits - 1)
    mask = (1 << bits) - 1
    scaled = X
    j = 0
    while j < len(X):
        # d X_j mod 2^bits, centred: the distance of d y_j's approximation to an integer
        rest = ((scaled[j] + half) & mask) - half
        if abs(rest) > close:
            bound = max(1, (1 << det_bits) // den)
            extra = best_denominator(scaled[j], 1 << bits, bound)
            den *= extra
            scaled = big_scale(X, den)  # rare: usually only for the first entry
        j += 1
    numerators = [(t + half) >> bits for t in scaled]
    if any(v != den for v in small_times_big(Gf, numerators)):
        return None
    return numerators, den


def best_denominator(numerator: int, denominator: int, bound: int) -> int:
    """The denominator of ``Fraction(numerator, denominator).limit_denominator(bound)`` (the
    closest fraction with a denominator at most ``bound``), for ``denominator > 0`` and
    ``bound >= 1``: the same continued fraction, its quotients found by Lehmer's method
    (Knuth 4.5.2, Algorithm L) from the leading 62 bits while the convergents' denominators
    are far below ``bound``, then step by step as :mod:`fractions` does. On 17,000-bit
    inputs (vec400's exact solve) this is several times faster than the big-number steps."""
    if denominator <= 0 or bound < 1:
        raise ValueError("best_denominator needs denominator > 0 and bound >= 1")
    q0, q1 = 1, 0  # the denominators of the last two convergents
    n, d = numerator, denominator
    limit = bound.bit_length() - 64  # below this many bits, a round cannot pass the bound
    first = True
    while d:
        if not first and q1.bit_length() < limit and n.bit_length() > 64:
            # one Lehmer round on the leading bits (n > d > 0 after the first quotient)
            shift = n.bit_length() - 62
            nh, dh = n >> shift, d >> shift
            A, B, C, D = 1, 0, 0, 1  # (n, d) <- (A n + B d, C n + D d)
            m00, m01, m10, m11 = 1, 0, 0, 1  # (q0, q1) <- (q0 m00 + q1 m10, q0 m01 + q1 m11)
            while dh + C != 0 and dh + D != 0:
                a = (nh + A) // (dh + C)
                if a != (nh + B) // (dh + D):
                    break  # the leading bits no longer determine the quotient
                A, B, C, D = C, D, A - a * C, B - a * D
                nh, dh = dh, nh - a * dh
                m00, m01, m10, m11 = m01, m00 + a * m01, m11, m10 + a * m11
            if B != 0:  # at least one quotient: apply the round to the full numbers
                n, d = A * n + B * d, C * n + D * d
                q0, q1 = q0 * m00 + q1 * m10, q0 * m01 + q1 * m11
                continue
        first = False
        a = n // d
        q2 = q0 + a * q1
        if q2 > bound:
            k = (bound - q0) // q1
            # the closer of the semiconvergent (q0 + k q1) and the convergent (q1), as fractions does
            return q1 if 2 * d * (q0 + k * q1) <= denominator else q0 + k * q1
        q0, q1 = q1, q2
        n, d = d, n - a * d
    return q1  # the fraction itself: its reduced denominator is at most bound
