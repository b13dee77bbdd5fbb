"""Multiclass perceptrons for the differential harness: correct, equivalent, twin, broken."""

from __future__ import annotations

from typing import Any

import numpy as np

from novikoff.twins.multiclass import multiclass_twin


def twin(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    r = multiclass_twin(X, y, max_epochs=max_epochs, order=order)
    return {"weights": r.weights, "updates": r.update_indices, "epochs": r.epochs, "converged": r.converged}


def _loop(
    X: np.ndarray,
    y: np.ndarray,
    max_epochs: int,
    order: Any,
    predict: Any,
    penalize: bool = True,
    lr: float = 1.0,
) -> dict[str, Any]:
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    K = int(y.max()) + 1
    W = np.zeros((K, A.shape[1]))
    idx = list(range(len(y))) if order is None else list(order)
    updates: list[int] = []
    converged, epochs = False, 0
    for _ in range(max_epochs):
        epochs += 1
        clean = True
        for i in idx:
            p = predict(W @ A[i])
            if p != y[i]:
                W[y[i]] += lr * A[i]
                if penalize:
                    W[p] -= lr * A[i]
                updates.append(i)
                clean = False
        if clean:
            converged = True
            break
    return {"weights": W, "updates": updates, "epochs": epochs, "converged": converged}


def first_argmax(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda s: int(np.argmax(s)))


def half_rate(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda s: int(np.argmax(s)), lr=0.5)


def last_argmax(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda s: int(len(s) - 1 - np.argmax(s[::-1])))


def no_penalty(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda s: int(np.argmax(s)), penalize=False)


CORRECT = [twin, first_argmax, half_rate]
BROKEN = [last_argmax, no_penalty]
