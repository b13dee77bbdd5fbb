"""Parse a proposed bound on the number of updates, safely, into a sympy expression.

The text is parsed by Python's ``ast`` (which never runs anything) and every node
is checked against a whitelist; nothing reaches ``eval`` or ``sympify``. Allowed:

- symbols ``R``, ``gamma``, ``R2``, ``gamma2`` (positive reals), ``m`` (samples) and
  ``d`` (features) (positive integers), and per algorithm (:data:`ALGORITHM_SYMBOLS`)
  ``eps`` (PDM's accuracy; for PFM eps = 1 - beta/gamma), ``beta`` (PFM's margin) and
  ``K`` (classes, multiclass; there gamma is the Kesler margin); in a non-separable campaign
  (``nonseparable=True``, :data:`NONSEPARABLE_SYMBOLS`) also ``D`` (the Freund-Schapire
  deviation) and ``deviation2`` = D^2 = T sum_i max(0, gamma - u.z_i/||u||)^2 (``D2``, its
  old name, is still read) and ``T`` (passes);
- numbers, read exactly (``0.99`` is 99/100, ``1e-3`` is 1/1000);
- ``+ - * / **``, unary ``-``/``+``, parentheses;
- functions ``floor``, ``ceil``, ``sqrt``, ``log`` (natural), ``exp``, ``min``, ``max``.

Anything else raises :class:`BoundSyntaxError`, whose message gives the 1-based
column of the problem (the CLI exits 2 with it).

Bounded by construction (the defaults of :class:`BoundLimits`, each settable on the
command line): at most ``MAX_LENGTH`` characters and ``MAX_DEPTH`` levels
of nesting; a power of two numbers may have at most ``MAX_POWER_DIGITS`` digits
(``10**10**10`` is refused at once instead of being computed) and a power's numeric
exponent at most ``MAX_EXPONENT`` in absolute value. A bound that is not real
(``sqrt(-1)``, ``log(-2)``) is refused: it bounds nothing.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable

import sympy as sp

from novikoff.errors import InputError
from novikoff.exact.rational import parse_rational
from novikoff.fuzz.bound_limits import DEFAULT_LIMITS, BoundLimits
from novikoff.fuzz.registry import ALGORITHMS

__all__ = [
    "ALGORITHM_SYMBOLS",
    "BOUND_FUNCTIONS",
    "BOUND_SYMBOLS",
    "DEFAULT_LIMITS",
    "DEPRECATED_SYMBOLS",
    "NONSEPARABLE_SYMBOLS",
    "BoundLimits",
    "BoundSyntaxError",
    "parse_bound",
]

BOUND_SYMBOLS: dict[str, sp.Symbol] = {
    "R": sp.Symbol("R", positive=True),
    "gamma": sp.Symbol("gamma", positive=True),
    "R2": sp.Symbol("R2", positive=True),
    "gamma2": sp.Symbol("gamma2", positive=True),
    "m": sp.Symbol("m", integer=True, positive=True),
    "d": sp.Symbol("d", integer=True, positive=True),
    "eps": sp.Symbol("eps", positive=True),
    "beta": sp.Symbol("beta", nonnegative=True),
    "K": sp.Symbol("K", integer=True, positive=True),
    "D": sp.Symbol("D", nonnegative=True),
    "deviation2": sp.Symbol("deviation2", nonnegative=True),
    "T": sp.Symbol("T", integer=True, positive=True),
}

#: The symbols a non-separable campaign adds (``falsify --nonseparable``): D, deviation2 = D^2, T.
NONSEPARABLE_SYMBOLS: tuple[str, ...] = ("D", "deviation2", "T")

#: Old symbol names still read: old -> the symbol's name (``D2`` names PDM's margin theorem;
#: bounds in earlier replay files use it for the squared deviation).
DEPRECATED_SYMBOLS: dict[str, str] = {"D2": "deviation2"}

#: The symbols each algorithm's bound may use (:attr:`novikoff.fuzz.registry.Algorithm.bound_symbols`).
ALGORITHM_SYMBOLS: dict[str, tuple[str, ...]] = {a.name: a.bound_symbols for a in ALGORITHMS.values()}

BOUND_FUNCTIONS: dict[str, tuple[int, Callable[..., sp.Expr]]] = {
    "floor": (1, sp.floor),
    "ceil": (1, sp.ceiling),
    "sqrt": (1, sp.sqrt),
    "log": (1, sp.log),
    "exp": (1, sp.exp),
    "min": (-1, sp.Min),
    "max": (-1, sp.Max),
}

_BINARY: dict[type, Callable[[sp.Expr, sp.Expr], sp.Expr]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


class BoundSyntaxError(InputError):
    """A bound expression that is not in the whitelisted language; ``column`` is 1-based."""

    def __init__(self, text: str, column: int, message: str) -> None:
        self.text = text
        self.column = column
        pointer = f"\n  {text}\n  {' ' * (column - 1)}^" if len(text) <= 200 else ""
        super().__init__(f"bound expression, column {column}: {message}{pointer}")


def parse_bound(
    text: str,
    algorithm: str = "perceptron",
    limits: BoundLimits = DEFAULT_LIMITS,
    *,
    nonseparable: bool = False,
) -> sp.Expr:
    """The sympy expression of ``text`` (see the module docstring); exact and finite.

    Only the symbols of ``algorithm`` (:data:`ALGORITHM_SYMBOLS`) are accepted, and with
    ``nonseparable`` (perceptron only) also :data:`NONSEPARABLE_SYMBOLS`; a text
    beyond ``limits`` is refused with the limit named, before anything large is computed.
    """
    if algorithm not in ALGORITHM_SYMBOLS:
        raise InputError(f"algorithm {algorithm!r}: expected one of {', '.join(ALGORITHM_SYMBOLS)}")
    symbols = ALGORITHM_SYMBOLS[algorithm]
    if nonseparable:
        if algorithm != "perceptron":
            raise InputError(
                f"--nonseparable: the Freund-Schapire campaign runs the perceptron, not {algorithm}"
            )
        symbols = (*symbols, *NONSEPARABLE_SYMBOLS)
    if not isinstance(text, str):
        raise BoundSyntaxError(str(text), 1, "the bound must be text")
    if not text.strip():
        raise BoundSyntaxError(text, 1, "empty expression")
    if len(text) > limits.length:
        raise BoundSyntaxError(text[:50], 1, f"longer than {limits.length} characters (--max-bound-length)")
    stripped = text.strip()
    try:
        tree = ast.parse(stripped, mode="eval")
    except SyntaxError as exc:
        try:  # an operator with nothing after it: point at the end
            ast.parse(stripped + " 0", mode="eval")
        except SyntaxError:
            raise BoundSyntaxError(stripped, max(exc.offset or 1, 1), f"syntax error ({exc.msg})") from None
        raise BoundSyntaxError(
            stripped, len(stripped) + 1, "syntax error (the expression ends too early)"
        ) from None
    depth = _depth(tree.body, limits.depth)
    if depth > limits.depth:
        raise BoundSyntaxError(
            stripped, 1, f"nested {depth} levels deep (at most {limits.depth}, --max-bound-depth)"
        )
    expr = _Builder(stripped, symbols, algorithm, limits).build(tree.body)
    if expr.has(sp.zoo, sp.oo, -sp.oo, sp.nan):
        raise BoundSyntaxError(text, 1, f"the expression is not finite ({_short(expr)})")
    if expr.has(sp.I):
        raise BoundSyntaxError(text, 1, f"the expression is not real ({_short(expr)})")
    return expr


def _short(expr: sp.Expr) -> str:
    text = str(expr)
    return text if len(text) <= 80 else text[:77] + "..."


def _depth(node: ast.AST, limit: int) -> int:
    """Nesting depth of ``node`` (exact up to ``limit`` + 1), without recursion (a deep tree
    must not exhaust the stack)."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        if level <= limit:
            stack.extend((child, level + 1) for child in ast.iter_child_nodes(current))
    return deepest


def _power(
    node: ast.AST,
    base: sp.Expr,
    exponent: sp.Expr,
    fail: Callable[[ast.AST, str], Exception],
    limits: BoundLimits = DEFAULT_LIMITS,
) -> sp.Expr:
    """base ** exponent, refusing numbers too large to compute (see the module docstring)."""
    if exponent.is_Number:
        if abs(exponent) > limits.exponent:
            raise fail(
                node,
                f"exponent {_short(exponent)} is too large (at most {limits.exponent} in absolute value, "
                "--max-bound-exponent)",
            )
        if base.is_Number and base != 0:
            q = sp.Rational(base)
            size = max(abs(q.p), q.q)
            digits = abs(exponent) * math.log10(size)  # the digits of size**|exponent|, within one
            if digits > limits.power_digits:
                raise fail(
                    node,
                    f"the power has about {int(digits)} digits (at most {limits.power_digits}, "
                    "--max-bound-digits)",
                )
    return base**exponent


class _Builder:
    def __init__(
        self, text: str, symbols: tuple[str, ...], algorithm: str, limits: BoundLimits = DEFAULT_LIMITS
    ) -> None:
        self.text = text
        self.symbols = symbols
        self.algorithm = algorithm
        self.limits = limits

    def fail(self, node: ast.AST, message: str) -> BoundSyntaxError:
        return BoundSyntaxError(self.text, getattr(node, "col_offset", 0) + 1, message)

    def build(self, node: ast.AST) -> sp.Expr:
        if isinstance(node, ast.BinOp):
            op = _BINARY.get(type(node.op))
            if op is None:
                hint = " (use ** for powers)" if isinstance(node.op, ast.BitXor) else ""
                raise self.fail(node, f"operator {type(node.op).__name__} is not allowed{hint}")
            left, right = self.build(node.left), self.build(node.right)
            if isinstance(node.op, ast.Pow):
                return _power(node, left, right, self.fail, self.limits)
            return op(left, right)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return -self.build(node.operand)
            if isinstance(node.op, ast.UAdd):
                return self.build(node.operand)
            raise self.fail(node, f"operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.Name):
            name = DEPRECATED_SYMBOLS.get(node.id, node.id)
            if name in self.symbols:
                return BOUND_SYMBOLS[name]
            where = f" of --algorithm {self.algorithm}" if node.id in BOUND_SYMBOLS else ""
            if name in NONSEPARABLE_SYMBOLS:
                where = " (a non-separable campaign's symbol: add --nonseparable)"
            raise self.fail(
                node,
                f"unknown name {node.id!r}{where}; symbols: {', '.join(self.symbols)}; "
                f"functions: {', '.join(BOUND_FUNCTIONS)}",
            )
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise self.fail(node, f"not a number: {node.value!r}")
            segment = ast.get_source_segment(self.text, node) or repr(node.value)
            try:
                q = parse_rational(segment)  # the digits as written, exactly
            except InputError as exc:
                raise self.fail(node, str(exc)) from None
            return sp.Rational(q.numerator, q.denominator)
        if isinstance(node, ast.Call):
            func = node.func
            if not isinstance(func, ast.Name) or func.id not in BOUND_FUNCTIONS:
                name = func.id if isinstance(func, ast.Name) else type(func).__name__
                raise self.fail(node, f"unknown function {name!r}; functions: {', '.join(BOUND_FUNCTIONS)}")
            if node.keywords:
                raise self.fail(node.keywords[0].value, "keyword arguments are not allowed")
            arity, make = BOUND_FUNCTIONS[func.id]
            if (arity >= 0 and len(node.args) != arity) or (arity < 0 and len(node.args) < 2):
                wanted = f"{arity}" if arity >= 0 else "at least 2"
                raise self.fail(node, f"{func.id} takes {wanted} argument(s), got {len(node.args)}")
            return make(*(self.build(a) for a in node.args))
        if isinstance(node, ast.Attribute):
            raise self.fail(node, "attribute access is not allowed")
        if isinstance(node, ast.Lambda):
            raise self.fail(node, "lambdas are not allowed")
        raise self.fail(node, f"{type(node).__name__} is not allowed in a bound")
