"""The bound-expression parser: exact numbers, the whitelist, errors with their column."""

from __future__ import annotations

import pytest
import sympy as sp

from novikoff.fuzz.bounds import BOUND_SYMBOLS, DEPRECATED_SYMBOLS, BoundSyntaxError, parse_bound

R, gamma, R2, gamma2, m, d = (BOUND_SYMBOLS[n] for n in ("R", "gamma", "R2", "gamma2", "m", "d"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R**2/gamma**2", R**2 / gamma**2),
        ("0.99*R**2/gamma**2", sp.Rational(99, 100) * R**2 / gamma**2),
        ("R2/gamma2 + 1e-3", R2 / gamma2 + sp.Rational(1, 1000)),
        ("floor(R2/gamma2) + 1", sp.floor(R2 / gamma2) + 1),
        ("min(m, d) * sqrt(R2)", sp.Min(m, d) * sp.sqrt(R2)),
        ("max(1, log(m), exp(-gamma))", sp.Max(1, sp.log(m), sp.exp(-gamma))),
        ("-(-R)", R),
        ("ceil(2.5)", 3),
    ],
)
def test_valid_bounds_parse_exactly(text: str, expected: sp.Expr) -> None:
    assert sp.simplify(parse_bound(text) - expected) == 0


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("__import__('os').system('true')", 1, "unknown function"),
        ("R.__class__", 1, "attribute access"),
        ("(lambda: 1)()", 1, "unknown function"),
        ("lambda: 1", 1, "lambdas"),
        ("R**2 / foo", 8, "unknown name 'foo'"),
        ("R ^ 2", 1, "use ** for powers"),
        ("R2 / gamma2 +", 14, "ends too early"),
        ("R2 / (gamma2", 6, "syntax error"),
        ("", 1, "empty"),
        ("'R'", 1, "not a number"),
        ("R2 if m else d", 1, "IfExp is not allowed"),
        ("sqrt(R2, 2)", 1, "sqrt takes 1"),
        ("log(x=R2)", 7, "keyword"),
        ("1/0", 1, "not finite"),
        ("[R]", 1, "List is not allowed"),
    ],
)
def test_malformed_bounds_name_the_column(text: str, column: int, message: str) -> None:
    with pytest.raises(BoundSyntaxError) as info:
        parse_bound(text)
    assert info.value.column == column, str(info.value)
    assert message in str(info.value)


def test_d2_is_read_as_the_squared_deviation_s_old_name() -> None:
    # D2 names PDM's margin theorem; bounds in earlier replay files used it for D^2
    assert DEPRECATED_SYMBOLS == {"D2": "deviation2"}
    new = parse_bound("(sqrt(R2) + sqrt(deviation2))**2/gamma2", "perceptron", nonseparable=True)
    old = parse_bound("(sqrt(R2) + sqrt(D2))**2/gamma2", "perceptron", nonseparable=True)
    assert old == new and BOUND_SYMBOLS["deviation2"] in new.free_symbols
    for text in ("deviation2/gamma2", "D2/gamma2"):  # a non-separable symbol, under either name
        with pytest.raises(BoundSyntaxError, match="add --nonseparable"):
            parse_bound(text, "perceptron")
