"""FS1 (the Freund-Schapire bound): the exact decision fs_bound_holds and the statements."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.core.function import AppliedUndef

from novikoff.errors import InputError
from novikoff.spec import FS1_ONE_PASS, FS1_PASSES, HypothesisNotMet
from novikoff.spec.core import Forall
from novikoff.spec.nonseparable import fs_bound_holds


def _high_precision(k: int, R2: Fraction, deviation2: Fraction, gamma2: Fraction) -> bool:
    """k gamma^2 <= (R + D)^2 at 200 digits: an independent evaluation (callers keep away
    from exact ties, where only the exact decision is right)."""
    with mpmath.workdps(200):
        lhs = k * mpmath.mpf(gamma2.numerator) / gamma2.denominator
        r = mpmath.sqrt(mpmath.mpf(R2.numerator) / R2.denominator)
        d = mpmath.sqrt(mpmath.mpf(deviation2.numerator) / deviation2.denominator)
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
    # (2 + 3)^2 = 25 with R2 = 4, deviation2 = 9; (sqrt 2 + sqrt 8)^2 = 18 (= 2 + 8 + 2 * 4)
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
    deviation2=st.fractions(0, 10**4, max_denominator=10**6),
    gamma2=st.fractions(Fraction(1, 10**6), 10**3, max_denominator=10**6),
)
def test_agrees_with_a_high_precision_evaluation(
    k: int, R2: Fraction, deviation2: Fraction, gamma2: Fraction
) -> None:
    with mpmath.workdps(200):
        gap = abs(
            k * mpmath.mpf(gamma2.numerator) / gamma2.denominator
            - (
                mpmath.sqrt(mpmath.mpf(R2.numerator) / R2.denominator)
                + mpmath.sqrt(mpmath.mpf(deviation2.numerator) / deviation2.denominator)
            )
            ** 2
        )
    if gap < mpmath.mpf(10) ** -150:  # an exact tie: the exact decision says "holds"
        assert fs_bound_holds(k, R2, deviation2, gamma2)
        return
    assert fs_bound_holds(k, R2, deviation2, gamma2) == _high_precision(k, R2, deviation2, gamma2)


@pytest.mark.parametrize(
    ("args", "place"),
    [
        ((-1, 1, 1, 1), "k"),
        ((True, 1, 1, 1), "k"),
        ((1.0, 1, 1, 1), "k"),
        ((1, -1, 1, 1), "R2"),
        ((1, 1, Fraction(-1, 3), 1), "deviation2"),
        ((1, 1, 1, 0), "gamma2"),
        ((1, 0.5, 1, 1), "R2"),
        ((1, 1, 1, 0.25), "gamma2"),
        ((1, 1, "2", 1), "deviation2"),
    ],
)
def test_bad_input_names_the_argument(args: tuple[object, ...], place: str) -> None:
    with pytest.raises(InputError, match=rf"fs_bound_holds: {place} "):
        fs_bound_holds(*args)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- the statements
# A real exact perceptron run (written here, independent of novikoff.reference) must satisfy
# every premise of FS1 as stated, and its mistake count the conclusion.

Vec = tuple[Fraction, ...]
Tables = dict[str, list[Fraction]]


def _dot(a: Vec, b: Vec) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _vec(*xs: int | Fraction) -> Vec:
    return tuple(Fraction(x) for x in xs)


def _run(patterns: list[Vec], passes: int) -> list[tuple[int, Vec, Vec]]:
    """The perceptron (w_1 = 0, w += z iff w.z <= 0) over ``passes`` full passes: for each
    mistake, (pattern index, w before the update, z)."""
    w: Vec = tuple(Fraction(0) for _ in patterns[0])
    out = []
    for _ in range(passes):
        for i, z in enumerate(patterns):
            if _dot(w, z) <= 0:
                out.append((i, w, z))
                w = tuple(a + b for a, b in zip(w, z))
    return out


def _tables(patterns: list[Vec], passes: int, u: Vec, gamma: Fraction) -> tuple[int, Tables]:
    """k and the run's functions of the premises, indexed by mistakes (one entry past k)."""
    mistakes = _run(patterns, passes)
    f: Tables = {n: [] for n in ("pw", "w2", "uz", "wz", "z2", "d", "sd", "sd2")}
    w: Vec = tuple(Fraction(0) for _ in patterns[0])
    sd = sd2 = Fraction(0)
    for _i, before, z in mistakes:
        assert before == w
        slack = max(Fraction(0), gamma - _dot(u, z))
        for name, value in (
            ("pw", _dot(u, w)), ("w2", _dot(w, w)), ("sd", sd), ("sd2", sd2),
            ("uz", _dot(u, z)), ("wz", _dot(w, z)), ("z2", _dot(z, z)), ("d", slack),
        ):  # fmt: skip
            f[name].append(value)
        sd, sd2 = sd + slack, sd2 + slack**2
        w = tuple(a + b for a, b in zip(w, z))
    f["pw"].append(_dot(u, w))
    f["w2"].append(_dot(w, w))
    f["sd"].append(sd)
    f["sd2"].append(sd2)
    return len(mistakes), f


def _value(e: sp.Basic, tables: Tables) -> sp.Rational:
    q = tables[type(e).__name__][int(e.args[0])]
    return sp.Rational(q.numerator, q.denominator)


def _premise_holds(
    premise: sp.Basic | Forall, count: int, values: dict[str, Fraction | int], tables: Tables
) -> bool:
    """The premise, exactly, on the run: symbols by name, functions from ``tables`` (a Forall
    over its first ``count`` indices)."""

    def at(rel: sp.Basic) -> bool:
        rel = rel.xreplace(
            {
                s: sp.Rational(Fraction(values[s.name]).numerator, Fraction(values[s.name]).denominator)
                for s in rel.free_symbols
            }
        )
        rel = rel.replace(lambda e: isinstance(e, AppliedUndef), lambda e: _value(e, tables))
        return bool(rel)

    if isinstance(premise, Forall):
        return all(at(premise.instance(sp.Integer(j))) for j in range(count))
    return at(premise)


#: a non-separable set (z = y x~ with the labels folded in): z3 = -z1
PATTERNS = [_vec(2, 1), _vec(1, -1), _vec(-2, -1), _vec(0, 1), _vec(1, 2)]
UNIT = _vec(Fraction(3, 5), Fraction(4, 5))


@pytest.mark.parametrize("gamma", [Fraction(1, 2), Fraction(1), Fraction(2)])
def test_a_real_run_meets_every_premise_of_the_one_pass_form(gamma: Fraction) -> None:
    k, tables = _tables(PATTERNS, 1, UNIT, gamma)
    assert k >= 3  # the run makes mistakes on patterns of both slack signs
    R2 = max(_dot(z, z) for z in PATTERNS)
    deviation2 = sum((max(Fraction(0), gamma - _dot(UNIT, z)) ** 2 for z in PATTERNS), Fraction(0))
    assert deviation2 > 0
    # R and D are irrational here: the symbols' values only enter premises as squares,
    # which are checked against R2 and deviation2 directly
    values: dict[str, Fraction | int] = {"k": k, "gamma": gamma}
    for name, premise in FS1_ONE_PASS.premises:
        if name == "radius":
            assert all(z2 <= R2 for z2 in tables["z2"]), name
        elif name == "presented":
            assert tables["sd2"][k] <= deviation2, name
        else:
            assert _premise_holds(premise, k, values, tables), name
    assert fs_bound_holds(k, R2, deviation2, gamma**2)


def test_the_t_pass_form_regroups_the_mistakes_by_pattern() -> None:
    gamma, T = Fraction(1), 3
    mistakes = _run(PATTERNS, T)
    k, tables = _tables(PATTERNS, T, UNIT, gamma)
    dd = [max(Fraction(0), gamma - _dot(UNIT, z)) for z in PATTERNS]
    m = [Fraction(sum(1 for i, _w, _z in mistakes if i == p)) for p in range(len(PATTERNS))]
    am, ad = [Fraction(0)], [Fraction(0)]
    for mi, di in zip(m, dd):
        am.append(am[-1] + mi * di**2)
        ad.append(ad[-1] + di**2)
    tables |= {"m": m, "dd": dd, "am": am, "ad": ad}
    n = len(PATTERNS)
    values: dict[str, Fraction | int] = {"k": k, "n": n, "T": T, "gamma": gamma, "sumd2": ad[n]}
    run_indexed = {name for name, _p in FS1_ONE_PASS.premises}
    for name, premise in FS1_PASSES.premises:
        if name == "radius":
            continue
        count = k if name in run_indexed else n
        assert _premise_holds(premise, count, values, tables), name
    assert k > n  # several passes: some pattern is mistaken more than once
    assert fs_bound_holds(k, max(_dot(z, z) for z in PATTERNS), T * ad[n], gamma**2)


def test_the_conclusion_evaluates_exactly() -> None:
    # 25 * 1 <= (2 + 3)^2 exactly, 26 not; the hypotheses guard the domain
    assert FS1_ONE_PASS.check({"k": 25, "gamma": 1, "R": 2, "D": 3})
    assert not FS1_ONE_PASS.check({"k": 26, "gamma": 1, "R": 2, "D": 3})
    with pytest.raises(HypothesisNotMet, match="FS1"):
        FS1_ONE_PASS.check({"k": 1, "gamma": 0, "R": 2, "D": 3})
