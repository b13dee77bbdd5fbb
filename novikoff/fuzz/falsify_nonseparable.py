"""The falsifier's non-separable campaign (``novikoff falsify --nonseparable``): bounds on the
perceptron's mistakes in T passes over data that need not be separable.

A bound may use R, R2, gamma, gamma2, m, d and the non-separable symbols D, deviation2 and T
(:data:`novikoff.fuzz.bounds.NONSEPARABLE_SYMBOLS`). It is read as a claim for *every*
direction u and margin gamma > 0 (the Freund-Schapire form): for each dataset the campaign
takes the direction and margin of :func:`novikoff.reference.nonseparable.nonseparable_bound`
(the best Freund-Schapire bound it finds, gamma optimized exactly) and evaluates the bound
there: gamma2 = gamma^2/||u||^2, deviation2 = T sum_i max(0, gamma - u.z_i/||u||)^2 (D = sqrt(deviation2)),
R2 = max ||z_i||^2, T the passes; the count is the exact perceptron's mistakes in those T
passes. A counterexample is therefore a dataset, an order, T and (u, gamma) at which the
claim fails; FS1 says ((R + D)/gamma)^2 never does.

1. **The extremal pre-check.** :func:`fs_extremal_dataset`
   (T1's basis e_1..e_n plus a label-flipped copy of e_1, scaled by 1 or 1/4; n = 1..40 and
   up to 200, T = 1, 2, 3) with u = e_1 + ... + e_n: there the count comes within a fraction of a
   percent of the Freund-Schapire bound (:func:`extremal_ratio`), so a bound below it by a
   constant factor fails at once.
2. **Hypothesis.** Non-separable data (:func:`~novikoff.fuzz.strategies.nonseparable_datasets`
   and :func:`label_noise_datasets`), an order and T in 1..5.
   A failure is shrunk by :func:`novikoff.fuzz.shrinking.shrink_failure`, each step
   re-decided exactly on data that are still non-separable.

The counterexample file's header records T, u and gamma (``"nonseparable"``), so
``novikoff replay`` re-derives every number from them and the data alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import strategies as st

from novikoff.certificates import GordanCertificate, SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational, parse_rational
from novikoff.fuzz.bounds import BOUND_SYMBOLS
from novikoff.fuzz.campaign import (
    Counterexample,
    FalsifyResult,
    ProgressCallback,
    Tally,
    bound_exceeded,
    bound_value,
    campaign_search,
)
from novikoff.fuzz.shrinking import shrink_failure
from novikoff.fuzz.strategies import nonseparable_datasets, orderings, separable_datasets
from novikoff.reference.nonseparable import NonseparableBound, nonseparable_bound
from novikoff.runtime.runs import Order

__all__ = [
    "CAMPAIGN",
    "EXTREMAL_FAMILY",
    "PASSES",
    "NonseparableCounterexample",
    "evaluable",
    "extremal_precheck",
    "extremal_ratio",
    "fs_extremal_dataset",
    "label_noise_datasets",
    "nonseparable_numbers",
    "replay_nonseparable",
    "search_nonseparable",
]

#: The example-database campaign name (the bound's key is made of it and the parsed bound).
CAMPAIGN = "perceptron-nonseparable"
#: The passes T a search draws.
PASSES = (1, 2, 3, 4, 5)
#: The pre-check: (sizes n, scales of the flipped copy, passes T).
EXTREMAL_FAMILY = ((*range(1, 41), 50, 64, 80, 100, 128, 160, 200), (Fraction(1), Fraction(1, 4)), (1, 2, 3))


@st.composite
def label_noise_datasets(draw: Any, max_dim: int = 4, max_samples: int = 8) -> Dataset:
    """Separable data (:func:`separable_datasets`) with one to three labels flipped, made surely
    non-separable: when the flips leave the data separable, the first sample is appended once
    more with the opposite label (a conflicting duplicate)."""
    ds = draw(separable_datasets(max_dim=max_dim, max_samples=max_samples, min_samples=2))
    rows = [ds.features(i) for i in range(ds.n_samples)]
    labels = list(ds.labels)
    for i in draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=3, unique=True)):
        labels[i] = -labels[i]
    noisy = Dataset.from_fraction_rows(rows, labels, bias=ds.bias, name="label-noise")
    if isinstance(certify(noisy), SeparableCertificate):
        noisy = Dataset.from_fraction_rows(
            [*rows, rows[0]], [*labels, -labels[0]], bias=ds.bias, name="label-noise"
        )
    return noisy


def fs_extremal_dataset(size: int, scale: Fraction | int = 1, copies: int = 1) -> Dataset:
    """T1's basis e_1..e_size (rho = 0, labels +1) followed by ``copies`` label-flipped copies of
    e_1 scaled by ``scale`` > 0 (x = scale e_1, y = -1, so z = -scale e_1): not separable.

    In natural order the perceptron errs on every e_i, then on the copies; each later pass
    errs again on e_1 and on the copies. With u = e_1 + ... + e_size the Freund-Schapire bound
    is close to the count when size is large and ``scale`` small (the deviation D then comes
    from the copies alone)."""
    if size < 1 or copies < 1 or Fraction(scale) <= 0:
        raise ValueError(
            f"fs_extremal_dataset: need size, copies >= 1 and scale > 0, got {size}, {copies}, {scale}"
        )
    c = Fraction(scale)
    q = c.denominator
    rows = [[q * int(i == j) for j in range(size)] for i in range(size)]
    flipped = [c.numerator * int(j == 0) for j in range(size)]
    return Dataset.from_integer_rows(
        [*rows, *([flipped] * copies)],
        q,
        [1] * size + [-1] * copies,
        bias=0,
        name=f"fs-extremal:{size}:{scale}:{copies}",
    )


def evaluable(bound: sp.Expr) -> sp.Expr:
    """``bound`` with D written as sqrt(deviation2), so that the campaign's values (exact rationals:
    R2, gamma2, deviation2, m, d, T) determine it; R and gamma are square roots already."""
    return bound.xreplace({BOUND_SYMBOLS["D"]: sp.sqrt(BOUND_SYMBOLS["deviation2"])})


def _values(ds: Dataset, fs: NonseparableBound) -> dict[str, Fraction]:
    return {
        "R2": fs.R2,
        "gamma2": fs.gamma2,
        "deviation2": fs.deviation2,
        "m": Fraction(ds.n_samples),
        "d": Fraction(ds.n_features),
        "T": Fraction(fs.passes),
    }


def nonseparable_numbers(
    ds: Dataset,
    passes: int,
    order: Order,
    direction: list[int] | None = None,
    gamma: Fraction | None = None,
) -> tuple[int, dict[str, Fraction], NonseparableBound]:
    """(the exact mistakes in ``passes`` passes, the bound's values, the Freund-Schapire bound)
    on ``ds`` in ``order``; ``direction`` and ``gamma`` fix u and gamma (a replay) instead of
    the search's choice. FS1 is checked on the run (InvariantViolation if it fails)."""
    fs = nonseparable_bound(ds, passes=passes, order=order, direction=direction, gamma=gamma)
    return fs.mistakes, _values(ds, fs), fs


@dataclass
class NonseparableCounterexample(Counterexample):
    """A counterexample of a non-separable campaign: also the passes T, the direction u and the
    margin gamma (in the units of u.z_i) at which the bound was evaluated."""

    passes: int = 1
    direction: tuple[Fraction, ...] = field(default_factory=tuple)
    gamma: Fraction = Fraction(0)

    def header(self) -> dict[str, Any]:
        """The campaign's header plus ``"nonseparable": {"passes", "u", "gamma"}``."""
        out = super().header()
        out["nonseparable"] = {
            "passes": self.passes,
            "u": [str(format_rational(v)) for v in self.direction],
            "gamma": str(format_rational(self.gamma)),
        }
        return out


def _counterexample(
    ds: Dataset, order: Order, bound: sp.Expr, source: str, numbers: tuple[int, dict[str, Fraction], Any]
) -> NonseparableCounterexample:
    mistakes, values, fs = numbers
    ce = NonseparableCounterexample(ds, order, mistakes, values, bound_value(bound, values), source)
    ce.passes, ce.direction, ce.gamma = fs.passes, tuple(fs.u), fs.gamma
    return ce


def extremal_precheck(bound: sp.Expr) -> tuple[int, NonseparableCounterexample | None]:
    """The extremal family (:data:`EXTREMAL_FAMILY`) with u = e_1 + ... + e_n: the number of
    datasets tried and the first on which the exact count exceeds ``bound`` (decided
    rigorously), or None."""
    exact = evaluable(bound)
    tried = 0
    sizes, scales, all_passes = EXTREMAL_FAMILY
    for passes in all_passes:
        for scale in scales:
            for n in sizes:
                tried += 1
                ds = fs_extremal_dataset(n, scale)
                numbers = nonseparable_numbers(ds, passes, None, [1] * n)
                if bound_exceeded(exact, numbers[0], numbers[1]):
                    source = f"extremal family with n = {n}, flipped copy scaled {scale}, T = {passes}"
                    return tried, _counterexample(ds, None, exact, source, numbers)
    return tried, None


def extremal_ratio(size: int, scale: Fraction = Fraction(1), passes: int = 1) -> float:
    """mistakes / Freund-Schapire bound on ``fs_extremal_dataset(size, scale)`` over ``passes``
    passes with u = e_1 + ... + e_size (gamma optimized): how nearly the family attains FS1."""
    _, _, fs = nonseparable_numbers(fs_extremal_dataset(size, scale), passes, None, [1] * size)
    value = fs.bound_float
    if value is None or value == 0:
        raise ValueError("the bound does not fit a float")
    return fs.mistakes / value


def _nonseparable() -> st.SearchStrategy[Dataset]:
    return st.one_of(nonseparable_datasets(max_dim=4, max_samples=6), label_noise_datasets())


def search_nonseparable(
    bound: sp.Expr,
    examples: int,
    seed: int,
    database: str | None,
    progress: ProgressCallback | None,
    campaign: str = CAMPAIGN,
    shrink_seconds: float = 20.0,
) -> FalsifyResult:
    """The Hypothesis search of the campaign (one process): see the module docstring."""
    exact = evaluable(bound)
    tally = Tally(exact, progress)

    def violates(example: tuple[Dataset, Order, int]) -> bool:
        ds, order, passes = example
        mistakes, values, _ = nonseparable_numbers(ds, passes, order)
        return tally.observe(mistakes, values)

    strategy = _nonseparable().flatmap(
        lambda ds: st.tuples(st.just(ds), orderings(ds.n_samples), st.sampled_from(PASSES))
    )
    found, stored = campaign_search(
        strategy, violates, exact, campaign, database, examples, seed, hypothesis_shrinks=False
    )
    if found is None:
        return FalsifyResult(bound, tally.tried, None, best_ratio=tally.best_ratio)
    ds, order, passes = found

    def still_fails(candidate: Dataset, candidate_order: Order) -> bool:
        if candidate.n_samples == 0 or not isinstance(certify(candidate), GordanCertificate):
            return False
        try:
            mistakes, values, _ = nonseparable_numbers(candidate, passes, candidate_order)
        except InputError:  # e.g. every pattern zero
            return False
        return bound_exceeded(exact, mistakes, values)

    ds, order = shrink_failure(ds, order, still_fails, budget_seconds=shrink_seconds)
    replayed, source = tally.provenance(stored)
    ce = _counterexample(ds, order, exact, source, nonseparable_numbers(ds, passes, order))
    return FalsifyResult(bound, tally.tried, ce, replayed=replayed, best_ratio=tally.best_ratio)


def replay_nonseparable(
    ds: Dataset, header: dict[str, Any], bound: sp.Expr, order: Order, path: str
) -> tuple[int, dict[str, Fraction], dict[str, str]]:
    """Re-derive a non-separable counterexample from its data and header: the exact mistakes in
    the recorded passes and order, and the values at the recorded u and gamma (R2, gamma2, deviation2
    recomputed exactly). Returns (mistakes, values, parameters shown); InputError names
    ``path`` for a bad header."""
    info = header.get("nonseparable")
    try:
        if not isinstance(info, dict):
            raise TypeError("'nonseparable' is not an object")
        passes = info["passes"]
        if isinstance(passes, bool) or not isinstance(passes, int) or passes < 1:
            raise ValueError(f"passes must be a positive integer, got {passes!r}")
        direction = [parse_rational(str(v)) for v in info["u"]]
        gamma = parse_rational(str(info["gamma"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{path}, line 1: bad replay header ({type(exc).__name__}: {exc})") from None
    if not isinstance(certify(ds), GordanCertificate):
        raise InputError(f"{path}: the data are separable; this is a non-separable campaign's file")
    if any(v.denominator != 1 for v in direction):
        raise InputError(f"{path}, line 1: the direction u must be integers")
    mistakes, values, _ = nonseparable_numbers(ds, passes, order, [int(v) for v in direction], gamma)
    params = {
        "passes": str(passes),
        "u": "(" + ", ".join(str(v) for v in direction) + ")",
        "gamma": str(gamma),
    }
    return mistakes, values, params
