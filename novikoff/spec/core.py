"""Theorems as data: a statement is sympy hypotheses, a sympy conclusion and a source.

Each :class:`Statement` evaluates itself exactly (``holds``) on concrete values,
which is how the reference solvers check it at every update. ``check`` returns
True/False for the conclusion and raises :class:`HypothesisNotMet` when the
values do not satisfy the hypotheses (the statement then says nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from novikoff.spec.evaluate import Compiled, compile_exact

__all__ = ["HypothesisNotMet", "Statement"]


class HypothesisNotMet(ValueError):
    """The values given to a statement violate one of its hypotheses."""


@dataclass(frozen=True, eq=False)
class Statement:
    """A theorem of DESIGN section 3.

    ``id`` is the normative id (N1, ...); ``name`` states the claim Lean-style;
    ``symbols`` are the free symbols with their sympy assumptions.
    """

    id: str
    name: str
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    conclusion: sp.Basic
    source: str
    note: str = ""
    _compiled: dict[str, object] = field(default_factory=dict, repr=False)

    def _get(self) -> tuple[list[tuple[sp.Basic, Compiled]], Compiled]:
        if "c" not in self._compiled:
            self._compiled["h"] = [(h, compile_exact(h)) for h in self.hypotheses]
            self._compiled["c"] = compile_exact(self.conclusion)
        return self._compiled["h"], self._compiled["c"]  # type: ignore[return-value]

    def check(self, values: Mapping[str, Fraction | int]) -> bool:
        """Exact truth of the conclusion at ``values`` (symbol name -> rational).

        Raises HypothesisNotMet if a hypothesis is false there.
        """
        env = {k: Fraction(v) for k, v in values.items()}
        hyps, concl = self._get()
        for h, f in hyps:
            if not f(env):
                raise HypothesisNotMet(f"{self.id}: hypothesis {h} fails for {dict(env)}")
        return bool(concl(env))

    def __str__(self) -> str:
        hyps = ", ".join(str(h) for h in self.hypotheses)
        return f"{self.id} {self.name}: [{hyps}] => {self.conclusion}   ({self.source})"
