"""Where the Coq development declares what: its files in ``_CoqProject`` order, the modules that
declare each name, and the candidates for each statement's theorem, run theorem and bridge.

Only where to look: whether a declaration proves anything is Coq's decision (the audit in
:mod:`novikoff.coq.audit`).
"""

from __future__ import annotations

from pathlib import Path

from novikoff.coq.conventions import DECLARATION, LOGICAL_ROOT, RUN_STATEMENTS, STATEMENTS
from novikoff.coq.printer import COQ_DIR, all_statements

__all__ = [
    "declarations",
    "find_candidates",
    "find_runs",
    "find_theorems",
    "module_name",
    "project_files",
    "statements_diff",
    "strip_comments",
]


def strip_comments(text: str) -> str:
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


def project_files(coq_dir: Path) -> list[str]:
    lines = (coq_dir / "_CoqProject").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip().endswith(".v")]


def module_name(f: str) -> str:
    return f"{LOGICAL_ROOT}.{Path(f).stem}"


def declarations(coq_dir: Path) -> dict[str, list[str]]:
    """``{name: [files declaring it]}`` over ``_CoqProject``, in its order (``Statements.v``
    excluded: the build replaces it by the spec's print)."""
    out: dict[str, list[str]] = {}
    for f in project_files(coq_dir):
        if f == STATEMENTS:
            continue
        text = strip_comments((coq_dir / f).read_text(encoding="utf-8"))
        for name in dict.fromkeys(DECLARATION.findall(text)):
            out.setdefault(name, []).append(f)
    return out


def find_candidates(coq_dir: Path = COQ_DIR) -> dict[str, list[tuple[str, str | None]]]:
    """``{statement name: [(qualified theorem, qualified example or None), ...]}``: for each
    spec statement ``<NAME>``, every declaration named ``<NAME>`` in the development (the
    file latest in ``_CoqProject`` first: a spec-level theorem applies the lemmas of the
    files before it), with ``<NAME>_example`` when the same file declares it. Only where to
    look: the audit decides which, if any, proves the statement."""
    decls = declarations(coq_dir)
    out: dict[str, list[tuple[str, str | None]]] = {}
    for name, _st in all_statements():
        for f in reversed(decls.get(name, [])):
            ex = f"{module_name(f)}.{name}_example" if f in decls.get(f"{name}_example", []) else None
            out.setdefault(name, []).append((f"{module_name(f)}.{name}", ex))
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
    decls = declarations(coq_dir)
    rs_file = f"{RUN_STATEMENTS}.v"
    out: dict[str, tuple[str, str | None, str | None]] = {}
    for name, _st in all_statements():
        if rs_file not in decls.get(f"{name}_run_statement", []):
            continue

        def last(decl: str) -> str | None:
            files = decls.get(decl, [])
            return f"{module_name(files[-1])}.{decl}" if files else None

        out[name] = (
            f"{module_name(rs_file)}.{name}_run_statement",
            last(f"{name}_run"),
            last(f"{name}_bridge"),
        )
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
