"""The float twin against scikit-learn's Perceptron(shuffle=False, tol=None) with the same epochs,
and one late (clean) epoch of the twin against one ``Z @ w`` pass.

``python benchmarks/bench_twin_sklearn.py [--quick]`` prints the rows of ``run_all.py``;
``--sweep [--repeat N] [--write]`` times the two from 1 to 300 epochs at m = 10^4 .. 10^6,
d = 20 (minimum CPU and wall seconds of N runs each, compiled kernels loaded before timing)
and ``--write`` puts that table into docs/performance.md between its markers.

The twin runs with its default engine (the compiled kernel when numba is
installed, its cached machine code loaded before timing) and with the numpy engine.

Data: m x d separable integer features (|x| <= 8, a planted direction with a
margin), so float64 arithmetic is exact for both and the runs must agree weight
for weight. sklearn never stops on a clean epoch, so it is given exactly the
twin's epoch count (which includes the final clean epoch). The exact fast path
runs on the same arrays (converted exactly) in the same process.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import numpy as np
from _common import REPO, timed, write_between

if TYPE_CHECKING:
    from novikoff.runtime.runs import RunRecord

T = TypeVar("T")
DOC = REPO / "docs" / "performance.md"
START, END = "<!-- twin-sklearn-epochs:start -->", "<!-- twin-sklearn-epochs:end -->"


def separable_ints(
    m: int, d: int, seed: int = 0, *, weight: int = 5, margin: float = 4, offset: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """m x d integer features in [-8, 8] labelled by a planted integer direction (entries in
    [-weight, weight]), kept only where |x.w + offset| >= margin: separable, and the smaller
    the margin the more epochs the perceptron needs."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-weight, weight + 1, size=d).astype(float)
    X = rng.integers(-8, 9, size=(4 * m, d)).astype(float)
    s = X @ w + offset
    keep = np.abs(s) >= margin
    X, s = X[keep][:m], s[keep][:m]
    assert len(X) == m, "margin too large for 4m candidates"
    return X, np.where(s > 0, 1.0, -1.0)


def late_epoch_seconds(Z: np.ndarray, run: RunRecord) -> tuple[float, float, float]:
    """Seconds of one clean (late) epoch at the converged weights, for the compiled engine
    (its kernel after the active sets settle) and for the numpy scan (its block sizes as
    at the run's last busy epoch), and of one ``Z @ w`` pass over the same data."""
    from novikoff.twins import compiled
    from novikoff.twins.scan import BlockScan

    w = np.asarray(run.weights)
    m = Z.shape[0]
    last_busy = run.epochs - 2
    busy = sum(1 for e, _ in run.updates if e == last_busy)

    def numpy_epoch() -> int:
        scan = BlockScan()
        scan.gap = scan.first = max(16, m // max(busy, 1))
        return sum(1 for _ in scan.epoch(m, lambda a, b: Z[a:b] @ w))

    t_numpy, hits = timed(numpy_epoch, repeat=15)
    assert hits == 0, "not a clean epoch"
    t_pass, _ = timed(lambda: Z @ w, repeat=15)
    if not compiled.available():
        return float("nan"), t_numpy, t_pass
    kernel = compiled.CompiledEpochs(Z, w.copy(), exact=False)
    for e in range(8):  # let the active sets form
        assert kernel.epoch(e)[0].size == 0
    counter = iter(range(8, 10**6))
    t_compiled, _ = timed(lambda: kernel.epoch(next(counter)), repeat=15)
    return t_compiled, t_numpy, t_pass


def compare(m: int, d: int, repeat: int) -> list[tuple[str, str, str]]:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    from novikoff.twins import perceptron_twin, twin_patterns
    from novikoff.twins.exact import exact_perceptron

    X, y = separable_ints(m, d)
    from novikoff.twins.compiled import available

    if available():
        perceptron_twin(X[:50], y[:50], engine="compiled")  # load numba's cached kernels outside the timing
    t_twin, run = timed(lambda: perceptron_twin(X, y, max_epochs=10_000), repeat=repeat)
    t_np_run, numpy_run = timed(
        lambda: perceptron_twin(X, y, max_epochs=10_000, engine="numpy"), repeat=repeat
    )
    assert run.converged and numpy_run.updates == run.updates

    def sk() -> Perceptron:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return Perceptron(shuffle=False, tol=None, max_iter=run.epochs, eta0=1.0).fit(X, y)

    t_sk, model = timed(sk, repeat=repeat)
    sk_w = np.append(model.coef_.ravel(), model.intercept_)
    same = bool(np.array_equal(sk_w, run.weights))
    t_exact, exact = timed(lambda: exact_perceptron(X, y, max_epochs=10_000), repeat=repeat)
    assert exact.updates == run.updates
    Z = twin_patterns(X, y)
    t_compiled, t_numpy, t_pass = late_epoch_seconds(Z, run)
    return [
        (
            f"twin {m}x{d}: {run.mistakes} updates, {run.epochs} epochs",
            f"{t_twin:.3f} s",
            f"sklearn Perceptron {t_sk:.3f} s: twin {t_sk / t_twin:.2f}x faster (goal 3x); "
            f"identical weights: {same}",
        ),
        (
            f"  twin {m}x{d}, numpy engine (no numba)",
            f"{t_np_run:.3f} s",
            f"sklearn/numpy twin {t_sk / t_np_run:.2f}x",
        ),
        (
            f"  exact fast path {m}x{d} (same updates, {'/'.join(exact.arithmetic)})",
            f"{t_exact:.3f} s",
            f"{t_exact / t_twin:.2f}x the float twin; sklearn/exact {t_sk / t_exact:.2f}",
        ),
        (
            f"  twin clean (late) epoch {m}x{d}: compiled engine / numpy scan",
            f"{t_compiled * 1000:.2f} / {t_numpy * 1000:.2f} ms",
            f"one Z @ w pass {t_pass * 1000:.2f} ms: {t_compiled / t_pass:.2f}x / {t_numpy / t_pass:.2f}x "
            "(goal <= 2x)",
        ),
    ]


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    rows = compare(20_000, 50, repeat=3)
    rows += compare(200_000, 100, repeat=1) if not quick else []
    return rows


# the sweep: (m, epochs, margin) on separable_ints(m, 20, weight=100, margin=margin, offset=0),
# the margin chosen so that the run needs at least that many epochs; both are capped there
SWEEP_D = 20
SWEEP = [
    (m, epochs, margin)
    for m, margins in (
        (10_000, (400.0, 400.0, 400.0, 159.2, 63.4, 35.7, 17.9)),
        (100_000, (400.0, 400.0, 400.0, 112.7, 25.2, 22.5, 10.0)),
        (1_000_000, (283.2, 283.2, 283.2, 35.7, 22.5, 10.0, 5.7)),
    )
    for epochs, margin in zip((1, 2, 5, 10, 30, 100, 300), margins)
]


def cpu_and_wall(fn: Callable[[], T], repeat: int) -> tuple[float, float, T]:
    """Minimum CPU seconds (this process, all threads) and minimum wall seconds of ``repeat``
    calls, and the last result (the minimum: the other core of the machine may be busy)."""
    cpu, wall = [], []
    result: T
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall), result


def sweep_row(m: int, epochs: int, margin: float, repeat: int) -> dict[str, float | int | bool]:
    """The twin (default engine) and sklearn on one sweep data set, sklearn given exactly
    the twin's epoch count; the weights must be identical (the data are float64-exact)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    from novikoff.twins import perceptron_twin

    X, y = separable_ints(m, SWEEP_D, weight=100, margin=margin, offset=0)
    twin_cpu, twin_wall, run = cpu_and_wall(lambda: perceptron_twin(X, y, max_epochs=epochs), repeat)

    def sk() -> Perceptron:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return Perceptron(shuffle=False, tol=None, max_iter=run.epochs, eta0=1.0).fit(X, y)

    sk_cpu, sk_wall, model = cpu_and_wall(sk, repeat)
    sk_w = np.append(model.coef_.ravel(), model.intercept_)
    same = bool(np.array_equal(sk_w, np.asarray(run.weights, dtype=np.float64)))
    assert same, f"m={m}, {epochs} epochs: the twin's weights differ from sklearn's"
    return {
        "m": m,
        "epochs": run.epochs,
        "updates": run.mistakes,
        "converged": run.converged,
        "twin_cpu": twin_cpu,
        "twin_wall": twin_wall,
        "sk_cpu": sk_cpu,
        "sk_wall": sk_wall,
        "same": same,
    }


def sweep(repeat: int, quick: bool = False) -> list[dict[str, float | int | bool]]:
    """Every sweep row (``quick``: m <= 10^5), numba's cached kernels loaded before timing."""
    from novikoff.twins import perceptron_twin
    from novikoff.twins.compiled import available

    if available():
        X, y = separable_ints(2000, SWEEP_D)
        perceptron_twin(X, y, engine="compiled")  # load numba's cached kernels outside the timing
    rows = []
    for m, epochs, margin in SWEEP:
        if quick and m > 100_000:
            continue
        rows.append(sweep_row(m, epochs, margin, repeat))
        r = rows[-1]
        print(
            f"m={m:>9,} epochs={r['epochs']:>3} twin {r['twin_cpu']:.4f} s sklearn {r['sk_cpu']:.4f} s "
            f"ratio {r['twin_cpu'] / r['sk_cpu']:.2f}",
            file=sys.stderr,
            flush=True,
        )
    return rows


def sweep_table(rows: list[dict[str, float | int | bool]], repeat: int, load: tuple[float, float]) -> str:
    """The sweep as the markdown of docs/performance.md's generated section."""
    lines = [
        f"Generated by `benchmarks/bench_twin_sklearn.py --sweep --repeat {repeat} --write` "
        "(do not edit by hand). Separable integer data, d = 20 (`separable_ints(m, 20, weight=100, "
        "margin=...)`: the margin sets the epochs the run needs), both capped at the epoch count; "
        f"minimum CPU (and wall) seconds of {repeat} runs each, one BLAS thread, the twin with its "
        f"default engine and numba's cached kernels loaded before timing; load average {load[0]:.2f} before, "
        f"{load[1]:.2f} after. Every row: identical weights.",
        "",
        "| epochs | m | updates | twin CPU s (wall) | sklearn CPU s (wall) | twin / sklearn CPU |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['epochs']}{'' if r['converged'] else ' (cap)'} | {r['m']:,} | {r['updates']:,} | "
            f"{r['twin_cpu']:.4f} ({r['twin_wall']:.4f}) | {r['sk_cpu']:.4f} ({r['sk_wall']:.4f}) | "
            f"**{r['twin_cpu'] / r['sk_cpu']:.2f}** |"
        )
    ratios = [float(r["twin_cpu"]) / float(r["sk_cpu"]) for r in rows]
    lines += ["", f"twin / sklearn CPU: {min(ratios):.2f} to {max(ratios):.2f} over these {len(rows)} runs."]
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    """Replace the part of docs/performance.md between the sweep's markers."""
    write_between(DOC, START, END, text)


def cli() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="drop the largest sizes")
    parser.add_argument("--sweep", action="store_true", help="the 1-300 epoch sweep instead")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement in the sweep")
    parser.add_argument("--write", action="store_true", help=f"write the sweep into {DOC.relative_to(REPO)}")
    args = parser.parse_args()
    if not args.sweep:
        for row in main(args.quick):
            print(" | ".join(row))
        return
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    before = os.getloadavg()[0]
    with threadpool_limits(limits=1):  # CPU time is then the work, not BLAS threads spinning
        rows = sweep(args.repeat, args.quick)
    text = sweep_table(rows, args.repeat, (before, os.getloadavg()[0]))
    print(text)
    if args.write:
        write(text)


if __name__ == "__main__":
    cli()
