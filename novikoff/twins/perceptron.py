"""The float64 perceptron twin: same contract and run record as the reference, vectorized.

Independent of the reference's decision code. The scan is the vectorized
scan-with-restart of :mod:`novikoff.twins.scan`: the update sequence is exactly
that of the sample-by-sample loop, given the same float dot products.

Exactness: if every pattern coordinate is an integer multiple of 2^-e and all
|w.z| and partial sums stay below 2^53 * 2^-2e, every float operation here is
exact and the run equals the exact reference's. The test suite generates data
inside such a bound (see ``novikoff.fuzz.strategies.FLOAT_EXACT_BOUND``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from novikoff.data import Dataset
from novikoff.errors import InputError
from novikoff.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.twins.scan import BlockScan

__all__ = ["input_patterns", "perceptron_on_patterns", "perceptron_twin", "twin_patterns"]


def twin_patterns(X: Any, y: Any, bias: float = 1.0) -> np.ndarray:
    """z_i = y_i (x_i, bias) as a C-contiguous float64 array (bias column only if bias != 0)."""
    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if Xa.ndim != 2 or Xa.shape[0] == 0:
        raise InputError(f"X must be a non-empty 2-D array, got shape {Xa.shape}")
    if ya.shape != (Xa.shape[0],):
        raise InputError(f"y must have shape ({Xa.shape[0]},), got {ya.shape}")
    if not np.isfinite(Xa).all():
        raise InputError("X contains NaN or infinity")
    if not np.isin(ya, (-1.0, 1.0)).all():
        raise InputError("y must hold only -1 and +1")
    if not np.isfinite(bias) or bias < 0:
        raise InputError(f"bias must be finite and >= 0, got {bias}")
    cols = [Xa] if bias == 0 else [Xa, np.full((Xa.shape[0], 1), float(bias))]
    return np.ascontiguousarray(np.hstack(cols) * ya[:, None])


def input_patterns(X: Any, y: Any | None, bias: float) -> np.ndarray:
    """The float64 patterns of a :class:`Dataset` (its own labels and bias), or of arrays
    ``X`` with labels ``y`` and ``bias`` (:func:`twin_patterns`)."""
    if isinstance(X, Dataset):
        return X.float_patterns()
    if y is None:
        raise InputError("y is required unless X is a Dataset")
    return twin_patterns(X, y, bias)


def perceptron_twin(
    X: Any,
    y: Any | None = None,
    *,
    bias: float = 1.0,
    max_epochs: int = 1000,
    order: Order = None,
) -> RunRecord:
    """Run the float64 perceptron; ``X`` may be a :class:`Dataset` (then ``y``, ``bias`` come from it).

    Guarantees the same contract as :func:`novikoff.reference.run_perceptron`:
    updates are (epoch, index) pairs, ``converged`` iff an epoch made no update.
    """
    return perceptron_on_patterns(input_patterns(X, y, bias), max_epochs=max_epochs, order=order)


def perceptron_on_patterns(Z: np.ndarray, *, max_epochs: int = 1000, order: Order = None) -> RunRecord:
    """The twin's run on patterns z_i = y_i (x_i, bias) already built (rows of ``Z``)."""
    max_epochs = check_max_epochs(max_epochs)
    m, d = Z.shape
    presentation = epoch_order(order, m)
    natural = order is None or order == "natural"
    w = np.zeros(d)
    updates: list[tuple[int, int]] = []
    converged = False
    epoch = 0
    scan = BlockScan()
    for epoch in range(int(max_epochs)):
        idx = None if natural else np.asarray(presentation(epoch), dtype=np.intp)
        Zo = Z if idx is None else Z[idx]
        clean = True
        # the values must see the current w (late binding is the point), and the
        # generator is used up inside this epoch, before Zo is rebound
        for j, _ in scan.epoch(m, lambda a, b: Zo[a:b] @ w):  # noqa: B023
            w += Zo[j]
            updates.append((epoch, j if idx is None else int(idx[j])))
            clean = False
        if clean:
            converged = True
            break
    return RunRecord(weights=w, updates=updates, epochs=epoch + 1, converged=converged)
