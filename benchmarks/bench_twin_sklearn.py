"""The float twin against scikit-learn's Perceptron(shuffle=False, tol=None) with the same epochs,
and one late (clean) epoch of the twin against one ``Z @ w`` pass.

The twin runs with its default engine (the compiled kernel when numba is
installed, its cached machine code loaded before timing) and with the numpy engine.

Data: m x d separable integer features (|x| <= 8, a planted direction with a
margin), so float64 arithmetic is exact for both and the runs must agree weight
for weight. sklearn never stops on a clean epoch, so it is given exactly the
twin's epoch count (which includes the final clean epoch). The exact fast path
runs on the same arrays (converted exactly) in the same process.
"""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING

import numpy as np
from _common import timed

if TYPE_CHECKING:
    from novikoff.runs import RunRecord


def separable_ints(m: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d).astype(float)
    X = rng.integers(-8, 9, size=(4 * m, d)).astype(float)
    s = X @ w + 0.5
    keep = np.abs(s) >= 4  # a margin
    X, s = X[keep][:m], s[keep][:m]
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


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
