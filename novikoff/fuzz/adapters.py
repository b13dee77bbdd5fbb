"""Adapters for the implementations a campaign tests: a scikit-learn-style estimator
(:func:`sklearn_fit`), a ``MODULE:CALLABLE`` name (:func:`load_callable`), and the check
that what is tested is one callable or a runner (:func:`require_callable`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.fuzz.contract import FitFunction, Unsupported
from novikoff.fuzz.worker import Runner

__all__ = ["load_callable", "require_callable", "sklearn_fit"]


def sklearn_fit(estimator: Callable[..., Any], **params: Any) -> FitFunction:
    """Adapt a scikit-learn-style estimator class (``fit``, ``coef_``, ``intercept_``).

    ``max_epochs`` becomes ``max_iter``; an explicit ``order`` is not supported by such
    estimators and is presented by reordering the rows (same samples, same order each
    epoch), which is exact for ``shuffle=False``. The declared order ``sklearn:SEED``
    (passed as ``order="sklearn:SEED"``) sets ``shuffle=True, random_state=SEED``: the
    estimator's own shuffling, replicated by the reference. Notes name what differs from
    the textbook perceptron and the declared semantics that express it.
    """

    def fit(
        X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Sequence[int] | str | None = None
    ) -> dict[str, Any]:
        import warnings

        if len(np.unique(y)) < 2:
            raise Unsupported("scikit-learn estimators need two classes")
        extra: dict[str, Any] = {"max_iter": max_epochs}
        if isinstance(order, str):
            extra.update(shuffle=True, random_state=int(order.partition(":")[2]))
            idx = np.arange(len(y))
        else:
            idx = np.arange(len(y)) if order is None else np.asarray(order)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = estimator(**{**params, **extra}).fit(X[idx], y[idx])
        return {"weights": np.append(np.ravel(model.coef_), model.intercept_), "notes": _sklearn_notes(model)}

    return fit


def _sklearn_notes(model: Any) -> list[str]:
    """What an SGD-style estimator does unlike the textbook perceptron, each with the
    declared semantics that say it (docs/howto/diff.md)."""
    get = model.get_params()
    notes = []
    if get.get("loss", "perceptron") == "hinge":
        notes.append("loss='hinge' updates within margin 1: --margin 1")
    if get.get("penalty") == "l2" and get.get("alpha", 0):
        notes.append(f"penalty='l2' shrinks the weights by (1 - eta alpha) each step: --l2 {get['alpha']!r}")
    if get.get("learning_rate") == "optimal":
        notes.append("learning_rate='optimal' uses eta_t = 1 / (alpha (t0 + t - 1)): --schedule optimal")
    if get.get("tol") is not None:
        n = get.get("n_iter_no_change", 5)
        notes.append(
            f"tol={get['tol']!r} stops after n_iter_no_change={n} epochs without improving the "
            f"objective by tol: --stop tol:{get['tol']!r}:{n}"
        )
    if get.get("shuffle", False):
        notes.append("shuffle=True presents the samples in its own random order: --order sklearn:SEED")
    return notes


def load_callable(spec: str) -> Callable[..., Any]:
    """``module:attribute`` -> the object; InputError names what failed."""
    module_name, colon, attr = spec.partition(":")
    if not colon or not module_name or not attr:
        raise InputError(f"expected MODULE:CALLABLE, got {spec!r}")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except SystemExit as exc:
        raise InputError(f"cannot import {module_name!r}: it called sys.exit({exc.code!r})") from None
    except RecursionError:
        raise InputError(f"cannot import {module_name!r}: RecursionError") from None
    except Exception as exc:
        raise InputError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InputError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise InputError(f"{spec} is not callable")
    return obj


def require_callable(fit: Any, where: str) -> None:
    """TypeError naming ``where`` unless ``fit`` is one callable (or a Runner)."""
    if not callable(fit) and not isinstance(fit, Runner):
        raise TypeError(
            f"{where}: expected one callable fit(X, y, max_epochs=..., order=...), "
            f"got {type(fit).__name__} {_short_repr(fit)} (test several implementations with "
            "one decorator each)"
        )


def _short_repr(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."
