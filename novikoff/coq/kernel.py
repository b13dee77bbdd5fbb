"""Build the Coq development and report, per spec id, what Coq's kernel checked.

``coq_report()`` decides with Coq, not with the sources' text:

1. **The statements are today's spec.** ``Statements.v`` is printed from the spec
   (:func:`novikoff.coq.printer.generate`) and compared byte for byte with the
   development's; any difference (stale, or edited) fails every statement, with a message
   naming the definitions that differ. The development is then built in a temporary copy
   (no build product is ever written into the package), with the fresh print as its
   ``Statements.v``, every file of ``_CoqProject`` in order with ``coqc`` (timing each;
   a file that does not compile fails the theorems it declares, and the build goes on).
2. **Each theorem has the statement's type.** An audit file (:data:`AUDIT_FILE`) states,
   for every statement ``<NAME>`` whose theorem compiled (a declaration named ``<NAME>``
   in the development's files; when several files declare one, the latest in
   ``_CoqProject`` first, then the next if Coq rejects it)::

       Definition audit_<NAME> : Novikoff.Statements.<NAME>_statement := <the theorem>.

   and for its ``Example <NAME>_example`` (in the same file as the theorem)::

       Lemma audit_<NAME>_example : exists x1 ... xn, Novikoff.Statements.<NAME>_hypotheses x1 ... xn.

   proved by ``exact`` of the Example (``Definition ... := <the Example>`` when there are no
   binders). ``coqc`` compiles it: an entry that Coq rejects (a theorem about another
   statement, a vacuous statement, an Example that is not an instance of the hypotheses)
   fails, and the file is recompiled without it until what remains compiles.
3. **Only the expected axioms.** ``Print Assumptions audit_<NAME>`` must list exactly
   :data:`EXPECTED_AXIOMS` ``[<NAME>]`` (a subset of :data:`ALLOWED_AXIOMS`; an empty list
   fails, since every theorem over Coq's reals assumes their axioms); the Examples together
   may assume only allowed axioms. The allowed names are checked to denote the standard
   library's axioms in the audit's own context (``Print Assumptions`` of
   :data:`REFERENCE_LEMMA` must print exactly them), so no file of the development can
   declare an axiom under one of their names.

4. **The statement speaks about the run.** For every statement ``<NAME>`` with a run
   statement (a declaration ``<NAME>_run_statement``, in ``RunStatements.v``: a property of
   an algorithm's run on labelled data, for every dataset, order and dimension), the audit
   also states::

       Definition audit_<NAME>_run : Novikoff.RunStatements.<NAME>_run_statement := <run theorem>.
       Definition audit_<NAME>_bridge :
         Novikoff.Statements.<NAME>_statement -> Novikoff.RunStatements.<NAME>_run_statement
         := <bridge>.

   (``<NAME>_run`` and ``<NAME>_bridge``, declared in the development), and ``Print
   Assumptions audit_<NAME>_run`` must list only allowed axioms (and some: it is over R).
   A statement with a run statement is kernel-checked only when its theorem, its run
   theorem and its bridge all pass.

An id is kernel-checked when all of its statements (``novikoff.spec.THEOREMS``) pass 1-4 and
every one of them has a run theorem and a bridge; an id whose printed statements pass but
some has no run theorem is reported ``"printed statement(s) kernel-checked; no run theorem
for ..."`` (not kernel-checked, not failed).
A statement with no theorem is "not proved in Coq" (never passed), unless
:data:`EXPECTED_AXIOMS` lists it: then its theorem is expected and its absence fails.
Without ``coqc`` everything says "skipped (coqc not found)". ``CoqReport.ok`` is False when
anything failed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from novikoff.coq.printer import COQ_DIR, CoqTranslationError, all_statements, generate, layout
from novikoff.runtime.bounded import run_completed

__all__ = [
    "ALLOWED_AXIOMS",
    "AUDIT_FILE",
    "EXPECTED_AXIOMS",
    "REALS_AXIOMS",
    "REALS_NOT_DEC",
    "REFERENCE_LEMMA",
    "RUN_STATEMENTS",
    "SKIPPED",
    "AuditEntry",
    "AuditRun",
    "CoqReport",
    "audit",
    "audit_entries",
    "build",
    "coq_report",
    "find_candidates",
    "find_runs",
    "find_theorems",
    "statements_diff",
]

#: The axioms a theorem may assume: those of Coq's standard real numbers. The first three
#: are behind every [R] (the classical Dedekind construction of Coq >= 8.12 and function
#: extensionality); [Classical_Prop.classic] enters through the standard library's
#: [ln]/[Rpower] (Coq.Reals.Rpower and the analysis it imports), used by D1_below_half.
ALLOWED_AXIOMS = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
    }
)

#: What every theorem over [R] assumes: [lra], [field] and [nra] reach the Dedekind reals'
#: [sig_forall_dec] and function extensionality (Coq 8.16, Coq.Reals.ClassicalDedekindReals).
REALS_AXIOMS = frozenset(
    {"ClassicalDedekindReals.sig_forall_dec", "FunctionalExtensionality.functional_extensionality_dep"}
)
#: ... and through [sqrt]'s lemmas (Coq.Reals.R_sqrt: FS1's proofs take sqrt k) and [ln]'s
#: also [sig_not_dec]; [ln]'s analysis (Coq.Reals.Rpower) also [Classical_Prop.classic].
REALS_NOT_DEC = REALS_AXIOMS | {"ClassicalDedekindReals.sig_not_dec"}
_LN = REALS_NOT_DEC | {"Classical_Prop.classic"}

#: Exactly the axioms ``Print Assumptions`` must list for each statement's theorem (by Coq
#: name). A statement listed here must have a theorem; one with a theorem must be listed.
EXPECTED_AXIOMS: Mapping[str, frozenset[str]] = {
    "N1": REALS_AXIOMS,
    "N2": REALS_AXIOMS,
    "N3": REALS_AXIOMS,
    "T1": REALS_AXIOMS,
    "G1_scale": REALS_AXIOMS,
    "G1_rotate": REALS_AXIOMS,
    "G1_pad": REALS_AXIOMS,
    "G1_add_point": REALS_AXIOMS,
    "M1": REALS_AXIOMS,
    "P1": _LN,
    "D1_above_half": REALS_AXIOMS,
    "D1_half": _LN,
    "D1_below_half": _LN,
    "D2": REALS_AXIOMS,
    "D3": REALS_AXIOMS,
    "L1": _LN,
    "S1": REALS_AXIOMS,
    "S2": REALS_AXIOMS,
    "MU": REALS_AXIOMS,
    "DS1": _LN,
    "RC1": _LN,
    "R1": REALS_AXIOMS,
    "FS1_one_pass": REALS_NOT_DEC,
    "FS1_passes": REALS_NOT_DEC,
    "V1_prefixes": REALS_AXIOMS,
    "V1_vote": REALS_AXIOMS,
    "V1_sample": REALS_AXIOMS,
}

#: A standard-library lemma that assumes exactly :data:`ALLOWED_AXIOMS` (ln (exp x) = x).
REFERENCE_LEMMA = "Coq.Reals.Rpower.ln_exp"
_ALLOWED_TEXT = ", ".join(sorted(ALLOWED_AXIOMS))
AUDIT_FILE = "NovikoffAudit.v"
SKIPPED = "skipped (coqc not found)"
NOT_PROVED = "not proved in Coq"
LOGICAL_ROOT = "Novikoff"
STATEMENTS = "Statements.v"
#: The module of the run statements (``<NAME>_run_statement``).
RUN_STATEMENTS = "RunStatements"
NO_RUN = "printed statement kernel-checked; no run theorem"

#: A declaration's name at the start of a line (after comments are stripped). Only finds
#: where a name is declared; whether it proves anything is Coq's decision (the audit).
_DECLARATION = re.compile(
    r"^\s*(?:Theorem|Lemma|Corollary|Proposition|Fact|Remark|Example|Definition)\s+"
    r"([A-Za-z_][A-Za-z0-9_']*)",
    re.M,
)
_MARKER = "@@audit "


@dataclass
class CoqReport:
    """What ``coq_report`` found. ``theorems`` maps each spec id to its entry; ``errors``
    are the failures not of one statement (a stale ``Statements.v``, a file that does not
    compile, an audit that cannot run); ``audit`` is the audit file Coq compiled."""

    available: bool
    version: str | None = None
    seconds: float = 0.0
    files: dict[str, float] = field(default_factory=dict)
    theorems: dict[str, dict[str, object]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    audit: str = ""

    @property
    def ok(self) -> bool:
        """Nothing failed: no error, and no statement whose status is a failure."""
        subs = [s for e in self.theorems.values() for s in e.get("statements", {}).values()]  # type: ignore[attr-defined]
        return not self.errors and not any(str(s["status"]).startswith("failed") for s in subs)

    def kernel_checked(self) -> list[str]:
        return [i for i, e in self.theorems.items() if e.get("kernel_checked")]

    def to_json(self) -> dict[str, object]:
        return {
            "version": self.version if self.available else SKIPPED,
            "seconds": round(self.seconds, 2),
            "files": {k: round(v, 2) for k, v in self.files.items()},
            "allowed_axioms": sorted(ALLOWED_AXIOMS),
            "errors": list(self.errors),
            "theorems": self.theorems,
            "audit_file": self.audit,
        }


# --------------------------------------------------------------------------- the sources


def _strip_comments(text: str) -> str:
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif depth and text.startswith("*)", i):
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def _project_files(coq_dir: Path) -> list[str]:
    lines = (coq_dir / "_CoqProject").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip().endswith(".v")]


def _module(f: str) -> str:
    return f"{LOGICAL_ROOT}.{Path(f).stem}"


def _declarations(coq_dir: Path) -> dict[str, list[str]]:
    """``{name: [files declaring it]}`` over ``_CoqProject``, in its order (``Statements.v``
    excluded: the build replaces it by the spec's print)."""
    out: dict[str, list[str]] = {}
    for f in _project_files(coq_dir):
        if f == STATEMENTS:
            continue
        text = _strip_comments((coq_dir / f).read_text(encoding="utf-8"))
        for name in dict.fromkeys(_DECLARATION.findall(text)):
            out.setdefault(name, []).append(f)
    return out


def find_candidates(coq_dir: Path = COQ_DIR) -> dict[str, list[tuple[str, str | None]]]:
    """``{statement name: [(qualified theorem, qualified example or None), ...]}``: for each
    spec statement ``<NAME>``, every declaration named ``<NAME>`` in the development (the
    file latest in ``_CoqProject`` first: a spec-level theorem applies the lemmas of the
    files before it), with ``<NAME>_example`` when the same file declares it. Only where to
    look: the audit decides which, if any, proves the statement."""
    decls = _declarations(coq_dir)
    out: dict[str, list[tuple[str, str | None]]] = {}
    for name, _st in all_statements():
        for f in reversed(decls.get(name, [])):
            ex = f"{_module(f)}.{name}_example" if f in decls.get(f"{name}_example", []) else None
            out.setdefault(name, []).append((f"{_module(f)}.{name}", ex))
    return out


def find_theorems(coq_dir: Path = COQ_DIR) -> dict[str, tuple[str, str | None]]:
    """``{statement name: (qualified theorem, qualified example or None)}``: the candidate the
    audit tries first (:func:`find_candidates`)."""
    return {name: cands[0] for name, cands in find_candidates(coq_dir).items()}


def find_runs(coq_dir: Path = COQ_DIR) -> dict[str, tuple[str, str | None, str | None]]:
    """``{statement name: (qualified run statement, qualified run theorem or None, qualified
    bridge or None)}`` for each spec statement ``<NAME>`` whose ``<NAME>_run_statement`` the
    development declares in ``RunStatements.v``; the run theorem ``<NAME>_run`` and the bridge
    ``<NAME>_bridge`` are the declarations latest in ``_CoqProject``. Only where to look: the
    audit decides whether they have the run statement's type."""
    decls = _declarations(coq_dir)
    rs_file = f"{RUN_STATEMENTS}.v"
    out: dict[str, tuple[str, str | None, str | None]] = {}
    for name, _st in all_statements():
        if rs_file not in decls.get(f"{name}_run_statement", []):
            continue

        def last(decl: str) -> str | None:
            files = decls.get(decl, [])
            return f"{_module(files[-1])}.{decl}" if files else None

        out[name] = (f"{_module(rs_file)}.{name}_run_statement", last(f"{name}_run"), last(f"{name}_bridge"))
    return out


def statements_diff(committed: str, fresh: str) -> list[str]:
    """What differs between two texts of ``Statements.v``: ``"the header"`` and the names of
    the definitions that differ, are missing or are extra (empty when they are equal)."""
    if committed == fresh:
        return []

    def blocks(text: str) -> tuple[str, dict[str, str]]:
        head, *rest = text.split("\nDefinition ")
        return head, {b.split(" ", 1)[0]: b for b in rest}

    head_c, defs_c = blocks(committed)
    head_f, defs_f = blocks(fresh)
    out = ["the header"] if head_c != head_f else []
    out += [n for n in dict.fromkeys([*defs_f, *defs_c]) if defs_c.get(n) != defs_f.get(n)]
    return out or ["the text"]


# --------------------------------------------------------------------------- the build


def _coqc_version(coqc: str) -> str:
    out = run_completed([coqc, "--version"], 30.0).stdout
    m = re.search(r"version\s+(\S+)", out)
    return m.group(1) if m else out.strip()


def _coqc(coqc: str, work: Path, f: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """coqc on ``f`` in its own process group, killed with the group at the bound."""
    return run_completed([coqc, "-q", "-R", ".", LOGICAL_ROOT, f], max(timeout, 1.0), cwd=work)


def _tail(proc: subprocess.CompletedProcess[str], n: int = 2000) -> str:
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
    for f in _project_files(work):
        if f == "Check.v":
            continue
        t0 = time.perf_counter()
        try:
            proc = _coqc(coqc, work, f, timeout - (t0 - start))
        except subprocess.TimeoutExpired:
            return files, [*errors, f"{f}: timed out ({timeout:.0f} s for the whole build)"]
        if proc.returncode != 0:
            errors.append(f"{f} does not compile: {_tail(proc)}")
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


def _render(
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
        lines.append(f'Goal True. idtac "{_MARKER}{label}". Abort.')
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


def _parse(stdout: str) -> dict[str, list[str]]:
    """``{label: axiom names}`` from the markers and ``Print Assumptions`` blocks. Any line
    of a block that is not a header, a ``name : type`` line or its indented continuation
    (``... is assumed to be guarded.``, ``Theory: ...``) is kept whole, so it can never
    match an allowed axiom."""
    out: dict[str, list[str]] = {}
    label = None
    for line in stdout.splitlines():
        if line.startswith(_MARKER):
            label = line[len(_MARKER) :].strip()
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
            return _coqc(coqc, work, AUDIT_FILE, timeout - (time.perf_counter() - start))
        except subprocess.TimeoutExpired:
            run.errors.append(f"{AUDIT_FILE} timed out")
            return None

    while True:
        modules = sorted(
            {t.rsplit(".", 1)[0] for t, _e in chosen.values()}
            | {m.rsplit(".", 1)[0] for _n, rs, term in run_parts.values() for m in (rs, term)}
        )
        entries = audit_entries(chosen, run_parts)
        run.text, spans = _render(modules, entries)
        proc = compile_text(run.text)
        if proc is None:
            return run
        if proc.returncode == 0:
            break
        m = re.search(rf'File "\./{re.escape(AUDIT_FILE)}", line (\d+)', proc.stderr + proc.stdout)
        line = int(m.group(1)) if m else 0
        hit = [e for e, (a, b) in zip(entries, spans) if a <= line <= b]
        if not hit:
            run.errors.append(f"{AUDIT_FILE} does not compile: {_tail(proc)}")
            return run
        message = " ".join(_tail(proc, 800).split("\n", 1)[-1].split())
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
    blocks = _parse(proc.stdout)
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
        proc = compile_text(_render(modules, entries, each_example=True)[0])
        if proc is not None:
            blocks = _parse(proc.stdout)
            run.example_axioms = {e.key: sorted(blocks.get(e.key, ["?"])) for e in entries if e.is_example}
    return run


# --------------------------------------------------------------------------- the report


def _verdict(
    name: str,
    candidates: Mapping[str, Sequence[tuple[str, str | None]]],
    compiled: set[str],
    run: AuditRun | None,
    runs: Mapping[str, tuple[str, str | None, str | None]] | None = None,
) -> tuple[list[str], dict[str, object]]:
    """The reasons ``name`` is not kernel-checked (none: it is, or it has no theorem and
    none is expected), and its report fields."""
    reasons, info = _statement_verdict(name, candidates, compiled, run)
    if runs is None or name not in runs:
        return reasons, info
    rs, thm_run, bridge = runs[name]
    info |= {"run_statement": rs, "run_theorem": thm_run, "bridge": bridge, "run_axioms": []}
    if thm_run is None:
        reasons.append(f"no run theorem {name}_run for {rs}")
    if bridge is None:
        reasons.append(f"no bridge {name}_bridge from {LOGICAL_ROOT}.Statements.{name}_statement to {rs}")
    if run is None or run.errors:
        return reasons, info
    for key, term, what in (
        (f"{name}_run", thm_run, f"a proof of {rs}"),
        (f"{name}_bridge", bridge, "a bridge"),
    ):
        if term is None:
            continue
        if key not in run.run_accepted:
            rejected = run.rejected.get(key)
            if rejected:
                reasons += [f"not {what}: {r}" for r in rejected]
            else:
                reasons.append(f"{term.rsplit('.', 1)[0].split('.')[-1]}.v does not compile")
    if f"{name}_run" in run.run_accepted:
        axioms = run.run_axioms.get(f"{name}_run", [])
        info["run_axioms"] = axioms
        if not axioms or not set(axioms) <= ALLOWED_AXIOMS:
            shown = ", ".join(axioms) if axioms else "no axiom"
            reasons.append(f"{thm_run} assumes {shown}; allowed: a nonempty subset of {_ALLOWED_TEXT}")
    return reasons, info


def _statement_verdict(
    name: str,
    candidates: Mapping[str, Sequence[tuple[str, str | None]]],
    compiled: set[str],
    run: AuditRun | None,
) -> tuple[list[str], dict[str, object]]:
    """The reasons the printed statement's theorem of ``name`` fails (see :func:`_verdict`)."""
    expected = EXPECTED_AXIOMS.get(name)
    cands = candidates.get(name, [])
    if not cands:
        if expected is not None:
            return [f"no theorem {name} in the development (EXPECTED_AXIOMS expects one)"], {}
        return [], {}
    info: dict[str, object] = {"theorem": cands[0][0], "example": cands[0][1]}
    info["expected_axioms"] = sorted(expected or ())
    modules = [t.rsplit(".", 1)[0] for t, _e in cands]
    broken = [m.split(".")[-1] + ".v" for m in modules if m not in compiled]
    if run is None or run.errors:
        return [
            "the audit did not run (see the report's errors)",
            *(f"{f} does not compile" for f in broken),
        ], info
    if name not in run.accepted:
        reasons = [f"{f} does not compile" for f in broken]
        target = f"{LOGICAL_ROOT}.Statements.{name}_statement"
        reasons += [f"not a proof of {target}: {r}" for r in run.rejected.get(name, [])]
        return reasons, info
    thm, ex = run.accepted[name]
    info |= {"theorem": thm, "example": ex or dict(cands).get(thm)}
    axioms = run.axioms.get(name, [])
    info["axioms"] = axioms
    reasons = []
    if expected is None:
        reasons.append(f"assumes {', '.join(axioms) or 'no axiom'}: EXPECTED_AXIOMS has no entry for {name}")
    elif set(axioms) != expected:
        shown = ", ".join(axioms) if axioms else "no axiom"
        reasons.append(f"assumes {shown}; expected exactly {', '.join(sorted(expected))}")
    if f"{name}_example" in run.rejected:
        reasons += [
            f"not an instance of {LOGICAL_ROOT}.Statements.{name}_hypotheses: {r}"
            for r in run.rejected[f"{name}_example"]
        ]
    elif ex is None:
        reasons.append(f"no non-vacuity Example {name}_example next to {thm}")
    elif not set(bad := run.example_axioms.get(f"{name}_example", [])) <= ALLOWED_AXIOMS:
        reasons.append(f"{ex} assumes {', '.join(sorted(set(bad) - ALLOWED_AXIOMS))} (not allowed)")
    return reasons, info


def coq_report(timeout: float = 600.0, coq_dir: Path = COQ_DIR) -> CoqReport:
    """Build the development in a temporary copy and report per spec id (see module doc)."""
    coqc = shutil.which("coqc")
    statements = all_statements()
    if coqc is None:
        rep = CoqReport(available=False)
        for name, st in statements:
            blank: dict[str, object] = {"kernel_checked": False, "status": SKIPPED, "theorem": None}
            blank |= {"axioms": [], "example": None}
            rep.theorems.setdefault(st.id, {**blank, "statements": {}})
            rep.theorems[st.id]["statements"][name] = dict(blank)  # type: ignore[index]
        return rep
    start = time.perf_counter()
    rep = CoqReport(available=True, version=_coqc_version(coqc))
    global_reasons: list[str] = []
    try:
        fresh: str | None = generate()
    except CoqTranslationError as exc:
        fresh = None
        global_reasons.append(f"the spec does not print to Coq: {exc}")
    committed_path = coq_dir / STATEMENTS
    committed = committed_path.read_text(encoding="utf-8") if committed_path.exists() else ""
    if fresh is not None and (diff := statements_diff(committed, fresh)):
        global_reasons.append(
            f"{STATEMENTS} is not the spec's print (stale or edited; differs at {', '.join(diff)}): "
            "regenerate it with python -m novikoff.coq.printer"
        )
    rep.errors += global_reasons
    candidates = find_candidates(coq_dir)
    runs = find_runs(coq_dir)
    run: AuditRun | None = None
    compiled: set[str] = set()
    if fresh is not None:
        with tempfile.TemporaryDirectory(prefix="novikoff-coq-") as tmp:
            work = Path(tmp) / "coq"
            rep.files, errors = build(work, coq_dir, timeout, coqc, statements=fresh)
            rep.errors += errors
            candidates = find_candidates(work)  # what was compiled
            runs = find_runs(work)
            compiled = {_module(f) for f in rep.files}
            if _module(STATEMENTS) in compiled:
                left = timeout - (time.perf_counter() - start)
                run = audit(work, candidates, compiled, coqc, left, runs)
                rep.audit = run.text
                rep.errors += run.errors
    for name, st in statements:
        entry = rep.theorems.setdefault(st.id, {"statements": {}})
        reasons, info = _verdict(name, candidates, compiled, run, runs)
        reasons = global_reasons + reasons
        if reasons:
            status = "failed: " + "; ".join(reasons)
        else:
            status = NOT_PROVED if name not in candidates else "kernel-checked"
        sub: dict[str, object] = {"kernel_checked": status == "kernel-checked", "status": status}
        sub |= {"theorem": None, "axioms": [], "example": None} | {"run_theorem": None, "bridge": None} | info
        sub["about_the_run"] = status == "kernel-checked" and name in runs
        entry["statements"][name] = sub  # type: ignore[index]
    for entry in rep.theorems.values():
        subs: dict[str, dict[str, object]] = entry["statements"]  # type: ignore[assignment]
        printed = all(s["kernel_checked"] for s in subs.values())
        scalar_only = [n for n, s in subs.items() if not s["about_the_run"]]
        checked = printed and not scalar_only
        entry["kernel_checked"] = checked
        entry["printed_statements_checked"] = printed
        if checked:
            entry["status"] = "kernel-checked"
        elif printed:
            entry["status"] = f"{NO_RUN} for {', '.join(scalar_only)}"
        elif any(str(s["status"]).startswith("failed") for s in subs.values()):
            entry["status"] = "failed"
        elif any(s["kernel_checked"] for s in subs.values()):
            done = sum(bool(s["kernel_checked"]) for s in subs.values())
            entry["status"] = f"partial ({done} of {len(subs)} statements; the rest {NOT_PROVED})"
        else:
            entry["status"] = NOT_PROVED
        thms = [str(s["theorem"]) for s in subs.values() if s.get("theorem")]
        exs = [str(s["example"]) for s in subs.values() if s.get("example")]
        runs_ = [str(s["run_theorem"]) for s in subs.values() if s.get("run_theorem")]
        bridges = [str(s["bridge"]) for s in subs.values() if s.get("bridge")]
        entry["run_theorem"] = ", ".join(runs_) if runs_ else None
        entry["bridge"] = ", ".join(bridges) if bridges else None
        entry["theorem"] = ", ".join(thms) if thms else None
        entry["axioms"] = sorted({a for s in subs.values() for a in s.get("axioms", [])})  # type: ignore[attr-defined]
        entry["example"] = ", ".join(exs) if exs else None
        # statements first in the dict is awkward to read; put it last
        entry["statements"] = entry.pop("statements")
    rep.seconds = time.perf_counter() - start
    return rep


def main() -> int:
    import json

    rep = coq_report()
    print(json.dumps(rep.to_json(), indent=2))
    return 0 if rep.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
