"""The trusted checker of kernel certificates (feature-space margin or feature-space Gordan).

A :class:`KernelCertificate` claims, for a dataset and a polynomial kernel, weights lambda on
the samples and the numbers gamma^2 and R^2. With G the reflected Gram matrix (recomputed here
from the data, never taken from the solver) it is valid iff

1. lambda has one weight per sample, every lambda_i >= 0 and sum lambda_i = 1;
2. the claimed R^2 is max_i G_ii;
3. the claimed gamma^2 is lambda^T G lambda;
4. separable claim (gamma^2 > 0): min_i (G lambda)_i >= lambda^T G lambda. Then
   p = sum_i lambda_i z_i (in feature space) satisfies p.z_i >= ||p||^2 > 0 for every i, so p/||p||
   separates with margin ||p|| and no point of the hull is shorter: gamma^2 = ||p||^2 exactly;
5. non-separable claim (gamma^2 = 0): lambda^T G lambda = 0. G is a Gram matrix, so this says
   ||sum lambda_i z_i||^2 = 0: the origin is in the feature-space hull, and no w has w.z_i > 0
   for all i (Gordan in feature space).

:func:`kernel_certificate_problems` lists every false fact, one :class:`KernelProblem` each
(``code`` from :data:`KERNEL_REASON_CODES`, ``detail`` in words); :func:`check_kernel_certificate`
raises :class:`~novikoff.errors.CertificateError` with all of them. This module imports no
solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from novikoff.data.kernels import ExactGram
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector, format_rational

__all__ = [
    "KERNEL_REASON_CODES",
    "KernelCertificate",
    "KernelProblem",
    "check_kernel_certificate",
    "kernel_certificate_problems",
]

KERNEL_REASON_CODES = {
    "length": "lambda does not have one weight per sample",
    "negative-weight": "a weight lambda_i is negative",
    "weights-sum": "the weights do not sum to 1",
    "R2": "the claimed R^2 is not max_i K~(x_i, x_i)",
    "gamma2": "the claimed gamma^2 is not lambda^T G lambda",
    "margin": "some (G lambda)_i is below lambda^T G lambda: lambda is not the minimum-norm point",
    "negative-gamma2": "the claimed gamma^2 is negative",
}


@dataclass(frozen=True)
class KernelCertificate:
    """The claim: weights ``lambdas`` (one per sample), ``gamma2`` = lambda^T G lambda and ``R2``.

    ``separable`` iff gamma2 > 0; then ``bound`` = R^2/gamma^2 (the Novikoff bound in feature
    space), else None.
    """

    kernel: str
    lambdas: RationalVector
    gamma2: Fraction
    R2: Fraction

    @property
    def separable(self) -> bool:
        return self.gamma2 > 0

    @property
    def bound(self) -> Fraction | None:
        return self.R2 / self.gamma2 if self.gamma2 > 0 else None


@dataclass(frozen=True)
class KernelProblem:
    """One false fact of a certificate: ``code`` (a key of KERNEL_REASON_CODES) and ``detail``."""

    code: str
    detail: str

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}"


def kernel_certificate_problems(gram: ExactGram, cert: KernelCertificate) -> list[KernelProblem]:
    """Every false fact of ``cert`` against the exact Gram matrix ``gram`` (empty iff valid)."""
    problems: list[KernelProblem] = []
    n = gram.n
    lam = cert.lambdas
    if cert.R2 != gram.R2:
        problems.append(
            KernelProblem(
                "R2", f"claimed {format_rational(cert.R2)}, max_i G_ii is {format_rational(gram.R2)}"
            )
        )
    if cert.gamma2 < 0:
        problems.append(KernelProblem("negative-gamma2", f"claimed {format_rational(cert.gamma2)}"))
    if len(lam) != n:
        problems.append(KernelProblem("length", f"{len(lam)} weights for {n} samples"))
        return problems
    negative = [i for i, v in enumerate(lam.numerators) if v < 0]
    if negative:
        problems.append(
            KernelProblem("negative-weight", f"lambda_{negative[0]} = {format_rational(lam[negative[0]])}")
        )
    if sum(lam.numerators) != lam.denominator:
        problems.append(
            KernelProblem("weights-sum", f"sum lambda_i = {format_rational(sum(lam, Fraction(0)))}")
        )
    nums, den = list(lam.numerators), lam.denominator
    scores = gram.times(nums)  # den * gram.denominator * (G lambda)_i
    quad = sum(a * s for a, s in zip(nums, scores) if a)  # den^2 * gram.denominator * lambda^T G lambda
    value = Fraction(quad, den * den * gram.denominator)
    if cert.gamma2 != value:
        problems.append(
            KernelProblem(
                "gamma2",
                f"claimed {format_rational(cert.gamma2)}, lambda^T G lambda is {format_rational(value)}",
            )
        )
    if cert.gamma2 > 0:
        low = min(range(n), key=scores.__getitem__)
        if scores[low] * den < quad:
            problems.append(
                KernelProblem(
                    "margin",
                    f"(G lambda)_{low} = {format_rational(Fraction(scores[low], den * gram.denominator))} "
                    f"< lambda^T G lambda = {format_rational(value)}",
                )
            )
    return problems


def check_kernel_certificate(gram: ExactGram, cert: KernelCertificate) -> None:
    """Return if ``cert`` is valid for ``gram``; else CertificateError listing every problem."""
    problems = kernel_certificate_problems(gram, cert)
    if problems:
        raise CertificateError(
            f"kernel certificate ({cert.kernel}) rejected: " + "; ".join(map(str, problems))
        )
