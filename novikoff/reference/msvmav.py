"""The MSVMAv reference (linear; the IJCAI paper's Algorithm 1).

Patterns z_i = y_i (x_i, rho) (with rho = 1: the constant feature the paper
appends). With ||w|| = 1: theta(w) = mean_i w.z_i and SV(w) = mean_i ((theta - w.z_i)_+)^2.
w_0 = s/||s||, s = sum_i z_i; iteration k (alpha, beta > 0):

    theta = theta(w_{k-1});  A = {i : w_{k-1}.z_i < theta}
    M = (I + sum_{i in A} z_i z_i^T / (n beta))^-1
    w' = M (theta sum_{i in A} z_i / (n beta) + w_{k-1})
    w_k = normalize(w' + s / (2 alpha n));  if theta(w_k) < 0: w_k = -w_k

Arithmetic: M, the sums and s are exact rationals (python-flint ``fmpq_mat``).
The weights pass through a normalization, which leaves the rationals; they are
kept as mpmath numbers at ``precision`` bits (default 256), so every quantity
built from them carries a relative rounding error of a few units of 2^-precision
per iteration. The set A is decided in that precision; ``min_gap`` records the
smallest |w.z_i - theta| seen, so a caller can see how far every decision was
from a tie (a gap far above 2^-precision means the decisions are the exact ones
for these weights).

S1 is checked at every iteration, exactly: the mpmath margins and theta are dyadic
rationals, and for those values the spec's S1, (1 - m/theta)_+^2 = ((theta - m)_+)^2/theta^2,
is evaluated for every sample (theta > 0), and its mean against SV/theta^2.

S2 is checked at every iteration: M is also kept by Sherman-Morrison updates
from the previous M (remove the samples that left A, add those that entered),
exactly, and must equal the direct inverse; a difference raises
InvariantViolation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import fmpq, fmpq_mat

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.exact.rational import exact_parameter

__all__ = ["MSVMAvRun", "run_msvmav", "validate_positive"]


def validate_positive(value: object, name: str) -> Fraction:
    """An exact number > 0, else InputError naming it."""
    q = exact_parameter(value, name)
    if q <= 0:
        raise InputError(f"{name} must be > 0, got {q}")
    return q


@dataclass
class MSVMAvRun:
    """The final unit weights (mpmath, ``precision`` bits) and the per-iteration history."""

    weights: list[mpmath.mpf]
    iterations: int
    precision: int
    theta: list[float] = field(default_factory=list)  # theta(w_k), k = 0..T
    semivariance: list[float] = field(default_factory=list)
    active: list[int] = field(default_factory=list)  # |A_k|, k = 1..T
    s1_checks: int = 0
    s2_checks: int = 0
    min_gap: float = float("inf")

    def float_weights(self) -> list[float]:
        return [float(v) for v in self.weights]


def _exact(x: mpmath.mpf) -> Fraction:
    """An mpmath number as the dyadic rational it is."""
    man, exp = x.man_exp
    return Fraction(man) * Fraction(2) ** exp


def _check_s1(theta: mpmath.mpf, margins: list[mpmath.mpf]) -> bool:
    """S1 per sample and on the mean, exactly, at the current weights; False when theta <= 0
    (S1 does not apply), True when it held (InvariantViolation otherwise)."""
    from novikoff.spec import S1

    t = _exact(theta)
    if t <= 0:
        return False
    ms = [_exact(m) for m in margins]
    for m in ms:
        if not S1.check({"theta": t, "m": m}):
            raise InvariantViolation("S1", str(S1.conclusion), {"theta": t, "m": m}, "in MSVMAv")
    loss = sum((max(Fraction(0), 1 - m / t) ** 2 for m in ms), Fraction(0)) / len(ms)
    sv = sum(((t - m) ** 2 for m in ms if m < t), Fraction(0)) / len(ms)
    if loss != sv / (t * t):
        raise InvariantViolation("S1", "mean((1 - m/theta)_+^2) = SV/theta^2", {"theta": t}, "in MSVMAv")
    return True


def _q(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _sm_update(M: fmpq_mat, z: fmpq_mat, nb: fmpq, add: bool) -> fmpq_mat:
    """Sherman-Morrison: adding z z^T/nb to M^-1 (add) or removing it, exactly."""
    Mz = M * z
    denom = (z.transpose() * Mz)[0, 0]
    scale = (nb + denom) if add else (nb - denom)
    outer = Mz * Mz.transpose()
    return M - outer * (1 / scale) if add else M + outer * (1 / scale)


def run_msvmav(
    dataset: Dataset,
    alpha: object,
    beta: object,
    *,
    iterations: int = 100,
    precision: int = 256,
) -> MSVMAvRun:
    """Run MSVMAv for ``iterations`` steps (see the module docstring for the arithmetic)."""
    a = validate_positive(alpha, "alpha")
    b = validate_positive(beta, "beta")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InputError(f"iterations must be an integer >= 0, got {iterations!r}")
    Z, sc = dataset.scaled_patterns
    n, D = dataset.n_samples, dataset.dimension
    z_cols = [fmpq_mat(D, 1, [fmpq(v, sc) for v in row]) for row in Z]
    s = [Fraction(sum(row[j] for row in Z), sc) for j in range(D)]
    if not any(s):
        raise InputError("sum_i y_i x~_i is zero: MSVMAv's initial w_0 = s/||s|| is undefined")
    nb = _q(n * b)
    shift = [v / (2 * a * n) for v in s]
    run = MSVMAvRun(weights=[], iterations=iterations, precision=precision)
    with mpmath.workprec(precision):
        zf = [[mpmath.mpf(v) / sc for v in row] for row in Z]

        def normalize(v: list[mpmath.mpf]) -> list[mpmath.mpf]:
            norm = mpmath.sqrt(mpmath.fsum(x * x for x in v))
            return [x / norm for x in v]

        def margins(w: list[mpmath.mpf]) -> list[mpmath.mpf]:
            return [mpmath.fsum(x * y for x, y in zip(w, row)) for row in zf]

        def stats(w: list[mpmath.mpf]) -> tuple[mpmath.mpf, mpmath.mpf, list[mpmath.mpf]]:
            ms = margins(w)
            theta = mpmath.fsum(ms) / n
            sv = mpmath.fsum((theta - x) ** 2 for x in ms if x < theta) / n
            return theta, sv, ms

        w = normalize([mpmath.mpf(v.numerator) / v.denominator for v in s])
        theta, sv, ms = stats(w)
        run.theta.append(float(theta))
        run.semivariance.append(float(sv))
        M = fmpq_mat(D, D, [fmpq(int(i == j)) for i in range(D) for j in range(D)])
        active: set[int] = set()
        for _ in range(iterations):
            run.min_gap = min(run.min_gap, float(min(abs(x - theta) for x in ms)))
            new = {i for i, x in enumerate(ms) if x < theta}
            # S2: Sherman-Morrison from the previous M equals the direct inverse, exactly
            for i in sorted(active - new):
                M = _sm_update(M, z_cols[i], nb, add=False)
            for i in sorted(new - active):
                M = _sm_update(M, z_cols[i], nb, add=True)
            direct = fmpq_mat(D, D, [fmpq(int(i == j)) for i in range(D) for j in range(D)])
            for i in new:
                direct = direct + z_cols[i] * z_cols[i].transpose() * (1 / nb)
            if M != direct.inv():
                raise InvariantViolation("S2", "Sherman-Morrison M equals the direct inverse", {}, "")
            run.s2_checks += 1
            active = new
            r = [sum((Fraction(Z[i][j], sc) for i in active), Fraction(0)) for j in range(D)]
            Mf = [[mpmath.mpf(int(M[i, j].p)) / int(M[i, j].q) for j in range(D)] for i in range(D)]
            rhs = [
                theta
                * (mpmath.mpf(r[j].numerator) / r[j].denominator)
                / (n * mpmath.mpf(b.numerator) / b.denominator)
                + w[j]
                for j in range(D)
            ]
            w_prime = [mpmath.fsum(Mf[i][j] * rhs[j] for j in range(D)) for i in range(D)]
            w = normalize(
                [w_prime[j] + mpmath.mpf(shift[j].numerator) / shift[j].denominator for j in range(D)]
            )
            theta, sv, ms = stats(w)
            if theta < 0:
                w = [-x for x in w]
                theta, sv, ms = stats(w)
            run.s1_checks += _check_s1(theta, ms)
            run.active.append(len(active))
            run.theta.append(float(theta))
            run.semivariance.append(float(sv))
        run.weights = w
    return run
