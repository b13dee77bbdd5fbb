"""Perceptron implementations for the differential harness: correct ones, an equivalent
one (learning rate 0.5), and one broken in each way the issue names."""

from __future__ import annotations

from typing import Any

import numpy as np

from novikoff.twins import perceptron_twin


def twin(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    r = perceptron_twin(X, y, max_epochs=max_epochs, order=order)
    return {
        "weights": r.weights,
        "updates": r.update_indices,
        "mistakes": r.mistakes,
        "epochs": r.epochs,
        "converged": r.converged,
    }


def _loop(
    X: np.ndarray,
    y: np.ndarray,
    max_epochs: int,
    order: Any,
    test: Any,
    lr: float = 1.0,
    bias_update: bool = True,
    skip_last: bool = False,
    use_label: bool = True,
    dtype: Any = np.float64,
    epochs_cap: int | None = None,
    count_bug: bool = False,
) -> dict[str, Any]:
    m, d = X.shape
    Z = np.hstack([X, np.ones((m, 1))]).astype(dtype)
    w = np.zeros(d + 1, dtype=dtype)
    idx = list(range(m)) if order is None else list(order)
    if skip_last:
        idx = idx[:-1]
    updates: list[int] = []
    converged, epochs = False, 0
    for _ in range(max_epochs if epochs_cap is None else min(epochs_cap, max_epochs)):
        epochs += 1
        clean = True
        for i in idx:
            yi = y[i] if use_label else 1.0
            if test(yi * (w @ Z[i])):
                step = (lr * yi * Z[i]).astype(dtype)
                if not bias_update:
                    step[-1] = 0
                w = w + step
                updates.append(i)
                clean = False
        if clean:
            converged = True
            break
    mistakes = len(updates) + (1 if count_bug and updates else 0)
    return {
        "weights": w.astype(np.float64),
        "updates": updates,
        "mistakes": mistakes,
        "epochs": epochs,
        "converged": converged,
    }


def correct(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda v: v <= 0)


def weights_only(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    return np.asarray(correct(X, y, max_epochs, order)["weights"])


def half_rate(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda v: v <= 0, lr=0.5)


BROKEN = {
    "strict <": lambda X, y, max_epochs=1000, order=None: _loop(X, y, max_epochs, order, lambda v: v < 0),
    "bias never updated": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, bias_update=False
    ),
    "last sample skipped": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, skip_last=True
    ),
    "label ignored": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, use_label=False
    ),
    "float32 accumulation": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, dtype=np.float32
    ),
    "one epoch only": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, epochs_cap=1
    ),
    "updates counted wrong": lambda X, y, max_epochs=1000, order=None: _loop(
        X, y, max_epochs, order, lambda v: v <= 0, count_bug=True
    ),
}


def raises(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    raise RuntimeError("boom")


def wrong_shape(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    return np.zeros(X.shape[1])


def returns_nan(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    return np.full(X.shape[1] + 1, np.nan)


def label_ignored(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """The "label ignored" bug as a module-level function: a Dask worker imports it by name."""
    return _loop(X, y, max_epochs, order, lambda v: v <= 0, use_label=False)
