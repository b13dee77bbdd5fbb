"""The tiny exact checker: re-verifies a certificate from the raw dataset.

Trusted code. It does not use the solver, the dataset's cached patterns or any
float: it rebuilds z_i = y_i (x_i, rho) from the stored integers and checks the
defining conditions of DESIGN section 4 with Python integers and Fractions.
:func:`check_certificate` returns None or raises
:class:`~novikoff.errors.CertificateError` naming the first failed condition.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

from novikoff.certify import Certificate, GeometricMarginCertificate, GordanCertificate
from novikoff.data import Dataset
from novikoff.errors import CertificateError
from novikoff.runs import Order, epoch_order

__all__ = ["check_certificate", "certificate_is_valid", "check_run"]


def _fail(condition: str) -> CertificateError:
    return CertificateError(f"certificate rejected: {condition}")


def _patterns(ds: Dataset) -> tuple[list[list[int]], int]:
    """z_i scaled to integers: returns (rows, s) with z_i = rows[i] / s."""
    rho = Fraction(ds.bias)
    s = ds.denominator * rho.denominator  # a common multiple is enough
    rows = []
    for x, y in zip(ds.numerators, ds.labels):
        row = [y * v * rho.denominator for v in x]
        if rho != 0:
            row.append(y * rho.numerator * ds.denominator)
        rows.append(row)
    return rows, s


def _combination(weights: Sequence[Fraction], rows: Sequence[Sequence[int]]) -> tuple[list[int], int]:
    """sum_i w_i rows_i as (integer vector, denominator q); checks w >= 0 and sum w = 1."""
    if any(w < 0 for w in weights):
        raise _fail("a convex weight is negative")
    if sum(weights) != 1:
        raise _fail(f"convex weights sum to {sum(weights)}, not 1")
    q = math.lcm(*(Fraction(w).denominator for w in weights))
    out = [0] * (len(rows[0]) if rows else 0)
    for w, r in zip(weights, rows):
        c = Fraction(w).numerator * (q // Fraction(w).denominator)
        if c:
            for j, v in enumerate(r):
                out[j] += c * v
    return out, q


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(a * b for a, b in zip(u, v))


def check_certificate(ds: Dataset, cert: Certificate) -> None:
    """Raise CertificateError unless ``cert`` is a valid certificate for ``ds``."""
    rows, s = _patterns(ds)
    if len(cert.lambdas) != len(rows):
        raise _fail(f"{len(cert.lambdas)} weights for {len(rows)} samples")
    P, q = _combination(cert.lambdas, rows)  # p* = P / (q s)
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
    if list(cert.pstar) != [Fraction(v, q * s) for v in P]:
        raise _fail("p* is not sum lambda_i z_i")
    gamma2 = Fraction(pp, (q * s) ** 2)
    if cert.gamma2 != gamma2:
        raise _fail(f"gamma^2 claimed {cert.gamma2}, ||p*||^2 = {gamma2}")
    # min_i z_i.p* >= ||p*||^2  <=>  min_i (rows_i . P) * q >= P.P   (times q^2 s^2 > 0)
    worst = min(range(len(rows)), key=lambda i: _dot(rows[i], P))
    if _dot(rows[worst], P) * q < pp:
        raise _fail(f"z_{worst}.p* < ||p*||^2: p* is not the minimum-norm point")
    if list(cert.weights) != [p / gamma2 for p in cert.pstar]:
        raise _fail("weights are not p*/||p*||^2")
    if cert.bound != R2 / gamma2:
        raise _fail(f"bound claimed {cert.bound}, R^2/gamma^2 = {R2 / gamma2}")
    if cert.geometric is not None:
        _check_geometric(ds, cert.geometric)


def _check_geometric(ds: Dataset, geo: GeometricMarginCertificate) -> None:
    pos = [x for x, y in zip(ds.numerators, ds.labels) if y == 1]
    neg = [x for x, y in zip(ds.numerators, ds.labels) if y == -1]
    if len(geo.alpha) != len(pos) or len(geo.beta) != len(neg):
        raise _fail("geometric margin: wrong number of class weights")
    a, qa = _combination(geo.alpha, pos)
    b, qb = _combination(geo.beta, neg)
    V = [u * qb - w * qa for u, w in zip(a, b)]  # v = V / (qa qb D)
    den = qa * qb * ds.denominator
    if list(geo.v) != [Fraction(c, den) for c in V]:
        raise _fail("geometric margin: v is not the difference of the hull points")
    vv = _dot(V, V)
    if vv == 0 or geo.distance2 != Fraction(vv, den * den):
        raise _fail("geometric margin: distance^2 is not ||v||^2 > 0")
    # min_p x_p.v - max_n x_n.v >= ||v||^2, all times qa qb D^2
    gap = min(_dot(x, V) for x in pos) - max(_dot(x, V) for x in neg)
    if gap * qa * qb < vv:
        raise _fail("geometric margin: v is not the closest-points difference of the hulls")


def certificate_is_valid(ds: Dataset, cert: Certificate) -> bool:
    """True iff :func:`check_certificate` accepts ``cert``."""
    try:
        check_certificate(ds, cert)
    except CertificateError:
        return False
    return True


def check_run(ds: Dataset, updates: Sequence[tuple[int, int]], weights: Sequence[Fraction], epochs: int,
              converged: bool, order: Order = None) -> None:
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
        raise _fail(f"run replay: converged={converged} but the last epoch was {'clean' if clean_epoch else 'not clean'}")
    if [Fraction(v, s) for v in W] != [Fraction(v) for v in weights]:
        raise _fail("run replay: final weights differ")
