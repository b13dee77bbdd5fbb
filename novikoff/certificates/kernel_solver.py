"""The untrusted solver of kernel certificates: the exact minimum-norm point in the Gram geometry.

:func:`certify_kernel` builds the exact reflected Gram matrix (:func:`novikoff.data.kernels.exact_gram`),
runs Wolfe's algorithm on it (:func:`novikoff.certificates.kernel_minnorm.gram_min_norm_point`) and returns a
:class:`~novikoff.certificates.kernel_checker.KernelCertificate` only after the trusted checker
(:func:`~novikoff.certificates.kernel_checker.check_kernel_certificate`) has accepted it.
"""

from __future__ import annotations

from novikoff.certificates.kernel_checker import KernelCertificate, check_kernel_certificate
from novikoff.certificates.kernel_minnorm import gram_min_norm_point
from novikoff.data.dataset import Dataset
from novikoff.data.kernels import ExactGram, KernelSpec, exact_gram

__all__ = ["certify_kernel"]


def certify_kernel(dataset: Dataset, kernel: KernelSpec, gram: ExactGram | None = None) -> KernelCertificate:
    """The checked certificate of ``dataset`` in ``kernel``'s feature space (bias rho^2 added).

    ``gram`` may pass the exact Gram matrix already built for this dataset and kernel.
    Guarantees: the result passed :func:`check_kernel_certificate` (CertificateError otherwise,
    which would be a bug here); ``separable`` iff the feature-space patterns are separable
    through the origin, with ``gamma2`` their exact squared margin.
    """
    if gram is None:
        gram = exact_gram(dataset, kernel)
    point = gram_min_norm_point(gram)
    cert = KernelCertificate(str(kernel), point.lambdas, point.value, gram.R2)
    check_kernel_certificate(gram, cert)
    return cert
