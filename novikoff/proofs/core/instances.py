"""Instances of formulas: a relation with symbols substituted and sympy kept from deciding
it, its side conditions shown at the images first; and when one claim proves another.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.algebra import is_zero as _is_zero
from novikoff.proofs.core.context import Context
from novikoff.proofs.core.definedness import NEEDS as _NEEDS
from novikoff.proofs.core.definedness import holds as _holds
from novikoff.proofs.core.definedness import side_conditions as _side_conditions
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen as _screen

__all__ = ["instance", "map_relation", "same_claim"]


def map_relation(rel: sp.Basic, mapping: Mapping[sp.Symbol, sp.Expr]) -> sp.Basic:
    """Substitute into a relation without letting sympy decide it (keeps ``x > 0`` a relation)."""
    m = dict(mapping)
    if isinstance(rel, sp.Equality):
        return sp.Eq(rel.lhs.xreplace(m), rel.rhs.xreplace(m), evaluate=False)
    if isinstance(rel, sp.core.relational.Relational):
        return rel.func(rel.lhs.xreplace(m), rel.rhs.xreplace(m), evaluate=False)
    return rel.xreplace(m)


def instance(formula: sp.Basic, mapping: Mapping[sp.Symbol, sp.Expr], ctx: Context, what: str) -> sp.Basic:
    """``formula`` with ``mapping`` substituted (simultaneously), once each of its side
    conditions is shown (from ``ctx``) at the images: sympy evaluates while it
    substitutes (``Eq(1/n, 1/n)`` at ``n = 0`` becomes ``Eq(zoo, zoo)``, then True), so the
    conditions are checked on the images of the bases, before any evaluation can hide
    them; then every base of the instance is defined and none evaluates to ``zoo``. (No
    binder survives admission, so the substitution cannot reach a bound variable.)"""
    m = dict(mapping)
    for need, base, why in _side_conditions(formula):
        image = base.xreplace(m)
        _screen(image, f"{what}{why} at {m}: ")
        if not _holds(need, image, ctx):
            raise ProofFailure(
                f"{what}{why} becomes {image}, which must be {_NEEDS[need]}, and neither the "
                "hypotheses nor the symbols' domains say so",
                FailureKind.UNDEFINED,
            )
    return map_relation(formula, m)


def same_claim(claim: sp.Basic, given: sp.Basic) -> bool:
    """``given`` proves ``claim``: the same equation, or the same difference with no
    weaker strictness."""
    if isinstance(claim, sp.Equality) or isinstance(given, sp.Equality):
        return type(claim) is type(given) and _is_zero((claim.lhs - claim.rhs) - (given.lhs - given.rhs))
    (d1, s1), (d2, s2) = _difference(claim), _difference(given)
    return _is_zero(d1 - d2) and (s2 or not s1)
