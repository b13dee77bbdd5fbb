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

from novikoff.proofs.core import (
    Apply,
    Both,
    Cases,
    Certificate,
    Chain,
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
    SignByAssumptions,
    Step,
    Term,
    check_obligation,
    ge,
    gt,
    le,
)

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
