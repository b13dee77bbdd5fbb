"""The checker's closed expression language (the package docstring of
:mod:`novikoff.proofs.core` states it): :func:`screen` refuses every node outside it,
:func:`screen_formula` every formula, :func:`screen_hypothesis` every hypothesis.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef

from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.spec.core import Forall

__all__ = ["CONNECTIVES", "screen", "screen_formula", "screen_hypothesis"]

# the functions of the language (``sqrt`` is a power); an undefined function such as
# ``pw(k)`` is allowed too when it declares no assumptions or is declared real
_FUNCTIONS = (sp.exp, sp.log, sp.Abs, sp.Max, sp.Min, sp.KroneckerDelta)


_RELATIONS = sp.core.relational.Relational  # =, !=, >=, >, <=, <


CONNECTIVES = (sp.And, sp.Or, sp.Not, sp.Implies, sp.Equivalent)


_NOT_REAL_NUMBERS = (sp.zoo, sp.nan, sp.oo, -sp.oo)


def screen(expr: sp.Basic, where: str = "") -> None:
    """Refuse every node of the expression ``expr`` outside the language (the
    package docstring): ``undefined`` for a float, a number that is not real, a symbol not
    declared real or a function declared non-real; ``malformed``, naming the node, for
    every other construct (a Sum, Derivative, Integral, matrix entry, Piecewise without
    a default branch, an unknown function). Guarantees nothing about side conditions."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, sp.Float):
            raise ProofFailure(
                f"{where}the float {node} is not exact: write a rational", FailureKind.UNDEFINED
            )
        if isinstance(node, sp.Rational) or node in (sp.E, sp.pi):
            continue
        if isinstance(node, sp.Symbol):  # a Dummy is a Symbol
            if node.is_real is not True:
                raise ProofFailure(f"{where}symbol {node} is not declared real", FailureKind.UNDEFINED)
            continue
        if isinstance(node, AppliedUndef):
            if node.is_real is not True and getattr(node.func, "_explicit_class_assumptions", {}):
                raise ProofFailure(
                    f"{where}the function {node.func} is declared, but not declared real: {node} "
                    "is not a real number",
                    FailureKind.UNDEFINED,
                )
            stack.extend(node.args)
        elif isinstance(node, (sp.Add, sp.Mul, sp.Pow, *_FUNCTIONS)):
            stack.extend(node.args)
        elif isinstance(node, sp.Piecewise):
            if node.args[-1].cond is not sp.true:
                raise ProofFailure(  # malformed
                    f"{where}Piecewise {node} has no default branch (a last condition True): it is "
                    "undefined where no condition holds"
                )
            for branch in node.args:
                stack.append(branch.expr)
                screen_formula(branch.cond, where)
        elif node in _NOT_REAL_NUMBERS or (node.is_number and node.is_real is False):
            raise ProofFailure(f"{where}{node} is not a real number", FailureKind.UNDEFINED)
        elif isinstance(node, sp.Function):
            raise ProofFailure(f"{where}the checker does not reason about {node.func}")  # malformed
        else:
            raise ProofFailure(f"{where}the checker's language has no {type(node).__name__}: {node}")


def screen_formula(formula: sp.Basic, where: str = "", matrices: bool = False) -> None:
    """Refuse a formula outside the language: truth values, relations between
    expressions of the language, ``&``, ``|``, ``~``, ``=>``, ``<=>``; with ``matrices``,
    also an equation between two explicit matrices (each entry an expression)."""
    if isinstance(formula, sp.logic.boolalg.BooleanAtom):
        return
    if matrices and isinstance(formula, sp.Equality) and isinstance(formula.lhs, sp.MatrixBase):
        for side in (formula.lhs, formula.rhs):
            if not isinstance(side, sp.MatrixBase):
                raise ProofFailure(f"{where}{side} is not a matrix")  # malformed
            for entry in side:
                screen(entry, where)
        return
    if isinstance(formula, _RELATIONS):
        screen(formula.lhs, where)
        screen(formula.rhs, where)
    elif isinstance(formula, CONNECTIVES):
        for arg in formula.args:
            screen_formula(arg, where)
    else:
        if isinstance(formula, sp.Symbol):  # a propositional symbol is no relation
            screen(formula, where)
        raise ProofFailure(  # malformed
            f"{where}the checker's language has no formula {type(formula).__name__}: {formula}"
        )


def screen_hypothesis(name: str, h: object) -> None:
    """A hypothesis is a formula of the language or a :class:`Forall` of one."""
    if isinstance(h, Forall):
        screen_formula(h.body, f"hypothesis {name!r}: ")
    elif isinstance(h, sp.Basic):
        screen_formula(h, f"hypothesis {name!r}: ")
    else:
        raise ProofFailure(f"hypothesis {name!r} is not a sympy relation: {h!r}")  # malformed
