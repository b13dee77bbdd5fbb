"""Relations kept as relations, a claim read as ``D >= 0`` or ``D > 0``, and the
canonical form (:func:`normal`) in which the rules compare expressions.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core.failures import FailureKind, ProofFailure

__all__ = ["difference", "ge", "gt", "is_zero", "le", "lt", "normal"]


def ge(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a >= b`` kept as a relation (sympy would otherwise decide it from assumptions)."""
    return sp.Ge(a, b, evaluate=False)


def gt(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a > b`` kept as a relation."""
    return sp.Gt(a, b, evaluate=False)


def le(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a <= b`` kept as a relation."""
    return sp.Le(a, b, evaluate=False)


def lt(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a < b`` kept as a relation."""
    return sp.Lt(a, b, evaluate=False)


def difference(claim: sp.Basic) -> tuple[sp.Expr, bool]:
    """``claim`` as ``D >= 0`` (False) or ``D > 0`` (True): returns (D, strict)."""
    if isinstance(claim, (sp.GreaterThan, sp.StrictGreaterThan)):
        return claim.lhs - claim.rhs, isinstance(claim, sp.StrictGreaterThan)
    if isinstance(claim, (sp.LessThan, sp.StrictLessThan)):
        return claim.rhs - claim.lhs, isinstance(claim, sp.StrictLessThan)
    raise ProofFailure(f"not an inequality: {claim}", FailureKind.MISMATCH)


def normal(expr: sp.Expr) -> sp.Expr:
    """A canonical form for comparing expressions: logs of quotients and products split
    (where the assumptions make that valid), then the rational function expanded."""
    expr = expr.replace(lambda e: isinstance(e, sp.log), lambda e: sp.log(sp.factor(sp.together(e.args[0]))))
    expr = sp.expand_log(expr, force=False)
    if not any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)):
        return sp.expand(sp.cancel(sp.together(expr)))
    # symbolic exponents: combine powers of one base, (x+y)^p/(x+y) -> (x+y)^(p-1)
    # (combine="exp", x^a x^b = x^(a+b), holds for every positive base; the side
    # conditions make every base of a non-integer power positive)
    expr = sp.powsimp(expr, combine="exp")
    if expr == 0:
        return expr
    expr = sp.powsimp(sp.expand(expr), combine="exp")
    expr = sp.expand(sp.cancel(sp.together(expr)))
    return sp.expand(sp.powsimp(expr, combine="exp"))


def is_zero(expr: sp.Expr) -> bool:
    return normal(expr) == 0
