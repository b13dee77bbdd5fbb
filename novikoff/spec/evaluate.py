"""Exact evaluation of sympy statements: compile once, evaluate on Fractions.

The reference solvers check theorems by evaluating the spec's own sympy
objects, not retyped formulas. ``compile_exact`` turns a sympy expression built
from symbols, integers, rationals, ``+``, ``*``, integer powers, ``Min``/``Max``,
relationals and the boolean connectives into a Python closure that evaluates
it with :class:`fractions.Fraction` arithmetic, so no float ever decides.
Anything else (sqrt, log, real powers) is refused with ``TypeError``: those
statements need interval arithmetic instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import reduce
from typing import Any

import sympy as sp

__all__ = ["compile_exact", "evaluate_exact"]

Value = Fraction | bool
Env = Mapping[str, Fraction]
Compiled = Callable[[Env], Value]

_REL = {
    sp.StrictLessThan: lambda a, b: a < b,
    sp.LessThan: lambda a, b: a <= b,
    sp.StrictGreaterThan: lambda a, b: a > b,
    sp.GreaterThan: lambda a, b: a >= b,
    sp.Equality: lambda a, b: a == b,
    sp.Unequality: lambda a, b: a != b,
}


def compile_exact(expr: sp.Basic) -> Compiled:
    """Compile ``expr`` to ``f(env) -> Fraction | bool`` with ``env`` mapping symbol names to values."""
    if isinstance(expr, sp.Symbol):
        name = expr.name

        def symbol(env: Env) -> Fraction:
            try:
                return Fraction(env[name])
            except KeyError:
                raise KeyError(f"no value for symbol {name!r}") from None

        return symbol
    if isinstance(expr, sp.Rational):  # Integer is a Rational
        const = Fraction(int(expr.p), int(expr.q))
        return lambda env: const
    if expr is sp.true or expr is sp.false:
        truth = bool(expr)
        return lambda env: truth
    parts = [compile_exact(a) for a in expr.args]
    if isinstance(expr, sp.Add):
        return lambda env: sum((f(env) for f in parts), Fraction(0))
    if isinstance(expr, sp.Mul):
        return lambda env: reduce(lambda a, b: a * b, (f(env) for f in parts), Fraction(1))
    if isinstance(expr, sp.Pow):
        exponent = expr.args[1]
        if not isinstance(exponent, sp.Integer):
            raise TypeError(f"not an exact rational expression (real power): {expr}")
        base, e = parts[0], int(exponent)
        return lambda env: base(env) ** e
    if isinstance(expr, sp.Min):
        return lambda env: min(f(env) for f in parts)
    if isinstance(expr, sp.Max):
        return lambda env: max(f(env) for f in parts)
    for rel, op in _REL.items():
        if isinstance(expr, rel):
            return _relation(op, parts[0], parts[1])
    if isinstance(expr, sp.And):
        return lambda env: all(f(env) for f in parts)
    if isinstance(expr, sp.Or):
        return lambda env: any(f(env) for f in parts)
    if isinstance(expr, sp.Not):
        return lambda env: not parts[0](env)
    if isinstance(expr, sp.Implies):
        return lambda env: (not parts[0](env)) or bool(parts[1](env))
    if isinstance(expr, sp.Equivalent):
        return lambda env: len({bool(f(env)) for f in parts}) == 1
    raise TypeError(f"not an exact rational expression: {expr} ({type(expr).__name__})")


def _relation(op: Callable[[Any, Any], bool], lhs: Compiled, rhs: Compiled) -> Compiled:
    return lambda env: op(lhs(env), rhs(env))


def evaluate_exact(expr: sp.Basic, env: Env) -> Value:
    """One-off exact evaluation (compiles each call; use compile_exact in loops)."""
    return compile_exact(expr)(env)
