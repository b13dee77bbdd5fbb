"""Certificates of (non-)separability: the format, the untrusted solver and the trusted checker.

- :mod:`novikoff.certificates.format`: the certificate types and their versioned JSON
  (:func:`to_json`, :func:`from_json`);
- :mod:`novikoff.certificates.solver`: :func:`certify` (exact, untrusted, imports the
  minimum-norm-point solver);
- :mod:`novikoff.certificates.checker`: :func:`check_document` and friends (trusted, imports
  no solver).

Importing this package loads only the format; the solver's and the checker's names
exported here are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from novikoff.certificates.format import (
    FORMAT,
    VERSION,
    VERSIONS,
    Certificate,
    CertificateDocument,
    CertificateFormatError,
    DatasetBinding,
    GeometricMarginCertificate,
    GordanCertificate,
    NonseparableBoundClaim,
    PerceptronRun,
    SeparableCertificate,
    dataset_digest,
    from_json,
    to_json,
)

if TYPE_CHECKING:
    from novikoff.certificates.checker import (
        REASON_CODES,
        CertificateRejected,
        Verdict,
        certificate_is_valid,
        check_certificate,
        check_document,
        check_nonseparable_bound,
        check_run,
    )
    from novikoff.certificates.solver import certificate_document, certify, start_certify

__all__ = [
    "FORMAT",
    "REASON_CODES",
    "VERSION",
    "VERSIONS",
    "Certificate",
    "CertificateDocument",
    "CertificateFormatError",
    "CertificateRejected",
    "DatasetBinding",
    "GeometricMarginCertificate",
    "GordanCertificate",
    "NonseparableBoundClaim",
    "PerceptronRun",
    "SeparableCertificate",
    "Verdict",
    "certificate_document",
    "certificate_is_valid",
    "certify",
    "check_certificate",
    "check_document",
    "check_nonseparable_bound",
    "check_run",
    "dataset_digest",
    "from_json",
    "start_certify",
    "to_json",
]

_LAZY = {
    "REASON_CODES": "checker",
    "CertificateRejected": "checker",
    "Verdict": "checker",
    "certificate_is_valid": "checker",
    "check_certificate": "checker",
    "check_document": "checker",
    "check_run": "checker",
    "check_nonseparable_bound": "checker",
    "certificate_document": "solver",
    "certify": "solver",
    "start_certify": "solver",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'novikoff.certificates' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"novikoff.certificates.{module}"), name)
    globals()[name] = value
    return value
