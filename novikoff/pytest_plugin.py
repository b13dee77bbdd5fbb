"""pytest plugin: ``pytest --novikoff-verify`` runs novikoff's proof suite as tests.

Registered through the ``pytest11`` entry point, so installing novikoff is enough;
each proof obligation becomes one test item named ``novikoff[ID] <obligation>``.
"""

from __future__ import annotations

from typing import Any

import pytest

from novikoff.proofs.core import Obligation, check_obligation


class ObligationFailed(Exception):
    """A proof obligation that did not check."""


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
