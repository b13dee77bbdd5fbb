"""Build the Coq development and report, per spec id, what Coq's kernel checked.

``coq_report()`` copies ``novikoff/proofs/coq`` to a temporary directory (no build
product is ever written into the package), compiles every file of ``_CoqProject`` in
order with ``coqc`` (timing each file), then runs ``Print Assumptions`` on every
``Theorem <NAME> : <NAME>_statement`` it finds and checks the axioms against
:data:`ALLOWED_AXIOMS`.

An id is kernel-checked when every statement of it (``novikoff.spec.THEOREMS``) has a
theorem that compiled and assumes only allowed axioms. Ids without a Coq theorem are
reported as "not proved in Coq" (never as passed). Without ``coqc`` everything says
"skipped (coqc not found)". ``CoqReport.ok`` is False when a theorem that exists fails to
compile or assumes an axiom outside the allow-list.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from novikoff.coq.printer import COQ_DIR, all_statements

__all__ = ["ALLOWED_AXIOMS", "SKIPPED", "CoqReport", "coq_report", "find_theorems"]

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

SKIPPED = "skipped (coqc not found)"
NOT_PROVED = "not proved in Coq"
LOGICAL_ROOT = "Novikoff"

_THEOREM = re.compile(r"^\s*Theorem\s+([A-Za-z_][A-Za-z0-9_']*)\s*:\s*\1_statement\s*\.", re.M)
_EXAMPLE = re.compile(r"^\s*Example\s+([A-Za-z_][A-Za-z0-9_']*)\s*:", re.M)


@dataclass
class CoqReport:
    """What ``coq_report`` found. ``theorems`` maps each spec id to its entry."""

    available: bool
    version: str | None = None
    seconds: float = 0.0
    files: dict[str, float] = field(default_factory=dict)
    theorems: dict[str, dict[str, object]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No existing theorem failed to compile or assumed an axiom outside the allow-list."""
        return not self.errors

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
        }


def find_theorems(coq_dir: Path = COQ_DIR) -> dict[str, tuple[str, str | None]]:
    """``{statement name: (qualified theorem, qualified example or None)}`` from the sources."""
    out: dict[str, tuple[str, str | None]] = {}
    for f in _project_files(coq_dir):
        text = _strip_comments((coq_dir / f).read_text(encoding="utf-8"))
        module = f"{LOGICAL_ROOT}.{Path(f).stem}"
        examples = set(_EXAMPLE.findall(text))
        for name in _THEOREM.findall(text):
            ex = f"{name}_example"
            out[name] = (f"{module}.{name}", f"{module}.{ex}" if ex in examples else None)
    return out


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


def _coqc_version(coqc: str) -> str:
    out = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"version\s+(\S+)", out)
    return m.group(1) if m else out.strip()


def parse_assumptions(output: str) -> list[list[str]]:
    """Split the output of consecutive ``Print Assumptions`` into one axiom list each."""
    blocks: list[list[str]] = []
    for line in output.splitlines():
        if line.startswith("Closed under the global context"):
            blocks.append([])
        elif line.startswith("Axioms:"):
            blocks.append([])
        elif line and not line[0].isspace() and blocks:
            blocks[-1].append(line.split(" : ", 1)[0].strip())
    return blocks


def build(
    work: Path, coq_dir: Path = COQ_DIR, timeout: float = 600.0, coqc: str | None = None
) -> tuple[dict[str, float], list[str]]:
    """Copy the development to ``work`` and compile it there, file by file in
    ``_CoqProject`` order (``Check.v``, the colleague's listing of assumptions, is
    skipped: ``coq_report`` prints the assumptions itself). Returns the seconds of each
    file that compiled and the errors (empty when everything compiled)."""
    coqc = coqc or shutil.which("coqc") or "coqc"
    shutil.copytree(coq_dir, work, ignore=shutil.ignore_patterns("*.vo", "*.vos", "*.vok", "*.glob", ".*"))
    start = time.perf_counter()
    files: dict[str, float] = {}
    for f in _project_files(work):
        if f == "Check.v":
            continue
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(
                [coqc, "-q", "-R", ".", LOGICAL_ROOT, f],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=max(timeout - (t0 - start), 1.0),
            )
        except subprocess.TimeoutExpired:
            return files, [f"{f}: timed out ({timeout:.0f} s for the whole build)"]
        if proc.returncode != 0:
            return files, [f"{f} does not compile: {(proc.stderr or proc.stdout).strip()[-2000:]}"]
        files[f] = time.perf_counter() - t0
    return files, []


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
    found = find_theorems(coq_dir)
    with tempfile.TemporaryDirectory(prefix="novikoff-coq-") as tmp:
        work = Path(tmp) / "coq"
        rep.files, errors = build(work, coq_dir, timeout, coqc)
        rep.errors += errors
        failed_file = errors[0] if errors else None
        compiled_ok = {f"{LOGICAL_ROOT}.{Path(f).stem}" for f in rep.files}
        axioms: dict[str, list[str]] = {}
        if failed_file is None and found:
            names = sorted(found)
            modules = sorted({found[n][0].rsplit(".", 1)[0] for n in names})
            script = "".join(f"Require {m}.\n" for m in modules)
            script += "".join(f"Print Assumptions {found[n][0]}.\n" for n in names)
            (work / "NovikoffAssumptions.v").write_text(script, encoding="utf-8")
            try:
                proc = subprocess.run(
                    [coqc, "-q", "-R", ".", LOGICAL_ROOT, "NovikoffAssumptions.v"],
                    cwd=work,
                    capture_output=True,
                    text=True,
                    timeout=max(timeout - (time.perf_counter() - start), 1.0),
                )
                blocks = parse_assumptions(proc.stdout)
                if proc.returncode != 0 or len(blocks) != len(names):
                    rep.errors.append(f"Print Assumptions failed: {(proc.stderr or proc.stdout)[-2000:]}")
                else:
                    axioms = dict(zip(names, blocks))
            except subprocess.TimeoutExpired:
                rep.errors.append("Print Assumptions timed out")
    for name, st in statements:
        entry = rep.theorems.setdefault(st.id, {"statements": {}})
        sub: dict[str, object]
        if name not in found:
            sub = {"kernel_checked": False, "status": NOT_PROVED}
        else:
            thm, ex = found[name]
            built = thm.rsplit(".", 1)[0] in compiled_ok and name in axioms
            bad = sorted(set(axioms.get(name, [])) - ALLOWED_AXIOMS)
            if not built:
                status = "failed: does not compile"
            elif bad:
                status = f"failed: assumes {', '.join(bad)}"
                rep.errors.append(f"{thm} assumes axioms outside the allow-list: {', '.join(bad)}")
            elif ex is None:
                status = "failed: no non-vacuity Example"
                rep.errors.append(f"{thm} has no Example {name}_example")
            else:
                status = "kernel-checked"
            sub = {
                "kernel_checked": status == "kernel-checked",
                "status": status,
                "theorem": thm,
                "axioms": sorted(axioms.get(name, [])),
                "example": ex,
            }
        entry["statements"][name] = sub  # type: ignore[index]
    for entry in rep.theorems.values():
        subs: dict[str, dict[str, object]] = entry["statements"]  # type: ignore[assignment]
        checked = all(s["kernel_checked"] for s in subs.values())
        entry["kernel_checked"] = checked
        if checked:
            entry["status"] = "kernel-checked"
        elif any(str(s["status"]).startswith("failed") for s in subs.values()):
            entry["status"] = "failed"
        elif any(s["kernel_checked"] for s in subs.values()):
            done = sum(bool(s["kernel_checked"]) for s in subs.values())
            entry["status"] = f"partial ({done} of {len(subs)} statements; the rest {NOT_PROVED})"
        else:
            entry["status"] = NOT_PROVED
        thms = [str(s["theorem"]) for s in subs.values() if s.get("theorem")]
        exs = [str(s["example"]) for s in subs.values() if s.get("example")]
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
