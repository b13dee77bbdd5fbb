"""The falsifier's multiclass campaign: bounds on the multiclass perceptron's updates.

Symbols: R2 = max_i ||x~_i||^2 and R, gamma2 = gamma_K^2 (the Kesler margin, certified
exactly) and gamma, m, d and K (classes). Datasets are drawn with labels from a planted
W* whose argmax is strict, so they are Kesler-separable; the order is drawn too.
Every value is exact and ``updates > bound`` is decided as for the perceptron
(:func:`novikoff.fuzz.falsify.bound_exceeded`). There is no tight family like T1
to pre-check, no adversarial order and no exact shrinker here: Hypothesis shrinks
(the Kesler certificates of small data are cheap). M1 says updates <= 2 R2/gamma2.

The notes' false form (:data:`novikoff.spec.multiclass.NOTES_FREE_BIAS`, the binary
theorem with R = max ||x|| over the features and a separately chosen bias) has its own
search, :func:`search_notes_free_bias`: binary data planted by a threshold and shifted
away from the origin, the notes' perceptron (w <- w + y x, b <- b + y: the perceptron on
(x, 1)), R_x^2 and the exact geometric margin (the free-bias margin), each example decided
exactly by the statement itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import strategies as st
from hypothesis import target

from novikoff.certificates import SeparableCertificate, certify
from novikoff.certificates.solver import geometric_margin
from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData, kesler
from novikoff.errors import InputError
from novikoff.fuzz.campaign import (
    MAX_EPOCHS,
    Counterexample,
    FalsifyResult,
    Tally,
    bound_value,
    campaign_search,
)
from novikoff.fuzz.settings_space import RunSetting
from novikoff.fuzz.strategies import orderings
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.perceptron import run_perceptron
from novikoff.runtime.runs import Order
from novikoff.spec.multiclass import NOTES_FREE_BIAS, Rx2, gamma_b2

__all__ = [
    "NotesRefutation",
    "far_separable",
    "kesler_separable",
    "multiclass_numbers",
    "multiclass_replay_data",
    "multiclass_values",
    "notes_free_bias_values",
    "search_multiclass",
    "search_notes_free_bias",
]


@st.composite
def kesler_separable(draw: Any) -> tuple[MulticlassData, SeparableCertificate]:
    """K in 2..4 classes, d in 1..3 integer features in [-4, 4], labels the strict first argmax
    of a planted integer W* on (x, 1); with the exact Kesler certificate."""
    K, d = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    w_star = draw(
        st.lists(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1), min_size=K, max_size=K)
    )
    rows = draw(st.lists(st.lists(st.integers(-4, 4), min_size=d, max_size=d), min_size=2, max_size=8))
    labels = []
    for x in rows:
        scores = [sum(a * b for a, b in zip(w, [*x, 1])) for w in w_star]
        top = max(scores)
        if scores.count(top) > 1:
            continue
        labels.append((x, scores.index(top)))
    kept = [x for x, _ in labels]
    ys = [y for _, y in labels]
    if len(set(ys)) < 2:
        return draw(st.nothing())
    data = MulticlassData.from_arrays(kept, ys, name="generated")
    cert = certify(kesler(data))
    if not isinstance(cert, SeparableCertificate):  # a strict planted argmax separates: a solver bug
        raise AssertionError(f"planted multiclass data certified non-separable: {kept} {ys}")
    return data, cert


def multiclass_values(data: MulticlassData, cert: SeparableCertificate) -> dict[str, Fraction]:
    """The bound's symbols on ``data`` with its exact Kesler certificate ``cert``."""
    features = data.dimension - (1 if data.bias else 0)
    return {
        "R2": data.R2,
        "gamma2": cert.gamma2,
        "m": Fraction(data.n_samples),
        "d": Fraction(features),
        "K": Fraction(data.n_classes),
    }


def search_multiclass(
    bound: sp.Expr,
    examples: int,
    seed: int,
    database: str | None,
    progress: Any,
    campaign: str = "multiclass",
) -> FalsifyResult:
    """The Hypothesis search for the multiclass perceptron (one process; Hypothesis shrinks)."""
    tally = Tally(bound, progress)

    def updates_of(pair: tuple[MulticlassData, SeparableCertificate], order: Order) -> int:
        return run_multiclass(pair[0], order=order, max_epochs=MAX_EPOCHS).mistakes

    def violates(example: tuple[tuple[MulticlassData, SeparableCertificate], Order]) -> bool:
        pair, order = example
        return tally.observe(updates_of(pair, order), multiclass_values(*pair))

    strategy = kesler_separable().flatmap(lambda p: st.tuples(st.just(p), orderings(p[0].n_samples)))
    found, stored = campaign_search(
        strategy, violates, bound, campaign, database, examples, seed, hypothesis_shrinks=True
    )
    if found is None:
        return FalsifyResult(bound, tally.tried, None, best_ratio=tally.best_ratio)
    pair, order = found
    updates = updates_of(pair, order)
    values = multiclass_values(*pair)
    replayed, source = tally.provenance(stored)
    setting = RunSetting("multiclass")
    ce = Counterexample(pair[0], order, updates, values, bound_value(bound, values), source, setting)
    return FalsifyResult(bound, tally.tried, ce, replayed=replayed, best_ratio=tally.best_ratio)


def multiclass_numbers(
    data: MulticlassData, setting: RunSetting, order: Order
) -> tuple[int, dict[str, Fraction]] | None:
    """(exact updates, bound values) of the multiclass perceptron on ``data`` in ``order``,
    from a fresh Kesler certificate; None when the data are not Kesler-separable."""
    kcert = certify(kesler(data))
    if not isinstance(kcert, SeparableCertificate):
        return None
    updates = run_multiclass(data, order=order, max_epochs=MAX_EPOCHS).mistakes
    return updates, multiclass_values(data, kcert)


def multiclass_replay_data(
    rows: list[list[Fraction]], labels: list[int], bias: Fraction, header: dict[str, Any], name: str
) -> MulticlassData:
    """A counterexample file's rows as multiclass data: labels are class indices 0..K-1 with
    K recorded in the header as ``classes``; InputError otherwise."""
    k = header.get("classes")
    if not isinstance(k, int) or k < 2 or not all(0 <= c < k for c in labels):
        raise InputError(f"{name}: multiclass labels must be class indices 0..K-1 with K recorded")
    data = MulticlassData.from_arrays(rows, labels, bias=bias, name=name)
    return replace(data, labels=tuple(labels), class_names=tuple(str(c) for c in range(k)))


# ------------------------------------------------------------ the notes' false form


@dataclass(frozen=True)
class NotesRefutation:
    """A dataset on which the notes' bound fails: the notes' perceptron made ``updates``
    mistakes, more than ``Rx2 / gamma_b2`` (both exact)."""

    data: Dataset
    updates: int
    Rx2: Fraction
    gamma_b2: Fraction
    tried: int


def notes_free_bias_values(ds: Dataset) -> tuple[int, dict[str, Fraction]] | None:
    """(mistakes of the notes' perceptron from w = 0, b = 0, the statement's values) on the
    binary ``ds`` (its bias must be 1: b moves by +-1), or None when the classes' hulls meet
    (no separator with any bias) or the run does not converge in MAX_EPOCHS epochs.
    ``Rx2`` = max_i ||x_i||^2 without the bias; ``gamma_b2`` the exact squared geometric
    margin (the best unit w with a free b)."""
    if ds.bias != 1:
        raise InputError(
            f"{ds.name}: the notes' perceptron updates b by +-1: the bias must be 1, got {ds.bias}"
        )
    geo = geometric_margin(ds)
    if geo is None:
        return None
    run = run_perceptron(ds, max_epochs=MAX_EPOCHS)
    if not run.converged:
        return None
    rx2 = max(sum((v * v for v in ds.features(i)), Fraction(0)) for i in range(ds.n_samples))
    return run.mistakes, {"k": Fraction(run.mistakes), Rx2.name: rx2, gamma_b2.name: geo.margin2}


@st.composite
def far_separable(draw: Any) -> Dataset:
    """d in 1..2 integer features in [-4, 4] shifted by an offset in [0, 60] (every
    coordinate), labels from a planted integer threshold w.x > b (ties dropped), both classes
    present, bias 1."""
    d = draw(st.integers(1, 2))
    w = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    b = draw(st.integers(-6, 6))
    offset = draw(st.integers(0, 60))
    raw = draw(st.lists(st.lists(st.integers(-4, 4), min_size=d, max_size=d), min_size=2, max_size=6))
    rows, labels = [], []
    for x in raw:
        score = sum(a * v for a, v in zip(w, x)) - b
        if score != 0:
            rows.append([v + offset for v in x])
            labels.append(1 if score > 0 else -1)
    if len(set(labels)) < 2:
        return draw(st.nothing())
    return Dataset.from_arrays(rows, labels, bias=1, name="far_separable")


def search_notes_free_bias(examples: int, seed: int, database: str | None = None) -> NotesRefutation | None:
    """Search :func:`far_separable` for a dataset on which NOTES_FREE_BIAS is false (decided
    exactly by the statement); the first one found, Hypothesis-shrunk, or None."""
    bound = Rx2 / gamma_b2
    tried = [0]

    def violates(ds: Dataset) -> bool:
        tried[0] += 1
        got = notes_free_bias_values(ds)
        if got is None:
            return False
        updates, values = got
        target(updates * float(values[gamma_b2.name] / values[Rx2.name]), label="updates/bound")
        return not NOTES_FREE_BIAS.check(values)  # exact: k gamma_b2 <= Rx2 is false

    found, _ = campaign_search(
        far_separable(), violates, bound, "notes-free-bias", database, examples, seed, hypothesis_shrinks=True
    )
    if found is None:
        return None
    got = notes_free_bias_values(found)
    assert got is not None
    updates, values = got
    return NotesRefutation(found, updates, values[Rx2.name], values[gamma_b2.name], tried[0])
