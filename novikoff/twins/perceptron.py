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

import time
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset, plain_features, sign_labels
from novikoff.errors import InputError
from novikoff.runtime.runs import Order, RunRecord, TwinEngine, check_max_epochs, epoch_order
from novikoff.twins.compiled import CompiledEpochs, narrow_patterns
from novikoff.twins.compiled import available as compiled_available
from novikoff.twins.compiled import loaded as compiled_loaded
from novikoff.twins.scan import BlockScan
from novikoff.twins.screen import ScreenedScan

__all__ = [
    "EngineSwitch",
    "input_patterns",
    "perceptron_on_patterns",
    "perceptron_twin",
    "starts_compiled",
    "twin_patterns",
    "use_compiled",
]


def twin_patterns(X: Any, y: Any, bias: float = 1.0) -> np.ndarray:
    """z_i = y_i (x_i, bias) as a C-contiguous float64 array (bias column only if bias != 0).

    ``X``: an array, sequence of rows, pandas DataFrame or scipy.sparse matrix/array
    (densified; :func:`novikoff.data.dataset.plain_features`). ``y``: labels by the one rule of
    :func:`novikoff.data.dataset.sign_labels` ({-1, +1} kept, {0, 1} mapped 0 -> -1)."""
    Xa, ya = _checked_arrays(X, y)
    if not np.isfinite(Xa).all():
        raise InputError("X contains NaN or infinity")
    _check_bias(bias)
    m, d = Xa.shape
    Z = np.empty((m, d + (bias != 0)))
    np.multiply(Xa, ya[:, None], out=Z[:, :d])  # the values of (x_i, bias) * y_i, in one copy
    if bias != 0:
        np.multiply(float(bias), ya, out=Z[:, d])
    return Z


def _checked_arrays(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """``X`` as a non-empty 2-D float64 array (values not checked) and ``y`` as its
    -1/+1 labels (:func:`twin_patterns`' rules), or InputError."""
    X, _ = plain_features(X, "X")
    try:
        Xa = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"X: not a numeric 2-D array ({exc})") from None
    if Xa.ndim != 2 or Xa.shape[0] == 0:
        raise InputError(f"X must be a non-empty 2-D array, got shape {Xa.shape}")
    ya = sign_labels(y, "y")
    if ya.shape != (Xa.shape[0],):
        raise InputError(f"y must have shape ({Xa.shape[0]},), got {ya.shape}")
    return Xa, ya


def _check_bias(bias: float) -> None:
    if not np.isfinite(bias) or bias < 0:
        raise InputError(f"bias must be finite and >= 0, got {bias}")


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
    engine: TwinEngine = "auto",
) -> RunRecord:
    """Run the float64 perceptron; ``X`` may be a :class:`Dataset` (then ``y``, ``bias`` come from it).

    Guarantees the same contract as :func:`novikoff.reference.run_perceptron`:
    updates are (epoch, index) pairs, ``converged`` iff an epoch made no update.
    ``engine`` as in :func:`perceptron_on_patterns`.

    Args:
        X: The features (an array, a scipy.sparse matrix) or a :class:`Dataset`.
        y: The labels, {-1, +1} or {0, 1} (omitted when ``X`` is a Dataset).
        bias: The bias coordinate appended to every sample (finite, >= 0).
        max_epochs: The number of passes after which a run that has not converged stops.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        engine: ``"auto"``, ``"compiled"`` (numba) or ``"numpy"``; none changes the run.

    Returns:
        The run record with float64 weights (a numpy array), the updates and the epochs.

    Raises:
        InputError: A NaN or infinite feature, labels not {-1, +1} or {0, 1}, mismatched shapes,
            a negative bias, or a malformed ``order`` or ``max_epochs``.

    Examples:
        >>> run = perceptron_twin([[0.0, 1.0], [2.0, 1.0], [-1.0, 1.0], [-2.0, -1.0]], [1, 1, -1, -1])
        >>> run.converged, len(run.updates), run.weights.tolist()
        (True, 7, [3.0, 1.0, 1.0])
    """
    if isinstance(X, Dataset) or y is None:
        Z = input_patterns(X, y, bias)
        return perceptron_on_patterns(Z, max_epochs=max_epochs, order=order, engine=engine)
    Xa, ya = _checked_arrays(X, y)
    size = Xa.shape[0] * (Xa.shape[1] + (bias != 0))
    valid_bias = bool(np.isfinite(bias)) and bias >= 0
    # when the kernel runs from the first epoch it streams narrow rows: build only those
    direct = valid_bias and starts_compiled(engine, order, size)
    rows = narrow_patterns(Xa, ya, float(bias)) if direct else None
    # else the float64 patterns (also for a NaN or infinity in X: twin_patterns raises)
    Z = twin_patterns(Xa, ya, bias) if rows is None else rows
    return perceptron_on_patterns(Z, max_epochs=max_epochs, order=order, engine=engine)


def perceptron_on_patterns(
    Z: np.ndarray,
    *,
    max_epochs: int = 1000,
    order: Order = None,
    screening: bool = True,
    engine: TwinEngine = "auto",
) -> RunRecord:
    """The twin's run on patterns z_i = y_i (x_i, bias) already built (rows of ``Z``:
    float64, or any dtype whose values are float64 values, e.g. the narrow rows of
    :func:`novikoff.twins.compiled.narrow_patterns`; the run depends only on the values).

    ``engine``: ``"compiled"`` (the numba epoch kernel, :mod:`novikoff.twins.compiled`;
    natural order), ``"numpy"`` (the vectorized scan) or ``"auto"`` (compiled when numba
    is installed and the order is natural; see :class:`EngineSwitch`). ``screening``
    lets the numpy scan skip rows whose value is provably positive
    (:mod:`novikoff.twins.screen`); the compiled kernel screens by itself from its
    fourth epoch on (:class:`~novikoff.twins.compiled.CompiledEpochs`). Neither changes
    the run.
    """
    max_epochs = check_max_epochs(max_epochs)
    m, d = Z.shape
    presentation = epoch_order(order, m)
    natural = _natural(order)
    w = np.zeros(d)
    updates: list[tuple[int, int]] = []
    converged = False
    epoch = 0
    switch = EngineSwitch(engine, natural, m * d)
    scan = BlockScan()
    screened = ScreenedScan(Z, exact=False) if natural and screening and not switch.at_once else None
    for epoch in range(int(max_epochs)):
        if switch.now():  # the rest of the run; the kernel takes over w
            kernel = CompiledEpochs(Z, w, exact=False, last_epoch=max_epochs - 1)
            epoch, converged = kernel.finish(epoch, updates)
            break
        idx = None if natural else np.asarray(presentation(epoch), dtype=np.intp)
        Zo = Z if idx is None else Z[idx]
        clean = True
        # the values must see the current w (late binding is the point), and the
        # generator is used up inside this epoch, before Zo is rebound
        mistakes = screened.epoch(w) if screened else scan.epoch(m, lambda a, b: Zo[a:b] @ w)  # noqa: B023
        for j, _ in mistakes:
            w += Zo[j]  # in place: the screened scan holds w
            updates.append((epoch, j if idx is None else int(idx[j])))
            clean = False
        if clean:
            converged = True
            break
    return RunRecord(weights=w, updates=updates, epochs=epoch + 1, converged=converged)


_SMALL = 1_000_000  # m * d below which "auto" starts in numpy (short runs skip numba's import)
_NUMPY_SECONDS = 0.1  # ... and switches once numpy has run this long


class EngineSwitch:
    """When the compiled kernel takes over (the kernel takes the weights where numpy left
    them, so switching never changes the run). ``"auto"`` starts it at once on data with
    m d >= 10^6 or when this process has loaded the kernels already, else once the numpy
    scan has run 0.1 s, so that short runs never pay for importing numba (about 0.5 s
    with its cached kernels)."""

    def __init__(self, engine: TwinEngine, natural: bool, size: int) -> None:
        self.enabled = use_compiled(engine, natural)
        self.at_once = self.enabled and self.compiled_at_once(engine, size)
        self.start = time.perf_counter()

    @staticmethod
    def compiled_at_once(engine: TwinEngine, size: int) -> bool:
        """Whether an enabled kernel starts at the first epoch: always with
        ``engine="compiled"``, on data of m d >= 10^6, or once this process has loaded
        the kernels (then no run pays for the import)."""
        return engine == "compiled" or size >= _SMALL or compiled_loaded()

    def now(self) -> bool:
        """True once the compiled kernel should run (checked at epoch starts)."""
        return self.enabled and (self.at_once or time.perf_counter() - self.start >= _NUMPY_SECONDS)


def starts_compiled(engine: TwinEngine, order: Order, size: int) -> bool:
    """True iff a run on m d = ``size`` values would be the compiled kernel's from its
    first epoch (:class:`EngineSwitch`); False, never an error, for an invalid setting."""
    return (
        engine in ("auto", "compiled")
        and _natural(order)
        and compiled_available()
        and EngineSwitch.compiled_at_once(engine, size)
    )


def _natural(order: Order) -> bool:
    return order is None or order == "natural"


def use_compiled(engine: TwinEngine, natural: bool) -> bool:
    """Whether to run the compiled kernel (InputError for an unknown or impossible engine)."""
    if engine == "numpy":
        return False
    if engine == "compiled":
        if not compiled_available():
            raise InputError("engine='compiled' needs numba (pip install novikoff[fast])")
        if not natural:
            raise InputError("engine='compiled' runs the natural order only")
        return True
    if engine != "auto":
        raise InputError(f"engine must be 'auto', 'compiled' or 'numpy', got {engine!r}")
    return natural and compiled_available()
