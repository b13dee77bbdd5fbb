"""Kernel MSVMAv (the IJCAI-22 paper's kernel form): the exact-inverse reference on a Gram matrix.

The classifier is h(x) = sum_j a_j kappa(x_j, x) (representer theorem); with the Gram matrix
K (n x n, symmetric positive semidefinite) the margins are m_i = y_i (K a)_i, the average
margin theta(a) = mean_i m_i and the semi-variance SV(a) = mean_i ((theta - m_i)_+)^2, with
a normalized so that a^T K a = 1 (||w|| = 1 in feature space).

a_0 = y / sqrt(y^T K y) (it maximizes sum_i m_i under a^T K a = 1); iteration k
(alpha, beta > 0), G = I + K (the paper's proximity norm ||a - a_(k-1)||_(I + K)):

    theta = theta(a_(k-1));  A = {i : m_i < theta}
    M = (G + sum_{i in A} K_i K_i^T / (n beta))^-1
    a' = M (G a_(k-1) + theta sum_{i in A} y_i K_i / (n beta))
    a_k = normalize_K(a' + y / (2 alpha n));  if theta(a_k) < 0: a_k = -a_k

a' minimizes sum_{i in A} (theta - m_i(a))^2 / n + beta ||a - a_(k-1)||^2_G, the paper's
step; the average-margin term is the linear algorithm's s / (2 alpha n) with s = sum_i y_i K_i
in coefficient form, y. With a linear kernel K = X X^T the margins are those of w = X^T a.

Arithmetic as in :mod:`novikoff.reference.msvmav`: K, G and M are exact rationals
(python-flint); M is kept by Sherman-Morrison updates (add or remove K_i K_i^T / (n beta)) and
must equal the direct inverse exactly at every iteration (InvariantViolation otherwise); the
coefficients a pass through a normalization and are mpmath numbers at ``precision`` bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import fmpq, fmpq_mat

from novikoff.errors import InputError, InvariantViolation
from novikoff.exact.rational import exact_parameter
from novikoff.reference.msvmav import validate_positive

__all__ = ["KernelMSVMAvRun", "run_kernel_msvmav", "validate_gram"]


@dataclass
class KernelMSVMAvRun:
    """The final coefficients a (mpmath, ``precision`` bits, a^T K a = 1) and the history."""

    coefficients: list[mpmath.mpf]
    iterations: int
    precision: int
    theta: list[float] = field(default_factory=list)  # theta(a_k), k = 0..T
    semivariance: list[float] = field(default_factory=list)
    active: list[int] = field(default_factory=list)  # |A_k|, k = 1..T
    sm_checks: int = 0  # iterations at which Sherman-Morrison equalled the direct inverse

    def float_coefficients(self) -> list[float]:
        return [float(v) for v in self.coefficients]


def validate_gram(
    K: Sequence[Sequence[object]], y: Sequence[object]
) -> tuple[list[list[Fraction]], list[int]]:
    """K as exact rationals (square, symmetric, n x n) and y as +-1 ints (both classes need not
    occur); InputError naming the first entry that is wrong."""
    n = len(y)
    if n == 0:
        raise InputError("kernel MSVMAv: no samples")
    if len(K) != n or any(len(row) != n for row in K):
        raise InputError(f"kernel MSVMAv: the Gram matrix must be {n} x {n} (one row and column per label)")
    Kq = [[exact_parameter(v, f"K[{i}][{j}]") for j, v in enumerate(row)] for i, row in enumerate(K)]
    for i in range(n):
        for j in range(i):
            if Kq[i][j] != Kq[j][i]:
                raise InputError(f"kernel MSVMAv: K is not symmetric: K[{i}][{j}] != K[{j}][{i}]")
    labels = []
    for i, v in enumerate(y):
        if isinstance(v, bool) or v not in (1, -1):
            raise InputError(f"kernel MSVMAv: label {i} must be +1 or -1, got {v!r}")
        labels.append(int(v))
    return Kq, labels


def _q(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _sm(M: fmpq_mat, u: fmpq_mat, nb: fmpq, add: bool) -> fmpq_mat:
    """Sherman-Morrison: M = B^-1 -> (B +- u u^T / nb)^-1, exactly."""
    Mu = M * u
    denom = (u.transpose() * Mu)[0, 0]
    scale = (nb + denom) if add else (nb - denom)
    outer = Mu * Mu.transpose()
    return M - outer * (1 / scale) if add else M + outer * (1 / scale)


def run_kernel_msvmav(
    K: Sequence[Sequence[object]],
    y: Sequence[object],
    alpha: object,
    beta: object,
    *,
    iterations: int = 100,
    precision: int = 256,
) -> KernelMSVMAvRun:
    """Kernel MSVMAv for ``iterations`` steps on the Gram matrix ``K`` (module docstring).

    InputError for a bad K, label or parameter, or when y^T K y = 0 (a_0 undefined)."""
    Kq, labels = validate_gram(K, y)
    a_ = validate_positive(alpha, "alpha")
    b_ = validate_positive(beta, "beta")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InputError(f"iterations must be an integer >= 0, got {iterations!r}")
    n = len(labels)
    yKy = sum((labels[i] * labels[j] * Kq[i][j] for i in range(n) for j in range(n)), Fraction(0))
    if yKy <= 0:
        raise InputError("y^T K y is not positive: kernel MSVMAv's a_0 = y/sqrt(y^T K y) is undefined")
    G = fmpq_mat(n, n, [_q(Kq[i][j] + (1 if i == j else 0)) for i in range(n) for j in range(n)])
    cols = [fmpq_mat(n, 1, [_q(Kq[j][i]) for j in range(n)]) for i in range(n)]
    nb = _q(n * b_)
    run = KernelMSVMAvRun(coefficients=[], iterations=iterations, precision=precision)
    with mpmath.workprec(precision):
        Kf = [[_mp(v) for v in row] for row in Kq]
        Gf = [[Kf[i][j] + (1 if i == j else 0) for j in range(n)] for i in range(n)]
        shift = mpmath.mpf(1) / (2 * _mp(a_) * n)
        nbf = n * _mp(b_)

        def matvec(A: list[list[mpmath.mpf]], v: list[mpmath.mpf]) -> list[mpmath.mpf]:
            return [mpmath.fsum(r * x for r, x in zip(row, v)) for row in A]

        def normalize(v: list[mpmath.mpf]) -> list[mpmath.mpf]:
            norm = mpmath.sqrt(mpmath.fsum(x * k for x, k in zip(v, matvec(Kf, v))))
            return [x / norm for x in v]

        def stats(a: list[mpmath.mpf]) -> tuple[mpmath.mpf, mpmath.mpf, list[mpmath.mpf]]:
            ms = [labels[i] * v for i, v in enumerate(matvec(Kf, a))]
            theta = mpmath.fsum(ms) / n
            sv = mpmath.fsum((theta - m) ** 2 for m in ms if m < theta) / n
            return theta, sv, ms

        a = normalize([mpmath.mpf(v) for v in labels])
        theta, sv, ms = stats(a)
        run.theta.append(float(theta))
        run.semivariance.append(float(sv))
        M = G.inv()
        active: set[int] = set()
        for _ in range(iterations):
            new = {i for i, m in enumerate(ms) if m < theta}
            for i in sorted(active - new):
                M = _sm(M, cols[i], nb, add=False)
            for i in sorted(new - active):
                M = _sm(M, cols[i], nb, add=True)
            direct = G
            for i in sorted(new):
                direct = direct + cols[i] * cols[i].transpose() * (1 / nb)
            if M != direct.inv():
                raise InvariantViolation(
                    "S2", "Sherman-Morrison M equals the direct inverse (kernel)", {}, "in kernel MSVMAv"
                )
            run.sm_checks += 1
            active = new
            rhs = matvec(Gf, a)
            for i in active:
                for j in range(n):
                    rhs[j] += theta * labels[i] * Kf[j][i] / nbf
            Mf = [[mpmath.mpf(int(M[i, j].p)) / int(M[i, j].q) for j in range(n)] for i in range(n)]
            a_prime = matvec(Mf, rhs)
            a = normalize([a_prime[j] + shift * labels[j] for j in range(n)])
            theta, sv, ms = stats(a)
            if theta < 0:
                a = [-x for x in a]
                theta, sv, ms = stats(a)
            run.active.append(len(active))
            run.theta.append(float(theta))
            run.semivariance.append(float(sv))
        run.coefficients = a
    return run
