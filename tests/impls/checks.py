"""Perceptrons each broken in exactly one property that ``novikoff diff`` checks: they run
the correct perceptron and then misreport one quantity, so exactly one named check must
fire (:mod:`novikoff.fuzz.checks`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.impls.perceptrons import correct


def updates_reversed(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Reports its updates last first."""
    out = correct(X, y, max_epochs, order)
    return {**out, "updates": out["updates"][::-1]}


def mistakes_plus_one(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Counts one mistake too many."""
    out = correct(X, y, max_epochs, order)
    return {**out, "mistakes": out["mistakes"] + 1}


def epochs_plus_one(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Counts one epoch too many."""
    out = correct(X, y, max_epochs, order)
    return {**out, "epochs": out["epochs"] + 1}


def converged_negated(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Reports the opposite convergence flag."""
    out = correct(X, y, max_epochs, order)
    return {**out, "converged": not out["converged"]}


def weights_negated(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Returns the final weights with their sign flipped."""
    out = correct(X, y, max_epochs, order)
    return {**out, "weights": -out["weights"]}


def weights_only(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Correct, and reports the weights alone."""
    return np.asarray(correct(X, y, max_epochs, order)["weights"])


CUTOFF = 2


def first_two_presented_only(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Broken on data with more than CUTOFF samples: each epoch presents only the first
    CUTOFF samples of the order (so it can differ only when m > CUTOFF); reports the
    weights alone."""
    idx = list(range(len(y))) if order is None else list(order)
    return np.asarray(correct(X[idx[:CUTOFF]], y[idx[:CUTOFF]], max_epochs, None)["weights"])


#: check name -> the implementation broken in that property alone.
BROKEN_IN = {
    "check_updates_match_reference": updates_reversed,
    "check_mistake_count": mistakes_plus_one,
    "check_epoch_count": epochs_plus_one,
    "check_convergence_flag": converged_negated,
    "check_weight_direction": weights_negated,
}
