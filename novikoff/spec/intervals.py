"""Rigorous evaluation of statements that leave the rationals (sqrt, log, exp, real powers).

:func:`interval_of` evaluates a sympy expression with mpmath interval arithmetic
(outward rounding, so the true value is always inside the result) from exact
inputs: symbol values are Fractions or :class:`SquareRoot` (the square root of a
nonnegative Fraction, e.g. gamma from gamma^2). :func:`decide` settles a
relation or a boolean combination: True or False only when the intervals
separate, at 128 bits, then 512, then 2048; otherwise :class:`Undecided`. A
decision is therefore never wrong; at worst it is refused.

Supported: symbols, integers, rationals, ``E``, ``pi``, ``+``, ``*``, powers
(integer exponents exactly, others as exp(y log x) on x > 0), ``sqrt`` (a power
1/2), ``exp``, ``log``, ``floor``, ``ceiling``, ``Min``, ``Max``, the six
relations and ``And``/``Or``/``Not``. Anything else raises ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

__all__ = ["PRECISIONS", "SquareRoot", "Undecided", "decide", "interval_of"]

PRECISIONS = (128, 512, 2048)

_iv = mpmath.iv


@dataclass(frozen=True)
class SquareRoot:
    """The nonnegative square root of an exact rational (kept exact, evaluated as an interval)."""

    square: Fraction

    def __post_init__(self) -> None:
        if self.square < 0:
            raise ValueError(f"SquareRoot of a negative number {self.square}")


Value = Fraction | int | SquareRoot


class Undecided(ArithmeticError):
    """The intervals did not separate at the highest precision tried (or a value is undefined)."""


def _rational(q: Fraction | int) -> Any:
    q = Fraction(q)
    return _iv.mpf(q.numerator) / q.denominator


def interval_of(expr: sp.Basic, env: Mapping[str, Value]) -> Any:
    """An mpmath interval containing the value of ``expr`` at ``env`` (current ``iv.prec``).

    Raises TypeError for unsupported constructs, KeyError for a missing symbol and
    ValueError where the expression is undefined (log of a nonpositive number, ...).
    """
    if isinstance(expr, sp.Symbol):
        value = env[expr.name]
        if isinstance(value, SquareRoot):
            return _iv.sqrt(_rational(value.square))
        return _rational(value)
    if isinstance(expr, sp.Rational):
        return _iv.mpf(int(expr.p)) / int(expr.q)
    if expr is sp.E:
        return _iv.e
    if expr is sp.pi:
        return _iv.pi
    args = [interval_of(a, env) for a in expr.args]
    if isinstance(expr, sp.Add):
        total = args[0]
        for a in args[1:]:
            total = total + a
        return total
    if isinstance(expr, sp.Mul):
        total = args[0]
        for a in args[1:]:
            total = total * a
        return total
    if isinstance(expr, sp.Pow):
        base, exponent = args
        if isinstance(expr.exp, sp.Integer):
            k = int(expr.exp)
            if k < 0 and base.a <= 0 <= base.b:
                raise ValueError(f"division by an interval containing 0 in {expr}")
            return base**k if k >= 0 else 1 / base ** (-k)
        if expr.exp == sp.Rational(1, 2):
            if base.b < 0:
                raise ValueError(f"sqrt of a negative number in {expr}")
            return _iv.sqrt(_iv.mpf([max(base.a, 0), base.b]))
        if base.a <= 0:
            raise ValueError(f"real power of a base that may be <= 0 in {expr}")
        return _iv.exp(exponent * _iv.log(base))
    if isinstance(expr, sp.exp):
        return _iv.exp(args[0])
    if isinstance(expr, sp.log):
        if len(args) != 1 or args[0].a <= 0:
            raise ValueError(f"log of a number that may be <= 0 in {expr}")
        return _iv.log(args[0])
    if isinstance(expr, sp.floor):
        return _iv.mpf([mpmath.floor(args[0].a), mpmath.floor(args[0].b)])
    if isinstance(expr, sp.ceiling):
        return _iv.mpf([mpmath.ceil(args[0].a), mpmath.ceil(args[0].b)])
    if isinstance(expr, sp.Min):
        return _iv.mpf([min(a.a for a in args), min(a.b for a in args)])
    if isinstance(expr, sp.Max):
        return _iv.mpf([max(a.a for a in args), max(a.b for a in args)])
    raise TypeError(f"cannot evaluate {type(expr).__name__} rigorously: {expr}")


_STRICT = {sp.StrictLessThan: True, sp.LessThan: False, sp.StrictGreaterThan: True, sp.GreaterThan: False}


def _decide_once(expr: sp.Basic, env: Mapping[str, Value]) -> bool | None:
    if expr is sp.true or expr is sp.false:
        return bool(expr)
    if isinstance(expr, (sp.And, sp.Or)):
        parts = [_decide_once(a, env) for a in expr.args]
        if isinstance(expr, sp.And):
            return False if False in parts else (None if None in parts else True)
        return True if True in parts else (None if None in parts else False)
    if isinstance(expr, sp.Not):
        inner = _decide_once(expr.args[0], env)
        return None if inner is None else not inner
    if isinstance(expr, (sp.Equality, sp.Unequality)):
        diff = interval_of(expr.lhs - expr.rhs, env)
        if diff.a > 0 or diff.b < 0:
            equal: bool | None = False
        elif diff.a == diff.b == 0:
            equal = True
        else:
            equal = None
        if equal is None:
            return None
        return equal if isinstance(expr, sp.Equality) else not equal
    if type(expr) in _STRICT:
        # normalise to small <= big (or <)
        if isinstance(expr, (sp.StrictLessThan, sp.LessThan)):
            small, big = expr.lhs, expr.rhs
        else:
            small, big = expr.rhs, expr.lhs
        gap = interval_of(big, env) - interval_of(small, env)
        strict = _STRICT[type(expr)]
        if gap.a > 0 or (not strict and gap.a >= 0):
            return True
        if gap.b < 0 or (strict and gap.b <= 0):
            return False
        return None
    raise TypeError(f"not a relation or boolean combination: {expr}")


def _exact_value(value: Value) -> sp.Expr:
    if isinstance(value, SquareRoot):
        q = value.square
        return sp.sqrt(sp.Rational(q.numerator, q.denominator))
    q = Fraction(value)
    return sp.Rational(q.numerator, q.denominator)


def _decide_exactly(expr: sp.Basic, env: Mapping[str, Value]) -> bool | None:
    """Exact fallback for ties the intervals cannot split: substitute exact algebraic
    values and compare (big - small), or (big^2 - small^2) when both sides are >= 0,
    if that difference is a rational number."""
    if type(expr) not in _STRICT:
        return None
    subs = {sym: _exact_value(env[sym.name]) for sym in expr.free_symbols if isinstance(sym, sp.Symbol)}
    if isinstance(expr, (sp.StrictLessThan, sp.LessThan)):
        small, big = expr.lhs.xreplace(subs), expr.rhs.xreplace(subs)
    else:
        small, big = expr.rhs.xreplace(subs), expr.lhs.xreplace(subs)
    strict = _STRICT[type(expr)]
    candidates = [sp.expand(big - small)]
    if _decide_once(sp.GreaterThan(small, 0, evaluate=False), env) and _decide_once(
        sp.GreaterThan(big, 0, evaluate=False), env
    ):
        candidates.append(sp.expand(big**2 - small**2))
    for diff in candidates:
        if isinstance(diff, sp.Rational):
            return bool(diff > 0) if strict else bool(diff >= 0)
    return None


def decide(expr: sp.Basic, env: Mapping[str, Value]) -> bool:
    """The truth of a relation (or And/Or/Not of relations) at ``env``, rigorously.

    Intervals first; a relation they cannot split (a tie, typically) is settled
    exactly when its difference, or the difference of squares of two nonnegative
    sides, is rational. Raises :class:`Undecided` otherwise, or when a value is
    undefined there.
    """
    if isinstance(expr, (sp.And, sp.Or)):
        parts = [decide(a, env) for a in expr.args]
        return all(parts) if isinstance(expr, sp.And) else any(parts)
    saved = _iv.prec
    try:
        for bits in PRECISIONS:
            _iv.prec = bits
            try:
                verdict = _decide_once(expr, env)
            except (ValueError, ZeroDivisionError) as exc:
                raise Undecided(f"{expr}: undefined at these values ({exc})") from None
            if verdict is not None:
                return verdict
        verdict = _decide_exactly(expr, env)
        if verdict is not None:
            return verdict
    finally:
        _iv.prec = saved
    raise Undecided(f"{expr}: intervals still overlap at {PRECISIONS[-1]} bits")
