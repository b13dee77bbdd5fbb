"""The proof checker rejects proofs of FALSE claims, for the right reason.

Each case is a proof object a careless or hostile author could write, of a claim that
is false somewhere in its domain (the comment names a counterexample point). Every
rule of :mod:`novikoff.proofs.core` has at least two. The test asserts the kind of
the failure (a crash is not a rejection: a crash is a ``malformed`` failure, and no
case here expects that kind).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy as sp

import novikoff.proofs.core as core
from novikoff.proofs.core import (
    Apply,
    Both,
    Cases,
    Certificate,
    Chain,
    Context,
    Contradiction,
    FailureKind,
    Forall,
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
    Step,
    Term,
    check_obligation,
    ge,
    gt,
    le,
)
from novikoff.proofs.core.admission import expand_sums as _expand_sums
from novikoff.proofs.core.language import screen_formula as _screen_formula
from novikoff.proofs.core.monotone import _require_defined_on_interval

x, y, a = sp.symbols("x y a", real=True)
n = sp.Symbol("n", integer=True)
npos = sp.Symbol("n", integer=True, positive=True)
xpos = sp.Symbol("x", positive=True)
f = sp.Function("f")
K = FailureKind


@dataclass(frozen=True)
class Case:
    rule: str
    why: str  # the trick, and a point where the claim is false
    obligation: Obligation
    kind: FailureKind
    reason: str  # a fragment the failure message must contain


def ob(name: str, hyps: dict, claim: sp.Basic, proof: object) -> Obligation:
    return Obligation(name=name, spec_id="X", hypotheses=hyps, claim=claim, proof=proof)  # type: ignore[arg-type]


CASES = [
    # ------------------------------------------------------------------ Monotone
    Case(
        "Monotone",
        "the issue's example: the derivative proof uses x >= 1, a fact about the point (false at x = 1)",
        ob(
            "(x-1)^2 >= 1/2 for x >= 1",
            {"x_nonneg": ge(x, 0), "x_ge_1": ge(x, 1)},
            ge((x - 1) ** 2 - sp.Rational(1, 2), 0),
            Monotone(
                f=(x - 1) ** 2 - sp.Rational(1, 2),
                x=x,
                a=sp.Integer(0),
                domain=("x_nonneg",),
                derivative_proof=Certificate(terms=(Term((2,), "x_ge_1"),)),
            ),
        ),
        K.SCOPE,
        "Monotone quantifies over",
    ),
    Case(
        "Monotone",
        "f = 1/(1 - x) has f(0) = 1 and f' = 1/(1-x)^2 >= 0, but a pole at 1 (false at x = 2)",
        ob(
            "1/(1 - x) >= 0 for x >= 0",
            {"x_nonneg": ge(x, 0)},
            ge(1 / (1 - x), 0),
            Monotone(
                f=1 / (1 - x),
                x=x,
                a=sp.Integer(0),
                domain=("x_nonneg",),
                derivative_proof=Certificate(squares=(1 / (1 - x),)),
            ),
        ),
        K.UNDEFINED,
        "the denominator 1 - x must be nonzero",  # the claim itself, checked on entry
    ),
    Case(
        "Monotone",
        "the interval [-1, x] leaves the declared domain x > 0, where sympy would reason with x > 0",
        ob(
            "x - 1/2 >= 0 for x >= -1",
            {"x_ge": ge(xpos, -1)},
            ge(xpos + 1, 0),
            Monotone(
                f=xpos + 1, x=xpos, a=sp.Integer(-1), domain=("x_ge",), derivative_proof=SignByAssumptions()
            ),
        ),
        K.DOMAIN,
        "declared",
    ),
    Case(
        "Monotone",
        "no hypothesis puts the point in [0, oo) (false at x = -3)",
        ob(
            "x + 2 >= 0",
            {},
            ge(x + 2, 0),
            Monotone(
                f=x + 2,
                x=x,
                a=sp.Integer(0),
                domain=(),
                derivative_proof=Certificate(terms=(Term((1,), None),)),
            ),
        ),
        K.UNCOVERED,
        "states x >= 0",
    ),
    Case(
        "Monotone",
        "a look-alike symbol: the proof's x is declared positive, the claim's x is real (false at x = -1)",
        ob(
            "x >= 0",
            {"x_ge": ge(x, 0)},
            ge(x**3 + x, 0),
            Monotone(
                f=xpos**3 + xpos,
                x=xpos,
                a=sp.Integer(0),
                domain=("x_ge",),
                derivative_proof=SignByAssumptions(),
            ),
        ),
        K.MISMATCH,
        "not the claim's difference",
    ),
    # ------------------------------------------------------------------ Induction
    Case(
        "Induction",
        "the step uses n >= 10, a fact about the point, for every n >= 0 (false at n = 10)",
        ob(
            "n <= 0 for n >= 10",
            {"big": ge(n, 10), "n_nonneg": ge(n, 0)},
            le(n, 0),
            Induction(
                n,
                base=Certificate(),
                step=Certificate(
                    terms=(Term((sp.Rational(11, 10),), "IH"), Term((sp.Rational(1, 10),), "big"))
                ),
            ),
        ),
        K.SCOPE,
        "Induction quantifies over",
    ),
    Case(
        "Induction",
        "induction from 1 says nothing about n = 0 or below (false at n = 0)",
        ob(
            "n >= 1 for every integer n",
            {},
            ge(n, 1),
            Induction(
                n, start=1, base=Certificate(), step=Certificate(terms=(Term((), "IH"), Term((1,), None)))
            ),
        ),
        K.UNCOVERED,
        "does not reach the point",
    ),
    Case(
        "Induction",
        "the step relies on n > 0 from the symbol's domain, but the induction starts at 0 (false at n = 1)",
        ob(
            "(n - 1)^2 >= 1/2 for positive integers n",
            {},
            ge((npos - 1) ** 2, sp.Rational(1, 2)),
            Induction(
                npos,
                start=0,
                base=Certificate(terms=(Term((sp.Rational(1, 2),), None),)),
                step=SignByAssumptions(),
            ),
        ),
        K.DOMAIN,
        "declared",
    ),
    Case(
        "Induction",
        "a recursion stated for the point only, used at every step (false at n = 2: f(2) = 5)",
        ob(
            "f(n) <= n for n >= 0",
            {"n_nonneg": ge(n, 0), "f0": sp.Eq(f(0), 0), "rec": sp.Eq(f(n + 1), f(n) + 1)},
            le(f(n), n),
            Induction(
                n,
                base=Certificate(substitutions=("f0",)),
                step=Certificate(substitutions=("rec",), terms=(Term((), "IH"),)),
            ),
        ),
        K.SCOPE,
        "'rec'",
    ),
    Case(
        "Induction",
        "a Forall over positive j (j >= 1) instantiated at 0: f(1) = f(0) + 1 is not given (false at n = 1)",
        ob(
            "f(n) <= n for n >= 0",
            {
                "n_nonneg": ge(n, 0),
                "f0": sp.Eq(f(0), 0),
                "rec": Forall(npos, sp.Eq(f(npos + 1), f(npos) + 1)),
            },
            le(f(n), n),
            Induction(
                n,
                base=Certificate(substitutions=("f0",)),
                step=Certificate(substitutions=("rec",), terms=(Term((), "IH"),)),
            ),
        ),
        K.MISMATCH,
        "not an equality",
    ),
    # ------------------------------------------------------------------ Certificate
    Case(
        "Certificate",
        "a 'square' of an imaginary number: I^2 = -1 (false everywhere)",
        ob("-1 >= 0", {}, ge(sp.Integer(-1), 0), Certificate(squares=(sp.I,))),
        K.UNDEFINED,
        "not a real number",
    ),
    Case(
        "Certificate",
        "sqrt(x)^2 = x is not a square of a real for x < 0 (false at x = -1)",
        ob("x >= 0", {}, ge(x, 0), Certificate(squares=(sp.sqrt(x),))),
        K.UNDEFINED,
        "must be >= 0",
    ),
    Case(
        "Certificate",
        "a non-strict multiplier: 0 * (claim) = 0 (false at y = -1)",
        ob("y >= 0", {"x_nonneg": ge(x, 0)}, ge(y, 0), Certificate(multiplier=("x_nonneg",))),
        K.SIGN,
        "not strict",
    ),
    Case(
        "Certificate",
        "a negative coefficient (false at x = 1)",
        ob(
            "-x >= 0 for x >= 0",
            {"x_nonneg": ge(x, 0)},
            ge(-x, 0),
            Certificate(terms=(Term((-1,), "x_nonneg"),)),
        ),
        K.SIGN,
        "not nonnegative",
    ),
    Case(
        "Certificate",
        "division by a hypothesis that may be zero: 1/x with x >= 0 only (false at x = 0: undefined)",
        ob(
            "1/x >= 0 for x >= 0",
            {"x_nonneg": ge(x, 0)},
            ge(1 / x, 0),
            Certificate(terms=(Term((("inverse", "x_nonneg"),), None),)),
        ),
        K.UNDEFINED,
        "denominator x",
    ),
    Case(
        "Certificate",
        "a strict claim from non-strict terms (false at x = 0)",
        ob("x > 0 for x >= 0", {"x_nonneg": ge(x, 0)}, gt(x, 0), Certificate(terms=(Term((), "x_nonneg"),))),
        K.SIGN,
        "strict claim",
    ),
    # ------------------------------------------------------------------ Identity
    Case(
        "Identity",
        "(x^2 - 1)/(x - 1) = x + 1 as rational functions, undefined at x = 1",
        ob("(x^2-1)/(x-1) = x + 1", {}, sp.Eq((x**2 - 1) / (x - 1), x + 1, evaluate=False), Identity()),
        K.UNDEFINED,
        "denominator x - 1",
    ),
    Case(
        "Identity",
        "log(x y) = log x + log y for reals (false at x = y = -1)",
        ob(
            "log(xy) = log x + log y",
            {},
            sp.Eq(sp.log(x * y), sp.log(x) + sp.log(y), evaluate=False),
            Identity(),
        ),
        K.UNDEFINED,
        "argument of log",
    ),
    Case(
        "Identity",
        "a substitution by an inequality (false at x = 0, y = 1)",
        ob("x = y", {"h": ge(x, y)}, sp.Eq(x, y, evaluate=False), Identity(substitutions=("h",))),
        K.MISMATCH,
        "not an equality",
    ),
    # ------------------------------------------------------------------ Interval / IntervalBound
    Case(
        "Interval",
        "the box [1, 2] is not what the hypotheses give (x >= 0): false at x = 0",
        ob(
            "x - 1 >= 0 for 0 <= x <= 2",
            {"lo": ge(x, 0), "hi": le(x, 2)},
            ge(x - 1, 0),
            Interval({"x": (1, 2)}, "wrong box"),
        ),
        K.UNCOVERED,
        "does not cover",
    ),
    Case(
        "Interval",
        "1/x >= 1/2 on [0, 2]: interval arithmetic gives [1/2, oo] but 1/x is undefined at 0",
        ob(
            "1/x >= 1/2 on [0, 2]",
            {"lo": ge(x, 0), "hi": le(x, 2)},
            ge(1 / x, sp.Rational(1, 2)),
            Interval({"x": (0, 2)}, "x in [0, 2]"),
        ),
        K.UNDEFINED,
        "denominator",
    ),
    Case(
        "IntervalBound",
        "the bounded expression is not the claim's (the claim is false at x = 0)",
        ob(
            "x - 1/2 >= 0 on [0, 1]",
            {"lo": ge(x, 0), "hi": le(x, 1)},
            ge(x - sp.Rational(1, 2), 0),
            IntervalBound(x + 1, {"x": (0, 1)}, "x in [0, 1]"),
        ),
        K.MISMATCH,
        "not the claim's difference",
    ),
    Case(
        "IntervalBound",
        "a float in the claim is taken as exact by nobody: 0.1 is not 1/10",
        ob(
            "x >= 0.1 on [1, 2]",
            {"lo": ge(x, 1), "hi": le(x, 2)},
            ge(x, sp.Float(0.1)),
            Interval({"x": (1, 2)}, "box"),
        ),
        K.UNDEFINED,
        "not exact",
    ),
    Case(
        "Interval",
        "the claim is false on part of the box (x = 0)",
        ob(
            "x - 1/2 >= 0 on [0, 1]",
            {"lo": ge(x, 0), "hi": le(x, 1)},
            ge(x - sp.Rational(1, 2), 0),
            Interval({"x": (0, 1)}, "x in [0, 1]"),
        ),
        K.COUNTEREXAMPLE,
        "counterexample box",
    ),
    # ------------------------------------------------------------------ Chain
    Case(
        "Chain",
        "a step used before it is proved (false at x = 0)",
        ob(
            "x > 0",
            {},
            gt(x, 0),
            Chain(
                steps=(
                    Step("first", gt(x, 0), Certificate(terms=(Term((), "second"),))),
                    Step("second", gt(x, 0), Certificate(terms=(Term((), "first"),))),
                ),
                final=Certificate(terms=(Term((), "first"),)),
            ),
        ),
        K.UNKNOWN,
        "'second'",
    ),
    Case(
        "Chain",
        "a step whose own proof fails taints the chain (false at x = -1)",
        ob(
            "x^3 >= 0",
            {},
            ge(x**3, 0),
            Chain(
                steps=(Step("cube", ge(x**3, 0), Certificate(squares=(x,))),),
                final=Certificate(terms=(Term((), "cube"),)),
            ),
        ),
        K.RESIDUAL,
        "does not match",
    ),
    # ------------------------------------------------------------------ Cases
    Case(
        "Cases",
        "a split on a non-real expression does not cover the reals (I >= 0 or I < 0 is nonsense)",
        ob("x >= 0", {}, ge(x, 0), Cases(sp.I * x, nonneg=Certificate(), neg=Certificate())),
        K.UNDEFINED,
        "not a real number",
    ),
    Case(
        "Cases",
        "a split on sqrt(x), undefined for x < 0 (false at x = -1)",
        ob(
            "x >= 0",
            {},
            ge(x, 0),
            Cases(sp.sqrt(x), nonneg=Certificate(squares=(sp.sqrt(x),)), neg=Certificate()),
        ),
        K.UNDEFINED,
        "must be >= 0",
    ),
    Case(
        "Cases",
        "Max(0, -x) rewritten with a negative multiple of the split (false at x = 1)",
        ob(
            "Max(0, -x) >= x",
            {},
            ge(sp.Max(0, -x), x),
            Cases(x, nonneg=Certificate(), neg=Certificate()),
        ),
        K.SIGN,
        "cannot decide the sign",
    ),
    # ------------------------------------------------------------------ Contradiction
    Case(
        "Contradiction",
        "consistent hypotheses give no contradiction (the claim is false at x = 0)",
        ob(
            "x >= 1 for x >= 0",
            {"x_nonneg": ge(x, 0)},
            ge(x, 1),
            Contradiction(Certificate(terms=(Term((), "x_nonneg"),))),
        ),
        K.RESIDUAL,
        "no contradiction",
    ),
    Case(
        "Contradiction",
        "0 > 0 from a non-strict hypothesis (false at x = 0, y = 5)",
        ob(
            "y <= 1 for x >= 0, -x >= 0",
            {"p": ge(x, 0), "q": ge(-x, 0)},
            le(y, 1),
            Contradiction(Certificate(terms=(Term((), "p"), Term((), "q")))),
        ),
        K.SIGN,
        "strict claim",
    ),
    # the Apply cases follow, after the lemmas they use
]

# a lemma proved for positive y: y >= 0 (by the domain)
_y_pos = sp.Symbol("y", positive=True)
LEMMA = Obligation("y > 0 for positive y", "X", {}, gt(_y_pos, 0), SignByAssumptions())
_x_sq = Obligation("x^2 >= 0", "X", {}, ge(x**2, 0), Certificate(squares=(x,)))

CASES += [
    Case(
        "Apply",
        "a lemma about positive y applied at y = x - 1 for an arbitrary real x (false at x = 0)",
        ob("x - 1 > 0", {}, gt(x - 1, 0), Apply(LEMMA, {_y_pos: x - 1}, {})),
        K.DOMAIN,
        "not known of its image",
    ),
    Case(
        "Apply",
        "instantiating a subexpression instead of a symbol: x^2 := -1 (false everywhere)",
        ob("-1 >= 0", {}, ge(sp.Integer(-1), 0), Apply(_x_sq, {x**2: sp.Integer(-1)}, {})),
        K.MALFORMED,
        "at symbols",
    ),
    Case(
        "Apply",
        "the lemma proves another claim (x^2 >= 0 is not x^2 >= 1; false at x = 0)",
        ob("x^2 >= 1", {}, ge(x**2, 1), Apply(_x_sq, {}, {})),
        K.MISMATCH,
        "the lemma gives",
    ),
    # ------------------------------------------------------------------ SignByAssumptions
    Case(
        "SignByAssumptions",
        "a real symbol carries no sign (false at x = -1)",
        ob("x >= 0", {}, ge(x, 0), SignByAssumptions()),
        K.SIGN,
        "cannot decide",
    ),
    Case(
        "SignByAssumptions",
        "a symbol declared without real=True may be complex",
        ob("z^2 >= 0", {}, ge(sp.Symbol("z") ** 2, 0), SignByAssumptions()),
        K.UNDEFINED,
        "not declared real",
    ),
    Case(
        "SignByAssumptions",
        "positivity of 1/x for positive x does not make x - 1/x nonnegative (false at x = 1/2)",
        ob("x - 1/x >= 0", {}, ge(xpos - 1 / xpos, 0), SignByAssumptions()),
        K.SIGN,
        "cannot decide",
    ),
    # ------------------------------------------------------------------ Iff, Both, ModusPonens
    Case(
        "Iff",
        "only one direction holds: x >= 1 => x >= 0, not back (false at x = 1/2)",
        ob(
            "x >= 1 <=> x >= 0",
            {},
            sp.Equivalent(ge(x, 1), ge(x, 0), evaluate=False),
            Iff(
                p=ge(x, 1),
                forward=Certificate(terms=(Term((), "left"), Term((1,), None))),
                backward=Certificate(terms=(Term((), "right"),)),
            ),
        ),
        K.RESIDUAL,
        "<=",
    ),
    Case(
        "Iff",
        "the named side is not part of the equivalence",
        ob(
            "x >= 1 <=> x >= 0",
            {},
            sp.Equivalent(ge(x, 1), ge(x, 0), evaluate=False),
            Iff(p=ge(x, 2), forward=Certificate(), backward=Certificate()),
        ),
        K.MISMATCH,
        "is not a side",
    ),
    Case(
        "Both",
        "one conjunct false (x >= 0 and x^2 >= 0; false at x = -1)",
        ob(
            "x >= 0 & x^2 >= 0",
            {},
            sp.And(ge(x, 0), ge(x**2, 0), evaluate=False),
            Both((Certificate(squares=(x,)), Certificate(squares=(x,)))),
        ),
        K.RESIDUAL,
        "conjunct",
    ),
    Case(
        "Both",
        "fewer proofs than conjuncts",
        ob(
            "x^2 >= 0 & x >= 0",
            {},
            sp.And(ge(x**2, 0), ge(x, 0), evaluate=False),
            Both((Certificate(squares=(x,)),)),
        ),
        K.MISMATCH,
        "one proof per conjunct",
    ),
    Case(
        "ModusPonens",
        "the premise of the implication is not proved (x >= 1 => y >= 0; false at x = 0, y = -1)",
        ob(
            "y >= 0",
            {"imp": sp.Implies(ge(x, 1), ge(y, 0), evaluate=False), "x_nonneg": ge(x, 0)},
            ge(y, 0),
            ModusPonens("imp", Certificate(terms=(Term((), "x_nonneg"),))),
        ),
        K.RESIDUAL,
        "premise",
    ),
    Case(
        "ModusPonens",
        "the implication gives another conclusion (false at y = 1/2)",
        ob(
            "y >= 1",
            {"imp": sp.Implies(ge(x, 1), ge(y, 0), evaluate=False), "x_ge_1": ge(x, 1)},
            ge(y, 1),
            ModusPonens("imp", Certificate(terms=(Term((), "x_ge_1"),))),
        ),
        K.MISMATCH,
        "the implication gives",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rule}:{c.obligation.name}")
def test_false_claim_is_rejected_for_its_reason(case: Case) -> None:
    result = check_obligation(case.obligation)
    assert not result.ok, f"{case.rule} accepted a false claim: {case.why}"
    assert result.kind is case.kind, (result.kind, result.message)
    assert case.reason in result.message, result.message


def test_every_rule_has_at_least_two_false_claims() -> None:
    rules = [c.rule for c in CASES]
    for rule in (
        "Identity",
        "Certificate",
        "Monotone",
        "Induction",
        "Chain",
        "Cases",
        "Contradiction",
        "Apply",
        "SignByAssumptions",
        "Iff",
        "Both",
        "ModusPonens",
    ):
        assert rules.count(rule) >= 2, rule
    assert rules.count("Interval") + rules.count("IntervalBound") >= 2


def test_the_corrected_proofs_of_true_neighbours_pass() -> None:
    """The rejections are not blanket: the same rules accept the true versions."""
    good = [
        ob(  # the claim made true: (x-1)^2 >= 0, derivative 2(x - 1) >= 0 on [1, x]
            "(x-1)^2 >= 0 for x >= 1",
            {"x_ge_1": ge(x, 1)},
            ge((x - 1) ** 2, 0),
            Monotone(
                f=(x - 1) ** 2,
                x=x,
                a=sp.Integer(1),
                domain=("x_ge_1",),
                derivative_proof=Certificate(terms=(Term((2,), "x_ge_a"),)),
            ),
        ),
        ob(  # the recursion as a Forall premise
            "f(n) <= n for n >= 0",
            {
                "n_nonneg": ge(n, 0),
                "f0": sp.Eq(f(0), 0),
                "rec": Forall(
                    sp.Symbol("j", integer=True, nonnegative=True),
                    sp.Eq(
                        f(sp.Symbol("j", integer=True, nonnegative=True) + 1),
                        f(sp.Symbol("j", integer=True, nonnegative=True)) + 1,
                    ),
                ),
            },
            le(f(n), n),
            Induction(
                n,
                base=Certificate(substitutions=("f0",)),
                step=Certificate(substitutions=("rec",), terms=(Term((), "IH"),)),
            ),
        ),
        ob(
            "(x^2-1)/(x-1) = x + 1 for x > 1",
            {"x_gt_1": gt(x, 1)},
            sp.Eq((x**2 - 1) / (x - 1), x + 1, evaluate=False),
            Identity(),
        ),
        ob(
            "1/x >= 1/2 on [1, 2]",
            {"lo": ge(x, 1), "hi": le(x, 2)},
            ge(1 / x, sp.Rational(1, 2)),
            Interval({"x": (1, 2)}, "x in [1, 2]"),
        ),
        ob("y - 1 > 0 for y >= 2", {"y_ge_2": ge(x, 2)}, gt(x - 1, 0), Apply(LEMMA, {_y_pos: x - 1}, {})),
    ]
    for o in good:
        result = check_obligation(o)
        assert result.ok, (o.name, result.message)


# ====================================================================== the six classes
# A hostile round's proofs of false claims, by the class of checker defect each used,
# and false claims of the same classes written here; every one was accepted before the
# checker got its closed language (module docstring of novikoff.proofs.core), except
# where the comment says otherwise. Each names a point where the claim is false or
# undefined.

_k = sp.Symbol("k", integer=True)
_m = sp.Symbol("m", integer=True)
_j = sp.Symbol("j", integer=True, nonnegative=True)
_n = sp.Symbol("n", integer=True, nonnegative=True)
_i_pos = sp.Symbol("i", integer=True, positive=True)
g, h = sp.Function("g"), sp.Function("h")
_M = sp.MatrixSymbol("M", 2, 2)
_A = sp.IndexedBase("A")
_q_imaginary = sp.Function("q", imaginary=True)
_w_complex = sp.Function("w", complex=True)
_r_real = sp.Function("r", real=True)
HALF, TINY = sp.Rational(1, 2), sp.Rational(1, 10**45)
ONE_STEP = Certificate(terms=(Term((1,), None),))  # proves a constant 1 >= 0


@dataclass(frozen=True)
class Hole:
    klass: str  # bound, smooth, real, interval, defined, sums
    why: str
    obligation: Obligation
    kind: FailureKind
    reason: str


_LEMMA_SUM = Obligation(
    "sum of a constant", "X", {"m_nonneg": ge(_m, 0)}, sp.Eq(sp.Sum(x, (_k, 1, _m)), _m * x), Identity()
)
_M_NONNEG = {"m_nonneg": Certificate(terms=(Term((), "m_nonneg"),))}
_K_NONNEG_CONTRADICTS_CASE = Contradiction(Certificate(terms=(Term((), "case"), Term((), "k_nonneg"))))


def _jump(f_expr: sp.Expr, proof: object) -> Obligation:
    return ob(
        f"{f_expr} >= 0 for x >= 0",
        {"x0": ge(x, 0)},
        ge(f_expr, 0),
        Monotone(f=f_expr, x=x, a=sp.Integer(0), domain=("x0",), derivative_proof=proof),  # type: ignore[arg-type]
    )


def _box(claim: sp.Basic, lo: object, hi: object) -> Obligation:
    """``claim`` by Interval on the box [lo, hi] (ends as rationals or their text)."""
    lo_q, hi_q = (sp.Rational(end) for end in (lo, hi))
    return ob(
        f"{claim} on [{lo}, {hi}]",
        {"lo": ge(x, lo_q), "hi": le(x, hi_q)},
        claim,
        Interval({"x": (lo, hi)}, "box"),
    )


HOLES = [
    # -------------------------------------------------- 1. bound variables
    Hole(
        "bound",
        "the round's example: g(k) = 0 at one point k rewritten under the sum over k "
        "(false at n = 0 with g(0) = 1, k = 5)",
        ob("sum g = 0", {"e": sp.Eq(g(_k), 0)}, sp.Eq(sp.Sum(g(_k), (_k, 0, _n)), 0), Identity(("e",))),
        K.MALFORMED,
        "the sum Sum(g(k), (k, 0, n)) has no closed form",
    ),
    Hole(
        "bound",
        "Cases on the free k rewrites Max(0, k) under the sum over k (the term k = -1 is 0 vs -1: "
        "false for every n)",
        ob(
            "sum Max(0, k) = sum k",
            {"k_nonneg": ge(_k, 0)},
            sp.Eq(sp.Sum(sp.Max(0, _k), (_k, -1, _n)), sp.Sum(_k, (_k, -1, _n))),
            Cases(_k, nonneg=Identity(), neg=_K_NONNEG_CONTRADICTS_CASE),
        ),
        K.MALFORMED,
        "the sum Sum(Max(0, k), (k, -1, n)) has no closed form",
    ),
    Hole(
        "bound",
        "a Forall instantiated at n captures the n bound in its sum: sum_{n=j}^{j+1} (n - j) = 1 "
        "becomes 0, so f(j+1) <= f(j) + 1 reads f(n+1) <= f(n) (false at n = 1, f(j) = j)",
        ob(
            "f(n) <= 0",
            {
                "f0": sp.Eq(f(0), 0),
                "rec": Forall(_j, le(f(_j + 1), f(_j) + sp.Sum(_n - _j, (_n, _j, _j + 1)))),
            },
            le(f(_n), 0),
            Induction(
                _n,
                base=Certificate(substitutions=("f0",)),
                step=Certificate(terms=(Term((), "IH"), Term((), "rec"))),
            ),
        ),
        K.MALFORMED,
        "hypothesis 'rec': the checker's language has no Sum",
    ),
    Hole(
        "bound",
        "a lemma about sum_{k=1}^{m} x applied at x := k: the k is captured (false at m = 2, k = 0)",
        ob(
            "sum k = m k",
            {"m_nonneg": ge(_m, 0)},
            sp.Eq(sp.Sum(_k, (_k, 1, _m)), _m * _k),
            Apply(_LEMMA_SUM, {x: _k}, _M_NONNEG),
        ),
        K.MISMATCH,
        "the lemma gives",
    ),
    Hole(
        "bound",
        "the side-condition prover rewrote k = 5 + s under the sum over k; expanded, the sum is "
        "-9 and sqrt(-9) is not real (rejected before too, as undefined)",
        ob(
            "sqrt(sum) >= 0",
            {"k5": ge(_k, 5)},
            ge(sp.sqrt(sp.Sum(_k - 5, (_k, 0, 1))), 0),
            Certificate(terms=(Term((("square", sp.Integer(0)),), None),)),
        ),
        K.UNDEFINED,
        "I is not a real number",
    ),
    # -------------------------------------------------- 2. non-differentiable functions
    Hole(
        "smooth",
        "the round's example: a Piecewise with a jump, differentiated branch by branch (false at x = 1)",
        _jump(sp.Piecewise((1, x < 1), (-1, True)), Certificate()),
        K.MALFORMED,
        "but Piecewise((1, x < 1), (-1, True)) (Piecewise) may not be differentiable in x",
    ),
    Hole(
        "smooth",
        "a jump of slope 1 on both sides: f(0) = 0, f' = 1 (false at x = 1)",
        _jump(sp.Piecewise((x, x < 1), (x - 2, True)), ONE_STEP),
        K.MALFORMED,
        "(Piecewise) may not be differentiable in x",
    ),
    Hole(
        "smooth",
        "-KroneckerDelta(x, 1): f(0) = 0, f' 'is' 0 (false at x = 1; rejected before, as a residual)",
        _jump(-sp.KroneckerDelta(x, 1), Certificate()),
        K.MALFORMED,
        "(KroneckerDelta) may not be differentiable in x",
    ),
    Hole(
        "smooth",
        "the derivative of a jump 'is' 1 (it does not exist at x = 0)",
        ob(
            "d/dx jump = 1",
            {},
            sp.Eq(sp.Derivative(sp.Piecewise((x, x < 0), (x + 1, True)), x), 1),
            Identity(),
        ),
        K.MALFORMED,
        "the checker's language has no Derivative",
    ),
    Hole(
        "smooth",
        "g(x) = x^2 at one point says nothing of g' there (false for g(t) = x0^2 at t = x0; "
        "rejected before, as a residual)",
        ob("g' = 2x", {"e": sp.Eq(g(x), x**2)}, sp.Eq(sp.Derivative(g(x), x), 2 * x), Identity(("e",))),
        K.MALFORMED,
        "the checker's language has no Derivative: Derivative(g(x), x)",
    ),
    Hole(
        "smooth",
        "a 'square' of d|x|/dx, which does not exist at x = 0",
        ob(
            "(d|x|/dx)^2 >= 0",
            {},
            ge(sp.Derivative(sp.Abs(x), x) ** 2, 0),
            Certificate(squares=(sp.Derivative(sp.Abs(x), x),)),
        ),
        K.MALFORMED,
        "the checker's language has no Derivative: Derivative(Abs(x), x)",
    ),
    # -------------------------------------------------- 3. non-real atoms
    Hole(
        "real",
        "the round's example: a MatrixSymbol entry passed as real in a square (false at M[0, 0] = i)",
        ob("M00^2 >= 0", {}, ge(_M[0, 0] ** 2, 0), Certificate(squares=(_M[0, 0],))),
        K.MALFORMED,
        "the checker's language has no MatrixElement: M[0, 0]",
    ),
    Hole(
        "real",
        "a function declared imaginary, squared (q(x)^2 < 0 wherever q(x) != 0)",
        ob("q^2 >= 0", {}, ge(_q_imaginary(x) ** 2, 0), Certificate(squares=(_q_imaginary(x),))),
        K.UNDEFINED,
        "the function q is declared, but not declared real",
    ),
    Hole(
        "real",
        "a function declared complex, squared (false at w(x) = i)",
        ob("w^2 >= 0", {}, ge(_w_complex(x) ** 2, 0), Certificate(squares=(_w_complex(x),))),
        K.UNDEFINED,
        "the function w is declared, but not declared real",
    ),
    Hole(
        "real",
        "the non-real atom sits in a hypothesis: x = q(y)^2 with q imaginary (false at q(y) = i, x = -1)",
        ob(
            "x >= 0",
            {"zz": sp.Eq(x, _q_imaginary(y) ** 2)},
            ge(x, 0),
            Certificate(substitutions=("zz",), squares=(_q_imaginary(y),)),
        ),
        K.UNDEFINED,
        "hypothesis 'zz': the function q is declared, but not declared real",
    ),
    Hole(
        "real",
        "an Indexed entry A[k] squared (false at A[k] = i; rejected before, for the symbol A)",
        ob("A[k]^2 >= 0", {}, ge(_A[_k] ** 2, 0), Certificate(squares=(_A[_k],))),
        K.MALFORMED,
        "the checker's language has no Indexed: A[k]",
    ),
    # -------------------------------------------------- 4. interval endpoints
    Hole(
        "interval",
        "the round's example: a left end 10^-45 below 1/2 printed as 1/2 (false at x = 1/2 - 10^-45)",
        _box(ge(x - HALF, 0), HALF - TINY, 1),
        K.UNDECIDED,
        "interval bound not decided",
    ),
    Hole(
        "interval",
        "a right end 10^-45 above 1/2 (false at x = 1/2 + 10^-45)",
        _box(ge(HALF - x, 0), 0, HALF + TINY),
        K.UNDECIDED,
        "interval bound not decided",
    ),
    Hole(
        "interval",
        "x^2 - 1/4 at the left end 1/2 - 10^-45 (false there)",
        _box(ge(x**2 - sp.Rational(1, 4), 0), HALF - TINY, 1),
        K.UNDECIDED,
        "interval bound not decided",
    ),
    Hole(
        "interval",
        "log(2x) at the left end 1/2 - 10^-45 (negative there)",
        _box(ge(sp.log(2 * x), 0), HALF - TINY, 1),
        K.UNDECIDED,
        "interval bound not decided",
    ),
    Hole(
        "interval",
        "the end given as the text of a fraction (false at x = 1/2 - 10^-45)",
        _box(ge(x - HALF, 0), str(HALF - TINY), "1"),
        K.UNDECIDED,
        "interval bound not decided",
    ),
    # -------------------------------------------------- 5. definedness
    Hole(
        "defined",
        "the round's example: Monotone on x - 1 for the claim (x^2 - 1)/(x - 1) - 2 (undefined at x = 1)",
        ob(
            "(x^2-1)/(x-1) - 2 >= 0 for x >= 1",
            {"x1": ge(x, 1)},
            ge((x**2 - 1) / (x - 1) - 2, 0),
            Monotone(f=x - 1, x=x, a=sp.Integer(1), domain=("x1",), derivative_proof=ONE_STEP),
        ),
        K.UNDEFINED,
        "the denominator x - 1 must be nonzero",
    ),
    Hole(
        "defined",
        "Monotone on x + 1 for (x^3 - x)/(x^2 - x) (undefined at x = 1)",
        ob(
            "(x^3-x)/(x^2-x) >= 0 for x >= 1",
            {"x1": ge(x, 1)},
            ge((x**3 - x) / (x**2 - x), 0),
            Monotone(f=x + 1, x=x, a=sp.Integer(1), domain=("x1",), derivative_proof=ONE_STEP),
        ),
        K.UNDEFINED,
        "the denominator x**2 - x must be nonzero",
    ),
    Hole(
        "defined",
        "ModusPonens never checked its conclusion (undefined at x = 1)",
        ob(
            "(x^2-1)/(x-1) >= 0 for x >= 0",
            {"imp": sp.Implies(ge(x, 0), ge((x**2 - 1) / (x - 1), 0), evaluate=False), "x0": ge(x, 0)},
            ge((x**2 - 1) / (x - 1), 0),
            ModusPonens("imp", Certificate(terms=(Term((), "x0"),))),
        ),
        K.UNDEFINED,
        "the denominator x - 1 must be nonzero",
    ),
    Hole(
        "defined",
        "a Piecewise without a default branch (undefined at x = 0)",
        ob("Piecewise((1, x > 0)) >= 0", {}, ge(sp.Piecewise((1, x > 0)), 0), SignByAssumptions()),
        K.MALFORMED,
        "Piecewise Piecewise((1, x > 0)) has no default branch",
    ),
    Hole(
        "defined",
        "the same Piecewise as the conclusion of a hypothesis P => Q (undefined at x = 0)",
        ob(
            "Piecewise((1, x > 0)) >= 0 for x >= 0",
            {"imp": sp.Implies(ge(x, -1), ge(sp.Piecewise((1, x > 0)), 0), evaluate=False), "x0": ge(x, 0)},
            ge(sp.Piecewise((1, x > 0)), 0),
            ModusPonens("imp", Certificate(terms=(Term((), "x0"), Term((1,), None)))),
        ),
        K.MALFORMED,
        "hypothesis 'imp': Piecewise Piecewise((1, x > 0)) has no default branch",
    ),
    Hole(
        "defined",
        "an induction whose claim g(n)/n = g(n)/n & n >= 0 is undefined at n = 0, where its base "
        "evaluated to True",
        ob(
            "g(n)/n = g(n)/n and n >= 0, for n >= 0",
            {"n0": ge(n, 0)},
            sp.And(sp.Eq(g(n) / n, g(n) / n, evaluate=False), ge(n, 0), evaluate=False),
            Induction(n, base=Identity(), step=Certificate(terms=(Term((), "n_ge_start"), Term((1,), None)))),
        ),
        K.UNDEFINED,
        "the denominator n must be nonzero",
    ),
    # -------------------------------------------------- 6. summation convention
    Hole(
        "sums",
        "the round's example: sum_{k=1}^{n-3} 1 = n - 3 holds in Karr's convention only (the empty "
        "sum is 0, not -3, at n = 0)",
        ob("sum 1 = n - 3", {}, sp.Eq(sp.Sum(1, (_k, 1, _n - 3)), _n - 3), Identity()),
        K.UNDEFINED,
        "the sum Sum(1, (k, 1, n - 3)) may have reversed limits",
    ),
    Hole(
        "sums",
        "Gauss's sum for every integer m: at m = -3 Karr gives 3, the empty sum 0",
        ob("sum k = m(m+1)/2", {}, sp.Eq(sp.Sum(_k, (_k, 1, _m)), _m * (_m + 1) / 2), Identity()),
        K.UNDEFINED,
        "the sum Sum(k, (k, 1, m)) may have reversed limits",
    ),
    Hole(
        "sums",
        "the count b - a + 1 of a sum with b >= a - 2 only (at b = a - 2: -1 in Karr's convention, 0 "
        "in the usual one)",
        ob("sum 1 = n - m + 1", {"ab": ge(n, _m - 2)}, sp.Eq(sp.Sum(1, (_k, _m, n)), n - _m + 1), Identity()),
        K.UNDEFINED,
        "needs a proof that n >= m - 1",
    ),
    Hole(
        "sums",
        "a bound symbol declared positive over a range from -1: sqrt(i^2) was simplified to i, so "
        "the claim says sum |i| = sum i (false for every n: the term i = -1)",
        ob(
            "sum |i| = n(n+1)/2 - 1",
            {},
            sp.Eq(sp.Sum(sp.sqrt(_i_pos**2), (_i_pos, -1, _n)), _n * (_n + 1) / 2 - 1),
            Identity(),
        ),
        K.DOMAIN,
        "the bound symbol i of Sum(i, (i, -1, n)) is declared",
    ),
    Hole(
        "sums",
        "a sum up to a real x, which sympy sums as x + 1 terms (false at x = 1/2)",
        ob("sum_{k=0}^{x} 1 = x + 1", {}, sp.Eq(sp.Sum(1, (_k, 0, x)), x + 1), Identity()),
        K.MALFORMED,
        "has a limit x not known to be an integer",
    ),
]

NEIGHBOURS = {
    "bound": [
        ob(  # the equality rewritten outside the sum, where k is free
            "sum 1 + g(k) = n + 1 + h(k)",
            {"e": sp.Eq(g(_k), h(_k))},
            sp.Eq(sp.Sum(1, (_k, 0, _n)) + g(_k), _n + 1 + h(_k)),
            Identity(("e",)),
        ),
        ob(
            "sum k + Max(0, k) = n(n+1)/2 + k",
            {"k_nonneg": ge(_k, 0)},
            sp.Eq(sp.Sum(_k, (_k, 0, _n)) + sp.Max(0, _k), _n * (_n + 1) / 2 + _k),
            Cases(_k, nonneg=Identity(), neg=_K_NONNEG_CONTRADICTS_CASE),
        ),
        ob(
            "f(n) <= n",
            {"f0": sp.Eq(f(0), 0), "rec": Forall(_j, le(f(_j + 1), f(_j) + 1))},
            le(f(_n), _n),
            Induction(
                _n,
                base=Certificate(substitutions=("f0",)),
                step=Certificate(terms=(Term((), "IH"), Term((), "rec"))),
            ),
        ),
        ob(
            "sum y = m y",
            {"m_nonneg": ge(_m, 0)},
            sp.Eq(sp.Sum(y, (_k, 1, _m)), _m * y),
            Apply(_LEMMA_SUM, {x: y}, _M_NONNEG),
        ),
    ],
    "smooth": [
        _jump(x**3 + x, Certificate(terms=(Term((("square", x), 3), None), Term((1,), None)))),
        _jump(sp.exp(x) - 1, SignByAssumptions()),
        _jump(x * (sp.Max(0, y) + 1), SignByAssumptions()),  # Max of a parameter, not of x
        ob("g(x) + 1 = h(x) + 1", {"e": sp.Eq(g(x), h(x))}, sp.Eq(g(x) + 1, h(x) + 1), Identity(("e",))),
    ],
    "real": [
        ob("r^2 >= 0", {}, ge(_r_real(x) ** 2, 0), Certificate(squares=(_r_real(x),))),
        ob("g^2 >= 0", {}, ge(g(x) ** 2, 0), Certificate(squares=(g(x),))),
        ob(
            "x >= 0",
            {"zz": sp.Eq(x, _r_real(y) ** 2)},
            ge(x, 0),
            Certificate(substitutions=("zz",), squares=(_r_real(y),)),
        ),
        ob(
            "explicit matrices",
            {},
            sp.Eq(sp.Matrix([[x, 1]]) + sp.Matrix([[1, y]]), sp.Matrix([[x + 1, y + 1]]), evaluate=False),
            Identity(),
        ),
    ],
    "interval": [
        _box(ge(x - sp.Rational(1, 4), 0), HALF - TINY, 1),
        _box(ge(HALF - x + sp.Rational(1, 10**10), 0), 0, HALF + TINY),
        _box(ge(sp.log(4 * x), 0), HALF - TINY, 1),
        _box(gt(x - (HALF - TINY) + sp.Rational(1, 10**10), 0), str(HALF - TINY), "1"),
    ],
    "defined": [
        ob(
            "(x^2-1)/(x-1) - 2 >= 0 for x > 1",
            {"x1": gt(x, 1)},
            ge((x**2 - 1) / (x - 1) - 2, 0),
            Monotone(f=x - 1, x=x, a=sp.Integer(1), domain=("x1",), derivative_proof=ONE_STEP),
        ),
        ob(
            "(x^2-1)/(x-1) >= 0 for x > 1",
            {"imp": sp.Implies(gt(x, 1), ge((x**2 - 1) / (x - 1), 0), evaluate=False), "x1": gt(x, 1)},
            ge((x**2 - 1) / (x - 1), 0),
            ModusPonens("imp", Certificate(terms=(Term((), "x1"),))),
        ),
        ob(
            "Piecewise((1, x > 0), (2, True)) >= 0",
            {},
            ge(sp.Piecewise((1, x > 0), (2, True)), 0),
            SignByAssumptions(),
        ),
        ob(
            "g(n)/n = g(n)/n and n >= 1, for n >= 1",
            {"n1": ge(n, 1)},
            sp.And(sp.Eq(g(n) / n, g(n) / n, evaluate=False), ge(n, 1), evaluate=False),
            Induction(
                n,
                start=1,
                base=Identity(),
                step=Certificate(terms=(Term((), "n_ge_start"), Term((1,), None))),
            ),
        ),
    ],
    "sums": [
        ob("sum 1 = n", {}, sp.Eq(sp.Sum(1, (_k, 1, _n)), _n), Identity()),
        ob(
            "sum k = m(m+1)/2 for m >= 0",
            {"m0": ge(_m, 0)},
            sp.Eq(sp.Sum(_k, (_k, 1, _m)), _m * (_m + 1) / 2),
            Identity(),
        ),
        ob("sum 1 = n - m + 1", {"ab": ge(n, _m - 1)}, sp.Eq(sp.Sum(1, (_k, _m, n)), n - _m + 1), Identity()),
        ob("the empty sum", {}, sp.Eq(sp.Sum(_k, (_k, _m, _m - 1)), 0), Identity()),
        ob(
            "sum |i| over i >= 1",
            {},
            sp.Eq(sp.Sum(sp.sqrt(_i_pos**2), (_i_pos, 1, _n)), _n * (_n + 1) / 2),
            Identity(),
        ),
    ],
}


@pytest.mark.parametrize("hole", HOLES, ids=lambda c: f"{c.klass}:{c.obligation.name}")
def test_false_claim_of_each_class_is_rejected_for_its_reason(hole: Hole) -> None:
    result = check_obligation(hole.obligation)
    assert not result.ok, f"{hole.klass}: accepted a false claim: {hole.why}"
    assert (result.kind, hole.reason in result.message) == (hole.kind, True), result.message


@pytest.mark.parametrize(
    "klass, neighbour",
    [(klass, o) for klass, obs in NEIGHBOURS.items() for o in obs],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_true_neighbour_of_each_class_still_passes(klass: str, neighbour: Obligation) -> None:
    result = check_obligation(neighbour)
    assert result.ok, (klass, result.kind, result.message)


def test_every_class_has_four_false_claims_and_four_true_neighbours() -> None:
    classes = ("bound", "smooth", "real", "interval", "defined", "sums")
    assert {hole.klass for hole in HOLES} == set(classes) == set(NEIGHBOURS)
    for klass in classes:
        assert sum(hole.klass == klass for hole in HOLES) >= 4, klass
        assert len(NEIGHBOURS[klass]) >= 4, klass


# ====================================================================== the language, rule by rule
# Exact outcomes (accepted, or the kind and the whole message) of the language screen, the
# summation rules, the definedness check's placement and the instances' side conditions.

_z = sp.Symbol("z")  # no assumptions: not real
_nn = sp.Symbol("n", integer=True)
_D = sp.Dummy("d", real=True)
_NP = sp.Symbol("n", integer=True, positive=True)
_Ly = sp.Symbol("y", real=True)
LANGUAGE_CASES = [
    ("float", {}, ge(x, 0), Certificate(squares=(sp.Float(0.5) * x,))),
    ("E pi", {}, ge(sp.E * sp.pi * x**2, 0), SignByAssumptions()),
    ("dummy", {}, ge(_D**2, 0), Certificate(squares=(_D,))),
    ("dummy not real", {}, ge(x**2, 0), Certificate(squares=(sp.Dummy("d"),))),
    ("oo", {}, ge(sp.oo, 0), Certificate()),
    ("-oo", {}, ge(-sp.oo, 0), Certificate()),
    ("nan", {}, ge(sp.nan, 0), Certificate()),
    ("zoo", {}, sp.Eq(sp.zoo, sp.zoo, evaluate=False), Identity()),
    ("exp I", {}, ge(sp.exp(sp.I * x), 0), Certificate()),
    ("pw cond", {}, ge(sp.Piecewise((2, _z > 0), (1, True)), 0), SignByAssumptions()),
    ("pw ok", {}, ge(sp.Piecewise((1, x > 0), (2, True)), 0), SignByAssumptions()),
    ("integral", {}, ge(sp.Integral(x, (x, 0, 1)), 0), Certificate()),
    ("not", {"h": sp.Not(ge(_z, 0))}, ge(x**2, 0), Certificate(squares=(x,))),
    ("or", {"h": sp.Or(ge(x, 0), ge(sp.sin(x), 0))}, ge(x**2, 0), Certificate(squares=(x,))),
    ("prop", {"h": sp.Symbol("P", real=True)}, ge(x**2, 0), Certificate(squares=(x,))),
    ("forall body", {"h": Forall(_j, ge(f(_j) * sp.I, 0))}, ge(x**2, 0), Certificate(squares=(x,))),
    ("not basic", {"h": 3}, ge(x**2, 0), Certificate(squares=(x,))),
    ("matrix hyp", {}, sp.Eq(sp.Matrix([[x]]), sp.Matrix([[x]]), evaluate=False), Identity()),
    ("matrix side", {}, sp.Eq(sp.Matrix([[sp.I]]), sp.Matrix([[x]]), evaluate=False), Identity()),
    ("set formula", {}, sp.Contains(x, sp.Interval(0, 1)), Identity()),
    ("sum ok eq", {}, sp.Eq(sp.Sum(1, (_k, 1, _j)), _j), Identity()),
    ("sum limit non-real", {}, sp.Eq(sp.Sum(1, (_k, 1, _z)), _z), Identity()),
    ("sum nested", {}, sp.Eq(sp.Sum(sp.Sum(1, (_k, 1, _NP)), (_NP, 1, _j)), _j * (_j + 1) / 2), Identity()),
    (
        "sum nested, inner range unknown",
        {},
        sp.Eq(sp.Sum(sp.Sum(1, (_k, 1, _nn)), (_nn, 1, _j)), _j * (_j + 1) / 2),
        Identity(),
    ),
    ("sum in a square", {}, ge(x**2, 0), Certificate(squares=(sp.Sum(x, (_k, 1, 1)),))),
    ("sum in an implication", {}, sp.Implies(ge(sp.Sum(1, (_k, 1, _j)), 0), ge(x, 0)), Certificate()),
    (
        "monotone f float",
        {"x0": ge(x, 0)},
        ge(x, 0),
        Monotone(f=sp.Float(0.5) * x, x=x, a=sp.Integer(0), domain=("x0",), derivative_proof=Certificate()),
    ),
    (
        "monotone a",
        {"x0": ge(x, 0)},
        ge(x, 0),
        Monotone(f=x, x=x, a=sp.I, domain=("x0",), derivative_proof=Certificate()),
    ),
    (
        "monotone b",
        {"x0": ge(x, 0)},
        ge(x, 0),
        Monotone(f=x, x=x, a=sp.Integer(0), b=sp.Float(2.0), domain=("x0",), derivative_proof=Certificate()),
    ),
    (
        "monotone g(x)",
        {"x0": ge(x, 0)},
        ge(g(x) - g(0), 0),
        Monotone(f=g(x) - g(0), x=x, a=sp.Integer(0), domain=("x0",), derivative_proof=Certificate()),
    ),
    (
        "bounded float",
        {"lo": ge(x, 0), "hi": le(x, 1)},
        ge(x, 0),
        IntervalBound(sp.Float(1.0) * x, {"x": (0, 1)}, "box"),
    ),
    ("subs zoo", {"e": sp.Eq(g(x), 0), "ne": sp.Ne(g(x), 0)}, sp.Eq(x / g(x), 1), Identity(("e",))),
    (
        "base becomes 0",
        {"n0": ge(_nn, 0), "n1": ge(_nn, 1)},
        sp.Eq(g(_nn) / _nn, g(_nn) / _nn, evaluate=False),
        Induction(_nn, base=Identity(), step=Identity()),
    ),
    (
        "base image zoo",
        {"n0": ge(_nn, 0), "n1": ge(_nn, 1)},
        sp.Eq(1 / (1 + 1 / _nn), _nn / (_nn + 1), evaluate=False),
        Induction(_nn, base=Identity(), step=Identity()),
    ),
    (
        "forall hidden",
        {"n0": ge(_nn, 0), "f0": sp.Eq(f(0), 0), "rec": Forall(_j, le(f(_j + 1), f(_j) + 1 / _j))},
        le(f(_nn), _nn),
        Induction(
            _nn,
            base=Certificate(substitutions=("f0",)),
            step=Certificate(terms=(Term((), "IH"), Term((), "rec"))),
        ),
    ),
    (
        "forall hidden base",
        {"n0": ge(_nn, 0), "f0": sp.Eq(f(0), 0), "rec": Forall(_j, le(f(_j + 1), f(_j) + 1 / _j))},
        le(f(_nn), _nn),
        Induction(_nn, base=Certificate(terms=(Term((), "rec"),)), step=Certificate(terms=(Term((), "IH"),))),
    ),
    (
        "chain defers",
        {"a": gt(x * y, 0), "b": gt(y, 0)},
        ge(1 / x, 0),
        Chain(
            steps=(Step("xp", gt(x, 0), Certificate(multiplier=("b",), terms=(Term((), "a"),))),),
            final=Certificate(terms=(Term((("inverse", "xp"),), None),)),
        ),
    ),
    (
        "contradiction defers",
        {"p": gt(x, 0), "q": gt(-x, 0)},
        ge(1 / y, 0),
        Contradiction(Certificate(terms=(Term((), "p"), Term((), "q")))),
    ),
    (
        "cases per case",
        {"sx": gt(sp.sqrt(x), 0)},
        ge(sp.Max(0, x * sp.sqrt(x)), 0),
        Cases(x, positive=("sx",), nonneg=Certificate(terms=(Term(("case",), "sx"),)), neg=Certificate()),
    ),
]
_LEMMA_INV = Obligation(
    "y >= 0 from 1/y >= 0",
    "X",
    {"h": ge(1 / _Ly, 0)},
    ge(_Ly, 0),
    Certificate(terms=(Term((("square", _Ly),), "h"),)),
)
LANGUAGE_CASES += [
    (
        "apply hyp at 0",
        {},
        ge(sp.Integer(0), 0),
        Apply(_LEMMA_INV, {_Ly: sp.Integer(0)}, {"h": Certificate()}),
    ),
    (
        "apply ok",
        {"xp": gt(x, 0)},
        ge(x, 0),
        Apply(_LEMMA_INV, {_Ly: x}, {"h": Certificate(terms=(Term((("inverse", "xp"),), None),))}),
    ),
]
_LEMMA_CLAIM = Obligation(
    "1/y > 0", "X", {"yp": gt(_Ly, 0)}, ge(1 / _Ly, 0), Certificate(terms=(Term((("inverse", "yp"),), None),))
)
LANGUAGE_CASES += [
    (
        "apply claim",
        {"xp": gt(x, 0)},
        ge(1 / x, 0),
        Apply(_LEMMA_CLAIM, {_Ly: x}, {"yp": Certificate(terms=(Term((), "xp"),))}),
    ),
]

_NOT_SHOWN = ", and neither the hypotheses nor the symbols' domains say so"
LANGUAGE_OUTCOMES = {
    "float": (False, K.UNDEFINED, "a square: the float 0.500000000000000 is not exact: write a rational"),
    "E pi": (True, None, ""),
    "dummy": (True, None, ""),
    "dummy not real": (False, K.UNDEFINED, "a square: symbol _d is not declared real"),
    "oo": (False, K.UNDEFINED, "oo is not a real number"),
    "-oo": (False, K.UNDEFINED, "-oo is not a real number"),
    "nan": (False, K.UNDEFINED, "nan is not a real number"),
    "zoo": (False, K.UNDEFINED, "zoo is not a real number"),
    "exp I": (False, K.UNDEFINED, "I is not a real number"),
    "pw cond": (False, K.UNDEFINED, "symbol z is not declared real"),
    "pw ok": (True, None, ""),
    "integral": (False, K.MALFORMED, "the checker's language has no Integral: Integral(x, (x, 0, 1))"),
    "not": (False, K.UNDEFINED, "hypothesis 'h': symbol z is not declared real"),
    "or": (False, K.MALFORMED, "hypothesis 'h': the checker does not reason about sin"),
    "prop": (False, K.MALFORMED, "hypothesis 'h': the checker's language has no formula Symbol: P"),
    "forall body": (False, K.UNDEFINED, "hypothesis 'h': I is not a real number"),
    "not basic": (False, K.MALFORMED, "hypothesis 'h' is not a sympy relation: 3"),
    "matrix hyp": (True, None, ""),
    "matrix side": (False, K.UNDEFINED, "I is not a real number"),
    "set formula": (
        False,
        K.MALFORMED,
        "the checker's language has no formula Contains: Contains(x, Interval(0, 1))",
    ),
    "sum ok eq": (True, None, ""),
    "sum limit non-real": (False, K.UNDEFINED, "a limit of Sum(1, (k, 1, z)): symbol z is not declared real"),
    "sum nested": (True, None, ""),
    "sum nested, inner range unknown": (
        False,
        K.UNDEFINED,
        "the sum Sum(1, (k, 1, n), (n, 1, j)) may have reversed limits (n < 1 - 1): its value would "
        "depend on the summation convention, so the checker needs a proof that n >= 1 - 1",
    ),
    "sum in a square": (True, None, ""),
    "sum in an implication": (False, K.MISMATCH, "not an inequality: Implies(j >= 0, x >= 0)"),
    "monotone f float": (
        False,
        K.UNDEFINED,
        "the monotone function: the float 0.500000000000000 is not exact: write a rational",
    ),
    "monotone a": (False, K.UNDEFINED, "the interval's left end: I is not a real number"),
    "monotone b": (
        False,
        K.UNDEFINED,
        "the interval's right end: the float 2.00000000000000 is not exact: write a rational",
    ),
    "monotone g(x)": (
        False,
        K.MALFORMED,
        "Monotone differentiates -g(0) + g(x) in x, but g(x) (g) may not be differentiable in x",
    ),
    "bounded float": (
        False,
        K.UNDEFINED,
        "the bounded expression: the float 1.00000000000000 is not exact: write a rational",
    ),
    "subs zoo": (False, K.UNDEFINED, "after the substitutions: zoo is not a real number"),
    "base becomes 0": (
        False,
        K.UNDEFINED,
        "base case n = 0: the denominator n becomes 0, which must be nonzero" + _NOT_SHOWN,
    ),
    "base image zoo": (
        False,
        K.UNDEFINED,
        "base case n = 0: the denominator 1 + 1/n at {n: 0}: zoo is not a real number",
    ),
    "forall hidden": (
        False,
        K.RESIDUAL,
        "induction step n -> n + 1: certificate does not match: m (B - A) - sum = 1 - 1/n",
    ),
    "forall hidden base": (
        False,
        K.SCOPE,
        "base case n = 0: hypothesis 'rec' is not available here: its instance at 0 is not defined "
        "(zoo is not a real number)",
    ),
    "chain defers": (True, None, ""),
    "contradiction defers": (True, None, ""),
    "cases per case": (
        False,
        K.UNDEFINED,
        "case expr < 0 (x): the base of x**(3/2) must be >= 0" + _NOT_SHOWN,
    ),
    "apply hyp at 0": (
        False,
        K.UNDEFINED,
        "lemma hypothesis 'h': the denominator y becomes 0, which must be nonzero" + _NOT_SHOWN,
    ),
    "apply ok": (True, None, ""),
    "apply claim": (True, None, ""),
}


@pytest.mark.parametrize("case", LANGUAGE_CASES, ids=lambda c: c[0])
def test_language_outcome_is_exact(case: tuple) -> None:
    name, hyps, claim, proof = case
    result = check_obligation(ob(name, hyps, claim, proof))
    assert (result.ok, result.kind, result.message) == LANGUAGE_OUTCOMES[name]


def test_a_rule_called_directly_screens_a_plain_mapping_of_hypotheses() -> None:
    with pytest.raises(ProofFailure) as exc:
        Certificate(squares=(x,)).verify({"h": ge(_z, 0)}, ge(x**2, 0))
    assert (exc.value.kind, str(exc.value)) == (K.UNDEFINED, "hypothesis 'h': symbol z is not declared real")


def test_sums_in_a_relation_are_expanded_without_evaluating_it() -> None:
    expanded = _expand_sums(sp.Eq(sp.Sum(1, (_k, 1, _j)), _j), Context())
    assert isinstance(expanded, sp.Equality) and expanded.lhs == expanded.rhs == _j
    assert _expand_sums(ge(x, 0), Context()) == ge(x, 0)


# every proof kind the checker defines (all of them: a new rule is covered without a list)
_RULES = [
    rule
    for rule in vars(core).values()
    if isinstance(rule, type)
    and issubclass(rule, Proof)
    and rule is not Proof
    and rule.__module__ == core.__name__
]


def test_every_rule_and_every_new_proof_kind_admits_its_claim() -> None:
    """The wrapper is installed when a class is created (mutmut cannot mutate that)."""
    assert len(_RULES) >= 14
    for rule in _RULES:
        assert getattr(rule.verify, "admits_its_claim", False) is True, rule

    class Accepts(Proof):
        def verify(self, hyps: object, claim: sp.Basic) -> None:
            pass

    assert getattr(Accepts.verify, "admits_its_claim", False) is True
    with pytest.raises(ProofFailure) as exc:
        Accepts().verify(Context(), ge(1 / x, 0))
    assert (exc.value.kind, str(exc.value)) == (K.UNDEFINED, "the denominator x must be nonzero" + _NOT_SHOWN)

    class Inherits(Accepts):  # no verify of its own: the wrapped one is inherited, once
        pass

    assert Inherits.verify is Accepts.verify


def _outcome(o: Obligation) -> tuple[bool, FailureKind | None, str]:
    result = check_obligation(o)
    return result.ok, result.kind, result.message


def test_the_step_of_an_induction_is_checked_defined_before_it_is_evaluated() -> None:
    claim = sp.Eq(g(n) / (n - 1), g(n) / (n - 1), evaluate=False)  # defined for n >= 2 only
    proof = Induction(n, base=Identity(), step=Identity())
    assert _outcome(ob("step", {"n0": ge(n, 0), "n2": ge(n, 2)}, claim, proof)) == (
        False,
        K.UNDEFINED,
        "induction step n -> n + 1: the denominator n - 1 becomes n, which must be nonzero" + _NOT_SHOWN,
    )


def test_an_undefined_forall_instance_hides_only_itself() -> None:
    hyps = {
        "n0": ge(n, 0),
        "bad": Forall(_j, le(f(_j + 1), f(_j) + 1 / _j)),  # undefined at 0
        "f0": Forall(_j, le(f(0), 0)),  # listed after it, still instantiated
    }
    proof = Induction(n, base=Certificate(terms=(Term((), "f0"),)), step=Certificate(terms=(Term((), "IH"),)))
    # the base used f0 (instantiated after the hidden one); the step fails for want of a recursion
    assert _outcome(ob("f(n) <= n", hyps, le(f(n), n), proof)) == (
        False,
        K.RESIDUAL,
        "induction step n -> n + 1: certificate does not match: m (B - A) - sum = f(n) - f(n + 1) + 1",
    )


def test_language_messages_in_full() -> None:
    cases = [
        (
            ob("imaginary", {}, ge(_q_imaginary(x) ** 2, 0), SignByAssumptions()),
            K.UNDEFINED,
            "the function q is declared, but not declared real: q(x) is not a real number",
        ),
        (
            ob("no default", {}, ge(sp.Piecewise((1, x > 0)), 0), SignByAssumptions()),
            K.MALFORMED,
            "Piecewise Piecewise((1, x > 0)) has no default branch (a last condition True): it is undefined "
            "where no condition holds",
        ),
        (
            ob(
                "cond",
                {"h": ge(sp.Piecewise((2, _z > 0), (1, True)), 0)},
                ge(x**2, 0),
                Certificate(squares=(x,)),
            ),
            K.UNDEFINED,
            "hypothesis 'h': symbol z is not declared real",
        ),
        (
            ob(
                "matrix hypothesis",
                {"h": sp.Eq(sp.Matrix([[x]]), sp.Matrix([[x]]), evaluate=False)},
                ge(x**2, 0),
                Certificate(squares=(x,)),
            ),
            K.MALFORMED,
            "hypothesis 'h': the checker's language has no ImmutableDenseMatrix: Matrix([[x]])",
        ),
        (
            ob("propositional symbol", {"h": sp.Symbol("P")}, ge(x**2, 0), Certificate(squares=(x,))),
            K.UNDEFINED,
            "hypothesis 'h': symbol P is not declared real",
        ),
    ]
    for o, kind, message in cases:
        assert _outcome(o) == (False, kind, message), o.name


def test_a_matrix_equation_needs_matrices_on_both_sides() -> None:
    with pytest.raises(ProofFailure) as exc:
        _screen_formula(sp.Eq(sp.Matrix([[x]]), x, evaluate=False), "here: ", matrices=True)
    assert (exc.value.kind, str(exc.value)) == (K.MALFORMED, "here: x is not a matrix")


def test_a_bound_symbol_declared_nonnegative_sums_from_zero() -> None:
    claim = sp.Eq(sp.Sum(_j, (_j, 0, _n)), _n * (_n + 1) / 2)
    assert _outcome(ob("sum j from 0", {}, claim, Identity())) == (True, None, "")


def test_a_derivative_is_screened_with_its_side_conditions() -> None:
    with pytest.raises(ProofFailure) as exc:
        _require_defined_on_interval(sp.Derivative(g(x), x), x, sp.Integer(0), sp.oo, Context())
    assert (exc.value.kind, str(exc.value)) == (
        K.MALFORMED,
        "the checker's language has no Derivative: Derivative(g(x), x)",
    )


def test_a_monotone_function_undefined_inside_the_interval_is_refused_for_a_defined_claim() -> None:
    """The claim x + 1 >= 0 is defined everywhere; the proof's f, equal to it as a rational
    function, has a pole at 1 inside [0, oo): f's side conditions are checked on the interval."""
    f_expr = (x**2 - 1) / (x - 1)
    proof = Monotone(f=f_expr, x=x, a=sp.Integer(0), domain=("x0",), derivative_proof=ONE_STEP)
    assert _outcome(ob("x + 1 >= 0", {"x0": ge(x, 0)}, ge(x + 1, 0), proof)) == (
        False,
        K.UNDEFINED,
        "the denominator x - 1 must be nonzero for every x in [0, oo), which is not shown",
    )
