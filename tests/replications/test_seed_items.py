"""The seed item table: everything it names exists, its statuses are explained, and the
docs show exactly this table."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from novikoff.replications.items import DOCUMENTS, ITEMS, STATUSES, SeedItem, counts, format_items

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "replications.md"
START, END = "<!-- seed-items:start -->", "<!-- seed-items:end -->"


def _exists(ref: str) -> bool:
    if ":" in ref:
        module, attr = ref.split(":", 1)
        return hasattr(importlib.import_module(module), attr)
    return (ROOT / ref).exists()


@pytest.mark.parametrize("item", ITEMS, ids=lambda it: f"{it.document}: {it.item}")
def test_every_item_names_what_exists_and_explains_what_is_not_replicated(item: SeedItem) -> None:
    assert item.document in DOCUMENTS and item.status in STATUSES
    missing = [w for w in item.where if not _exists(w)]
    assert missing == []
    if item.status != "replicated":
        assert item.why, "a partial, refuted or missing item says why"
    if item.status != "missing":
        assert item.where, "what is (partly) replicated is somewhere"


def test_a_wrong_reference_is_noticed() -> None:
    assert not _exists("novikoff.spec.pdm:NO_SUCH_STATEMENT")
    assert not _exists("docs/no-such-page.md")


def test_items_are_unique_and_every_document_has_some() -> None:
    keys = [(it.document, it.item) for it in ITEMS]
    assert len(keys) == len(set(keys))
    assert all(sum(counts()[d].values()) > 0 for d in DOCUMENTS)


def test_the_docs_table_is_the_generated_one() -> None:
    page = DOC.read_text(encoding="utf-8")
    section = page.split(START, 1)[1].split(END, 1)[0]
    assert section == "\n" + format_items(), "run: python -m novikoff.replications.items --write"


def test_the_counts_line_adds_up() -> None:
    first = format_items().splitlines()[0]
    c = counts()["all"]
    assert sum(c.values()) == len(ITEMS)
    assert first.startswith(f"{len(ITEMS)} items: ")
    for status in STATUSES:
        assert f"{c[status]} {status}" in first
