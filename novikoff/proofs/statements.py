"""The bridge from a spec :class:`~novikoff.spec.core.Statement` to the obligation that proves it.

A :class:`HeadlineProof` pairs a statement (the very object of :mod:`novikoff.spec`)
with the proof of it; every proof module (:mod:`novikoff.proofs.perceptron`, ...)
lists its records in ``headline_proofs()`` and the registry derives the headline
obligations from them. :func:`headline` builds the obligation *from* the statement (its named hypotheses and
premises, its conclusion), so the headline proof proves the spec's own theorem and
not a restatement. :func:`matches_statement` confirms that an obligation proves
exactly a statement: the same hypotheses (as a set, names aside), the same conclusion
and the same symbol domains, up to a renaming of symbols that keeps every assumption.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import sympy as sp

from novikoff.proofs.core import Obligation, Proof
from novikoff.spec.core import Forall, Statement

__all__ = ["HeadlineProof", "headline", "matches_statement"]


def headline(statement: Statement, proof: Proof, note: str = "") -> Obligation:
    """The obligation "premises and hypotheses of ``statement`` imply its conclusion"."""
    return Obligation(
        name=f"{statement.id} {statement.name}",
        spec_id=statement.id,
        hypotheses=statement.theorem_hypotheses(),
        claim=statement.conclusion,
        proof=proof,
        note=note,
    )


@dataclass(frozen=True, eq=False)
class HeadlineProof:
    """The proof of one spec statement: ``statement`` is the object itself (compared by
    identity, never by a restatement), ``scope`` says where the Python proof covers less
    than the statement's general form ("" where it does not)."""

    statement: Statement
    proof: Proof
    scope: str = ""

    @property
    def spec_id(self) -> str:
        """The statement's spec id."""
        return self.statement.id

    def obligation(self) -> Obligation:
        """The headline obligation built from the statement (:func:`headline`)."""
        return headline(self.statement, self.proof, self.scope)


def _symbols(items: Iterable[sp.Basic | Forall]) -> set[sp.Symbol]:
    out: set[sp.Symbol] = set()
    for item in items:
        if isinstance(item, Forall):
            out |= {s for s in item.body.free_symbols if isinstance(s, sp.Symbol)} - {item.var}
        else:
            out |= {s for s in item.free_symbols if isinstance(s, sp.Symbol)}
    return out


def _rename(item: sp.Basic | Forall, mapping: dict[sp.Symbol, sp.Symbol]) -> sp.Basic | Forall:
    """``item`` with symbols renamed, relations kept unevaluated (``k >= 0`` stays a relation)."""
    if not mapping:
        return item
    if isinstance(item, Forall):
        return Forall(item.var, _rename(item.body, mapping), item.start)
    if isinstance(item, sp.core.relational.Relational):
        return item.func(item.lhs.xreplace(mapping), item.rhs.xreplace(mapping), evaluate=False)
    if isinstance(item, sp.logic.boolalg.BooleanFunction):
        return item.func(*(_rename(a, mapping) for a in item.args), evaluate=False)
    return item.xreplace(mapping)


def matches_statement(ob: Obligation, statement: Statement, max_tries: int = 5040) -> str | None:
    """None if ``ob`` proves exactly ``statement`` (up to renaming symbols with identical
    assumptions), else the reason it does not."""
    want = [*statement.theorem_hypotheses().values(), statement.conclusion]
    have = [*ob.hypotheses.values(), ob.claim]
    mine, theirs = _symbols(have), _symbols(want)
    if len(mine) != len(theirs):
        return f"{len(mine)} symbols, the statement has {len(theirs)}"
    # candidate renamings: within each class of identical assumptions, every bijection
    classes: dict[tuple, tuple[list[sp.Symbol], list[sp.Symbol]]] = {}
    for s in mine:
        classes.setdefault(tuple(sorted(s.assumptions0.items())), ([], []))[0].append(s)
    for s in theirs:
        key = tuple(sorted(s.assumptions0.items()))
        if key not in classes:
            return f"the statement's symbol {s} has a domain no symbol of the obligation has"
        classes[key][1].append(s)
    for key, (a, b) in classes.items():
        if len(a) != len(b):
            return f"symbols with assumptions {dict(key)}: {sorted(map(str, a))} vs {sorted(map(str, b))}"
    groups = [(a, b) for a, b in classes.values()]
    # try the renaming by name first (the usual case), then the others
    for n, choice in enumerate(itertools.product(*(_orderings(a, b) for a, b in groups))):
        if n >= max_tries:
            return "no renaming found within the search budget"
        mapping = {x: y for (a, _b), perm in zip(groups, choice) for x, y in zip(a, perm) if x != y}
        renamed_claim = _rename(ob.claim, mapping)
        renamed_hyps = [_rename(h, mapping) for h in ob.hypotheses.values()]
        if renamed_claim == statement.conclusion and _same_multiset(renamed_hyps, want[:-1]):
            return None
    if ob.claim != statement.conclusion:
        return f"the claim {ob.claim} is not the conclusion {statement.conclusion}"
    return "the hypotheses differ from the statement's hypotheses and premises"


def _orderings(a: list[sp.Symbol], b: list[sp.Symbol]) -> list[tuple[sp.Symbol, ...]]:
    """Bijections a -> b as orderings of b, the one matching names first (only that one
    for classes of more than 6 symbols, where trying all would not pay)."""
    by_name = {s.name: s for s in b}
    first = tuple(by_name.get(s.name, s) for s in a)
    if len(a) > 6 or set(first) != set(b):
        return [first] if set(first) == set(b) else [tuple(b)]
    return [first, *(p for p in itertools.permutations(b) if p != first)]


def _same_multiset(xs: list[sp.Basic | Forall], ys: list[sp.Basic | Forall]) -> bool:
    rest = list(ys)
    for x in xs:
        for i, y in enumerate(rest):
            if x == y:
                del rest[i]
                break
        else:
            return False
    return not rest
