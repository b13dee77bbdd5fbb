"""Shared helpers for the ratio benchmarks (not tests: they print, they do not assert timings)."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NOVIKOFF_SHARED", REPO.parent / "shared"))
COQ = SHARED / "benchmarks" / "coq-perceptron"


def timed(fn: Callable[[], T], repeat: int = 3) -> tuple[float, T]:
    """Median wall time of ``repeat`` calls and the last result."""
    times = []
    result: T
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def write_between(doc: Path, start: str, end: str, text: str) -> None:
    """Put ``text`` between the markers ``start`` and ``end`` of the page ``doc`` (the markers
    and everything outside them kept: ``start``, a newline, ``text``, then ``end``); stop with
    a message naming the page when a marker is missing."""
    page = doc.read_text(encoding="utf-8")
    if start not in page or end not in page:
        raise SystemExit(f"{doc}: the markers {start} and {end} are missing")
    head, rest = page.split(start, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(head + start + "\n" + text + end + tail, encoding="utf-8")
