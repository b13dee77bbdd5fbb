"""The suite's ``slow`` marks name files that exist, and select what they say."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SLOW_FILES

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("entry", SLOW_FILES)
def test_every_slow_entry_names_a_test_file_or_folder(entry: str) -> None:
    path = TESTS / entry
    if entry.endswith("/"):
        assert path.is_dir() and any(path.glob("test_*.py")), f"{entry}: no such test folder"
    else:
        assert path.is_file() and path.name.startswith("test_"), f"{entry}: no such test file"


def test_the_marker_is_registered_and_this_file_is_not_slow(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("slow") is None
    markers = request.config.getini("markers")
    assert any(m.startswith("slow:") for m in markers)
