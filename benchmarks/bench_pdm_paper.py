"""The PDM paper's comparison (its Table 1) replicated on the datasets available offline.

Protocol (the paper's, where its text survived; our choices where it did not):

- features min-max scaled into [0, 1]; bias rho = 1; the 2-norm soft-margin
  extension x_k -> (x_k, Delta e_k) with Delta = 1 (the paper's value of Delta was
  lost in extraction), kept sparse (CSR) for the twins;
- PDM(eps = 0.01) with multiple updates and active sets; PFM with beta set to the
  directional margin PDM achieved (rounded down to a rational); PDM-succ with
  eps halving from 1/2 to 0.01 (1/2, 1/4, ..., 1/64, 1/100: the paper's step was
  lost too); all with novikoff's float64 twins;
- a linear SVM for reference: scikit-learn LinearSVC (hinge loss, no intercept,
  C = 1e4, random_state=0) on the same augmented, extended patterns, its directional margin
  min_i w.z_i/||w||;
- gamma, the true maximum directional margin, from novikoff's exact certificate
  where m <= 800 (the certificate of the extended data is m x (d + m + 1)).

Usage: ``python benchmarks/bench_pdm_paper.py [--quick | --all]`` (quick: sonar,
ionosphere, wdbc; default adds pima, australian, german, spambase; --all adds magic).
Writes benchmarks/out/pdm_paper.md and prints it.
"""

from __future__ import annotations

import argparse
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import scipy.sparse as sps
from offline_data import OUT, load

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data import Dataset
from novikoff.runs import RunRecord
from novikoff.transforms import soft_margin
from novikoff.twins.large_margin import pdm_succ_twin, pdm_twin, pfm_twin

QUICK = ["sonar", "ionosphere", "wdbc"]
DEFAULT = [*QUICK, "pima", "australian", "german", "spambase"]
ALL = [*DEFAULT, "magic"]
EPS = Fraction(1, 100)
SUCC = [Fraction(1, 2**k) for k in range(1, 7)] + [EPS]
DELTA = 1.0


def patterns(X: np.ndarray, y: np.ndarray) -> sps.csr_matrix:
    """z_k = y_k (x_k, Delta e_k, 1) as CSR, in the twins' column order (extension, then bias)."""
    m = X.shape[0]
    ext = sps.hstack(
        [sps.csr_matrix(X), DELTA * sps.identity(m, format="csr"), np.ones((m, 1))], format="csr"
    )
    return sps.csr_matrix(sps.diags(y) @ ext)


def margin(Z: sps.csr_matrix, w: np.ndarray) -> float:
    return float((Z @ w).min() / np.linalg.norm(w))


def float_weights(run: RunRecord) -> np.ndarray:
    """A float twin's weights: a float64 array, never a tuple of Fractions."""
    assert isinstance(run.weights, np.ndarray)
    return run.weights


# (directional margin, updates (None for the SVM), seconds, converged)
Outcome = tuple[float, int | None, float, bool]


@dataclass
class Row:
    dataset: str
    m: int
    d: int
    runs: dict[str, Outcome] = field(default_factory=dict)  # pdm, pfm, succ, svm
    gamma: tuple[float, float] | None = None  # (exact gamma, seconds) where m <= 800


def row(name: str) -> Row:
    ds = load(name)
    X, y = ds.to_numpy()
    lo, span = X.min(axis=0), np.ptp(X, axis=0)
    X = np.where(span > 0, (X - lo) / np.where(span > 0, span, 1), 0.0)
    Z = patterns(X, y)
    Xext = sps.hstack([sps.csr_matrix(X), DELTA * sps.identity(X.shape[0], format="csr")], format="csr")
    out = Row(dataset=name, m=X.shape[0], d=X.shape[1])

    t0 = time.perf_counter()
    pdm = pdm_twin(Xext, y, eps=EPS, multiple_updates=True, active_sets=True, max_epochs=100_000)
    out.runs["pdm"] = (margin(Z, float_weights(pdm)), pdm.mistakes, time.perf_counter() - t0, pdm.converged)
    beta = Fraction(out.runs["pdm"][0])
    t0 = time.perf_counter()
    pfm = pfm_twin(Xext, y, beta=beta, multiple_updates=True, active_sets=True, max_epochs=100_000)
    out.runs["pfm"] = (margin(Z, float_weights(pfm)), pfm.mistakes, time.perf_counter() - t0, pfm.converged)
    t0 = time.perf_counter()
    succ = pdm_succ_twin(Xext, y, epsilons=SUCC, multiple_updates=True, active_sets=True, max_epochs=100_000)
    out.runs["succ"] = (
        margin(Z, float_weights(succ)),
        succ.mistakes,
        time.perf_counter() - t0,
        succ.converged,
    )

    from sklearn.svm import LinearSVC

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # seeded: LIBLINEAR's dual coordinate descent visits samples in a random order
        svm = LinearSVC(
            loss="hinge", fit_intercept=False, C=1e4, tol=1e-8, max_iter=200_000, random_state=0
        ).fit(sps.hstack([Xext, np.ones((X.shape[0], 1))], format="csr"), y)
    out.runs["svm"] = (margin(Z, svm.coef_.ravel()), None, time.perf_counter() - t0, True)

    if X.shape[0] <= 800:
        t0 = time.perf_counter()
        exact = soft_margin(Dataset.from_arrays(X, y, bias=1), Fraction(DELTA))
        cert = certify(exact)
        assert isinstance(cert, SeparableCertificate)
        out.gamma = (float(cert.gamma2) ** 0.5, time.perf_counter() - t0)
    return out


def table(rows: list[Row]) -> str:
    head = (
        "| dataset | m x d | PDM margin | PDM upd | PDM s | PFM margin | PFM upd | PFM s "
        "| PDM-succ margin | succ upd | succ s | SVM margin | SVM s | exact gamma |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    lines = [head]
    for r in rows:
        cells = [r.dataset, f"{r.m} x {r.d}"]
        for key in ("pdm", "pfm", "succ"):
            g, upd, sec, conv = r.runs[key]
            cells += [f"{g:.6f}" + ("" if conv else " (not converged)"), str(upd), f"{sec:.2f}"]
        g, _, sec, _ = r.runs["svm"]
        cells += [f"{g:.6f}", f"{sec:.2f}"]
        cells.append(f"{r.gamma[0]:.6f}" if r.gamma is not None else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true")
    group.add_argument("--all", action="store_true")
    parser.add_argument("--only", nargs="+", metavar="NAME")
    args = parser.parse_args()
    names = args.only or (QUICK if args.quick else ALL if args.all else DEFAULT)
    rows = []
    for name in names:
        t0 = time.perf_counter()
        rows.append(row(name))
        print(f"# {name} done in {time.perf_counter() - t0:.1f} s", flush=True)
    text = table(rows)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "pdm_paper.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
