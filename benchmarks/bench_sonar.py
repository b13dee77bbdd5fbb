"""Sonar (rocks_and_mines.csv, 208 x 60, decimals read exactly) to convergence with bias 1.

The data are separable with a tiny margin: the perceptron makes millions of
updates. Measured: the exact fast path (exact decimals scaled to integers,
float64-exact BLAS) and the float twin on the same file, same process.

Timing: warm (both run once on exercise 6.1 first, so imports and any compilation are
outside the timed region), ``REPEAT`` runs each, the minimum and median CPU seconds of the
process (time.process_time) with the median wall seconds beside them; the repeats must
make the same updates.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _common import COQ

REPEAT = 3


def cpu_timed(fn: Callable[[], Any], repeat: int = REPEAT) -> tuple[float, float, float, list[Any]]:
    """(min CPU s, median CPU s, median wall s, results) of ``repeat`` calls."""
    cpu, wall, out = [], [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        out.append(fn())
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), statistics.median(cpu), statistics.median(wall), out


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    from novikoff.data.readers import load_dataset
    from novikoff.twins import perceptron_twin
    from novikoff.twins.exact import exact_perceptron

    if quick:
        return [("Sonar exact to convergence", "skipped (--quick)", "-")]
    from novikoff.data.examples import exercise_6_1

    small = exercise_6_1()
    exact_perceptron(small)  # warm-up: imports and set-up outside the timed region
    perceptron_twin(small)
    ds = load_dataset(str(COQ / "rocks_and_mines.csv"))
    e_min, e_med, e_wall, runs = cpu_timed(lambda: exact_perceptron(ds, max_epochs=10**7))
    t_min, t_med, t_wall, twins = cpu_timed(lambda: perceptron_twin(ds, max_epochs=10**7))
    run, twin = runs[0], twins[0]
    assert run.converged and all(r.updates == run.updates for r in runs)
    assert all(t.updates == twin.updates for t in twins)
    same = twin.updates == run.updates
    return [
        (
            f"Sonar exact to convergence: {run.mistakes:,} updates, {run.epochs:,} epochs "
            f"({'/'.join(run.arithmetic)})",
            f"{e_min:.2f} / {e_med:.2f} CPU s ({e_wall:.2f} s wall), min / median of {REPEAT}, warm",
            f"{e_med / run.mistakes * 1e6:.2f} us per update; float twin {t_min:.2f} / {t_med:.2f} CPU s "
            f"({t_wall:.2f} s wall) ({'same updates' if same else 'different updates: float rounding'})",
        )
    ]


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
