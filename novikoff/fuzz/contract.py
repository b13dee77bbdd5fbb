"""The contract between ``novikoff diff`` and anyone's implementation: how it is called,
what it may return, and how each family describes the reference's updates and labels.

Binary: ``fit(X, y, max_epochs=E, order=O)`` with ``X`` float64 (m x d), ``y`` in
{-1, +1}, ``order`` None (0..m-1 every epoch) or a list of sample indices presented
each epoch; PDM gets ``eps=``, PFM ``beta=``. It returns the weight vector (length
d+1, bias last, bias input 1) or a mapping/object with ``weights`` and any of
``mistakes``, ``updates`` (sample indices in update order), ``epochs``,
``converged``. A command speaking :mod:`novikoff.fuzz.protocol` answers the same
quantities in text; weights it writes as integers or p/q reach the checks exactly
(``exact_weights``).

Multiclass: the same call with ``y`` class indices 0..K-1 (int64); the weights are a
K x (d + 1) array (bias weight last) or flattened class after class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.exact.rational import format_rational
from novikoff.reference.multiclass import MulticlassRun
from novikoff.runtime.limits import TimeLimitReached, deadline
from novikoff.runtime.runs import RunRecord

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "CallTimeLimit",
    "FitFunction",
    "ImplementationError",
    "ImplementationResult",
    "Unsupported",
    "binary_label",
    "binary_update",
    "binary_weight_shapes",
    "call_implementation",
    "call_limit",
    "call_time_limit",
    "margin_before_update",
    "multiclass_label",
    "multiclass_update",
    "multiclass_weight_shapes",
    "normalize",
]

FitFunction = Callable[..., Any]

#: Seconds one call of an implementation may take (``novikoff diff --call-timeout``).
DEFAULT_CALL_TIMEOUT = 30.0


class CallTimeLimit(TimeLimitReached):
    """One call of an implementation outlived its per-call limit."""


class _CallBudget:
    """The per-call limit of the campaign under way, and whether a call already hung."""

    seconds: float | None = DEFAULT_CALL_TIMEOUT
    hung: bool = False


def call_limit() -> float | None:
    """The per-call limit set by :func:`call_time_limit` (None: unbounded)."""
    seconds = _CallBudget.seconds
    return seconds if seconds is not None and seconds > 0 else None


def call_time_limit(seconds: float | None) -> None:
    """Set the per-call limit (None or <= 0: unbounded) and forget earlier hung calls."""
    _CallBudget.seconds = seconds
    _CallBudget.hung = False


@dataclass
class ImplementationResult:
    """What an implementation returned, normalized (None: it did not say). ``weights`` are
    float64; ``exact_weights`` the same weights exactly, when a command wrote each of them as
    an integer or p/q (then the checks compare them exactly, on every data family)."""

    weights: np.ndarray
    mistakes: int | None = None
    updates: list[int] | None = None
    epochs: int | None = None
    converged: bool | None = None
    notes: list[str] = field(default_factory=list)
    exact_weights: tuple[Fraction, ...] | None = None


class ImplementationError(Exception):
    """The implementation raised or returned something outside the contract."""


class Unsupported(Exception):
    """Raised by an implementation (or adapter) for an input it does not handle by design,
    e.g. scikit-learn refusing single-class data; such examples are counted, not failed."""


def normalize(out: Any, d: int, shapes: Sequence[tuple[int, ...]] | None = None) -> ImplementationResult:
    """The implementation's answer in the contract's terms; weights flattened. Without
    ``shapes`` the weights must hold d + 1 numbers; with it, have one of those shapes.
    Anything else raises :class:`ImplementationError` saying what is wrong."""
    if isinstance(out, Mapping):
        get = out.get
    elif hasattr(out, "weights"):

        def get(key: str, default: Any = None) -> Any:
            return getattr(out, key, default)
    else:
        out = {"weights": out}
        get = out.get
    try:
        raw = np.asarray(get("weights"), dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ImplementationError(f"weights are not numeric: {exc}") from None
    w = raw.ravel()
    if shapes is not None and raw.shape not in shapes:
        wanted = " or ".join(str(sh) for sh in shapes)
        raise ImplementationError(f"weights have shape {raw.shape}, expected {wanted}")
    if shapes is None and w.shape != (d + 1,):
        raise ImplementationError(f"weights have shape {w.shape}, expected ({d + 1},) (bias last)")
    if not np.isfinite(w).all():
        raise ImplementationError("weights contain NaN or infinity")

    def as_int(key: str) -> int | None:
        v = get(key)
        if v is None:
            return None
        try:
            return int(v)
        except (TypeError, ValueError):
            raise ImplementationError(f"{key} is not an integer: {v!r}") from None

    updates = get("updates")
    try:
        upd = None if updates is None else [int(i) for i in updates]
    except (TypeError, ValueError):
        raise ImplementationError(f"updates is not a list of sample indices: {updates!r}") from None
    conv = get("converged")
    notes = list(get("notes") or [])
    exact = get("exact_weights")
    if exact is not None:  # a command answered the weights as exact rationals (novikoff.fuzz.protocol)
        exact = tuple(Fraction(v) for v in exact)
        if len(exact) != len(w):
            raise ImplementationError(f"exact weights: {len(exact)} values for {len(w)} weights")
    return ImplementationResult(
        w, as_int("mistakes"), upd, as_int("epochs"), None if conv is None else bool(conv), notes, exact
    )


def call_implementation(
    fit: FitFunction,
    ds: Any,
    order: Any,
    max_epochs: int,
    keyword: str | None = None,
    value: Fraction | None = None,
    weight_shapes: Sequence[tuple[int, ...]] | None = None,
) -> ImplementationResult:
    """Run ``fit`` on the float form of ``ds`` (a Dataset, or MulticlassData with
    ``weight_shapes``), passing ``keyword=float(value)`` when ``value`` is given.

    Guarantees: a call that raises, calls ``sys.exit``, returns outside the contract or
    outlives the per-call limit (:func:`call_time_limit`) raises ImplementationError
    saying what went wrong; after one hang, ``fit`` is not called again."""
    X, y = ds.to_numpy()
    presented = None if order is None else list(order)
    extra = {} if value is None or keyword is None else {keyword: float(value)}
    limit = _CallBudget.seconds
    if _CallBudget.hung:  # one hang is a finding; waiting out the limit again proves nothing more
        raise ImplementationError(f"not called: an earlier call did not return within {limit:g} s")
    try:
        with deadline(limit, lambda: CallTimeLimit(limit or 0, "the per-call limit")):
            out = fit(X.copy(), y.copy(), max_epochs=max_epochs, order=presented, **extra)
    except Unsupported:
        raise
    except CallTimeLimit:
        _CallBudget.hung = True
        raise ImplementationError(
            f"fit did not return within {limit:g} s (the per-call limit, --call-timeout)"
        ) from None
    except SystemExit as exc:  # sys.exit() inside fit must not end the campaign as a pass
        raise ImplementationError(f"fit called sys.exit({exc.code!r})") from None
    except Exception as exc:  # anyone's code: report, never crash the harness
        raise ImplementationError(f"fit raised {type(exc).__name__}: {exc}") from None
    return normalize(out, ds.n_features, weight_shapes)


# ------------------------------------------------------------------ what differs by family


def margin_before_update(ds: Dataset, run: RunRecord, k: int) -> Fraction:
    """The exact w.z the reference saw at its k-th update (0-based)."""
    Z, s = ds.scaled_patterns
    W = [0] * ds.dimension
    for _, i in run.updates[:k]:
        W = [a + b for a, b in zip(W, Z[i])]
    i = run.updates[k][1]
    return Fraction(sum(a * b for a, b in zip(W, Z[i])), s * s)


def binary_update(ds: Dataset, run: RunRecord, k: int) -> str:
    """The binary reference's k-th update (0-based), with the exact w.z it saw."""
    epoch, i = run.updates[k]
    margin = format_rational(margin_before_update(ds, run, k))
    return f"sample {i} in epoch {epoch}, where the exact w.z = {margin} (the update condition held)"


def multiclass_update(data: MulticlassData, run: MulticlassRun, k: int) -> str:
    """The multiclass reference's k-th update (0-based), with the class it predicted."""
    epoch, i = run.updates[k]
    return f"sample {i} in epoch {epoch} (predicted class {run.predictions[k]}, true {data.labels[i]})"


def binary_label(label: int) -> str:
    """A binary label as printed in a finding: ``+1`` or ``-1``."""
    return f"{label:+d}"


def multiclass_label(label: int) -> str:
    """A class index as printed in a finding."""
    return str(label)


def binary_weight_shapes(data: Dataset) -> None:
    """Binary weights: d + 1 numbers (None tells :func:`normalize` so)."""
    return None


def multiclass_weight_shapes(data: MulticlassData) -> tuple[tuple[int, ...], ...]:
    """Multiclass weights: K x (d + 1), or flattened."""
    K, D = data.n_classes, data.dimension
    return ((K, D), (K * D,))
