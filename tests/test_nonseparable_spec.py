"""FS1 (the Freund-Schapire bound): the exact decision fs_bound_holds and the statements."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.spec.nonseparable import fs_bound_holds


def _high_precision(k: int, R2: Fraction, D2: Fraction, gamma2: Fraction) -> bool:
    """k gamma^2 <= (R + D)^2 at 200 digits: an independent evaluation (callers keep away
    from exact ties, where only the exact decision is right)."""
    with mpmath.workdps(200):
        lhs = k * mpmath.mpf(gamma2.numerator) / gamma2.denominator
        r = mpmath.sqrt(mpmath.mpf(R2.numerator) / R2.denominator)
        d = mpmath.sqrt(mpmath.mpf(D2.numerator) / D2.denominator)
        rhs = (r + d) ** 2
        assert abs(lhs - rhs) > mpmath.mpf(10) ** -150, "too close for the reference evaluation"
        return bool(lhs <= rhs)


def _convergents(x: mpmath.mpf, count: int) -> list[Fraction]:
    """Continued-fraction convergents of x: rationals alternately below and above it, each
    far closer than float resolution once the denominators pass 2^27."""
    out, h0, h1, k0, k1 = [], 0, 1, 1, 0
    for _ in range(count):
        a = int(mpmath.floor(x))
        h0, h1 = h1, a * h1 + h0
        k0, k1 = k1, a * k1 + k0
        out.append(Fraction(h1, k1))
        x = 1 / (x - a)
    return out


def test_exact_ties_are_inside_the_bound() -> None:
    # (2 + 3)^2 = 25 with R2 = 4, D2 = 9; (sqrt 2 + sqrt 8)^2 = 18 (= 2 + 8 + 2 * 4)
    assert fs_bound_holds(25, 4, 9, 1) and not fs_bound_holds(26, 4, 9, 1)
    assert fs_bound_holds(18, 2, 8, 1) and not fs_bound_holds(19, 2, 8, 1)
    assert fs_bound_holds(9, 2, 8, 2) and not fs_bound_holds(10, 2, 8, 2)
    # D = 0 is Novikoff's bound k gamma^2 <= R^2; R = 0 leaves the slack alone
    assert fs_bound_holds(4, 4, 0, 1) and not fs_bound_holds(5, 4, 0, 1)
    assert fs_bound_holds(3, 0, Fraction(3, 4), Fraction(1, 4)) and not fs_bound_holds(
        4, 0, Fraction(3, 4), Fraction(1, 4)
    )
    assert fs_bound_holds(0, 0, 0, 7) and not fs_bound_holds(1, 0, 0, 7)


def test_gamma_a_hair_either_side_of_an_irrational_bound() -> None:
    # k = 1: the bound is gamma^2 <= 5 + 2 sqrt 6; convergents alternate sides within 1e-40
    with mpmath.workdps(200):
        bound = 5 + 2 * mpmath.sqrt(6)
        near = _convergents(bound, 60)[30:]
    sides = {fs_bound_holds(1, 2, 3, g2) for g2 in near}
    assert sides == {True, False}
    for g2 in near:
        assert fs_bound_holds(1, 2, 3, g2) == _high_precision(1, Fraction(2), Fraction(3), g2)
        assert fs_bound_holds(7, 14, 21, 7 * g2) == _high_precision(7, Fraction(14), Fraction(21), 7 * g2)


@settings(max_examples=150, deadline=None)
@given(
    k=st.integers(0, 10**6),
    R2=st.fractions(0, 10**4, max_denominator=10**6),
    D2=st.fractions(0, 10**4, max_denominator=10**6),
    gamma2=st.fractions(Fraction(1, 10**6), 10**3, max_denominator=10**6),
)
def test_agrees_with_a_high_precision_evaluation(
    k: int, R2: Fraction, D2: Fraction, gamma2: Fraction
) -> None:
    with mpmath.workdps(200):
        gap = abs(
            k * mpmath.mpf(gamma2.numerator) / gamma2.denominator
            - (
                mpmath.sqrt(mpmath.mpf(R2.numerator) / R2.denominator)
                + mpmath.sqrt(mpmath.mpf(D2.numerator) / D2.denominator)
            )
            ** 2
        )
    if gap < mpmath.mpf(10) ** -150:  # an exact tie: the exact decision says "holds"
        assert fs_bound_holds(k, R2, D2, gamma2)
        return
    assert fs_bound_holds(k, R2, D2, gamma2) == _high_precision(k, R2, D2, gamma2)


@pytest.mark.parametrize(
    ("args", "place"),
    [
        ((-1, 1, 1, 1), "k"),
        ((True, 1, 1, 1), "k"),
        ((1.0, 1, 1, 1), "k"),
        ((1, -1, 1, 1), "R2"),
        ((1, 1, Fraction(-1, 3), 1), "D2"),
        ((1, 1, 1, 0), "gamma2"),
        ((1, 0.5, 1, 1), "R2"),
        ((1, 1, 1, 0.25), "gamma2"),
        ((1, 1, "2", 1), "D2"),
    ],
)
def test_bad_input_names_the_argument(args: tuple[object, ...], place: str) -> None:
    with pytest.raises(InputError, match=rf"fs_bound_holds: {place} "):
        fs_bound_holds(*args)  # type: ignore[arg-type]
