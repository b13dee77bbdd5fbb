"""The chain spec statement -> printed statement -> bridge -> run theorem (docs/coq-chain.md).

Each run statement (``RunStatements.v``) speaks about an algorithm's run on labelled data;
its bridge (``Bridges.v``) derives it from the printed ``<NAME>_statement``. These tests
check that the bridges really go through the printed statements (the same proof script
fails once the printed conclusion is weakened to ``True``), and that the report counts an
id as kernel-checked only with a run theorem and a bridge that Coq accepted."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from novikoff.coq.kernel import LOGICAL_ROOT, AuditRun, _verdict, find_runs
from novikoff.coq.printer import COQ_DIR

pytestmark = pytest.mark.xdist_group("coq")
needs_coq = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found")

RUNS = find_runs()


def _bridge_file(name: str) -> str:
    """The file of ``_CoqProject`` that declares ``<name>_bridge`` (the one the audit types)."""
    bridge = RUNS[name][2]
    assert bridge is not None, f"no bridge for {name}"
    return bridge.split(".")[-2] + ".v"


def _header(name: str) -> str:
    """The bridge file's own Require/Import lines, and the file itself (its helper lemmas);
    Bridges too, for its tactics ([use_printed], [conclude_with]) that a later file may
    redefine locally."""
    f = _bridge_file(name)
    text = (COQ_DIR / f).read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith(("From ", "Import ", "Local Open"))]
    mods = dict.fromkeys(["Bridges", f[:-2]])
    return "\n".join([*lines, *(f"From Novikoff Require Import {m}." for m in mods)]) + "\n"


def _printed_block(name: str) -> str:
    text = (COQ_DIR / "Statements.v").read_text(encoding="utf-8")
    start = text.index(f"Definition {name}_statement : Prop :=")
    return text[start : text.index("\n\n", start)]


def _bridge_script(name: str) -> str:
    text = (COQ_DIR / _bridge_file(name)).read_text(encoding="utf-8")
    start = text.index(f"Theorem {name}_bridge : {name}_statement -> {name}_run_statement.\n")
    start = text.index("\n", start) + 1
    return text[start : text.index("Qed.", start) + 4]


def _probe(name: str, weaken: bool) -> str:
    block = _printed_block(name).replace(f"{name}_statement", f"Probe_{name}_statement")
    if weaken:
        head, _conclusion = block.rsplit("\n", 1)
        block = f"{head}\n  True."
    return (
        f"{_header(name)}\n{block}\n\n"
        f"Theorem probe_{name} : Probe_{name}_statement -> {name}_run_statement.\n"
        f"{_bridge_script(name)}\n"
    )


def test_the_run_ids_have_run_statements() -> None:
    expected = {
        "N1",
        "N2",
        "N3",
        "T1",
        "M1",
        "P1",
        "D1_above_half",
        "D1_half",
        "D1_below_half",
        "D2",
        "D3",
        "MU",
        "G1_scale",
        "G1_add_point",
        "G1_pad",
        "G1_rotate",
        "FS1_one_pass",
        "FS1_passes",
        "DS1",
        "S1",
        "S2",
        "RC1",
        "R1",
        "V1_prefixes",
        "V1_vote",
        "V1_sample",
        "L1",
    }
    assert expected <= set(RUNS)
    project = (COQ_DIR / "_CoqProject").read_text(encoding="utf-8").split()
    after_bridges = {f[:-2] for f in project[project.index("Bridges.v") :]}
    for name, (rs, run, bridge) in RUNS.items():
        assert rs == f"{LOGICAL_ROOT}.RunStatements.{name}_run_statement"
        assert run is not None and bridge is not None, name
        module = bridge.split(".")[-2]
        assert module in after_bridges, (name, module)
        assert run == f"{LOGICAL_ROOT}.{module}.{name}_run", name
        assert bridge == f"{LOGICAL_ROOT}.{module}.{name}_bridge", name


@needs_coq
@pytest.mark.parametrize("name", sorted(RUNS))
def test_bridge_goes_through_the_printed_statement(coq_development: Path, name: str) -> None:
    """The bridge's script proves the run statement from the printed statement (control),
    and fails from the printed statement with its conclusion replaced by True: so the run
    theorem's content comes from the printed statement's conclusion, not around it."""

    def run(weaken: bool) -> subprocess.CompletedProcess[str]:
        f = f"Probe_{name}_{'weak' if weaken else 'control'}.v"
        (coq_development / f).write_text(_probe(name, weaken), encoding="utf-8")
        return subprocess.run(
            ["coqc", "-q", "-R", ".", LOGICAL_ROOT, f],
            cwd=coq_development,
            capture_output=True,
            text=True,
            timeout=300,
        )

    control = run(False)
    assert control.returncode == 0, control.stderr
    weak = run(True)
    assert weak.returncode != 0
    assert "Error" in weak.stderr, weak.stderr


def _run_with(name: str, **kw: object) -> AuditRun:
    thm = f"{LOGICAL_ROOT}.Theorems.{name}"
    base = AuditRun(accepted={name: (thm, f"{thm}_example")}, axioms={name: ["A"]})
    for k, v in kw.items():
        setattr(base, k, v)
    return base


def test_verdict_requires_the_run_theorem_and_the_bridge() -> None:
    name = "N3"
    thm = f"{LOGICAL_ROOT}.Theorems.{name}"
    cands = {name: [(thm, f"{thm}_example")]}
    compiled = {f"{LOGICAL_ROOT}.Theorems", f"{LOGICAL_ROOT}.Bridges", f"{LOGICAL_ROOT}.RunStatements"}
    rs, run_thm, bridge = RUNS[name]
    assert run_thm is not None and bridge is not None
    ok = _run_with(
        name,
        run_accepted={f"{name}_run": run_thm, f"{name}_bridge": bridge},
        run_axioms={f"{name}_run": ["ClassicalDedekindReals.sig_forall_dec"]},
    )
    runs = {name: RUNS[name]}
    reasons, info = _verdict(name, cands, compiled, ok, runs)
    assert not [r for r in reasons if "run" in r or "bridge" in r], reasons
    assert info["run_theorem"] == run_thm and info["bridge"] == bridge

    no_bridge = _run_with(
        name,
        run_accepted={f"{name}_run": run_thm},
        run_axioms={f"{name}_run": ["ClassicalDedekindReals.sig_forall_dec"]},
        rejected={f"{name}_bridge": [f"{bridge}: The term has type ..."]},
    )
    reasons, _ = _verdict(name, cands, compiled, no_bridge, runs)
    assert any(r.startswith(f"not a bridge: {bridge}: The term has type") for r in reasons), reasons

    missing = {name: (rs, run_thm, None)}
    reasons, _ = _verdict(name, cands, compiled, ok, missing)
    assert f"no bridge {name}_bridge from {LOGICAL_ROOT}.Statements.{name}_statement to {rs}" in reasons

    cheat = _run_with(
        name,
        run_accepted={f"{name}_run": run_thm, f"{name}_bridge": bridge},
        run_axioms={f"{name}_run": ["Top.cheat"]},
    )
    reasons, _ = _verdict(name, cands, compiled, cheat, runs)
    assert any(re.search(r"assumes Top\.cheat; allowed", r) for r in reasons), reasons
