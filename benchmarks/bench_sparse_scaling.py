"""PDM twin on generated sparse data: 10k, 100k and 1M rows x 50k columns, density 0.1 %.

Data: CSR, 50 non-zeros per row: column 0 holds 0.5 y (a planted margin, so the
data are separable with gamma >= 0.5/||(0.5, 0, ..., 1)|| whatever m is) and 49
uniformly random columns hold noise uniform in [0, 1); labels +-1 at random; bias 1.
The twin runs PDM(eps = 0.1) with multiple updates and active sets to convergence.

A first version planted labels from a random direction instead; its number of
updates grew with m (63k at 10k rows, 1.37M in 3 passes at 100k rows, 247 s), so
its time measured the update count, not the data. Here the update count is bounded
independently of m, and the time splits into full passes (O(non-zeros) each) and
updates (O(non-zeros of a row) each). Reported: seconds, updates, full passes,
non-zeros, the seconds of one more clean full pass at the final weights (the pure
scan), and its cost per non-zero; linear scaling shows as a flat last column.

Usage: ``python benchmarks/bench_sparse_scaling.py [--rows 10000 100000 1000000]``.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np
import scipy.sparse as sps

from novikoff.twins.large_margin import pdm_twin, twin_sparse_patterns

COLS, PER_ROW = 50_000, 50


def generate(rows: int, seed: int = 0) -> tuple[sps.csr_matrix, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(rows) < 0.5, -1.0, 1.0)
    noise = rng.integers(1, COLS, size=(rows, PER_ROW - 1)).astype(np.int32)
    indices = np.hstack([np.zeros((rows, 1), dtype=np.int32), noise])
    indices.sort(axis=1)
    data = rng.random((rows, PER_ROW))
    data[:, 0] = 0.5 * y  # column 0 sorts first
    X = sps.csr_matrix(
        (data.ravel(), indices.ravel(), np.arange(0, rows * PER_ROW + 1, PER_ROW, dtype=np.int64)),
        shape=(rows, COLS),
    )
    X.sum_duplicates()
    return X, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", type=int, default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--max-passes", type=int, default=50)
    args = parser.parse_args()
    print(
        "| rows | non-zeros | updates | full passes | converged | seconds "
        "| one clean pass s | ns / non-zero |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for rows in args.rows:
        X, y = generate(rows)
        t0 = time.perf_counter()
        run = pdm_twin(
            X, y, eps=Fraction(1, 10), multiple_updates=True, active_sets=True, max_epochs=args.max_passes
        )
        sec = time.perf_counter() - t0
        Z = twin_sparse_patterns(X, y, 1.0)
        t0 = time.perf_counter()
        for _ in range(3):
            values = Z @ run.weights
        scan = (time.perf_counter() - t0) / 3
        assert values.shape == (X.shape[0],)
        print(
            f"| {X.shape[0]} | {X.nnz} | {run.mistakes} | {run.epochs} | {run.converged} | {sec:.2f} "
            f"| {scan:.3f} | {scan / Z.nnz * 1e9:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
