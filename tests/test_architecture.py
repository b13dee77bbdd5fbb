"""The package's shape: no import cycle between any two modules, no private name imported
across modules, and the import-linter contracts of pyproject.toml (layers, the trusted
checker's isolation, twins apart from the reference) kept.

Function-local imports count: a cycle hidden inside a function is still a cycle.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "novikoff"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if node.level == 0:
        return node.module
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _import_graph() -> dict[str, set[str]]:
    """importer -> the novikoff modules it imports anywhere in its body (function-local too).
    ``from pkg import name`` counts as importing ``pkg.name`` when that is a module, else ``pkg``."""
    sources = _sources()
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, path in sources.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _resolve(name, is_package, node)
                if module is None:
                    continue
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.append(sub if sub in sources else module)
            for target in targets:
                if target in sources and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _is_package_init_edge(a: str, b: str) -> bool:
    """A package's ``__init__`` importing its own submodule, which imports a sibling through
    the package, is how Python packages re-export; only cycles among distinct modules count."""
    return b.startswith(a + ".") or a.startswith(b + ".")


def test_cycle_finder_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    graph = _import_graph()
    # a package re-exporting its submodules is not a cycle between modules
    pruned = {m: {t for t in ts if not _is_package_init_edge(m, t)} for m, ts in graph.items()}
    assert len(graph) > 50  # the scan saw the package
    assert _cycles(pruned) == []


def _private_imports() -> list[str]:
    offences = []
    sources = _sources()
    for name, path in sources.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = _resolve(name, path.name == "__init__.py", node)
            if not module or not module.startswith("novikoff"):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    offences.append(f"{name}:{node.lineno} imports {module}.{alias.name}")
    return offences


def test_no_private_names_imported_across_modules() -> None:
    assert _private_imports() == []


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed (dev extra)")
def test_import_linter_contracts_kept() -> None:
    exe = shutil.which("lint-imports")
    assert exe is not None
    proc = subprocess.run(
        [exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "broken" in proc.stdout and ", 0 broken" in proc.stdout


def test_cli_is_importable_as_a_module() -> None:
    """``python -m novikoff.cli`` runs the same entry point as the console script."""
    proc = subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and proc.stdout.startswith("novikoff ")


def test_building_the_parser_loads_neither_sympy_nor_the_solvers() -> None:
    """``novikoff --help`` and every usage error cost only the parser: the heavy modules load
    when a command runs."""
    code = (
        "import sys; from novikoff.cli import build_parser; build_parser(); "
        "heavy = ['sympy', 'scipy', 'hypothesis', 'novikoff.spec', 'novikoff.fuzz.registry'];"
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert proc.stdout.strip() == ""


def test_every_package_and_top_level_module_is_in_a_layer() -> None:
    """The layers contract covers the whole package: every subpackage and every top-level
    module of novikoff (but the package's own ``__init__``) is named in exactly one layer."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs"))
    named = [m for layer in hooks.layers() for m in layer]
    assert len(named) == len(set(named)), "a module is named in two layers"
    package = ROOT / "novikoff"
    present = {
        f"novikoff.{p.stem if p.is_file() else p.name}"
        for p in package.iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.name != "__init__.py")
    }
    assert present - set(named) == set(), "packages or modules in no layer"
    assert set(named) - present == set(), "layers naming what does not exist"
    table = hooks.layout_table()
    for name in named:
        assert f"`{name.replace('.', '/')}" in table
