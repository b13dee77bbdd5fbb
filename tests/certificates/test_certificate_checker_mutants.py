"""The exact certificate checker (novikoff/certificates/checker.py), condition by condition.

Written to kill the mutants that survived ``mutmut run`` (docs/mutation.md): every
test builds a certificate or a run that breaks exactly one defining condition and
asserts the checker's exact message, and the untouched objects next to it must pass.
The datasets are small enough to check by hand (the comments give the numbers).
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import AbstractContextManager
from fractions import Fraction as F
from typing import Any

import flint
import pytest

from novikoff.certificates import GeometricMarginCertificate, GordanCertificate, SeparableCertificate, certify
from novikoff.certificates.checker import (
    _combination,
    _dot,
    _matvec,
    _patterns,
    _vector,
    certificate_is_valid,
    check_certificate,
    check_geometric_margin,
    check_run,
)
from novikoff.data.dataset import Dataset
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector


def rejected(message: str) -> AbstractContextManager[Any]:
    """The checker raises CertificateError with exactly this condition."""
    return pytest.raises(CertificateError, match=f"^{re.escape('certificate rejected: ' + message)}$")


# z_1 = (1, 0, 1), z_2 = (0, 1, 1), z_3 = -(-1, -1, 1) = (1, 1, -1) with rho = 1: lambda = 1/3 each,
# p* = (2/3, 2/3, 1/3), ||p*||^2 = 1, R^2 = 3, every z_i.p* = 1 (all on the margin).
TRIANGLE = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, 1, -1])
# fractional features (denominator 3) and a fractional bias rho = 1/2
THIRDS = Dataset.from_fraction_rows(
    [[F(1, 3), F(2, 3)], [F(-1, 3), F(0)], [F(2, 3), F(-1, 3)]], [1, -1, 1], bias=F(1, 2)
)
# z_1 = (1), z_2 = (-1) without bias: 0 = (z_1 + z_2)/2, not separable
OPPOSITE = Dataset.from_arrays([[1], [1]], [1, -1], bias=0)


def separable(ds: Dataset) -> SeparableCertificate:
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    return cert


def triangle_certificate() -> SeparableCertificate:
    return separable(TRIANGLE)


# ---------------------------------------------------------------------------- helpers


@pytest.mark.parametrize("ds", [TRIANGLE, THIRDS, OPPOSITE, TRIANGLE.with_bias(F(3, 2))])
def test_patterns_are_the_exact_z_i_over_one_scale(ds: Dataset) -> None:
    rows, s = _patterns(ds)
    assert s > 0
    assert [[F(v, s) for v in row] for row in rows] == [ds.pattern(i) for i in range(ds.n_samples)]


def test_patterns_by_hand() -> None:
    # x = (1/3, 2/3), y = 1, rho = 1/2: z = (1/3, 2/3, 1/2) = (2, 4, 3)/6
    rows, s = _patterns(THIRDS)
    assert s == 6
    assert rows == [[2, 4, 3], [2, 0, -3], [4, -2, 3]]
    rows, s = _patterns(OPPOSITE)  # rho = 0: no bias coordinate
    assert (rows, s) == ([[1], [-1]], 1)


def test_vector_keeps_a_rational_vector_and_converts_a_list() -> None:
    v = RationalVector([1, 2], 3)
    assert _vector(v) is v
    w = _vector([F(1, 3), F(2, 3)])
    assert isinstance(w, RationalVector)
    assert list(w) == [F(1, 3), F(2, 3)]


def test_combination_is_the_weighted_sum_and_checks_convexity() -> None:
    Z = flint.fmpz_mat([[1, 0, 1], [0, 1, 1], [1, 1, -1]])
    assert _combination([F(1, 3)] * 3, Z) == ([2, 2, 1], 3)
    assert _combination([F(1, 2), F(1, 2), 0], Z) == ([1, 1, 2], 2)  # a zero weight is allowed
    assert _combination([1, 0, 0], Z) == ([1, 0, 1], 1)
    with rejected("2 weights for 3 samples"):
        _combination([F(1, 2), F(1, 2)], Z)
    with rejected("a convex weight is negative"):
        _combination([F(3, 2), F(-1, 2), 0], Z)
    with rejected("convex weights sum to 2/3, not 1"):
        _combination([F(1, 3), F(1, 3), 0], Z)
    with rejected("convex weights sum to 4/3, not 1"):
        _combination([F(2, 3), F(2, 3), 0], Z)


def test_matvec_and_dot_are_exact() -> None:
    Z = flint.fmpz_mat([[1, 0, 1], [0, 1, 1], [1, 1, -1]])
    assert _matvec(Z, [2, 3, 5]) == [7, 8, 0]
    assert _matvec(Z, [10**30, 0, 1]) == [10**30 + 1, 1, 10**30 - 1]
    assert _dot([1, 2, 3], [4, 5, 6]) == 32
    assert _dot([10**30, -1], [10**30, 7]) == 10**60 - 7


# ---------------------------------------------------------------------------- separable certificates


def test_valid_certificates_pass() -> None:
    for ds in (TRIANGLE, THIRDS, TRIANGLE.with_bias(F(3, 2)), OPPOSITE):
        cert = certify(ds, verify=False)
        check_certificate(ds, cert)
        assert certificate_is_valid(ds, cert) is True


def test_triangle_certificate_by_hand() -> None:
    cert = triangle_certificate()
    assert list(cert.lambdas) == [F(1, 3)] * 3
    assert list(cert.pstar) == [F(2, 3), F(2, 3), F(1, 3)]
    assert (cert.gamma2, cert.R2, cert.bound) == (1, 3, 3)
    # the checker accepts the same certificate written with plain lists
    plain = SeparableCertificate(
        lambdas=[F(1, 3)] * 3,  # type: ignore[arg-type]
        pstar=[F(2, 3), F(2, 3), F(1, 3)],  # type: ignore[arg-type]
        gamma2=F(1),
        weights=[F(2, 3), F(2, 3), F(1, 3)],  # type: ignore[arg-type]
        R2=F(3),
        bound=F(3),
        geometric=cert.geometric,
    )
    check_certificate(TRIANGLE, plain)


def test_wrong_radius_is_rejected() -> None:
    cert = triangle_certificate()
    with rejected("R^2 claimed 4, actual 3"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, R2=F(4)))
    assert certificate_is_valid(TRIANGLE, dataclasses.replace(cert, R2=F(2))) is False
    # THIRDS: the longest z is (1/3, 2/3, 1/2) or (2/3, -1/3, 1/2): 1/9 + 4/9 + 1/4 = 29/36
    c2 = certify(THIRDS)
    assert c2.R2 == F(29, 36)
    with rejected("R^2 claimed 1, actual 29/36"):
        check_certificate(THIRDS, dataclasses.replace(c2, R2=F(1)))


def test_a_certificate_with_p_star_zero_is_not_separating() -> None:
    # lambda = (1/2, 1/2) gives p* = 0 on OPPOSITE
    fake = SeparableCertificate(
        lambdas=RationalVector([1, 1], 2),
        pstar=RationalVector([0]),
        gamma2=F(0),
        weights=RationalVector([0]),
        R2=F(1),
        bound=F(0),
    )
    with rejected("p* = 0: this is a Gordan certificate, not a separating one"):
        check_certificate(OPPOSITE, fake)


def test_p_star_must_be_the_combination() -> None:
    cert = triangle_certificate()
    with rejected("p* is not sum lambda_i z_i"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, pstar=RationalVector([2, 2, 2], 3)))
    with rejected("p* is not sum lambda_i z_i"):  # right direction, wrong length
        check_certificate(TRIANGLE, dataclasses.replace(cert, pstar=RationalVector([4, 4, 2], 3)))


def test_gamma_must_be_the_norm_of_p_star() -> None:
    cert = triangle_certificate()
    with rejected("gamma^2 claimed 2, ||p*||^2 = 1"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, gamma2=F(2)))
    c2 = separable(THIRDS)  # p* = (18, 6, -4)/47: ||p*||^2 = 376/2209 = 8/47
    with rejected("gamma^2 claimed 1/6, ||p*||^2 = 8/47"):
        check_certificate(THIRDS, dataclasses.replace(c2, gamma2=F(1, 6)))


def test_p_star_must_be_the_minimum_norm_point() -> None:
    # z_1 = (1, 0), z_2 = (0, 1): lambda = (1, 0) gives p* = z_1, ||p*||^2 = 1 but z_2.p* = 0 < 1
    ds = Dataset.from_arrays([[1, 0], [0, 1]], [1, 1], bias=0)
    corner = SeparableCertificate(
        lambdas=RationalVector([1, 0]),
        pstar=RationalVector([1, 0]),
        gamma2=F(1),
        weights=RationalVector([1, 0]),
        R2=F(1),
        bound=F(1),
    )
    with rejected("z_1.p* < ||p*||^2: p* is not the minimum-norm point"):
        check_certificate(ds, corner)
    # the same on THIRDS: the point z_1 alone is not the minimum-norm point
    z1 = THIRDS.pattern(0)
    nz = sum(v * v for v in z1)
    with rejected("z_1.p* < ||p*||^2: p* is not the minimum-norm point"):
        check_certificate(
            THIRDS,
            SeparableCertificate(
                lambdas=RationalVector([1, 0, 0]),
                pstar=RationalVector.from_values(z1),
                gamma2=F(nz),
                weights=RationalVector.from_values([v / nz for v in z1]),
                R2=F(29, 36),
                bound=F(29, 36) / nz,
            ),
        )
    # the true minimum-norm point (1/2, 1/2) lies exactly on the margin of both: accepted
    half = SeparableCertificate(
        lambdas=RationalVector([1, 1], 2),
        pstar=RationalVector([1, 1], 2),
        gamma2=F(1, 2),
        weights=RationalVector([1, 1]),
        R2=F(1),
        bound=F(2),
    )
    check_certificate(ds, half)


def test_weights_and_bound_must_follow() -> None:
    cert = triangle_certificate()
    with rejected("weights are not p*/||p*||^2"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, weights=RationalVector([2, 2, 1], 6)))
    with rejected("bound claimed 4, R^2/gamma^2 = 3"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, bound=F(4)))
    c2 = separable(THIRDS)  # weights = p*/||p*||^2 = (9/4, 3/4, -1/2), bound = (29/36)/(8/47) = 1363/288
    assert list(c2.weights) == [F(9, 4), F(3, 4), F(-1, 2)]
    with rejected("weights are not p*/||p*||^2"):
        check_certificate(THIRDS, dataclasses.replace(c2, weights=RationalVector([9, 3, 2], 4)))
    with rejected("bound claimed 1363/289, R^2/gamma^2 = 1363/288"):
        check_certificate(THIRDS, dataclasses.replace(c2, bound=F(1363, 289)))


def test_a_bad_convex_combination_is_rejected_by_check_certificate() -> None:
    cert = triangle_certificate()
    with rejected("convex weights sum to 2/3, not 1"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, lambdas=RationalVector([1, 1, 0], 3)))
    with rejected("2 weights for 3 samples"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, lambdas=RationalVector([1, 1], 2)))


# ---------------------------------------------------------------------------- Gordan certificates


def test_gordan_certificates() -> None:
    cert = certify(OPPOSITE)
    assert isinstance(cert, GordanCertificate)
    assert list(cert.lambdas) == [F(1, 2), F(1, 2)] and cert.R2 == 1
    check_certificate(OPPOSITE, cert)
    with rejected("sum lambda_i z_i is not zero"):
        check_certificate(OPPOSITE, GordanCertificate(RationalVector([1, 3], 4), F(1)))
    with rejected("R^2 claimed 2, actual 1"):
        check_certificate(OPPOSITE, GordanCertificate(RationalVector([1, 1], 2), F(2)))
    with rejected("a convex weight is negative"):
        check_certificate(OPPOSITE, GordanCertificate(RationalVector([-1, 2]), F(1)))
    # a Gordan claim on separable data: no convex combination of the triangle's z_i is 0
    with rejected("sum lambda_i z_i is not zero"):
        check_certificate(TRIANGLE, GordanCertificate(RationalVector([1, 1, 1], 3), F(3)))


# ---------------------------------------------------------------------------- geometric margin


def test_geometric_margin_by_hand() -> None:
    # positives x_1 = (1, 0), x_2 = (0, 1), negative x_3 = (-1, -1): the closest hull points are
    # (1/2, 1/2) and (-1, -1), v = (3/2, 3/2), ||v||^2 = 9/2
    geo = triangle_certificate().geometric
    assert geo is not None
    assert (list(geo.alpha), list(geo.beta), list(geo.v), geo.distance2) == (
        [F(1, 2), F(1, 2)],
        [F(1)],
        [F(3, 2), F(3, 2)],
        F(9, 2),
    )
    check_geometric_margin(TRIANGLE, geo)
    geo2 = separable(THIRDS).geometric
    assert geo2 is not None
    check_geometric_margin(THIRDS, geo2)


def test_geometric_margin_rejections() -> None:
    cert = triangle_certificate()
    geo = cert.geometric
    assert geo is not None
    with rejected("geometric margin: wrong number of class weights"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, alpha=RationalVector([1])))
    with rejected("geometric margin: wrong number of class weights"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, beta=RationalVector([1, 0])))
    with rejected("geometric margin: v is not the difference of the hull points"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, v=RationalVector([3, 2], 2)))
    with rejected("geometric margin: distance^2 is not ||v||^2 > 0"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, distance2=F(5, 2)))
    with rejected("convex weights sum to 3/2, not 1"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, alpha=RationalVector([1, 2], 2)))
    with rejected("a convex weight is negative"):
        check_geometric_margin(TRIANGLE, dataclasses.replace(geo, beta=RationalVector([-1])))
    # alpha = (1, 0): the hull point x_1 = (1, 0), v = (2, 1), ||v||^2 = 5; but x_2.v - x_3.v = 1 + 3 < 5
    corner = GeometricMarginCertificate(
        alpha=RationalVector([1, 0]), beta=RationalVector([1]), v=RationalVector([2, 1]), distance2=F(5)
    )
    with rejected("geometric margin: v is not the closest-points difference of the hulls"):
        check_geometric_margin(TRIANGLE, corner)
    # and the certificate check reaches the geometric part
    with rejected("geometric margin: v is not the closest-points difference of the hulls"):
        check_certificate(TRIANGLE, dataclasses.replace(cert, geometric=corner))


def test_geometric_margin_with_unequal_denominators() -> None:
    # positives (0, 0), (2, 0), (0, 2) and negatives (3, 3), (5, 3): alpha and beta over
    # different denominators; the closest points are (1, 1) and (3, 3), v = (-2, -2)
    ds = Dataset.from_arrays([[0, 0], [2, 0], [0, 2], [3, 3], [5, 3]], [1, 1, 1, -1, -1])
    geo = GeometricMarginCertificate(
        alpha=RationalVector([0, 1, 1], 2),
        beta=RationalVector([1, 0]),
        v=RationalVector([-2, -2]),
        distance2=F(8),
    )
    check_geometric_margin(ds, geo)
    with rejected("geometric margin: distance^2 is not ||v||^2 > 0"):
        check_geometric_margin(ds, dataclasses.replace(geo, distance2=F(9)))
    # on fractional features (denominator 3) the same geometry scaled by 1/3
    thirds = Dataset.from_fraction_rows(
        [[F(v, 3) for v in row] for row in ([0, 0], [2, 0], [0, 2], [3, 3], [5, 3])], [1, 1, 1, -1, -1]
    )
    scaled = GeometricMarginCertificate(
        alpha=RationalVector([0, 1, 1], 2),
        beta=RationalVector([1, 0]),
        v=RationalVector([-2, -2], 3),
        distance2=F(8, 9),
    )
    check_geometric_margin(thirds, scaled)
    with rejected("geometric margin: v is not the difference of the hull points"):
        check_geometric_margin(thirds, geo)


def test_touching_hulls_have_no_geometric_margin() -> None:
    # the same point in both classes: v = 0 is not a positive distance
    ds = Dataset.from_arrays([[1, 1], [1, 1]], [1, -1])
    geo = GeometricMarginCertificate(
        alpha=RationalVector([1]), beta=RationalVector([1]), v=RationalVector([0, 0]), distance2=F(0)
    )
    with rejected("geometric margin: distance^2 is not ||v||^2 > 0"):
        check_geometric_margin(ds, geo)


# ---------------------------------------------------------------------------- run replay

# TRIANGLE, natural order: w = 0 misses z_1 (update, w = (1, 0, 1)); z_2.w = 1 > 0; z_3.w = 0 (update,
# w = (2, 1, 0)); epoch 1 is clean: updates (0, 0), (0, 2), weights (2, 1, 0), 2 epochs, converged.
UPDATES = [(0, 0), (0, 2)]
WEIGHTS = [2, 1, 0]


def test_the_true_run_replays() -> None:
    check_run(TRIANGLE, UPDATES, WEIGHTS, 2, True)
    check_run(TRIANGLE, UPDATES, [F(2), F(1), F(0)], 2, True, order=[0, 1, 2])
    # one epoch only: not converged
    check_run(TRIANGLE, UPDATES, WEIGHTS, 1, False)
    # in reverse order: z_3 (w = (1, 1, -1)), z_2.w = 0 (w = (1, 2, 0)), z_1.w = 1; then clean
    check_run(TRIANGLE, [(0, 2), (0, 1)], [1, 2, 0], 2, True, order=[2, 1, 0])
    # with rho = 1/2: z_1 = (1, 0, 1/2) is the only mistake (z_2.w = 1/4, z_3.w = 3/4), the
    # weights are in the data's scale
    check_run(TRIANGLE.with_bias(F(1, 2)), [(0, 0)], [1, 0, F(1, 2)], 2, True)


def test_run_replay_rejections() -> None:
    with rejected("run replay: epoch 0, sample 2: the run missed a mistake"):
        check_run(TRIANGLE, [(0, 0)], WEIGHTS, 2, True)
    with rejected("run replay: epoch 0, sample 1: the run updated on a correct sample"):
        check_run(TRIANGLE, [(0, 0), (0, 1), (0, 2)], WEIGHTS, 2, True)
    with rejected("run replay: epoch 0, sample 0: the run missed a mistake"):
        check_run(TRIANGLE, [], [0, 0, 0], 1, False)
    with rejected("run replay: epoch 1 was clean but the run went on"):
        check_run(TRIANGLE, UPDATES, WEIGHTS, 3, True)
    with rejected("run replay: update (2, 0) lies beyond the epochs run"):
        check_run(TRIANGLE, [*UPDATES, (2, 0)], WEIGHTS, 2, True)
    with rejected("run replay: converged=False but the last epoch was clean"):
        check_run(TRIANGLE, UPDATES, WEIGHTS, 2, False)
    with rejected("run replay: converged=True but the last epoch was not clean"):
        check_run(TRIANGLE, UPDATES, WEIGHTS, 1, True)
    with rejected("run replay: final weights differ"):
        check_run(TRIANGLE, UPDATES, [2, 1, 1], 2, True)
    with rejected("run replay: final weights differ"):
        check_run(TRIANGLE.with_bias(F(1, 2)), [(0, 0)], [1, 0, 1], 2, True)
    with rejected("run replay: converged=True but the last epoch was not clean"):
        check_run(TRIANGLE, [], [], 0, True)  # no epoch ran: nothing is clean


def test_zero_epochs_and_no_updates() -> None:
    check_run(TRIANGLE, [], [0, 0, 0], 0, False)
    with rejected("run replay: update (0, 0) lies beyond the epochs run"):
        check_run(TRIANGLE, [(0, 0)], [0, 0, 0], 0, False)


def test_geometric_margin_with_the_finer_denominator_on_the_negatives() -> None:
    # positive (3, 3), negatives (0, 0), (2, 0), (0, 2): beta = (0, 1/2, 1/2) has the larger
    # denominator; the hull point (1, 1), v = (2, 2), ||v||^2 = 8, gap 12 - 4 = 8
    ds = Dataset.from_arrays([[3, 3], [0, 0], [2, 0], [0, 2]], [1, -1, -1, -1])
    geo = GeometricMarginCertificate(
        alpha=RationalVector([1]), beta=RationalVector([0, 1, 1], 2), v=RationalVector([2, 2]), distance2=F(8)
    )
    check_geometric_margin(ds, geo)
    with rejected("geometric margin: v is not the difference of the hull points"):
        check_geometric_margin(ds, dataclasses.replace(geo, v=RationalVector([3, 3])))
