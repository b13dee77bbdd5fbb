# ruff: noqa: E501  (the expected messages are quoted whole)
"""Tests that kill the mutants of novikoff/proofs/core.py left by the second mutmut run
(docs/mutation.md): the interval-arithmetic checker's boundaries and helpers.

Every case states the exact outcome (accepted, or the failure kind and the whole
message), so a changed comparison, a dropped branch or a changed message is seen.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy as sp
from mpmath import iv
from mpmath.libmp import to_rational

import novikoff.proofs.core.intervals as core  # IntervalBound's module: its box budget, its helpers
from novikoff.certificates import GeometricMarginCertificate
from novikoff.certificates.checker import CertificateError, check_geometric_margin
from novikoff.data.dataset import Dataset
from novikoff.exact.rational import RationalVector
from novikoff.proofs.core import (
    Apply,
    Both,
    Cases,
    Certificate,
    Context,
    Contradiction,
    FailureKind,
    Identity,
    Iff,
    Induction,
    Interval,
    IntervalBound,
    ModusPonens,
    Monotone,
    Obligation,
    Proof,
    ProofFailure,
    SignByAssumptions,
    Term,
    check_obligation,
    ge,
    gt,
    le,
)
from novikoff.proofs.core.definedness import holds as _holds
from novikoff.proofs.core.intervals import (
    _as_interval,
    _bisect,
    _conditions_on_box,
    _enclose,
    _exact_rational,
)
from novikoff.proofs.core.monotone import _require_defined_on_interval
from novikoff.spec.core import Forall

K = FailureKind
x = sp.Symbol("x", real=True)
z = sp.Symbol("z", real=True)
UNIT = {"lo": ge(x, 0), "hi": le(x, 1)}


def outcome(claim: sp.Basic, proof: Proof, hyps: dict) -> tuple:
    result = check_obligation(Obligation("t", "X", hyps, claim, proof))
    return (result.ok, result.kind, result.message)


# ------------------------------------------------------------------ constants E and pi

# p/q lies strictly between the double nearest the constant (which is below it) and
# the constant, and p, q are exact doubles: if the constant were evaluated as a rounded
# point instead of an enclosure, x + p/q - c >= 0 (false at x = 0) would be accepted.
BELOW_E = sp.Rational(353613854, 130087267)
BELOW_PI = sp.Rational(245850922, 78256779)


@pytest.mark.parametrize("below, const", [(BELOW_E, sp.E), (BELOW_PI, sp.pi)], ids=["E", "pi"])
def test_constants_are_enclosed_not_rounded(below: sp.Rational, const: sp.Expr) -> None:
    assert -(10**-15) < sp.N(below - const, 30) < 0  # the claim is false at x = 0
    claim = ge(x + below - const, 0)
    assert outcome(claim, Interval({"x": (0, 1)}, "lo"), UNIT) == (
        False,
        K.UNDECIDED,
        "interval bound not decided after 18 bisections (2 boxes left)",
    )


def test_constants_still_prove_true_claims() -> None:
    claim = ge(x + sp.E + sp.pi - 5, 0)  # e + pi = 5.86
    assert outcome(claim, Interval({"x": (0, 1)}, "lo"), UNIT) == (True, None, "")
    false = ge(x + 5 - sp.E - sp.pi, 0)  # -0.86 at x = 0
    assert outcome(false, Interval({"x": (0, 1)}, "lo"), UNIT) == (
        False,
        K.COUNTEREXAMPLE,
        "counterexample box [mpi('0.0', '0.5')]: x - pi - E + 5 in [-0.85987448204883953906, -0.3598744820488377627]",
    )


# ------------------------------------------------------------------ IntervalBound's boundaries

INTERVAL_CASES = {
    "two symbols share a name": (
        ge(x + sp.Symbol("x", positive=True), 0),
        IntervalBound(x + sp.Symbol("x", positive=True), {"x": (0, 1)}, "lo"),
        UNIT,
        (False, K.MALFORMED, "two different symbols share a name"),
    ),
    "a one-point box is not empty": (
        ge(x, 0),
        Interval({"x": (1, 1)}, "lo"),
        {"lo": ge(x, 1), "hi": le(x, 1)},
        (True, None, ""),
    ),
    "a box may bound a symbol the claim does not mention": (
        ge(x, 0),
        Interval({"x": (0, 1), "z": (0, 1)}, "lo"),
        {**UNIT, "zlo": ge(z, 0), "zhi": le(z, 1)},
        (True, None, ""),
    ),
    "a box symbol is real: a hypothesis on a plain z is refused before the box is read": (
        ge(x, 0),
        Interval({"x": (0, 1), "z": (0, 1)}, "lo"),
        {**UNIT, "zlo": ge(sp.Symbol("z"), 0), "zhi": le(sp.Symbol("z"), 1)},
        (False, K.UNDEFINED, "hypothesis 'zlo': symbol z is not declared real"),
    ),
    "strict: an upper end 0 is a counterexample": (
        gt(x, 0),
        Interval({"x": (-1, 0)}, "lo"),
        {"lo": ge(x, -1), "hi": le(x, 0)},
        (False, K.COUNTEREXAMPLE, "counterexample box [mpi('-1.0', '0.0')]: x in [-1.0, 0.0]"),
    ),
    "non-strict: an upper end 0 is not": (
        ge(x, 0),
        Interval({"x": (-1, 0)}, "lo"),
        {"lo": ge(x, -1), "hi": le(x, 0)},
        (False, K.COUNTEREXAMPLE, "counterexample box [mpi('-1.0', '-0.5')]: x in [-1.0, -0.5]"),
    ),
    "non-strict: a lower end 0 suffices": (
        ge(x, 0),
        Interval({"x": (0, 1)}, "lo"),
        UNIT,
        (True, None, ""),
    ),
    "strict: a positive lower end suffices": (
        gt(x + 1, 0),
        Interval({"x": (0, 1)}, "lo"),
        UNIT,
        (True, None, ""),
    ),
    "no bisection at all": (
        gt(x, 0),
        Interval({"x": (0, 1)}, "lo", max_depth=-1),
        UNIT,
        (False, K.UNDECIDED, "interval bound not decided after -1 bisections (1 boxes left)"),
    ),
    # level 1: [0, 2] may divide by zero, [2, 4] is a counterexample: both are examined
    "an undefined box does not hide the next one": (
        ge(1 / x - x, 0),
        Interval({"x": (0, 4)}, "lo"),
        {"lo": ge(x, 0), "hi": le(x, 4)},
        (False, K.COUNTEREXAMPLE, "counterexample box [mpi('2.0', '4.0')]: -x + 1/x in [-3.75, -1.5]"),
    ),
    # x (1 - x) + x**2 - x is 0, but its enclosures always straddle 0: every box splits
    "undecided boxes double": (
        ge(x * (1 - x) + x**2 - x, 0),
        Interval({"x": (0, 1)}, "lo", max_depth=10),
        UNIT,
        (False, K.UNDECIDED, "interval bound not decided after 10 bisections (2048 boxes left)"),
    ),
    "a logarithm's side condition is an interval one": (
        ge(sp.log(x + 1) + sp.sqrt(x) + 1, 0),
        Interval({"x": (0, 1)}, "lo"),
        UNIT,
        (True, None, ""),
    ),
    "a box over a positive symbol": (
        ge(sp.Symbol("x", positive=True), 0),
        Interval({"x": (1, 2)}, "lo"),
        {"lo": ge(sp.Symbol("x", positive=True), 1), "hi": le(sp.Symbol("x", positive=True), 2)},
        (True, None, ""),
    ),
    "a side condition with a function is evaluated by interval arithmetic": (
        ge(sp.log(sp.log(x + 2)) + 10, 0),
        Interval({"x": (0, 1)}, "lo"),
        UNIT,
        (True, None, ""),
    ),
    "a float upper end": (
        ge(x, 0),
        Interval({"x": (0, 0.5)}, "lo"),
        UNIT,
        (False, K.MALFORMED, "box x: 0.5 is not an exact rational"),
    ),
    "a logarithm never defined on a box": (
        ge(sp.log(x - 3), 0),
        Interval({"x": (0, 1)}, "lo"),
        UNIT,
        (False, K.UNDEFINED, "on box [mpi('0.0', '1.0')]: the argument of log(x - 3) must be > 0"),
    ),
    "a logarithm maybe undefined near 0": (
        ge(sp.log(x) + 100, 0),
        Interval({"x": (0, 1)}, "lo", max_depth=2),
        UNIT,
        (
            False,
            K.UNDEFINED,
            "the claim may be undefined in the box: on box [mpi('0.0', '0.25')]: the argument of log(x) may fail to be > 0 after 2 bisections",
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(INTERVAL_CASES))
def test_interval_outcome_is_exact(name: str) -> None:
    claim, proof, hyps, expected = INTERVAL_CASES[name]
    assert outcome(claim, proof, hyps) == expected


def test_the_box_budget_stops_the_bisection(monkeypatch: pytest.MonkeyPatch) -> None:
    claim = ge(x * (1 - x) + x**2 - x, 0)
    monkeypatch.setattr(core, "_MAX_BOXES", 8)  # 8 boxes are within budget, 16 are not
    assert outcome(claim, Interval({"x": (0, 1)}, "lo", max_depth=10), UNIT) == (
        False,
        K.UNDECIDED,
        "interval bound not decided after 10 bisections (16 boxes left)",
    )


# ------------------------------------------------------------------ the interval helpers


def _iv(lo: float, hi: float) -> object:
    return iv.mpf([lo, hi])


CONDITION_TABLE = [
    # need, the value's enclosure, the state: None (holds), "never ..." or "... may fail"
    ("nonzero", (0, 0), "never W must be nonzero"),
    ("nonzero", (0, 1), "W may fail to be nonzero"),
    ("nonzero", (-1, 0), "W may fail to be nonzero"),
    ("nonzero", (1, 2), None),
    ("nonzero", (-2, -1), None),
    ("nonzero", (-1, 1), "W may fail to be nonzero"),
    ("positive", (0, 0), "never W must be > 0"),
    ("positive", (0, 1), "W may fail to be > 0"),
    ("positive", (-1, 0), "never W must be > 0"),
    ("positive", (-1, 0.5), "W may fail to be > 0"),
    ("positive", (1, 2), None),
    ("positive", (-2, -1), "never W must be > 0"),
    ("nonnegative", (0, 0), None),
    ("nonnegative", (0, 1), None),
    ("nonnegative", (0.5, 1), None),
    ("nonnegative", (-1, 0), "W may fail to be >= 0"),
    ("nonnegative", (-1, 0.5), "W may fail to be >= 0"),
    ("nonnegative", (-2, -1), "never W must be >= 0"),
]


@pytest.mark.parametrize("need, box, state", CONDITION_TABLE, ids=[f"{r[0]}{r[1]}" for r in CONDITION_TABLE])
def test_side_condition_state_on_a_box(need: str, box: tuple, state: str | None) -> None:
    assert _conditions_on_box([(need, lambda v: v, "W")], [_iv(*box)]) == state


def test_every_side_condition_is_checked_on_a_box() -> None:
    def one(v: object) -> object:
        return iv.mpf(1)

    box = [_iv(-2, -1)]
    assert (
        _conditions_on_box([("positive", one, "A"), ("positive", lambda v: v, "B")], box)
        == "never B must be > 0"
    )
    assert _conditions_on_box([("positive", one, "A"), ("nonzero", lambda v: v, "B")], box) is None
    assert _conditions_on_box([("positive", lambda v: "junk", "A")], box) == "A is not real"
    assert _conditions_on_box([], box) is None


def test_as_interval() -> None:
    enclosure = _iv(1, 2)
    assert _as_interval(enclosure) is enclosure
    three = _as_interval(3)
    assert (three.a, three.b) == (3, 3)
    e = _as_interval(iv.e)
    assert e.a < sp.E < e.b
    with pytest.raises(ProofFailure) as exc:
        _as_interval("junk")
    assert exc.value.kind is K.UNDEFINED and str(exc.value) == "not a real interval: junk"


@pytest.mark.parametrize(
    "lo, hi",
    [
        (sp.Rational(1, 3), sp.Rational(1, 3)),
        (sp.Integer(1), sp.Integer(2)),
        (sp.Rational(1, 10), sp.Rational(1, 10)),  # not the float 0.1
        (sp.Rational(-7, 4), sp.Rational(1, 2) - sp.Rational(1, 10**45)),
        (sp.Rational(-1, 3), sp.Rational(-1, 10)),  # floor and ceiling, not toward zero
        (sp.Integer(2**60 + 1), sp.Integer(2**60 + 1)),
    ],
)
def test_enclose_rounds_each_exact_end_outward(lo: sp.Rational, hi: sp.Rational) -> None:
    box = _enclose(lo, hi)
    a, b = (Fraction(*to_rational(end)) for end in box._mpi_)
    exact_lo, exact_hi = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
    assert a <= exact_lo and exact_hi <= b  # outward, from the exact rationals
    # and tight: each end within one 53-bit ulp of the exact end
    assert (exact_lo - a) * 2**52 <= abs(exact_lo) and (b - exact_hi) * 2**52 <= abs(exact_hi)
    assert (a == exact_lo) is (exact_lo.denominator & (exact_lo.denominator - 1) == 0 and lo.p < 2**53)


def test_bisect_splits_the_widest_side() -> None:
    assert _bisect([_iv(0, 1), _iv(0, 4)]) == [[_iv(0, 1), _iv(0, 2)], [_iv(0, 1), _iv(2, 4)]]
    assert _bisect([_iv(0, 4), _iv(0, 1)]) == [[_iv(0, 2), _iv(0, 1)], [_iv(2, 4), _iv(0, 1)]]
    assert _bisect([_iv(-1, 1)]) == [[_iv(-1, 0)], [_iv(0, 1)]]


@pytest.mark.parametrize(
    "value, message",
    [
        (True, "W: True is not an exact rational"),
        (0.5, "W: 0.5 is not an exact rational"),
        (sp.Float(0.5), "W: 0.500000000000000 is not an exact rational"),
        (sp.sqrt(2), "W: sqrt(2) is not a rational number"),
        ("1/0", "W: '1/0' is not a rational number"),  # text read as a fraction, not parsed
        ("x + 1", "W: 'x + 1' is not a rational number"),
    ],
)
def test_exact_rational_rejects(value: object, message: str) -> None:
    with pytest.raises(ProofFailure) as exc:
        _exact_rational(value, "W")
    assert exc.value.kind is K.MALFORMED and str(exc.value) == message


def test_exact_rational_accepts() -> None:
    assert _exact_rational("1/3", "W") == sp.Rational(1, 3)
    assert _exact_rational(2, "W") == 2 and isinstance(_exact_rational(2, "W"), sp.Integer)


# ------------------------------------------------------------------ the other rules, case by case

y, a, w = sp.symbols("y a w", real=True)
xn = sp.Symbol("x", nonnegative=True)
n = sp.Symbol("n", integer=True)
nn = sp.Symbol("n", integer=True, nonnegative=True)
npos = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
f = sp.Function("f")
ONE = Certificate(terms=(Term((1,), None),))

# name: (claim, proof, hypotheses, (None if accepted, else the kind), the exact message)
RULE_CASES = {
    "certificate hypothesis a conjunction": (
        ge(x, 0),
        Certificate(terms=(Term((), "h"),)),
        {"h": sp.And(ge(x, 0), ge(y, 0))},
        K.MISMATCH,
        "hypothesis 'h' is not an inequality: (x >= 0) & (y >= 0)",
    ),
    "certificate of an equation": (
        sp.Eq(x, 1, evaluate=False),
        Certificate(),
        {},
        K.MISMATCH,
        "not an inequality: Eq(x, 1)",
    ),
    "certificate square factor": (
        ge(3 * x**2, 0),
        Certificate(terms=(Term((3, ("square", x)), None),)),
        {},
        None,
        "",
    ),
    "certificate square factor is not strict": (
        gt(x**2, 0),
        Certificate(terms=(Term((("square", x),), None),)),
        {},
        K.SIGN,
        "strict claim, but no strictly positive term in the certificate",
    ),
    "certificate square factor defined by a hypothesis": (
        ge(1 / x**2, 0),
        Certificate(terms=(Term((("square", 1 / x),), None),)),
        {"h": sp.Ne(x, 0)},
        None,
        "",
    ),
    "certificate square factor undefined": (
        ge(x**2, 0),
        Certificate(terms=(Term((("square", 1 / x),), None),)),
        {},
        K.UNDEFINED,
        "a squared factor: the denominator x must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    "certificate power of a non-strict hypothesis": (
        ge(x, 0),
        Certificate(terms=(Term((("power", "h", y),), None),)),
        {"h": ge(x, 0)},
        K.SIGN,
        "(x)^e needs the strict hypothesis 'h' > 0",
    ),
    "certificate power exponent undefined": (
        ge(x, 0),
        Certificate(terms=(Term((("power", "h", 1 / y),), None),)),
        {"h": gt(x, 0)},
        K.UNDEFINED,
        "an exponent: the denominator y must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    "certificate power is strict": (
        gt(x**y, 0),
        Certificate(terms=(Term((("power", "h", y),), None),)),
        {"h": gt(x, 0)},
        None,
        "",
    ),
    "certificate factors multiply": (
        ge(6 * x, 0),
        Certificate(terms=(Term((2, 3), "h"),)),
        {"h": ge(x, 0)},
        None,
        "",
    ),
    "certificate float": (
        ge(x**2 + sp.Float(0.5), 0),
        Certificate(squares=(x,)),
        {},
        K.UNDEFINED,
        "the float 0.500000000000000 is not exact: write a rational",
    ),
    "certificate sin": (
        ge(sp.sin(x) ** 2, 0),
        Certificate(squares=(sp.sin(x),)),
        {},
        K.MALFORMED,
        "the checker does not reason about sin",
    ),
    "identity piecewise by a hypothesis": (
        sp.Eq(sp.Piecewise((x, ge(x, 0)), (1, True)), x, evaluate=False),
        Identity(),
        {"h": ge(x, 0)},
        None,
        "",
    ),
    "identity piecewise, case unknown": (
        sp.Eq(sp.Piecewise((x, ge(x, 0)), (1, True)), x, evaluate=False),
        Identity(),
        {},
        K.RESIDUAL,
        "identity fails: lhs - rhs = -x + Piecewise((x, x >= 0), (1, True))",
    ),
    "identity piecewise, the other branch": (
        sp.Eq(sp.Piecewise((x, ge(x, 0)), (1, True)), 1, evaluate=False),
        Identity(),
        {"h": ge(x, 0)},
        K.RESIDUAL,
        "identity fails: lhs - rhs = x - 1",
    ),
    "iff q not a relation": (
        sp.Equivalent(ge(x, 0), sp.And(ge(x, 1), ge(y, 0))),
        Iff(ge(x, 0), Certificate(), Certificate()),
        {},
        K.MISMATCH,
        "Iff: (x >= 1) & (y >= 0) is not a relation",
    ),
    "iff p not a relation": (
        sp.Equivalent(sp.And(ge(x, 1), ge(y, 0)), ge(x, 0)),
        Iff(sp.And(ge(x, 1), ge(y, 0)), Certificate(), Certificate()),
        {},
        K.MISMATCH,
        "Iff: (x >= 1) & (y >= 0) is not a relation",
    ),
    "iff p is the second side": (
        sp.Equivalent(ge(x, 0), ge(2 * x, 0)),
        Iff(
            ge(2 * x, 0),
            Certificate(terms=(Term((sp.Rational(1, 2),), "left"),)),
            Certificate(terms=(Term((2,), "right"),)),
        ),
        {},
        None,
        "",
    ),
    "iff uses a hypothesis": (
        sp.Equivalent(ge(x, 0), ge(x + w, 0)),
        Iff(
            ge(x, 0),
            Certificate(terms=(Term((), "left"),), substitutions=("hw",)),
            Certificate(terms=(Term((), "right"),), substitutions=("hw",)),
        ),
        {"hw": sp.Eq(w, 0, evaluate=False)},
        None,
        "",
    ),
    "both uses a hypothesis": (
        sp.And(ge(x, 0), ge(2 * x, 0)),
        Both((Certificate(terms=(Term((), "h"),)), Certificate(terms=(Term((2,), "h"),)))),
        {"h": ge(x, 0)},
        None,
        "",
    ),
    "sign by assumptions, strict": (
        gt(xn, 0),
        SignByAssumptions(),
        {},
        K.SIGN,
        "sympy cannot decide x > 0 from the assumptions",
    ),
    "sign by assumptions, non-strict": (ge(xn, 0), SignByAssumptions(), {}, None, ""),
    "sign by assumptions, defined by a hypothesis": (
        gt(sp.Max(1, sp.log(x)), 0),
        SignByAssumptions(),
        {"h": gt(x, 0)},
        None,
        "",
    ),
    "induction: a plain integer from 0 needs a hypothesis": (
        ge(n**2, 0),
        Induction(n, Certificate(), Certificate(squares=(n + 1,))),
        {},
        K.UNCOVERED,
        "no hypothesis or domain gives n >= 0: the induction does not reach the point",
    ),
    "induction: a nonnegative integer from 1 needs a hypothesis": (
        ge(nn, 0),
        Induction(nn, ONE, Certificate(terms=(Term((), "IH"), Term((1,), None))), 1),
        {},
        K.UNCOVERED,
        "no hypothesis or domain gives n >= 1: the induction does not reach the point",
    ),
    "induction: a positive integer from 1": (
        ge(npos - 1, 0),
        Induction(npos, Certificate(), Certificate(terms=(Term((), "IH"), Term((1,), None))), 1),
        {},
        None,
        "",
    ),
    "induction: a positive integer from 2 needs a hypothesis": (
        ge(npos - 2, 0),
        Induction(npos, Certificate(), Certificate(terms=(Term((), "IH"), Term((1,), None))), 2),
        {},
        K.UNCOVERED,
        "no hypothesis or domain gives n >= 2: the induction does not reach the point",
    ),
    "induction: n_ge_start of a nonnegative n stays a relation": (
        ge(nn, 0),
        Induction(nn, Certificate(), Certificate(terms=(Term((), "n_ge_start"), Term((1,), None)))),
        {},
        None,
        "",
    ),
    "induction: a Forall over the positive integers from 1": (
        ge(f(npos), 0),
        Induction(
            npos,
            Certificate(terms=(Term((), "base"),)),
            Certificate(terms=(Term((), "IH"), Term((), "all"))),
            1,
        ),
        {"all": Forall(k, ge(f(k + 1) - f(k), 0), 1), "base": ge(f(1), 0)},
        None,
        "",
    ),
    "cases: a rational factor does not end the sign check": (
        ge(sp.Max(0, 2 * x * y), 0),
        Cases(x, Certificate(), Certificate()),
        {},
        K.SIGN,
        "cannot decide the sign of 2*x*y from the case x: ratio 2*y",
    ),
    "cases: the square of a positive hypothesis": (
        ge(sp.Max(0, a**2 * x) + f(x) ** 2, 0),
        Cases(
            x,
            Certificate(terms=(Term((("square", a),), "case"),), squares=(f(x),)),
            Certificate(squares=(f(x),)),
            positive=("ha",),
        ),
        {"ha": gt(a, 0)},
        None,
        "",
    ),
    "cases: a positive hypothesis among others": (
        ge(sp.Max(0, a * x) + f(x) ** 2, 0),
        Cases(
            x,
            Certificate(terms=(Term(("ha",), "case"),), squares=(f(x),)),
            Certificate(squares=(f(x),)),
            positive=("hy", "ha"),
        ),
        {"ha": gt(a, 0), "hy": gt(y, 0)},
        None,
        "",
    ),
    "cases: the non-negative case fails": (
        ge(sp.Max(0, x) - 1, 0),
        Cases(x, Certificate(), Certificate()),
        {},
        K.RESIDUAL,
        "case expr >= 0 (x): certificate does not match: m (B - A) - sum = x - 1",
    ),
    # the case hypotheses stay relations even when sympy could decide them
    "cases on a number": (
        ge(sp.Integer(2), 0),
        Cases(
            sp.Integer(2),
            Certificate(terms=(Term((), "case"),)),
            Contradiction(Certificate(terms=(Term((), "case"), Term((2,), None)))),
        ),
        {},
        None,
        "",
    ),
    "monotone: x_ge_a of a nonnegative x stays a relation": (
        ge(xn**2, 0),
        Monotone(
            f=xn**2, x=xn, a=0, domain=("lo",), derivative_proof=Certificate(terms=(Term((2,), "x_ge_a"),))
        ),
        {"lo": ge(xn, 0)},
        None,
        "",
    ),
    "monotone: f with a parameter": (
        ge(x + y**2, 0),
        Monotone(f=x + y**2, x=x, a=0, domain=("lo",), derivative_proof=ONE),
        {"lo": ge(x, 0)},
        K.SIGN,
        "f(0) = y**2 is not an exact rational >= 0",
    ),
    "monotone: a constant derivative stays a relation": (
        ge(x, 0),
        Monotone(f=x, x=x, a=0, domain=("lo",), derivative_proof=ONE),
        {"lo": ge(x, 0)},
        None,
        "",
    ),
    "apply: an image defined by a hypothesis": (
        ge(sp.Integer(1), 0),
        Apply(Obligation("one", "X", {}, ge(sp.Integer(1), 0), ONE), {a: 1 / y}, {}),
        {"h": sp.Ne(y, 0)},
        None,
        "",
    ),
    "apply: an undefined image": (
        ge(sp.Integer(1), 0),
        Apply(Obligation("one", "X", {}, ge(sp.Integer(1), 0), ONE), {a: 1 / y}, {}),
        {},
        K.UNDEFINED,
        "the image of a: the denominator y must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    "apply: a lemma of a conjunction is mapped, then refused": (
        sp.And(ge(y**2, 0), ge(2 * y**2, 0)),
        Apply(
            Obligation(
                "and",
                "X",
                {},
                sp.And(ge(a**2, 0), ge(2 * a**2, 0)),
                Both((Certificate(squares=(a,)), Certificate(terms=(Term((2, ("square", a)), None),)))),
            ),
            {a: y},
            {},
        ),
        {},
        K.MISMATCH,
        "not an inequality: (y**2 >= 0) & (2*y**2 >= 0)",
    ),
    # equations are compared as written (lhs - rhs): the mirrored equation is not matched
    "modus ponens: the equation as written": (
        sp.Eq(y, 1, evaluate=False),
        ModusPonens("imp", Certificate(terms=(Term((), "h"),))),
        {"imp": sp.Implies(ge(x, 0), sp.Eq(y, 1, evaluate=False)), "h": ge(x, 0)},
        None,
        "",
    ),
    "modus ponens: the mirrored equation": (
        sp.Eq(1, y, evaluate=False),
        ModusPonens("imp", Certificate(terms=(Term((), "h"),))),
        {"imp": sp.Implies(ge(x, 0), sp.Eq(y, 1, evaluate=False)), "h": ge(x, 0)},
        K.MISMATCH,
        "the implication gives Eq(y, 1), not Eq(1, y)",
    ),
}


@pytest.mark.parametrize("name", sorted(RULE_CASES))
def test_rule_outcome_is_exact(name: str) -> None:
    claim, proof, hyps, kind, message = RULE_CASES[name]
    assert outcome(claim, proof, hyps) == (kind is None, kind, message)


def test_a_plain_mapping_of_hypotheses_is_a_context() -> None:
    hyps = {"lo": ge(x, 0), "hi": le(x, 1)}
    IntervalBound(x + 1, {"x": (0, 1)}, "lo").verify(hyps, gt(x + 1, 0))  # no exception
    Certificate(terms=(Term((), "lo"),)).verify(hyps, ge(x, 0))
    with pytest.raises(ProofFailure) as exc:
        Certificate(terms=(Term((), "lo"),)).verify({}, ge(x, 0))
    assert exc.value.kind is K.UNKNOWN and str(exc.value) == "unknown hypothesis 'lo' (have [])"


def test_context_relations_and_hidden_names() -> None:
    ctx = Context(
        {"all": Forall(k, ge(f(k), 0)), "eq": sp.Eq(x, 1, evaluate=False), "ne": sp.Ne(x, 2), "h": gt(x, 3)}
    )
    assert list(ctx.relations()) == [("h", x - 3, True)]
    shown = Context({"h": gt(x, 0)}, {"h": "hidden before", "g": "hidden"})
    assert shown.hidden == {"g": "hidden"}
    assert shown.lookup("h") == gt(x, 0)


# ------------------------------------------------------------------ definedness on an interval

HY = {"hy": gt(y**2 - 2, 0)}
# (expr, a, b, hypotheses, None if defined on [a, b], else the message)
ON_INTERVAL = [
    (1 / y, 0, sp.oo, {"h": gt(y, 0)}, None),  # no x in it: the hypotheses decide
    (1 / y, 0, sp.oo, {}, "the denominator y must be nonzero for every x in [0, oo), which is not shown"),
    (sp.log(2 - x), 0, 1, {}, None),  # from the right end: x = 1 - s
    (
        sp.log(2 - x),
        0,
        sp.oo,
        {},
        "the argument of log(2 - x) must be > 0 for every x in [0, oo), which is not shown",
    ),
    (
        sp.log(x - 2),
        0,
        1,
        {},
        "the argument of log(x - 2) must be > 0 for every x in [0, 1], which is not shown",
    ),
    # expanded, the argument is 1 - x: decided from the right end only, and only expanded
    (sp.log((x - 3) * (x + 3) - x**2 + 10 - x), 0, sp.Rational(1, 2), {}, None),
    # only the expanded form 1 is decided; only the product forms are decided
    (sp.log((x - 1) * (x + 1) - x**2 + 2), 0, sp.oo, {}, None),
    (sp.log((y**2 - 2) * (x + 1)), 0, sp.oo, HY, None),
    (sp.log((y**2 - 2) * (2 - x)), 0, 1, HY, None),
    (
        sp.log((y**2 - 2) * (2 - x)),
        0,
        sp.oo,
        HY,
        "the argument of log((2 - x)*(y**2 - 2)) must be > 0 for every x in [0, oo), which is not shown",
    ),
]


@pytest.mark.parametrize(
    "expr, lo, hi, hyps, message", ON_INTERVAL, ids=[str(i) for i in range(len(ON_INTERVAL))]
)
def test_defined_on_an_interval(
    expr: sp.Expr, lo: object, hi: object, hyps: dict, message: str | None
) -> None:
    if message is None:
        _require_defined_on_interval(expr, x, sp.sympify(lo), sp.sympify(hi), Context(hyps))
        return
    with pytest.raises(ProofFailure) as exc:
        _require_defined_on_interval(expr, x, sp.sympify(lo), sp.sympify(hi), Context(hyps))
    assert exc.value.kind is K.UNDEFINED and str(exc.value) == message


# ------------------------------------------------------------------ the prover's depth budget

u, v = sp.symbols("u v", real=True)
DEEP = Context({"hy": gt(y, 0), "hz": gt(z, 0), "ha": sp.Ne(a, 0), "hd": sp.Ne(a + u * v, 0)})


def _nested(inner: sp.Expr, levels: int) -> sp.Expr:
    """sqrt(y sqrt(y ... sqrt(y inner))): each level costs two recursion steps (power, product)."""
    for _ in range(levels):
        inner = sp.Pow(y * inner, sp.Rational(1, 2))
    return inner


@pytest.mark.parametrize(
    "inner, deepest",
    [
        (z, 2),  # a hypothesis states z > 0 at any depth; the products stop at depth 5
        ((1 + u * v / a) ** 2, 1),  # an even power asks nonzero of 1 + uv/a = (a + uv)/a: two more steps
        ((1 + u * v / a) ** -2, 1),
        ((-1 - u * v / a) ** 2, 0),  # the quotient -1/a is flipped first: one step more
    ],
    ids=["z", "square", "inverse square", "negated square"],
)
def test_the_prover_gives_up_exactly_at_depth_five(inner: sp.Expr, deepest: int) -> None:
    assert [_holds("positive", _nested(inner, level), DEEP) for level in range(4)] == [
        level <= deepest for level in range(4)
    ]


# ------------------------------------------------------------------ novikoff/certificates/checker.py


def test_geometric_margin_weights_beyond_float_precision() -> None:
    # positives (s, 0, 1), s in [0, N]; negatives (t, u, -1), u in [-A, M - A]: the closest
    # points are (t, 0, +-1), v = (0, 0, 2); alpha = ((N - t)/N, t/N), beta = ((M - A)/M, A/M).
    # Over q = N M the integer weights are about 2^62: exact only in integer arithmetic.
    big_n, big_m, t, big_a = 2**31 - 1, 2**31 - 19, 12345, 67891
    ds = Dataset.from_arrays(
        [[0, 0, 1], [big_n, 0, 1], [t, -big_a, -1], [t, big_m - big_a, -1]], [1, 1, -1, -1]
    )
    geo = GeometricMarginCertificate(
        alpha=RationalVector([big_n - t, t], big_n),
        beta=RationalVector([big_m - big_a, big_a], big_m),
        v=RationalVector([0, 0, 2]),
        distance2=Fraction(4),
    )
    check_geometric_margin(ds, geo)  # accepted: no exception
    with pytest.raises(CertificateError, match="v is not the difference of the hull points"):
        check_geometric_margin(
            ds, dataclasses.replace(geo, alpha=RationalVector([big_n - t - 1, t + 1], big_n))
        )


def test_the_normal_form_factors_a_logarithms_argument() -> None:
    # for a real x, log((x + 1)^2 / (x + 1)) is log(x + 1) only after cancelling: the
    # logarithm rules alone do not split a log of a quotient of non-positive factors
    assert core._is_zero(sp.log((x**2 + 2 * x + 1) / (x + 1)) - sp.log(x + 1))


def test_the_normal_form_expands_after_combining_powers() -> None:
    ap, p = sp.Symbol("a", positive=True), sp.Symbol("p", real=True)
    assert core._is_zero(ap**p * (ap + 1) - ap ** (p + 1) - ap**p)  # zero only once expanded
    assert not core._is_zero(ap**p * (ap + 1) - ap ** (p + 1))


def test_a_side_condition_met_twice_is_listed_once() -> None:
    assert core._side_conditions(1 / x + 1 / x**3) == [("nonzero", x, "the denominator x")]
