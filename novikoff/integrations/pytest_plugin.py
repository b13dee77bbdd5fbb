"""pytest plugin: ``pytest --novikoff-verify`` runs novikoff's proof suite as tests.

Registered through the ``pytest11`` entry point, so installing novikoff is enough, and free
when unused: this module imports only pytest; the proof machinery (sympy) is imported when
``--novikoff-verify`` is given.

Each proof obligation becomes one test item ``novikoff_verify[ID-<obligation>]`` collected
from this module's file, so its node id re-runs it
(``pytest --novikoff-verify ".../novikoff/integrations/pytest_plugin.py::novikoff_verify[N1-...]"``),
``-k`` selects among them with correct counts, and JUnit XML gets the classname
``...novikoff.integrations.pytest_plugin``. With ``--novikoff-coq`` as well, each spec id also gets
``novikoff_coq[ID]``: Coq's kernel check of its theorems
(:func:`novikoff.verify.coq_checks`; skipped when the id is not proved in Coq or coqc is
missing).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "HERE",
    "CoqItem",
    "ObligationFailed",
    "ObligationItem",
    "ProofSuite",
    "pytest_addoption",
    "pytest_collect_file",
    "pytest_configure",
]

HERE = Path(__file__).resolve()


class ObligationFailed(Exception):
    """A proof obligation that did not check."""


def _slug(text: str) -> str:
    """``text`` as a node-id-safe fragment: no spaces, brackets or ``::``."""
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", text).strip("_") or "_"


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
        return str(self.path), None, f"[{self.check.spec_id}] {self.check.name}"


class ObligationItem(pytest.Item):
    """One proof obligation as a pytest test."""

    def __init__(self, *, obligation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.obligation = obligation

    def runtest(self) -> None:
        from novikoff.proofs.core import check_obligation

        result = check_obligation(self.obligation)
        if not result.ok:
            raise ObligationFailed(result.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ObligationFailed):
            return f"proof obligation failed: {self.obligation.name}\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return str(self.path), None, f"[{self.obligation.spec_id}] {self.obligation.name}"


class ProofSuite(pytest.File):
    """This module's file, collected as novikoff's proof suite under ``--novikoff-verify``."""

    def collect(self) -> Iterator[pytest.Item]:
        from novikoff.proofs.registry import all_obligations

        seen: set[str] = set()
        for ob in all_obligations():
            name = base = f"novikoff_verify[{ob.spec_id}-{_slug(ob.name)}]"
            n = 1
            while name in seen:
                n += 1
                name = f"{base[:-1]}-{n}]"
            seen.add(name)
            yield ObligationItem.from_parent(self, name=name, obligation=ob)
        if self.config.getoption("--novikoff-coq"):
            from novikoff.verify import coq_checks

            for check in coq_checks():
                yield CoqItem.from_parent(self, name=f"novikoff_coq[{check.spec_id}]", check=check)


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


def _names_this_file(arg: str, invocation_dir: Path) -> bool:
    path = Path(arg.split("::", 1)[0])
    try:
        return (invocation_dir / path).resolve() == HERE
    except OSError:
        return False


def pytest_configure(config: pytest.Config) -> None:
    """Add this file to the collection (unless an argument already names it)."""
    if not config.getoption("--novikoff-verify"):
        return
    invocation_dir = config.invocation_params.dir
    if not any(_names_this_file(a, invocation_dir) for a in config.args):
        config.args.append(str(HERE))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.resolve() == HERE and parent.config.getoption("--novikoff-verify"):
        root = parent.config.rootpath
        # a node id pytest can re-run: rootdir-relative inside the rootdir, absolute outside it
        nodeid = file_path.relative_to(root).as_posix() if file_path.is_relative_to(root) else str(file_path)
        return ProofSuite.from_parent(parent, path=file_path, nodeid=nodeid)
    return None
