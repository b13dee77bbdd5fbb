"""The side-condition prover of the checker (``_holds``) and the domain helpers, case by case.

Each row says whether a sign fact follows from the hypotheses and the symbols' domains;
a wrong True here would let the checker accept an undefined or false claim, a wrong
False would reject a sound proof. Private helpers are tested directly because every
rule's soundness rests on them.
"""

from __future__ import annotations

import pytest
import sympy as sp

from novikoff.proofs.core import (
    Context,
    FailureKind,
    ProofFailure,
    ge,
    gt,
)
from novikoff.proofs.core.definedness import canonical as _canonical
from novikoff.proofs.core.definedness import domain_fits as _domain_fits
from novikoff.proofs.core.definedness import established as _established
from novikoff.proofs.core.definedness import holds as _holds
from novikoff.proofs.core.definedness import require_defined as _require_defined
from novikoff.proofs.core.definedness import side_conditions as _side_conditions

x, y, a, u, v = sp.symbols("x y a u v", real=True)
yp = sp.Symbol("y", positive=True)
n = sp.Symbol("n", integer=True, nonnegative=True)

HOLDS = [
    # (need, expression, hypotheses, expected)
    ("positive", x, {"h": gt(x, 0)}, True),
    ("positive", x, {"h": ge(x, 0)}, False),
    ("nonnegative", x, {"h": ge(x, 0)}, True),
    ("nonzero", x, {"h": ge(x, 0)}, False),
    ("nonzero", x, {"h": sp.Ne(x, 0)}, True),
    ("nonzero", -x, {"h": sp.Ne(x, 0)}, True),
    ("positive", x, {"h": sp.Ne(x, 0)}, False),
    ("positive", 2 * x, {"h": gt(x, 0)}, True),
    ("positive", -2 * x, {"h": gt(x, 0)}, False),
    ("nonzero", -2 * x, {"h": gt(x, 0)}, True),
    ("positive", 3 * x - 3, {"h": gt(x - 1, 0)}, True),
    ("positive", 3 * x - 3, {"h": ge(x - 1, 0)}, False),
    ("nonnegative", 3 * x - 3, {"h": ge(x - 1, 0)}, True),
    ("nonzero", 1 - x, {"h": gt(x - 1, 0)}, True),
    ("positive", 1 - x, {"h": gt(x - 1, 0)}, False),
    ("positive", x + 1, {"h": ge(x, 0)}, True),
    ("positive", x - 1, {"h": ge(x, 0)}, False),
    ("positive", x + yp, {"h": ge(x, 0)}, True),
    ("positive", x + yp, {"h": ge(-x, 0)}, False),
    ("positive", 1 + x, {"h": ge(x - 2, 0)}, True),  # x = 2 + s
    ("positive", 1 + x, {"h": ge(2 - x, 0)}, False),  # x = 2 - s is unbounded below
    ("positive", 5 - x, {"h": ge(2 - x, 0)}, True),
    ("positive", x**2, {"h": sp.Ne(x, 0)}, True),
    ("positive", x**2, {}, False),
    ("nonnegative", x**2, {}, True),
    ("positive", x**3, {"h": gt(x, 0)}, True),
    ("positive", x**3, {"h": sp.Ne(x, 0)}, False),
    ("nonzero", x**3, {"h": sp.Ne(x, 0)}, True),
    ("positive", x * y, {"hx": gt(x, 0), "hy": gt(y, 0)}, True),
    ("positive", x * y, {"hx": gt(x, 0), "hy": ge(y, 0)}, False),
    ("nonzero", x * y, {"hx": sp.Ne(x, 0), "hy": sp.Ne(y, 0)}, True),
    ("nonzero", x * y, {"hx": sp.Ne(x, 0)}, False),
    ("positive", sp.sqrt(x), {"h": gt(x, 0)}, True),
    ("positive", sp.sqrt(x), {"h": ge(x, 0)}, False),
    ("positive", sp.exp(x), {}, True),
    ("positive", x ** sp.Rational(3, 2), {"h": gt(x, 0)}, True),
    ("nonzero", 1 + u * v / a, {"a": sp.Ne(a, 0), "d": sp.Ne(a + u * v, 0)}, True),
    ("nonzero", 1 + u * v / a, {"d": sp.Ne(a + u * v, 0)}, False),
    ("positive", n + 1, {}, True),
    ("positive", n, {}, False),
    # a strict hypothesis on another expression, or with a negative bound, says nothing
    ("positive", x, {"h": gt(y, 0)}, False),
    ("positive", x, {"h": gt(x, -1)}, False),
    # b = q d for a hypothesis d (not linear in a symbol, so only this rule applies)
    ("positive", 3 * x**2 - 6, {"h": gt(x**2 - 2, 0)}, True),
    ("positive", (x**2 - 2) / 2, {"h": gt(x**2 - 2, 0)}, True),
    ("nonzero", 6 - 3 * x**2, {"h": gt(x**2 - 2, 0)}, True),
    ("positive", 6 - 3 * x**2, {"h": gt(x**2 - 2, 0)}, False),
    ("nonnegative", 3 * x**2 - 6, {"h": ge(x**2 - 2, 0)}, True),
    ("positive", 3 * x**2 - 6, {"h": ge(x**2 - 2, 0)}, False),
    ("nonzero", 3 * x**2 - 6, {"h": ge(x**2 - 2, 0)}, False),
    ("positive", sp.Integer(0), {"h": gt(x**2 - 2, 0)}, False),
    ("nonzero", sp.Integer(0), {"h": gt(x**2 - 2, 0)}, False),
    # b = d + r, r >= 0 (> 0)
    ("positive", x**2 - 1, {"h": ge(x**2 - 2, 0)}, True),
    ("nonnegative", x**2 - 2 + y**2, {"h": ge(x**2 - 2, 0)}, True),
    ("positive", x**2 - 2 + y**2, {"h": gt(x**2 - 2, 0)}, True),
    ("positive", x**2 - 2 + y**2, {"h": ge(x**2 - 2, 0)}, False),
    # x = a + s (a - s) for a hypothesis +-(x - a) >= 0, s >= 0 (> 0 if strict)
    ("positive", x**2 - 3, {"h": ge(x - 2, 0)}, True),
    ("positive", x**2 - 3, {"h": ge(-x - 2, 0)}, True),
    ("positive", x - 5, {"h": ge(2 * x - 4, 0)}, False),  # x >= 2 is not x = 4 + 2s
    ("positive", x**2 - 4, {"h": gt(x - 2, 0)}, True),
    ("positive", x**2 - 4, {"h": ge(x - 2, 0)}, False),
    # the quotient by a hypothesis d != c, c not 0; 0 is never nonzero
    ("nonzero", x - 1, {"h": sp.Ne(x, 1)}, True),
    ("nonzero", x + 1, {"h": sp.Ne(x, 1)}, False),  # x != 1 says nothing of x + 1
    ("nonzero", x, {"h": sp.Ne(x, -x)}, True),  # x = (x - (-x)) / 2
    ("nonzero", sp.Integer(0), {"h": sp.Ne(x, 0)}, False),
    # products with a coefficient in (0, 1) or negative; powers and exp of an unknown f(x)
    ("positive", x * y / 2, {"hx": gt(x, 0), "hy": gt(y, 0)}, True),
    ("nonnegative", -2 * x * y, {}, False),
    ("nonnegative", sp.Function("f")(x) ** 2, {}, True),
    ("positive", sp.exp(sp.Function("f")(x)), {}, True),
    ("nonnegative", x**-2, {}, False),  # undefined at 0
    ("nonnegative", x**-3, {"h": ge(x, 0)}, False),  # undefined at 0
]


@pytest.mark.parametrize(
    "need, expr, hyps, expected", HOLDS, ids=[f"{r[0]}:{r[1]}:{sorted(r[2])}" for r in HOLDS]
)
def test_sign_facts_follow_exactly_when_they_should(
    need: str, expr: sp.Expr, hyps: dict, expected: bool
) -> None:
    assert _holds(need, expr, Context(hyps)) is expected


def test_hypotheses_stated_as_written_count_at_any_depth() -> None:
    # beyond depth 4 only the hypotheses themselves, the assumptions and the relations count
    ctx = Context({"h": sp.Ne(x, 0), "g": gt(y, 0)})
    assert [_holds("nonzero", x, ctx, 5), _holds("nonzero", -x, ctx, 5), _holds("positive", y, ctx, 5)] == [
        True,
        True,
        True,
    ]
    assert [
        _holds("positive", x, ctx, 5),
        _holds("nonzero", 2 * x, ctx, 5),
        _holds("nonzero", y, ctx, 5),
    ] == [
        False,
        False,
        True,
    ]


def test_a_hidden_hypothesis_does_not_count() -> None:
    ctx = Context({"h": gt(x, 0)}).without(x, "Monotone")
    assert not _holds("positive", x, ctx)
    with pytest.raises(ProofFailure) as exc:
        ctx.lookup("h")
    assert exc.value.kind is FailureKind.SCOPE and "Monotone" in str(exc.value)
    unhidden = ctx.extended(h=gt(x, 0))
    assert _holds("positive", x, unhidden) and "h" not in unhidden.hidden


def test_side_conditions_name_each_singular_place_once() -> None:
    expr = 1 / x + 1 / x + sp.log(y) + sp.sqrt(a) + x ** sp.Symbol("p", real=True)
    conditions = {(need, base) for need, base, _ in _side_conditions(expr)}
    assert conditions == {("nonzero", x), ("positive", y), ("nonnegative", a), ("positive", x)}
    assert len(_side_conditions(expr)) == len(conditions)
    assert _side_conditions(x**2 + 3 * x) == []


@pytest.mark.parametrize(
    "expr, fragment",
    [
        (sp.Float(0.5) * x, "not exact"),
        (sp.I * x, "not a real number"),
        (sp.zoo, "not a real number"),
        (sp.sin(x), "does not reason about"),
    ],
)
def test_expressions_that_are_never_allowed(expr: sp.Expr, fragment: str) -> None:
    with pytest.raises(ProofFailure) as exc:
        _require_defined(expr, Context())
    assert fragment in str(exc.value)


def test_require_defined_names_the_condition() -> None:
    with pytest.raises(ProofFailure) as exc:
        _require_defined(1 / (x - 1), Context({"h": ge(x, 0)}), "the claim: ")
    assert exc.value.kind is FailureKind.UNDEFINED
    assert str(exc.value).startswith("the claim: the denominator x - 1 must be nonzero")
    _require_defined(1 / (x + 1), Context({"h": ge(x, 0)}))  # defined: no exception


def test_canonical_ranges_and_domain_fit() -> None:
    assert _canonical(False, False).assumptions0.get("positive") is None
    assert _canonical(True, False).is_nonnegative and not _canonical(True, False).is_positive
    assert _canonical(True, True).is_positive
    assert _canonical(True, True, integer=True).is_integer
    assert _canonical(False, False, integer=False).is_integer is None
    assert _canonical(False, False, integer=True).is_integer  # induction from a negative start
    assert _domain_fits(sp.Symbol("t", real=True), _canonical(False, False)) is None
    assert _domain_fits(sp.Symbol("t", positive=True), _canonical(True, False)) is not None  # 0 is in range
    assert _domain_fits(sp.Symbol("t", positive=True), _canonical(True, True)) is None
    assert (
        _domain_fits(sp.Symbol("t", integer=True), _canonical(True, True)) is not None
    )  # not real-valued only
    assert (
        _domain_fits(sp.Symbol("t", integer=True, nonnegative=True), _canonical(True, False, integer=True))
        is None
    )


def test_established_facts_of_an_image() -> None:
    ctx = Context({"h": ge(x, 0)})
    assert _established(x + 1, ctx).is_positive
    assert _established(x, ctx).is_nonnegative and not _established(x, ctx).is_positive
    assert _established(x - 1, ctx).is_positive is None and _established(x - 1, ctx).is_real
    assert _established(n + 1, Context()).is_integer and _established(n + 1, Context()).is_positive
    assert _established(x, Context({"h": sp.Ne(x, 0)})).is_nonzero
    assert _established(x / 2, ctx).is_integer is None
