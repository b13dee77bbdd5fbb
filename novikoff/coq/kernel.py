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

import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from novikoff.coq.audit import AuditEntry, AuditRun, audit, audit_entries, build, coqc_version
from novikoff.coq.conventions import (
    ALLOWED_AXIOMS,
    ALLOWED_TEXT,
    AUDIT_FILE,
    EXPECTED_AXIOMS,
    LOGICAL_ROOT,
    NO_RUN,
    NOT_PROVED,
    REALS_AXIOMS,
    REALS_NOT_DEC,
    REFERENCE_LEMMA,
    RUN_STATEMENTS,
    SKIPPED,
    STATEMENTS,
)
from novikoff.coq.printer import COQ_DIR, CoqTranslationError, all_statements, generate
from novikoff.coq.sources import find_candidates, find_runs, find_theorems, module_name, statements_diff

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
            reasons.append(f"{thm_run} assumes {shown}; allowed: a nonempty subset of {ALLOWED_TEXT}")
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
    rep = CoqReport(available=True, version=coqc_version(coqc))
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
            compiled = {module_name(f) for f in rep.files}
            if module_name(STATEMENTS) in compiled:
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
