"""A differential campaign: the extracted program against the Python reference.

:func:`run_campaign` is what ``novikoff verify --coq`` runs beside the kernel check: seeded
random datasets of every kind (any labels, separable, small integers and zeros so that
ties are frequent, biases 0, 1/2, 1 and 3), every order kind (natural, one permutation, a
cycle of permutations, a seeded shuffle) and runs cut by the epoch limit, for every
algorithm asked for (random K-class data for the multiclass perceptron; the voted
perceptron's voters and the averaged perceptron's weights compared too; no zero pattern for
the multiple updates), plus
the shipped examples; each run must be identical
in both. A mismatch is shrunk greedily (drop samples, zero features, fewer epochs, the
natural order) to a minimal dataset that still differs, and reported with its request.
Deterministic for a given ``seed``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.data.multiclass import MulticlassData
from novikoff.extracted.runner import (
    ExtractedError,
    Parameter,
    compare_runs,
    extracted_binary,
    format_request,
)
from novikoff.runtime.runs import Order, RunRecord

__all__ = ["DEFAULT_ALGORITHMS", "CampaignReport", "Mismatch", "run_campaign"]

EXAMPLES = ("exercise-6.1", "textbook-6.6:3", "textbook-6.9", "xor", "t1:12")
ROMMA_EXAMPLES = ("exercise-6.1", "textbook-6.6:3", "xor", "t1:12")


@dataclass(frozen=True)
class Case:
    """One input: data, order, epoch limit, algorithm and its parameter."""

    dataset: Dataset | MulticlassData
    order: Order
    max_epochs: int
    algorithm: str
    parameter: Parameter


@dataclass(frozen=True)
class Mismatch:
    """A case where the two runs differ, already shrunk: the differences and the request."""

    differences: tuple[str, ...]
    request: str


@dataclass
class CampaignReport:
    """How many runs were compared, per algorithm, and the mismatches (empty when all agree)."""

    runs: dict[str, int] = field(default_factory=dict)
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        total = sum(self.runs.values())
        per = ", ".join(f"{a} {n}" for a, n in self.runs.items())
        if self.agrees:
            return f"extracted program vs Python reference: {total} runs identical ({per})"
        return f"extracted program vs Python reference: {len(self.mismatches)} of {total} runs differ ({per})"


def _dataset(rng: random.Random) -> Dataset:
    m, d = rng.randint(1, 7), rng.randint(1, 3)
    values = [Fraction(v) for v in range(-3, 4)] + [Fraction(1, 2), Fraction(-2, 3), Fraction(5, 4)]
    rows = [[rng.choice(values) for _ in range(d)] for _ in range(m)]
    if rng.random() < 0.5:  # separable by a rational hyperplane
        u, b = [rng.randint(-2, 2) for _ in range(d)], rng.randint(-1, 1)
        scored = [(r, sum(a * x for a, x in zip(u, r)) + b) for r in rows]
        keep = [(r, s) for r, s in scored if s != 0] or [([Fraction(1)] * d, Fraction(1))]
        return Dataset.from_fraction_rows([r for r, _ in keep], [1 if s > 0 else -1 for _, s in keep], bias=1)
    labels = [rng.choice([-1, 1]) for _ in range(m)]
    return Dataset.from_fraction_rows(rows, labels, bias=rng.choice([0, Fraction(1, 2), 1, 3]))


def _multiclass(rng: random.Random) -> MulticlassData:
    m, d, k = rng.randint(2, 7), rng.randint(1, 3), rng.randint(2, 4)
    rows = [[Fraction(rng.randint(-2, 2), rng.choice([1, 2])) for _ in range(d)] for _ in range(m)]
    labels = [0, 1, *(rng.randrange(k) for _ in range(m - 2))]
    return MulticlassData.from_arrays(rows, labels, bias=rng.choice([0, Fraction(1, 2), 1]))


def _order(rng: random.Random, m: int) -> Order:
    kind = rng.randrange(4)
    if kind == 0:
        return None
    if kind == 1:
        return f"shuffle:{rng.randrange(2**31)}"
    perms = []
    for _ in range(1 if kind == 2 else rng.randint(1, 3)):
        p = list(range(m))
        rng.shuffle(p)
        perms.append(p)
    return perms[0] if kind == 2 else perms


def _parameter(rng: random.Random, algorithm: str) -> Parameter:
    if algorithm == "romma-aggressive":
        return Fraction(rng.randint(0, 5), 6)
    if algorithm == "pfm":
        return Fraction(rng.randint(0, 12), rng.randint(1, 4))
    if algorithm in ("pdm", "pdm-multiple"):
        return Fraction(rng.randint(1, 6), 6)
    if algorithm in ("pdm-succ", "pdm-succ-multiple"):
        return sorted({Fraction(rng.randint(1, 6), 6) for _ in range(rng.randint(1, 3))}, reverse=True)
    return None


def _nonzero_patterns(ds: Dataset) -> Dataset:
    """``ds``, with bias 1 if some pattern y_i (x_i, rho) is zero (multiple updates need
    ||z_i|| > 0: on z = 0 no count exists)."""
    if ds.bias != 0 or all(any(r) for r in ds.numerators):
        return ds
    rows = [[Fraction(v, ds.denominator) for v in r] for r in ds.numerators]
    return Dataset.from_fraction_rows(rows, list(ds.labels), bias=1)


def _differences(case: Case, binary: Path, reference: Callable[..., RunRecord] | None) -> list[str]:
    return compare_runs(
        case.dataset,
        order=case.order,
        max_epochs=case.max_epochs,
        binary=binary,
        algorithm=case.algorithm,
        parameter=case.parameter,
        reference=reference,
    )


def _smaller(case: Case) -> list[Case]:
    """Candidate simplifications of ``case``, simplest first."""
    ds, out = case.dataset, []
    if case.order is not None:
        out.append(Case(ds, None, case.max_epochs, case.algorithm, case.parameter))
    if case.max_epochs > 1:
        out.append(Case(ds, case.order, case.max_epochs - 1, case.algorithm, case.parameter))
    if not isinstance(ds, Dataset):  # multiclass data: the order and the epochs only
        return out
    m, den = ds.n_samples, ds.denominator
    rows = [[Fraction(v, den) for v in r] for r in ds.numerators]
    if m > 1 and case.order is None:
        for i in range(m):
            keep = [j for j in range(m) if j != i]
            sub = Dataset.from_fraction_rows(
                [rows[j] for j in keep], [ds.labels[j] for j in keep], bias=ds.bias
            )
            out.append(Case(sub, None, case.max_epochs, case.algorithm, case.parameter))
    for i in range(m):
        for j in range(ds.n_features):
            if rows[i][j] != 0:
                new = [list(r) for r in rows]
                new[i][j] = Fraction(0)
                out.append(
                    Case(
                        Dataset.from_fraction_rows(new, list(ds.labels), bias=ds.bias),
                        case.order,
                        case.max_epochs,
                        case.algorithm,
                        case.parameter,
                    )
                )
    return out


def _shrink(case: Case, binary: Path, reference: Callable[..., RunRecord] | None) -> Mismatch:
    diff = _differences(case, binary, reference)
    improved = True
    while improved:
        improved = False
        for smaller in _smaller(case):
            try:
                d = _differences(smaller, binary, reference)
            except ExtractedError:  # outside what the program runs (a zero pattern): not smaller
                continue
            if d:
                case, diff, improved = smaller, d, True
                break
    request = format_request(
        case.dataset,
        order=case.order,
        max_epochs=case.max_epochs,
        algorithm=case.algorithm,
        parameter=case.parameter,
    )
    return Mismatch(tuple(diff), request)


def _examples(algorithm: str) -> tuple[str, ...]:
    """The shipped examples run for ``algorithm``: none for the multiclass perceptron; for
    ROMMA those whose exact reference run stays short (its numbers double with every update)."""
    if algorithm == "multiclass":
        return ()
    if algorithm.startswith("romma"):
        return ROMMA_EXAMPLES
    return EXAMPLES


#: The algorithms a campaign compares unless told otherwise (``verify --coq`` runs these).
DEFAULT_ALGORITHMS: tuple[str, ...] = (
    "perceptron",
    "pfm",
    "pdm",
    "pdm-multiple",
    "pdm-succ",
    "pdm-succ-multiple",
    "multiclass",
    "voted",
    "averaged",
)


def run_campaign(
    examples: int = 50,
    seed: int = 0,
    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS,
    reference: Callable[..., RunRecord] | None = None,
    binary: Path | None = None,
) -> CampaignReport:
    """Compare ``examples`` random runs per algorithm and every shipped example (see the
    module docstring). ``reference`` replaces the Python reference (a test plants a bug
    there). ExtractedError when the program cannot be built."""
    program = binary or extracted_binary()
    rng = random.Random(seed)
    report = CampaignReport()
    for algorithm in algorithms:
        cases = []
        for _ in range(examples):
            ds: Dataset | MulticlassData = _multiclass(rng) if algorithm == "multiclass" else _dataset(rng)
            if algorithm in ("pdm-multiple", "pdm-succ-multiple") and isinstance(ds, Dataset):
                ds = _nonzero_patterns(ds)
            cases.append(
                Case(ds, _order(rng, ds.n_samples), rng.randint(1, 40), algorithm, _parameter(rng, algorithm))
            )
        for name in _examples(algorithm):
            cases.append(Case(load_example(name), None, 300, algorithm, _parameter(rng, algorithm)))
        report.runs[algorithm] = len(cases)
        for case in cases:
            if _differences(case, program, reference):
                report.mismatches.append(_shrink(case, program, reference))
                break  # one shrunk mismatch per algorithm is enough to act on
    return report
