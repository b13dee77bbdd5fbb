"""What a rule may reason about: a claim or a proof term with its sums replaced by their
closed forms (the summation convention of the package docstring), screened, and defined.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.sympify import _sympify as _strict  # numbers and sympy objects only: never parses text

from novikoff.proofs.core.context import Context
from novikoff.proofs.core.definedness import canonical as _canonical
from novikoff.proofs.core.definedness import domain_fits as _domain_fits
from novikoff.proofs.core.definedness import holds as _holds
from novikoff.proofs.core.definedness import require_defined as _require_defined
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import CONNECTIVES as _CONNECTIVES
from novikoff.proofs.core.language import screen as _screen
from novikoff.proofs.core.language import screen_formula as _screen_formula

__all__ = ["admit", "admit_expr", "expand_sums"]


def expand_sums(expr: sp.Basic, ctx: Context) -> sp.Basic:
    """Every ``Sum`` of ``expr`` replaced by its closed form (inner sums first), so that
    no binder reaches a rule. The summation convention: ``Sum(f, (i, a, b))`` is
    ``f(a) + ... + f(b)`` for integers ``a``, ``b`` with ``b >= a - 1`` (``b = a - 1``:
    the empty sum, 0), which ``ctx`` and the symbols' domains must show; reversed limits
    are refused (``undefined``): there sympy uses Karr's convention, ``-Sum(f, (i, b + 1,
    a - 1))``, where the usual one reads 0. The bound symbol's declared domain must
    contain every integer of ``[a, b]`` (``domain``). A sum without a closed form, or
    whose limits are not integers, is ``malformed``."""
    if not expr.has(sp.Sum):
        return expr

    def closed(s: sp.Sum) -> sp.Expr:
        for i, lo, hi in s.limits:  # sympy's Sum has both limits
            for end in (lo, hi):
                _screen(end, f"a limit of {s}: ")
                if end.is_integer is not True:
                    raise ProofFailure(f"the sum {s} has a limit {end} not known to be an integer")
            if not _holds("nonnegative", sp.expand(hi - lo + 1), ctx):
                raise ProofFailure(
                    f"the sum {s} may have reversed limits ({hi} < {lo} - 1): its value would depend "
                    "on the summation convention, so the checker needs a proof that "
                    f"{hi} >= {lo} - 1",
                    FailureKind.UNDEFINED,
                )
            bad = _domain_fits(
                i, _canonical(_holds("nonnegative", lo, ctx), _holds("positive", lo, ctx), integer=True)
            )
            if bad is not None:
                raise ProofFailure(
                    f"the bound symbol {i} of {s} is declared {bad}, but it ranges over the integers "
                    f"from {lo}",
                    FailureKind.DOMAIN,
                )
        out = s.doit()
        if out.has(sp.Sum):
            raise ProofFailure(  # malformed
                f"the sum {s} has no closed form: the checker does not reason under binders"
            )
        return out

    def expand(e: sp.Basic) -> sp.Basic:
        # a relation is rebuilt unevaluated: Eq(closed, closed) must reach the
        # definedness check as an equation, not as True
        if isinstance(e, sp.core.relational.Relational):
            return e.func(expand(e.lhs), expand(e.rhs), evaluate=False)
        if isinstance(e, _CONNECTIVES):
            return e.func(*map(expand, e.args), evaluate=False)
        return e.replace(lambda node: isinstance(node, sp.Sum), closed)

    return expand(expr)


def admit(claim: sp.Basic, ctx: Context, defined: bool) -> sp.Basic:
    """The claim a rule may reason about: sums expanded, every node screened, and (if
    ``defined``) every side condition discharged by :func:`_require_defined`
    (:func:`novikoff.proofs.core.definedness.require_defined`)."""
    claim = expand_sums(claim, ctx)
    _screen_formula(claim, matrices=True)
    if defined:
        _require_defined(claim, ctx)
    return claim


def admit_expr(expr: object, ctx: Context, what: str) -> sp.Expr:
    """A term of a proof (a square, an exponent, a split, an image, a function) admitted
    like a claim: sympy objects only (never parsed text), sums expanded, screened, defined."""
    out = expand_sums(_strict(expr), ctx)
    _require_defined(out, ctx, what)
    return out
