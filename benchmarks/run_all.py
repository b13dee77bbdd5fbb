"""Run the speed benchmarks and print one table of ratios: ``python benchmarks/run_all.py [--quick]``.

Each ratio is measured side by side in this one run (see each module's
docstring for its anchor). ``--quick`` drops the largest sizes and Sonar.
The dataset-study benchmarks (bench_pdm_paper, bench_msvmav_table1,
bench_sparse_scaling, bench_pdm_twin_reference) are run on their own.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_certificate_svc
import bench_certify
import bench_scaling
import bench_sonar
import bench_twin_sklearn


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    quick = "--quick" in sys.argv
    import numpy as np

    python = platform.python_version()
    print(f"machine: {_cpu()}, {os.cpu_count()} cores, Python {python}, numpy {np.__version__}")
    print("| measurement | time | ratio against its anchor |")
    print("|---|---|---|", flush=True)
    start = time.perf_counter()
    for module in (bench_certify, bench_twin_sklearn, bench_certificate_svc, bench_sonar, bench_scaling):
        for row in module.main(quick):
            print("| " + " | ".join(row) + " |", flush=True)
    print(
        f"\n(all benchmarks: {time.perf_counter() - start:.0f} s; scaling plot: benchmarks/out/scaling.png)"
    )


if __name__ == "__main__":
    main()
