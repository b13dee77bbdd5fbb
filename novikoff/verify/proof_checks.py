"""The proof checks of ``novikoff verify``: each headline proof proves exactly its spec statement
(``spec``), every statement has exactly one, in the mirrored proof module (``registry``), and
every proof obligation checks (``proof``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from novikoff.proofs.results import Check, CheckResult

if TYPE_CHECKING:
    from novikoff.proofs.core import Obligation

__all__ = ["proof_checks", "registry_checks", "spec_checks", "theorem_summary"]


def proof_checks() -> list[Check]:
    """One check per proof obligation; ids: the theorem it serves and every theorem whose
    proof applies it (:func:`~novikoff.proofs.registry.obligation_ids`)."""
    from novikoff.proofs.core import check_obligation
    from novikoff.proofs.registry import all_obligations, obligation_ids

    def make(ob: Obligation) -> Callable[[], None]:
        def run() -> None:
            result = check_obligation(ob)
            if not result.ok:
                raise AssertionError(result.message)

        return run

    obligations = all_obligations()
    ids = obligation_ids(obligations)
    return [Check("proof", ob.spec_id, ob.name, make(ob), ids[ob.name]) for ob in obligations]


def spec_checks() -> list[Check]:
    """One check per spec statement: its headline obligation proves exactly that statement
    (same hypotheses and premises, conclusion and symbol domains) and checks."""
    from novikoff.proofs.core import check_obligation
    from novikoff.proofs.registry import headline_proofs
    from novikoff.proofs.statements import matches_statement

    def make(statement: Any, ob: Obligation) -> Callable[[], None]:
        def run() -> None:
            reason = matches_statement(ob, statement)
            if reason is not None:
                raise AssertionError(f"the headline proof does not prove the spec statement: {reason}")
            result = check_obligation(ob)
            if not result.ok:
                raise AssertionError(result.message)

        return run

    return [
        Check(
            "spec",
            r.spec_id,
            f"{r.spec_id} {r.statement.name}: the headline proof proves the spec statement",
            make(r.statement, r.obligation()),
        )
        for r in headline_proofs()
    ]


def registry_checks() -> list[Check]:
    """A whole-spec check (ids: every spec id): every statement of ``THEOREMS`` has exactly
    one headline proof, from the proof module that mirrors the statement's spec module."""

    def run() -> None:
        from novikoff.proofs.registry import PROOF_MODULES, headline_proofs

        headline_proofs()  # raises unless every statement has exactly one
        for name, module in PROOF_MODULES.items():
            spec_module = importlib.import_module(f"novikoff.spec.{name}")
            own = {id(v) for v in vars(spec_module).values()}
            for r in module.headline_proofs():
                if id(r.statement) not in own:
                    raise AssertionError(
                        f"{module.__name__} proves {r.spec_id} {r.statement.name}, "
                        f"which novikoff.spec.{name} does not state"
                    )

    from novikoff.proofs.registry import SPEC_IDS

    return [
        Check(
            "registry",
            SPEC_IDS[0],
            "every spec statement has exactly one headline proof, in the mirrored proof module",
            run,
            frozenset(SPEC_IDS),
        )
    ]


def theorem_summary(results: Sequence[CheckResult]) -> dict[str, dict[str, object]]:
    """Per spec id that had ``spec`` checks: ``matches_spec`` (every statement of the id has
    a headline proof that proves exactly it and checks) and the ``scope`` of the Python
    proof where it is limited (None where it is not)."""
    from novikoff.proofs.registry import headline_proofs

    scope: dict[str, str] = {}
    for rec in headline_proofs():
        if rec.scope:
            scope.setdefault(rec.spec_id, rec.scope)
    out: dict[str, dict[str, object]] = {}
    for r in results:
        if r.check.group != "spec":
            continue
        entry = out.setdefault(r.check.spec_id, {"matches_spec": True, "statements": 0})
        entry["statements"] = int(str(entry["statements"])) + 1
        entry["matches_spec"] = bool(entry["matches_spec"]) and r.ok
        entry["scope"] = scope.get(r.check.spec_id)
    return out
