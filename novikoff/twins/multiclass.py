"""The float64 multiclass perceptron twin: block scores, first argmax, restart after each update.

Independent of :mod:`novikoff.reference.multiclass`. ``numpy.argmax`` returns the
first maximal index, which is the reference's tie rule. On data whose float
arithmetic is exact its run equals the reference's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from novikoff.data.dataset import plain_features
from novikoff.data.multiclass import MulticlassData
from novikoff.errors import InputError
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order

__all__ = ["multiclass_twin"]

_FIRST_BLOCK = 16


def multiclass_twin(
    X: Any, y: Any | None = None, *, bias: float = 1.0, max_epochs: int = 1000, order: Order = None
) -> RunRecord:
    """Run the multiclass perceptron in float64. ``X`` is a MulticlassData, or an array with
    ``y`` holding class indices 0..K-1. ``weights`` of the record is the K x D matrix."""
    if isinstance(X, MulticlassData):
        A, labels, K = X.float_rows(), np.asarray(X.labels), X.n_classes
    else:
        if y is None:
            raise InputError("y is required unless X is a MulticlassData")
        Xa = np.asarray(plain_features(X, "X")[0], dtype=np.float64)  # DataFrame, sparse: as arrays
        labels = np.asarray(y)
        if Xa.ndim != 2 or Xa.shape[0] != labels.shape[0] or not np.isfinite(Xa).all():
            raise InputError("X must be a finite 2-D array with one label per row")
        if not np.issubdtype(labels.dtype, np.integer) or labels.min() < 0:
            raise InputError("y must hold class indices 0..K-1")
        K = int(labels.max()) + 1
        A = Xa if bias == 0 else np.hstack([Xa, np.full((Xa.shape[0], 1), float(bias))])
    max_epochs = check_max_epochs(max_epochs)
    m, D = A.shape
    W = np.zeros((K, D))
    presentation = epoch_order(order, m)
    updates: list[tuple[int, int]] = []
    converged, epoch = False, 0
    for epoch in range(int(max_epochs)):
        idx = np.asarray(presentation(epoch), dtype=np.intp)
        Ao, yo = A[idx], labels[idx]
        clean, pos, block = True, 0, _FIRST_BLOCK
        while pos < m:
            scores = Ao[pos : pos + block] @ W.T
            wrong = np.flatnonzero(np.argmax(scores, axis=1) != yo[pos : pos + block])
            if wrong.size == 0:
                pos += block
                block = min(2 * block, m)
                continue
            j = pos + int(wrong[0])
            p = int(np.argmax(scores[wrong[0]]))
            W[yo[j]] += Ao[j]
            W[p] -= Ao[j]
            updates.append((epoch, int(idx[j])))
            clean = False
            pos, block = j + 1, _FIRST_BLOCK
        if clean:
            converged = True
            break
    return RunRecord(
        weights=W, updates=updates, epochs=epoch + 1, converged=converged, algorithm="multiclass"
    )
