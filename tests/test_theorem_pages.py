"""The theorem pages (``docs/theorems/``) are what ``docs/gen_theorems.py`` generates from the
code now, every spec id has one, and the reference links each."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from novikoff.spec import THEOREMS

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "theorems"
SECTIONS = (
    "## The statement",
    "## The Python proof",
    "## Coq",
    "## Runtime checks",
    "## Wrong variants",
    "## Tests",
)


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_theorems", ROOT / "docs" / "gen_theorems.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generated(gen: ModuleType) -> dict[str, str]:
    return dict(gen.generate())


def test_committed_pages_are_the_generated_ones(generated: dict[str, str]) -> None:
    committed = {p.name: p.read_text(encoding="utf-8") for p in PAGES.glob("*.md")}
    stale = sorted(n for n in generated.keys() | committed.keys() if generated.get(n) != committed.get(n))
    assert not stale, (
        f"stale theorem pages {stale}: run python docs/gen_theorems.py and commit docs/theorems/"
    )


def test_every_id_has_a_page_with_every_section(generated: dict[str, str]) -> None:
    assert set(generated) == {"index.md", *(f"{i}.md" for i in THEOREMS)}
    for spec_id in THEOREMS:
        page = generated[f"{spec_id}.md"]
        assert page.splitlines()[2] == f"# {spec_id}"
        for heading in SECTIONS:
            assert heading in page, (spec_id, heading)
        for st in THEOREMS[spec_id]:
            assert f"`{st.name}`" in page and st.source in page, (spec_id, st.name)


def test_the_index_and_the_reference_link_every_page(generated: dict[str, str]) -> None:
    reference = (ROOT / "docs" / "reference" / "theorems.md").read_text(encoding="utf-8")
    for spec_id in THEOREMS:
        assert f"]({spec_id}.md)" in generated["index.md"], spec_id
        assert f"](../theorems/{spec_id}.md)" in reference, spec_id


def test_a_page_lists_the_three_kinds_of_wrong_variants(generated: dict[str, str]) -> None:
    # D2 has one of each: two Python variants, the generated Coq one, the hand-written file
    page = generated["D2.md"]
    assert "[without no_update]" in page and "D2 [conclusion 1 % off]" in page
    assert "novikoff/coq/theories/wrong/D2_scalar_wrong.v" in page
    assert "counterexamples/D2_scalar_wrong_is_false.v" in page


def test_test_finder_matches_whole_words_in_the_source_and_decorators(
    gen: ModuleType, tmp_path: Path
) -> None:
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "sub" / "test_a.py").write_text(
        "import pytest\n\n"
        '@pytest.mark.parametrize("sid", ["N1"])\n'
        "def test_by_decorator(sid):\n    pass\n\n"
        "def test_by_body():\n    assert 'N1' != 'x'\n\n"
        "def test_n10_is_another_id():\n    assert 'N10' and 'XN1' and 'N1_ABOVE'\n\n"
        "def helper_names_N1():\n    pass\n\n"
        "class TestGroup:\n    def test_method(self):\n        return 'N1'\n",
        encoding="utf-8",
    )
    (tests / "sub" / "not_a_test.py").write_text("def test_x():\n    return 'N1'\n", encoding="utf-8")
    found = gen.tests_naming(["N1"], tests)
    assert found == {"tests/sub/test_a.py": ["test_by_decorator", "test_by_body", "TestGroup::test_method"]}


def test_the_outline_names_every_step_and_the_lemmas(gen: ModuleType) -> None:
    from novikoff.proofs.registry import headline_obligation

    ob = headline_obligation("N3")
    lines = gen.outline(ob.proof)
    assert lines and all(re.match(r"^ *- ", line) for line in lines)
    assert gen.lemmas(headline_obligation("P1")), "P1 applies Lemma 1 (L1)"


def test_the_algorithms_are_the_registry_s(gen: ModuleType, generated: dict[str, str]) -> None:
    from novikoff.runtime.algorithms import ALGORITHMS

    for spec_id in THEOREMS:
        expected = [name for name, entry in ALGORITHMS.items() if spec_id in entry.theorems]
        assert [name for name, _page in gen.algorithms_of(spec_id)] == expected
        for name in expected:
            assert f"[`{name}`](../{ALGORITHMS[name].docs})" in generated[f"{spec_id}.md"], (spec_id, name)
    assert [n for n, _ in gen.algorithms_of("D2")] == ["pdm", "pdm-succ"]  # both run PDM's stages


def test_the_navigation_lists_every_theorem_page_once() -> None:
    """mkdocs.yml's nav has an entry ``<ID>: theorems/<ID>.md`` for each spec id, once, and
    none for an id the spec does not have (a page outside the nav is only an INFO line)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = re.findall(r"^\s*- (\w+): theorems/(\w+)\.md$", nav, flags=re.MULTILINE)
    assert all(label == page for label, page in listed)
    assert sorted(page for _, page in listed) == sorted(THEOREMS)
