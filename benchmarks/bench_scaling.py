"""Time against m (10^3 .. 10^6 samples) and d (10 .. 10^4 features): float twin and exact path.

Data: integer features in [-8, 8] with the label planted on the first feature
(x_0 = 2 y), so the data are separable with margin 2 and the number of updates
is bounded by R^2/gamma^2, which grows with d (R^2 does) but not with m. Both
solvers run on the same arrays in the same process with their default engines;
the exact path converts the floats exactly and stays in its float64-exact tier.
Writes ``out/scaling.png`` (log-log) and fits the slopes of log time against
log m and log d.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from _common import timed

OUT = Path(__file__).resolve().parent / "out"


def planted(m: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=m)
    X = rng.integers(-8, 9, size=(m, d)).astype(np.float64)
    X[:, 0] = 2 * y  # margin 2 against noise up to 8: tens to hundreds of epochs
    return X, y


def measure(m: int, d: int) -> tuple[float, float, int, int]:
    from novikoff.twins import perceptron_twin
    from novikoff.twins.exact import exact_perceptron

    X, y = planted(m, d)
    repeat = 3 if m * d <= 10**6 else 1
    t_twin, twin = timed(lambda: perceptron_twin(X, y, max_epochs=1000), repeat=repeat)
    t_exact, exact = timed(lambda: exact_perceptron(X, y, max_epochs=1000), repeat=repeat)
    assert twin.converged and exact.updates == twin.updates
    return t_twin, t_exact, twin.mistakes, twin.epochs


def slope(xs: list[int], ts: list[float]) -> float:
    return float(np.polyfit(np.log10(xs), np.log10(ts), 1)[0])


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    ms = [1_000, 10_000, 100_000] + ([] if quick else [1_000_000])
    ds = [10, 100, 1_000] + ([] if quick else [10_000])
    by_m = [measure(m, 20) for m in ms]
    by_d = [measure(1_000, d) for d in ds]
    rows = []
    for label, xs, res in (("m", ms, by_m), ("d", ds, by_d)):
        fixed = "d = 20" if label == "m" else "m = 1000"
        for x, (tt, te, k, e) in zip(xs, res):
            rows.append(
                (
                    f"  scaling {label} = {x:,} ({fixed}): {k} updates, {e} epochs",
                    f"{tt:.4f} s",
                    f"exact {te:.4f} s",
                )
            )
        rows.append(
            (
                f"scaling slope of log time against log {label} ({fixed}, {xs[0]:,}..{xs[-1]:,})",
                f"twin {slope(xs, [r[0] for r in res]):.2f}",
                f"exact {slope(xs, [r[1] for r in res]):.2f}",
            )
        )
    _plot(ms, by_m, ds, by_d)
    return rows


def _plot(
    ms: list[int],
    by_m: list[tuple[float, float, int, int]],
    ds: list[int],
    by_d: list[tuple[float, float, int, int]],
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    OUT.mkdir(exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, xs, res, label in (
        (axes[0], ms, by_m, "m (samples), d = 20"),
        (axes[1], ds, by_d, "d (features), m = 1000"),
    ):
        ax.loglog(
            xs, [r[0] for r in res], "o-", label=f"float twin (slope {slope(xs, [r[0] for r in res]):.2f})"
        )
        ax.loglog(
            xs, [r[1] for r in res], "s--", label=f"exact path (slope {slope(xs, [r[1] for r in res]):.2f})"
        )
        ax.set_xlabel(label)
        ax.set_ylabel("seconds to convergence")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("novikoff perceptron: time to convergence (planted margin)")
    fig.tight_layout()
    fig.savefig(OUT / "scaling.png", dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
