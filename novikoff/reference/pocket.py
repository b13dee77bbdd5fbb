"""The exact pocket algorithm (the textbook, section 6.9; Gallant 1990).

Run the exact perceptron (:func:`novikoff.reference.run_perceptron`); after each
epoch count, exactly, the training errors of the current weights (samples with
w.z_i <= 0: a tie is an error, as it is a mistake for the update rule); keep the
first epoch-end weights with the fewest errors and return them with their count.

Guarantees: on separable data that converge within max_epochs, the pocket holds
the converged weights with 0 errors (the clean last epoch); in general its error
count is the exact minimum over all epoch-end weights of the run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from novikoff.data.dataset import Dataset
from novikoff.reference.kernels import dot
from novikoff.reference.perceptron import DEFAULT_MAX_EPOCHS, run_perceptron
from novikoff.runtime.runs import Order, RunRecord

__all__ = ["PocketRun", "run_pocket", "training_errors"]


@dataclass
class PocketRun(RunRecord):
    """A perceptron run plus its pocket: the first epoch-end weights with the fewest errors."""

    pocket_weights: tuple[Fraction, ...] = ()
    pocket_errors: int = 0
    pocket_epoch: int = 0  # 0-based epoch whose end produced the pocket weights
    errors_per_epoch: list[int] = field(default_factory=list)  # errors of the weights at each epoch's end
    mistakes_per_epoch: list[int] = field(default_factory=list)  # updates made during each epoch


def training_errors(dataset: Dataset, weights_numerators: list[int]) -> int:
    """#{i : w.z_i <= 0} for w = weights_numerators / s (s the dataset's pattern scale), exactly."""
    Z, _ = dataset.scaled_patterns
    return sum(1 for z in Z if dot(weights_numerators, z) <= 0)


def run_pocket(dataset: Dataset, *, order: Order = None, max_epochs: int = DEFAULT_MAX_EPOCHS) -> PocketRun:
    """The pocket algorithm over an exact perceptron run (see the module docstring).

    Args:
        dataset: The exact data (separable or not).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_epochs: The number of passes of the perceptron run.

    Returns:
        The perceptron's run with the pocket: the epoch-end weights with the fewest
        training errors (``pocket_weights``, ``pocket_errors``, ``pocket_epoch``; the
        earliest on ties) and every epoch's error count.

    Raises:
        InputError: A malformed ``order`` or ``max_epochs``.

    Examples:
        >>> from novikoff.data.dataset import Dataset
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1], [1, 2]], [1, 1, -1, -1, -1])
        >>> run = run_pocket(ds, max_epochs=20)
        >>> run.converged, run.pocket_errors, run.pocket_weights
        (False, 1, (Fraction(2, 1), Fraction(-2, 1), Fraction(-1, 1)))
    """
    run = run_perceptron(dataset, order=order, max_epochs=max_epochs)
    Z, s = dataset.scaled_patterns
    W = [0] * dataset.dimension
    by_epoch: list[list[int]] = [[] for _ in range(run.epochs)]
    for epoch, i in run.updates:
        by_epoch[epoch].append(i)
    errors: list[int] = []
    best: tuple[int, int, list[int]] | None = None  # (errors, epoch, W)
    for epoch, indices in enumerate(by_epoch):
        for i in indices:
            W = [a + b for a, b in zip(W, Z[i])]
        count = training_errors(dataset, W)
        errors.append(count)
        if best is None or count < best[0]:
            best = (count, epoch, list(W))
    assert best is not None  # max_epochs >= 1
    return PocketRun(
        weights=run.weights,
        updates=run.updates,
        epochs=run.epochs,
        converged=run.converged,
        algorithm="pocket",
        pocket_weights=tuple(Fraction(v, s) for v in best[2]),
        pocket_errors=best[0],
        pocket_epoch=best[1],
        errors_per_epoch=errors,
        mistakes_per_epoch=[len(ix) for ix in by_epoch],
    )
