"""Sonar (rocks_and_mines.csv, 208 x 60, decimals read exactly) to convergence with bias 1.

The data are separable with a tiny margin: the perceptron makes millions of
updates. Measured: the exact fast path (exact decimals scaled to integers,
float64-exact BLAS) and the float twin on the same file, same process.
"""

from __future__ import annotations

import sys

from _common import COQ, timed


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    from novikoff.readers import load_dataset
    from novikoff.twins import perceptron_twin
    from novikoff.twins.exact import exact_perceptron

    if quick:
        return [("Sonar exact to convergence", "skipped (--quick)", "-")]
    ds = load_dataset(str(COQ / "rocks_and_mines.csv"))
    t_exact, run = timed(lambda: exact_perceptron(ds, max_epochs=10**7), repeat=1)
    t_twin, twin = timed(lambda: perceptron_twin(ds, max_epochs=10**7), repeat=1)
    assert run.converged
    same = twin.updates == run.updates
    return [
        (
            f"Sonar exact to convergence: {run.mistakes:,} updates, {run.epochs:,} epochs "
            f"({'/'.join(run.arithmetic)})",
            f"{t_exact:.1f} s",
            f"{t_exact / run.mistakes * 1e6:.1f} us per update; float twin {t_twin:.1f} s "
            f"({'same updates' if same else 'different updates: float rounding'})",
        )
    ]


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
