"""``novikoff diff --algorithm romma`` and ``novikoff falsify --algorithm romma``: ROMMA's twin
agrees with the exact reference, a wrong update rule is reported as a bug, an exact run stopped
at its update limit is undecided (never a bug), and falsify finds R1's bound unbroken but a
bound below it broken."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.fuzz.algorithm_runs import ROMMA_MAX_UPDATES, romma_ambiguous, romma_run
from novikoff.twins.romma import romma_twin

MODULE = "tests.commands.test_diff_romma"


def _record(r: Any) -> dict[str, Any]:
    return {"weights": r.weights, "updates": r.update_indices, "epochs": r.epochs, "converged": r.converged}


def twin_fit(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """ROMMA's float twin, conservative (what diff --algorithm romma compares)."""
    return _record(romma_twin(X, y, max_epochs=max_epochs, order=order))


def aggressive_fit(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """A wrong ROMMA for the conservative contract: the aggressive rule (update iff w.z < 1)."""
    return _record(romma_twin(X, y, aggressive=True, max_epochs=max_epochs, order=order))


def _diff(capsys: pytest.CaptureFixture[str], target: str, *extra: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["diff", f"{MODULE}:{target}", "--algorithm", "romma", "--json", *extra])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def test_the_twin_agrees_with_the_exact_reference(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _diff(capsys, "twin_fit", "--examples", "6", "--families", "float-exact separable")
    assert code == 0 and report["ok"] and report["bugs"] == []
    assert report["agreed"] + report["ambiguous"] == report["examples"] == 6 and report["agreed"] > 0


def test_the_aggressive_rule_is_a_bug_of_conservative_romma(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _diff(capsys, "aggressive_fit", "--examples", "6", "--families", "float-exact separable")
    assert code == 1 and not report["ok"] and report["bugs"]
    assert report["bugs"][0]["check"] == "check_updates_match_reference"


def test_an_exact_run_stopped_at_its_update_limit_is_undecided_not_a_bug() -> None:
    # XOR is not separable, and ROMMA's constraint sets stay non-empty for its first updates
    rows = [
        [Fraction(0), Fraction(0)],
        [Fraction(1), Fraction(1)],
        [Fraction(0), Fraction(1)],
        [Fraction(1), Fraction(0)],
    ]
    ds = Dataset.from_fraction_rows(rows, [1, 1, -1, -1], bias=1)
    run = romma_run(ds, None, None, 1000)
    assert run.mistakes == ROMMA_MAX_UPDATES and getattr(run, "stopped", "").startswith("update limit")
    assert romma_ambiguous(ds, run, None, None)


def test_a_clean_short_run_is_not_ambiguous() -> None:
    ds = Dataset.from_fraction_rows(
        [[Fraction(2), Fraction(1)], [Fraction(-1), Fraction(-2)]], [1, -1], bias=1
    )
    run = romma_run(ds, None, None, 1000)
    assert run.converged and not romma_ambiguous(ds, run, None, None)


def test_falsify_finds_r1_unbroken_and_a_quarter_of_it_broken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--algorithm", "romma", "--examples", "10", "--database", "none", "--json"]
    code = cli.main(["falsify", "R2/gamma2", *base, "--out", str(tmp_path / "a.csv")])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["counterexample"] is None
    code = cli.main(["falsify", "R2/gamma2/4", *base, "--out", str(tmp_path / "b.csv")])
    out, _ = capsys.readouterr()
    found = json.loads(out)
    assert (
        code == 1
        and found["updates"] > Fraction(found["values"]["R2"]) / Fraction(found["values"]["gamma2"]) / 4
    )


def test_a_decision_exactly_at_zero_after_an_update_is_ambiguous() -> None:
    # z_0 = (1, 0, 1), z_1 = (1, -2, -1): after w = z_0/2, w.z_1 = 0 exactly (floats may round it)
    ds = Dataset.from_fraction_rows(
        [[Fraction(1), Fraction(0)], [Fraction(-1), Fraction(2)]], [1, -1], bias=1
    )
    run = romma_run(ds, None, None, 1000)
    assert run.updates[:2] == [(0, 0), (0, 1)]
    assert romma_ambiguous(ds, run, None, None)
