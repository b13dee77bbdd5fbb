"""The exact large-margin reference: the integer fast path against the plain loop, side by side.

Issue 18 item 2 (third bullet). The exact reference
(:mod:`novikoff.reference.large_margin`) runs each problem twice in this one process,
alternating: ``engine="plain"`` (the definition: one exact dot product W.Z_i per
presentation, as the reference ran before the fast path) and ``engine="integer"``
(the decision values p = Z W kept exactly and updated by Gram columns,
:mod:`novikoff.reference.large_margin_integer`). Both are timed in wall and CPU
seconds (the machine is shared, so CPU seconds are the fairer ratio), and the two runs
are compared field by field (updates, exact weights, epochs, stop, stages, checks):
"same run" is that comparison, never assumed.

Problems (exact data, bias 1, natural order):

- ``vec400``: the coq-perceptron vectors vec400_1 (400 x 1000, values k/250);
- ``sonar + soft margin``: rocks_and_mines with the soft-margin extension Delta = 1
  (208 x 269), as ``bench_pdm_twin_reference.py`` runs it;
- ``sonar``: rocks_and_mines itself (208 x 61), whose margin is so small that PDM does
  not converge in 100,000 epochs: the same capped run (``--sonar-epochs``, 1,000 by
  default) on both engines.

Algorithms: PDM(1/10) with single and with multiple updates, PDM(1/100), PFM with beta
half the directional margin PDM(1/10) reached (rounded down to a rational with 6
digits) and PDM-succ (1/2, 1/4, 1/10), each with single updates unless marked.

Usage: ``nice -n 10 python benchmarks/bench_large_margin_reference.py [--only vec400 ...]
[--repeat N] [--write]``; ``--write`` puts the table into docs/performance-large-margin.md
between its markers (the rest of the page is bench_large_margin_compiled.py's).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from _common import COQ, REPO
from offline_data import load

from novikoff.data.dataset import Dataset
from novikoff.data.readers import load_dataset
from novikoff.data.transforms import soft_margin
from novikoff.reference.large_margin import LargeMarginRun, run_pdm, run_pdm_succ, run_pfm
from novikoff.runtime.runs import ReferenceEngine

DOC = REPO / "docs" / "performance-large-margin.md"
START, END = "<!-- large-margin-reference:start -->", "<!-- large-margin-reference:end -->"
PROBLEMS = ("vec400", "sonar + soft margin", "sonar")
README = ["sonar", "ionosphere", "wdbc", "pima", "australian"]  # bench_pdm_paper's rows with m <= 800
TENTH = Fraction(1, 10)


def problem(name: str) -> Dataset:
    if name == "vec400":
        return load_dataset(COQ / "vec400_1.csv")
    sonar = load("sonar")
    return soft_margin(sonar, 1) if name == "sonar + soft margin" else sonar


def same_run(a: LargeMarginRun, b: LargeMarginRun) -> bool:
    return (
        a.updates == b.updates
        and a.weights == b.weights
        and (a.epochs, a.converged, a.stopped, a.stages) == (b.epochs, b.converged, b.stopped, b.stages)
        and (a.checks, a.invariants_checked) == (b.checks, b.invariants_checked)
    )


def directional_margin_floor(run: LargeMarginRun, dataset: Dataset) -> Fraction:
    """min_i w.z_i / ||w|| rounded down to a multiple of 10^-6, exactly (0 if not positive)."""
    W, s = run.integer_state
    Z, _ = dataset.scaled_patterns
    low = min(sum(a * b for a, b in zip(W, z)) for z in Z)  # s^2 min w.z
    w2 = sum(v * v for v in W)  # s^2 ||w||^2
    if low <= 0 or w2 == 0:
        return Fraction(0)
    # margin = low / (s sqrt(w2)); the largest k with k / 10^6 <= margin
    return Fraction(math.isqrt((low * low * 10**12) // (s * s * w2)), 10**6)


def row(
    problem: str,
    ds: Dataset,
    algorithm: str,
    plain: tuple[LargeMarginRun, float, float],
    fast: tuple[LargeMarginRun, float, float],
) -> dict[str, Any]:
    """One table row from the two engines' clocked runs ((run, wall s, CPU s) each)."""
    (plain_run, plain_s, plain_cpu), (fast_run, fast_s, fast_cpu) = plain, fast
    return {
        "problem": problem,
        "shape": f"{ds.n_samples} x {ds.dimension}",
        "algorithm": algorithm,
        "updates": fast_run.mistakes,
        "epochs": fast_run.epochs,
        "converged": fast_run.converged,
        "plain_s": plain_s,
        "plain_cpu": plain_cpu,
        "fast_s": fast_s,
        "fast_cpu": fast_cpu,
        "same": same_run(plain_run, fast_run),
        "arithmetic": ", ".join(fast_run.arithmetic),
    }


def clock(
    call: Callable[[ReferenceEngine], LargeMarginRun], repeat: int
) -> tuple[tuple[LargeMarginRun, float, float], tuple[LargeMarginRun, float, float]]:
    """Both engines' runs and median wall and CPU seconds of ``repeat`` calls each, the calls
    alternating (plain, integer, plain, ...) so that a change of the shared machine's load
    falls on both."""
    times: dict[str, tuple[list[float], list[float]]] = {"plain": ([], []), "integer": ([], [])}
    runs: dict[str, LargeMarginRun] = {}
    for _ in range(repeat):
        for engine in ("plain", "integer"):
            t0, c0 = time.perf_counter(), time.process_time()
            runs[engine] = call(engine)
            times[engine][0].append(time.perf_counter() - t0)
            times[engine][1].append(time.process_time() - c0)
    plain, fast = (
        (runs[e], statistics.median(times[e][0]), statistics.median(times[e][1]))
        for e in ("plain", "integer")
    )
    return plain, fast


def rows_for(name: str, repeat: int, sonar_epochs: int) -> list[dict[str, Any]]:
    ds = problem(name)
    ds.scaled_patterns  # parsed and scaled once, outside the timings  # noqa: B018
    ds.pattern_array  # and the rows as one int64 array (a per-dataset cache, like the above)  # noqa: B018
    epochs = sonar_epochs if name == "sonar" else 100_000
    beta = Fraction(0)
    algorithms: list[tuple[str, Callable[[ReferenceEngine], LargeMarginRun]]] = [
        ("PDM(1/10)", lambda e: run_pdm(ds, TENTH, max_epochs=epochs, engine=e)),
        (
            "PDM(1/10), multiple updates",
            lambda e: run_pdm(ds, TENTH, max_epochs=epochs, multiple_updates=True, engine=e),
        ),
        ("PDM(1/100)", lambda e: run_pdm(ds, Fraction(1, 100), max_epochs=epochs, engine=e)),
        ("PFM(beta)", lambda e: run_pfm(ds, beta, max_epochs=epochs, engine=e)),
        (
            "PDM-succ(1/2, 1/4, 1/10)",
            lambda e: run_pdm_succ(ds, [Fraction(1, 2), Fraction(1, 4), TENTH], max_epochs=epochs, engine=e),
        ),
    ]
    out = []
    for label, call in algorithms:
        (plain, plain_s, plain_cpu), (fast, fast_s, fast_cpu) = clock(call, repeat)
        if label == "PDM(1/10)":
            beta = directional_margin_floor(fast, ds) / 2
        shown = f"PFM(beta = {float(beta):.6f})" if label == "PFM(beta)" else label
        out.append(row(name, ds, shown, (plain, plain_s, plain_cpu), (fast, fast_s, fast_cpu)))
        print(
            f"# {name} {shown}: plain {plain_s:.2f} s, integer {fast_s:.3f} s, "
            f"{fast.mistakes} updates, same run {out[-1]['same']}",
            flush=True,
        )
    return out


def readme_problem(name: str) -> Dataset:
    """``bench_pdm_paper.py``'s data, exactly: min-max scaled floats read as their exact dyadic
    values, the soft-margin extension Delta = 1, bias 1."""
    ds = load(name)
    X, y = ds.to_numpy()
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    X = np.where(span > 0, (X - lo) / np.where(span > 0, span, 1), 0.0)
    return soft_margin(Dataset.from_arrays(X, y, bias=1), 1)


def readme_call(
    ds: Dataset, label: str, multiple: bool, epochs: int
) -> Callable[[ReferenceEngine], LargeMarginRun]:
    """The run named ``label`` on ``ds``, for an engine."""

    def call(engine: ReferenceEngine) -> LargeMarginRun:
        options: dict[str, Any] = {"max_epochs": epochs, "multiple_updates": multiple, "engine": engine}
        if label.startswith("PDM("):
            return run_pdm(ds, Fraction(1, 100), **options)
        if label.startswith("PFM("):
            return run_pfm(ds, Fraction(1, 100), **options)
        return run_pdm_succ(ds, [Fraction(1, 2), Fraction(1, 4), Fraction(1, 100)], **options)

    return call


def readme_rows(names: list[str], epochs: int) -> list[dict[str, Any]]:
    """Every algorithm, with and without multiple updates, capped at ``epochs`` epochs, on the
    README's PDM rows with at most 800 samples: the same run on real data with huge scales."""
    out = []
    for name in names:
        ds = readme_problem(name)
        ds.scaled_patterns  # noqa: B018
        ds.pattern_array  # noqa: B018
        calls = [
            (f"{label}{', multiple updates' if multiple else ''}", readme_call(ds, label, multiple, epochs))
            for multiple in (False, True)
            for label in ("PDM(1/100)", "PFM(1/100)", "PDM-succ(1/2, 1/4, 1/100)")
        ]
        for label, call in calls:
            (plain, plain_s, plain_cpu), (fast, fast_s, fast_cpu) = clock(call, 1)
            _, scale = ds.scaled_patterns
            problem = f"{name} (scale 2^{scale.bit_length() - 1})"
            out.append(row(problem, ds, label, (plain, plain_s, plain_cpu), (fast, fast_s, fast_cpu)))
            print(f"# {name} {label}: same run {out[-1]['same']}, {fast.mistakes} updates", flush=True)
    return out


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| problem | m x d | algorithm | updates | epochs | plain s (CPU s) | integer s (CPU s) "
        "| plain / integer (CPU) | same run | values kept as |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        cells = [
            r["problem"],
            r["shape"],
            r["algorithm"],
            str(r["updates"]),
            str(r["epochs"]) + ("" if r["converged"] else " (capped)"),
            f"{r['plain_s']:.2f} ({r['plain_cpu']:.2f})",
            f"{r['fast_s']:.3f} ({r['fast_cpu']:.3f})",
            f"{r['plain_s'] / r['fast_s']:.1f}x ({r['plain_cpu'] / max(r['fast_cpu'], 1e-9):.1f}x)",
            str(r["same"]),
            r["arithmetic"],
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def section(rows: list[dict[str, Any]], load_before: float, load_after: float, repeat: int) -> str:
    ratios = [r["plain_cpu"] / max(r["fast_cpu"], 1e-9) for r in rows]
    return (
        "## The exact reference: integer fast path\n\n"
        "Generated by `benchmarks/bench_large_margin_reference.py --write` (do not edit by hand). "
        'The exact large-margin reference with `engine="plain"` (one exact dot product per '
        'presentation: the reference before the fast path) and `engine="integer"` (the decision '
        "values kept exactly and updated by Gram columns, the default), alternately in one process "
        "(plain, integer, plain, ...), "
        "each dataset parsed, scaled and converted to its int64 array (`Dataset.pattern_array`, "
        "cached per dataset) once before the timings; "
        f"median of {repeat} runs each. Machine: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, shared: load average {load_before:.1f} before, {load_after:.1f} "
        'after; CPU seconds in parentheses. "same run" compares updates, exact weights, epochs, '
        "stop, stages and checks of the two engines.\n\n"
        + table(rows)
        + f"\n\nplain / integer in CPU seconds: {min(ratios):.1f}x to {max(ratios):.1f}x over these "
        f"{len(rows)} runs; {sum(x >= 10 for x in ratios)} of {len(rows)} at least 10x; same run on "
        f"{sum(r['same'] for r in rows)} of {len(rows)}.\n"
    )


def write(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    if START not in doc or END not in doc:  # first write: the section goes at the end of the page
        doc = doc.rstrip("\n") + "\n\n" + START + "\n" + END + "\n"
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(head + START + "\n" + text + END + tail, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=PROBLEMS, default=list(PROBLEMS))
    parser.add_argument("--repeat", type=int, default=1, help="runs per engine, median reported")
    parser.add_argument("--sonar-epochs", type=int, default=1000, help="the cap on plain sonar")
    parser.add_argument("--readme", nargs="*", default=README, metavar="NAME", help="README rows to compare")
    parser.add_argument("--readme-epochs", type=int, default=100, help="the cap on the README rows")
    parser.add_argument("--write", action="store_true", help=f"write {DOC.relative_to(REPO)}")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    for name in args.only:
        rows.extend(rows_for(name, args.repeat, args.sonar_epochs))
    text = section(rows, load_before, os.getloadavg()[0], args.repeat)
    if args.readme:
        extra = readme_rows(args.readme, args.readme_epochs)
        text += (
            "\nThe same comparison on the README's PDM rows with at most 800 samples, on "
            "`bench_pdm_paper.py`'s data read exactly (min-max scaled floats are dyadic rationals, so "
            "the common scale is a large power of two and the kept values are Python ints), every "
            f"algorithm with and without multiple updates, each capped at {args.readme_epochs} epochs "
            f"(one run each): same run on {sum(r['same'] for r in extra)} of {len(extra)}.\n\n"
            + table(extra)
            + "\n"
        )
    print(text)
    if args.write:
        write(text)
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
