"""``novikoff verify``: exit codes, reports, baselines, --only, the pytest plugin, and a
broken proof step that makes it fail loudly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.proofs import perceptron
from novikoff.proofs.core import Certificate, Term

REPO = Path(__file__).resolve().parent.parent


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_only_n1_n2_passes_with_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, report = tmp_path / "j.xml", tmp_path / "r.md"
    code, out, _ = run_cli(
        capsys, "verify", "--only", "N1", "N2", "T1", "--junit", str(junit), "--report", str(report)
    )
    assert code == 0, out
    assert "all checks hold" in out and "T1" in out
    root = ET.parse(junit).getroot()
    cases = root.findall(".//testcase")
    assert len(cases) > 100 and not root.findall(".//failure")  # T1 n = 1..50 plain and rotated
    assert "| N1 | passed |" in report.read_text()


def test_verify_n3_certificates_on_builtin_data(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")  # iris and breast cancer come from scikit-learn
    code, out, _ = run_cli(capsys, "verify", "--only", "N3", "--json")
    data = json.loads(out)
    names = {c["name"]: c["status"] for c in data["checks"]}
    assert code == 0, [c for c in data["checks"] if c["status"] != "passed"]
    assert names["iris setosa vs rest"] == "passed" and names["seed 6.6 separation 2"] == "passed"
    assert any(n.startswith("breast cancer") for n in names)


def test_unknown_id_lists_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "verify", "--only", "N9")
    assert code == 2 and "valid ids" in err and "N1" in err and "D1" in err


def test_json_and_baseline_regressions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "verify", "--only", "S1", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["checks"][0]["status"] == "passed"
    baseline = tmp_path / "baseline.json"
    data["checks"].append(
        {
            "group": "proof",
            "id": "S1",
            "name": "a check that no longer exists",
            "status": "passed",
            "seconds": 0.0,
            "message": "",
        }
    )
    baseline.write_text(json.dumps(data))
    code, out, _ = run_cli(capsys, "verify", "--only", "S1", "--baseline", str(baseline))
    assert code == 1 and "REGRESSION missing: [proof] a check that no longer exists" in out
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    code, _, err = run_cli(capsys, "verify", "--only", "S1", "--baseline", str(bad))
    assert code == 2 and "--baseline" in err


def test_a_broken_proof_step_fails_verify_loudly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = perceptron.n3

    def broken():  # type: ignore[no-untyped-def]
        ob = real()
        proof = ob.proof
        assert isinstance(proof, Certificate)
        # drop the Cauchy-Schwarz term from the squeeze: the certificate no longer matches
        terms = tuple(t for t in proof.terms if t.hyp != "cauchy_schwarz")
        return type(ob)(
            ob.name,
            ob.spec_id,
            ob.hypotheses,
            ob.claim,
            Certificate(terms=terms, squares=proof.squares, multiplier=proof.multiplier),
        )

    monkeypatch.setattr(perceptron, "n3", broken)
    code, out, err = run_cli(capsys, "verify", "--only", "N3")
    assert code == 1
    assert "FAILED [N3] N3 mistake bound" in err and "certificate does not match" in out
    assert Term((), "cauchy_schwarz") in real().proof.terms  # type: ignore[attr-defined]


def test_pytest_plugin_runs_every_obligation(tmp_path: Path) -> None:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "novikoff.pytest_plugin",
            "--novikoff-verify",
            "-q",
            "-p",
            "no:cacheprovider",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    from novikoff.proofs.registry import all_obligations

    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(all_obligations())} passed" in proc.stdout


def test_every_id_reports_that_its_headline_proves_the_spec_statement() -> None:
    from novikoff.proofs.registry import SPEC_IDS
    from novikoff.verify import collect_checks, run_checks, theorem_summary, to_json

    results = run_checks([c for c in collect_checks() if c.group == "spec"])
    summary = theorem_summary(results)
    assert set(summary) == set(SPEC_IDS)
    assert all(entry["matches_spec"] is True for entry in summary.values()), summary
    assert summary["G1"]["statements"] == 4 and summary["D1"]["statements"] == 3
    assert "1-6" in str(summary["N3"]["scope"]) and "K = 3" in str(summary["M1"]["scope"])
    assert summary["N1"]["scope"] is None
    assert to_json(results)["theorems"] == summary
