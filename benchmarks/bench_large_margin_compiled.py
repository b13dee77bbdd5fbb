"""The compiled large-margin engine against the numpy twin and LinearSVC, in one run.

Issue 18 items 1 and 2. For every row of the README's PDM table (the datasets of
``bench_pdm_paper.py``, same protocol: features min-max scaled into [0, 1], the
soft-margin extension with Delta = 1 kept sparse, bias 1, multiple updates and
active sets), PDM(eps = 0.01), PFM (beta = the margin PDM achieved, rounded down
to a rational) and PDM-succ (eps = 1/2, 1/4, ..., 1/64, 1/100) run with

- the numpy twin (``engine="numpy"``), as the twins ran before the compiled engine;
- the compiled engine (``engine="compiled"``; numba compiled once before timing);
- scikit-learn's LinearSVC (hinge loss, no intercept, C = 1e4, random_state 0) on
  the same patterns, once per dataset.

Reported per algorithm: wall seconds of each, the ratios numpy/compiled and
compiled/LinearSVC, the CPU seconds of the compiled engine (the machine is shared:
wall time includes waiting for a core), the updates, whether the two engines made
the same update sequence and final weights (compared, not assumed), and the achieved
directional margin min_i w.z_i/||w|| over gamma, where gamma (the exact maximum
margin) comes from novikoff's certificate for m <= 800.

Then the synthetic target: 1M rows x 50,000 columns, 50 non-zeros per row (the
data of ``bench_sparse_scaling.py``), PDM(1/10) with multiple updates and active
sets to convergence with the compiled engine, its time in units of one scipy
``Z @ w`` over the same patterns.

Usage: ``nice -n 10 python benchmarks/bench_large_margin_compiled.py [--only sonar ...]
[--synthetic-rows N] [--no-numpy] [--write]``; ``--write`` puts the tables into
docs/performance-large-margin.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sps
from _common import REPO
from bench_pdm_paper import DEFAULT, DELTA, EPS, SUCC, margin, patterns
from bench_sparse_scaling import generate
from offline_data import load

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.transforms import soft_margin
from novikoff.runtime.runs import TwinEngine
from novikoff.twins import compiled_large_margin, large_margin
from novikoff.twins.large_margin import TwinRun, pdm_succ_twin, pdm_twin, pfm_twin, twin_sparse_patterns

DOC = REPO / "docs" / "performance-large-margin.md"
OPTIONS: dict[str, Any] = {"multiple_updates": True, "active_sets": True, "max_epochs": 100_000}


def clock(fn: Callable[..., TwinRun], *args: Any, **kwargs: Any) -> tuple[TwinRun, float, float]:
    """The run ``fn(*args, **kwargs)``, its wall seconds and its CPU seconds."""
    t0, c0 = time.perf_counter(), time.process_time()
    run = fn(*args, **kwargs)
    return run, time.perf_counter() - t0, time.process_time() - c0


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel specialization the rows use."""
    rng = np.random.default_rng(0)
    X = rng.random((40, 5))
    y = np.where(X[:, 0] > 0.5, 1.0, -1.0)
    for sparse in (False, True):
        data = sps.csr_matrix(X) if sparse else X
        pdm_twin(data, y, eps=Fraction(1, 10), engine="compiled", **OPTIONS)
        pfm_twin(data, y, beta=Fraction(1, 100), engine="compiled", **OPTIONS)
    Xs = sps.csr_matrix(X)  # the set-up passes of large sparse inputs (int32 indices, as scipy gives)
    indptr, _, values = compiled_large_margin.signed_rows_with_bias(Xs.indptr, Xs.indices, Xs.data, y, 1.0, 5)
    compiled_large_margin.row_squares(indptr.astype(np.int32), values)


def svm_time(Xext: sps.csr_matrix, y: np.ndarray, Z: sps.csr_matrix) -> tuple[float, float]:
    from sklearn.svm import LinearSVC

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        svm = LinearSVC(
            loss="hinge", fit_intercept=False, C=1e4, tol=1e-8, max_iter=200_000, random_state=0
        ).fit(sps.hstack([Xext, np.ones((Xext.shape[0], 1))], format="csr"), y)
    return time.perf_counter() - t0, margin(Z, svm.coef_.ravel())


def prepared(name: str) -> tuple[np.ndarray, np.ndarray, sps.csr_matrix]:
    """(X min-max scaled, y, X with the soft-margin columns Delta I kept sparse): the protocol's data."""
    X, y = load(name).to_numpy()
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    X = np.where(span > 0, (X - lo) / np.where(span > 0, span, 1), 0.0)
    Xext = sps.hstack([sps.csr_matrix(X), DELTA * sps.identity(X.shape[0], format="csr")], format="csr")
    return X, y, Xext


def dataset_rows(name: str, numpy_engine: bool) -> list[dict[str, Any]]:
    X, y, Xext = prepared(name)
    Z = patterns(X, y)
    gamma = None
    if X.shape[0] <= 800:
        cert = certify(soft_margin(Dataset.from_arrays(X, y, bias=1), Fraction(DELTA)))
        assert isinstance(cert, SeparableCertificate)
        gamma = float(cert.gamma2) ** 0.5
    svm_s, svm_margin = svm_time(Xext, y, Z)
    out = []
    beta = Fraction(0)
    algorithms: list[tuple[str, Callable[[TwinEngine], TwinRun]]] = [
        ("PDM(0.01)", lambda engine: pdm_twin(Xext, y, eps=EPS, engine=engine, **OPTIONS)),
        ("PFM", lambda engine: pfm_twin(Xext, y, beta=beta, engine=engine, **OPTIONS)),
        ("PDM-succ", lambda engine: pdm_succ_twin(Xext, y, epsilons=SUCC, engine=engine, **OPTIONS)),
    ]
    for label, call in algorithms:
        fast, fast_s, fast_cpu = clock(call, "compiled")
        assert fast.engine == "compiled"
        achieved = margin(Z, fast.weights)
        if label.startswith("PDM("):
            beta = Fraction(achieved)  # PFM's beta: the margin PDM achieved (exact float value)
        row: dict[str, Any] = {
            "dataset": name,
            "shape": f"{X.shape[0]} x {X.shape[1]}",
            "algorithm": label,
            "compiled_s": fast_s,
            "compiled_cpu": fast_cpu,
            "svm_s": svm_s,
            "svm_margin": svm_margin,
            "updates": fast.mistakes,
            "converged": fast.converged,
            "margin": achieved,
            "gamma": gamma,
        }
        if numpy_engine:
            slow, slow_s, slow_cpu = clock(call, "numpy")
            row["numpy_s"], row["numpy_cpu"] = slow_s, slow_cpu
            row["same"] = (
                slow.updates == fast.updates
                and np.array_equal(np.asarray(slow.weights), np.asarray(fast.weights))
                and (slow.epochs, slow.mini_epochs, slow.converged)
                == (fast.epochs, fast.mini_epochs, fast.converged)
            )
        out.append(row)
        print(f"# {name} {label}: compiled {fast_s:.2f} s, {fast.mistakes} updates", flush=True)
    return out


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| dataset | m x d | algorithm | numpy s (CPU s) | compiled s (CPU s) | numpy / compiled (CPU) "
        "| LinearSVC s "
        "| compiled / LinearSVC | updates | same updates | margin / gamma |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        numpy_s = r.get("numpy_s")
        ratio = "-"
        if numpy_s:
            cpu_ratio = r["numpy_cpu"] / max(r["compiled_cpu"], 1e-9)
            ratio = f"{numpy_s / r['compiled_s']:.1f}x ({cpu_ratio:.1f}x)"
        if r["gamma"]:
            quality = f"{r['margin'] / r['gamma']:.4f}"
        else:  # no exact gamma: against LinearSVC's margin, which is not a certificate
            quality = f"- (vs LinearSVC's margin {r['margin'] / r['svm_margin']:.4f})"
        cells = [
            r["dataset"],
            r["shape"],
            r["algorithm"] + ("" if r["converged"] else " (not converged)"),
            f"{numpy_s:.2f} ({r['numpy_cpu']:.2f})" if numpy_s else "-",
            f"{r['compiled_s']:.2f} ({r['compiled_cpu']:.2f})",
            ratio,
            f"{r['svm_s']:.3f}",
            f"{r['compiled_s'] / r['svm_s']:.1f}x",
            str(r["updates"]),
            str(r["same"]) if "same" in r else "-",
            quality,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def product_seconds(Z: sps.csr_matrix, repeats: int) -> float:
    """The median wall seconds of scipy's ``Z @ w`` over ``repeats`` products (w fixed, random)."""
    w = np.random.default_rng(1).random(Z.shape[1])
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        values = Z @ w
        times.append(time.perf_counter() - t0)
    assert values.shape == (Z.shape[0],)
    return float(np.median(times))


SYNTHETIC = ("<!-- large-margin-synthetic:start -->", "<!-- large-margin-synthetic:end -->")
CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("multiple updates, active sets", {}),
    ("single updates, no active sets", {"multiple_updates": False, "active_sets": False}),
]


def timed_training() -> Callable[[], float]:
    """Wraps the twins' stage loop (all epochs of a run: the training, without converting the
    input and setting the kernel up) with a timer; returns a function giving and resetting the
    seconds spent in it."""
    inner = large_margin._run_stage
    spent = [0.0]

    def run_stage(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    large_margin._run_stage = run_stage

    def take() -> float:
        seconds, spent[0] = spent[0], 0.0
        return seconds

    return take


def synthetic(rows: int, numpy_engine: bool) -> str:
    """The section on the 1M x 50,000 problem: PDM(1/10) in both configurations, each whole
    call (the patterns' set-up included) and its training alone, in units of one Z @ w."""
    X, y = generate(rows)
    Z = twin_sparse_patterns(X, y, 1.0)
    one = product_seconds(Z, 7)
    del Z
    training = timed_training()
    lines = [
        "| rows x columns | non-zeros | engine | configuration | seconds (CPU s) | passes' worth of `Z @ w` "
        "| training s | training in passes' worth | updates | full passes | mini-epochs | converged |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    runs = [("compiled", label, options) for label, options in CONFIGURATIONS]
    if numpy_engine:
        runs.append(("numpy", *CONFIGURATIONS[0]))
    for engine, label, options in runs:
        training()
        run, sec, cpu = clock(
            pdm_twin, X, y, eps=Fraction(1, 10), engine=engine, **{**OPTIONS, "max_epochs": 50, **options}
        )
        train = training()
        lines.append(
            f"| {rows} x {X.shape[1]} | {X.nnz} | {engine} | {label} | {sec:.2f} ({cpu:.2f}) "
            f"| {sec / one:.1f} | {train:.2f} | {train / one:.1f} | {run.mistakes} | {run.epochs} "
            f"| {run.mini_epochs} | {run.converged} |"
        )
        print(f"# synthetic {rows} rows, {engine}, {label}: {sec:.2f} s", flush=True)
    return (
        f"{SYNTHETIC[0]}\nPDM(1/10) on the synthetic sparse data of `bench_sparse_scaling.py`, to "
        f"convergence, in two configurations. One `Z @ w` (scipy, the median of 7) took {one:.4f} s. "
        "A run's seconds include converting X and y into the patterns y_i (x_i, 1) and setting the "
        'kernel up (fresh memory for about 600 MB of arrays); "training" is the time in its epochs '
        f"alone. Load average {os.getloadavg()[0]:.1f} after these runs.\n\n"
        + "\n".join(lines)
        + f"\n{SYNTHETIC[1]}\n"
    )


WORK = ("<!-- large-margin-work:start -->", "<!-- large-margin-work:end -->")


def work_rows(name: str, tallies: list[tuple[bool, bool]]) -> list[str]:
    """The rows of the work table for one dataset (see :func:`work`); appends to ``tallies``
    (compiled within 20x LinearSVC, floor above it) per row."""
    X, y, Xext = prepared(name)
    Z = patterns(X, y)
    Zt = twin_sparse_patterns(Xext, y, 1.0)
    per_nnz = product_seconds(Zt, 201) / Zt.nnz  # scipy's seconds per non-zero read
    svm_s, _ = svm_time(Xext, y, Z)
    lines = []
    runs = [("PDM(0.01)", clock(pdm_twin, Xext, y, eps=EPS, engine="compiled", **OPTIONS))]
    beta = Fraction(margin(Z, runs[0][1][0].weights))  # PFM's beta: the margin PDM achieved
    runs.append(("PFM", clock(pfm_twin, Xext, y, beta=beta, engine="compiled", **OPTIONS)))
    runs.append(("PDM-succ", clock(pdm_succ_twin, Xext, y, epsilons=SUCC, engine="compiled", **OPTIONS)))
    for label, (run, sec, _) in runs:
        read = run.row_products * Zt.nnz / Zt.shape[0]
        floor = read * per_nnz
        lines.append(
            f"| {name} | {label} | {run.mistakes} | {run.row_products} "
            f"| {run.row_products / max(run.mistakes, 1):.0f} | {read:.3g} | {floor:.3f} | {sec:.2f} "
            f"| {svm_s:.3f} | {20 * svm_s:.2f} | {sec / svm_s:.1f}x | {floor / svm_s:.1f}x |"
        )
        tallies.append((sec <= 20 * svm_s, floor > 20 * svm_s))
        print(f"# work {name} {label}: {run.row_products} products, floor {floor:.3f} s", flush=True)
    return lines


def work(names: list[str]) -> str:
    """The section on the work the protocol's schedule asks for: per README row and algorithm
    the compiled run's dot products z_i.w (presentations and level selections), the
    non-zeros they read, and the time scipy's own ``Z @ w`` would take to read as many (a
    floor for any implementation of this schedule), beside the compiled run and LinearSVC."""
    lines = [
        "| dataset | algorithm | updates | products z_i.w | per update | non-zeros read "
        "| floor s (scipy's `Z @ w` speed) | compiled s | LinearSVC s | 20x LinearSVC s "
        "| compiled / LinearSVC | floor / LinearSVC |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    tallies: list[tuple[bool, bool]] = []
    for name in names:
        lines.extend(work_rows(name, tallies))
    within, beyond = sum(a for a, _ in tallies), sum(b for _, b in tallies)
    return (
        f"{WORK[0]}\n## The work of the schedule\n\nGenerated by `benchmarks/bench_large_margin_compiled.py "
        "--work --write`. Each presentation and each level selection reads one pattern (one dot product "
        "z_i.w); the compiled engine counts them (`TwinRun.row_products`). Reading as many non-zeros "
        'takes at least the "floor" at the speed of scipy\'s own `Z @ w` on the same patterns (the '
        "median of 201 products): no implementation of this schedule, in any language, reads memory "
        "much faster. Where the floor is above 20x LinearSVC's time, that target is out of reach for "
        f"the schedule, not for the code. Load average {os.getloadavg()[0]:.1f} after these runs.\n\n"
        + "\n".join(lines)
        + f"\n\nThe compiled run within 20x LinearSVC's time on {within} of {len(tallies)} rows; the floor "
        f"alone above it on {beyond} of {len(tallies)}.\n{WORK[1]}\n"
    )


def replace_section(markers: tuple[str, str], text: str) -> None:
    """Puts ``text`` (markers included) where the markers stand in the page, or before the
    reference's section when the page has none yet."""
    old = DOC.read_text(encoding="utf-8")
    if markers[0] in old:
        a, b = old.index(markers[0]), old.index(markers[1]) + len(markers[1]) + 1
    else:
        a = b = old.index("<!-- large-margin-reference:start -->")
        text += "\n"
    DOC.write_text(old[:a] + text + old[b:])
    print(f"wrote {markers[0]} in {DOC}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", default=DEFAULT)
    parser.add_argument("--synthetic-rows", type=int, default=1_000_000, help="0 skips it")
    parser.add_argument("--no-numpy", action="store_true", help="skip the numpy twin (no ratios)")
    parser.add_argument("--write", action="store_true", help=f"write {DOC.relative_to(REPO)}")
    parser.add_argument(
        "--synthetic-only",
        action="store_true",
        help="only the synthetic section (--write replaces only it)",
    )
    parser.add_argument(
        "--work", action="store_true", help="only the work section (--write replaces only it)"
    )
    args = parser.parse_args()
    if not compiled_large_margin.available():
        raise SystemExit("numba is not installed (pip install novikoff[fast])")
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    warm_up()
    compile_s = time.perf_counter() - t0
    if args.synthetic_only or args.work:
        markers, section = (
            (WORK, work(args.only))
            if args.work
            else (SYNTHETIC, synthetic(args.synthetic_rows, not args.no_numpy))
        )
        print(section)
        if args.write:
            replace_section(markers, section)
        return
    results: list[dict[str, Any]] = []
    for name in args.only:
        results.extend(dataset_rows(name, not args.no_numpy))
    text = table(results)
    print(text, flush=True)
    synth = synthetic(args.synthetic_rows, not args.no_numpy) if args.synthetic_rows else ""
    print(synth)
    load_after = os.getloadavg()
    if args.write:
        # bench_large_margin_reference.py writes its own section between its markers: keep it
        old = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        # and the work section (--work) before it: keep both
        start = old.find(WORK[0]) if WORK[0] in old else old.find("<!-- large-margin-reference:start -->")
        kept = "\n" + old[start:] if start >= 0 else ""
        DOC.write_text(
            "# Large-margin performance: the compiled engine\n\n"
            "Generated by `benchmarks/bench_large_margin_compiled.py --write` (do not edit by hand).\n"
            f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, shared: "
            f"load average {load_before[0]:.1f} before the run, {load_after[0]:.1f} after, so wall "
            "seconds include waiting for a core and the CPU seconds are given beside them. "
            f"numba's kernels were loaded or compiled first ({compile_s:.1f} s, not counted).\n\n"
            "Protocol: `bench_pdm_paper.py`'s (min-max scaling, soft margin Delta = 1 kept sparse, "
            "bias 1, multiple updates and active sets); PFM's beta is the margin PDM achieved; "
            'PDM-succ eps = 1/2, 1/4, ..., 1/64, 1/100. "same updates" compares the numpy and '
            "compiled engines' update sequences, epochs, mini-epochs and final weights. gamma is the "
            "exact maximum margin from the certificate (m <= 800).\n\n" + text + "\n\n" + synth + kept
        )
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
