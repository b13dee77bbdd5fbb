"""The code cites its sources by name (the textbook, the notes, the PDM paper, the IJCAI paper,
Freund and Schapire, ...), never by the project's history: no "seed 0NN" (the source files'
numbers), no "DESIGN section N", no "issue NN", and the old example and command names
(``seed-6.6``, ``seed-tables``) only where they are kept as deprecated aliases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "novikoff"

#: (what it is, the pattern). DESIGN is matched in capitals only ("by design" is English).
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a source file's number", re.compile(r"\bseeds?\s+0\d\d\b", re.IGNORECASE)),
    ("a DESIGN section", re.compile(r"\bDESIGN\b")),
    ("an issue number", re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)),
    ("an old example or command name", re.compile(r"\bseed-(?:\d+\.\d+|tables)\b")),
)

#: A line naming an old name as the deprecated alias it is.
DEPRECATION = re.compile(r"deprecat", re.IGNORECASE)

#: Modules other helpers are editing this session (a module or the package it became); they
#: still carry history references and are cleaned by their owners. The coordinator removes
#: each entry once its files are clean.
ALLOWED: frozenset[str] = frozenset()
#: Name prefixes of modules not yet cleaned (none left).
ALLOWED_PREFIXES: tuple[str, ...] = ()


def history_references(text: str) -> list[tuple[int, str, str]]:
    """``(line number, what, the line)`` for every history reference in ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PATTERNS:
            if pattern.search(line) and not (what.startswith("an old") and DEPRECATION.search(line)):
                found.append((number, what, line.strip()))
    return found


def _allowed(rel: str) -> bool:
    """Whether ``rel`` (a path below the repository) is a module or in a package of :data:`ALLOWED`,
    or starts with one of :data:`ALLOWED_PREFIXES`."""
    stem = rel.removesuffix(".py")
    return any(stem == a or rel.startswith(a + "/") for a in ALLOWED) or rel.startswith(ALLOWED_PREFIXES)


@pytest.mark.parametrize(
    "line",
    [
        'source="seed 000 section 6.4 step 1"',
        "the notes (Seed 001) state",
        "see DESIGN section 2b",
        "(DESIGN 2b: ties predict -1)",
        '"""Issue 13: process hygiene."""',
        "the fast paths (issue 18 item 6)",
        "$ novikoff run example:seed-6.6:3",
        "novikoff seed-tables --json",
    ],
)
def test_the_patterns_find_history(line: str) -> None:
    assert history_references(line), line


@pytest.mark.parametrize(
    "line",
    [
        "rng = np.random.RandomState(seed)  # seed 0 by default",
        "orders: natural or shuffle:SEED",
        "implementations that differ by design",
        "the design (docs/design.md) says",
        "DEPRECATED_NAMES = {'seed-6.6': 'textbook-6.6'}",
        "``novikoff seed-tables`` is its deprecated name",
        "the textbook, section 6.6; the PDM paper, Lemma 1",
    ],
)
def test_the_patterns_leave_other_text_alone(line: str) -> None:
    assert history_references(line) == [], line


def test_the_package_cites_sources_not_history() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if _allowed(rel):
            continue
        for number, what, line in history_references(path.read_text(encoding="utf-8")):
            bad.append(f"{rel}:{number}: {what}: {line[:120]}")
    assert not bad, "cite the sources by name (the textbook, the PDM paper, ...):\n" + "\n".join(bad)


def test_the_allow_list_names_files_that_exist() -> None:
    files = [p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py")]
    missing = sorted(
        a
        for a in ALLOWED
        if not any(_allowed(f) and (f.removesuffix(".py") == a or f.startswith(a + "/")) for f in files)
    )
    missing += [p for p in ALLOWED_PREFIXES if not any(f.startswith(p) for f in files)]
    assert not missing, f"allow-list entries for files that do not exist: {missing}"
