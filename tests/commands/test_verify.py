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
from novikoff.proofs.core import Certificate, Obligation, Term
from novikoff.spec import THEOREMS

REPO = Path(__file__).resolve().parents[2]


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


def test_only_selects_every_check_whose_ids_contain_the_id() -> None:
    from novikoff.proofs.registry import SPEC_IDS, all_obligations, obligation_ids
    from novikoff.verify import collect_checks

    every = collect_checks(crosshair=True, coq=True)
    assert all(c.spec_id in c.ids and c.ids <= set(SPEC_IDS) for c in every)
    registry_checks = [c for c in every if c.group == "registry"]
    assert len(registry_checks) == 1 and registry_checks[0].ids == set(SPEC_IDS)
    for sid in SPEC_IDS:
        selected = collect_checks([sid], crosshair=True, coq=True)
        assert [c.name for c in selected] == [c.name for c in every if sid in c.ids]
    n1 = collect_checks(["N1"])
    # from the registry: N1's obligations and those a proof of N1 applies, N1's headline, the
    # whole-spec registry check, and the certified runs, which check N1 at every update
    obligations = all_obligations()
    ids = obligation_ids(obligations)
    proofs = [ob.name for ob in obligations if "N1" in ids[ob.name]]
    assert [c.name for c in n1 if c.group == "proof"] == proofs
    assert len([c for c in n1 if c.group == "spec"]) == len(THEOREMS["N1"])
    assert {c.group for c in n1} == {"spec", "registry", "proof", "certificate", "campaign"}
    assert any(c.name == "T1 basis n=7" for c in n1) and len(n1) > len(proofs) + 100
    assert not any(c.group == "spec" and c.spec_id != "N1" for c in n1)


def test_a_failure_bearing_on_several_ids_fails_each_of_their_rows() -> None:
    from novikoff.verify import Check, CheckResult, summary_rows, to_json

    def boom() -> None:
        raise AssertionError("boom")

    results = [
        CheckResult(Check("proof", "N1", "n1 alone", lambda: None), True, 0.0),
        CheckResult(Check("certificate", "T1", "t1 run", boom, frozenset({"N1", "N3"})), False, 0.0, "boom"),
    ]
    rows = {sid: (status, passed, failed) for sid, status, passed, failed, _s, _t in summary_rows(results)}
    assert rows == {"N1": ("FAILED", 1, 1), "T1": ("FAILED", 0, 1), "N3": ("FAILED", 0, 1)}
    checks = to_json(results)["checks"]
    assert isinstance(checks, list)
    assert [c["ids"] for c in checks] == [["N1"], ["N1", "N3", "T1"]]


def test_unknown_id_lists_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "verify", "--only", "N9")
    assert code == 2 and "valid ids" in err and "N1" in err and "D1" in err


def test_json_and_baseline_regressions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "verify", "--only", "S1", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["checks"][0]["status"] == "passed"
    from novikoff.verify import collect_checks

    expected = {c.name: sorted(c.ids) for c in collect_checks(["S1"])}
    assert {c["name"]: c["ids"] for c in data["checks"]} == expected
    assert all("S1" in c["ids"] and c["id"] in c["ids"] for c in data["checks"])
    assert any(c["ids"] == sorted(THEOREMS) for c in data["checks"])  # the whole-spec registry check
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


def test_a_baseline_is_filtered_by_the_ids_each_check_bears_on(tmp_path: Path) -> None:
    from novikoff.verify import regression_results

    baseline = tmp_path / "baseline.json"
    entry = {"group": "certificate", "id": "T1", "ids": ["N1", "T1"], "name": "gone", "status": "passed"}
    old = {"group": "proof", "id": "S1", "name": "old", "status": "passed"}  # a baseline without ids
    baseline.write_text(json.dumps({"checks": [entry, old]}))
    (missing,) = regression_results([], baseline, only=["N1"])
    assert missing.check.spec_id == "T1" and missing.check.ids == {"N1", "T1"} and not missing.ok
    assert [r.check.name for r in regression_results([], baseline, only=["S1"])] == ["missing: [proof] old"]
    assert len(regression_results([], baseline)) == 2


def test_a_broken_proof_step_fails_verify_loudly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = perceptron.n3

    def broken() -> Obligation:
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
            "novikoff.integrations.pytest_plugin",
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


# --------------------------------------------------------------------------- one verdict


def _md_tables(text: str) -> list[list[list[str]]]:
    """Every table of a Markdown document, parsed by markdown-it (GFM tables): rows of cell texts."""
    markdown_it = pytest.importorskip("markdown_it")
    tokens = markdown_it.MarkdownIt("commonmark").enable("table").parse(text)
    tables: list[list[list[str]]] = []
    row: list[str] = []
    for tok in tokens:
        if tok.type == "table_open":
            tables.append([])
        elif tok.type == "tr_open":
            row = []
        if tok.type in ("th_open", "td_open"):
            row.append("")
        elif tok.type == "inline" and tables and row is not None and tok.level >= 3:
            row[-1] = "".join(c.content for c in tok.children or [] if c.type == "text")
        elif tok.type == "tr_close":
            tables[-1].append(row)
    return tables


def _artefacts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, dict[str, object], ET.Element, str]:
    junit, report = tmp_path / "j.xml", tmp_path / "r.md"
    code, out, _ = run_cli(capsys, "verify", *args, "--json", "--junit", str(junit), "--report", str(report))
    return code, json.loads(out), ET.parse(junit).getroot(), report.read_text()


def _assert_one_verdict(code: int, data: dict[str, object], junit: ET.Element, md: str) -> None:
    failed_cases = junit.findall(".//testcase[failure]")
    assert code in (0, 1)
    assert data["ok"] is (code == 0)
    assert bool(failed_cases) is (code == 1)
    assert junit.get("failures") == str(len(failed_cases))
    assert ("**all checks hold**" in md) is (code == 0) and ("**SOME CHECKS FAILED**" in md) is (code == 1)
    checks = _md_tables(md)[1]
    assert len(checks) - 1 == len(data["checks"]) == len(junit.findall(".//testcase"))  # type: ignore[arg-type]
    assert sum(row[3] == "FAILED" for row in checks[1:]) == len(failed_cases)


def test_a_baseline_regression_is_one_verdict_in_every_artefact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data, junit, md = _artefacts(tmp_path, capsys, "--only", "S1")
    _assert_one_verdict(code, data, junit, md)
    assert code == 0 and data["regressions"] == []
    name = "a || check | that no longer `exists` \\ here"
    data["checks"].append(  # type: ignore[attr-defined]
        {"group": "proof", "id": "S1", "name": name, "status": "passed", "seconds": 0.0, "message": ""}
    )
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(data))
    code, data, junit, md = _artefacts(tmp_path, capsys, "--only", "S1", "--baseline", str(baseline))
    _assert_one_verdict(code, data, junit, md)
    assert code == 1 and data["ok"] is False
    assert data["regressions"] == [f"missing: [proof] {name}"]
    (case,) = junit.findall(".//testcase[failure]")
    assert (
        case.get("name") == f"missing: [proof] {name}" and case.get("classname") == "novikoff.regression.S1"
    )
    rows = [r for r in _md_tables(md)[1][1:] if r[0] == "regression"]
    assert rows == [["regression", "S1", f"missing: [proof] {name}", "FAILED", "0.000"]]
    summary = {r[0]: r[1] for r in _md_tables(md)[0][1:]}
    assert summary["S1"] == "FAILED"


def test_markdown_cells_survive_pipes_backslashes_newlines_and_backticks() -> None:
    from novikoff.verify import Check, CheckResult, to_markdown

    names = ["a || b", "x | y \\| z", "trailing \\", "line\nbreak", "`code | span`", "*em* <b> &amp; [l](u)"]
    results = [
        CheckResult(Check("proof", "N1", n, lambda: None), i % 2 == 0, 0.0, "boom ``` | ```` x")
        for i, n in enumerate(names)
    ]
    md = to_markdown(results)
    summary, checks = _md_tables(md)[:2]
    assert all(len(row) == 6 for row in summary) and all(len(row) == 5 for row in checks)
    assert [row[2] for row in checks[1:]] == [" ".join(n.split()) for n in names]
    markdown_it = pytest.importorskip("markdown_it")
    fences = [t.content for t in markdown_it.MarkdownIt("commonmark").parse(md) if t.type == "fence"]
    assert fences == ["boom ``` | ```` x\n"] * 3  # each failure's message whole inside its fence
