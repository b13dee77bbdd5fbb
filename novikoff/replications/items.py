"""What each source document describes, where novikoff has it, and whether it is replicated.

:data:`ITEMS` is the table: one :class:`SeedItem` per claim, algorithm, table or figure of
the four sources (the textbook's chapter 6, the perceptron notes, the PDM paper, the
IJCAI-22 margin-distribution paper). ``where`` names what holds it: repository paths
(``novikoff/spec/pdm.py``, ``docs/figures.md``) and Python objects
(``novikoff.spec.pdm:D2``); ``tests/replications/test_seed_items.py`` checks that every one exists and
that the docs' table is :func:`format_items` of this data. Status is one of
:data:`STATUSES`; anything not fully replicated says why.

``python -m novikoff.replications.items`` prints the table; ``--write`` puts it into
docs/replications.md.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from novikoff.errors import InputError

__all__ = ["DOCUMENTS", "ITEMS", "STATUSES", "SeedItem", "counts", "format_items", "write_docs"]

#: replicated: reproduced and checked; refuted: false as written, its counterexample checked;
#: partial: part of it (the rest named in ``why``); missing: not in novikoff (``why`` says why).
STATUSES = ("replicated", "refuted", "partial", "missing")

DOCUMENTS = {
    "textbook": "the textbook, chapter 6 (The Perceptron Convergence Theorem)",
    "notes": "the perceptron notes (binary and multiclass)",
    "pdm": "the PDM paper (The Perceptron with Dynamic Margin)",
    "ijcai": "the IJCAI-22 paper (On the Optimization of Margin Distribution)",
}


@dataclass(frozen=True)
class SeedItem:
    """One item of a source document and its state in novikoff."""

    document: str  # a key of DOCUMENTS
    item: str
    status: str  # one of STATUSES
    where: tuple[str, ...]
    why: str = ""


_T, _N, _P, _I = "textbook", "notes", "pdm", "ijcai"

ITEMS: tuple[SeedItem, ...] = (
    # ---------------------------------------------------------------- the textbook
    SeedItem(_T, "6.2 the theorem: k <= R^2/gamma^2", "replicated", ("novikoff.spec.perceptron:N3",)),
    SeedItem(
        _T,
        "6.3 definitions: R, gamma, the bias trick",
        "replicated",
        ("novikoff/data/dataset.py", "docs/math.md"),
    ),
    SeedItem(_T, "6.4 step 1: progress w*.w_k >= k gamma", "replicated", ("novikoff.spec.perceptron:N1",)),
    SeedItem(_T, "6.4 step 2: energy ||w_k||^2 <= k R^2", "replicated", ("novikoff.spec.perceptron:N2",)),
    SeedItem(
        _T,
        "6.4 step 3: the squeeze",
        "replicated",
        ("novikoff.spec.perceptron:N3", "novikoff/proofs/perceptron.py"),
    ),
    SeedItem(_T, "6.5 the squeeze figure", "replicated", ("docs/figures.md", "docs/figures/squeeze.png")),
    SeedItem(_T, "6.5 the bound against R and gamma", "replicated", ("docs/figures/bound_sweep.png",)),
    SeedItem(_T, "6.5 the 78.7x ratio study", "replicated", ("docs/figures/ratio_study.png",)),
    SeedItem(
        _T,
        "6.6 the empirical verification table",
        "replicated",
        ("novikoff.replications.tables:seed_tables",),
    ),
    SeedItem(
        _T,
        "6.6 the table's missing row (separation 2)",
        "replicated",
        ("docs/replications.md",),
        "explained: that dataset is not linearly separable (a Gordan certificate)",
    ),
    SeedItem(_T, "6.6 the 100-trial summary", "replicated", ("docs/figures/trials100.png",)),
    SeedItem(_T, "6.7 the bound is tight (e_1, ..., e_n)", "replicated", ("novikoff.spec.tightness:T1",)),
    SeedItem(
        _T,
        "6.8 margin and generalization, the SVM preview",
        "partial",
        ("novikoff.certificates:certify",),
        "the maximum margin is certified exactly; the generalization claims are qualitative",
    ),
    SeedItem(
        _T,
        "6.8 PAC learning and the fat-shattering dimension",
        "missing",
        (),
        "qualitative remarks without a statement",
    ),
    SeedItem(_T, "6.9 the run without separability", "replicated", ("novikoff.data.examples:seed_6_9",)),
    SeedItem(
        _T,
        "6.9 the pocket algorithm",
        "replicated",
        ("novikoff.reference.pocket:run_pocket", "docs/figures/pocket.png"),
    ),
    SeedItem(_T, "exercise 6.1: R and gamma by hand", "replicated", ("novikoff.data.examples:exercise_6_1",)),
    SeedItem(_T, "exercise 6.2: dimension independence", "replicated", ("novikoff.spec.invariance:G1",)),
    SeedItem(
        _T,
        "exercise 6.3: achieving the bound",
        "replicated",
        ("novikoff.spec.tightness:T1", "docs/figures/squeeze_tight.png"),
    ),
    # ---------------------------------------------------------------- the notes
    SeedItem(
        _N,
        "the perceptron with a separate bias (w += y x, b += y)",
        "replicated",
        ("novikoff.reference.perceptron:run_perceptron",),
    ),
    SeedItem(
        _N,
        "the convergence theorem with R = max ||x|| and a separate bias",
        "refuted",
        (
            "novikoff.spec.multiclass:NOTES_FREE_BIAS",
            "novikoff.fuzz.falsify_multiclass:search_notes_free_bias",
        ),
        "false as written (x = 40, +1; x = 20, -1: 1,205 mistakes, bound 16); true on (x, 1) (N3)",
    ),
    SeedItem(_N, "uniform scaling keeps the bound", "replicated", ("novikoff.spec.invariance:G1",)),
    SeedItem(_N, "a far new point raises R, not gamma", "replicated", ("novikoff.spec.invariance:G1",)),
    SeedItem(
        _N, "the multiclass perceptron", "replicated", ("novikoff.reference.multiclass:run_multiclass",)
    ),
    SeedItem(
        _N,
        "a multiclass mistake bound",
        "replicated",
        ("novikoff.spec.multiclass:M1",),
        "the notes state none; M1 is the Kesler construction's",
    ),
    # ---------------------------------------------------------------- the PDM paper
    SeedItem(
        _P,
        "PFM: the perceptron with fixed margin",
        "replicated",
        ("novikoff.reference.large_margin:run_pfm",),
    ),
    SeedItem(
        _P,
        "PDM: the perceptron with dynamic margin",
        "replicated",
        ("novikoff.reference.large_margin:run_pdm",),
    ),
    SeedItem(_P, "(4): gamma <= ||w_t||/t", "replicated", ("novikoff.spec.pdm:D3",)),
    SeedItem(
        _P,
        "(5): the after-run margin estimate",
        "replicated",
        ("novikoff.reference.achieved:achieved_margin",),
    ),
    SeedItem(_P, "the converged margin exceeds (1 - eps) gamma", "replicated", ("novikoff.spec.pdm:D2",)),
    SeedItem(
        _P,
        "Theorem 3.1: PFM's update bound",
        "partial",
        ("novikoff.spec.pdm:P1",),
        "the printed constants were lost in extraction; derived here through Lemma 1",
    ),
    SeedItem(
        _P,
        "Theorem 3.2: PDM's update bounds",
        "partial",
        ("novikoff.spec.pdm:D1_ABOVE_HALF", "novikoff.spec.pdm:D1_HALF", "novikoff.spec.pdm:D1_BELOW_HALF"),
        "constants lost in extraction; the three regimes derived here",
    ),
    SeedItem(_P, "Lemma 1", "partial", ("novikoff.spec.pdm:L1",), "its form inferred from how it is used"),
    SeedItem(
        _P, "PDM-succ: successive runs", "replicated", ("novikoff.reference.large_margin:run_pdm_succ",)
    ),
    SeedItem(
        _P,
        "PDM-succ's ratio inequality",
        "partial",
        (
            "novikoff.spec.pdm:PDM_SUCC_RATIO",
            "novikoff.proofs.pdm.succ_ratio:obligation",
            "novikoff.reference.pdm_succ_ratio:check_pdm_succ_ratio",
        ),
        "derived here (constants lost), proved (Python checker and Coq); not yet in the theorem registry",
    ),
    SeedItem(_P, "multiple updates", "replicated", ("novikoff.spec.pdm:MU",)),
    SeedItem(
        _P,
        "three-level active sets",
        "partial",
        ("novikoff.twins.large_margin:pdm_twin",),
        "three_levels=True on the numpy engine only (not in the compiled kernel); the paper's values lost",
    ),
    SeedItem(
        _P,
        "multiple updates only after the first epoch; the first epoch's level parameter",
        "partial",
        ("novikoff.twins.large_margin:pdm_twin", "docs/replications.md"),
        "the paper's value of the first epoch's parameter was lost; three values are measured",
    ),
    SeedItem(_P, "permuted full epochs", "missing", (), "the benchmark presents the data in its order"),
    SeedItem(
        _P,
        "the 2-norm soft-margin extension",
        "replicated",
        ("novikoff.data.transforms:soft_margin",),
        "Delta's value was lost; Delta = 1",
    ),
    SeedItem(
        _P,
        "Table 1: PDM, PFM, PDM-succ, PFM at PDM-succ's margin",
        "partial",
        ("benchmarks/bench_pdm_paper.py", "docs/replications.md"),
        "the paper's datasets are not available offline: seven UCI sets instead",
    ),
    SeedItem(_P, "Table 2: DCD-L1 and DCD-L2", "replicated", ("benchmarks/bench_pdm_paper.py",)),
    SeedItem(
        _P,
        "Table 2: ROMMA",
        "replicated",
        ("novikoff.reference.romma:run_romma", "docs/replications-romma.md"),
    ),
    SeedItem(_P, "Table 2: SVM^perf", "missing", (), "no implementation available offline"),
    SeedItem(_P, "Table 2: MPU", "missing", (), "no implementation available offline"),
    # ---------------------------------------------------------------- the IJCAI-22 paper
    SeedItem(
        _I,
        "Definition 1 and (2): the squared margin loss at theta_h is SV/theta^2",
        "replicated",
        ("novikoff.spec.msvmav:S1",),
    ),
    SeedItem(
        _I, "Definition 2: the margin semi-variance", "replicated", ("novikoff.reference.msvmav:run_msvmav",)
    ),
    SeedItem(
        _I,
        "the relatively-good set H_nu",
        "partial",
        ("novikoff.reference.msvmav:run_msvmav",),
        "theta > 0 is kept (the sign flip), nu is not a parameter",
    ),
    SeedItem(
        _I,
        "Theorem 1: the margin-distribution generalization bound",
        "missing",
        (),
        "its formula was lost in extraction; its proof rests on Rademacher complexity, not formalized here",
    ),
    SeedItem(
        _I,
        "the linear and kernel Rademacher-complexity bounds",
        "partial",
        ("novikoff.spec.msvmav:RC1", "novikoff.reference.rademacher:rademacher_check"),
        "the linear bound is proved and checked on data; the kernel bound is not stated",
    ),
    SeedItem(
        _I,
        "Algorithm 1: linear MSVMAv",
        "replicated",
        ("novikoff.reference.msvmav:run_msvmav", "novikoff.twins.msvmav:msvmav_twin"),
    ),
    SeedItem(_I, "Sherman-Morrison updates of M", "replicated", ("novikoff.spec.msvmav:S2",)),
    SeedItem(
        _I,
        "kernel MSVMAv",
        "replicated",
        (
            "novikoff.reference.kernel_msvmav:run_kernel_msvmav",
            "novikoff.twins.kernel_msvmav:kernel_msvmav_twin",
        ),
    ),
    SeedItem(
        _I,
        "Table 1 (linear) with paired t-tests",
        "partial",
        ("benchmarks/bench_msvmav_table1.py", "docs/replications-msvmav.md"),
        "8 of the 30 datasets are available offline; SVM is the only baseline",
    ),
    SeedItem(
        _I,
        "Table 1's ODM baseline",
        "partial",
        ("novikoff.replications.odm:odm_fit", "benchmarks/bench_odm.py"),
        "7 offline datasets, 10 splits instead of 30",
    ),
    SeedItem(_I, "Table 1 baselines SVR, LSSVM, MAMC, FMM", "missing", (), "not built"),
    SeedItem(
        _I,
        "Table 2 (Gaussian kernel) with paired t-tests, against the SVM",
        "partial",
        ("benchmarks/bench_msvmav_kernel_table2.py", "docs/replications.md"),
        "4 offline datasets, a reduced grid (27 of 1,331 triples) and 10 splits, for time; no other baseline",
    ),
    SeedItem(
        _I,
        "Figure 1: the cumulative margin distribution",
        "partial",
        ("docs/figures/margin_cdf.png", "docs/figures/margin_cdf_odm.png"),
        "MSVMAv, SVM and ODM; the FMM curve is missing",
    ),
)


def counts(items: tuple[SeedItem, ...] = ITEMS) -> dict[str, Counter[str]]:
    """Status counts per document, and under "all"."""
    out: dict[str, Counter[str]] = {d: Counter() for d in DOCUMENTS}
    out["all"] = Counter()
    for it in items:
        out[it.document][it.status] += 1
        out["all"][it.status] += 1
    return out


def format_items(items: tuple[SeedItem, ...] = ITEMS) -> str:
    """The Markdown table of the items and a line of counts (the docs' text)."""
    c = counts(items)["all"]
    lines = [
        f"{len(items)} items: " + ", ".join(f"{c[s]} {s}" for s in STATUSES) + ".",
        "",
        "| document | item | status | where | why |",
        "| --- | --- | --- | --- | --- |",
    ]
    for it in items:
        where = ", ".join(f"`{w}`" for w in it.where) or "-"
        lines.append(f"| {it.document} | {it.item} | {it.status} | {where} | {it.why or '-'} |")
    return "\n".join(lines) + "\n"


def write_docs(page: Path) -> None:
    """Put :func:`format_items` between the page's seed-items markers; InputError naming the
    page when a marker is missing."""
    start, end = "<!-- seed-items:start -->", "<!-- seed-items:end -->"
    text = page.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise InputError(f"{page}: the markers {start} and {end} are missing")
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    page.write_text(head + start + "\n" + format_items() + end + tail, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--write"]:
        write_docs(Path(__file__).resolve().parent.parent / "docs" / "replications.md")
    else:
        print(format_items(), end="")
