"""The bridges use the printed statements by their names, not by the printer's order.

A bridge (``Bridges.v``, or a later file of ``_CoqProject``) proves
``<NAME>_statement -> <NAME>_run_statement``. One written positionally
(``apply (printed k gamma2 ...)`` and one bullet per premise, in the printer's order) breaks
as soon as the printer lists the symbols or the premises in another order. The bridges
instantiate the symbols by name (``specialize printed with (k := ...)``) and discharge each
premise with a hypothesis named after it (``use_printed``). These tests permute the binders
and the premises of each printed statement that has a bridge (a copy:
``Probe_<NAME>_statement``) and compile the unchanged bridge script against it. Skipped when
coqc is absent."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from novikoff.coq.kernel import LOGICAL_ROOT, find_runs
from novikoff.coq.printer import COQ_DIR

pytestmark = pytest.mark.xdist_group("coq")
needs_coq = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found")

RUNS = find_runs()
_PREMISE = re.compile(r"^  \(\* [^*]+ \*\) .* ->$")
_BINDER = re.compile(r"\((\w+) : ([^()]+)\)")


def _bridge_file(name: str) -> Path:
    """The file declaring ``<name>_bridge`` (Bridges.v or a later file of ``_CoqProject``)."""
    bridge = RUNS[name][2]
    assert bridge is not None, f"no bridge for {name}"
    return COQ_DIR / (bridge.split(".")[-2] + ".v")


def _bridge_script(name: str) -> str:
    text = _bridge_file(name).read_text(encoding="utf-8")
    start = text.index(f"Theorem {name}_bridge : {name}_statement -> {name}_run_statement.\n")
    start = text.index("\n", start) + 1
    return text[start : text.index("Qed.", start) + 4]


def all_bridges() -> list[str]:
    """The statements with a run statement and a bridge."""
    return sorted(name for name, (_rs, _run, bridge) in RUNS.items() if bridge is not None)


def by_name_bridges() -> list[str]:
    """The statements whose bridge uses the printed statement by its names."""
    return [name for name in all_bridges() if "use_printed" in _bridge_script(name)]


def printed_block(name: str) -> str:
    text = (COQ_DIR / "Statements.v").read_text(encoding="utf-8")
    start = text.index(f"Definition {name}_statement : Prop :=")
    return text[start : text.index("\n\n", start)]


def permuted(block: str) -> str:
    """The printed statement with its binders and its premises in reverse order (the
    conclusion, with its ``defined`` conjunct, stays last)."""
    head, forall, *rest = block.split("\n")
    assert forall.startswith("  forall ") and forall.endswith(","), forall
    binders = _BINDER.findall(forall)
    assert " ".join(f"({n} : {t})" for n, t in binders) == forall[len("  forall ") : -1], forall
    premises = [ln for ln in rest if _PREMISE.match(ln)]
    conclusion = [ln for ln in rest if not _PREMISE.match(ln)]
    assert rest == premises + conclusion, "premises are not all before the conclusion"
    new_forall = "  forall " + " ".join(f"({n} : {t})" for n, t in reversed(binders)) + ","
    return "\n".join([head, new_forall, *reversed(premises), *conclusion])


def _header(name: str) -> str:
    """The bridge file's imports, the file itself and Bridges (its tactics)."""
    f = _bridge_file(name)
    lines = [
        ln
        for ln in f.read_text(encoding="utf-8").splitlines()
        if ln.startswith(("From ", "Import ", "Local Open"))
    ]
    mods = dict.fromkeys(["Bridges", f.stem])
    return "\n".join([*lines, *(f"From Novikoff Require Import {m}." for m in mods)]) + "\n"


def _probe(name: str, block: str) -> str:
    block = block.replace(f"{name}_statement", f"Probe_{name}_statement")
    return (
        f"{_header(name)}\n{block}\n\n"
        f"Theorem probe_{name} : Probe_{name}_statement -> {name}_run_statement.\n"
        f"{_bridge_script(name)}\n"
    )


def test_every_bridge_uses_its_printed_statement_by_name() -> None:
    assert {"N3", "FS1_passes", "G1_rotate", "S2", "V1_sample"} <= set(all_bridges())
    assert by_name_bridges() == all_bridges()


def test_permuted_reverses_binders_and_premises() -> None:
    block = printed_block("N3")
    out = permuted(block)
    assert out != block
    lines, orig = out.split("\n"), block.split("\n")
    assert lines[1].startswith("  forall (w_norm2 : R)") and orig[1].startswith("  forall (k : nat)")
    assert lines[2].startswith("  (* cauchy_schwarz *)") and orig[2].startswith("  (* domain of gamma2 *)")
    assert lines[-1] == orig[-1]
    assert sorted(lines[2:]) == sorted(orig[2:])
    assert sorted(_BINDER.findall(lines[1])) == sorted(_BINDER.findall(orig[1]))


def test_permuted_rejects_a_premise_after_the_conclusion() -> None:
    block = printed_block("N3") + "\n  (* late *) (0 = 0) ->"
    with pytest.raises(AssertionError, match="premises are not all before"):
        permuted(block)


def _compile(work: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    f = f"Probe_binders_{name}.v"
    (work / f).write_text(text, encoding="utf-8")
    return subprocess.run(
        ["coqc", "-q", "-R", ".", LOGICAL_ROOT, f], cwd=work, capture_output=True, text=True, timeout=300
    )


@needs_coq
@pytest.mark.parametrize("name", by_name_bridges())
def test_bridge_compiles_against_permuted_binders(coq_development: Path, name: str) -> None:
    """The unchanged bridge script proves the run statement from the printed statement with
    its binders and premises reversed; and the same script fails against the reversed
    statement with its conclusion replaced by True (so the permuted statement is used)."""
    block = permuted(printed_block(name))
    assert block != printed_block(name)
    done = _compile(coq_development, name, _probe(name, block))
    assert done.returncode == 0, done.stderr
    head, _conclusion = block.rsplit("\n", 1)
    weak = _compile(coq_development, f"{name}_weak", _probe(name, f"{head}\n  True."))
    assert weak.returncode != 0 and "Error" in weak.stderr, weak.stderr
