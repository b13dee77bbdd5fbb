"""The pytest plugin: free when unused, node ids that re-run, counts under ``-k``, JUnit
names with a classname. Each case is a separate pytest process (the plugin's own hooks)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def pytest_run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "novikoff.integrations.pytest_plugin",
            "-p",
            "no:cacheprovider",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "test_user.py").write_text(
        "import sys\n\ndef test_user():\n    assert 'novikoff.proofs.core' not in sys.modules\n"
    )
    return tmp_path


def n_obligations() -> int:
    from novikoff.proofs.registry import all_obligations

    return len(all_obligations())


def test_unused_plugin_imports_nothing_heavy(project: Path) -> None:
    proc = pytest_run(project, "-q")
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr
    code = (
        "import sys, novikoff.integrations.pytest_plugin\n"
        "print(sorted(m for m in ('sympy', 'novikoff.proofs') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"


def test_counts_under_k_and_node_ids_that_rerun(project: Path) -> None:
    proc = pytest_run(project, "--novikoff-verify", "--co", "-q", "-k", "N1 or test_user")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    total = n_obligations() + 1
    match = re.search(r"(\d+)/(\d+) tests collected \((\d+) deselected\)", proc.stdout)
    assert match is not None, proc.stdout
    selected, collected, deselected = map(int, match.groups())
    assert (collected, selected, selected + deselected) == (total, len(ids), total)
    ours = [i for i in ids if "::novikoff_verify[" in i]
    assert ours and all(
        re.fullmatch(r".+pytest_plugin\.py::novikoff_verify\[[A-Z0-9]+-[^\[\] ]+\]", i) for i in ours
    )
    assert len(set(ids)) == len(ids)
    rerun = pytest_run(project, "--novikoff-verify", "-q", ours[0])
    assert rerun.returncode == 0 and "1 passed" in rerun.stdout, rerun.stdout + rerun.stderr


def test_junit_names_have_a_classname(project: Path) -> None:
    junit = project / "junit.xml"
    proc = pytest_run(project, "--novikoff-verify", "-q", "-k", "N2", f"--junitxml={junit}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cases = [c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") != "test_user"]
    assert cases and all(c.find("failure") is None for c in cases)
    for case in cases:
        assert (case.get("classname") or "").endswith("novikoff.integrations.pytest_plugin")
        name = case.get("name") or ""
        assert re.fullmatch(r"novikoff_verify\[[A-Z0-9]+-[^\[\] ]+\]", name), name
