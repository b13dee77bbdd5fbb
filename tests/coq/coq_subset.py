"""Compile a few files of the Coq development in a private copy, and what the tests read
from coqc's output: shared by the certificate tests (the checkout is shared, so nothing is
built in place)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

DEVELOPMENT = Path(__file__).resolve().parents[2] / "novikoff" / "coq" / "theories"


def build_subset(root: Path, names: tuple[str, ...]) -> Path:
    """Copy ``names`` (in dependency order) from the development into ``root`` and compile
    each there; fails the test naming the file that does not compile."""
    for name in names:
        shutil.copy(DEVELOPMENT / name, root / name)
        done = subprocess.run(
            ["coqc", "-q", "-R", ".", "Novikoff", name], cwd=root, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{name} does not compile:\n{done.stdout}\n{done.stderr}"
    return root


def compile_source(root: Path, source: str, name: str) -> subprocess.CompletedProcess[str]:
    """Write ``source`` to ``root/name.v`` and compile it against the subset built there."""
    path = root / f"{name}.v"
    path.write_text(source)
    return subprocess.run(
        ["coqc", "-q", "-R", str(root), "Novikoff", str(path)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )


def printed_axioms(stdout: str) -> set[str]:
    """The axiom names ``Print Assumptions`` printed (its unindented lines)."""
    return {
        line.split()[0]
        for line in stdout.splitlines()
        if line and not line[0].isspace() and line != "Axioms:"
    }
