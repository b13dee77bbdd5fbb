"""Coq's kernel behind the spec: the development builds, every theorem assumes only the
allowed axioms and has a non-vacuity Example, and the same proof scripts fail on the
wrong variants. Skipped when coqc is absent (CI installs it)."""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from novikoff.coq.kernel import (
    ALLOWED_AXIOMS,
    EXPECTED_AXIOMS,
    LOGICAL_ROOT,
    REALS_AXIOMS,
    coq_report,
    find_runs,
    find_theorems,
)
from novikoff.coq.printer import all_statements
from novikoff.coq.variants import control_file, variant_file, wrong_statements

pytestmark = pytest.mark.xdist_group("coq")

coqc = shutil.which("coqc")
needs_coq = pytest.mark.skipif(coqc is None, reason="coqc not found")


def test_allow_list_is_the_standard_reals() -> None:
    print("allowed axioms:", *sorted(ALLOWED_AXIOMS), sep="\n  ")
    assert ALLOWED_AXIOMS == {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
    }


def test_no_admitted_or_axioms_in_the_sources() -> None:
    from novikoff.coq.printer import COQ_DIR
    from novikoff.coq.sources import strip_comments

    for f in COQ_DIR.glob("*.v"):
        text = strip_comments(f.read_text(encoding="utf-8"))
        for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Hypothesis"):
            assert f" {word}" not in f" {text}".replace("\n", " "), f"{f.name} uses {word}"


def test_theorems_have_examples_in_the_sources() -> None:
    found = find_theorems()
    assert {"N1", "N2", "N3", "T1", "G1_scale", "G1_rotate", "G1_pad", "G1_add_point", "M1"} <= set(found)
    for name, (thm, ex) in found.items():
        assert thm.startswith(f"{LOGICAL_ROOT}.") and ex == f"{thm}_example", name


def test_expected_axioms_cover_every_theorem_within_the_allow_list() -> None:
    """Every statement with a Coq theorem has its axioms recorded, no record outlives its
    theorem or statement, and each is allowed and includes the reals' own (a theorem over R
    assumes them)."""
    names = {name for name, _st in all_statements()}
    assert set(find_theorems()) == set(EXPECTED_AXIOMS) and set(EXPECTED_AXIOMS) <= names
    for name, axioms in EXPECTED_AXIOMS.items():
        assert REALS_AXIOMS <= axioms <= ALLOWED_AXIOMS, name


@needs_coq
def test_coq_report_kernel_checks_every_theorem() -> None:
    rep = coq_report(timeout=600)
    assert rep.ok, rep.errors
    found = find_theorems()
    runs = find_runs()
    for sid, entry in rep.theorems.items():
        subs = entry["statements"]
        assert isinstance(subs, dict)
        for name, sub in subs.items():
            if name not in found:
                assert sub["status"] == "not proved in Coq" and name not in EXPECTED_AXIOMS, name
                continue
            assert sub["kernel_checked"] is True, (name, sub)
            assert sub["theorem"] == found[name][0] and sub["example"] == found[name][1], name
            assert set(sub["axioms"]) == EXPECTED_AXIOMS[name], (name, sub["axioms"])
            assert (
                f"Definition audit_{name} : {LOGICAL_ROOT}.Statements.{name}_statement := {found[name][0]}."
                in rep.audit
            )
            assert f"{LOGICAL_ROOT}.Statements.{name}_hypotheses" in rep.audit
            assert f"Print Assumptions audit_{name}." in rep.audit
        assert entry["printed_statements_checked"] is all(n in found for n in subs), sid
        # an id is kernel-checked only when every statement also has its run theorem + bridge
        about_run = all(n in runs and subs[n]["about_the_run"] for n in subs)
        assert entry["kernel_checked"] is (entry["printed_statements_checked"] and about_run), sid
        for n in subs:
            if n in runs:
                assert subs[n]["run_theorem"] == runs[n][1] and subs[n]["bridge"] == runs[n][2], n
                assert set(subs[n]["run_axioms"]) <= ALLOWED_AXIOMS and subs[n]["run_axioms"], n
                assert f"Print Assumptions audit_{n}_run." in rep.audit
                assert f"{LOGICAL_ROOT}.Statements.{n}_statement -> {runs[n][0]}" in rep.audit
            else:
                assert subs[n]["about_the_run"] is False
    for sid in (
        "N1",
        "N2",
        "N3",
        "T1",
        "G1",
        "M1",
        "P1",
        "D1",
        "D2",
        "D3",
        "MU",
        "V1",
        "R1",
        "S1",
        "S2",
        "DS1",
        "RC1",
        "FS1",
    ):
        assert rep.theorems[sid]["kernel_checked"] is True, sid
    for sid in ("L1", "R1", "FS1", "V1"):
        assert rep.theorems[sid]["printed_statements_checked"] is True, sid
    assert rep.to_json()["audit_file"] == rep.audit
    assert sum(rep.files.values()) < 300, rep.files


def test_report_without_coqc_says_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.coq.kernel as kernel

    monkeypatch.setattr(kernel.shutil, "which", lambda _name: None)
    rep = kernel.coq_report()
    assert not rep.available and rep.ok
    assert all(
        e["status"] == "skipped (coqc not found)" and e["kernel_checked"] is False
        for e in rep.theorems.values()
    )
    assert rep.to_json()["version"] == "skipped (coqc not found)"


@pytest.fixture(scope="module")
def built(coq_development: Path) -> Path:
    """The development built once for the session (tests/conftest.py)."""
    return coq_development


def _compile(work: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    (work / name).write_text(text, encoding="utf-8")
    assert coqc is not None
    return subprocess.run(
        [coqc, "-q", "-R", ".", LOGICAL_ROOT, name], cwd=work, capture_output=True, text=True, timeout=300
    )


@needs_coq
def test_proof_scripts_replay_on_the_true_statements(built: Path) -> None:
    """The harness control: the same scripts, against the true statements printed the same
    way, compile; so a wrong variant that fails, fails for the mathematics."""
    proc = _compile(built, "NovikoffControl.v", control_file())
    assert proc.returncode == 0, proc.stderr


@needs_coq
def test_wrong_variants_fail_to_compile(built: Path) -> None:
    variants = wrong_statements()
    proved = set(find_theorems())
    # every kernel-checked statement has its conclusion-1%-off variant
    assert {w.name for w in variants if "conclusion 1 % off" in w.label} == proved

    def run(i: int) -> tuple[str, int, str, int]:
        w = variants[i]
        text, start = variant_file(w.name, w.definition)
        proc = _compile(built, f"NovikoffWrong{i}.v", text)
        return w.label, proc.returncode, proc.stderr + proc.stdout, start

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, range(len(variants))))
    for label, rc, out, start in results:
        assert rc != 0, f"the proof of {label} compiled against the wrong statement"
        line = int(out.split("line ", 1)[1].split(",", 1)[0])
        assert line >= start, f"{label}: failed before the proof (line {line} < {start}): {out}"
