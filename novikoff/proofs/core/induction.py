"""Induction on an integer symbol from a start, with :class:`Forall` hypotheses
instantiated at the start (base) and at ``n`` (step).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from novikoff.proofs.core.algebra import is_zero as _is_zero
from novikoff.proofs.core.context import Context, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.definedness import canonical as _canonical
from novikoff.proofs.core.definedness import domain_fits as _domain_fits
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.instances import instance as _instance
from novikoff.proofs.core.instances import map_relation as _map_relation
from novikoff.proofs.core.language import screen_formula as _screen_formula
from novikoff.proofs.core.obligations import Proof
from novikoff.spec.core import Forall

__all__ = ["Induction"]


def _instantiate(ctx: Context, at: sp.Expr, start: int) -> Context:
    """Each :class:`Forall` hypothesis whose range contains every integer >= ``start``
    (its start is no later, and its variable's declared domain admits them all),
    instantiated at ``at`` (an integer >= start there), under its own name. An instance
    outside the language (``zoo`` where the body divides by ``var - start``) is hidden:
    a Forall undefined at ``at`` does not hold, and a hidden fact is never used."""
    out = Context(ctx, ctx.hidden)
    everything_from_start = _canonical(start >= 0, start >= 1, integer=True)
    for name, h in ctx.items():
        if isinstance(h, Forall) and start >= h.start and _domain_fits(h.var, everything_from_start) is None:
            instance = _map_relation(h.body, {h.var: at})
            try:
                _screen_formula(instance)
            except ProofFailure as exc:
                del out[name]
                out.hidden[name] = f"its instance at {at} is not defined ({exc})"
                continue
            out[name] = instance
    return out


@dataclass(frozen=True)
class Induction(Proof):
    """Induction on the integer symbol ``n`` from ``start``: ``base`` proves claim(start),
    ``step`` proves claim(n + 1) with claim(n) added as hypothesis ``"IH"`` and
    ``n >= start`` as ``"n_ge_start"``. Hypotheses mentioning ``n`` are hidden from
    both; :class:`Forall` hypotheses are instantiated at ``start`` and at ``n``."""

    n: sp.Symbol
    base: Proof
    step: Proof
    start: int = 0

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        n, start = self.n, self.start
        if not isinstance(n, sp.Symbol) or n.is_integer is not True:
            raise ProofFailure(f"induction needs an integer symbol, got {n}", FailureKind.DOMAIN)
        if isinstance(start, bool) or not isinstance(start, int):
            raise ProofFailure(f"induction start must be an int, got {start!r}", FailureKind.MALFORMED)
        bad = _domain_fits(n, _canonical(start >= 0, start >= 1, integer=True))
        if bad is not None:
            raise ProofFailure(
                f"{n} is declared {bad}, but the induction ranges over the integers >= {start}",
                FailureKind.DOMAIN,
            )
        at_point = (start <= 0 and n.is_nonnegative) or (start <= 1 and n.is_positive)
        at_point = at_point or any(_is_zero(d - (n - start)) for _name, d, _s in ctx.relations())
        if not at_point:
            raise ProofFailure(
                f"no hypothesis or domain gives {n} >= {start}: the induction does not reach the point",
                FailureKind.UNCOVERED,
            )
        outer = ctx.without(n, "Induction")
        base_ctx = _instantiate(outer, sp.Integer(start), start)
        try:
            self.base.verify(base_ctx, _instance(claim, {n: sp.Integer(start)}, base_ctx, ""))
        except ProofFailure as exc:
            raise exc.within(f"base case {n} = {start}") from None
        step_ctx = _instantiate(outer, n, start).extended(
            IH=claim, n_ge_start=sp.Ge(n, start, evaluate=False)
        )
        try:
            self.step.verify(step_ctx, _instance(claim, {n: n + 1}, step_ctx, ""))
        except ProofFailure as exc:
            raise exc.within(f"induction step {n} -> {n} + 1") from None
