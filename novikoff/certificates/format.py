"""The certificate format: the certificate types and their versioned JSON form.

This module is part of the trusted base (the checker imports it); it imports only exact
data, rationals, errors and :mod:`novikoff.runtime.bounded` (whose strict JSON parser checks every
number's length before converting it). A certificate file is one JSON object (schema:
``docs/reference/certificate-format.md``)::

    {"format": "novikoff-certificate", "version": 1,
     "dataset": {"n_samples": ..., "n_features": ..., "bias": "p/q", "sha256": "..."},
     "certificate": {"kind": "separable" | "gordan", ...},
     "perceptron": null | {"order": ..., "epochs": ..., "converged": ..., "mistakes": ..., "weights": [...]}}

A version-3 file has one more top-level field, ``"nonseparable_bound"`` (the Freund-Schapire
bound on a run, :class:`NonseparableBoundClaim`); :func:`to_json` writes version 1 for a
document without it (so those files are unchanged) and version 3 for one with it. Version 2
is version 3 with the bound's squared deviation named ``"D2"`` instead of ``"deviation2"``
(the name ``D2`` is PDM's margin theorem's); it is still read.

Exact rationals are strings ``"p"`` or ``"p/q"`` in lowest terms with ``q > 1``; vectors
are lists of them. :func:`to_json` writes exactly this form and :func:`from_json` reads
nothing else: every missing, extra, mistyped or malformed field raises
:class:`CertificateFormatError` (an :class:`~novikoff.errors.InputError`) whose message
starts with the field's JSON path, e.g. ``certificate.lambda[3]: not a rational: '1/0'``.
``from_json(to_json(doc)) == doc`` for every document.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import RationalVector, rational_text, unlimited_int_digits, vector_texts

__all__ = [
    "FORMAT",
    "FORMAT_ERROR_CODES",
    "VERSION",
    "VERSIONS",
    "Certificate",
    "CertificateDocument",
    "CertificateFormatError",
    "DatasetBinding",
    "GeometricMarginCertificate",
    "GordanCertificate",
    "NonseparableBoundClaim",
    "PerceptronRun",
    "SeparableCertificate",
    "check_order",
    "dataset_digest",
    "from_data",
    "from_json",
    "to_data",
    "to_json",
]

#: The value of the top-level ``"format"`` field.
FORMAT = "novikoff-certificate"
#: The newest format version (written for a document with a ``nonseparable_bound``).
VERSION = 3
#: The versions this module reads: 1 (no ``nonseparable_bound``), 3 (with one) and 2 (with
#: one whose squared deviation is named ``"D2"``).
VERSIONS = (1, 2, 3)
#: The name of the bound's squared deviation in each version that has the bound.
_DEVIATION_FIELD = {2: "D2", 3: "deviation2"}


@dataclass(frozen=True)
class GeometricMarginCertificate:
    """Convex weights ``alpha`` on the positives and ``beta`` on the negatives (input order
    within each class) whose hull points differ by ``v``; ``distance2 = ||v||^2`` and the
    geometric margin is ``sqrt(distance2)/2`` (``margin2 = distance2/4``)."""

    alpha: RationalVector
    beta: RationalVector
    v: RationalVector
    distance2: Fraction

    @property
    def margin2(self) -> Fraction:
        return self.distance2 / 4


@dataclass(frozen=True)
class SeparableCertificate:
    """lambda >= 0, sum 1, p* = sum lambda_i z_i, min_i z_i.p* >= ||p*||^2 > 0."""

    lambdas: RationalVector
    pstar: RationalVector
    gamma2: Fraction
    weights: RationalVector
    R2: Fraction
    bound: Fraction
    geometric: GeometricMarginCertificate | None = None

    separable = True


@dataclass(frozen=True)
class GordanCertificate:
    """lambda >= 0, sum 1, sum lambda_i z_i = 0: no w has w.z_i > 0 for all i."""

    lambdas: RationalVector
    R2: Fraction

    separable = False


Certificate = SeparableCertificate | GordanCertificate


@dataclass(frozen=True)
class DatasetBinding:
    """The data a certificate is about: sizes, the bias rho and :func:`dataset_digest`."""

    n_samples: int
    n_features: int
    bias: Fraction
    sha256: str

    @classmethod
    def of(cls, ds: Dataset) -> DatasetBinding:
        """The binding of ``ds`` (its sizes, bias and digest)."""
        return cls(ds.n_samples, ds.n_features, Fraction(ds.bias), dataset_digest(ds))


@dataclass(frozen=True)
class PerceptronRun:
    """A claimed exact perceptron run on the bound data: presentation ``order``
    (``"natural"`` or ``"shuffle:SEED"``), ``epochs`` run (the final clean epoch included
    when ``converged``), the number of ``mistakes`` (= updates) and the final ``weights``
    (bias coordinate last)."""

    order: str
    epochs: int
    converged: bool
    mistakes: int
    weights: RationalVector


@dataclass(frozen=True)
class NonseparableBoundClaim:
    """The Freund-Schapire bound claimed for a run (Freund and Schapire 1999, Theorem 2):
    direction ``u`` (over the pattern coordinates, bias last), margin ``gamma`` > 0 in the
    units of u.z_i (d_i ||u|| = max(0, gamma - u.z_i)), ``R2`` = max ||z_i||^2, ``deviation2`` =
    passes * sum_i max(0, gamma - u.z_i)^2 / ||u||^2, and the exact perceptron's
    ``mistakes`` in ``passes`` full passes in ``order`` from w = 0, with mistakes *
    gamma^2/||u||^2 <= (sqrt(R2) + sqrt(deviation2))^2."""

    u: RationalVector
    gamma: Fraction
    deviation2: Fraction
    R2: Fraction
    order: str
    passes: int
    mistakes: int


@dataclass(frozen=True)
class CertificateDocument:
    """What a certificate file holds: the data binding, the certificate, optionally a run and
    optionally the Freund-Schapire bound on a run (version 3)."""

    dataset: DatasetBinding
    certificate: Certificate
    perceptron: PerceptronRun | None = None
    nonseparable_bound: NonseparableBoundClaim | None = None

    def to_json(self) -> str:
        """This document as certificate-format JSON (see :func:`to_json`)."""
        return to_json(self)


def dataset_digest(ds: Dataset) -> str:
    """SHA-256 (hex) of the exact features and labels of ``ds`` (not the bias, not the name).

    Canonical text, UTF-8: the line ``novikoff-dataset 1``, then ``m d D`` with ``D`` the least
    common denominator of all features, then one line per sample ``y X_1 ... X_d`` with
    ``X_j = D x_j`` (integers in decimal, single spaces, each line ending in ``\\n``). The same
    numbers read from CSV or LIBSVM give the same digest."""
    den = ds.denominator
    g = math.gcd(den, *(v for row in ds.numerators for v in row))
    h = hashlib.sha256()
    with unlimited_int_digits():
        h.update(f"novikoff-dataset 1\n{ds.n_samples} {ds.n_features} {den // g}\n".encode())
        for y, row in zip(ds.labels, ds.numerators):
            h.update((" ".join([str(y), *(str(v // g) for v in row)]) + "\n").encode())
    return h.hexdigest()


# ------------------------------------------------------------------------------ errors

#: The reason codes of :class:`CertificateFormatError` (a file that is not a readable certificate).
FORMAT_ERROR_CODES: tuple[str, ...] = (
    "not-json",
    "format",
    "version",
    "kind",
    "missing-field",
    "extra-field",
    "wrong-type",
    "bad-value",
)


class CertificateFormatError(InputError):
    """A certificate file that does not follow the format. ``path`` is the JSON path of the
    offending field (``""`` for the whole document), ``code`` one of :data:`FORMAT_ERROR_CODES`,
    ``detail`` the reason; the message is ``"path: detail"``."""

    def __init__(self, path: str, code: str, detail: str) -> None:
        self.path = path
        self.code = code
        self.detail = detail
        super().__init__(f"{path or 'certificate file'}: {detail}")


# ------------------------------------------------------------------------------ writing


def _certificate_data(cert: Certificate) -> dict[str, Any]:
    if isinstance(cert, GordanCertificate):
        return {"kind": "gordan", "lambda": vector_texts(cert.lambdas), "R2": rational_text(cert.R2)}
    geo = cert.geometric
    return {
        "kind": "separable",
        "lambda": vector_texts(cert.lambdas),
        "R2": rational_text(cert.R2),
        "pstar": vector_texts(cert.pstar),
        "gamma2": rational_text(cert.gamma2),
        "weights": vector_texts(cert.weights),
        "bound": rational_text(cert.bound),
        "geometric": None
        if geo is None
        else {
            "alpha": vector_texts(geo.alpha),
            "beta": vector_texts(geo.beta),
            "v": vector_texts(geo.v),
            "distance2": rational_text(geo.distance2),
        },
    }


def to_data(doc: CertificateDocument) -> dict[str, Any]:
    """``doc`` as the plain JSON value (dicts, lists, str, int, bool, None) of the format."""
    run = doc.perceptron
    fs = doc.nonseparable_bound
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": 1 if fs is None else VERSION,
        "dataset": {
            "n_samples": doc.dataset.n_samples,
            "n_features": doc.dataset.n_features,
            "bias": rational_text(doc.dataset.bias),
            "sha256": doc.dataset.sha256,
        },
        "certificate": _certificate_data(doc.certificate),
        "perceptron": None
        if run is None
        else {
            "order": run.order,
            "epochs": run.epochs,
            "converged": run.converged,
            "mistakes": run.mistakes,
            "weights": vector_texts(run.weights),
        },
    }
    if fs is not None:
        out["nonseparable_bound"] = {
            "u": vector_texts(fs.u),
            "gamma": rational_text(fs.gamma),
            "deviation2": rational_text(fs.deviation2),
            "R2": rational_text(fs.R2),
            "order": fs.order,
            "passes": fs.passes,
            "mistakes": fs.mistakes,
        }
    return out


def _layout(value: object, depth: int, out: list[str]) -> None:
    """Append the text of ``value`` to ``out``: objects one field per line (two spaces per
    level), everything else on one line. The pieces are joined once (a certificate can be
    tens of megabytes: no copy of it per nesting level)."""
    if isinstance(value, dict) and value:
        pad = "  " * (depth + 1)
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            out.append(f"{',' if i else ''}\n{pad}{json.dumps(k)}: ")
            _layout(v, depth + 1, out)
        out.append("\n" + "  " * depth + "}")
    else:
        out.append(json.dumps(value))


def to_json(doc: CertificateDocument) -> str:
    """``doc`` as certificate-format JSON text: keys in schema order, one field per line,
    each vector on one line, a final newline."""
    out: list[str] = []
    with unlimited_int_digits():
        _layout(to_data(doc), 0, out)
    out.append("\n")
    return "".join(out)


# ------------------------------------------------------------------------------ reading

_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?\Z")
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_ORDER = re.compile(r"(natural|shuffle:(0|[1-9][0-9]{0,99}))\Z")
#: A number in a certificate may have at most this many digits (far beyond any real one).
MAX_DIGITS = 1_000_000


def _fields(value: object, path: str, required: Sequence[str]) -> dict[str, Any]:
    """``value`` as a JSON object with exactly the keys ``required`` (in any order)."""
    if not isinstance(value, dict):
        raise CertificateFormatError(path, "wrong-type", f"expected an object, got {_kind(value)}")
    for key in required:
        if key not in value:
            raise CertificateFormatError(_join(path, key), "missing-field", "missing")
    for key in value:
        if key not in required:
            raise CertificateFormatError(_join(path, key), "extra-field", "unexpected field")
    return value


def _shown(value: object) -> str:
    """``repr(value)`` in ASCII, at most 40 characters: how a value read from a file is shown."""
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _join(path: str, key: str) -> str:
    """``path.key``, the key escaped (``json.dumps``-style, ASCII) unless it is a plain name:
    a key read from a file never reaches a message raw."""
    if not (key.isascii() and key.isidentifier()):
        key = json.dumps(key)
    return f"{path}.{key}" if path else key


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _read_pair(value: object, path: str) -> tuple[int, int]:
    """The rational ``value``, a string ``"p"`` or ``"p/q"`` in lowest terms with ``q > 1``, as
    ``(p, q)`` (``q = 1`` for ``"p"``): exactly the numerator and denominator of its Fraction.
    CertificateFormatError at ``path`` for anything else."""
    import flint

    if not isinstance(value, str):
        raise CertificateFormatError(
            path, "wrong-type", f"expected a rational as a string, got {_kind(value)}"
        )
    shown = value if len(value) <= 40 else value[:37] + "..."
    if len(value) > MAX_DIGITS:
        raise CertificateFormatError(path, "bad-value", f"rational too long: {len(value)} characters")
    if not value.isascii() or not _RATIONAL.match(value):
        raise CertificateFormatError(path, "bad-value", f"not a rational: {shown!r}")
    num, _, den = value.partition("/")
    # num and den are -?digits (matched above): GMP reads them exactly, in subquadratic time
    p, q = flint.fmpz(num), flint.fmpz(den or 1)
    if den and (q == 1 or p.gcd(q) != 1):
        raise CertificateFormatError(path, "bad-value", f"not in lowest terms: {shown!r}")
    if p == 0 and num.startswith("-"):
        raise CertificateFormatError(path, "bad-value", f"not a rational: {shown!r}")
    return int(p), int(q)


def _read_rational(value: object, path: str) -> Fraction:
    p, q = _read_pair(value, path)
    return Fraction(p, q)


def _read_vector(value: object, path: str) -> RationalVector:
    """What ``RationalVector.from_values`` makes of the rationals read, built from their
    lowest-terms pairs directly (no Fraction, so no second gcd per entry)."""
    if not isinstance(value, list):
        raise CertificateFormatError(
            path, "wrong-type", f"expected an array of rationals, got {_kind(value)}"
        )
    pairs = [_read_pair(v, f"{path}[{i}]") for i, v in enumerate(value)]
    den = math.lcm(*{q for _, q in pairs})  # from_values's common_denominator (1 for no entries)
    return RationalVector((p * (den // q) for p, q in pairs), den)


def _read_int(value: object, path: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CertificateFormatError(path, "wrong-type", f"expected an integer, got {_kind(value)}")
    if value < minimum:
        raise CertificateFormatError(path, "bad-value", f"must be at least {minimum}, got {value}")
    return value


def _read_dataset(value: object) -> DatasetBinding:
    d = _fields(value, "dataset", ("n_samples", "n_features", "bias", "sha256"))
    bias = _read_rational(d["bias"], "dataset.bias")
    if bias < 0:
        raise CertificateFormatError("dataset.bias", "bad-value", f"bias must be >= 0, got {bias}")
    digest = d["sha256"]
    if not isinstance(digest, str):
        raise CertificateFormatError(
            "dataset.sha256", "wrong-type", f"expected a string, got {_kind(digest)}"
        )
    if not _SHA256.match(digest):
        raise CertificateFormatError("dataset.sha256", "bad-value", "not 64 lowercase hexadecimal digits")
    return DatasetBinding(
        _read_int(d["n_samples"], "dataset.n_samples", 1),
        _read_int(d["n_features"], "dataset.n_features", 0),
        bias,
        digest,
    )


_CERTIFICATE_FIELDS = {
    "separable": ("kind", "lambda", "R2", "pstar", "gamma2", "weights", "bound", "geometric"),
    "gordan": ("kind", "lambda", "R2"),
}


def _read_certificate(value: object) -> Certificate:
    if not isinstance(value, dict):
        raise CertificateFormatError("certificate", "wrong-type", f"expected an object, got {_kind(value)}")
    if "kind" not in value:
        raise CertificateFormatError("certificate.kind", "missing-field", "missing")
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in _CERTIFICATE_FIELDS:  # a list is not hashable
        raise CertificateFormatError(
            "certificate.kind", "kind", f"unknown kind {_shown(kind)} (expected 'separable' or 'gordan')"
        )
    c = _fields(value, "certificate", _CERTIFICATE_FIELDS[kind])
    lambdas = _read_vector(c["lambda"], "certificate.lambda")
    R2 = _read_rational(c["R2"], "certificate.R2")
    if kind == "gordan":
        return GordanCertificate(lambdas, R2)
    geo = None
    if c["geometric"] is not None:
        g = _fields(c["geometric"], "certificate.geometric", ("alpha", "beta", "v", "distance2"))
        geo = GeometricMarginCertificate(
            _read_vector(g["alpha"], "certificate.geometric.alpha"),
            _read_vector(g["beta"], "certificate.geometric.beta"),
            _read_vector(g["v"], "certificate.geometric.v"),
            _read_rational(g["distance2"], "certificate.geometric.distance2"),
        )
    return SeparableCertificate(
        lambdas,
        _read_vector(c["pstar"], "certificate.pstar"),
        _read_rational(c["gamma2"], "certificate.gamma2"),
        _read_vector(c["weights"], "certificate.weights"),
        R2,
        _read_rational(c["bound"], "certificate.bound"),
        geo,
    )


def check_order(order: str, path: str = "perceptron.order") -> str:
    """``order`` if it is a presentation order the format allows (``natural`` or ``shuffle:SEED``,
    SEED a non-negative integer of at most 100 digits without leading zeros); else
    CertificateFormatError at ``path``."""
    if not _ORDER.match(order):
        shown = order if len(order) <= 40 else order[:37] + "..."
        raise CertificateFormatError(
            path, "bad-value", f"expected 'natural' or 'shuffle:SEED', got {shown!r}"
        )
    return order


def _read_bound(value: object, version: int) -> NonseparableBoundClaim:
    """The ``nonseparable_bound`` of a version-``version`` file (its squared deviation under
    the version's name, :data:`_DEVIATION_FIELD`)."""
    path = "nonseparable_bound"
    deviation = _DEVIATION_FIELD[version]
    b = _fields(value, path, ("u", "gamma", deviation, "R2", "order", "passes", "mistakes"))
    order = b["order"]
    if not isinstance(order, str):
        raise CertificateFormatError(f"{path}.order", "wrong-type", f"expected a string, got {_kind(order)}")
    check_order(order, f"{path}.order")
    return NonseparableBoundClaim(
        _read_vector(b["u"], f"{path}.u"),
        _read_rational(b["gamma"], f"{path}.gamma"),
        _read_rational(b[deviation], f"{path}.{deviation}"),
        _read_rational(b["R2"], f"{path}.R2"),
        order,
        _read_int(b["passes"], f"{path}.passes", 1),
        _read_int(b["mistakes"], f"{path}.mistakes", 0),
    )


def _read_run(value: object) -> PerceptronRun | None:
    if value is None:
        return None
    r = _fields(value, "perceptron", ("order", "epochs", "converged", "mistakes", "weights"))
    order = r["order"]
    if not isinstance(order, str):
        raise CertificateFormatError(
            "perceptron.order", "wrong-type", f"expected a string, got {_kind(order)}"
        )
    check_order(order)
    converged = r["converged"]
    if not isinstance(converged, bool):
        raise CertificateFormatError(
            "perceptron.converged", "wrong-type", f"expected true or false, got {_kind(converged)}"
        )
    return PerceptronRun(
        order,
        _read_int(r["epochs"], "perceptron.epochs", 0),
        converged,
        _read_int(r["mistakes"], "perceptron.mistakes", 0),
        _read_vector(r["weights"], "perceptron.weights"),
    )


def from_data(value: object) -> CertificateDocument:
    """The document in the plain JSON value ``value``; CertificateFormatError naming the path
    of the first field (in schema order) that does not follow the format."""
    top = value
    if not isinstance(top, dict):
        raise CertificateFormatError("", "wrong-type", f"expected a JSON object, got {_kind(top)}")
    if top.get("format") != FORMAT:
        shown = _shown(top.get("format", "nothing"))
        raise CertificateFormatError("format", "format", f"not a novikoff certificate: format is {shown}")
    version = top.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise CertificateFormatError(
            "version",
            "version",
            f"unsupported version {_shown(version)} (this novikoff reads versions 1, 2 and 3)",
        )
    fields = ("format", "version", "dataset", "certificate", "perceptron")
    top = _fields(top, "", fields if version == 1 else (*fields, "nonseparable_bound"))
    return CertificateDocument(
        _read_dataset(top["dataset"]),
        _read_certificate(top["certificate"]),
        _read_run(top["perceptron"]),
        None if version == 1 else _read_bound(top["nonseparable_bound"], version),
    )


#: A JSON number in a certificate (a count: ``n_samples``, ``epochs``, ...) may have at most
#: this many characters; longer ones are refused before conversion.
MAX_COUNT_DIGITS = 100


def from_json(text: str | bytes) -> CertificateDocument:
    """Read certificate-format JSON strictly (see the module docstring). Raises
    :class:`CertificateFormatError` (code ``not-json`` for text that is not standard JSON in
    UTF-8, with duplicate keys or NaN/Infinity, or with a JSON number of more than
    :data:`MAX_COUNT_DIGITS` characters, refused before it is converted; otherwise the first
    offending field's path)."""
    from novikoff.runtime.bounded import loads_json

    try:
        value = loads_json(text, max_digits=MAX_COUNT_DIGITS, what="a certificate")
    except (ValueError, RecursionError) as exc:
        raise CertificateFormatError("", "not-json", f"not JSON: {exc}") from None
    return from_data(value)
