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
