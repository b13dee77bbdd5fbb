"""Monotone: ``f(a) >= 0`` and ``f' >= 0`` on ``[a, b]`` give ``f >= 0`` there (the mean value
theorem), for ``f`` continuously differentiable on ``[a, b]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.sympify import _sympify as _strict  # numbers and sympy objects only: never parses text

from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.algebra import is_zero as _is_zero
from novikoff.proofs.core.context import Context, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.definedness import NEEDS as _NEEDS
from novikoff.proofs.core.definedness import canonical as _canonical
from novikoff.proofs.core.definedness import domain_fits as _domain_fits
from novikoff.proofs.core.definedness import holds as _holds
from novikoff.proofs.core.definedness import side_conditions as _side_conditions
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen as _screen
from novikoff.proofs.core.obligations import Proof

__all__ = ["Monotone"]

# the nodes Monotone may not find in x: no derivative, or one sympy takes branch by branch
_NOT_SMOOTH = (sp.Piecewise, sp.Abs, sp.Max, sp.Min, sp.KroneckerDelta, AppliedUndef)


@dataclass(frozen=True)
class Monotone(Proof):
    """``f(x) >= 0`` for ``x`` in ``[a, b]`` (b may be ``sp.oo``).

    Increasing (default): ``f(a) >= 0`` exactly and ``derivative_proof`` proves
    ``f'(x) >= 0``; decreasing: ``f(b) >= 0`` exactly and it proves ``-f'(x) >= 0``.
    The derivative proof sees the hypotheses that do not mention ``x``, plus
    ``x_ge_a`` and ``x_le_b``; ``domain`` names the hypotheses placing the point in
    ``[a, b]``.
    """

    f: sp.Expr
    x: sp.Symbol
    a: sp.Expr
    derivative_proof: Proof
    b: sp.Expr = sp.oo
    decreasing: bool = False
    domain: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        diff, strict = _difference(claim)
        if strict:
            raise ProofFailure("Monotone proves non-strict claims", FailureKind.MISMATCH)
        if not isinstance(self.x, sp.Symbol):
            raise ProofFailure(f"Monotone needs a symbol, got {self.x}", FailureKind.MALFORMED)
        a, b = _strict(self.a), _strict(self.b)
        _screen(a, "the interval's left end: ")
        if b != sp.oo:
            _screen(b, "the interval's right end: ")
        if self.x in a.free_symbols or self.x in b.free_symbols:
            raise ProofFailure(f"the interval [{a}, {b}] depends on {self.x}", FailureKind.MALFORMED)
        _screen(_strict(self.f), "the monotone function: ")
        _require_smooth(self.f, self.x)
        if not _is_zero(diff - self.f):
            raise ProofFailure(
                f"the monotone function {self.f} is not the claim's difference {diff}", FailureKind.MISMATCH
            )
        # the hypotheses must put x in [a, b]: named hypotheses x - a >= 0 and b - x >= 0
        needed = [self.x - a] + ([b - self.x] if b != sp.oo else [])
        have = []
        for n in self.domain:
            h = ctx.lookup(n)
            if isinstance(h, sp.core.relational.Relational) and not isinstance(h, (sp.Equality, sp.Ne)):
                have.append(_difference(h)[0])
        for bound in needed:
            if not any(_is_zero(bound - h) for h in have):
                raise ProofFailure(
                    f"no hypothesis (among domain={self.domain}) states {bound} >= 0", FailureKind.UNCOVERED
                )
        outer = ctx.without(self.x, "Monotone")
        # x's declared domain must contain [a, b]: sympy reasons about x with it
        canonical = _canonical(_holds("nonnegative", a, outer), _holds("positive", a, outer))
        if b != sp.oo and (self.x.is_negative or self.x.is_nonpositive):
            raise ProofFailure(f"{self.x} is declared nonpositive: not supported", FailureKind.DOMAIN)
        bad = _domain_fits(self.x, canonical)
        if bad is not None:
            raise ProofFailure(
                f"{self.x} is declared {bad} but ranges over [{a}, {b}] where that is not known",
                FailureKind.DOMAIN,
            )
        derivative = sp.diff(self.f, self.x)  # screened with its side conditions below
        for expr in (self.f, derivative):
            _require_defined_on_interval(expr, self.x, a, b, outer)
        end = b if self.decreasing else a
        if end == sp.oo:
            raise ProofFailure("a decreasing function needs a finite right end b", FailureKind.MALFORMED)
        start = sp.simplify(sp.expand(self.f.subs(self.x, end)))
        if not (start.is_Rational and start >= 0):
            raise ProofFailure(f"f({end}) = {start} is not an exact rational >= 0", FailureKind.SIGN)
        inner = outer.extended(x_ge_a=sp.Ge(self.x, a, evaluate=False))
        if b != sp.oo:
            inner = inner.extended(x_le_b=sp.Le(self.x, b, evaluate=False))
        sign = -1 if self.decreasing else 1
        try:
            self.derivative_proof.verify(inner, sp.Ge(sign * derivative, 0, evaluate=False))
        except ProofFailure as exc:
            raise exc.within(f"derivative {derivative}") from None


def _require_smooth(f: sp.Expr, x: sp.Symbol) -> None:
    """``f`` is built from +, *, powers, exp and log in ``x`` (its other functions do not
    mention ``x``): where its side conditions hold, it is continuously differentiable in
    ``x`` and ``sp.diff`` is its derivative. A Piecewise (differentiated branch by
    branch, blind to a jump), Abs, Max, Min, KroneckerDelta or an undefined function of
    ``x`` (whose derivative is a Derivative node) is ``malformed`` here."""
    for node in sp.preorder_traversal(f):
        if isinstance(node, _NOT_SMOOTH) and x in node.free_symbols:
            raise ProofFailure(  # malformed
                f"Monotone differentiates {f} in {x}, but {node} ({type(node).__name__}) may not be "
                f"differentiable in {x}"
            )


def _require_defined_on_interval(expr: sp.Expr, x: sp.Symbol, a: sp.Expr, b: sp.Expr, ctx: Context) -> None:
    """Every side condition of ``expr`` holds for every x in [a, b]: a condition on an
    expression of x is shown on [a, oo) (x = a + s) or on (-oo, b] (x = b - s), s >= 0."""
    _screen(expr)
    s = sp.Dummy("s", nonnegative=True)
    for need, base, why in _side_conditions(expr):
        if x not in base.free_symbols:
            ok = _holds(need, base, ctx)
        else:
            ok = _holds(need, sp.expand(base.xreplace({x: a + s})), ctx) or (
                b != sp.oo and _holds(need, sp.expand(base.xreplace({x: b - s})), ctx)
            )
            ok = (
                ok
                or _holds(need, base.xreplace({x: a + s}), ctx)
                or (b != sp.oo and _holds(need, base.xreplace({x: b - s}), ctx))
            )
        if not ok:
            raise ProofFailure(
                f"{why} must be {_NEEDS[need]} for every {x} in [{a}, {b}{')' if b == sp.oo else ']'}, "
                "which is not shown",
                FailureKind.UNDEFINED,
            )
