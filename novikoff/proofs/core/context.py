"""The named hypotheses a rule sees (:class:`Context`), and the names a binding rule hid
from it, with why (asking for one is a ``scope`` failure).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeAlias

import sympy as sp

from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.spec.core import Forall

__all__ = ["Context", "Hypothesis", "Hyps", "as_context"]

Hypothesis: TypeAlias = "sp.Basic | Forall"


class Context(dict[str, Hypothesis]):
    """Named hypotheses visible to a rule, and the names a binding rule hid (with why)."""

    def __init__(
        self, hyps: Mapping[str, Hypothesis] | None = None, hidden: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(hyps or {})
        self.hidden: dict[str, str] = dict(hidden or {})
        for name in self:
            self.hidden.pop(name, None)

    def extended(self, **new: Hypothesis) -> Context:
        """A copy with ``new`` hypotheses added (a name hidden before becomes visible)."""
        out = Context(self, self.hidden)
        for name, h in new.items():
            out[name] = h
            out.hidden.pop(name, None)
        return out

    def without(self, symbol: sp.Symbol, binder: str) -> Context:
        """A copy hiding every hypothesis that mentions ``symbol`` (bound by ``binder``)."""
        keep, hidden = {}, dict(self.hidden)
        for name, h in self.items():
            if symbol in _free(h):
                hidden[name] = f"it mentions {symbol}, which {binder} quantifies over"
            else:
                keep[name] = h
        return Context(keep, hidden)

    def lookup(self, name: str) -> Hypothesis:
        """The hypothesis ``name``; a ``scope`` failure if hidden, ``unknown`` if absent."""
        if name in self:
            return self[name]
        if name in self.hidden:
            raise ProofFailure(
                f"hypothesis {name!r} is not available here: {self.hidden[name]}", FailureKind.SCOPE
            )
        raise ProofFailure(f"unknown hypothesis {name!r} (have {sorted(self)})", FailureKind.UNKNOWN)

    def relations(self) -> Iterator[tuple[str, sp.Expr, bool]]:
        """Every visible inequality hypothesis as (name, D, strict) meaning D >= 0 or D > 0."""
        for name, h in self.items():
            if isinstance(h, sp.core.relational.Relational) and not isinstance(h, (sp.Equality, sp.Ne)):
                yield (name, *_difference(h))


Hyps = Mapping[str, Hypothesis]


def _free(h: Hypothesis) -> set[sp.Basic]:
    if isinstance(h, Forall):
        return h.body.free_symbols - {h.var}
    return set(h.free_symbols)


def as_context(hyps: Hyps) -> Context:
    return hyps if isinstance(hyps, Context) else Context(hyps)
