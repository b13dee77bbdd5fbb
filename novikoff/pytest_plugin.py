"""pytest plugin: ``pytest --novikoff-verify`` runs novikoff's proof suite as tests.

Registered through the ``pytest11`` entry point, so installing novikoff is enough;
each proof obligation becomes one test item named ``novikoff[ID] <obligation>``. With
``--novikoff-coq`` as well, each spec id also gets ``novikoff-coq[ID]``: Coq's kernel check
of its theorems (:func:`novikoff.verify.coq_checks`; skipped when the id is not proved in
Coq or coqc is missing).
"""

from __future__ import annotations

from typing import Any

import pytest

from novikoff.proofs.core import Obligation, check_obligation


class ObligationFailed(Exception):
    """A proof obligation that did not check."""


class CoqItem(pytest.Item):
    """One spec id's Coq kernel check as a pytest test."""

    def __init__(self, *, check: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        from novikoff.verify import Skip

        try:
            self.check.run()
        except Skip as exc:
            pytest.skip(str(exc))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "novikoff-coq", None, f"[{self.check.spec_id}] {self.check.name}"


class ObligationItem(pytest.Item):
    """One proof obligation as a pytest test."""

    def __init__(self, *, obligation: Obligation, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.obligation = obligation

    def runtest(self) -> None:
        result = check_obligation(self.obligation)
        if not result.ok:
            raise ObligationFailed(result.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ObligationFailed):
            return f"proof obligation failed: {self.obligation.name}\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "novikoff-proofs", None, f"[{self.obligation.spec_id}] {self.obligation.name}"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("novikoff")
    group.addoption(
        "--novikoff-verify",
        action="store_true",
        default=False,
        help="run novikoff's proof obligations, one test each",
    )
    group.addoption(
        "--novikoff-coq",
        action="store_true",
        default=False,
        help="with --novikoff-verify: also Coq's kernel check, one test per spec id",
    )


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if not config.getoption("--novikoff-verify"):
        return
    from novikoff.proofs.registry import all_obligations

    for ob in all_obligations():
        items.append(
            ObligationItem.from_parent(session, name=f"novikoff[{ob.spec_id}] {ob.name}", obligation=ob)
        )
    if config.getoption("--novikoff-coq"):
        from novikoff.verify import coq_checks

        for check in coq_checks():
            items.append(CoqItem.from_parent(session, name=f"novikoff-coq[{check.spec_id}]", check=check))
