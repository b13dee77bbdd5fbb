"""Certificates: known values, degenerate data, properties, and a checker that rejects tampering."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from novikoff.certificates import GordanCertificate, SeparableCertificate, certify
from novikoff.certificates.checker import certificate_is_valid, check_certificate
from novikoff.data.dataset import Dataset
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector
from novikoff.fuzz import certified_nonseparable, certified_separable
from novikoff.spec.tightness import basis_dataset, rotated_basis_dataset


def sep(ds: Dataset) -> SeparableCertificate:
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    return cert


def test_exercise_6_1_by_hand() -> None:
    # z = (1,1,1), (2,2,1), (1,1,-1), (2,0,-1); p* = (z1 + z3)/2 = (1,1,0), ||p*||^2 = 2,
    # z.p* = 2, 4, 2, 2 >= 2; R^2 = ||(2,2,1)||^2 = 9.
    ds = Dataset.from_arrays([[1, 1], [2, 2], [-1, -1], [-2, 0]], [1, 1, -1, -1])
    cert = sep(ds)
    assert cert.pstar == (1, 1, 0)
    assert cert.gamma2 == 2 and cert.R2 == 9 and cert.bound == Fraction(9, 2)
    assert cert.weights == (Fraction(1, 2), Fraction(1, 2), 0)
    # class hulls: closest points (1,1) and (-1,-1): distance^2 8, margin^2 2
    assert cert.geometric is not None and cert.geometric.distance2 == 8 and cert.geometric.margin2 == 2


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20])
def test_t1_margin_is_one_over_n(n: int) -> None:
    for ds in (basis_dataset(n), rotated_basis_dataset(n, seed=n)):
        cert = sep(ds)
        assert cert.gamma2 == Fraction(1, n) and cert.R2 == 1 and cert.bound == n
        assert cert.lambdas == tuple([Fraction(1, n)] * n)


def test_degenerate_cases() -> None:
    dup = Dataset.from_arrays([[1, 0], [1, 0], [1, 0], [0, 1]], [1, 1, 1, 1], bias=0)
    c = sep(dup)
    assert c.gamma2 == Fraction(1, 2)
    collinear = Dataset.from_arrays([[1], [2], [3], [-1], [-2]], [1, 1, 1, -1, -1], bias=0)
    assert sep(collinear).gamma2 == 1
    single_class = Dataset.from_arrays([[3, 4], [5, 0]], [-1, -1])
    c = sep(single_class)
    assert c.geometric is None  # no second class: no geometric margin
    origin = Dataset.from_arrays([[0, 0], [1, 1]], [1, -1])  # with bias, the origin point is fine
    assert isinstance(certify(origin), SeparableCertificate)
    origin_no_bias = Dataset.from_arrays([[0, 0], [1, 1]], [1, 1], bias=0)  # z = 0 lies in the hull
    g = certify(origin_no_bias)
    assert isinstance(g, GordanCertificate) and g.lambdas == (1, 0)
    wide = Dataset.from_arrays([[1, 0, 0, 0, 2, 0, 1], [0, 1, 0, 3, 0, 0, 0]], [1, -1])  # d > m
    assert isinstance(certify(wide), SeparableCertificate)
    tall = Dataset.from_arrays(
        [[i, 1] for i in range(1, 30)] + [[-i, 1] for i in range(1, 30)], [1] * 29 + [-1] * 29
    )  # m > d
    assert sep(tall).geometric is not None


def test_conflicting_duplicate_is_gordan() -> None:
    ds = Dataset.from_arrays([[1, 2], [1, 2], [5, 5]], [1, -1, 1])
    g = certify(ds)
    assert isinstance(g, GordanCertificate)
    assert g.lambdas == (Fraction(1, 2), Fraction(1, 2), 0)


@given(certified_separable())
def test_separable_certificates_are_checked_and_tight(pair: tuple[Dataset, SeparableCertificate]) -> None:
    ds, cert = pair
    check_certificate(ds, cert)
    # tightness: the canonical w~ attains margin exactly 1 on some sample and >= 1 on all
    scores = [
        sum((a * b for a, b in zip(cert.weights, ds.pattern(i))), Fraction(0)) for i in range(ds.n_samples)
    ]
    assert min(scores) == 1
    assert sum(cert.lambdas) == 1 and all(v >= 0 for v in cert.lambdas)


@given(certified_nonseparable())
def test_nonseparable_data_get_a_gordan_certificate(pair: tuple[Dataset, GordanCertificate]) -> None:
    ds, cert = pair
    check_certificate(ds, cert)
    total = [
        sum((lam * z for lam, z in zip(cert.lambdas, col)), Fraction(0))
        for col in zip(*(ds.pattern(i) for i in range(ds.n_samples)))
    ]
    assert all(v == 0 for v in total)


# ------------------------------------------------------------- tampering


def _combination(ds: Dataset, lambdas: Sequence[Fraction]) -> list[Fraction]:
    return [
        sum((lam * z for lam, z in zip(lambdas, col)), Fraction(0))
        for col in zip(*(ds.pattern(i) for i in range(ds.n_samples)))
    ]


def _tamper_lambda(
    ds: Dataset, cert: SeparableCertificate, i: int, renormalize: bool
) -> SeparableCertificate:
    lam = list(cert.lambdas)
    lam[i] += Fraction(1, 7)
    if renormalize:
        total = sum(lam)
        lam = [v / total for v in lam]
    return dataclasses.replace(cert, lambdas=RationalVector.from_values(lam))


@given(certified_separable(min_samples=2), st.data())
def test_checker_rejects_tampered_certificates(
    pair: tuple[Dataset, SeparableCertificate], data: st.DataObject
) -> None:
    ds, cert = pair
    i = data.draw(st.integers(0, ds.n_samples - 1))
    assert not certificate_is_valid(ds, _tamper_lambda(ds, cert, i, renormalize=False))
    moved = _tamper_lambda(ds, cert, i, renormalize=True)
    if _combination(ds, moved.lambdas) != _combination(ds, cert.lambdas):
        assert not certificate_is_valid(ds, moved)
    else:  # weight moved between equal patterns (or lambda = e_i): still a valid certificate
        assert certificate_is_valid(ds, moved)
    j = data.draw(st.integers(0, len(cert.pstar) - 1))
    p = list(cert.pstar)
    p[j] += Fraction(1, 1000)
    assert not certificate_is_valid(ds, dataclasses.replace(cert, pstar=RationalVector.from_values(p)))
    for wrong in (cert.gamma2 * Fraction(101, 100), cert.gamma2 * Fraction(99, 100)):
        assert not certificate_is_valid(ds, dataclasses.replace(cert, gamma2=wrong))
    assert not certificate_is_valid(ds, dataclasses.replace(cert, bound=cert.bound + Fraction(1, 10**9)))
    assert not certificate_is_valid(ds, dataclasses.replace(cert, R2=cert.R2 + 1))
    w = list(cert.weights)
    w[j] -= Fraction(1, 3)
    assert not certificate_is_valid(ds, dataclasses.replace(cert, weights=RationalVector.from_values(w)))
    # flip the sign of one label: the certificate must no longer fit the data
    labels = list(ds.labels)
    labels[i] = -labels[i]
    flipped = Dataset(ds.numerators, ds.denominator, tuple(labels), ds.bias, ds.name)
    if any(flipped.pattern(i)):  # a zero pattern is unchanged by the flip
        assert not certificate_is_valid(flipped, cert)


@given(certified_nonseparable(), st.data())
def test_checker_rejects_tampered_gordan(
    pair: tuple[Dataset, GordanCertificate], data: st.DataObject
) -> None:
    ds, cert = pair
    support = [i for i, v in enumerate(cert.lambdas) if v]
    i = data.draw(st.sampled_from(support))
    lam = list(cert.lambdas)
    lam[i] *= 2
    total = sum(lam)
    moved = RationalVector.from_values([v / total for v in lam])
    z = ds.pattern(i)
    if any(z):  # doubling a zero pattern's weight keeps the sum at 0: still a valid certificate
        assert not certificate_is_valid(ds, GordanCertificate(moved, cert.R2))


def test_checker_rejects_a_gordan_claim_on_separable_data() -> None:
    ds = Dataset.from_arrays([[1, 1], [2, 2], [-1, -1], [-2, 0]], [1, 1, -1, -1])
    with pytest.raises(CertificateError):
        check_certificate(ds, GordanCertificate(RationalVector([1, 1, 1, 1], 4), ds.R2))
    cert = sep(ds)
    # a non-minimal hull point (z_2 alone) satisfies sum lambda = 1 but not min z.p* >= ||p*||^2
    fake_p = tuple(ds.pattern(1))
    g2 = sum((v * v for v in fake_p), Fraction(0))
    fake = dataclasses.replace(
        cert,
        lambdas=RationalVector([0, 1, 0, 0]),
        pstar=RationalVector.from_values(fake_p),
        gamma2=g2,
        weights=RationalVector.from_values([v / g2 for v in fake_p]),
        bound=cert.R2 / g2,
    )
    with pytest.raises(CertificateError, match="minimum-norm"):
        check_certificate(ds, fake)
