# ruff: noqa: E501  (the expected messages are quoted whole)
"""Tests that kill mutants of novikoff/proofs/core.py (docs/mutation.md).

``mutmut run`` left mutants alive where the tests only checked that a proof was
rejected and the kind of failure: a changed message, a dropped ``within`` prefix, a
changed constant in an error path went unnoticed. Here every case states the exact
outcome: accepted, or rejected with this kind and this message. The messages are the
checker's own (sympy prints the expressions), reviewed for naming the right reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_checker_soundness import CASES

K = FailureKind
x, y, a = sp.symbols("x y a", real=True)
n = sp.Symbol("n", integer=True)
nn = sp.Symbol("n", integer=True, nonnegative=True)
xp = sp.Symbol("x", positive=True)
xnp = sp.Symbol("x", nonpositive=True)


def E(lhs: sp.Expr, rhs: sp.Expr) -> sp.Basic:
    return sp.Eq(lhs, rhs, evaluate=False)


# name: (claim, proof, hypotheses)
CATALOGUE = {
    "identity matrix entry": (E(sp.Matrix([[x, 1]]), sp.Matrix([[x, 2]])), Identity(), {}),
    "identity matrix shapes": (E(sp.Matrix([[x, 1]]), sp.Matrix([[x], [1]])), Identity(), {}),
    "identity not an equality": (ge(x, 0), Identity(), {}),
    "identity residual": (E(x + 1, x + 2), Identity(), {}),
    "identity with substitution": (E(y, 2 * x), Identity(substitutions=("h",)), {"h": E(y, 2 * x + 1)}),
    "monotone strict": (gt(x, 0), Monotone(f=x, x=x, a=0, derivative_proof=SignByAssumptions()), {}),
    "monotone not a symbol": (ge(x, 0), Monotone(f=x, x=x**2, a=0, derivative_proof=SignByAssumptions()), {}),
    "monotone a depends on x": (ge(x, 0), Monotone(f=x, x=x, a=x, derivative_proof=SignByAssumptions()), {}),
    "monotone b depends on x": (
        ge(x, 0),
        Monotone(f=x, x=x, a=0, b=x, derivative_proof=SignByAssumptions()),
        {},
    ),
    "monotone upper end missing": (
        ge(1 - x, 0),
        Monotone(
            f=1 - x,
            x=x,
            a=0,
            b=1,
            decreasing=True,
            domain=("lo",),
            derivative_proof=Certificate(terms=(Term((1,), None),)),
        ),
        {"lo": ge(x, 0)},
    ),
    "monotone decreasing ok": (
        ge(1 - x, 0),
        Monotone(
            f=1 - x,
            x=x,
            a=0,
            b=1,
            decreasing=True,
            domain=("lo", "hi"),
            derivative_proof=Certificate(terms=(Term((1,), None),)),
        ),
        {"lo": ge(x, 0), "hi": le(x, 1)},
    ),
    "monotone decreasing to oo": (
        ge(1 - x, 0),
        Monotone(
            f=1 - x,
            x=x,
            a=0,
            decreasing=True,
            domain=("lo",),
            derivative_proof=Certificate(terms=(Term((1,), None),)),
        ),
        {"lo": ge(x, 0)},
    ),
    "monotone f(a) negative": (
        ge(x - 1, 0),
        Monotone(f=x - 1, x=x, a=0, domain=("lo",), derivative_proof=Certificate(terms=(Term((1,), None),))),
        {"lo": ge(x, 0)},
    ),
    "monotone derivative wrong": (
        ge(1 - x, 0),
        Monotone(f=1 - x, x=x, a=0, domain=("lo",), derivative_proof=Certificate(terms=(Term((1,), None),))),
        {"lo": ge(x, 0)},
    ),
    "monotone uses x_ge_a": (
        ge(x**2, 0),
        Monotone(
            f=x**2, x=x, a=0, domain=("lo",), derivative_proof=Certificate(terms=(Term((2,), "x_ge_a"),))
        ),
        {"lo": ge(x, 0)},
    ),
    "monotone uses x_le_b": (
        ge(2 * x - x**2, 0),
        Monotone(
            f=2 * x - x**2,
            x=x,
            a=0,
            b=1,
            domain=("lo", "hi"),
            derivative_proof=Certificate(terms=(Term((2,), "x_le_b"),)),
        ),
        {"lo": ge(x, 0), "hi": le(x, 1)},
    ),
    "monotone nonpositive x": (
        ge(xnp + 1, 0),
        Monotone(f=xnp + 1, x=xnp, a=-1, b=0, domain=("lo", "hi"), derivative_proof=SignByAssumptions()),
        {"lo": ge(xnp, -1), "hi": le(xnp, 0)},
    ),
    "monotone positive x from 1": (
        ge(xp - 1, 0),
        Monotone(
            f=xp - 1, x=xp, a=1, domain=("lo",), derivative_proof=Certificate(terms=(Term((1,), None),))
        ),
        {"lo": ge(xp, 1)},
    ),
    "monotone domain hyp is equality": (
        ge(x, 0),
        Monotone(f=x, x=x, a=0, domain=("lo",), derivative_proof=Certificate(terms=(Term((1,), None),))),
        {"lo": E(x, 0)},
    ),
    "induction not integer": (
        ge(x, 0),
        Induction(n=x, base=SignByAssumptions(), step=SignByAssumptions()),
        {},
    ),
    "induction bool start": (
        ge(n, 0),
        Induction(n=n, base=SignByAssumptions(), step=SignByAssumptions(), start=True),
        {},
    ),
    "induction base fails": (
        ge(n, 1),
        Induction(
            n=n, base=Certificate(), step=Certificate(terms=(Term((), "IH"), Term((1,), None))), start=0
        ),
        {"h": ge(n, 0)},
    ),
    "induction ok": (
        ge(n, 0),
        Induction(
            n=n, base=Certificate(), step=Certificate(terms=(Term((), "IH"), Term((1,), None))), start=0
        ),
        {"h": ge(n, 0)},
    ),
    "induction step uses n_ge_start": (
        ge(n - 2, 0),
        Induction(
            n=n,
            base=Certificate(),
            step=Certificate(terms=(Term((), "n_ge_start"), Term((1,), None))),
            start=2,
        ),
        {"h": ge(n, 2)},
    ),
    "induction nonneg domain": (
        ge(nn, 0),
        Induction(n=nn, base=Certificate(), step=Certificate(terms=(Term((), "IH"), Term((1,), None)))),
        {},
    ),
    "induction forall": (
        ge(sp.Function("f")(n), 0),
        Induction(
            n=n, base=Certificate(terms=(Term((), "all"),)), step=Certificate(terms=(Term((), "all"),))
        ),
        {"h": ge(n, 0), "all": Forall(n, ge(sp.Function("f")(n), 0), 0)},
    ),
    "chain final fails": (
        ge(x, 1),
        Chain(
            steps=(Step("s", ge(x**2, 0), Certificate(squares=(x,))),),
            final=Certificate(terms=(Term((), "s"),)),
        ),
        {},
    ),
    "chain ok": (
        ge(x**2 + 1, 0),
        Chain(
            steps=(Step("s", ge(x**2, 0), Certificate(squares=(x,))),),
            final=Certificate(terms=(Term((), "s"), Term((1,), None))),
        ),
        {},
    ),
    "cases max ok": (
        ge(sp.Max(0, x), x),
        Cases(expr=x, nonneg=Identity(), neg=Certificate(terms=(Term((), "case"),))),
        {},
    ),
    "cases nonstrict multiple": (
        ge(sp.Max(0, a * x), 0),
        Cases(
            expr=x,
            nonneg=Certificate(terms=(Term(("apos",), "case"),)),
            neg=Certificate(),
            positive=("apos",),
        ),
        {"apos": ge(a, 0)},
    ),
    "cases negative multiple": (
        ge(sp.Max(0, -2 * x) + x**2, 0),
        Cases(expr=x, nonneg=Certificate(squares=(x,)), neg=Certificate(squares=(x,))),
        {},
    ),
    "cases neg proof fails": (
        ge(x, 0),
        Cases(
            expr=x, nonneg=Certificate(terms=(Term((), "case"),)), neg=Certificate(terms=(Term((), "case"),))
        ),
        {},
    ),
    "iff ok": (
        sp.Equivalent(ge(x, 0), ge(2 * x, 0)),
        Iff(
            p=ge(x, 0),
            forward=Certificate(terms=(Term((2,), "left"),)),
            backward=Certificate(terms=(Term((sp.Rational(1, 2),), "right"),)),
        ),
        {},
    ),
    "iff forward fails": (
        sp.Equivalent(ge(x, 0), ge(x - 1, 0)),
        Iff(
            p=ge(x, 0),
            forward=Certificate(terms=(Term((), "left"),)),
            backward=Certificate(terms=(Term((), "right"),)),
        ),
        {},
    ),
    "iff not equivalence": (ge(x, 0), Iff(p=ge(x, 0), forward=Certificate(), backward=Certificate()), {}),
    "iff side not relation": (
        sp.Equivalent(sp.Symbol("P"), ge(x, 0)),
        Iff(p=sp.Symbol("P"), forward=Certificate(), backward=Certificate()),
        {},
    ),
    "both ok": (
        sp.And(ge(x**2, 0), ge(x**2 + 1, 0)),
        Both(parts=(Certificate(squares=(x,)), Certificate(squares=(x,), terms=(Term((1,), None),)))),
        {},
    ),
    "both second fails": (
        sp.And(ge(x**2, 0), ge(x**2 - 1, 0)),
        Both(parts=(Certificate(squares=(x,)), Certificate(squares=(x,)))),
        {},
    ),
    "modus ponens not implication": (ge(y, 0), ModusPonens("imp", Certificate()), {"imp": ge(x, 0)}),
    "modus ponens ok": (
        ge(y, 0),
        ModusPonens("imp", Certificate(terms=(Term((), "h"),))),
        {"imp": sp.Implies(ge(x, 0), ge(y, 0)), "h": ge(x, 0)},
    ),
    "contradiction ok": (
        ge(y, 1),
        Contradiction(Certificate(terms=(Term((), "h"), Term((), "k")))),
        {"h": gt(x, 0), "k": gt(-x, 0)},
    ),
    "sign strict ok": (gt(sp.exp(x), 0), SignByAssumptions(), {}),
    "sign strict fails": (gt(xp**2 - xp, 0), SignByAssumptions(), {}),
    "sign nonstrict ok": (ge(x**2, 0), SignByAssumptions(), {}),
    "certificate forall hyp": (
        ge(x, 0),
        Certificate(terms=(Term((), "all"),)),
        {"all": Forall(n, ge(n, 0), 0)},
    ),
    "certificate equality hyp": (ge(x, 0), Certificate(terms=(Term((), "eq"),)), {"eq": E(x, 0)}),
    "certificate ne hyp": (ge(x, 0), Certificate(terms=(Term((), "ne"),)), {"ne": sp.Ne(x, 0)}),
    "certificate square multiplier": (ge(x, 0), Certificate(multiplier=(("square", x),)), {}),
    "certificate power ok": (
        ge(x**y, 0),
        Certificate(terms=(Term((("power", "h", y),), None),)),
        {"h": gt(x, 0)},
    ),
    "certificate power nonstrict": (
        ge(x**y, 0),
        Certificate(terms=(Term((("power", "h", y),), None),)),
        {"h": ge(x, 0)},
    ),
    "certificate inverse ok": (
        gt(1 / x, 0),
        Certificate(terms=(Term((("inverse", "h"),), None),)),
        {"h": gt(x, 0)},
    ),
    "certificate inverse nonstrict": (
        ge(1 / x, 0),
        Certificate(terms=(Term((("inverse", "h"),), None),)),
        {"h": ge(x, 0), "nz": sp.Ne(x, 0)},
    ),
    "certificate unknown factor": (ge(x**2, 0), Certificate(terms=(Term((0.5,), None),)), {}),
    "certificate bool factor": (ge(x**2, 0), Certificate(terms=(Term((True,), None),)), {}),
    "certificate zero multiplier": (ge(x, 0), Certificate(multiplier=(0,)), {}),
    "certificate sympy rational": (
        ge(x, 0),
        Certificate(terms=(Term((sp.Rational(1, 2),), "h"),), multiplier=(sp.Rational(1, 2),)),
        {"h": ge(x, 0)},
    ),
    "certificate strict via strict term": (
        gt(x + 1, 0),
        Certificate(terms=(Term((), "h"), Term((1,), None))),
        {"h": ge(x, 0)},
    ),
    "certificate strict multiplier hyp": (
        ge(x * y, 0),
        Certificate(multiplier=("yp",), terms=(Term(("yp",), "h"),)),
        {"h": ge(x * y, 0), "yp": gt(y, 0)},
    ),
    "certificate strict needs strict term": (
        gt(x * y, 0),
        Certificate(terms=(Term((), "h"),)),
        {"h": ge(x * y, 0)},
    ),
    "certificate zero coefficient not strict": (
        gt(x, 0),
        Certificate(terms=(Term((0,), None), Term((), "h"))),
        {"h": ge(x, 0)},
    ),
    "certificate with substitution": (
        ge(y, 0),
        Certificate(squares=(x,), substitutions=("eq",)),
        {"eq": E(y, x**2)},
    ),
    "interval ok": (
        ge(x * (2 - x), 0),
        Interval(box={"x": (0, 2)}, covers="h"),
        {"lo": ge(x, 0), "hi": le(x, 2)},
    ),
    "interval strict ok": (
        gt(x + 1, 0),
        Interval(box={"x": (0, 2)}, covers="h"),
        {"lo": ge(x, 0), "hi": le(x, 2)},
    ),
    "interval strict touches": (
        gt(x, 0),
        Interval(box={"x": (0, 2)}, covers="h"),
        {"lo": ge(x, 0), "hi": le(x, 2)},
    ),
    "interval empty": (ge(x, 0), Interval(box={"x": (2, 0)}, covers="h"), {"lo": ge(x, 2), "hi": le(x, 0)}),
    "interval float box": (ge(x, 0), Interval(box={"x": (0.5, 2)}, covers="h"), {}),
    "interval irrational box": (ge(x, 0), Interval(box={"x": (sp.sqrt(2), 2)}, covers="h"), {}),
    "interval missing symbol": (
        ge(x + y**2, 0),
        Interval(box={"x": (0, 2)}, covers="h"),
        {"lo": ge(x, 0), "hi": le(x, 2)},
    ),
    "interval undecided": (
        ge(x**2 - 2 * x + 1, 0),
        Interval(box={"x": (0, 2)}, covers="h", max_depth=3),
        {"lo": ge(x, 0), "hi": le(x, 2)},
    ),
    "interval log sqrt exp": (
        ge(sp.log(x) + sp.sqrt(x) + sp.exp(x) + sp.E + sp.pi, 0),
        Interval(box={"x": (1, 2)}, covers="h"),
        {"lo": ge(x, 1), "hi": le(x, 2)},
    ),
    "interval log never defined": (
        ge(sp.log(x - 3), 0),
        Interval(box={"x": (1, 2)}, covers="h"),
        {"lo": ge(x, 1), "hi": le(x, 2)},
    ),
    "interval unsupported function": (
        ge(sp.Abs(x), 0),
        Interval(box={"x": (1, 2)}, covers="h"),
        {"lo": ge(x, 1), "hi": le(x, 2)},
    ),
    "interval two variables": (
        ge(x * y + 1, 0),
        Interval(box={"x": (0, 1), "y": (0, 3)}, covers="h"),
        {"lo": ge(x, 0), "hi": le(x, 1), "ylo": ge(y, 0), "yhi": le(y, 3)},
    ),
    "apply ok": (
        ge(y**2 + 1, 0),
        Apply(
            lemma=Obligation(
                "sq", "X", {"h": ge(a, 0)}, ge(a + 1, 0), Certificate(terms=(Term((), "h"), Term((1,), None)))
            ),
            mapping={a: y**2},
            premises={"h": Certificate(squares=(y,))},
        ),
        {},
    ),
    "apply missing premise": (
        ge(y**2 + 1, 0),
        Apply(
            lemma=Obligation(
                "sq", "X", {"h": ge(a, 0)}, ge(a + 1, 0), Certificate(terms=(Term((), "h"), Term((1,), None)))
            ),
            mapping={a: y**2},
            premises={},
        ),
        {},
    ),
    "apply premise fails": (
        ge(y + 1, 0),
        Apply(
            lemma=Obligation(
                "sq", "X", {"h": ge(a, 0)}, ge(a + 1, 0), Certificate(terms=(Term((), "h"), Term((1,), None)))
            ),
            mapping={a: y},
            premises={"h": Certificate()},
        ),
        {},
    ),
    "apply lemma fails": (
        ge(y + 1, 0),
        Apply(lemma=Obligation("bad", "X", {}, ge(a + 1, 0), Certificate()), mapping={a: y}, premises={}),
        {},
    ),
    "apply forall hypothesis": (
        ge(y + 1, 0),
        Apply(
            lemma=Obligation(
                "fa",
                "X",
                {"all": Forall(n, ge(n, 0), 0)},
                ge(a**2 + 1, 0),
                Certificate(squares=(a,), terms=(Term((1,), None),)),
            ),
            mapping={a: y},
            premises={},
        ),
        {},
    ),
    "apply image undefined": (
        ge(1 / y, 0),
        Apply(
            lemma=Obligation("sq", "X", {}, ge(a**2, 0), Certificate(squares=(a,))),
            mapping={a: 1 / y},
            premises={},
        ),
        {},
    ),
    "apply weaker strictness": (
        gt(y**2 + 1, 0),
        Apply(
            lemma=Obligation(
                "sq", "X", {}, ge(a**2 + 1, 0), Certificate(squares=(a,), terms=(Term((1,), None),))
            ),
            mapping={a: y},
            premises={},
        ),
        {},
    ),
    "apply equality": (
        E(y + y, 2 * y),
        Apply(lemma=Obligation("eq", "X", {}, E(a + a, 2 * a), Identity()), mapping={a: y}, premises={}),
        {},
    ),
    "apply equality vs inequality": (
        ge(2 * y - y - y, 0),
        Apply(lemma=Obligation("eq", "X", {}, E(a + a, 2 * a), Identity()), mapping={a: y}, premises={}),
        {},
    ),
    "claim symbol not real": (ge(sp.Symbol("z") ** 2, 0), Certificate(squares=(sp.Symbol("z"),)), {}),
    "hypothesis not sympy": (ge(x**2, 0), Certificate(squares=(x,)), {"h": "x >= 0"}),
}

# name: (None if accepted, else the failure kind, the exact message)
EXPECTED = {
    "identity matrix entry": (K.RESIDUAL, "identity fails at entry (0, 1): residual -1"),
    "identity matrix shapes": (K.MISMATCH, "shapes differ: (1, 2) vs (2, 1)"),
    "identity not an equality": (K.MISMATCH, "Identity proves equalities, got x >= 0"),
    "identity residual": (K.RESIDUAL, "identity fails: lhs - rhs = -1"),
    "identity with substitution": (K.RESIDUAL, "identity fails: lhs - rhs = 1"),
    "monotone strict": (K.MISMATCH, "Monotone proves non-strict claims"),
    "monotone not a symbol": (K.MALFORMED, "Monotone needs a symbol, got x**2"),
    "monotone a depends on x": (K.MALFORMED, "the interval [x, oo] depends on x"),
    "monotone b depends on x": (K.MALFORMED, "the interval [0, x] depends on x"),
    "monotone upper end missing": (K.UNCOVERED, "no hypothesis (among domain=('lo',)) states 1 - x >= 0"),
    "monotone decreasing ok": (None, ""),
    "monotone decreasing to oo": (K.MALFORMED, "a decreasing function needs a finite right end b"),
    "monotone f(a) negative": (K.SIGN, "f(0) = -1 is not an exact rational >= 0"),
    "monotone derivative wrong": (
        K.RESIDUAL,
        "derivative -1: certificate does not match: m (B - A) - sum = -2",
    ),
    "monotone uses x_ge_a": (None, ""),
    "monotone uses x_le_b": (None, ""),
    "monotone nonpositive x": (K.DOMAIN, "x is declared nonpositive: not supported"),
    "monotone positive x from 1": (None, ""),
    "monotone domain hyp is equality": (K.UNCOVERED, "no hypothesis (among domain=('lo',)) states x >= 0"),
    "induction not integer": (K.DOMAIN, "induction needs an integer symbol, got x"),
    "induction bool start": (K.MALFORMED, "induction start must be an int, got True"),
    "induction base fails": (K.RESIDUAL, "base case n = 0: certificate does not match: m (B - A) - sum = -1"),
    "induction ok": (None, ""),
    "induction step uses n_ge_start": (None, ""),
    "induction nonneg domain": (None, ""),
    "induction forall": (
        K.RESIDUAL,
        "induction step n -> n + 1: certificate does not match: m (B - A) - sum = -f(n) + f(n + 1)",
    ),
    "chain final fails": (
        K.RESIDUAL,
        "final step: certificate does not match: m (B - A) - sum = -x**2 + x - 1",
    ),
    "chain ok": (None, ""),
    "cases max ok": (None, ""),
    "cases nonstrict multiple": (K.SIGN, "cannot decide the sign of a*x from the case x: ratio a"),
    "cases negative multiple": (K.SIGN, "cannot decide the sign of -2*x from the case x: ratio -2"),
    "cases neg proof fails": (
        K.RESIDUAL,
        "case expr < 0 (x): certificate does not match: m (B - A) - sum = 2*x",
    ),
    "iff ok": (None, ""),
    "iff forward fails": (K.RESIDUAL, "=>: certificate does not match: m (B - A) - sum = -1"),
    "iff not equivalence": (K.MISMATCH, "Iff proves P <=> Q, got x >= 0"),
    "iff side not relation": (K.UNDEFINED, "symbol P is not declared real"),
    "both ok": (None, ""),
    "both second fails": (
        K.RESIDUAL,
        "conjunct 1 (x**2 - 1 >= 0): certificate does not match: m (B - A) - sum = -1",
    ),
    "modus ponens not implication": (K.MISMATCH, "hypothesis 'imp' is not an implication"),
    "modus ponens ok": (None, ""),
    "contradiction ok": (None, ""),
    "sign strict ok": (None, ""),
    "sign strict fails": (K.SIGN, "sympy cannot decide x**2 - x > 0 from the assumptions"),
    "sign nonstrict ok": (None, ""),
    "certificate forall hyp": (
        K.MISMATCH,
        "hypothesis 'all' is not an inequality: for all integers n >= 0: n >= 0",
    ),
    "certificate equality hyp": (K.MISMATCH, "hypothesis 'eq' is not an inequality: Eq(x, 0)"),
    "certificate ne hyp": (K.MISMATCH, "hypothesis 'ne' is not an inequality: Ne(x, 0)"),
    "certificate square multiplier": (K.SIGN, "a square is not a strictly positive multiplier"),
    "certificate power ok": (None, ""),
    "certificate power nonstrict": (
        K.UNDEFINED,
        "the base of the real power x**y must be > 0, and neither the hypotheses nor the symbols' domains say so",
    ),
    "certificate inverse ok": (None, ""),
    "certificate inverse nonstrict": (K.SIGN, "1/(x) needs the strict hypothesis 'h' > 0"),
    "certificate unknown factor": (K.MALFORMED, "unknown factor 0.5"),
    "certificate bool factor": (K.MALFORMED, "unknown factor True"),
    "certificate zero multiplier": (K.SIGN, "coefficient 0 is not positive"),
    "certificate sympy rational": (None, ""),
    "certificate strict via strict term": (None, ""),
    "certificate strict multiplier hyp": (None, ""),
    "certificate strict needs strict term": (
        K.SIGN,
        "strict claim, but no strictly positive term in the certificate",
    ),
    "certificate zero coefficient not strict": (
        K.SIGN,
        "strict claim, but no strictly positive term in the certificate",
    ),
    "certificate with substitution": (None, ""),
    "interval ok": (None, ""),
    "interval strict ok": (None, ""),
    "interval strict touches": (K.UNDECIDED, "interval bound not decided after 18 bisections (2 boxes left)"),
    "interval empty": (K.MALFORMED, "box x: empty interval [2, 0]"),
    "interval float box": (K.MALFORMED, "box x: 0.5 is not an exact rational"),
    "interval irrational box": (K.MALFORMED, "box x: sqrt(2) is not a rational number"),
    "interval missing symbol": (K.UNCOVERED, "the box does not bound ['y']"),
    "interval undecided": (K.UNDECIDED, "interval bound not decided after 3 bisections (10 boxes left)"),
    "interval log sqrt exp": (None, ""),
    "interval log never defined": (
        K.UNDEFINED,
        "on box [mpi('1.0', '2.0')]: the argument of log(x - 3) must be > 0",
    ),
    "interval unsupported function": (K.MALFORMED, "interval arithmetic does not evaluate Abs(x)"),
    "interval two variables": (None, ""),
    "apply ok": (None, ""),
    "apply missing premise": (K.UNKNOWN, "lemma 'sq': no proof for its hypothesis 'h'"),
    "apply premise fails": (
        K.RESIDUAL,
        "lemma hypothesis 'h': certificate does not match: m (B - A) - sum = y",
    ),
    "apply lemma fails": (K.RESIDUAL, "lemma 'bad': certificate does not match: m (B - A) - sum = a + 1"),
    "apply forall hypothesis": (K.MALFORMED, "lemma hypothesis 'all' is a Forall: not applicable"),
    "apply image undefined": (
        K.UNDEFINED,
        "the denominator y must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    "apply weaker strictness": (K.MISMATCH, "the lemma gives y**2 + 1 >= 0, not y**2 + 1 > 0"),
    "apply equality": (None, ""),
    "apply equality vs inequality": (K.MISMATCH, "the lemma gives Eq(2*y, 2*y), not 0 >= 0"),
    "claim symbol not real": (K.UNDEFINED, "symbol z is not declared real"),
    "hypothesis not sympy": (K.MALFORMED, "hypothesis 'h' is not a sympy relation: 'x >= 0'"),
}


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_catalogue_outcome_is_exact(name: str) -> None:
    claim, proof, hyps = CATALOGUE[name]
    result = check_obligation(Obligation(name, "X", hyps, claim, proof))
    kind, message = EXPECTED[name]
    assert (result.ok, result.kind, result.message) == (kind is None, kind, message)


# the soundness corpus (tests/proofs/test_checker_soundness.py), message by message
SOUNDNESS_MESSAGES = [
    (
        0,
        K.SCOPE,
        "derivative 2*x - 2: hypothesis 'x_ge_1' is not available here: it mentions x, which Monotone quantifies over",
    ),
    (
        1,
        K.UNDEFINED,
        "the denominator 1 - x must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    (2, K.DOMAIN, "x is declared extended_negative but ranges over [-1, oo] where that is not known"),
    (3, K.UNCOVERED, "no hypothesis (among domain=()) states x >= 0"),
    (4, K.MISMATCH, "the monotone function x**3 + x is not the claim's difference x**3 + x"),
    (
        5,
        K.SCOPE,
        "induction step n -> n + 1: hypothesis 'big' is not available here: it mentions n, which Induction quantifies over",
    ),
    (6, K.UNCOVERED, "no hypothesis or domain gives n >= 1: the induction does not reach the point"),
    (7, K.DOMAIN, "n is declared extended_nonpositive, but the induction ranges over the integers >= 0"),
    (
        8,
        K.SCOPE,
        "induction step n -> n + 1: hypothesis 'rec' is not available here: it mentions n, which Induction quantifies over",
    ),
    (9, K.MISMATCH, "induction step n -> n + 1: substitution 'rec' is not an equality hypothesis"),
    (10, K.UNDEFINED, "a square: I is not a real number"),
    (
        11,
        K.UNDEFINED,
        "a square: the base of sqrt(x) must be >= 0, and neither the hypotheses nor the symbols' domains say so",
    ),
    (12, K.SIGN, "hypothesis 'x_nonneg' is not strict (> 0) but a multiplier must be"),
    (13, K.SIGN, "coefficient -1 is not nonnegative"),
    (
        14,
        K.UNDEFINED,
        "the denominator x must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    (15, K.SIGN, "strict claim, but no strictly positive term in the certificate"),
    (
        16,
        K.UNDEFINED,
        "the denominator x - 1 must be nonzero, and neither the hypotheses nor the symbols' domains say so",
    ),
    (
        17,
        K.UNDEFINED,
        "the argument of log(x*y) must be > 0, and neither the hypotheses nor the symbols' domains say so",
    ),
    (18, K.MISMATCH, "substitution 'h' is not an equality hypothesis"),
    (19, K.UNCOVERED, "no hypothesis states x - 1 >= 0: the box does not cover the domain"),
    (
        20,
        K.UNDEFINED,
        "the claim may be undefined in the box: on box [mpi('0.0', '7.62939453125e-6')]: the denominator x may fail to be nonzero after 18 bisections",
    ),
    (21, K.MISMATCH, "the bounded expression x + 1 is not the claim's difference x - 1/2"),
    (22, K.UNDEFINED, "the float 0.100000000000000 is not exact: write a rational"),
    (23, K.COUNTEREXAMPLE, "counterexample box [mpi('0.0', '0.25')]: x - 1/2 in [-0.5, -0.25]"),
    (24, K.UNKNOWN, "step 'first' (x > 0): unknown hypothesis 'second' (have [])"),
    (25, K.RESIDUAL, "step 'cube' (x**3 >= 0): certificate does not match: m (B - A) - sum = x**3 - x**2"),
    (26, K.UNDEFINED, "the case split: I is not a real number"),
    (
        27,
        K.UNDEFINED,
        "the case split: the base of sqrt(x) must be >= 0, and neither the hypotheses nor the symbols' domains say so",
    ),
    (28, K.SIGN, "cannot decide the sign of -x from the case x: ratio -1"),
    (29, K.RESIDUAL, "no contradiction: certificate does not match: m (B - A) - sum = -x"),
    (30, K.SIGN, "no contradiction: strict claim, but no strictly positive term in the certificate"),
    (31, K.DOMAIN, "lemma symbol y is declared extended_negative but that is not known of its image x - 1"),
    (32, K.MALFORMED, "a lemma is instantiated at symbols, not at x**2"),
    (33, K.MISMATCH, "the lemma gives x**2 >= 0, not x**2 >= 1"),
    (34, K.SIGN, "sympy cannot decide x >= 0 from the assumptions"),
    (35, K.UNDEFINED, "symbol z is not declared real"),
    (36, K.SIGN, "sympy cannot decide x - 1/x >= 0 from the assumptions"),
    (37, K.RESIDUAL, "<=: certificate does not match: m (B - A) - sum = -1"),
    (38, K.MISMATCH, "x >= 2 is not a side of Equivalent(x >= 0, x >= 1)"),
    (39, K.RESIDUAL, "conjunct 0 (x >= 0): certificate does not match: m (B - A) - sum = -x**2 + x"),
    (40, K.MISMATCH, "Both needs one proof per conjunct of (x >= 0) & (x**2 >= 0)"),
    (41, K.RESIDUAL, "premise of 'imp': certificate does not match: m (B - A) - sum = -1"),
    (42, K.MISMATCH, "the implication gives y >= 0, not y >= 1"),
]


def test_soundness_corpus_messages_are_exact() -> None:
    assert len(SOUNDNESS_MESSAGES) == len(CASES)
    for i, kind, message in SOUNDNESS_MESSAGES:
        result = check_obligation(CASES[i].obligation)
        assert (result.ok, result.kind, result.message) == (False, kind, message), CASES[i].why
