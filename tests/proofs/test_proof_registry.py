"""The proof modules mirror the spec; headline proofs point at the spec's own statement
objects; the registry refuses gaps and duplicates; wrong-variant makers refuse what they
cannot break; no import cycle or private import among the proof modules and verify."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
import sympy as sp

import novikoff.proofs
import novikoff.spec
from novikoff.proofs import registry
from novikoff.proofs.core import Apply, Certificate, Identity, Obligation, Term
from novikoff.proofs.statements import HeadlineProof
from novikoff.proofs.wrong_variants import MAKERS, drop_hypothesis, flip, scale_claim
from novikoff.spec import THEOREMS, Statement

#: Modules of novikoff.proofs that prove no spec module: the checker kernel, the bridge
#: from statements to obligations, the registry, the wrong variants, CrossHair, the check types.
INFRASTRUCTURE = {"core", "statements", "registry", "wrong_variants", "contracts", "results"}

ROOT = Path(__file__).resolve().parents[2]


def _statements_of(module: object) -> set[int]:
    """ids of the THEOREMS statements that ``module`` holds as attributes."""
    every = {id(st) for sts in THEOREMS.values() for st in sts}
    return {id(v) for v in vars(module).values() if id(v) in every}


def _spec_statement_modules() -> dict[str, set[int]]:
    out = {}
    for info in pkgutil.iter_modules(novikoff.spec.__path__):
        own = _statements_of(importlib.import_module(f"novikoff.spec.{info.name}"))
        if own:
            out[info.name] = own
    return out


def test_every_spec_module_has_exactly_its_mirrored_proof_module() -> None:
    spec_modules = _spec_statement_modules()
    assert set(registry.PROOF_MODULES) == set(spec_modules)
    for name, module in registry.PROOF_MODULES.items():
        assert importlib.import_module(f"novikoff.proofs.{name}") is module
    top_level = {info.name for info in pkgutil.iter_modules(novikoff.proofs.__path__)}
    assert top_level == set(spec_modules) | INFRASTRUCTURE, "a proof module with no spec module"
    # the spec statements partition: each statement is stated by one spec module
    assert sum(len(v) for v in spec_modules.values()) == sum(len(v) for v in THEOREMS.values())


def test_each_proof_module_proves_exactly_what_its_spec_module_states() -> None:
    for name, own in _spec_statement_modules().items():
        records = registry.PROOF_MODULES[name].headline_proofs()
        assert sorted(id(r.statement) for r in records) == sorted(own), name


def test_every_statement_has_a_headline_proof_pointing_at_that_very_object() -> None:
    records = registry.headline_proofs()
    for spec_id, statements in THEOREMS.items():
        for st in statements:
            mine = [r for r in records if r.statement is st]
            assert len(mine) == 1, (spec_id, st.name)
            assert mine[0].spec_id == spec_id and mine[0].obligation().spec_id == spec_id
    assert len(records) == sum(len(v) for v in THEOREMS.values())


def test_headline_obligations_come_from_the_records() -> None:
    records = registry.headline_proofs()
    names = [ob.name for ob in registry.all_obligations()]
    assert names[-len(records) :] == [r.obligation().name for r in records]
    assert (
        registry.headline_obligation("D1", 2).name
        == records[[r.spec_id for r in records].index("D1") + 2].obligation().name
    )


def test_spec_ids_are_the_theorems_keys() -> None:
    assert registry.SPEC_IDS == tuple(THEOREMS)


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, records: list[HeadlineProof]) -> None:
    monkeypatch.setattr(registry.PROOF_MODULES[name], "headline_proofs", lambda: records)


def test_registry_refuses_a_missing_headline(monkeypatch: pytest.MonkeyPatch) -> None:
    _patched(monkeypatch, "tightness", [])
    with pytest.raises(ValueError, match=r"T1 basis_vectors.*no headline proof"):
        registry.headline_proofs()


def test_registry_refuses_a_duplicated_headline(monkeypatch: pytest.MonkeyPatch) -> None:
    t1 = THEOREMS["T1"][0]
    _patched(monkeypatch, "tightness", [HeadlineProof(t1, Identity()), HeadlineProof(t1, Identity())])
    with pytest.raises(ValueError, match=r"T1 .*more than one headline proof"):
        registry.headline_proofs()


def test_registry_refuses_a_proof_of_a_statement_outside_the_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    t1 = THEOREMS["T1"][0]
    # an equal-looking copy is a different statement: only the object in THEOREMS counts
    copy = Statement(t1.id, t1.name, t1.symbols, t1.hypotheses, t1.conclusion, t1.source)
    _patched(monkeypatch, "tightness", [HeadlineProof(t1, Identity()), HeadlineProof(copy, Identity())])
    with pytest.raises(ValueError, match="not in THEOREMS: T1"):
        registry.headline_proofs()


x = sp.Symbol("x", real=True)


def _ob(name: str, spec_id: str, proof: object) -> Obligation:
    return Obligation(name, spec_id, {}, sp.Ge(x**2, 0, evaluate=False), proof)  # type: ignore[arg-type]


def test_obligation_ids_follow_applied_lemmas_transitively() -> None:
    a = _ob("a", "X", Certificate(squares=(x,)))
    b = _ob("b", "Y", Apply(a, {}, {}))
    c = _ob("c", "Z", Apply(b, {}, {}))
    lone = _ob("lone", "W", Certificate(squares=(x,)))
    ids = registry.obligation_ids([a, b, c, lone])
    assert ids == {
        "a": frozenset({"X", "Y", "Z"}),
        "b": frozenset({"Y", "Z"}),
        "c": frozenset({"Z"}),
        "lone": frozenset({"W"}),
    }
    with pytest.raises(ValueError, match=r"unique.*'a'"):
        registry.obligation_ids([a, a])


def test_lemma1_bears_on_the_theorems_whose_proofs_apply_it() -> None:
    from novikoff.proofs.pdm import lemma1

    ids = registry.obligation_ids(registry.all_obligations())
    # D1 (eps = 1/2) and P1 are derived through Lemma 1 (the PDM paper's Lemma 1)
    assert {"L1", "D1", "P1"} <= ids[lemma1.l1().name]
    assert all(ob.spec_id in ids[ob.name] for ob in registry.all_obligations())


def test_wrong_variant_makers_refuse_what_they_cannot_break() -> None:
    ob = _ob("o", "X", Certificate(squares=(x,)))
    with pytest.raises(ValueError, match=r"factor 1 is not in \(0, 1\)"):
        scale_claim(ob, sp.Integer(1))
    eq = Obligation("e", "X", {}, sp.Eq(x, x, evaluate=False), Identity())
    with pytest.raises(ValueError, match="e: only an inequality can be flipped"):
        flip(eq)
    with pytest.raises(KeyError, match="no hypothesis 'h'"):
        drop_hypothesis(ob, "h")
    weakened = drop_hypothesis(
        Obligation(
            "w",
            "X",
            {"h": sp.Ge(x, 1, evaluate=False)},
            sp.Ge(x, 0, evaluate=False),
            Certificate(terms=(Term((), "h"),)),
        ),
        "h",
    )
    assert weakened.name == "w [without h]" and weakened.hypotheses["h"] == sp.Ge(0, 0, evaluate=False)
    assert {sid for sid, _kind, _make in MAKERS} == set(THEOREMS)


# --------------------------------------------------------------------------- imports


def _module_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for package in ("proofs", "verify"):
        paths = sorted((ROOT / "novikoff" / package).rglob("*.py"))
        for path in paths:
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            files[name] = path
    return files


def _imports(path: Path, known: set[str]) -> list[tuple[str, str]]:
    """(module imported, name) for every import in ``path``, function-local ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, "") for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.append((sub, "") if sub in known else (node.module, a.name))
    return out


def test_no_import_cycle_and_no_private_import_among_proofs_and_verify() -> None:
    files = _module_files()
    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        for target, name in _imports(path, set(files)):
            assert not name.startswith("_") or not target.startswith("novikoff"), (module, target, name)
            if target in files and target != module:
                graph[module].add(target)
    # package __init__ -> its own submodules is how a package is built, not a cycle
    for module in graph:
        graph[module] = {t for t in graph[module] if not module.startswith(t + ".")}
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError(f"import cycle: {' -> '.join([*path[path.index(m) :], m])}")
        if m in done:
            return
        for t in sorted(graph[m]):
            visit(t, [*path, m])
        done.add(m)

    for m in sorted(graph):
        visit(m, [])
    assert "novikoff.verify" not in graph["novikoff.proofs.contracts"]
    assert "novikoff.proofs.registry" not in graph["novikoff.proofs.pdm.steps"]
