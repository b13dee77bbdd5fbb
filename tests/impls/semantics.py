"""Perceptrons that differ from the textbook one by design, for the declared semantics of
``novikoff diff`` (tests/fuzz/test_diff_semantics.py): each must pass when its difference is
declared and be caught when it is not.

:func:`mlxtend_rule` emulates mlxtend's ``Perceptron`` (mlxtend 0.23.1,
``mlxtend/classifier/perceptron.py``: labels mapped to -1/+1, ``update = eta * (y -
pred)`` with ``pred = -1 if w.x + b < 0 else +1``, so sign(0) = +1 and a step of 2 eta y x;
every one of ``epochs`` epochs run). The real package could not be used: its ``fit``
raises ``TypeError: only 0-dimensional arrays can be converted to Python scalars`` under
numpy 2 (``int(update != 0.0)`` on a 1-element array), and it shuffles every epoch with its
own generator and starts from random weights; the emulation presents the given order
from zero weights, as an adapter that set ``w_``/``b_`` and the batch generator would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from novikoff.fuzz.contract import Unsupported
from novikoff.fuzz.semantics import shuffle_v1


def _loop(
    X: np.ndarray,
    y: np.ndarray,
    max_epochs: int,
    order: Any,
    *,
    mistake: Any = lambda p, yi: p <= 0,
    step: float = 1.0,
    w0: Sequence[float] | None = None,
    all_epochs: bool = False,
    shuffle_seed: int | None = None,
    ignore_order: bool = False,
) -> dict[str, Any]:
    """A float64 perceptron with the switches the declared semantics name."""
    m, d = X.shape
    Z = np.hstack([X, np.ones((m, 1))]) * y[:, None]
    w = np.zeros(d + 1) if w0 is None else np.array(w0, dtype=np.float64)
    given = list(range(m)) if order is None or ignore_order or isinstance(order, str) else list(order)
    updates: list[int] = []
    epochs, converged = 0, False
    for epoch in range(max_epochs):
        epochs += 1
        clean = True
        for i in shuffle_v1(shuffle_seed, epoch, m) if shuffle_seed is not None else given:
            if mistake(float(Z[i] @ w), y[i]):
                w = w + step * Z[i]
                updates.append(int(i))
                clean = False
        if clean:
            converged = True
            if not all_epochs:
                break
    return {
        "weights": w,
        "updates": updates,
        "mistakes": len(updates),
        "epochs": epochs,
        "converged": converged,
    }


def mlxtend_rule(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """mlxtend's Perceptron (module docstring) with eta = 0.1: a tie predicts +1, so it
    updates a negative sample only; all epochs run. Reports what mlxtend does: the weights
    and (``cost_``, the mistakes per epoch) the mistakes."""
    if len(np.unique(y)) < 2:
        raise Unsupported("mlxtend checks that the labels are {0, 1}")
    eta = 0.1
    out = _loop(
        X,
        y,
        max_epochs,
        order,
        mistake=lambda p, yi: p < 0 or (p == 0 and yi < 0),
        step=2 * eta,
        all_epochs=True,
    )
    return {"weights": out["weights"], "mistakes": out["mistakes"], "epochs": out["epochs"]}


def ignores_order(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """Always presents 0..m-1, whatever order it is given."""
    return _loop(X, y, max_epochs, order, ignore_order=True)


def shuffles(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """Presents epoch e in the order shuffle_v1(3, e, m) (the seed is built in)."""
    return _loop(X, y, max_epochs, order, shuffle_seed=3)


def margin_half_rate(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None, initial_weights: Any = None
) -> dict[str, Any]:
    """Updates iff y w.x~ <= 1 with w <- w + z / 2 from the initial weights it is given: the
    learning rate changes the decisions here (the margin is not scaled with it)."""
    return _loop(X, y, max_epochs, order, mistake=lambda p, yi: p <= 1, step=0.5, w0=initial_weights)


def strict_from(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None, initial_weights: Any = None
) -> dict[str, Any]:
    """No update on a tie (y w.x~ < 0), from the initial weights it is given."""
    return _loop(X, y, max_epochs, order, mistake=lambda p, yi: p < 0, w0=initial_weights)


def tenth_rate(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """The textbook rule with w <- w + 0.1 z: the same directions, but 0.1 is no float64
    value, so its weights are not exactly a multiple of the reference's."""
    return _loop(X, y, max_epochs, order, step=0.1)
