"""Shared test configuration: Hypothesis profiles and the shared benchmark data path."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:  # imported for the annotation only: the fixture must not import falsify
    from novikoff.fuzz.falsify import Counterexample

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NOVIKOFF_SHARED", REPO.parent / "shared"))
COQ = SHARED / "benchmarks" / "coq-perceptron"


@pytest.fixture(scope="session")
def coq_dir() -> Path:
    """../shared/benchmarks/coq-perceptron; required on CI, skipped elsewhere if absent."""
    if not COQ.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared benchmark data missing at {COQ}")
        pytest.skip(f"shared benchmark data not found at {COQ}")
    return COQ


@pytest.fixture(scope="session")
def coq_development(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole Coq development (novikoff/coq/theories, wrong/ included) built once per session
    by :func:`novikoff.coq.kernel.build` in a temporary copy, for the tests that compile
    against it (each writes its own files there); skipped without coqc."""
    import shutil

    from novikoff.coq.kernel import build

    if shutil.which("coqc") is None:
        pytest.skip("coqc not found")
    work = tmp_path_factory.mktemp("coq_development") / "coq"
    _files, errors = build(work)
    assert not errors, errors
    return work


@pytest.fixture(autouse=True, scope="session")
def _falsify_database_outside_the_repo(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep falsify's default example database (.novikoff/examples) out of the working tree."""
    os.environ["NOVIKOFF_DATABASE"] = str(tmp_path_factory.mktemp("novikoff-db"))


@pytest.fixture(autouse=True)
def _replay_every_counterexample(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every counterexample file a test writes must replay: ``novikoff replay FILE`` reruns
    its recorded algorithm and order and finds its recorded bound violated (exit 1)."""
    falsify_module = sys.modules.get("novikoff.fuzz.falsify")  # imported by the tests that falsify
    if falsify_module is None:
        yield
        return
    from novikoff.fuzz.bounds import parse_bound

    written: list[tuple[Path, int, bool]] = []
    real = falsify_module.Counterexample.write_csv

    def write_csv(self: Counterexample, path: str | Path) -> None:
        real(self, path)
        if self.bound_text:  # a hand-built Counterexample without a bound does not replay
            nonseparable = "nonseparable" in self.header()
            bound = parse_bound(
                self.bound_text, self.setting.algorithm, self.limits, nonseparable=nonseparable
            )
            if nonseparable:  # D, deviation2, T: evaluated at the recorded direction and margin
                from novikoff.fuzz.falsify_nonseparable import evaluable

                bound = evaluable(bound)
            claimed = falsify_module.bound_exceeded(bound, self.updates, self.values)
            written.append((Path(path), self.updates, claimed))

    monkeypatch.setattr(falsify_module.Counterexample, "write_csv", write_csv)
    yield
    for path, updates, claimed in written:
        if path.exists():
            replay = falsify_module.replay_file(path)
            assert (replay.updates, replay.violated) == (updates, claimed), f"{path}: {replay.summary()}"


#: The slow part of the suite, by file (paths under tests/): the Coq builds and audits, the
#: extracted program's campaigns, CrossHair, the process-hygiene runs that wait out their
#: limits, the CLI fuzz campaigns, verify over every obligation, prove's Coq files, the docs
#: build and the theorem pages' generation. Each took seconds per test in
#: ``pytest --durations`` (docs/contributing.md has the measured suite times).
#: ``pytest -m "not slow"`` is the fast selection for development; CI runs everything.
SLOW_FILES = (
    "coq/",
    "extracted/",
    "reference/test_contracts.py",
    "runtime/test_process_hygiene.py",
    "commands/test_cli_fuzz.py",
    "commands/test_verify.py",
    "commands/test_diff_dask.py",
    "commands/test_diff_impl_extracted.py",
    "prove/",
    "test_docs.py",
    "test_theorem_pages.py",
    "integrations/test_figures.py",
    "commands/test_diff_command.py",
    "fuzz/test_diff_semantics.py",
    "fuzz/test_diff_sgd.py",
    "fuzz/test_diff_worker.py",
    "fuzz/test_harness_settings.py",
    "certificates/test_certify_sharded.py",
    "data/test_hostile_input.py",
    "runtime/test_resource_bounds.py",
    "runtime/test_executors.py",
    "twins/test_large_margin_protocol.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of :data:`SLOW_FILES` ``slow``."""
    tests = Path(__file__).resolve().parent
    for item in items:
        try:
            rel = Path(item.path).resolve().relative_to(tests).as_posix()
        except ValueError:
            continue
        if any(rel == s or (s.endswith("/") and rel.startswith(s)) for s in SLOW_FILES):
            item.add_marker(pytest.mark.slow)
