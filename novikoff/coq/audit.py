"""Build the Coq development in a copy and run the audit file: one coqc per file, in
``_CoqProject`` order, then the few lines per statement that Coq decides
(:mod:`novikoff.coq.kernel`'s docstring states what they check).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from novikoff.coq.conventions import (
    ALLOWED_AXIOMS,
    AUDIT_FILE,
    AUDIT_MARKER,
    LOGICAL_ROOT,
    REFERENCE_LEMMA,
    STATEMENTS,
)
from novikoff.coq.printer import COQ_DIR, all_statements, layout
from novikoff.coq.sources import project_files
from novikoff.runtime.bounded import run_completed

__all__ = [
    "AuditEntry",
    "AuditRun",
    "audit",
    "audit_entries",
    "build",
    "coqc_version",
    "output_tail",
    "parse_audit",
    "render_audit",
    "run_coqc",
]


def coqc_version(coqc: str) -> str:
    out = run_completed([coqc, "--version"], 30.0).stdout
    m = re.search(r"version\s+(\S+)", out)
    return m.group(1) if m else out.strip()


def run_coqc(coqc: str, work: Path, f: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """coqc on ``f`` in its own process group, killed with the group at the bound."""
    return run_completed([coqc, "-q", "-R", ".", LOGICAL_ROOT, f], max(timeout, 1.0), cwd=work)


def output_tail(proc: subprocess.CompletedProcess[str], n: int = 2000) -> str:
    return (proc.stderr or proc.stdout).strip()[-n:]


def build(
    work: Path,
    coq_dir: Path = COQ_DIR,
    timeout: float = 600.0,
    coqc: str | None = None,
    statements: str | None = None,
) -> tuple[dict[str, float], list[str]]:
    """Copy the development to ``work`` (with ``statements`` as its ``Statements.v`` when
    given) and compile it there, file by file in ``_CoqProject`` order (``Check.v``, the
    colleague's listing of assumptions, is skipped: the audit prints the assumptions). A
    file that does not compile is reported and the build goes on (the files that need it
    fail in turn). Returns the seconds of each file that compiled and the errors (empty
    when everything compiled)."""
    coqc = coqc or shutil.which("coqc") or "coqc"
    shutil.copytree(coq_dir, work, ignore=shutil.ignore_patterns("*.vo", "*.vos", "*.vok", "*.glob", ".*"))
    if statements is not None:
        (work / STATEMENTS).write_text(statements, encoding="utf-8")
    start = time.perf_counter()
    files: dict[str, float] = {}
    errors: list[str] = []
    for f in project_files(work):
        if f == "Check.v":
            continue
        t0 = time.perf_counter()
        try:
            proc = run_coqc(coqc, work, f, timeout - (t0 - start))
        except subprocess.TimeoutExpired:
            return files, [*errors, f"{f}: timed out ({timeout:.0f} s for the whole build)"]
        if proc.returncode != 0:
            errors.append(f"{f} does not compile: {output_tail(proc)}")
        else:
            files[f] = time.perf_counter() - t0
    return files, errors


# --------------------------------------------------------------------------- the audit


@dataclass(frozen=True)
class AuditEntry:
    """One definition of the audit file: ``key`` is the statement name, or
    ``<NAME>_example``; ``text`` its Coq lines."""

    key: str
    text: str
    is_example: bool
    #: "theorem", "example", "run" (``<NAME>_run``) or "bridge" (``<NAME>_bridge``)
    kind: str = "theorem"


def audit_entries(
    chosen: Mapping[str, tuple[str, str | None]], run_parts: Mapping[str, tuple[str, str, str]] | None = None
) -> list[AuditEntry]:
    """The audit's definitions for the statements of ``chosen`` (in spec order): the theorem
    typed as ``Novikoff.Statements.<NAME>_statement``, the Example as an instance of
    ``Novikoff.Statements.<NAME>_hypotheses`` (its arguments left to Coq's unification);
    and for ``run_parts`` (``{key: (statement name, run statement, term)}``, key
    ``<NAME>_run`` or ``<NAME>_bridge``) the run theorem typed as the run statement, the
    bridge as ``<NAME>_statement -> <run statement>``."""
    out: list[AuditEntry] = []
    run_parts = run_parts or {}
    for name, st in all_statements():
        stmt = f"{LOGICAL_ROOT}.Statements.{name}"
        for key, (owner, rs, term) in run_parts.items():
            if owner != name:
                continue
            if key.endswith("_bridge"):
                text = f"Definition audit_{key} :\n  {stmt}_statement -> {rs}\n  := {term}."
                out.append(AuditEntry(key, text, False, "bridge"))
            else:
                out.append(AuditEntry(key, f"Definition audit_{key} : {rs} := {term}.", False, "run"))
        if name not in chosen:
            continue
        thm, ex = chosen[name]
        out.append(AuditEntry(name, f"Definition audit_{name} : {stmt}_statement := {thm}.", False))
        if ex is None:
            continue
        arity = len(layout(name, st.symbols, st.theorem_hypotheses(), st.conclusion).binders)
        args = " ".join(f"x{i}" for i in range(1, arity + 1))
        if not args:
            text = f"Definition audit_{name}_example : {stmt}_hypotheses := {ex}."
        else:
            text = (
                f"Lemma audit_{name}_example : exists {args}, {stmt}_hypotheses {args}.\n"
                f"Proof. do {arity} eexists. exact {ex}. Qed."
            )
        out.append(AuditEntry(f"{name}_example", text, True, "example"))
    return out


@dataclass
class AuditRun:
    """What the audit found: ``accepted`` the theorem (and Example, None if it has none or
    Coq rejected it) Coq typed as each statement; ``rejected`` Coq's error for each
    rejected candidate (``<theorem>: <error>``) and rejected Example (key
    ``<NAME>_example``); ``axioms`` of each accepted theorem; ``example_axioms`` of each
    Example, filled only when the Examples together assume an axiom outside the
    allow-list; ``errors``: the audit could not run."""

    text: str = ""
    accepted: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    rejected: dict[str, list[str]] = field(default_factory=dict)
    axioms: dict[str, list[str]] = field(default_factory=dict)
    example_axioms: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: ``{<NAME>_run or <NAME>_bridge: term}`` Coq typed as the run statement (or bridge)
    run_accepted: dict[str, str] = field(default_factory=dict)
    #: the axioms of each accepted run theorem (key ``<NAME>_run``)
    run_axioms: dict[str, list[str]] = field(default_factory=dict)


def render_audit(
    modules: Sequence[str], entries: Sequence[AuditEntry], each_example: bool = False
) -> tuple[str, list[tuple[int, int]]]:
    """The audit file and the line span of each entry. The Examples' assumptions are printed
    together (one traversal; ``each_example``: one by one)."""
    lines = [
        "(* generated by novikoff.coq.kernel: the development's theorems, typed as the spec's",
        "   statements and Examples, and their axioms. *)",
        "Require Coq.Reals.Reals.",
        *(f"Require {m}." for m in modules),
        f"Require {LOGICAL_ROOT}.Statements.",
        "",
    ]
    spans = []
    for e in entries:
        first = len(lines) + 1
        lines += e.text.splitlines()
        spans.append((first, len(lines)))
    lines.append("")

    def show(label: str, term: str) -> None:
        lines.append(f'Goal True. idtac "{AUDIT_MARKER}{label}". Abort.')
        lines.append(f"Print Assumptions {term}.")

    show("reference", REFERENCE_LEMMA)
    for e in entries:
        if e.kind in ("theorem", "run"):
            show(e.key, f"audit_{e.key}")
    examples = [f"audit_{e.key}" for e in entries if e.is_example]
    if each_example:
        for e in entries:
            if e.is_example:
                show(e.key, f"audit_{e.key}")
    elif examples:
        pair = ", I" if len(examples) == 1 else ""
        lines.append(f"Definition audit_examples := ({', '.join(examples)}{pair}).")
        show("examples", "audit_examples")
    return "\n".join(lines) + "\n", spans


def parse_audit(stdout: str) -> dict[str, list[str]]:
    """``{label: axiom names}`` from the markers and ``Print Assumptions`` blocks. Any line
    of a block that is not a header, a ``name : type`` line or its indented continuation
    (``... is assumed to be guarded.``, ``Theory: ...``) is kept whole, so it can never
    match an allowed axiom."""
    out: dict[str, list[str]] = {}
    label = None
    for line in stdout.splitlines():
        if line.startswith(AUDIT_MARKER):
            label = line[len(AUDIT_MARKER) :].strip()
            out[label] = []
        elif label is None or not line or line[0].isspace():
            continue
        elif line in ("Axioms:", "Closed under the global context"):
            continue
        else:
            out[label].append(line.split(" : ", 1)[0].strip())
    return out


def audit(
    work: Path,
    candidates: Mapping[str, Sequence[tuple[str, str | None]]],
    compiled: set[str],
    coqc: str,
    timeout: float,
    runs: Mapping[str, tuple[str, str | None, str | None]] | None = None,
) -> AuditRun:
    """Write the audit file in the built ``work`` directory and compile it until Coq accepts
    what remains (see the module doc): a rejected theorem gives way to the statement's next
    candidate, a rejected Example is dropped. Only candidates of ``compiled`` modules are
    tried."""
    run = AuditRun()
    left = {
        n: [c for c in cs if c[0].rsplit(".", 1)[0] in compiled] for n, cs in candidates.items()
    }  # an Example is in its theorem's module
    left = {n: cs for n, cs in left.items() if cs}
    chosen = {n: cs.pop(0) for n, cs in left.items()}
    run_parts: dict[str, tuple[str, str, str]] = {}
    for n, (rs, thm_run, bridge) in (runs or {}).items():
        if rs.rsplit(".", 1)[0] not in compiled:
            continue
        for key, term in ((f"{n}_run", thm_run), (f"{n}_bridge", bridge)):
            if term is not None and term.rsplit(".", 1)[0] in compiled:
                run_parts[key] = (n, rs, term)
    start = time.perf_counter()

    def compile_text(text: str) -> subprocess.CompletedProcess[str] | None:
        (work / AUDIT_FILE).write_text(text, encoding="utf-8")
        try:
            return run_coqc(coqc, work, AUDIT_FILE, timeout - (time.perf_counter() - start))
        except subprocess.TimeoutExpired:
            run.errors.append(f"{AUDIT_FILE} timed out")
            return None

    while True:
        modules = sorted(
            {t.rsplit(".", 1)[0] for t, _e in chosen.values()}
            | {m.rsplit(".", 1)[0] for _n, rs, term in run_parts.values() for m in (rs, term)}
        )
        entries = audit_entries(chosen, run_parts)
        run.text, spans = render_audit(modules, entries)
        proc = compile_text(run.text)
        if proc is None:
            return run
        if proc.returncode == 0:
            break
        m = re.search(rf'File "\./{re.escape(AUDIT_FILE)}", line (\d+)', proc.stderr + proc.stdout)
        line = int(m.group(1)) if m else 0
        hit = [e for e, (a, b) in zip(entries, spans) if a <= line <= b]
        if not hit:
            run.errors.append(f"{AUDIT_FILE} does not compile: {output_tail(proc)}")
            return run
        message = " ".join(output_tail(proc, 800).split("\n", 1)[-1].split())
        key = hit[0].key
        if hit[0].kind in ("run", "bridge"):
            run.rejected.setdefault(key, []).append(f"{run_parts[key][2]}: {message}")
            del run_parts[key]
            continue
        name = key.removesuffix("_example") if hit[0].is_example else key
        thm, ex = chosen[name]
        if hit[0].is_example:
            run.rejected.setdefault(key, []).append(f"{ex}: {message}")
            chosen[name] = (thm, None)
        else:
            run.rejected.setdefault(name, []).append(f"{thm}: {message}")
            if left[name]:
                chosen[name] = left[name].pop(0)
            else:
                del chosen[name]
    run.accepted = dict(chosen)
    run.run_accepted = {key: term for key, (_n, _rs, term) in run_parts.items()}
    blocks = parse_audit(proc.stdout)
    reference = sorted(blocks.get("reference", []))
    if reference != sorted(ALLOWED_AXIOMS):
        run.errors.append(
            f"Print Assumptions {REFERENCE_LEMMA} lists {reference} in the audit's context, not the "
            f"allowed axioms {sorted(ALLOWED_AXIOMS)}: a file of the development shadows their names"
        )
        return run
    for e in entries:
        if e.kind in ("theorem", "run"):
            if e.key not in blocks:
                run.errors.append(f"no Print Assumptions output for audit_{e.key}")
            target = run.axioms if e.kind == "theorem" else run.run_axioms
            target[e.key] = sorted(blocks.get(e.key, []))
    if not set(blocks.get("examples", [])) <= ALLOWED_AXIOMS:  # which Examples: once more, one by one
        proc = compile_text(render_audit(modules, entries, each_example=True)[0])
        if proc is not None:
            blocks = parse_audit(proc.stdout)
            run.example_axioms = {e.key: sorted(blocks.get(e.key, ["?"])) for e in entries if e.is_example}
    return run
