"""The tiny exact checker: re-verifies a certificate from the raw dataset.

Trusted code. It does not use the solver, the dataset's cached patterns or any
float: it rebuilds z_i = y_i (x_i, rho) from the stored integers and checks the
defining conditions of DESIGN section 4 with Python integers and Fractions.
Its trusted base is Python's integers and FLINT's exact integer matrix product
(fmpz_mat ``*``), used for the two large products (sum lambda_i z_i and the
scores z_i.p*); it uses no solver and no linear-system code.
:func:`check_certificate` returns None or raises
:class:`~novikoff.errors.CertificateError` naming the first failed condition.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from fractions import Fraction

import flint

from novikoff.certify import Certificate, GeometricMarginCertificate, GordanCertificate
from novikoff.data import Dataset
from novikoff.errors import CertificateError
from novikoff.rational import RationalVector, to_fraction
from novikoff.runs import Order, epoch_order

__all__ = ["certificate_is_valid", "check_certificate", "check_geometric_margin", "check_run"]


def _fail(condition: str) -> CertificateError:
    return CertificateError(f"certificate rejected: {condition}")


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


def _combination(weights: Sequence[object], matrix: flint.fmpz_mat) -> tuple[list[int], int]:
    """sum_i w_i row_i as (integer vector, denominator q); checks w >= 0 and sum w = 1."""
    vec = _vector(weights)
    coeffs, q = vec.numerators, vec.denominator  # w_i = coeffs_i / q, q > 0
    if len(coeffs) != matrix.nrows():
        raise _fail(f"{len(coeffs)} weights for {matrix.nrows()} samples")
    if any(c < 0 for c in coeffs):
        raise _fail("a convex weight is negative")
    if sum(coeffs) != q:
        raise _fail(f"convex weights sum to {Fraction(sum(coeffs), q)}, not 1")
    product = flint.fmpz_mat(1, len(coeffs), list(coeffs)) * matrix
    return [int(v) for v in product.entries()], q


def _matvec(matrix: flint.fmpz_mat, vec: Sequence[int]) -> list[int]:
    """[row_i . vec for each row], exactly (FLINT's fmpz matrix product)."""
    product = matrix * flint.fmpz_mat(len(vec), 1, list(vec))
    return [int(v) for v in product.entries()]


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(map(operator.mul, u, v))


def check_certificate(ds: Dataset, cert: Certificate) -> None:
    """Raise CertificateError unless ``cert`` is a valid certificate for ``ds``."""
    rows, s = _patterns(ds)
    Z = flint.fmpz_mat(rows)
    P, q = _combination(cert.lambdas, Z)  # p* = P / (q s)
    R2 = Fraction(max(_dot(r, r) for r in rows), s * s)
    if cert.R2 != R2:
        raise _fail(f"R^2 claimed {cert.R2}, actual {R2}")
    if isinstance(cert, GordanCertificate):
        if any(P):
            raise _fail("sum lambda_i z_i is not zero")
        return
    pp = _dot(P, P)
    if pp == 0:
        raise _fail("p* = 0: this is a Gordan certificate, not a separating one")
    if not _vector(cert.pstar).equals_scaled(P, q * s):
        raise _fail("p* is not sum lambda_i z_i")
    gamma2 = Fraction(pp, (q * s) ** 2)
    if cert.gamma2 != gamma2:
        raise _fail(f"gamma^2 claimed {cert.gamma2}, ||p*||^2 = {gamma2}")
    # min_i z_i.p* >= ||p*||^2  <=>  min_i (rows_i . P) * q >= P.P   (times q^2 s^2 > 0)
    scores = _matvec(Z, P)
    worst = min(range(len(rows)), key=scores.__getitem__)
    if scores[worst] * q < pp:
        raise _fail(f"z_{worst}.p* < ||p*||^2: p* is not the minimum-norm point")
    # w~ = p*/||p*||^2 = P (q s) / (P.P)
    if not _vector(cert.weights).equals_scaled([v * q * s for v in P], pp):
        raise _fail("weights are not p*/||p*||^2")
    if cert.bound != R2 / gamma2:
        raise _fail(f"bound claimed {cert.bound}, R^2/gamma^2 = {R2 / gamma2}")
    if cert.geometric is not None:
        check_geometric_margin(ds, cert.geometric)


def check_geometric_margin(ds: Dataset, geo: GeometricMarginCertificate) -> None:
    """Raise CertificateError unless ``geo`` certifies half the distance between the class
    hulls of ``ds``'s original features (convex weights, v = their difference, and
    min_p x_p.v - max_n x_n.v >= ||v||^2)."""
    pos = [i for i, y in enumerate(ds.labels) if y == 1]
    neg = [i for i, y in enumerate(ds.labels) if y == -1]
    alpha, beta = _vector(geo.alpha), _vector(geo.beta)
    if len(alpha) != len(pos) or len(beta) != len(neg):
        raise _fail("geometric margin: wrong number of class weights")
    X = flint.fmpz_mat([list(x) for x in ds.numerators])
    # the class-wise convex combinations as weights over all samples (zeros elsewhere)
    q = math.lcm(alpha.denominator, beta.denominator)
    a_full, b_full = [0] * len(ds.labels), [0] * len(ds.labels)
    for i, c in zip(pos, alpha.numerators):
        a_full[i] = c * (q // alpha.denominator)
    for i, c in zip(neg, beta.numerators):
        b_full[i] = c * (q // beta.denominator)
    a, _ = _combination(RationalVector(a_full, q), X)
    b, _ = _combination(RationalVector(b_full, q), X)
    V = [u - w for u, w in zip(a, b)]  # v = V / (q D)
    den = q * ds.denominator
    if not _vector(geo.v).equals_scaled(V, den):
        raise _fail("geometric margin: v is not the difference of the hull points")
    vv = _dot(V, V)
    if vv == 0 or geo.distance2 != Fraction(vv, den * den):
        raise _fail("geometric margin: distance^2 is not ||v||^2 > 0")
    # min_p x_p.v - max_n x_n.v >= ||v||^2, all times q D^2
    scores = _matvec(X, V)
    gap = min(scores[i] for i in pos) - max(scores[i] for i in neg)
    if gap * q < vv:
        raise _fail("geometric margin: v is not the closest-points difference of the hulls")


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
    """Replay a perceptron run exactly and raise CertificateError unless it is the run.

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
                raise _fail(f"run replay: epoch {epoch}, sample {i}: the run {what}")
            if mistake:
                W = [a + b for a, b in zip(W, rows[i])]
                pending = next(expected, None)
                clean_epoch = False
        if clean_epoch and epoch < epochs - 1:
            raise _fail(f"run replay: epoch {epoch} was clean but the run went on")
    if pending is not None:
        raise _fail(f"run replay: update {pending} lies beyond the epochs run")
    if converged != clean_epoch:
        raise _fail(
            f"run replay: converged={converged} but the last epoch was "
            f"{'clean' if clean_epoch else 'not clean'}"
        )
    if [Fraction(v, s) for v in W] != [to_fraction(v) for v in weights]:
        raise _fail("run replay: final weights differ")
