"""PDM and PFM implementations for the differential harness: novikoff's own twins, plain
loops, an equivalent one (learning rate 0.5), and broken ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from novikoff.twins.large_margin import pdm_twin, pfm_twin


def _record(r: Any) -> dict[str, Any]:
    return {"weights": r.weights, "updates": r.update_indices, "epochs": r.epochs, "converged": r.converged}


def twin_pdm(
    X: np.ndarray, y: np.ndarray, eps: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    # single updates: multiple updates present a sample several times in a row, another order
    return _record(pdm_twin(X, y, eps=eps, max_epochs=max_epochs, order=order))


def twin_pfm(
    X: np.ndarray, y: np.ndarray, beta: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _record(pfm_twin(X, y, beta=beta, max_epochs=max_epochs, order=order))


def _loop(
    X: np.ndarray, y: np.ndarray, max_epochs: int, order: Any, updates_if: Any, lr: float = 1.0
) -> dict[str, Any]:
    m, d = X.shape
    Z = np.hstack([X, np.ones((m, 1))]) * y[:, None]
    w = np.zeros(d + 1)
    t = 0
    idx = list(range(m)) if order is None else list(order)
    updates: list[int] = []
    converged, epochs = False, 0
    for _ in range(max_epochs):
        epochs += 1
        clean = True
        for i in idx:
            if updates_if(t, w @ Z[i], w @ w, lr):
                w = w + lr * Z[i]
                t += 1
                updates.append(i)
                clean = False
        if clean:
            converged = True
            break
    return {"weights": w, "updates": updates, "epochs": epochs, "converged": converged}


def pdm_loop(
    X: np.ndarray, y: np.ndarray, eps: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: t * p <= (1 - eps) * w2)


def pdm_half_rate(
    X: np.ndarray, y: np.ndarray, eps: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    # w scaled by 1/2: t (w.z) and ||w||^2 scale by 1/2 and 1/4, so compare t p/lr with w2/lr^2
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: t * p / lr <= (1 - eps) * w2 / lr**2, lr=0.5)


def pdm_counts_from_one(
    X: np.ndarray, y: np.ndarray, eps: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: (t + 1) * p <= (1 - eps) * w2)


def pdm_strict(
    X: np.ndarray, y: np.ndarray, eps: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: t * p < (1 - eps) * w2 or t == 0)


def pfm_loop(
    X: np.ndarray, y: np.ndarray, beta: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: p <= beta * np.sqrt(w2))


def pfm_beta_squared(
    X: np.ndarray, y: np.ndarray, beta: float, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    return _loop(X, y, max_epochs, order, lambda t, p, w2, lr: p <= beta * beta * np.sqrt(w2))


CORRECT: dict[str, list[Callable[..., dict[str, Any]]]] = {
    "pdm": [twin_pdm, pdm_loop, pdm_half_rate],
    "pfm": [twin_pfm, pfm_loop],
}
BROKEN: dict[str, list[Callable[..., dict[str, Any]]]] = {
    "pdm": [pdm_counts_from_one, pdm_strict],
    "pfm": [pfm_beta_squared],
}
