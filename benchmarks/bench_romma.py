"""ROMMA beside PDM(0.01), PFM, PDM-succ and the SVM on the README's PDM table (the PDM paper's Table 2).

Issue 18 item 5. Protocol: ``bench_pdm_paper.py``'s (features min-max scaled into [0, 1],
the soft-margin extension with Delta = 1, bias 1), on its datasets. Per dataset:

- PDM(0.01), PFM (beta = the margin PDM achieved, rounded down to a rational) and PDM-succ
  (eps = 1/2, ..., 1/64, 1/100): the compiled twins with multiple updates and active sets,
  exactly as ``bench_large_margin_compiled.py`` runs them;
- ROMMA (Li and Long 2002, DESIGN 2b), the float64 twin :mod:`novikoff.twins.romma` on the
  dense patterns, conservative (update on w.z <= 0) and aggressive with eps = 0.01 (update
  on w.z < 1 - eps, the accuracy-controlled stop of the PDM paper's comparison: at
  convergence min_i w.z_i >= 1 - eps and ||w|| <= 1/gamma, so the margin is at least
  (1 - eps) gamma), each for at most ``--romma-epochs`` epochs (1,000);
- LinearSVC (hinge loss, no intercept, C = 1e4, random_state 0) on the same patterns.

Reported: updates (for ROMMA also its mistakes w.z <= 0), seconds, whether the run
converged, the achieved directional margin min_i w.z_i/||w|| and its ratio to gamma, the
exact maximum margin from novikoff's certificate (m <= 800).

ROMMA's twin against the exact reference. The exact ROMMA
(:func:`novikoff.reference.romma.run_romma`) runs on the exact data (m <= 800) for its
first ``--exact-updates`` updates (10: its numbers double in bit length with every
update, and 12 updates already take about 30 s on sonar); the table says on how many of
these the twin made the same update (epoch, sample, kind), and how many close calls the
twin re-took exactly or left to floats after its own exact window (``EXACT_UPDATES``).
Beyond that window nothing compares the twin with an exact run.

Usage: ``nice -n 10 python benchmarks/bench_romma.py [--only sonar ...] [--romma-epochs N]
[--exact-updates K] [--write]``; ``--write`` puts the table into docs/replications-romma.md
between its markers.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sps
from _common import REPO, write_between
from bench_large_margin_compiled import OPTIONS, warm_up
from bench_pdm_paper import DEFAULT, DELTA, EPS, SUCC, margin, patterns
from offline_data import load

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.transforms import soft_margin
from novikoff.reference.romma import run_romma
from novikoff.twins import compiled_large_margin
from novikoff.twins.large_margin import pdm_succ_twin, pdm_twin, pfm_twin
from novikoff.twins.romma import EXACT_UPDATES, romma_on_patterns

DOC = REPO / "docs" / "replications-romma.md"
START, END = "<!-- romma-table:start -->", "<!-- romma-table:end -->"
ROMMA_EPS = 0.01
#: Above this many rows the ROMMA twin's epoch cap is LARGE_EPOCHS: on spambase (4597 rows,
#: 4655 dense columns) conservative ROMMA took 180 s, and 1,000 aggressive epochs far longer.
LARGE, LARGE_EPOCHS = 2000, 50


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def exact_agreement(exact: Any, twin: Any) -> int:
    """How many of the exact run's updates the twin made identically (epoch, sample, kind), in order."""
    k = 0
    for a, b, ka, kb in zip(exact.updates, twin.updates, exact.kinds, twin.kinds):
        if (a, ka) != (b, kb):
            break
        k += 1
    return k


def dataset_rows(name: str, romma_epochs: int, exact_updates: int) -> list[dict[str, Any]]:
    ds = load(name)
    X, y = ds.to_numpy()
    if X.shape[0] > LARGE:
        romma_epochs = min(romma_epochs, LARGE_EPOCHS)
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    X = np.where(span > 0, (X - lo) / np.where(span > 0, span, 1), 0.0)
    Z = patterns(X, y)
    Xext = sps.hstack([sps.csr_matrix(X), DELTA * sps.identity(X.shape[0], format="csr")], format="csr")
    base = {"dataset": name, "shape": f"{X.shape[0]} x {X.shape[1]}"}
    exact: Dataset | None = None
    cert: SeparableCertificate | None = None
    if X.shape[0] <= 800:
        exact = soft_margin(Dataset.from_arrays(X, y, bias=1), Fraction(DELTA))
        found = certify(exact)
        assert isinstance(found, SeparableCertificate)
        cert = found
    gamma = float(cert.gamma2) ** 0.5 if cert is not None else None
    rows: list[dict[str, Any]] = []

    def add(label: str, run: Any, seconds: float, w: np.ndarray, **extra: Any) -> None:
        rows.append(
            {
                **base,
                "algorithm": label,
                "updates": run.mistakes if run is not None else None,
                "seconds": seconds,
                "converged": run.converged if run is not None else True,
                "margin": margin(Z, w),
                "gamma": gamma,
                **extra,
            }
        )
        print(f"# {name} {label}: {seconds:.2f} s", flush=True)

    pdm, s = timed(pdm_twin, Xext, y, eps=EPS, engine="compiled", **OPTIONS)
    add("PDM(0.01)", pdm, s, pdm.weights)
    beta = Fraction(margin(Z, pdm.weights))
    pfm, s = timed(pfm_twin, Xext, y, beta=beta, engine="compiled", **OPTIONS)
    add("PFM", pfm, s, pfm.weights)
    succ, s = timed(pdm_succ_twin, Xext, y, epsilons=SUCC, engine="compiled", **OPTIONS)
    add("PDM-succ", succ, s, succ.weights)

    dense = Z.toarray()
    for aggressive in (False, True):
        eps = ROMMA_EPS if aggressive else 0.0
        label = f"ROMMA, aggressive eps = {eps}" if aggressive else "ROMMA"
        twin, s = timed(romma_on_patterns, dense, aggressive=aggressive, eps=eps, max_epochs=romma_epochs)
        note = f"{twin.exact_decisions} close calls re-taken exactly, {twin.unresolved} left to floats"
        if twin.stopped:
            note += f"; stopped: {twin.stopped}"
        if exact is not None and cert is not None:
            ref, ref_s = timed(
                run_romma,
                exact,
                aggressive=aggressive,
                eps=Fraction(eps).limit_denominator(1000),
                certificate=cert,
                max_updates=exact_updates,
                max_epochs=romma_epochs,
            )
            same = exact_agreement(ref, twin)
            note = (
                f"twin = exact run on {same} of its first {len(ref.updates)} updates "
                f"(exact {ref_s:.1f} s); " + note
            )
        add(label, twin, s, twin.weights, mistakes=twin.mistake_count, note=note)

    from sklearn.svm import LinearSVC

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        svm = LinearSVC(
            loss="hinge", fit_intercept=False, C=1e4, tol=1e-8, max_iter=200_000, random_state=0
        ).fit(sps.hstack([Xext, np.ones((X.shape[0], 1))], format="csr"), y)
    add("LinearSVC", None, time.perf_counter() - t0, svm.coef_.ravel())
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| dataset | m x d | algorithm | updates (mistakes) | seconds | converged | margin "
        "| margin / gamma | notes |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        updates = "-" if r["updates"] is None else str(r["updates"])
        if "mistakes" in r:
            updates += f" ({r['mistakes']})"
        quality = f"{r['margin'] / r['gamma']:.4f}" if r["gamma"] else "-"
        cells = [
            r["dataset"],
            r["shape"],
            r["algorithm"],
            updates,
            f"{r['seconds']:.2f}",
            "yes" if r["converged"] else "no (epoch cap)",
            f"{r['margin']:.6f}",
            quality,
            r.get("note", ""),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(rows: list[dict[str, Any]]) -> str:
    """One line per algorithm: converged runs and the range of margin / gamma (where gamma is known)."""
    lines = []
    for algorithm in dict.fromkeys(r["algorithm"] for r in rows):
        mine = [r for r in rows if r["algorithm"] == algorithm]
        ratios = [r["margin"] / r["gamma"] for r in mine if r["gamma"]]
        line = f"- {algorithm}: converged on {sum(r['converged'] for r in mine)} of {len(mine)} datasets"
        if ratios:
            line += f"; margin / gamma {min(ratios):.4f} to {max(ratios):.4f} on the {len(ratios)} with gamma"
        seconds = sum(r["seconds"] for r in mine)
        lines.append(line + f"; {seconds:.1f} s in all.")
    return "\n".join(lines)


def write(text: str) -> None:
    write_between(DOC, START, END, text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", default=DEFAULT)
    parser.add_argument("--romma-epochs", type=int, default=1000, help="epoch cap of the ROMMA twin")
    parser.add_argument("--exact-updates", type=int, default=10, help="updates of the exact ROMMA run")
    parser.add_argument("--write", action="store_true", help=f"write {DOC.relative_to(REPO)}")
    args = parser.parse_args()
    if not compiled_large_margin.available():
        raise SystemExit("numba is not installed (pip install novikoff[fast])")
    load_before = os.getloadavg()[0]
    warm_up()
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for name in args.only:
        rows.extend(dataset_rows(name, args.romma_epochs, args.exact_updates))
    text = (
        f"Generated by `benchmarks/bench_romma.py --write` (do not edit by hand) in "
        f"{time.perf_counter() - t0:.0f} s on {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, shared (load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after); ROMMA's epoch cap {args.romma_epochs} "
        f"({min(args.romma_epochs, LARGE_EPOCHS)} above {LARGE} rows), the exact ROMMA's "
        f"{args.exact_updates} updates, the twin's exact window {EXACT_UPDATES} updates.\n\n"
        + table(rows)
        + "\n\n"
        + summary(rows)
    )
    print(text)
    if args.write:
        write(text)
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
