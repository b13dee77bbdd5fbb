"""MkDocs hook: the parts of the documentation that are generated, never typed.

A page asks for generated content with a marker comment on a line of its own:

- ``<!-- gen:theorems -->``: the theorem table, from :data:`novikoff.spec.THEOREMS`
  (id, statement name, conclusion, hypotheses, source), one row per ``Statement``;
- ``<!-- gen:check-counts -->``: what ``novikoff verify`` runs, counted at build time from
  :func:`novikoff.verify.collect_checks` (per group, per spec id, with and without the options);
- ``<!-- gen:cli -->``: the usage of every ``novikoff`` subcommand, from
  :func:`novikoff.cli.build_parser`;
- ``<!-- gen:seed-tables -->``: the textbook's tables, recomputed by :mod:`novikoff.replications.tables`;
- ``<!-- gen:changelog -->``: the repository's ``CHANGELOG.md``;
- ``<!-- gen:layout -->``: the package's folders in their import-linter layers (from
  ``pyproject.toml``), each with the first sentence of its docstring and its modules;
- ``<!-- gen:coq-files -->``: the Coq development's files in ``_CoqProject`` order, each with
  the first sentence of its header comment.

``mkdocs.yml`` lists this file under ``hooks:``, so MkDocs calls :func:`on_page_markdown` on
every page before rendering it. The generators are plain functions that import nothing from
MkDocs, so ``tests/test_docs.py`` can call them (and :func:`expand`) without MkDocs installed.
"""

from __future__ import annotations

import argparse
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- gen:([a-z-]+) -->$", re.MULTILINE)


def _cell(text: object) -> str:
    """``text`` as one Markdown table cell: pipes escaped, whitespace collapsed."""
    return " ".join(str(text).split()).replace("|", "\\|")


def theorem_table() -> str:
    """One row per spec ``Statement`` of :data:`novikoff.spec.THEOREMS`, in registry order."""
    from novikoff.spec import THEOREMS

    lines = [
        "| id | statement | conclusion | hypotheses | source |",
        "|---|---|---|---|---|",
    ]
    for spec_id, statements in THEOREMS.items():
        for st in statements:
            names = list(st.hypothesis_names) or [""] * len(st.hypotheses)
            hyps = "; ".join(
                f"{name}: `{_cell(h)}`" if name else f"`{_cell(h)}`" for name, h in zip(names, st.hypotheses)
            )
            lines.append(
                f"| {spec_id} | `{st.name}` | `{_cell(st.conclusion)}` | {hyps or '-'} | {_cell(st.source)} |"
            )
    return "\n".join(lines)


def _check_ids(check: Any) -> Iterable[str]:
    """The spec ids a verify check bears on: its ``ids`` when it carries them, else its ``spec_id``."""
    ids = getattr(check, "ids", None)
    return sorted(ids) if ids else [check.spec_id]


def check_counts() -> str:
    """What ``novikoff verify`` runs, counted from :func:`novikoff.verify.collect_checks` now."""
    from novikoff.spec import THEOREMS
    from novikoff.verify import collect_checks

    default = collect_checks()
    every = collect_checks(full=True, crosshair=True, coq=True)
    by_group = Counter(c.group for c in default)
    extra = Counter(c.group for c in every) - by_group
    per_id = Counter(i for c in default for i in _check_ids(c))
    lines = [
        f"`novikoff verify` runs **{len(default)} checks** by default "
        f"(`--crosshair` adds {extra['crosshair']}, `--coq` adds {extra['coq']}; "
        f"{len(every)} with every option).",
        "",
        "| group | checks |",
        "|---|---|",
        *(f"| {group} | {n} |" for group, n in sorted(by_group.items())),
        *(f"| {group} (option) | {n} |" for group, n in sorted(extra.items()) if n),
        "",
        "Checks that bear on each theorem (what `novikoff verify --only ID` runs):",
        "",
        "| id | checks |",
        "|---|---|",
        *(f"| {spec_id} | {per_id[spec_id]} |" for spec_id in THEOREMS),
    ]
    return "\n".join(lines)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-parsers of ``parser`` by name (argparse has no public accessor for them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_usage(width: int = 90) -> str:
    """``novikoff --help`` and every subcommand's ``--help``, at a fixed width."""
    from novikoff.cli import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        parser = build_parser()
        parts = ["## `novikoff`", "", "```text", parser.format_help().rstrip(), "```"]
        for name, sub in subcommands(parser).items():
            parts += ["", f"## `novikoff {name}`", "", "```text", sub.format_help().rstrip(), "```"]
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(parts)


def seed_tables() -> str:
    """The textbook's tables recomputed exactly (what ``novikoff textbook-tables`` prints)."""
    from novikoff.replications.tables import format_tables
    from novikoff.replications.tables import seed_tables as compute

    return format_tables(compute()).strip()


def changelog() -> str:
    """``CHANGELOG.md`` without its first heading (the page has its own)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.sub(r"\A# [^\n]*\n", "", text).strip()


def _summary(path: Path) -> str:
    """The first sentence of the docstring of the module at ``path`` (its first paragraph
    when no sentence ends there)."""
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    para = " ".join(doc.split("\n\n", 1)[0].split())
    end = re.search(r"[.](\s|$)", para)
    para = para[: end.start() + 1] if end else para
    # Sphinx roles and double backticks read as Markdown code
    return re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", para).replace("``", "`")


def layers() -> list[list[str]]:
    """The import-linter layers of ``pyproject.toml``, top first: each a list of modules."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers":
            return [[m.strip() for m in layer.split(":")] for layer in contract["layers"]]
    raise KeyError("pyproject.toml declares no import-linter layers contract")


def layout_table() -> str:
    """One row per package or top-level module of ``novikoff``, in layer order (top first):
    the layer's number, the path, what its docstring says it is, and its modules."""
    lines = ["| layer | path | what | modules |", "|---|---|---|---|"]
    for number, layer in enumerate(layers(), start=1):
        for name in layer:
            rel = Path(*name.split("."))
            package = ROOT / rel
            if package.is_dir():
                modules = sorted(
                    p.relative_to(package).with_suffix("").as_posix()
                    for p in package.rglob("*.py")
                    if p.name != "__init__.py" and "__pycache__" not in p.parts
                )
                where, path = f"`{rel.as_posix()}/`", package / "__init__.py"
            else:
                modules, where, path = [], f"`{rel.as_posix()}.py`", ROOT / rel.with_suffix(".py")
            listed = ", ".join(f"`{m}`" for m in modules) or "-"
            lines.append(f"| {number} | {where} | {_cell(_summary(path))} | {listed} |")
    return "\n".join(lines)


def coq_files_table() -> str:
    """One row per file of ``novikoff/coq/theories/_CoqProject`` (then of the extraction's),
    in build order: its name and the first sentence of its header comment ``(** ... *)``."""
    lines = ["| project | file | what it holds |", "|---|---|---|"]
    for project in ("theories", "extraction"):
        folder = ROOT / "novikoff" / "coq" / project
        for name in (folder / "_CoqProject").read_text(encoding="utf-8").split():
            if not name.endswith(".v"):
                continue
            text = (folder / name).read_text(encoding="utf-8")
            head = re.match(r"\s*\(\*\*\s*(?:\*\s*)?(.*?)\*\)", text, flags=re.DOTALL)
            para = " ".join((head.group(1) if head else "").split("\n\n", 1)[0].split())
            end = re.search(r"[.](\s|$)", para)
            summary = para[: end.start() + 1] if end else para
            if len(summary) > 160 and ";" in summary:  # a first sentence that runs on: its first clause
                summary = summary.split(";", 1)[0] + "."
            lines.append(f"| {project} | `{name}` | {_cell(summary) or '-'} |")
    return "\n".join(lines)


GENERATORS: dict[str, Callable[[], str]] = {
    "theorems": theorem_table,
    "check-counts": check_counts,
    "cli": cli_usage,
    "seed-tables": seed_tables,
    "changelog": changelog,
    "layout": layout_table,
    "coq-files": coq_files_table,
}


def expand(markdown: str) -> str:
    """``markdown`` with every ``<!-- gen:NAME -->`` line replaced by its generated text.

    An unknown NAME raises ``KeyError`` naming it, so a typo fails the build."""
    cache: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise KeyError(f"unknown generated block <!-- gen:{name} -->; known: {', '.join(GENERATORS)}")
        if name not in cache:
            cache[name] = GENERATORS[name]()
        return cache[name]

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs event: expand the generated blocks of one page."""
    return expand(markdown)
