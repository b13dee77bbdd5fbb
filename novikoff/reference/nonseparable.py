"""The Freund-Schapire mistake bound on data that need not be separable (FS1).

For a direction u != 0 and a margin gamma > 0, over T full passes of the data,
d_i = max(0, gamma - u.z_i/||u||), D^2 = T sum_i d_i^2, and the perceptron makes at most
((R + D)/gamma)^2 mistakes in those T passes. :func:`nonseparable_bound` finds a good u,
the best gamma for it, runs the exact perceptron for T passes and checks the bound exactly
on the run, after every pass (FS1's exact decision,
:func:`novikoff.spec.nonseparable.fs_bound_holds`).

**Units (the convention of every output).** ``u`` is reported as found (an integer
vector, not normalized), and ``gamma`` is the rational margin threshold *in the units of
u.z_i*: d_i ||u|| = max(0, gamma - u.z_i). Everything else is the normalized
quantity, and rational: ``gamma2`` = gamma^2/||u||^2 (the squared margin of the unit vector
u/||u||), ``deviation2`` = T sum_i max(0, gamma - u.z_i)^2/||u||^2 and ``R2`` = max_i ||z_i||^2.
The bound is ((R + D)/gamma_n)^2 with R = sqrt(R2), D = sqrt(deviation2), gamma_n = sqrt(gamma2);
it does not change when u and gamma are scaled together.

**How gamma is chosen.** For a fixed u, with a_i = u.z_i and N = ||u||^2,
bound(g) = (R2 N + T S(g) + 2 sqrt(R2 N T S(g)))/g^2 with S(g) = sum_i max(0, g - a_i)^2:
piecewise between the breakpoints a_i. Every positive breakpoint is evaluated exactly, and
inside each piece the stationary point (a root of
(T b^2 - R2 N c) g^2 + 2 b (R2 N - T e) g + e (T e - R2 N) = 0 with c, b, e the count, sum
and sum of squares of the active a_i) is located in floating point, replaced by a nearby
rational and evaluated exactly. The candidates are compared exactly (values x + y sqrt(p),
compared by exact squaring), so the chosen gamma is at least as good as every breakpoint.

**How u is chosen.** The best bound over all u (with gamma absorbed into the scale of u) is
the convex problem min_u R ||u|| + sqrt(T) ||(1 - Z u)_+||, whose minimizer lies on the
path of the squared-hinge soft-margin SVM (min ||u||^2/2 + C/2 ||(1 - Z u)_+||^2). A float
Newton solve along a grid of C (numpy; no scikit-learn) proposes directions; they are
rationalized to small integers, together with sum_i z_i, and the best is kept by exact
comparison. The direction is a heuristic; the bound reported for it is exact.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

import mpmath
import numpy as np

from novikoff.certificates.format import NonseparableBoundClaim
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.exact.bigdot import one_blas_thread, small_times_big
from novikoff.exact.rational import RationalVector
from novikoff.reference.perceptron import DEFAULT_MAX_EPOCHS, run_perceptron
from novikoff.runtime.runs import Order, RunRecord
from novikoff.spec.nonseparable import fs_bound_holds

__all__ = [
    "NonseparableBound",
    "SqrtValue",
    "best_gamma",
    "nonseparable_bound",
    "propose_directions",
]


# ------------------------------------------------------------------------------ exact values


def _sign(q: Fraction | int) -> int:
    return (q > 0) - (q < 0)


def _sign_plus_root(x: Fraction, y: Fraction, p: Fraction) -> int:
    """The sign of x + y sqrt(p) (p >= 0), exactly."""
    s, t = _sign(x), _sign(y) * (p > 0)
    if s == t or t == 0:
        return s
    if s == 0:
        return t
    return s * _sign(x * x - y * y * p)  # |x| vs |y| sqrt(p)


def _sign_two_roots(x: Fraction, y: Fraction, p: Fraction, z: Fraction, q: Fraction) -> int:
    """The sign of x + y sqrt(p) + z sqrt(q) (p, q >= 0), exactly."""
    s, t = _sign_plus_root(x, y, p), _sign(z) * (q > 0)
    if s == t or t == 0:
        return s
    if s == 0:
        return t
    # compare |x + y sqrt(p)| with |z| sqrt(q) by squaring: x^2 + y^2 p + 2xy sqrt(p) vs z^2 q
    return s * _sign_plus_root(x * x + y * y * p - z * z * q, 2 * x * y, p)


@dataclass(frozen=True)
class SqrtValue:
    """The exact real number ``x + y sqrt(p)`` (y >= 0, p >= 0); ordered exactly."""

    x: Fraction
    y: Fraction
    p: Fraction

    def __lt__(self, other: SqrtValue) -> bool:
        return _sign_two_roots(self.x - other.x, self.y, self.p, -other.y, other.p) < 0

    def __le__(self, other: SqrtValue) -> bool:
        return not other < self

    def to_float(self) -> float | None:
        """The nearest float64 (None beyond its range), from 60-digit arithmetic."""
        with mpmath.workdps(60):
            value = _mpf(self.x) + _mpf(self.y) * mpmath.sqrt(_mpf(self.p))
            try:
                out = float(value)
            except OverflowError:
                return None
        return out if math.isfinite(out) else None


def _mpf(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


# ------------------------------------------------------------------------------ gamma for one u


def _bound_value(g: Fraction, R2N: Fraction | int, T: int, S: Fraction) -> SqrtValue:
    """((sqrt(R2N) + sqrt(T S))/g)^2 as x + y sqrt(p)."""
    g2 = g * g
    return SqrtValue((R2N + T * S) / g2, Fraction(2) / g2, Fraction(R2N * T * S))


def best_gamma(
    margins: Sequence[Fraction | int], norm2: Fraction | int, R2: Fraction | int, passes: int
) -> tuple[Fraction, SqrtValue]:
    """The margin threshold g > 0 (in the units of the margins a_i = u.z_i) minimizing the
    Freund-Schapire bound for this u, and the bound's exact value there.

    ``norm2`` = ||u||^2 > 0, ``R2`` = max ||z_i||^2, ``passes`` = T >= 1. Guarantees: g > 0
    is rational; the value is exactly ((sqrt(R2 norm2) + sqrt(T S(g)))/g)^2 with
    S(g) = sum max(0, g - a_i)^2; it is <= the value at every positive breakpoint a_i and at
    every stationary point found (module docstring; among them, a shorter rational nearby is
    preferred when its value is exactly no larger); when the bound decreases toward its
    infimum T m beyond the last breakpoint, g is taken large enough that the value is below
    T m + 1 (m = len(margins)). Raises InputError when there are no margins.
    """
    # integer margins (u and the patterns are integers) are kept as ints: the same numbers,
    # with int arithmetic in place of Fraction's (the values and every decision unchanged)
    integral = all(type(v) is int for v in margins)
    if not integral:
        values = [Fraction(v) for v in margins]
        integral = all(v.denominator == 1 for v in values)
    if integral:
        a: list[Fraction | int] = sorted(int(v) for v in margins)
    else:
        a = [*sorted(values)]
    if not a:
        raise InputError("best_gamma: no margins")
    N, R, T = Fraction(norm2), Fraction(R2), int(passes)
    if N <= 0 or T < 1:
        raise InputError(f"best_gamma: need ||u||^2 > 0 and T >= 1, got {N} and {T}")
    R2N: Fraction | int = R * N
    if integral and R2N.denominator == 1:
        R2N = int(R2N)
    counts = list(accumulate((1 for _ in a), initial=0))
    zero: Fraction | int = 0 if integral else Fraction(0)
    sums: list[Fraction | int] = list(accumulate(a, initial=zero))
    squares: list[Fraction | int] = list(accumulate((v * v for v in a), initial=zero))

    def S(g: Fraction) -> Fraction:
        j = bisect_right(a, g)  # a_i < g are active; a_i = g contributes 0 either way
        return counts[j] * g * g - 2 * sums[j] * g + squares[j]

    positive = sorted({v for v in a if v > 0})
    candidates: list[Fraction] = [Fraction(v) for v in positive]
    stops = [zero, *positive]
    for idx, lo in enumerate(stops):
        hi = stops[idx + 1] if idx + 1 < len(stops) else None
        j = bisect_right(a, lo)  # active set on (lo, hi)
        c, b, e = counts[j], sums[j], squares[j]
        candidates.extend(_stationary_points(c, b, e, R2N, T, lo, hi))
    best_g, best = None, None
    for g in _plausible_minima(candidates, a, counts, sums, squares, R2N, T):
        value = _bound_value(g, R2N, T, S(g))
        if best is None or value < best:
            best_g, best = g, value
    # beyond the last breakpoint the bound may decrease toward its infimum T m without reaching
    # it: then take g large enough that the bound is below T m + 1 (or the best of 64 doublings)
    limit = SqrtValue(Fraction(T * len(a) + 1), Fraction(0), Fraction(0))
    g = max(Fraction(1), abs(Fraction(a[0])), abs(Fraction(a[-1])))
    for _ in range(64):
        if best is not None and best < limit:
            break
        g *= 2
        value = _bound_value(g, R2N, T, S(g))
        if best is None or value < best:
            best_g, best = g, value
    assert best_g is not None and best is not None
    # a shorter rational near a stationary point when it is exactly at least as good
    for digits in range(1, 13):
        if best_g.denominator <= 10**digits:
            break
        short = best_g.limit_denominator(10**digits)
        if short > 0:
            value = _bound_value(short, R2N, T, S(short))
            if value <= best:
                best_g, best = short, value
                break
    return best_g, best


def _plausible_minima(
    candidates: Sequence[Fraction],
    a: Sequence[Fraction | int],
    counts: Sequence[int],
    sums: Sequence[Fraction | int],
    squares: Sequence[Fraction | int],
    R2N: Fraction | int,
    T: int,
) -> list[Fraction]:
    """The candidates (in their order) whose bound can be the least: a float interval of each
    candidate's bound, widened well past float64's rounding of S(g) = c g^2 - 2 b g + e
    (error at most a few ulps of c g^2 + 2|b| g + e), and those whose lower end is at most
    the least upper end. Every exact minimizer is kept (its lower end is at most its value,
    which is at most every candidate's value, so at most every upper end), so the exact
    comparison over the survivors picks what it would pick over all candidates. All of them
    when the floats do not hold the numbers (overflow, not finite)."""
    if len(candidates) <= 64:
        return list(candidates)
    try:
        with np.errstate(all="raise"):
            g = np.array([float(v) for v in candidates])
            j = np.searchsorted(np.array([float(v) for v in a]), g, side="right")
            c = np.asarray(counts, dtype=np.float64)[j]
            b = np.array([float(v) for v in sums])[j]
            e = np.array([float(v) for v in squares])[j]
            S = c * g * g - 2.0 * b * g + e
            slack = 1e-12 * (c * g * g + 2.0 * np.abs(b) * g + np.abs(e)) + 1e-300
            low_S, high_S = np.maximum(S - slack, 0.0), np.maximum(S + slack, 0.0)
            root = math.sqrt(float(R2N))
            low = ((root + np.sqrt(T * low_S)) / g) ** 2 * (1 - 1e-9)
            high = ((root + np.sqrt(T * high_S)) / g) ** 2 * (1 + 1e-9)
    except (OverflowError, FloatingPointError, ValueError):
        return list(candidates)
    if not (np.isfinite(low).all() and np.isfinite(high).all()):
        return list(candidates)
    keep = np.flatnonzero(low <= high.min())
    return [candidates[int(i)] for i in keep]


def _stationary_points(
    c: int,
    b: Fraction | int,
    e: Fraction | int,
    R2N: Fraction | int,
    T: int,
    lo: Fraction | int,
    hi: Fraction | int | None,
) -> list[Fraction]:
    """Rationals near the roots in (lo, hi) of the piece's stationarity equation (b g >= e):
    the roots in float64, or in 40-digit arithmetic when the coefficients do not fit it."""
    A2 = T * b * b - R2N * c
    B1 = 2 * b * (R2N - T * e)
    C0 = e * (T * e - R2N)
    try:
        roots = _roots_float(float(A2), float(B1), float(C0))
    except (OverflowError, ZeroDivisionError, ValueError):
        roots = _roots_mp(Fraction(A2), Fraction(B1), Fraction(C0))
    out: list[Fraction] = []
    # integer ends below 2^53 are exact floats, so a root outside (lo, hi) is seen as one
    lo_f = float(lo) if isinstance(lo, int) and abs(lo) < 2**53 else None
    hi_f = float(hi) if isinstance(hi, int) and abs(hi) < 2**53 else None
    for root in roots:
        if not math.isfinite(root) or root <= 0:
            continue
        if (lo_f is not None and root <= lo_f) or (hi_f is not None and root >= hi_f):
            continue  # the exact test below would refuse it
        g = Fraction(root)  # exact: a dyadic rational
        if g > lo and (hi is None or g < hi) and b * g >= e:
            out.append(g)
    return out


def _roots_float(A2: float, B1: float, C0: float) -> list[float]:
    if not all(map(math.isfinite, (A2, B1, C0))):
        raise OverflowError
    if A2 == 0:
        return [] if B1 == 0 else [-C0 / B1]
    disc = B1 * B1 - 4 * A2 * C0
    if not math.isfinite(disc):
        raise OverflowError
    if disc < 0:
        return []
    r = math.sqrt(disc)
    return [(-B1 + r) / (2 * A2), (-B1 - r) / (2 * A2)]


def _roots_mp(A2: Fraction, B1: Fraction, C0: Fraction) -> list[float]:
    """The roots scaled back to float64 where they fit (a root beyond float64 is dropped)."""
    out: list[float] = []
    with mpmath.workdps(40):
        if A2 == 0:
            roots = [] if B1 == 0 else [-_mpf(C0) / _mpf(B1)]
        else:
            disc = _mpf(B1 * B1 - 4 * A2 * C0)
            if disc < 0:
                return out
            r = mpmath.sqrt(disc)
            roots = [(-_mpf(B1) + r) / (2 * _mpf(A2)), (-_mpf(B1) - r) / (2 * _mpf(A2))]
        for root in roots:
            try:
                out.append(float(root))
            except OverflowError:
                continue
    return out


# ------------------------------------------------------------------------------ directions


def _squared_hinge_svm(
    Z: np.ndarray, C: float, start: np.ndarray | None = None, iterations: int = 40
) -> np.ndarray:
    """min ||u||^2/2 + C/2 sum max(0, 1 - Z_i.u)^2 by Newton steps with backtracking (floats),
    from ``start`` (default 0); stops when the active set no longer changes."""
    d = Z.shape[1]
    u = np.zeros(d) if start is None else start.copy()

    def objective(v: np.ndarray) -> float:
        h = np.maximum(0.0, 1.0 - Z @ v)
        return float(0.5 * v @ v + 0.5 * C * h @ h)

    current = objective(u)
    active = Z @ u < 1.0
    for _ in range(iterations):
        ZA = Z[active]
        H = np.eye(d) + C * ZA.T @ ZA
        try:
            target = np.linalg.solve(H, C * ZA.sum(axis=0))
        except np.linalg.LinAlgError:
            break
        step, t, value = target - u, 1.0, current
        while t > 1e-6:
            trial = u + t * step
            value = objective(trial)
            if value <= current:
                break
            t /= 2
        else:
            break
        u, current = trial, value
        now = Z @ u < 1.0
        if t == 1.0 and np.array_equal(now, active):
            break  # the Newton step solved the problem of this active set exactly
        active = now
    return u


def _float_rows(Z: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray | None:
    """The rows over their largest magnitude, in float64 (None when all are 0); ``Z`` may be
    the int64 array of the same rows (converted in one step)."""
    if isinstance(Z, np.ndarray) and int(np.abs(Z).max(initial=0)) < 2**53:
        peak = int(np.abs(Z).max(initial=0))  # every entry and the peak are exact floats, so
        return None if peak == 0 else Z.astype(np.float64) / peak  # each quotient is v / peak's
    Z = Z.tolist() if isinstance(Z, np.ndarray) else Z
    peak = max((abs(v) for row in Z for v in row), default=0)
    if peak == 0:
        return None
    return np.array([[v / peak for v in row] for row in Z], dtype=np.float64)


def _integer_direction(u: np.ndarray, denominator: int) -> tuple[int, ...] | None:
    """``u`` scaled to max |u_j| = ``denominator`` and rounded to integers, divided by their gcd
    (None when ``u`` is 0 or not finite): each coordinate within 1/2 of the scaled float."""
    peak = float(np.max(np.abs(u))) if u.size else 0.0
    if not math.isfinite(peak) or peak == 0.0:
        return None
    ints = [round(float(v) / peak * denominator) for v in u]
    g = math.gcd(*ints)
    return None if g == 0 else tuple(v // g for v in ints)


#: Above this dimension the float SVM path is skipped (a d x d solve per Newton step).
MAX_SVM_DIMENSION = 1500


def propose_directions(
    Z: Sequence[Sequence[int]], R2: Fraction | int, passes: int, array: np.ndarray | None = None
) -> list[tuple[int, ...]]:
    """Candidate integer directions u for the patterns ``Z`` (rows, any common scale; ``array``
    the same rows as int64, when the caller has them, spares a conversion):
    sum_i Z_i, and rationalized float minimizers of the squared-hinge SVM along a grid of C
    (the one minimizing the float bound R ||u|| + sqrt(T) ||(1 - Z u)_+||, at several
    denominators). Deterministic; never empty when some Z_i != 0."""
    out: list[tuple[int, ...]] = []
    total = tuple(sum(col) for col in zip(*Z))
    g = math.gcd(*total) if total else 0
    if g:
        out.append(tuple(v // g for v in total))
    F = _float_rows(Z if array is None else array)
    if F is None or F.shape[1] > MAX_SVM_DIMENSION or F.shape[1] == 0:
        return out
    R = float(np.sqrt(np.max(np.sum(F * F, axis=1))))
    T = float(passes)

    def score(u: np.ndarray) -> float:
        h = np.maximum(0.0, 1.0 - F @ u)
        return float(R * np.linalg.norm(u) + math.sqrt(T) * np.linalg.norm(h))

    best: tuple[float, float, np.ndarray] | None = None
    u = None
    with np.errstate(all="ignore"), one_blas_thread():  # small products: threads only cost

        def solve(log_c: float, start: np.ndarray | None) -> np.ndarray | None:
            nonlocal best
            v = _squared_hinge_svm(F, float(10.0**log_c), start)
            if not np.all(np.isfinite(v)):
                return None
            if np.any(v):
                value = score(v)
                if best is None or value < best[0]:
                    best = (value, log_c, v)
            return v

        for log_c in np.arange(-4.0, 6.01, 1.0):  # the path, each solve warm-started at the last
            u = solve(float(log_c), u)
        if best is not None:  # refine around the best C
            centre, start = best[1], best[2]
            for log_c in (centre - 0.5, centre + 0.5):
                solve(log_c, start)
    if best is not None:
        for den in (4, 32, 1000, 10**6):
            cand = _integer_direction(best[2], den)
            if cand is not None and cand not in out:
                out.append(cand)
    return out


# ------------------------------------------------------------------------------ the bound on a run


@dataclass(frozen=True)
class NonseparableBound:
    """The Freund-Schapire bound for direction ``u`` and margin ``gamma`` (units: module
    docstring) over ``passes`` = T full passes in ``order``, with the exact run's
    ``mistakes`` = k in those passes. Guarantees: k gamma2 <= (sqrt(R2) + sqrt(deviation2))^2 held,
    exactly, after every pass t = 1..T (with deviation2 for t passes); ``checks`` counts those
    checks; ``bound`` is the exact value ((R + D)/gamma_n)^2 and ``bound_float`` its float
    (None beyond float64); ``gamma_float`` is the normalized gamma, sqrt(gamma2)."""

    u: RationalVector
    gamma: Fraction
    gamma2: Fraction
    deviation2: Fraction
    R2: Fraction
    passes: int
    mistakes: int
    order: str
    bound: SqrtValue
    checks: int

    @property
    def bound_float(self) -> float | None:
        return self.bound.to_float()

    @property
    def gamma_float(self) -> float | None:
        return SqrtValue(Fraction(0), Fraction(1), self.gamma2).to_float()

    def claim(self) -> NonseparableBoundClaim:
        """This bound as a certificate file's ``nonseparable_bound`` (the checker re-verifies it)."""
        return NonseparableBoundClaim(
            self.u, self.gamma, self.deviation2, self.R2, self.order, self.passes, self.mistakes
        )


def _order_text(order: Order) -> str:
    if order is None:
        return "natural"
    if isinstance(order, str):
        return order
    return "custom"


def nonseparable_bound(
    dataset: Dataset,
    *,
    passes: int | None = None,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    run: RunRecord | None = None,
    direction: Sequence[int] | None = None,
    gamma: Fraction | None = None,
) -> NonseparableBound:
    """The best Freund-Schapire bound found for ``dataset`` over T passes, checked on the
    exact perceptron's run.

    T is ``passes``, or when None the run's own passes: the reference perceptron
    (:func:`novikoff.reference.perceptron.run_perceptron`) runs from w = 0 in ``order`` for
    at most ``max_epochs`` epochs (all of them on non-separable data; a converged run's
    passes, the clean one included). ``run`` instead gives that run (a run from w = 0 in
    ``order``, e.g. the exact twin's, whose updates are the reference's): T = run.epochs.
    ``direction`` fixes u (an integer vector over the pattern coordinates) instead of
    searching (:func:`propose_directions`); ``gamma`` (with ``direction``; rational > 0, in the
    units of u.z_i) fixes the margin instead of optimizing it (:func:`best_gamma`).

    Raises InputError for bad arguments (T < 1, a zero or wrong-length direction, patterns
    without coordinates) and InvariantViolation (theorem FS1) if the bound fails
    after some pass: impossible unless something is wrong.
    """
    if run is None:
        run = run_perceptron(dataset, order=order, max_epochs=max_epochs if passes is None else passes)
    T = run.epochs if passes is None else passes
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise InputError(f"passes must be a positive integer, got {T!r}")
    if passes is not None and not run.converged and run.epochs != passes:
        raise InputError(f"passes {passes}: the run given made {run.epochs} passes")
    Z, s = dataset.scaled_patterns
    if dataset.dimension == 0:
        raise InputError(f"{dataset.name}: the patterns have no coordinates; there is no direction u")
    array = dataset.pattern_array  # the same rows in int64, when they fit (None otherwise)
    R2i = max(sum(v * v for v in row) for row in Z)

    def margins_of(U: Sequence[int]) -> list[int]:
        """u.z_i for every pattern, exactly (through float64 BLAS limbs when the rows fit)."""
        if array is not None:
            return small_times_big(array, list(U))
        return [sum(a * b for a, b in zip(U, row)) for row in Z]

    if direction is not None:
        U = tuple(int(v) for v in direction)
        if len(U) != dataset.dimension or not any(U):
            raise InputError(
                f"direction: expected {dataset.dimension} integers, not all zero, got {list(direction)}"
            )
        candidates = [U]
    else:
        candidates = propose_directions(Z, R2i, T, array)
        if not candidates:
            candidates = [tuple(1 if j == 0 else 0 for j in range(dataset.dimension))]
    if gamma is not None and (direction is None or Fraction(gamma) <= 0):
        raise InputError(f"gamma {gamma}: give it with a direction, and positive")
    best: tuple[SqrtValue, tuple[int, ...], Fraction] | None = None
    for U in candidates:
        margins = margins_of(U)
        if gamma is None:
            g, value = best_gamma(margins, sum(v * v for v in U), R2i, T)
        else:
            g = Fraction(gamma) * s  # margins are in units of 1/s
            slack = sum(((g - a) ** 2 for a in margins if a < g), Fraction(0))
            value = _bound_value(g, Fraction(R2i * sum(v * v for v in U)), T, slack)
        if best is None or value < best[0]:
            best = (value, U, g)
    assert best is not None
    value, U, g = best
    N = sum(v * v for v in U)
    margins = margins_of(U)
    S = sum(((g - a) ** 2 for a in margins if a < g), Fraction(0))  # in units s^2
    gamma_u = g / s
    gamma2 = gamma_u * gamma_u / N
    R2 = Fraction(R2i, s * s)
    per_pass = [0] * T
    for epoch, _ in run.updates:
        if epoch < T:
            per_pass[epoch] += 1
    k, checks = 0, 0
    for t in range(1, T + 1):
        k += per_pass[t - 1]
        deviation2 = t * S / (s * s * N)
        checks += 1
        if not fs_bound_holds(k, R2, deviation2, gamma2):
            raise InvariantViolation(
                "FS1",
                "k*gamma2 <= (sqrt(R2) + sqrt(deviation2))**2",
                {"k": k, "gamma2": gamma2, "R2": R2, "deviation2": deviation2, "passes": t},
                f"after pass {t} of {dataset.name}",
            )
    return NonseparableBound(
        u=RationalVector.from_values([Fraction(v) for v in U]),
        gamma=gamma_u,
        gamma2=gamma2,
        deviation2=T * S / (s * s * N),
        R2=R2,
        passes=T,
        mistakes=k,
        order=_order_text(order),
        bound=value,
        checks=checks,
    )
