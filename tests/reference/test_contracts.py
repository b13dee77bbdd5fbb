"""CrossHair on the reference's integer kernels, and the kernels against each other."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from novikoff.proofs.contracts import KERNELS, crosshair_check
from novikoff.reference.kernels import (
    pdm_updates,
    pfm_updates,
    repeated_update_count,
    repeated_update_count_closed_form,
)


def test_closed_form_count_equals_the_definition() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(5000):
        d = rng.randint(1, 8)
        e = rng.randint(1, d)
        w = [rng.randint(-6, 6) for _ in range(3)]
        z = [rng.randint(-6, 6) for _ in range(3)]
        q = sum(v * v for v in z)
        t = rng.randint(1, 30)
        p = sum(a * b for a, b in zip(w, z))
        w2 = sum(v * v for v in w)
        if q == 0 or not pdm_updates(t, p, w2, e, d):
            continue
        assert repeated_update_count(t, p, q, w2, e, d) == repeated_update_count_closed_form(
            t, p, q, w2, e, d
        )
        checked += 1
    assert checked > 1000
    # edge cases named by the issue: integer roots, eps = 1, eps = 1/2, p = w.z = 0
    for t, p, q, w2, e, d in [(1, 0, 1, 0, 1, 1), (1, 0, 1, 1, 1, 2), (2, 0, 4, 8, 1, 2), (1, 0, 2, 2, 1, 3)]:
        assert repeated_update_count(t, p, q, w2, e, d) == repeated_update_count_closed_form(
            t, p, q, w2, e, d
        )


def test_pfm_sign_split() -> None:
    assert pfm_updates(-3, 100, 0, 1) and pfm_updates(0, 0, 0, 1)
    assert not pfm_updates(1, 100, 0, 1)
    assert pfm_updates(3, 9, 1, 1) and not pfm_updates(4, 9, 1, 1)  # 3 <= 1 * sqrt(9) < 4


@pytest.mark.slow
@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_crosshair_finds_no_counterexample(kernel: str) -> None:
    pytest.importorskip("crosshair")
    crosshair_check(kernel, per_condition_timeout=5.0)


@pytest.mark.slow
def test_crosshair_catches_a_broken_closed_form(tmp_path: Path) -> None:
    pytest.importorskip("crosshair")
    source = Path(__file__).resolve().parents[2] / "novikoff" / "reference" / "kernels.py"
    text = source.read_text().replace(
        "    return max(n, 0) + 1", "    return max(n, 0) + (1 if t < 7 else 2)"
    )
    assert "(1 if t < 7 else 2)" in text
    (tmp_path / "broken_kernels.py").write_text(text)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "crosshair",
            "check",
            "broken_kernels.repeated_update_count",
            "--analysis_kind=PEP316",
            "--per_condition_timeout=30",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert proc.returncode != 0 and "false when calling repeated_update_count" in proc.stdout
