"""The float64 pocket twin: the perceptron twin's run, epoch-end weights by cumulative
sums, every epoch's training errors from one matrix product.

Independent of :mod:`novikoff.reference.pocket` (which replays updates exactly and
counts errors with integers). Error counts compare float decision values with 0,
so they equal the exact counts on data whose float arithmetic is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from novikoff.runtime.runs import Order, RunRecord
from novikoff.twins.perceptron import input_patterns, perceptron_on_patterns

__all__ = ["PocketTwinRun", "pocket_twin"]


@dataclass
class PocketTwinRun(RunRecord):
    pocket_weights: np.ndarray = field(default_factory=lambda: np.zeros(0))
    pocket_errors: int = 0
    pocket_epoch: int = 0
    errors_per_epoch: list[int] = field(default_factory=list)


def pocket_twin(
    X: Any, y: Any | None = None, *, bias: float = 1.0, max_epochs: int = 1000, order: Order = None
) -> PocketTwinRun:
    """The pocket algorithm in float64 (``X`` a Dataset, or arrays with ``y``)."""
    Z = input_patterns(X, y, bias)
    run = perceptron_on_patterns(Z, max_epochs=max_epochs, order=order)
    steps = np.zeros((run.epochs, Z.shape[1]))
    for epoch, i in run.updates:
        steps[epoch] += Z[i]
    ends = np.cumsum(steps, axis=0)  # epoch-end weights, one row per epoch
    errors = (Z @ ends.T <= 0).sum(axis=0).astype(int).tolist()
    best = int(np.argmin(errors))  # argmin takes the first minimum
    return PocketTwinRun(
        weights=run.weights,
        updates=run.updates,
        epochs=run.epochs,
        converged=run.converged,
        algorithm="pocket",
        pocket_weights=ends[best],
        pocket_errors=int(errors[best]),
        pocket_epoch=best,
        errors_per_epoch=errors,
    )
