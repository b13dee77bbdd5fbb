"""PDM twin on generated sparse data: 10k, 100k and 1M rows x 50k columns, density 0.1 %.

Data: CSR with 50 non-zeros per row at uniform random columns, values uniform in
[0, 1); labels from a planted direction w* (normal, seed 0) with the rows closest
to the hyperplane dropped (|x.w*| below the 20th percentile), so the data are
separable; bias 1. The twin runs PDM(eps = 0.1) with multiple updates and active
sets for a fixed budget of 3 full passes (the run may converge earlier). Reported:
seconds, updates, full passes, non-zeros, and microseconds per non-zero per full
pass; linear scaling in the non-zeros shows as a flat last column.

Usage: ``python benchmarks/bench_sparse_scaling.py [--rows 10000 100000 1000000]``.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np
import scipy.sparse as sps

from novikoff.twins.large_margin import pdm_twin

COLS, PER_ROW = 50_000, 50


def generate(rows: int, seed: int = 0) -> tuple[sps.csr_matrix, np.ndarray]:
    rng = np.random.default_rng(seed)
    w_star = np.random.default_rng(12345).standard_normal(COLS)
    n = int(rows / 0.8) + 1
    indices = rng.integers(0, COLS, size=(n, PER_ROW)).astype(np.int32)
    indices.sort(axis=1)
    data = rng.random((n, PER_ROW))
    X = sps.csr_matrix((data.ravel(), indices.ravel(), np.arange(0, n * PER_ROW + 1, PER_ROW)), shape=(n, COLS))
    X.sum_duplicates()
    score = X @ w_star
    keep = np.flatnonzero(np.abs(score) >= np.quantile(np.abs(score), 0.2))[:rows]
    X = X[keep]
    return sps.csr_matrix(X), np.where(score[keep] > 0, 1.0, -1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", type=int, default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    print("| rows | non-zeros | updates | full passes | converged | seconds | us / non-zero / pass |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for rows in args.rows:
        X, y = generate(rows)
        t0 = time.perf_counter()
        run = pdm_twin(
            X, y, eps=Fraction(1, 10), multiple_updates=True, active_sets=True, max_epochs=args.passes
        )
        sec = time.perf_counter() - t0
        per = sec / (X.nnz * run.epochs) * 1e6
        print(
            f"| {X.shape[0]} | {X.nnz} | {run.mistakes} | {run.epochs} | {run.converged} | {sec:.2f} | {per:.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
