"""The kernel report is decided by Coq: tampered copies of the development are reported NOT
kernel-checked, each for its reason.

Each case copies the development with a small ``_CoqProject`` (``Statements.v``,
``Romma.v`` with R1, ``Voted.v`` with V1's three statements; all they need), tampers with
it, and runs :func:`novikoff.coq.kernel.coq_report` on the copy, exactly what ``novikoff
verify --coq`` runs on the package. The untampered copy is the control: R1 and V1 are
kernel-checked there. The ids of the files left out fail as "no theorem" (EXPECTED_AXIOMS
expects one), which the cases do not look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from novikoff.coq.audit import parse_audit
from novikoff.coq.kernel import (
    EXPECTED_AXIOMS,
    REALS_AXIOMS,
    AuditRun,
    CoqReport,
    _verdict,
    coq_report,
)
from novikoff.coq.printer import COQ_DIR

pytestmark = [
    pytest.mark.xdist_group("coq"),
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found"),
]

FILES = ("Statements.v", "Romma.v", "Voted.v")
R1_THEOREM = "Theorem R1 : R1_statement."
R1_PROOF_END = "  nra.\nQed.\n\nExample R1_example"
STALE = "Statements.v is not the spec's print (stale or edited; differs at "


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path.name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def _statement_block(name: str) -> str:
    text = (COQ_DIR / "Statements.v").read_text(encoding="utf-8")
    start = text.index(f"Definition {name}_statement : Prop :=")
    return text[start : text.index("\n\n", start)]


def _replace_r1(d: Path, text: str) -> None:
    """Keep R1's proof as R1_old and declare ``text`` (a new R1) after it."""
    _edit(d / "Romma.v", R1_THEOREM, "Theorem R1_old : R1_statement.")
    _edit(d / "Romma.v", R1_PROOF_END, f"  nra.\nQed.\n\n{text}\n\nExample R1_example")


def vacuous_statement(d: Path) -> None:
    """The review's tampering, in Statements.v: R1_statement := True, proved by exact I."""
    _edit(d / "Statements.v", _statement_block("R1"), "Definition R1_statement : Prop := True.")
    _edit(d / "Romma.v", R1_THEOREM, f"{R1_THEOREM}\nProof. exact I. Qed.\n\nLemma R1_old : R1_statement.")


def vacuous_statement_in_the_theorem_file(d: Path) -> None:
    """The same, Statements.v untouched: Romma.v defines its own R1_statement := True (the
    old report's regex saw "Theorem R1 : R1_statement." and said kernel-checked)."""
    _replace_r1(d, f"Definition R1_statement : Prop := True.\n{R1_THEOREM}\nProof. exact I. Qed.")


def statement_edited(d: Path) -> None:
    """A weaker R1 in Statements.v (R2 + 1 for R2); the unchanged proof proves it too."""
    end = "  ((gamma2 * (INR k)) <= R2).\n\nDefinition R1_hypotheses"
    _edit(d / "Statements.v", end, end.replace("<= R2)", "<= R2 + 1)"))


def theorem_proves_another_statement(d: Path) -> None:
    """R1 renamed away; the theorem named R1 proves G1_pad's statement (made available)."""
    pad = _statement_block("G1_pad").replace("G1_pad_statement", "Pad_statement")
    proof = "Proof. unfold Pad_statement. intros w1 w2 w3 z1 z2 z3 Hz. rewrite Hz. ring. Qed."
    _replace_r1(d, f"{pad}\n\nTheorem R1 : Pad_statement.\n{proof}")


def theorem_renamed(d: Path) -> None:
    """No declaration named R1 any more (its proof is kept under another name)."""
    _edit(d / "Romma.v", R1_THEOREM, "Theorem R1_orig : R1_statement.")


def theorem_by_an_axiom(d: Path) -> None:
    _replace_r1(d, f"Axiom cheat : R1_statement.\n{R1_THEOREM}\nProof. exact cheat. Qed.")


def theorem_unguarded(d: Path) -> None:
    """A proof through a non-terminating fixpoint, guard checking off."""
    loop = "Unset Guard Checking.\nFixpoint loop (n : nat) : False := loop n.\nSet Guard Checking."
    _replace_r1(d, f"{loop}\n{R1_THEOREM}\nProof. destruct (loop 0). Qed.")


def example_vacuous(d: Path) -> None:
    old = "Example R1_example : R1_hypotheses"
    _edit(
        d / "Romma.v",
        old,
        "Example R1_example : True.\nProof. exact I. Qed.\nExample R1_old_example : R1_hypotheses",
    )


def statements_stale(d: Path) -> None:
    """Statements.v not regenerated: here an alpha-renaming of R1_statement, the same
    proposition to Coq, but not the spec's print."""
    block = _statement_block("R1")
    renamed = block.replace("(k : nat)", "(kk : nat)").replace("(INR k)", "(INR kk)")
    _edit(d / "Statements.v", block, renamed.replace("(w2 k%nat)", "(w2 kk%nat)"))


def statements_header_edited(d: Path) -> None:
    _edit(
        d / "Statements.v", "Local Open Scope R_scope.\n", "Local Open Scope R_scope.\nAxiom evil : False.\n"
    )


def axiom_names_shadowed(d: Path) -> None:
    """A file of the development named like the standard library's declares an axiom under
    an allowed axiom's name, and R1 uses it: in the audit it would print as the allowed
    name, but then the reference lemma's real axiom does not."""
    evil = "Axiom sig_forall_dec : forall P : Prop, P.\n"
    (d / "ClassicalDedekindReals.v").write_text(evil, encoding="utf-8")
    _edit(d / "_CoqProject", "Romma.v", "ClassicalDedekindReals.v\nRomma.v")
    old = "From Novikoff Require Import Statements."
    _edit(d / "Romma.v", old, f"{old}\nRequire Novikoff.ClassicalDedekindReals.")
    _replace_r1(d, f"{R1_THEOREM}\nProof. exact (Novikoff.ClassicalDedekindReals.sig_forall_dec _). Qed.")


TAMPERINGS: dict[str, Callable[[Path], None]] = {
    f.__name__: f
    for f in (
        vacuous_statement,
        vacuous_statement_in_the_theorem_file,
        statement_edited,
        theorem_proves_another_statement,
        theorem_renamed,
        theorem_by_an_axiom,
        theorem_unguarded,
        example_vacuous,
        statements_stale,
        statements_header_edited,
        axiom_names_shadowed,
    )
}


def _copy(root: Path, name: str) -> Path:
    d = root / name
    shutil.copytree(
        COQ_DIR, d, ignore=shutil.ignore_patterns("*.vo", "*.vos", "*.vok", "*.glob", ".*", "wrong")
    )
    (d / "_CoqProject").write_text("-R . Novikoff\n" + "\n".join(FILES) + "\n", encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def tampered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A copy per tampering, and "control": the copy untouched."""
    root = tmp_path_factory.mktemp("coq_tampered")
    dirs = {"control": _copy(root, "control")}
    for name, tamper in TAMPERINGS.items():
        dirs[name] = _copy(root, name)
        tamper(dirs[name])
    return dirs


@pytest.fixture(scope="module")
def reports(tampered: dict[str, Path]) -> dict[str, CoqReport]:
    """The report of each copy, two at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(tampered, pool.map(lambda d: coq_report(timeout=300, coq_dir=d), tampered.values())))


def _status(rep: CoqReport, sid: str, name: str) -> str:
    sub = rep.theorems[sid]["statements"][name]  # type: ignore[index]
    print(f"{name}: {sub['status']}")
    return str(sub["status"])


def test_control_copy_is_kernel_checked(reports: dict[str, CoqReport]) -> None:
    rep = reports["control"]
    assert not rep.errors, rep.errors
    for sid, name in [("R1", "R1"), ("V1", "V1_prefixes"), ("V1", "V1_vote"), ("V1", "V1_sample")]:
        assert _status(rep, sid, name) == "kernel-checked"
        assert rep.theorems[sid]["printed_statements_checked"] is True
        # no run theorem in this copy (RunStatements.v left out): not kernel-checked as an id
        assert rep.theorems[sid]["kernel_checked"] is False
        assert str(rep.theorems[sid]["status"]).startswith("printed statement kernel-checked; no run theorem")
    assert "Definition audit_R1 : Novikoff.Statements.R1_statement := Novikoff.Romma.R1." in rep.audit
    assert (
        "Lemma audit_R1_example : exists x1 x2 x3 x4 x5 x6 x7, Novikoff.Statements.R1_hypotheses" in rep.audit
    )
    assert "no theorem N1 in the development" in _status(rep, "N1", "N1")  # left out of the copy


# tampering -> what R1's status must say (every fragment), and whether V1 stays kernel-checked
EXPECTED: dict[str, tuple[list[str], bool]] = {
    "vacuous_statement": ([STALE + "R1_statement)", "Romma.v does not compile"], False),
    "vacuous_statement_in_the_theorem_file": (
        [
            "not a proof of Novikoff.Statements.R1_statement: Novikoff.Romma.R1:",
            'has type "Romma.R1_statement"',
        ],
        True,
    ),
    "statement_edited": ([STALE + "R1_statement)"], False),
    "theorem_proves_another_statement": (
        ["not a proof of Novikoff.Statements.R1_statement: Novikoff.Romma.R1:", "Pad_statement"],
        True,
    ),
    "theorem_renamed": (["no theorem R1 in the development (EXPECTED_AXIOMS expects one)"], True),
    "theorem_by_an_axiom": (
        ["cheat", "; expected exactly ClassicalDedekindReals.sig_forall_dec, Functional"],
        True,
    ),
    "theorem_unguarded": (["is assumed to be guarded", "; expected exactly"], True),
    "example_vacuous": (
        ["not an instance of Novikoff.Statements.R1_hypotheses: Novikoff.Romma.R1_example:"],
        True,
    ),
    "statements_stale": ([STALE + "R1_statement)"], False),
    "statements_header_edited": ([STALE + "the header)"], False),
    "axiom_names_shadowed": (["the audit did not run (see the report's errors)"], False),
}


@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_tampered_copy_is_not_kernel_checked(reports: dict[str, CoqReport], tampering: str) -> None:
    rep = reports[tampering]
    fragments, v1_ok = EXPECTED[tampering]
    status = _status(rep, "R1", "R1")
    assert status.startswith("failed: "), status
    for fragment in fragments:
        assert fragment in status, (fragment, status)
    assert rep.theorems["R1"]["kernel_checked"] is False and not rep.ok
    v1 = _status(rep, "V1", "V1_vote")
    assert (v1 == "kernel-checked") is v1_ok, v1


def test_stale_and_shadowed_are_errors_of_the_whole_report(reports: dict[str, CoqReport]) -> None:
    assert any(e.startswith(STALE + "R1_statement)") for e in reports["statements_stale"].errors)
    assert any(
        "regenerate it with python -m novikoff.coq.printer" in e for e in reports["statements_stale"].errors
    )
    shadowed = reports["axiom_names_shadowed"].errors
    assert any("a file of the development shadows their names" in e for e in shadowed), shadowed


def test_verify_coq_fails_the_tampered_id(tampered: dict[str, Path]) -> None:
    """``verify --coq``'s checks, on the copy whose Romma.v proves its own vacuous
    R1_statement: R1 fails with Coq's reason, V1 passes."""
    from novikoff.verify import coq_checks

    checks = {c.spec_id: c for c in coq_checks(300, tampered["vacuous_statement_in_the_theorem_file"])}
    with pytest.raises(AssertionError, match=re.escape("R1: failed: not a proof of Novikoff.Statements.R1_")):
        checks["R1"].run()
    from novikoff.verify import Skip

    with pytest.raises(Skip, match="printed statement kernel-checked; no run theorem"):
        checks["V1"].run()  # V1's printed statements pass; it has no run theorem: a skip, not a failure


def test_an_empty_axiom_list_fails() -> None:
    """A theorem over R that assumes nothing cannot be about Coq's reals."""
    run = AuditRun(accepted={"R1": ("Novikoff.Romma.R1", "Novikoff.Romma.R1_example")}, axioms={"R1": []})
    cands = {"R1": [("Novikoff.Romma.R1", "Novikoff.Romma.R1_example")]}
    reasons, info = _verdict("R1", cands, {"Novikoff.Romma"}, run)
    assert reasons == [f"assumes no axiom; expected exactly {', '.join(sorted(REALS_AXIOMS))}"]
    assert EXPECTED_AXIOMS["R1"] == REALS_AXIOMS and info["axioms"] == []
    run.axioms["R1"] = sorted(REALS_AXIOMS)
    assert _verdict("R1", cands, {"Novikoff.Romma"}, run)[0] == []


def test_print_assumptions_parsing_keeps_unknown_lines_whole() -> None:
    out = (
        "@@audit A\nAxioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\n"
        "ClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n    x\n"
        "@@audit B\nClosed under the global context\n"
        "@@audit C\nAxioms:\nloop is assumed to be guarded.\nTheory:\n"
        "Type hierarchy is collapsed (logic is inconsistent)\n"
    )
    assert parse_audit(out) == {
        "A": ["ClassicalDedekindReals.sig_not_dec", "ClassicalDedekindReals.sig_forall_dec"],
        "B": [],
        "C": [
            "loop is assumed to be guarded.",
            "Theory:",
            "Type hierarchy is collapsed (logic is inconsistent)",
        ],
    }
