"""The API reference is complete and documents exactly each module's ``__all__``.

Every public module of novikoff (no ``_`` in its dotted path) has one ``::: module`` entry
on an API page of ``docs/reference/`` that ``mkdocs.yml`` lists; mkdocstrings renders, for
each entry, griffe's *public* members (``filters: public``: the names of ``__all__``),
with or without a docstring. So the documented names of a module are its ``__all__``
exactly when griffe sees every name of ``__all__`` bound in the module and no other public
one: checked here, statically (as the docs build sees the source), beside the run-time
check that every name of ``__all__`` exists.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import novikoff

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
ENTRY = re.compile(r"^::: ([\w.]+)\s*$", re.MULTILINE)


# Public modules allowed to have no __all__ (none: every public module defines it).
NO_ALL: frozenset[str] = frozenset()


def public_modules() -> list[str]:
    """Every importable public module of novikoff, the package itself first."""
    names = ["novikoff"]
    for info in pkgutil.walk_packages(novikoff.__path__, "novikoff."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return names


def api_pages() -> list[Path]:
    return sorted(REFERENCE.glob("api*.md"))


def entries() -> dict[str, list[str]]:
    """Each ``::: target`` of the API pages, with the pages it is on."""
    found: dict[str, list[str]] = {}
    for page in api_pages():
        for target in ENTRY.findall(page.read_text(encoding="utf-8")):
            found.setdefault(target, []).append(page.name)
    return found


class _Loader(yaml.SafeLoader):
    """mkdocs.yml may carry ``!!python/name:`` tags; they are irrelevant here."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def mkdocs_config() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _Loader)
    return loaded


def nav_files(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [f for item in node for f in nav_files(item)]
    if isinstance(node, dict):
        return [f for value in node.values() for f in nav_files(value)]
    return []


def test_every_public_module_has_an_api_entry() -> None:
    documented = set(entries())
    missing = [name for name in public_modules() if name not in documented]
    assert not missing, (
        f"{len(missing)} public modules have no '::: module' entry on a docs/reference/api-*.md "
        f"page (add each to the page of its layer): {missing}"
    )


def test_every_api_entry_is_one_public_module_on_one_page() -> None:
    modules = set(public_modules())
    found = entries()
    unknown = sorted(target for target in found if target not in modules)
    assert not unknown, f"API entries that are not public modules of novikoff: {unknown}"
    twice = {target: pages for target, pages in found.items() if len(pages) > 1}
    assert not twice, f"modules documented on more than one API page: {twice}"


def test_every_api_page_is_in_the_nav() -> None:
    listed = set(nav_files(mkdocs_config()["nav"]))
    absent = [p.name for p in api_pages() if f"reference/{p.name}" not in listed]
    assert not absent, f"API pages missing from mkdocs.yml's nav: {absent}"


def test_mkdocstrings_renders_public_names_with_or_without_docstring() -> None:
    """The configuration the rest of this file relies on: a module entry renders exactly
    griffe's public members (its ``__all__``), including those without a docstring."""
    (plugin,) = [p for p in mkdocs_config()["plugins"] if isinstance(p, dict) and "mkdocstrings" in p]
    options = plugin["mkdocstrings"]["handlers"]["python"]["options"]
    assert options["filters"] == "public"
    assert options["show_if_no_docstring"] is True
    assert options.get("members") is None


@pytest.mark.parametrize("name", public_modules())
def test_public_module_defines_all_and_its_names_exist(name: str) -> None:
    module = importlib.import_module(name)
    if name in NO_ALL:
        assert not hasattr(module, "__all__"), f"{name} defines __all__ now: drop it from NO_ALL"
        return
    assert hasattr(module, "__all__"), f"{name} defines no __all__"
    exported = list(module.__all__)
    assert len(exported) == len(set(exported)), f"{name}.__all__ lists a name twice"
    absent = [n for n in exported if not hasattr(module, n)]
    assert not absent, f"{name}.__all__ names what {name} does not define: {absent}"


@cache
def _griffe_package() -> Any:
    griffe = pytest.importorskip("griffe")
    return griffe.load("novikoff", search_paths=[str(ROOT)], resolve_aliases=False)


def _is_module(member: Any) -> bool:
    try:
        return bool(member.is_module)
    except Exception:  # an alias griffe cannot resolve statically: not a module
        return False


def _tuple_bound(module: Any) -> set[str]:
    """Names bound at top level by tuple unpacking (``a, b = ...``), which griffe skips."""
    import ast

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple | ast.List):
                    names |= {e.id for e in target.elts if isinstance(e, ast.Name)}
    return names


@pytest.mark.parametrize("name", public_modules())
def test_documented_names_are_exactly_all(name: str) -> None:
    """What mkdocstrings renders for the module (griffe's public members, submodules aside)
    is its ``__all__``. A name griffe cannot see, because it is bound by tuple unpacking or
    provided by the module's ``__getattr__`` on first use, counts as documented when the
    module's docstring names it."""
    package = _griffe_package()
    loaded = package if name == "novikoff" else package[name.removeprefix("novikoff.")]
    module = importlib.import_module(name)
    exported = set(getattr(module, "__all__", ()))
    rendered = {
        key
        for key, member in loaded.members.items()
        if key != "__all__" and member.is_public and not _is_module(member)
    }
    extra = sorted(rendered - exported)
    assert not extra, f"{name}: rendered but not in __all__: {extra}"
    unseen = exported - rendered
    doc = module.__doc__ or ""
    lazy = _tuple_bound(module) | (unseen if "__getattr__" in vars(module) else set())
    undocumented = sorted(n for n in unseen if n not in lazy or not re.search(rf"\b{re.escape(n)}\b", doc))
    assert not undocumented, (
        f"{name}: in __all__ but not rendered by the API reference (bind them one per "
        f"assignment, or, when tuple-unpacked, name them in the module docstring): {undocumented}"
    )


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """The griffe comparison sees a name of __all__ that is not bound, and a public name
    that __all__ leaves out."""
    griffe = pytest.importorskip("griffe")
    pkg = tmp_path / "probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('__all__ = ["a", "ghost"]\na = 1\n', encoding="utf-8")
    (pkg / "open.py").write_text("b = 1\n_c = 2\n", encoding="utf-8")
    loaded = griffe.load("probe", search_paths=[str(tmp_path)])
    assert {k for k, m in loaded.members.items() if m.is_public and not _is_module(m)} == {"a"}
    assert {k for k, m in loaded["open"].members.items() if m.is_public} == {"b"}


# ----------------------------------------------------------------- check_* convention

FAILURE_WORDS = re.compile(r"raise|Error|Violation|Rejected")


def _public_check_functions() -> dict[str, Any]:
    """Every public ``check_*`` function and method, by its defining module's dotted name."""
    import inspect

    found: dict[str, Any] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for exported in getattr(module, "__all__", ()):
            obj = getattr(module, exported)
            members = [(exported, obj)] if inspect.isfunction(obj) else []
            if inspect.isclass(obj):
                members = [(f"{exported}.{k}", v) for k, v in vars(obj).items() if inspect.isfunction(v)]
            for label, fn in members:
                if label.rsplit(".", 1)[-1].startswith("check_") and fn.__name__.startswith("check_"):
                    found[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return found


def _conforms(fn: Any) -> str | None:
    """None when ``fn`` follows the convention, else why not: a ``check_*`` either raises on
    failure (returning None, the value it validated or what it established, and saying so),
    or returns a result object whose ``ok`` says whether the thing held; never a bare bool
    or list of failures."""
    import inspect
    from typing import get_origin

    try:
        returned = inspect.signature(fn, eval_str=True).return_annotation
    except NameError:  # an annotation only importable under TYPE_CHECKING
        returned = inspect.signature(fn).return_annotation
    if returned in (None, type(None), "None"):
        return None
    if isinstance(returned, type) and (
        "ok" in getattr(returned, "__dataclass_fields__", {}) or hasattr(returned, "ok")
    ):
        return None
    if (
        returned is bool
        or get_origin(returned) is list
        or returned in ("bool",)
        or str(returned).startswith("list")
    ):
        return f"returns {returned}: failures must raise, or come in a result object with ok"
    if not FAILURE_WORDS.search(inspect.getdoc(fn) or ""):
        return f"returns {returned} and its docstring does not say what it raises on failure"
    return None


def test_every_check_function_raises_or_returns_a_result_with_ok() -> None:
    found = _public_check_functions()
    assert len(found) > 10  # the scan sees them (the certificate checker alone has six)
    bad = {name: why for name, fn in found.items() if (why := _conforms(fn)) is not None}
    assert not bad, f"check_* functions outside the convention (docs/reference/api.md): {bad}"


def test_the_convention_rejects_a_bool_a_list_and_a_silent_value() -> None:
    def check_bool() -> bool:
        """Whether it holds."""
        return True

    def check_list() -> list[str]:
        """The errors."""
        return []

    def check_value(x: int) -> int:
        """x, validated."""
        return x

    def check_raising(x: int) -> int:
        """x; InputError unless it is positive."""
        return x

    assert _conforms(check_bool) and _conforms(check_list) and _conforms(check_value)
    assert _conforms(check_raising) is None


def test_a_module_that_exports_nothing_renders_no_members() -> None:
    """With an empty ``__all__`` griffe falls back to every non-underscore name (and shows
    ``__all__`` itself): such an entry says ``members: false``."""
    text = "\n".join(page.read_text(encoding="utf-8") for page in api_pages())
    empty = [n for n in public_modules() if getattr(importlib.import_module(n), "__all__", None) == []]
    assert empty, "the packages that re-export nothing are found"
    bare = [n for n in empty if f"::: {n}\n    options:\n      members: false\n" not in text]
    assert not bare, f"entries of modules with an empty __all__ without 'members: false': {bare}"
