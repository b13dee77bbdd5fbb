"""The tiny exact checker: re-verifies a certificate from the raw dataset.

Trusted code. It imports only the certificate format, the exact data, rationals, the
presentation orders of :mod:`novikoff.runtime.runs` and FLINT -- no solver (a test asserts
that importing it loads none). It does not use the dataset's cached patterns or any float: it
rebuilds z_i = y_i (x_i, rho) from the stored integers and checks the defining conditions of
the certificates (docs/reference/certificate-format.md) with Python integers and Fractions.
Its trusted base is Python's integers and FLINT's exact integer matrix product (fmpz_mat
``*``), used for the two large products (sum lambda_i z_i and the scores z_i.p*); it uses no
linear-system code.

:func:`check_certificate`'s facts fall into two parts that need nothing from each other
(:data:`CERTIFICATE_PARTS`, :func:`certificate_rejection`), so a caller may check them at
the same time in two processes; :func:`earliest_rejection` of the parts' answers names the
same first false fact as the whole check.

:func:`check_document` checks a whole certificate file against the data and returns a
:class:`Verdict` naming the FIRST failing fact by a stable reason code (:data:`REASONS`);
:func:`check_certificate`, :func:`check_geometric_margin` and :func:`check_run` return None
or raise :class:`CertificateRejected` (a :class:`~novikoff.errors.CertificateError`) with
that code and the failed condition.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint

from novikoff.certificates.format import (
    Certificate,
    CertificateDocument,
    DatasetBinding,
    GeometricMarginCertificate,
    GordanCertificate,
    NonseparableBoundClaim,
    PerceptronRun,
    dataset_digest,
)
from novikoff.data.dataset import Dataset
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector, to_fraction
from novikoff.runtime.runs import Order, epoch_order

__all__ = [
    "CERTIFICATE_PARTS",
    "REASONS",
    "REASON_CODES",
    "CertificateError",
    "CertificateRejected",
    "Verdict",
    "certificate_is_valid",
    "certificate_rejection",
    "check_certificate",
    "check_document",
    "check_geometric_margin",
    "check_nonseparable_bound",
    "check_perceptron",
    "check_run",
    "checker_prepared",
    "earliest_rejection",
    "prepare_checker",
    "release_checker",
]

#: Every fact the checker can find false, in the order it checks them: reason code -> what
#: the code means. The codes are stable (a machine may branch on them); the sentences in
#: a rejection's message may change.
REASONS: dict[str, str] = {
    "dataset-samples": "the data have another number of samples than the certificate's dataset",
    "dataset-features": "the data have another number of features than the certificate's dataset",
    "dataset-bias": "the data's bias rho is not the certificate's",
    "dataset-digest": "the data's SHA-256 digest is not the certificate's (other numbers or labels)",
    "lambda-length": "lambda does not have one weight per sample",
    "lambda-negative": "a weight lambda_i is negative",
    "lambda-sum": "the weights lambda_i do not sum to 1",
    "radius": "R^2 is not the largest squared norm of a z_i",
    "gordan-nonzero": "Gordan: sum lambda_i z_i is not the zero vector",
    "pstar-zero": "separable: sum lambda_i z_i = 0, so the data are not separable",
    "pstar": "separable: p* is not sum lambda_i z_i",
    "gamma2": "separable: gamma^2 is not the squared norm of p*",
    "not-minimal": "separable: some z_i.p* is below the squared norm of p* (not the minimum-norm point)",
    "weights": "separable: weights are not p* over its squared norm",
    "bound": "separable: bound is not R^2/gamma^2",
    "geometric-length": "geometric margin: alpha (beta) does not have one weight per positive (negative)",
    "geometric-negative": "geometric margin: a class weight is negative",
    "geometric-sum": "geometric margin: alpha or beta does not sum to 1",
    "geometric-v": "geometric margin: v is not sum alpha_p x_p - sum beta_n x_n",
    "geometric-distance": "geometric margin: distance2 is not the squared norm of v, or v = 0",
    "geometric-not-closest": "geometric margin: min_p x_p.v - max_n x_n.v is below the squared norm of v",
    "run-updates": "perceptron run: an update where w.z_i > 0, a missed mistake, or an update after the run",
    "run-epochs": "perceptron run: an epoch before the last made no mistake, yet the run went on",
    "run-mistakes": "perceptron run: the replay makes another number of mistakes",
    "run-converged": "perceptron run: converged is not whether the last epoch made no mistake",
    "run-weights": "perceptron run: the final weights are not the replay's",
    "fs-length": "Freund-Schapire bound: u does not have one entry per pattern coordinate",
    "fs-zero": "Freund-Schapire bound: u is the zero vector",
    "fs-gamma": "Freund-Schapire bound: gamma is not positive",
    "fs-radius": "Freund-Schapire bound: R2 is not the largest squared norm of a z_i",
    "fs-deviation": "Freund-Schapire bound: deviation2 is not passes * sum_i max(0, gamma - u.z_i)^2 / u.u",
    "fs-bound": "Freund-Schapire bound: mistakes * gamma^2/u.u exceeds (sqrt(R2) + sqrt(deviation2))^2",
    "fs-mistakes": "Freund-Schapire bound: the replay makes another number of mistakes in those passes",
}
#: The reason codes of :data:`REASONS`, in checking order.
REASON_CODES: tuple[str, ...] = tuple(REASONS)


class CertificateRejected(CertificateError):
    """The checker found ``fact`` false; ``code`` is its reason code (:data:`REASONS`)."""

    def __init__(self, code: str, fact: str) -> None:
        assert code in REASONS, code
        self.code = code
        self.fact = fact
        super().__init__(f"certificate rejected: {fact}")


@dataclass(frozen=True)
class Verdict:
    """The checker's answer. ``valid`` is True iff every fact held; otherwise ``code`` is the
    reason code of the first false fact and ``message`` says it in a sentence. When valid,
    ``code`` is None and ``message`` summarizes what was certified."""

    valid: bool
    code: str | None
    message: str

    @property
    def ok(self) -> bool:
        """``valid``, under the name every ``check_*`` result has."""
        return self.valid


def _fail(code: str, condition: str) -> CertificateRejected:
    return CertificateRejected(code, condition)


def _patterns(ds: Dataset) -> tuple[list[list[int]], int]:
    """z_i scaled to integers: returns (rows, s) with z_i = rows[i] / s."""
    rho = Fraction(ds.bias)
    rden, rnum = rho.denominator, rho.numerator
    s = ds.denominator * rden  # a common multiple is enough
    rows = []
    for x, y in zip(ds.numerators, ds.labels):
        f = y * rden  # z_i = y_i (x_i, rho): x_i = X_i / D, rho = rnum / rden
        row = [f * v for v in x]
        if rnum != 0:
            row.append(y * rnum * ds.denominator)
        rows.append(row)
    return rows, s


def _vector(values: Sequence[object]) -> RationalVector:
    if isinstance(values, RationalVector):
        return values
    return RationalVector.from_values(values)


_LAMBDA_CODES = ("lambda-length", "lambda-negative", "lambda-sum")


def _combination(
    weights: Sequence[object], matrix: flint.fmpz_mat, codes: tuple[str, str, str] = _LAMBDA_CODES
) -> tuple[list[int], int]:
    """sum_i w_i row_i as (integer vector, denominator q); checks w >= 0 and sum w = 1
    (failures carry ``codes``: wrong length, negative weight, wrong sum)."""
    coeffs, q = _convex(weights, matrix.nrows(), codes)
    product = flint.fmpz_mat(1, len(coeffs), list(coeffs)) * matrix
    return [int(v) for v in product.entries()], q


def _convex(weights: Sequence[object], m: int, codes: tuple[str, str, str]) -> tuple[tuple[int, ...], int]:
    """``(coeffs, q)`` with w_i = coeffs_i / q, after checking m weights, w >= 0, sum w = 1."""
    vec = _vector(weights)
    coeffs, q = vec.numerators, vec.denominator  # w_i = coeffs_i / q, q > 0
    if len(coeffs) != m:
        raise _fail(codes[0], f"{len(coeffs)} weights for {m} samples")
    if any(c < 0 for c in coeffs):
        raise _fail(codes[1], "a convex weight is negative")
    if sum(coeffs) != q:
        raise _fail(codes[2], f"convex weights sum to {Fraction(sum(coeffs), q)}, not 1")
    return coeffs, q


class _Patterns:
    """The z_i = y_i (x_i, rho) of a dataset for the certificate's products, as
    ``rows_i / s`` with rows_i = y_i (r X_i, b), s = D r (X the integer features over D,
    rho = c / r in lowest terms, b = c D; no bias coordinate when rho = 0). The products
    go through FLINT with the feature matrix X (:func:`prepare_checker` builds it once per
    dataset); the signs y_i and the bias coordinate are applied in Python integers."""

    def __init__(self, ds: Dataset) -> None:
        rho = Fraction(ds.bias)
        self.ds = ds
        self.r, self.b = rho.denominator, rho.numerator * ds.denominator
        self.s = ds.denominator * rho.denominator
        self.X = _feature_matrix(ds)

    def combination(self, weights: Sequence[object]) -> tuple[list[int], int]:
        """``(P, q)``: sum w_i rows_i = P / q, after the convexity checks (lambda codes)."""
        coeffs, q = _convex(weights, len(self.ds.labels), _LAMBDA_CODES)
        signed = [c if y == 1 else -c for c, y in zip(coeffs, self.ds.labels)]
        P = _row_times(signed, self.X) if self.ds.n_features else []
        if self.r != 1:
            P = _scaled(P, self.r)
        if self.b:
            P.append(self.b * sum(signed))
        return P, q

    def scores(self, V: Sequence[int]) -> list[int]:
        """[rows_i . V for each i], exactly (V has one entry per pattern coordinate)."""
        n = self.ds.n_features
        XV = _matvec(self.X, V[:n]) if n else [0] * len(self.ds.labels)
        extra = self.b * V[n] if self.b else 0
        r = self.r
        return [y * (r * v + extra) for v, y in zip(XV, self.ds.labels)]

    def max_square(self) -> int:
        """max_i ||rows_i||^2."""
        r2, b2 = self.r * self.r, self.b * self.b
        return max(r2 * _dot(x, x) for x in self.ds.numerators) + b2

    @property
    def dimension(self) -> int:
        return self.ds.n_features + (1 if self.b else 0)


_FEATURES: list[tuple[Dataset, flint.fmpz_mat]] = []  # the prepared dataset's X (at most one)


def prepare_checker(ds: Dataset) -> None:
    """Build now, and keep until :func:`release_checker`, the exact feature matrix the
    certificate checks of ``ds`` use: before a fork, so that the forked processes share it
    instead of each converting 400,000 integers to FLINT (55 ms on vec400). One dataset at
    a time (compared by identity; a Dataset is immutable); without it, each check builds
    its own."""
    _FEATURES[:] = [(ds, _feature_matrix(ds))]


def release_checker() -> None:
    """Drop the matrix kept by :func:`prepare_checker` (idempotent)."""
    _FEATURES.clear()


def checker_prepared(ds: Dataset) -> bool:
    """Whether :func:`prepare_checker` keeps the matrix of this very dataset now."""
    return bool(_FEATURES) and _FEATURES[0][0] is ds


def _feature_matrix(ds: Dataset) -> flint.fmpz_mat:
    """fmpz_mat of ``ds.numerators`` (the checker's own conversion of the raw integers)."""
    if _FEATURES and _FEATURES[0][0] is ds:
        return _FEATURES[0][1]
    if not ds.n_features:
        return flint.fmpz_mat(len(ds.labels), 0)
    return flint.fmpz_mat([list(x) for x in ds.numerators])


def _row_times(coeffs: Sequence[int], matrix: flint.fmpz_mat) -> list[int]:
    """coeffs^T matrix exactly (FLINT)."""
    product = flint.fmpz_mat(1, len(coeffs), list(coeffs)) * matrix
    return [int(v) for v in product.entries()]


def _matvec(matrix: flint.fmpz_mat, vec: Sequence[int]) -> list[int]:
    """[row_i . vec for each row], exactly (FLINT's fmpz matrix product)."""
    product = matrix * flint.fmpz_mat(len(vec), 1, list(vec))
    return [int(v) for v in product.entries()]


def _square_sum(v: Sequence[int]) -> int:
    """sum v_i^2 exactly, by FLINT (GMP): 5x Python's multiplication on 2,561-digit entries."""
    if not v:
        return 0
    row = flint.fmpz_mat(1, len(v), list(v))
    return int((row * row.transpose())[0, 0])


def _scaled(v: Sequence[int], factor: int) -> list[int]:
    """[factor * v_i] exactly, by FLINT (GMP)."""
    if not v:
        return []
    return [int(x) for x in (flint.fmpz_mat(1, len(v), list(v)) * flint.fmpz(factor)).entries()]


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(map(operator.mul, u, v))


#: :func:`check_certificate`'s facts in two parts that need nothing from each other, so they
#: can be checked at the same time (two processes): "combination" (lambda, p* = sum lambda_i
#: z_i, gamma^2, the weights, the bound against the claimed R^2, a Gordan certificate's zero
#: sum, the geometric margin) and "minimality" (R^2, and min_i z_i.p* >= ||p*||^2 for the
#: claimed p*). Each part trusts nothing the other checks: where one needs the other's value
#: it uses the certificate's claim, which the other part verifies, so both parts passing is
#: exactly :func:`check_certificate` passing (:func:`earliest_rejection` names the same fact).
CERTIFICATE_PARTS: tuple[str, ...] = ("combination", "minimality")


def check_certificate(ds: Dataset, cert: Certificate) -> None:
    """Raise CertificateRejected unless ``cert`` is a valid certificate for ``ds``.

    Every fact is re-derived from the raw data in exact arithmetic; nothing of the solver
    is trusted. :func:`certificate_rejection` returns the rejection instead of raising it.

    Args:
        ds: The data the certificate claims something about.
        cert: A separability or Gordan certificate (e.g. read from a file).

    Returns:
        None: every fact of the certificate holds.

    Raises:
        CertificateRejected: The first false fact, with its reason ``code``
            (:data:`REASON_CODES`) and the fact in words.

    Examples:
        >>> import dataclasses
        >>> from novikoff.certificates.solver import certify
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> cert = certify(ds)
        >>> check_certificate(ds, cert)
        >>> try:
        ...     check_certificate(ds, dataclasses.replace(cert, gamma2=cert.gamma2 * 2))
        ... except CertificateRejected as rejected:
        ...     print(rejected.code, "-", rejected.fact)
        gamma2 - gamma^2 claimed 4/9, ||p*||^2 = 2/9
    """
    rejection = certificate_rejection(ds, cert)
    if rejection is not None:
        raise rejection


def certificate_rejection(
    ds: Dataset, cert: Certificate, part: str | None = None
) -> CertificateRejected | None:
    """The rejection of the FIRST false fact of ``cert`` on ``ds`` (in :data:`REASON_CODES`
    order), or None when every fact holds; with ``part`` (one of :data:`CERTIFICATE_PARTS`),
    of that part's facts only. ``earliest_rejection`` of the parts' answers is the answer
    without ``part``. Never raises :class:`CertificateRejected`."""
    if part is not None and part not in CERTIFICATE_PARTS:
        raise ValueError(f"part must be one of {CERTIFICATE_PARTS}, not {part!r}")
    z = _Patterns(ds)
    if part == "minimality":
        return _minimality_rejection(cert, z)
    first = _combination_rejection(ds, cert, z)
    if part == "combination" or (first is not None and _rank(first) < _rank_of("radius")):
        return first  # the minimality part's facts all come later
    return earliest_rejection([first, _minimality_rejection(cert, z)])


def earliest_rejection(rejections: Sequence[CertificateRejected | None]) -> CertificateRejected | None:
    """The rejection whose fact comes first in :data:`REASON_CODES` order (None if there is none)."""
    found = [r for r in rejections if r is not None]
    return min(found, key=_rank) if found else None


def _rank(rejection: CertificateRejected) -> int:
    return _rank_of(rejection.code)


def _rank_of(code: str) -> int:
    return REASON_CODES.index(code)


def _combination_rejection(ds: Dataset, cert: Certificate, z: _Patterns) -> CertificateRejected | None:
    """The "combination" part (:data:`CERTIFICATE_PARTS`): lambda, p*, gamma^2, weights, bound
    (against the claimed R^2, which the "minimality" part checks), the geometric margin."""
    try:
        P, q = z.combination(cert.lambdas)  # p* = P / (q s)
    except CertificateRejected as exc:
        return exc
    s = z.s
    if isinstance(cert, GordanCertificate):
        if any(P):
            return _fail("gordan-nonzero", "sum lambda_i z_i is not zero")
        return None
    pp = _square_sum(P)
    if pp == 0:
        return _fail("pstar-zero", "p* = 0: this is a Gordan certificate, not a separating one")
    if not _vector(cert.pstar).equals_scaled(P, q * s):
        return _fail("pstar", "p* is not sum lambda_i z_i")
    gamma2 = Fraction(pp, (q * s) ** 2)
    if cert.gamma2 != gamma2:
        return _fail("gamma2", f"gamma^2 claimed {cert.gamma2}, ||p*||^2 = {gamma2}")
    # w~ = p*/||p*||^2 = P (q s) / (P.P)
    if not _vector(cert.weights).equals_scaled(_scaled(P, q * s), pp):
        return _fail("weights", "weights are not p*/||p*||^2")
    if cert.bound != cert.R2 / gamma2:
        return _fail("bound", f"bound claimed {cert.bound}, R^2/gamma^2 = {cert.R2 / gamma2}")
    if cert.geometric is not None:
        try:
            _check_geometric_margin(ds, cert.geometric, z.X)
        except CertificateRejected as exc:
            return exc
    return None


def _minimality_rejection(cert: Certificate, z: _Patterns) -> CertificateRejected | None:
    """The "minimality" part (:data:`CERTIFICATE_PARTS`): R^2 = max ||z_i||^2 and, for a
    separating certificate, min_i z_i.p* >= ||p*||^2 for the claimed p* (which the
    "combination" part checks is sum lambda_i z_i, nonzero, of the right length)."""
    s = z.s
    R2 = Fraction(z.max_square(), s * s)
    if cert.R2 != R2:
        return _fail("radius", f"R^2 claimed {cert.R2}, actual {R2}")
    if isinstance(cert, GordanCertificate):
        return None
    pstar = _vector(cert.pstar)
    V, d = pstar.numerators, pstar.denominator  # p* = V / d
    if len(V) != z.dimension:
        return None  # the combination part rejects it ("pstar")
    vv = _square_sum(V)
    if vv == 0:
        return None  # the combination part rejects it ("pstar-zero" or "pstar")
    # min_i z_i.p* >= ||p*||^2  <=>  min_i (rows_i . V) d >= V.V s   (times s d^2 > 0)
    scores = z.scores(V)
    worst = min(range(len(scores)), key=scores.__getitem__)
    if scores[worst] * d < vv * s:
        return _fail("not-minimal", f"z_{worst}.p* < ||p*||^2: p* is not the minimum-norm point")
    return None


_GEOMETRIC_CODES = ("geometric-length", "geometric-negative", "geometric-sum")


def check_geometric_margin(ds: Dataset, geo: GeometricMarginCertificate) -> None:
    """Raise CertificateRejected unless ``geo`` certifies half the distance between the class
    hulls of ``ds``'s original features (convex weights, v = their difference, and
    min_p x_p.v - max_n x_n.v >= ||v||^2)."""
    _check_geometric_margin(ds, geo, None)


def _check_geometric_margin(
    ds: Dataset, geo: GeometricMarginCertificate, features: flint.fmpz_mat | None
) -> None:
    """:func:`check_geometric_margin` with ``ds``'s feature matrix when the caller has it."""
    pos = [i for i, y in enumerate(ds.labels) if y == 1]
    neg = [i for i, y in enumerate(ds.labels) if y == -1]
    alpha, beta = _vector(geo.alpha), _vector(geo.beta)
    if len(alpha) != len(pos) or len(beta) != len(neg):
        raise _fail("geometric-length", "geometric margin: wrong number of class weights")
    X = _feature_matrix(ds) if features is None else features
    # the class-wise convex combinations as weights over all samples (zeros elsewhere)
    q = math.lcm(alpha.denominator, beta.denominator)
    a_full, b_full = [0] * len(ds.labels), [0] * len(ds.labels)
    for i, c in zip(pos, alpha.numerators):
        a_full[i] = c * (q // alpha.denominator)
    for i, c in zip(neg, beta.numerators):
        b_full[i] = c * (q // beta.denominator)
    m = len(ds.labels)
    _convex(RationalVector(a_full, q), m, _GEOMETRIC_CODES)
    _convex(RationalVector(b_full, q), m, _GEOMETRIC_CODES)
    # sum alpha_p X_p - sum beta_n X_n in one product (the classes' weights do not overlap)
    V = _row_times([u - w for u, w in zip(a_full, b_full)], X) if ds.n_features else []  # v = V / (q D)
    den = q * ds.denominator
    if not _vector(geo.v).equals_scaled(V, den):
        raise _fail("geometric-v", "geometric margin: v is not the difference of the hull points")
    vv = _square_sum(V)
    if vv == 0 or geo.distance2 != Fraction(vv, den * den):
        raise _fail("geometric-distance", "geometric margin: distance^2 is not ||v||^2 > 0")
    # min_p x_p.v - max_n x_n.v >= ||v||^2, all times q D^2
    scores = _matvec(X, V)
    gap = min(scores[i] for i in pos) - max(scores[i] for i in neg)
    if gap * q < vv:
        raise _fail(
            "geometric-not-closest", "geometric margin: v is not the closest-points difference of the hulls"
        )


def certificate_is_valid(ds: Dataset, cert: Certificate) -> bool:
    """True iff :func:`check_certificate` accepts ``cert``."""
    try:
        check_certificate(ds, cert)
    except CertificateError:
        return False
    return True


def check_run(
    ds: Dataset,
    updates: Sequence[tuple[int, int]],
    weights: Sequence[object],
    epochs: int,
    converged: bool,
    order: Order = None,
) -> None:
    """Replay a perceptron run exactly and raise CertificateRejected unless it is the run.

    Checks that the updates are exactly the presentations with w.z <= 0, in
    order, that the final weights match, and that ``converged``/``epochs`` agree
    (a converged run ends with one clean epoch; otherwise ``epochs`` ran in full).
    """
    rows, s = _patterns(ds)
    present = epoch_order(order, len(rows))
    W = [0] * (len(rows[0]) if rows else 0)
    expected = iter(updates)
    pending = next(expected, None)
    clean_epoch = False
    for epoch in range(epochs):
        clean_epoch = True
        for i in present(epoch):
            mistake = _dot(W, rows[i]) <= 0
            if mistake != (pending == (epoch, i)):
                what = "missed a mistake" if mistake else "updated on a correct sample"
                raise _fail("run-updates", f"run replay: epoch {epoch}, sample {i}: the run {what}")
            if mistake:
                W = [a + b for a, b in zip(W, rows[i])]
                pending = next(expected, None)
                clean_epoch = False
        if clean_epoch and epoch < epochs - 1:
            raise _fail("run-epochs", f"run replay: epoch {epoch} was clean but the run went on")
    if pending is not None:
        raise _fail("run-updates", f"run replay: update {pending} lies beyond the epochs run")
    _check_end(converged, clean_epoch, W, s, weights)


def _check_end(
    converged: bool, clean_epoch: bool, W: Sequence[int], s: int, weights: Sequence[object]
) -> None:
    if converged != clean_epoch:
        raise _fail(
            "run-converged",
            f"run replay: converged={converged} but the last epoch was "
            f"{'clean' if clean_epoch else 'not clean'}",
        )
    if [Fraction(v, s) for v in W] != [to_fraction(v) for v in weights]:
        raise _fail("run-weights", "run replay: final weights differ")


def check_perceptron(ds: Dataset, run: PerceptronRun) -> None:
    """Replay the exact perceptron on ``ds`` in ``run.order`` for ``run.epochs`` epochs and
    raise CertificateRejected unless it makes exactly ``run.mistakes`` mistakes, no epoch
    before the last is clean, ``run.converged`` says whether the last one is, and the final
    weights are ``run.weights``. The replay costs as much as the run it checks."""
    rows, s = _patterns(ds)
    present = epoch_order(run.order, len(rows))
    W = [0] * (len(rows[0]) if rows else 0)
    mistakes = 0
    clean_epoch = False
    for epoch in range(run.epochs):
        clean_epoch = True
        for i in present(epoch):
            if _dot(W, rows[i]) <= 0:
                W = [a + b for a, b in zip(W, rows[i])]
                mistakes += 1
                clean_epoch = False
                if mistakes > run.mistakes:
                    raise _fail(
                        "run-mistakes",
                        f"run replay: more than the {run.mistakes} mistakes claimed "
                        f"(epoch {epoch}, sample {i})",
                    )
        if clean_epoch and epoch < run.epochs - 1:
            raise _fail("run-epochs", f"run replay: epoch {epoch} was clean but the run went on")
    if mistakes != run.mistakes:
        raise _fail(
            "run-mistakes",
            f"run replay: the replay makes {_count(mistakes, 'mistake')}, {run.mistakes} claimed",
        )
    _check_end(run.converged, clean_epoch, W, s, run.weights)


def _replay_mistakes(rows: Sequence[Sequence[int]], order: Order, passes: int) -> int:
    """The exact perceptron's mistakes in ``passes`` full passes from w = 0 (integer patterns)."""
    present = epoch_order(order, len(rows))
    W = [0] * (len(rows[0]) if rows else 0)
    mistakes = 0
    for epoch in range(passes):
        for i in present(epoch):
            if _dot(W, rows[i]) <= 0:
                W = [a + b for a, b in zip(W, rows[i])]
                mistakes += 1
    return mistakes


def check_nonseparable_bound(
    ds: Dataset, claim: NonseparableBoundClaim, run: PerceptronRun | None = None
) -> None:
    """Raise CertificateRejected unless ``claim`` is the Freund-Schapire bound of a true run:
    u has one nonzero entry per pattern coordinate, gamma > 0, R2 and deviation2 are what u, gamma and
    the data give (deviation2 = passes sum_i max(0, gamma - u.z_i)^2/||u||^2), the claimed mistakes
    satisfy mistakes gamma^2/||u||^2 <= (sqrt(R2) + sqrt(deviation2))^2 (decided by exact squaring),
    and the perceptron makes exactly that many mistakes in ``passes`` passes in ``order``
    (replayed, unless ``run`` is an already checked run with the same order and epochs)."""
    rows, s = _patterns(ds)
    u = _vector(claim.u)
    U, qu = u.numerators, u.denominator  # u = U / qu
    dim = len(rows[0]) if rows else 0
    if len(U) != dim:
        raise _fail("fs-length", f"u has {len(U)} entries for patterns of length {dim}")
    UU = _dot(U, U)
    if UU == 0:
        raise _fail("fs-zero", "u = 0 has no margin")
    if claim.gamma <= 0:
        raise _fail("fs-gamma", f"gamma = {claim.gamma} is not positive")
    R2 = Fraction(max(_dot(r, r) for r in rows), s * s)
    if claim.R2 != R2:
        raise _fail("fs-radius", f"R2 claimed {claim.R2}, actual {R2}")
    # u.z_i = A_i / (qu s); gamma - u.z_i = (gp qu s - gq A_i) / (gq qu s)
    A = _matvec(flint.fmpz_mat(rows), U) if rows and dim else [0] * len(rows)
    gp, gq = claim.gamma.numerator, claim.gamma.denominator
    slack = sum(n * n for n in (gp * qu * s - gq * a for a in A) if n > 0)
    # deviation2 = passes * sum (gamma - u.z_i)_+^2 / ||u||^2, ||u||^2 = UU / qu^2
    deviation2 = Fraction(claim.passes * slack, gq * gq * s * s * UU)
    if claim.deviation2 != deviation2:
        raise _fail("fs-deviation", f"deviation2 claimed {claim.deviation2}, actual {deviation2}")
    gamma2 = claim.gamma * claim.gamma * qu * qu / UU
    lhs = claim.mistakes * gamma2 - R2 - deviation2
    if lhs > 0 and lhs * lhs > 4 * R2 * deviation2:
        raise _fail(
            "fs-bound",
            f"{_count(claim.mistakes, 'mistake')} exceed the bound ((R + D)/gamma)^2 for "
            f"gamma^2 = {_show(gamma2)}, R^2 = {_show(R2)}, D^2 = {_show(deviation2)}",
        )
    if run is not None and (run.order, run.epochs) == (claim.order, claim.passes):
        made = run.mistakes
    else:
        made = _replay_mistakes(rows, claim.order, claim.passes)
    if made != claim.mistakes:
        raise _fail(
            "fs-mistakes",
            f"Freund-Schapire bound: the replay makes {_count(made, 'mistake')} in "
            f"{_count(claim.passes, 'pass')} ({claim.order} order), {claim.mistakes} claimed",
        )


def _check_binding(ds: Dataset, binding: DatasetBinding) -> None:
    if ds.n_samples != binding.n_samples:
        raise _fail(
            "dataset-samples", f"the data have {ds.n_samples} samples, the certificate {binding.n_samples}"
        )
    if ds.n_features != binding.n_features:
        raise _fail(
            "dataset-features",
            f"the data have {ds.n_features} features, the certificate {binding.n_features}",
        )
    if ds.bias != binding.bias:
        raise _fail("dataset-bias", f"the data's bias rho is {ds.bias}, the certificate's {binding.bias}")
    digest = dataset_digest(ds)
    if digest != binding.sha256:
        raise _fail(
            "dataset-digest",
            f"the data's digest is {digest[:12]}..., the certificate's {binding.sha256[:12]}...: "
            "the certificate is about other data",
        )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else ('es' if noun.endswith('s') else 's')}"


def _show(value: Fraction) -> str:
    text = str(value)
    if len(text) <= 40:
        return text
    try:
        approx = f"{float(value):.6g}"
    except OverflowError:
        approx = "beyond float64"
    return f"{approx} (exact: {len(str(value.numerator))}/{len(str(value.denominator))}-digit rational)"


def _summary(doc: CertificateDocument) -> str:
    cert = doc.certificate
    if isinstance(cert, GordanCertificate):
        support = sum(1 for v in cert.lambdas.numerators if v)
        text = f"not separable (Gordan certificate, {_count(support, 'multiplier')} > 0)"
    else:
        text = (
            f"separable, gamma^2 = {_show(cert.gamma2)}, R^2 = {_show(cert.R2)}, bound = {_show(cert.bound)}"
        )
        if cert.geometric is not None:
            text += f", geometric margin^2 = {_show(cert.geometric.margin2)}"
    run = doc.perceptron
    if run is not None:
        state = "converged" if run.converged else "not converged"
        text += (
            f"; perceptron ({run.order} order): {_count(run.mistakes, 'mistake')} in "
            f"{_count(run.epochs, 'epoch')}, {state}"
        )
    fs = doc.nonseparable_bound
    if fs is not None:
        text += (
            f"; Freund-Schapire bound holds: {_count(fs.mistakes, 'mistake')} in "
            f"{_count(fs.passes, 'pass')} ({fs.order} order), gamma = {_show(fs.gamma)} for u, "
            f"D^2 = {_show(fs.deviation2)}"
        )
    return text


def check_document(ds: Dataset, doc: CertificateDocument) -> Verdict:
    """Check every fact of ``doc`` against ``ds``: the data binding (sizes, bias, digest),
    the certificate (:func:`check_certificate`), then the perceptron run if any
    (:func:`check_perceptron`), then the Freund-Schapire bound if any
    (:func:`check_nonseparable_bound`). Returns the verdict of the first false fact, or a valid one.
    Never raises for a wrong certificate; the document itself must be well-formed (as
    :func:`~novikoff.certificates.format.from_json` returns it)."""
    try:
        _check_binding(ds, doc.dataset)
        check_certificate(ds, doc.certificate)
        if doc.perceptron is not None:
            check_perceptron(ds, doc.perceptron)
        if doc.nonseparable_bound is not None:
            check_nonseparable_bound(ds, doc.nonseparable_bound, doc.perceptron)
    except CertificateRejected as exc:
        return Verdict(False, exc.code, exc.fact)
    return Verdict(True, None, _summary(doc))
