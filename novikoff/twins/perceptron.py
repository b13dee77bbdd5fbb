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

from novikoff.data import Dataset, plain_features, sign_labels
from novikoff.errors import InputError
from novikoff.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.twins.compiled import CompiledEpochs
from novikoff.twins.compiled import available as compiled_available
from novikoff.twins.scan import BlockScan
from novikoff.twins.screen import ScreenedScan

__all__ = [
    "EngineSwitch",
    "input_patterns",
    "perceptron_on_patterns",
    "perceptron_twin",
    "twin_patterns",
    "use_compiled",
]


def twin_patterns(X: Any, y: Any, bias: float = 1.0) -> np.ndarray:
    """z_i = y_i (x_i, bias) as a C-contiguous float64 array (bias column only if bias != 0).

    ``X``: an array, sequence of rows, pandas DataFrame or scipy.sparse matrix/array
    (densified; :func:`novikoff.data.plain_features`). ``y``: labels by the one rule of
    :func:`novikoff.data.sign_labels` ({-1, +1} kept, {0, 1} mapped 0 -> -1)."""
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
    if not np.isfinite(Xa).all():
        raise InputError("X contains NaN or infinity")
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
    engine: str = "auto",
) -> RunRecord:
    """Run the float64 perceptron; ``X`` may be a :class:`Dataset` (then ``y``, ``bias`` come from it).

    Guarantees the same contract as :func:`novikoff.reference.run_perceptron`:
    updates are (epoch, index) pairs, ``converged`` iff an epoch made no update.
    ``engine`` as in :func:`perceptron_on_patterns`.
    """
    Z = input_patterns(X, y, bias)
    return perceptron_on_patterns(Z, max_epochs=max_epochs, order=order, engine=engine)


def perceptron_on_patterns(
    Z: np.ndarray,
    *,
    max_epochs: int = 1000,
    order: Order = None,
    screening: bool = True,
    engine: str = "auto",
) -> RunRecord:
    """The twin's run on patterns z_i = y_i (x_i, bias) already built (rows of ``Z``).

    ``engine``: ``"compiled"`` (the numba epoch kernel, :mod:`novikoff.twins.compiled`;
    natural order), ``"numpy"`` (the vectorized scan) or ``"auto"`` (compiled when numba
    is installed and the order is natural; see :class:`EngineSwitch`). ``screening``
    lets the numpy scan skip rows whose value is provably positive
    (:mod:`novikoff.twins.screen`); the compiled kernel always screens. Neither
    changes the run.
    """
    max_epochs = check_max_epochs(max_epochs)
    m, d = Z.shape
    presentation = epoch_order(order, m)
    natural = order is None or order == "natural"
    w = np.zeros(d)
    updates: list[tuple[int, int]] = []
    converged = False
    epoch = 0
    switch = EngineSwitch(engine, natural, m * d)
    kernel: CompiledEpochs | None = None
    scan = BlockScan()
    screened = ScreenedScan(Z, exact=False) if natural and screening else None
    for epoch in range(int(max_epochs)):
        if kernel is None and switch.now():
            kernel = CompiledEpochs(Z, w, exact=False, last_epoch=max_epochs - 1)  # takes over w
        if kernel is not None and kernel.batchable:  # the rest of the run, in batches of epochs
            while True:
                epochs, indices, _, epoch, status, _ = kernel.batch(epoch)
                updates.extend(zip(epochs.tolist(), indices.tolist()))
                if status != 0:  # 1: a clean epoch; 3: the last epoch was run
                    converged = status == 1
                    break
            break
        if kernel is not None:
            indices, _, _ = kernel.epoch(epoch)
            updates.extend((epoch, int(i)) for i in indices)
            if indices.size == 0:
                converged = True
                break
            continue
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
    m d >= 10^6, else once the numpy scan has run 0.1 s, so that short runs never pay
    for importing numba (about 0.5 s with its cached kernels)."""

    def __init__(self, engine: str, natural: bool, size: int) -> None:
        self.enabled = use_compiled(engine, natural)
        self.at_once = engine == "compiled" or size >= _SMALL
        self.start = time.perf_counter()

    def now(self) -> bool:
        """True once the compiled kernel should run (checked at epoch starts)."""
        return self.enabled and (self.at_once or time.perf_counter() - self.start >= _NUMPY_SECONDS)


def use_compiled(engine: str, natural: bool) -> bool:
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
