"""Exact averaged and voted perceptrons (Freund and Schapire 1999).

Both are read off the exact perceptron's run (:func:`novikoff.reference.run_perceptron`):
presentation s = 1..N of the run (N = epochs x m, every presentation, the final clean
epoch included) leaves the weight w^(s); w_j is the weight after j updates (j = 0..k,
w_0 = 0), listed once per update even if two are equal as vectors; its survival count
c_j = #{s : w^(s) = w_j} is the number of presentations after which w_j was current
(so sum_j c_j = N, and c_0 = 0 because the first presentation, at w = 0, always updates).

- averaged: w_avg = (1/N) sum_{s=1..N} w^(s) = (1/N) sum_j c_j w_j, computed by the right
  side (no weight is stored per presentation);
- voted: the list (w_j, c_j); predict sign(sum_j c_j sign(w_j.x~)) with sign(0) = -1 in
  both places (ties predict -1).

Public API (stable; the fuzz registry calls the first two like ``run_perceptron``)::

    run_averaged(dataset, *, order=None, max_epochs=DEFAULT_MAX_EPOCHS,
                 certificate=None, track_norms=False) -> AveragedRun
    run_voted(dataset, *, order=None, max_epochs=DEFAULT_MAX_EPOCHS,
              certificate=None, track_norms=False) -> VotedRun
    averaged_from_run(dataset, run, order=None) -> AveragedRun   # any exact perceptron run
    voted_from_run(dataset, run, order=None) -> VotedRun
    survival_counts(updates, m, epochs, order=None) -> tuple[int, ...]   # c_0..c_k
    iter_voters(dataset, updates, counts) -> Iterator[(W_j integers, c_j)]  # w_j = W_j / s
    predict_averaged(weights, x_tilde) -> int          # +1 or -1
    predict_voted(weights, counts, x_tilde) -> int     # +1 or -1
    averaged_errors(dataset, weights) -> int           # training errors, exact
    voted_errors(dataset, voters) -> int               # voters: (weights, count) pairs

``x_tilde`` is the augmented input (x, rho), bias coordinate last, as long as the weights.
Every decision is an exact sign of an integer or Fraction; floats given as inputs are
taken at their exact dyadic value.

The records extend :class:`~novikoff.runtime.runs.RunRecord` (so ``updates``, ``epochs`` and
``converged`` are the perceptron's), which is a plain dataclass: a frozen subclass is not
possible, so the records are not frozen, but every field holds immutable values
(tuples of Fractions and ints).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import to_fraction
from novikoff.reference.kernels import dot
from novikoff.reference.perceptron import DEFAULT_MAX_EPOCHS, run_perceptron
from novikoff.runtime.runs import Order, RunRecord, epoch_order

__all__ = [
    "DEFAULT_MAX_EPOCHS",
    "AveragedRun",
    "VotedRun",
    "averaged_errors",
    "averaged_from_run",
    "iter_voters",
    "predict_averaged",
    "predict_voted",
    "run_averaged",
    "run_voted",
    "survival_counts",
    "voted_errors",
    "voted_from_run",
]


@dataclass
class AveragedRun(RunRecord):
    """The perceptron's run with ``weights`` = w_avg (exact Fractions, bias weight last).

    ``final_weights``: the perceptron's own last weights w_k; ``presentations``: N;
    ``weight_sum``: sum_{s=1..N} w^(s) exactly (= N w_avg); ``counts``: c_0..c_k."""

    weights: tuple[Fraction, ...]
    final_weights: tuple[Fraction, ...] = ()
    presentations: int = 0
    weight_sum: tuple[Fraction, ...] = ()
    counts: tuple[int, ...] = ()


@dataclass
class VotedRun(RunRecord):
    """The perceptron's run with its voters: ``voters[j] = (w_j, c_j)`` for j = 0..k.

    ``weights`` is the perceptron's last weight w_k (the last voter); the voted classifier
    is the whole list (:func:`predict_voted`). ``presentations`` is N = sum_j c_j."""

    weights: tuple[Fraction, ...]
    voters: tuple[tuple[tuple[Fraction, ...], int], ...] = ()
    presentations: int = 0

    @property
    def counts(self) -> tuple[int, ...]:
        """The survival counts c_0..c_k."""
        return tuple(c for _, c in self.voters)


def survival_counts(
    updates: Sequence[tuple[int, int]], m: int, epochs: int, order: Order = None
) -> tuple[int, ...]:
    """c_0..c_k for a run of ``epochs`` full epochs over ``m`` samples in ``order`` whose
    updates were ``updates`` ((epoch, sample) pairs, in run order).

    Guarantees: ``sum(c) == epochs * m``; c_j is the number of presentations s with
    w^(s) = w_j. InputError if an update lies outside the run or the updates are not in
    presentation order (each presentation updates at most once)."""
    presentation = epoch_order(order, m)
    total = epochs * m
    positions: list[int] = []  # 1-based presentation index of each update
    inverse: dict[int, int] = {}
    current = -1
    for epoch, i in updates:
        if not 0 <= epoch < epochs or not 0 <= i < m:
            raise InputError(f"updates: ({epoch}, {i}) is outside a run of {epochs} epochs over {m} samples")
        if epoch != current:
            inverse = {v: pos for pos, v in enumerate(presentation(epoch))}
            current = epoch
        p = epoch * m + inverse[i] + 1
        if positions and p <= positions[-1]:
            raise InputError(
                f"updates: ({epoch}, {i}) is not after the previous update in presentation order"
            )
        positions.append(p)
    bounds = [1, *positions, total + 1]  # w_j is current for presentations positions[j-1] .. positions[j]-1
    return tuple(bounds[j + 1] - bounds[j] for j in range(len(positions) + 1))


def iter_voters(
    dataset: Dataset, updates: Sequence[tuple[int, int]], counts: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], int]]:
    """(W_j, c_j) for j = 0..k, lazily: W_j the integer weights after j updates, w_j = W_j / s
    (s the dataset's pattern scale, ``dataset.scaled_patterns[1]``)."""
    if len(counts) != len(updates) + 1:
        raise InputError(f"counts: {len(counts)} counts for {len(updates)} updates (expected one more)")
    Z, _ = dataset.scaled_patterns
    W = (0,) * dataset.dimension
    yield W, counts[0]
    for (_, i), c in zip(updates, counts[1:]):
        W = tuple(a + b for a, b in zip(W, Z[i]))
        yield W, c


def _check_final(dataset: Dataset, run: RunRecord, W: tuple[int, ...]) -> tuple[Fraction, ...]:
    s = dataset.scaled_patterns[1]
    final = tuple(Fraction(v, s) for v in W)
    if tuple(Fraction(v) for v in run.weights) != final:
        raise InputError("run: its updates do not add up to its weights on this dataset")
    return final


def averaged_from_run(dataset: Dataset, run: RunRecord, order: Order = None) -> AveragedRun:
    """The averaged perceptron of an exact perceptron ``run`` on ``dataset`` (in ``order``).

    Guarantees: ``weights`` = (1/N) sum_j c_j w_j exactly, ``weight_sum`` = sum_j c_j w_j;
    InputError if the run's updates do not reproduce its weights."""
    counts = survival_counts(run.updates, dataset.n_samples, run.epochs, order)
    s = dataset.scaled_patterns[1]
    total = [0] * dataset.dimension
    W: tuple[int, ...] = ()
    for W, c in iter_voters(dataset, run.updates, counts):
        total = [a + c * b for a, b in zip(total, W)]
    final = _check_final(dataset, run, W)
    n = sum(counts)
    return AveragedRun(
        weights=tuple(Fraction(v, n * s) for v in total),
        updates=list(run.updates),
        epochs=run.epochs,
        converged=run.converged,
        invariants_checked=run.invariants_checked,
        norm2_history=list(run.norm2_history),
        algorithm="averaged",
        final_weights=final,
        presentations=n,
        weight_sum=tuple(Fraction(v, s) for v in total),
        counts=counts,
    )


def voted_from_run(dataset: Dataset, run: RunRecord, order: Order = None) -> VotedRun:
    """The voted perceptron of an exact perceptron ``run`` on ``dataset`` (in ``order``):
    every (w_j, c_j), j = 0..k. InputError if the run's updates do not reproduce its weights."""
    counts = survival_counts(run.updates, dataset.n_samples, run.epochs, order)
    s = dataset.scaled_patterns[1]
    voters = [(W, c) for W, c in iter_voters(dataset, run.updates, counts)]
    final = _check_final(dataset, run, voters[-1][0])
    return VotedRun(
        weights=final,
        updates=list(run.updates),
        epochs=run.epochs,
        converged=run.converged,
        invariants_checked=run.invariants_checked,
        norm2_history=list(run.norm2_history),
        algorithm="voted",
        voters=tuple((tuple(Fraction(v, s) for v in W), c) for W, c in voters),
        presentations=sum(counts),
    )


def run_averaged(
    dataset: Dataset,
    *,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
) -> AveragedRun:
    """The exact averaged perceptron: :func:`run_perceptron` (same arguments, same checks of
    N1-N3 with a certificate, at most ``max_epochs`` epochs), then :func:`averaged_from_run`."""
    run = run_perceptron(
        dataset, order=order, max_epochs=max_epochs, certificate=certificate, track_norms=track_norms
    )
    return averaged_from_run(dataset, run, order)


def run_voted(
    dataset: Dataset,
    *,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
) -> VotedRun:
    """The exact voted perceptron: :func:`run_perceptron`, then :func:`voted_from_run`."""
    run = run_perceptron(
        dataset, order=order, max_epochs=max_epochs, certificate=certificate, track_norms=track_norms
    )
    return voted_from_run(dataset, run, order)


def _exact_vector(values: Sequence[Any], name: str) -> list[Fraction]:
    try:
        return [to_fraction(v) for v in values]
    except TypeError:
        raise InputError(f"{name}: not a sequence of numbers") from None


def _sign(value: Fraction | int) -> int:
    """sign with sign(0) = -1 (ties predict -1)."""
    return 1 if value > 0 else -1


def _decision(weights: Sequence[Any], x_tilde: Sequence[Any]) -> Fraction:
    w = _exact_vector(weights, "weights")
    x = _exact_vector(x_tilde, "x_tilde")
    if len(w) != len(x):
        raise InputError(
            f"x_tilde: {len(x)} values for {len(w)} weights (x~ = (x, rho), bias coordinate last)"
        )
    return sum((a * b for a, b in zip(w, x)), Fraction(0))


def predict_averaged(weights: Sequence[Any], x_tilde: Sequence[Any]) -> int:
    """sign(w.x~) with sign(0) = -1, exactly: +1 iff w.x~ > 0."""
    return _sign(_decision(weights, x_tilde))


def predict_voted(weights: Sequence[Sequence[Any]], counts: Sequence[int], x_tilde: Sequence[Any]) -> int:
    """sign(sum_j c_j sign(w_j.x~)) with sign(0) = -1 in both places, exactly."""
    if len(weights) != len(counts):
        raise InputError(f"counts: {len(counts)} counts for {len(weights)} weight vectors")
    tally = 0
    for w, c in zip(weights, counts):
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise InputError(f"counts: expected nonnegative integers, got {c!r}")
        tally += c * _sign(_decision(w, x_tilde))
    return _sign(tally)


def _integer_weights(weights: Sequence[Any], d: int) -> list[int]:
    """The weights times their positive common denominator (signs of dot products unchanged)."""
    if len(weights) == d and all(type(v) is int for v in weights):  # iter_voters' W_j: as they are
        return list(weights)
    w = _exact_vector(weights, "weights")
    if len(w) != d:
        raise InputError(f"weights: {len(w)} values for patterns of dimension {d} (bias weight last)")
    den = math.lcm(*(v.denominator for v in w))
    return [v.numerator * (den // v.denominator) for v in w]


def _predictions(dataset: Dataset, W: Sequence[int]) -> list[int]:
    """sign(w.x~_i) (sign(0) = -1) for every sample, from z_i = y_i x~_i: w.x~_i = y_i w.z_i."""
    Z, _ = dataset.scaled_patterns
    return [_sign(y * dot(W, z)) for z, y in zip(Z, dataset.labels)]


def averaged_errors(dataset: Dataset, weights: Sequence[Any]) -> int:
    """#{i : predict_averaged(w, x~_i) != y_i}, exactly (a tie predicts -1: an error on a
    positive sample, correct on a negative one)."""
    W = _integer_weights(weights, dataset.dimension)
    return sum(1 for p, y in zip(_predictions(dataset, W), dataset.labels) if p != y)


def voted_errors(dataset: Dataset, voters: Iterable[tuple[Sequence[Any], int]]) -> int:
    """#{i : predict_voted(ws, cs, x~_i) != y_i}, exactly, streaming over (w_j, c_j) pairs.

    Each w_j may be given up to a positive factor (e.g. the integer W_j of
    :func:`iter_voters`): only signs of w_j.x~ enter the vote."""
    tally = [0] * dataset.n_samples
    for w, c in voters:
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise InputError(f"counts: expected nonnegative integers, got {c!r}")
        if c == 0:
            continue
        W = _integer_weights(w, dataset.dimension)
        tally = [t + c * p for t, p in zip(tally, _predictions(dataset, W))]
    return sum(1 for t, y in zip(tally, dataset.labels) if _sign(t) != y)
