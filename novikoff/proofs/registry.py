"""Every proof obligation novikoff checks, derived from the proof modules.

The proof modules mirror the spec (:data:`PROOF_MODULES`): ``novikoff.proofs.<name>``
proves what ``novikoff.spec.<name>`` states, through its ``obligations()`` (the step
obligations) and ``headline_proofs()`` (one :class:`~novikoff.proofs.statements.HeadlineProof`
per statement, pointing at the statement object itself). :func:`headline_proofs`
collects the records, in the order of :data:`novikoff.spec.THEOREMS`, and refuses a
statement without exactly one proof; :func:`all_obligations` is what ``novikoff verify``
and the pytest plugin run. :func:`obligation_ids` says which spec ids each obligation
bears on. The wrong variants are in :mod:`novikoff.proofs.wrong_variants`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType

from novikoff.proofs import (
    invariance,
    msvmav,
    multiclass,
    nonseparable,
    pdm,
    perceptron,
    romma,
    tightness,
    voted,
)
from novikoff.proofs.core import Apply, Obligation
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec import THEOREMS

__all__ = [
    "PROOF_MODULES",
    "SPEC_IDS",
    "all_obligations",
    "applied_lemmas",
    "headline_obligation",
    "headline_proofs",
    "obligation_ids",
]

#: The theorem ids, in the order of :data:`novikoff.spec.THEOREMS`.
SPEC_IDS: tuple[str, ...] = tuple(THEOREMS)

#: spec module name -> the proof module that proves its statements (same name under
#: ``novikoff.proofs``), in dependency order (multiclass reuses perceptron's squeeze).
PROOF_MODULES: dict[str, ModuleType] = {
    "perceptron": perceptron,
    "tightness": tightness,
    "invariance": invariance,
    "multiclass": multiclass,
    "msvmav": msvmav,
    "pdm": pdm,
    "romma": romma,
    "nonseparable": nonseparable,
    "voted": voted,
}


def headline_proofs() -> list[HeadlineProof]:
    """The headline proof of every spec statement, in the order of ``THEOREMS``.

    Raises ValueError if a statement has no proof or more than one, or a proof module
    proves a statement that is not in ``THEOREMS``."""
    records = [r for module in PROOF_MODULES.values() for r in module.headline_proofs()]
    by_statement: dict[int, HeadlineProof] = {}
    for r in records:
        if id(r.statement) in by_statement:
            raise ValueError(f"{r.spec_id} {r.statement.name}: more than one headline proof")
        by_statement[id(r.statement)] = r
    ordered = []
    for statements in THEOREMS.values():
        for st in statements:
            if id(st) not in by_statement:
                raise ValueError(f"{st.id} {st.name}: no headline proof")
            ordered.append(by_statement.pop(id(st)))
    if by_statement:
        extra = ", ".join(f"{r.spec_id} {r.statement.name}" for r in by_statement.values())
        raise ValueError(f"headline proofs of statements that are not in THEOREMS: {extra}")
    return ordered


def all_obligations() -> list[Obligation]:
    """All obligations in dependency order: each module's steps, then every headline."""
    out: list[Obligation] = []
    for module in PROOF_MODULES.values():
        out += module.obligations()
    out += [r.obligation() for r in headline_proofs()]
    return out


def headline_obligation(spec_id: str, index: int = 0) -> Obligation:
    """The headline obligation of the ``index``-th statement of ``spec_id``."""
    return [r for r in headline_proofs() if r.spec_id == spec_id][index].obligation()


def _applied(node: object) -> Iterator[Obligation]:
    """Every lemma an :class:`Apply` inside ``node`` (a proof, step or obligation) uses,
    the lemmas' own proofs included."""
    if isinstance(node, Apply):
        yield node.lemma
    if isinstance(node, Obligation):
        yield from _applied(node.proof)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _applied(getattr(node, f.name))
    elif isinstance(node, (tuple, list)):
        for item in node:
            yield from _applied(item)
    elif isinstance(node, Mapping):
        for item in node.values():
            yield from _applied(item)


def applied_lemmas(obligation: Obligation) -> list[Obligation]:
    """Every lemma ``obligation``'s proof applies, directly or inside the lemmas' own proofs,
    in the order they are met (a lemma applied twice appears twice)."""
    return list(_applied(obligation))


def obligation_ids(obligations: Sequence[Obligation]) -> dict[str, frozenset[str]]:
    """Obligation name -> the spec ids it bears on: its own ``spec_id`` and the ids of
    every obligation that applies it as a lemma, directly or through other lemmas
    (L1 serves D1 and P1, whose proofs apply it).

    Raises ValueError if two obligations share a name."""
    names = [ob.name for ob in obligations]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"obligation names must be unique: {dup}")
    users: dict[str, set[str]] = {n: set() for n in names}
    for ob in obligations:
        for lemma in _applied(ob):
            users.setdefault(lemma.name, set()).add(ob.name)
    ids = {ob.name: {ob.spec_id} for ob in obligations}
    changed = True
    while changed:
        changed = False
        for name, who in users.items():
            if name not in ids:
                continue
            for user in who:
                new = ids[user] - ids[name]
                if new:
                    ids[name] |= new
                    changed = True
    return {name: frozenset(v) for name, v in ids.items()}
