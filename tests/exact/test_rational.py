from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.exact.rational import format_rational, parse_rational, parse_rational_pair, to_fraction


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.1", Fraction(1, 10)),
        ("0.0371", Fraction(371, 10000)),
        ("-3/6", Fraction(-1, 2)),
        ("3/-4", Fraction(-3, 4)),
        ("1e3", Fraction(1000)),
        ("-1.5e-2", Fraction(-3, 200)),
        (".5", Fraction(1, 2)),
        ("5.", Fraction(5)),
        ("+7", Fraction(7)),
        ("123456789012345678901234567890", Fraction(123456789012345678901234567890)),
    ],
)
def test_text_is_read_exactly(text: str, value: Fraction) -> None:
    assert parse_rational(text) == value
    num, den = parse_rational_pair(text)
    assert den > 0 and Fraction(num, den) == value


@pytest.mark.parametrize(
    "text",
    [
        "nan",
        "NaN",
        "inf",
        "-inf",
        "Infinity",
        "1/0",
        "abc",
        "",
        "1e",
        ".",
        "--1",
        "1.2.3",
        "e5",
        "1_000",
        "٣",
        "3/4/5",
        "/4",
        "0x10",
    ],
)
def test_bad_text_is_refused(text: str) -> None:
    with pytest.raises(InputError):
        parse_rational(text)
    with pytest.raises(InputError):
        parse_rational_pair(text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_convert_to_the_dyadic_they_store(x: float) -> None:
    q = to_fraction(x)
    assert float(q) == x
    assert q.denominator & (q.denominator - 1) == 0  # a power of two
    assert to_fraction(np.float64(x)) == q


@given(st.integers(-(10**40), 10**40), st.integers(1, 10**20))
def test_pairs_agree_with_fraction(p: int, q: int) -> None:
    num, den = parse_rational_pair(f"{p}/{q}")
    assert Fraction(num, den) == Fraction(p, q)
    assert format_rational(Fraction(p, q)) in (
        f"{Fraction(p, q).numerator}/{Fraction(p, q).denominator}",
        Fraction(p, q).numerator,
    )


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), np.float64("nan"), True, None, [1]])
def test_to_fraction_refuses_non_numbers(bad: object) -> None:
    with pytest.raises(InputError):
        to_fraction(bad)


def test_numbers_beyond_pythons_digit_limit_stay_exact() -> None:
    big = "9" * 5000  # more than Python's default 4300-digit int/str limit
    assert parse_rational_pair(big) == (10**5000 - 1, 1)
    assert parse_rational(big + "/7") == Fraction(10**5000 - 1, 7)
    assert parse_rational("1e4000") == 10**4000
    from novikoff.exact.rational import format_rational

    assert str(format_rational(Fraction(1, 10**5000))).startswith("1/1000")


@pytest.mark.parametrize("text", ["1e99999", "1" * 20_000, "1e-10001"])
def test_absurd_magnitudes_are_refused_not_computed(text: str) -> None:
    with pytest.raises(InputError, match=r"exponent out of range|too long"):
        parse_rational_pair(text)
