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

from novikoff.errors import InvariantViolation
from novikoff.spec.evaluate import Compiled, compile_exact
from novikoff.spec.intervals import Value, decide

__all__ = ["Forall", "HypothesisNotMet", "Statement"]


@dataclass(frozen=True)
class Forall:
    """``body`` holds for every integer value ``>= start`` of the integer symbol ``var``.

    The form of a premise about every step of a run (``pw(k + 1) = pw(k) + pz(k)`` for
    every ``k >= 0``); :class:`~novikoff.proofs.core.Induction` instantiates it.
    """

    var: sp.Symbol
    body: sp.Basic
    start: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.var, sp.Symbol) or self.var.is_integer is not True:
            raise TypeError(f"Forall binds an integer symbol, got {self.var!r}")

    def instance(self, at: sp.Expr) -> sp.Basic:
        """``body`` with ``var := at`` (relations stay unevaluated)."""
        body = self.body
        m = {self.var: at}
        if isinstance(body, sp.core.relational.Relational):
            return body.func(body.lhs.xreplace(m), body.rhs.xreplace(m), evaluate=False)
        return body.xreplace(m)

    def __str__(self) -> str:
        return f"for all integers {self.var} >= {self.start}: {self.body}"


class HypothesisNotMet(ValueError):
    """The values given to a statement violate one of its hypotheses."""


@dataclass(frozen=True, eq=False)
class Statement:
    """A theorem: its hypotheses, premises and conclusion as sympy data, and its source.

    ``id`` is the normative id (N1, ...); ``name`` states the claim Lean-style;
    ``symbols`` are the free symbols with their sympy assumptions.

    ``hypotheses`` and ``conclusion`` are what a run is checked against at every
    update (:meth:`check`). ``premises`` are the named facts about the algorithm under
    which the conclusion is a theorem (the update rule, the certificate condition, a
    recursion), in the same symbols plus undefined functions of the update count; the
    theorem is "premises and hypotheses imply the conclusion"
    (:meth:`theorem_hypotheses`). The headline proof of each statement proves exactly
    that, built from this object (:func:`novikoff.proofs.statements.headline`).
    """

    id: str
    name: str
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    conclusion: sp.Basic
    source: str
    note: str = ""
    premises: tuple[tuple[str, sp.Basic | Forall], ...] = ()
    hypothesis_names: tuple[str, ...] = ()
    _compiled: dict[str, object] = field(default_factory=dict, repr=False)

    def _get(self) -> tuple[list[tuple[sp.Basic, Compiled]], Compiled]:
        if "c" not in self._compiled:
            self._compiled["h"] = [(h, compile_exact(h)) for h in self.hypotheses]
            self._compiled["c"] = compile_exact(self.conclusion)
        return self._compiled["h"], self._compiled["c"]  # type: ignore[return-value]

    def theorem_hypotheses(self) -> dict[str, sp.Basic | Forall]:
        """The theorem's named hypotheses: ``h0, h1, ...`` for :attr:`hypotheses`, then the
        premises under their own names."""
        names = self.hypothesis_names or tuple(f"h{i}" for i in range(len(self.hypotheses)))
        if len(names) != len(self.hypotheses):
            raise ValueError(
                f"{self.id}: {len(names)} hypothesis names for {len(self.hypotheses)} hypotheses"
            )
        out: dict[str, sp.Basic | Forall] = dict(zip(names, self.hypotheses))
        for name, p in self.premises:
            if name in out:
                raise ValueError(f"{self.id}: premise name {name!r} clashes with a hypothesis")
            out[name] = p
        return out

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

    def require(self, values: Mapping[str, Fraction | int], where: str) -> None:
        """:meth:`check`, raising :class:`~novikoff.errors.InvariantViolation` (naming this
        statement, the values and ``where``) when the conclusion or a hypothesis fails."""
        try:
            ok = self.check(values)
        except HypothesisNotMet as exc:
            raise InvariantViolation(self.id, str(exc), dict(values), where) from None
        if not ok:
            raise InvariantViolation(self.id, str(self.conclusion), dict(values), where)

    def substitute(
        self, replacements: Mapping[sp.Symbol, sp.Expr], symbols: tuple[sp.Symbol, ...]
    ) -> Statement:
        """The same statement with symbols replaced by expressions (e.g. eps by 1 - beta/gamma).

        Used to check a theorem in terms of the quantities a run actually has; the
        result keeps the id, name and source, so a failure still names the theorem.
        """
        return Statement(
            id=self.id,
            name=self.name,
            symbols=symbols,
            hypotheses=tuple(h.xreplace(dict(replacements)) for h in self.hypotheses),
            conclusion=self.conclusion.xreplace(dict(replacements)),
            source=self.source,
            note=f"{self.note} (with {', '.join(f'{k} = {v}' for k, v in replacements.items())})".strip(),
        )

    def holds_rigorously(self, values: Mapping[str, Value]) -> bool:
        """Truth of the conclusion at ``values`` for statements with sqrt, log or real powers.

        Values are Fractions or :class:`~novikoff.spec.intervals.SquareRoot`; each
        hypothesis and the conclusion are settled by
        :func:`~novikoff.spec.intervals.decide` (interval arithmetic, never wrong,
        :class:`~novikoff.spec.intervals.Undecided` when it cannot separate).
        Raises HypothesisNotMet if a hypothesis is false there.
        """
        for h in self.hypotheses:
            if not decide(h, values):
                raise HypothesisNotMet(f"{self.id}: hypothesis {h} fails for {dict(values)}")
        return decide(self.conclusion, values)

    #: Deprecated name of :meth:`holds_rigorously` (it answers a bool; a ``check_*`` raises).
    check_rigorous = holds_rigorously

    def __str__(self) -> str:
        hyps = ", ".join(str(h) for h in self.hypotheses)
        return f"{self.id} {self.name}: [{hyps}] => {self.conclusion}   ({self.source})"
