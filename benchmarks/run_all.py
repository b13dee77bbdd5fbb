"""Run every benchmark and print one table of ratios (``python benchmarks/run_all.py``)."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_certify
import bench_twin_sklearn


def main() -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("| measurement | time | ratio against its anchor |")
    print("|---|---|---|")
    for module in (bench_certify, bench_twin_sklearn):
        for row in module.main():
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
