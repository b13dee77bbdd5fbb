"""Kernels, the exact Gram matrix, the minimum-norm point in the Gram geometry and its checker.

Expected values are computed independently here: Gram entries from the formula with
Fractions, minimum-norm values by brute force over every support (Fraction Gaussian
elimination, no Wolfe), and the linear kernel against the primal certificate.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.certificates.kernel_checker import (
    KERNEL_REASON_CODES,
    KernelCertificate,
    check_kernel_certificate,
    kernel_certificate_problems,
)
from novikoff.certificates.kernel_minnorm import gram_min_norm_point
from novikoff.certificates.kernel_solver import certify_kernel
from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.data.kernels import KernelSpec, exact_gram, parse_kernel
from novikoff.errors import CertificateError, InputError
from novikoff.exact.rational import RationalVector


def formula_gram(ds: Dataset, degree: int, c: Fraction) -> list[list[Fraction]]:
    """G_ij = y_i y_j ((x_i.x_j + c)^p + rho^2), straight from the definition with Fractions."""
    xs = [ds.features(i) for i in range(ds.n_samples)]
    y = ds.labels
    return [
        [
            y[i] * y[j] * ((sum(a * b for a, b in zip(xs[i], xs[j])) + c) ** degree + ds.bias**2)
            for j in range(len(xs))
        ]
        for i in range(len(xs))
    ]


def solve(A: list[list[Fraction]], b: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan over the rationals; None if A is singular."""
    n = len(A)
    M = [[*row, v] for row, v in zip(A, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if M[r][col] != 0), None)
        if pivot is None:
            return None
        M[col], M[pivot] = M[pivot], M[col]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col] / M[col][col]
                M[r] = [a - f * p for a, p in zip(M[r], M[col])]
    return [M[r][n] / M[r][r] for r in range(n)]


def brute_min_norm(G: list[list[Fraction]]) -> Fraction:
    """min over the simplex of lambda^T G lambda: the best affine minimizer over all supports
    whose weights are >= 0 (the minimizer lies on a face with an affinely independent support)."""
    n = len(G)
    best: Fraction | None = None
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            A = [[G[i][j] for j in S] + [Fraction(1)] for i in S] + [[Fraction(1)] * size + [Fraction(0)]]
            sol = solve(A, [Fraction(0)] * size + [Fraction(1)])
            if sol is None or any(v < 0 for v in sol[:size]):
                continue
            lam = dict(zip(S, sol[:size]))
            value = sum((lam[i] * G[i][j] * lam[j] for i in S for j in S), Fraction(0))
            best = value if best is None or value < best else best
    assert best is not None
    return best


# ------------------------------------------------------------------ kernel text


@pytest.mark.parametrize(
    ("text", "degree", "c"),
    [
        ("poly:2", 2, Fraction(1)),
        ("poly:3:0", 3, Fraction(0)),
        ("poly:1:1/3", 1, Fraction(1, 3)),
        ("poly:2:0.5", 2, Fraction(1, 2)),
    ],
)
def test_parse_poly(text: str, degree: int, c: Fraction) -> None:
    spec = parse_kernel(text)
    assert (spec.kind, spec.degree, spec.c) == ("poly", degree, c)
    assert parse_kernel(str(spec)) == spec  # the canonical text reads back


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("poly", "poly:DEGREE"),
        ("poly:0", "DEGREE"),
        ("poly:65", "DEGREE"),
        ("poly:two", "DEGREE"),
        ("poly:2:-1", "C must be >= 0"),
        ("poly:2:abc", "C"),
        ("poly:2:1:3", "poly:DEGREE"),
        ("rbf:1", "float-only"),
        ("sigmoid:1", "expected poly"),
        ("", "expected poly"),
    ],
)
def test_parse_kernel_refuses_naming_the_text(text: str, reason: str) -> None:
    with pytest.raises(InputError, match=reason) as info:
        parse_kernel(text)
    assert repr(text) in str(info.value)


def test_rbf_is_float_only() -> None:
    spec = parse_kernel("rbf:1/2", allow_rbf=True)
    assert (spec.kind, spec.gamma, spec.exact) == ("rbf", Fraction(1, 2), False)
    with pytest.raises(InputError, match="GAMMA must be > 0"):
        parse_kernel("rbf:0", allow_rbf=True)
    with pytest.raises(InputError, match="float-only"):
        exact_gram(load_example("xor"), spec)


# ------------------------------------------------------------------ the Gram matrix

rows = st.lists(
    st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=4), min_size=2, max_size=2),
    min_size=1,
    max_size=5,
)


@settings(max_examples=25, deadline=None)
@given(
    rows=rows,
    labels=st.lists(st.sampled_from([-1, 1]), min_size=5, max_size=5),
    degree=st.integers(1, 3),
    c=st.fractions(min_value=0, max_value=2, max_denominator=3),
    rho=st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2)]),
)
def test_gram_and_min_norm_against_brute_force(
    rows: list[list[Fraction]], labels: list[int], degree: int, c: Fraction, rho: Fraction
) -> None:
    ds = Dataset.from_fraction_rows(rows, labels[: len(rows)], bias=rho)
    spec = KernelSpec("poly", degree=degree, c=c)
    gram = exact_gram(ds, spec)
    G = formula_gram(ds, degree, c)
    assert [[gram.entry(i, j) for j in range(len(G))] for i in range(len(G))] == G
    assert gram.R2 == max(G[i][i] for i in range(len(G)))
    point = gram_min_norm_point(gram)
    assert point.value == brute_min_norm(G)
    lam = list(point.lambdas)
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    cert = certify_kernel(ds, spec, gram)
    assert cert.gamma2 == point.value and kernel_certificate_problems(gram, cert) == []


@pytest.mark.parametrize("name", ["exercise-6.1", "xor", "t1:4"])
def test_linear_kernel_is_the_linear_certificate(name: str) -> None:
    """poly:1:0 gives K~ = x.x' + rho^2 = z_i.z_j: the primal minimum-norm point's gamma^2."""
    ds = load_example(name)
    linear = certify(ds)
    cert = certify_kernel(ds, parse_kernel("poly:1:0"))
    assert cert.R2 == linear.R2
    assert cert.separable == linear.separable
    if isinstance(linear, SeparableCertificate):
        assert cert.gamma2 == linear.gamma2


# ------------------------------------------------------------------ the checker


@pytest.fixture
def xor2() -> tuple[Dataset, KernelCertificate]:
    ds = load_example("xor")
    return ds, certify_kernel(ds, parse_kernel("poly:2"))


def _codes(ds: Dataset, cert: KernelCertificate) -> set[str]:
    return {p.code for p in kernel_certificate_problems(exact_gram(ds, parse_kernel(cert.kernel)), cert)}


def test_checker_accepts_the_solver_and_has_a_reason_per_code(
    xor2: tuple[Dataset, KernelCertificate],
) -> None:
    ds, cert = xor2
    assert _codes(ds, cert) == set()
    check_kernel_certificate(exact_gram(ds, parse_kernel("poly:2")), cert)  # no exception
    assert cert.separable and cert.bound == cert.R2 / cert.gamma2


def test_tampered_certificates_are_rejected_with_their_reason(
    xor2: tuple[Dataset, KernelCertificate],
) -> None:
    ds, cert = xor2
    lam = cert.lambdas
    n = len(lam)
    tampered = {
        "length": KernelCertificate(
            cert.kernel, RationalVector(lam.numerators[:-1], lam.denominator), cert.gamma2, cert.R2
        ),
        "R2": KernelCertificate(cert.kernel, lam, cert.gamma2, cert.R2 + 1),
        "gamma2": KernelCertificate(cert.kernel, lam, cert.gamma2 * 2, cert.R2),
        "negative-gamma2": KernelCertificate(cert.kernel, lam, -cert.gamma2, cert.R2),
    }
    for code, bad in tampered.items():
        assert code in _codes(ds, bad), code
    # halved weights (sum 1/2), with the claimed value theirs: only the sum is wrong
    halved = RationalVector(lam.numerators, 2 * lam.denominator)
    assert _codes(ds, KernelCertificate(cert.kernel, halved, cert.gamma2 / 4, cert.R2)) == {"weights-sum"}
    gram = exact_gram(ds, parse_kernel(cert.kernel))
    # a vertex of the simplex, value claimed correctly, but not the minimum: the margin fact fails
    vertex = RationalVector([1] + [0] * (n - 1), 1)
    assert _codes(ds, KernelCertificate(cert.kernel, vertex, gram.entry(0, 0), cert.R2)) == {"margin"}
    # a Gordan claim (gamma^2 = 0) on data separable in feature space
    assert _codes(ds, KernelCertificate(cert.kernel, lam, Fraction(0), cert.R2)) == {"gamma2"}
    with pytest.raises(CertificateError, match="margin"):
        check_kernel_certificate(gram, KernelCertificate(cert.kernel, vertex, gram.entry(0, 0), cert.R2))
    assert set(KERNEL_REASON_CODES) == {*tampered, "weights-sum", "negative-weight", "margin"}


def test_fake_gordan_with_a_negative_weight() -> None:
    """x = 1 and x = 2, both +1, no bias, poly:1:0: 2 z_1 - z_2 = 0 is a fake Gordan certificate
    (affine, not convex); only the negative weight gives it away."""
    ds = Dataset.from_arrays([[1], [2]], [1, 1], bias=0)
    fake = KernelCertificate("poly:1:0", RationalVector([2, -1], 1), Fraction(0), Fraction(4))
    assert _codes(ds, fake) == {"negative-weight"}
    assert certify_kernel(ds, parse_kernel("poly:1:0")).gamma2 == 1  # the truth: separable, gamma = 1


def test_gordan_in_feature_space() -> None:
    """XOR under poly:1 (K~ = x.x' + 2): the origin is in the hull, uniform weights show it."""
    ds = load_example("xor")
    cert = certify_kernel(ds, parse_kernel("poly:1"))
    assert not cert.separable and cert.bound is None and cert.gamma2 == 0
    # any point of the simplex other than a Gordan one has lambda^T G lambda > 0: claiming 0 fails
    vertex = RationalVector([1, 0, 0, 0], 1)
    assert _codes(ds, KernelCertificate(cert.kernel, vertex, Fraction(0), cert.R2)) == {"gamma2"}
