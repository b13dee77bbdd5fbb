"""The fast writers of exact rationals give exactly the text of the plain ones.

``certify --json`` and ``--certificate`` write numbers of thousands of digits through
:func:`novikoff.exact.rational.decimal` (GMP from 1500 bits on) and :meth:`RationalVector.texts`
(lowest terms without one full-size gcd per entry); ``novikoff check`` reads them back through
GMP. Every expectation here is made by the plain route: ``str`` of the int or the Fraction
(with Python's digit limit lifted), ``json.dumps``, and the writer the certificate format had
before (re-implemented below), so the byte identity is tested, not assumed.
"""

from __future__ import annotations

import json
import math
import pickle
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates.format import (
    CertificateDocument,
    CertificateFormatError,
    DatasetBinding,
    GeometricMarginCertificate,
    GordanCertificate,
    NonseparableBoundClaim,
    PerceptronRun,
    SeparableCertificate,
    from_json,
    to_data,
    to_json,
)
from novikoff.exact.rational import (
    RationalVector,
    decimal,
    format_rational,
    format_vector,
    rational_text,
    unlimited_int_digits,
    vector_texts,
)
from novikoff.runtime.jsonout import dumps


def _plain(value: Fraction | int) -> str:
    """``str`` of the exact value, the 4300-digit limit lifted: the text before the fast path."""
    with unlimited_int_digits():
        return str(Fraction(value))


def _digits(count: int, lead: int = 7) -> int:
    """An integer of exactly ``count`` decimal digits (leading digit ``lead``, the rest varied)."""
    with unlimited_int_digits():
        tail = int(("31415926535897932384626433832795" * (count // 32 + 1))[: count - 1] or "0")
    return lead * 10 ** (count - 1) + tail


_EDGE_INTS = [
    0,
    1,
    -1,
    7,
    -9,
    10,
    2**1499,
    2**1500 - 1,  # the last int below the GMP threshold
    2**1500,
    -(2**1500),
    _digits(452),
    10**451,
    _digits(4299),
    _digits(4300),
    _digits(4301),
    -_digits(4301),
    10**4299,
    10**4300,
    10**4300 - 1,
    -(10**4300),
    _digits(100_000),
    10**100_000,
    -(10**100_000 - 1),
]


@pytest.mark.parametrize("n", _EDGE_INTS, ids=lambda n: f"{'-' if n < 0 else ''}{len(_plain(abs(n)))}-digits")
def test_decimal_is_str_at_the_edges(n: int) -> None:
    expected = _plain(n)
    assert decimal(n) == expected
    if hasattr(sys, "get_int_max_str_digits"):  # and without lifting Python's limit
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(640)  # the smallest limit Python allows
        try:
            assert decimal(n) == expected
        finally:
            sys.set_int_max_str_digits(old)


_EDGE_FRACTIONS = [
    Fraction(0),
    Fraction(-3, 7),
    Fraction(_digits(4301), 3),
    Fraction(3, _digits(4301)),
    Fraction(-_digits(4300), _digits(4299, lead=3)),
    Fraction(10**4300, 10**4299 + 1),
    Fraction(-(2**1500) - 1, 2**1500),
    Fraction(_digits(100_000), _digits(99_999, lead=9)),
    Fraction(10**100_000 + 1, 3**3000),
]


@pytest.mark.parametrize("q", _EDGE_FRACTIONS, ids=lambda q: f"{len(_plain(q))}-chars")
def test_rational_text_and_json_form_are_the_plain_ones(q: Fraction) -> None:
    expected = _plain(q)
    assert rational_text(q) == expected
    with unlimited_int_digits():
        plain_json: str | int = q.numerator if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    assert format_rational(q) == plain_json


# ------------------------------------------------------------------------------ vectors

#: Primes from tiny to large (Mersenne primes of 61 to 1279 bits): a denominator built from them
#: shares small primes with most numerators and large ones with a few.
_PRIMES = [2, 3, 5, 7, 2**31 - 1, 2**61 - 1, 2**127 - 1, 2**521 - 1, 2**607 - 1, 2**1279 - 1]


@st.composite
def _vectors(draw: Any) -> tuple[list[int], int]:
    """A common denominator D made of ``_PRIMES`` and numerators that share any part of it:
    zeros, multiples of D (integral entries), multiples of large primes of D, random ints."""
    exponents = draw(st.lists(st.integers(0, 3), min_size=len(_PRIMES), max_size=len(_PRIMES)))
    den = math.prod(p**e for p, e in zip(_PRIMES, exponents))
    entry = st.one_of(
        st.just(0),
        st.integers(-3, 3).map(lambda k: k * den),
        st.tuples(st.sampled_from(_PRIMES), st.integers(1, 3), st.integers(-(10**30), 10**30)).map(
            lambda t: t[0] ** t[1] * t[2]
        ),
        st.integers(-(2**3000), 2**3000),
        st.integers(1, 6).map(lambda d: den // d if den % d == 0 else den + d),
    )
    nums = draw(st.lists(entry, max_size=12))
    return nums, den * draw(st.sampled_from([1, -1]))


@settings(max_examples=300, deadline=None)
@given(_vectors())
def test_vector_texts_are_str_of_each_entry(vector: tuple[list[int], int]) -> None:
    nums, den = vector
    vec = RationalVector(nums, den)
    entries = [Fraction(n, den) for n in nums]
    assert vector_texts(vec) == [_plain(v) for v in entries]
    assert format_vector(vec) == [format_rational(v) for v in entries]
    assert vector_texts(entries) == vector_texts(vec)  # the plain route for other sequences


@pytest.mark.parametrize(
    ("nums", "den"),
    [
        ([], 1),
        ([], _digits(3000)),
        ([0, 0], _digits(3000)),
        ([2, 3], 6),  # the residues' product is 0 mod D, no entry is integral
        ([_digits(3000) * 4, _digits(3000) * 6], _digits(3000) * 8),  # a common factor of all
        ([1, -1, 5], 1),
        ([(2**1279 - 1) * 3, 2**607 - 1, 1], (2**1279 - 1) * (2**607 - 1) * 2),  # large shared primes
        ([_digits(5000) // 2 * 2, _digits(5000) // 2], _digits(5000) // 2 * 2),
    ],
    ids=["empty", "empty-big-D", "zeros", "product-0", "common-factor", "integers", "large-primes", "halves"],
)
def test_vector_texts_on_edge_vectors(nums: list[int], den: int) -> None:
    vec = RationalVector(nums, den)
    assert vector_texts(vec) == [_plain(Fraction(n, den)) for n in nums]
    assert format_vector(vec) == [format_rational(Fraction(n, den)) for n in nums]


def test_texts_are_made_once_and_not_pickled() -> None:
    vec = RationalVector([_digits(3000) + k for k in range(5)], _digits(2999, lead=3))
    plain = pickle.dumps(vec)
    assert vec.texts() is vec.texts()
    assert len(pickle.dumps(vec)) == len(plain)  # the kept texts are not in the pickle
    back = pickle.loads(pickle.dumps(vec))
    assert back == vec and back.texts() == vec.texts() and hash(back) == hash(vec)


# ------------------------------------------------------------------------------ JSON


def test_dumps_writes_big_integers_as_str_does() -> None:
    big = [2**1024, _digits(4301), -(10**100_000), _digits(5000)]  # beyond float64: strings
    assert all(abs(n) > sys.float_info.max for n in big) and 2**1023 < sys.float_info.max
    report = {"ints": [0, -1, 2**1023, *big[:3], True], "nested": {"x": [big[3], 1.5, float("inf")]}}
    expected = {
        "ints": [0, -1, 2**1023, *(_plain(n) for n in big[:3]), True],
        "nested": {"x": [_plain(big[3]), 1.5, None]},
    }
    assert dumps(report) == json.dumps(expected, allow_nan=False)


def _big_vector(count: int, digits: int, seed: int) -> RationalVector:
    den = _digits(digits, lead=3) * 12
    return RationalVector([(_digits(digits) * (k + seed) + k) * (k % 4 + 1) for k in range(count)], den)


def _mixed_vector() -> RationalVector:
    """Entries whose lowest-terms denominators are pairwise coprime (their lcm is none of them)."""
    return RationalVector.from_values(
        [Fraction(_digits(2600), 3**1700), Fraction(5, 7**1000), Fraction(-1, 2), Fraction(4), Fraction(0)]
    )


def _document() -> CertificateDocument:
    lam, pstar, w = _big_vector(6, 2600, 1), _big_vector(4, 2600, 2), _big_vector(4, 5000, 3)
    geo = GeometricMarginCertificate(
        _big_vector(3, 2600, 4), _big_vector(3, 2600, 5), _mixed_vector(), Fraction(_digits(4400), 7)
    )
    cert = SeparableCertificate(
        lam, pstar, Fraction(_digits(4301), 11), w, Fraction(9), Fraction(11 * 9, _digits(4301)), geo
    )
    run = PerceptronRun("shuffle:7", 3, True, 12, RationalVector([1, -2, 0, 5], 3))
    bound = NonseparableBoundClaim(
        _big_vector(4, 3000, 7), Fraction(_digits(3000), 5), Fraction(2), Fraction(9), "natural", 2, 5
    )
    return CertificateDocument(DatasetBinding(6, 3, Fraction(1, 2), "0" * 64), cert, run, bound)


def _old_rational(value: Fraction | int) -> str:
    q = Fraction(value)
    with unlimited_int_digits():
        return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _old_layout(value: object, depth: int) -> str:
    if isinstance(value, dict) and value:
        pad = "  " * (depth + 1)
        fields = [f"{pad}{json.dumps(k)}: {_old_layout(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(fields) + "\n" + "  " * depth + "}"
    return json.dumps(value)


def _old_texts(value: object) -> object:
    """The document's plain value with every rational re-made by the writer before."""
    if isinstance(value, RationalVector):
        return [_old_rational(v) for v in value]
    if isinstance(value, Fraction):
        return _old_rational(value)
    return value


def test_certificate_text_is_the_old_writers() -> None:
    doc = _document()
    cert, run, bound = doc.certificate, doc.perceptron, doc.nonseparable_bound
    assert isinstance(cert, SeparableCertificate) and cert.geometric is not None
    assert run is not None and bound is not None
    geo = cert.geometric
    data = to_data(doc)
    c, g, b = data["certificate"], data["certificate"]["geometric"], data["nonseparable_bound"]
    written_and_exact = [
        (data["dataset"]["bias"], doc.dataset.bias),
        *[
            (c[k], getattr(cert, a))
            for k, a in [("lambda", "lambdas"), ("pstar", "pstar"), ("weights", "weights")]
        ],
        *[(c[k], getattr(cert, k)) for k in ("R2", "gamma2", "bound")],
        *[(g[k], getattr(geo, k)) for k in ("alpha", "beta", "v", "distance2")],
        (data["perceptron"]["weights"], run.weights),
        *[(b[k], getattr(bound, k)) for k in ("u", "gamma", "deviation2", "R2")],
    ]
    for written, exact in written_and_exact:
        assert written == _old_texts(exact)
    assert to_json(doc) == _old_layout(data, 0) + "\n"
    gordan = CertificateDocument(doc.dataset, GordanCertificate(_big_vector(5, 4400, 8), Fraction(3)))
    assert to_data(gordan)["certificate"]["lambda"] == _old_texts(gordan.certificate.lambdas)
    assert to_json(gordan) == _old_layout(to_data(gordan), 0) + "\n"


def test_reading_gives_the_same_numbers_without_the_digit_limit() -> None:
    doc = _document()
    text = to_json(doc)
    old = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if old is not None:
        sys.set_int_max_str_digits(4300)  # Python's default: the reader must not depend on it
    try:
        back = from_json(text)
    finally:
        if old is not None:
            sys.set_int_max_str_digits(old)
    assert back == doc
    cert, orig = back.certificate, doc.certificate
    assert isinstance(cert, SeparableCertificate) and isinstance(orig, SeparableCertificate)
    assert cert.geometric is not None and orig.geometric is not None
    assert back.nonseparable_bound is not None and doc.nonseparable_bound is not None
    pairs = [
        (cert.lambdas, orig.lambdas),
        (cert.weights, orig.weights),
        (cert.pstar, orig.pstar),
        (cert.geometric.v, orig.geometric.v),
        (back.nonseparable_bound.u, doc.nonseparable_bound.u),
    ]
    for got, want in pairs:
        expected = RationalVector.from_values(list(want))  # what the reader built before
        assert (got.numerators, got.denominator) == (expected.numerators, expected.denominator)


@pytest.mark.parametrize(
    ("entry", "detail"),
    [
        (f"{_plain(_digits(4400) * 6)}/{_plain(_digits(4400, lead=3) * 4)}", "not in lowest terms"),
        (f"{_plain(_digits(4400))}/1", "not in lowest terms"),
        (f"0/{_plain(_digits(4400))}", "not in lowest terms"),
        ("-0", "not a rational"),
        (f"0{_plain(_digits(4400))}", "not a rational"),
        (f"{_plain(_digits(4400))}/-3", "not a rational"),
        ("+12", "not a rational"),
        (" 12", "not a rational"),
        ("1_0", "not a rational"),
    ],
    ids=[
        "common-factor",
        "over-1",
        "zero-over",
        "minus-zero",
        "leading-zero",
        "negative-den",
        "plus",
        "blank",
        "underscore",
    ],
)
def test_reading_still_refuses_what_it_refused(entry: str, detail: str) -> None:
    data = to_data(_document())
    data["certificate"]["pstar"][2] = entry
    with pytest.raises(CertificateFormatError) as err:
        from_json(json.dumps(data))
    assert err.value.path == "certificate.pstar[2]" and err.value.code == "bad-value"
    assert err.value.detail.startswith(detail)
