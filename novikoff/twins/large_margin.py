"""float64 twins of PFM(beta), PDM(eps) and PDM-succ: dense arrays or scipy.sparse CSR.

Independent of the reference's decision code (:mod:`novikoff.reference.large_margin`);
the two check each other in the tests.

**Scan.** As in the perceptron twin: decision values of a block of upcoming
samples in one product, update on the first sample whose condition holds,
restart right after it. The update sequence is that of the sample-by-sample loop.

**Decisions exact for the twin's own state.** Each decision compares a float
value D (PDM: (1 - eps)||w||^2 - t w.z; PFM: the sign split) with 0 together with a
bound on its rounding error (|fl(z.w) - z.w| <= gamma_d ||z|| ||w||, ||w||^2 kept
with its own error bound). When |D| is within that bound the sample is decided
again in exact rational arithmetic from the float64 values of w and z (which are
dyadic rationals). So every decision, in particular the final clean pass that
stops the run, is the exact decision for the twin's float weights, and D2's
first inequality holds exactly for its final state (the tests check it with the
exact checker).

**Multiple updates.** n from the closed form (largest root of the quadratic in n,
floor + 1), then corrected with the same decisions at n - 1 and n, so it is the
definition's count for the twin's state.

**Active sets** (``active_sets=True``; our design, simpler than the paper's three
levels): after a full pass with updates, the samples with closeness
c_i = (decision value)/(threshold) <= 1 + ``LEVEL1`` form level 1 and those
<= 1 + ``LEVEL2`` level 2. Level 2 is scanned for up to ``MINI_EPOCHS`` mini-epochs
(until one is clean), then level 1 once (rebuilding level 2), up to ``ROUNDS``
times, then a full pass. The run stops only on a clean full pass over all the
data, with exact decisions; max_epochs bounds the full passes. The closeness is
computed afresh from w, with sums in a fixed order (each z_i.w from 0.0 in column
order, ||w||^2 in order), so the levels are a function of the float weights,
whichever engine computes them.

**The PDM paper's protocol options.** ``multiple_from_epoch=k`` makes single updates in
the full epochs before epoch k (numbered from 0 over the whole run, PDM-succ's stages
included) and multiple updates from epoch k on (the paper starts PDM's multiple updates
after the first full epoch: k = 1); ``first_level1=r`` uses ``r`` instead of ``LEVEL1``
for the level-1 set of the first full epoch (epoch 0) only, which the paper also does
(its value of r was lost in extraction). Both only change which updates are presented
when; every decision is still the exact one, so D2 holds at convergence as before.
``three_levels=True`` replaces the two levels by the paper's three nested ones
(:func:`~novikoff.twins.large_margin_epochs._active_set_rounds`; numpy engine only:
"auto" then stays on numpy).

**Modules.** The patterns and the state with its decisions are in
:mod:`novikoff.twins.large_margin_state`, the scan, the active sets and the compiled
kernel's epoch in :mod:`novikoff.twins.large_margin_epochs`; this module checks the
options, chooses the engine and runs the stages.

**Engines** (``engine=``): ``"numpy"`` scans as above; ``"compiled"`` runs each
epoch (full pass and active-set rounds) in the numba kernel of
:mod:`novikoff.twins.compiled_large_margin` (the ``fast`` extra), which leaves the
decisions it cannot take in floats to the exact code here; ``"auto"`` (the
default) is the compiled kernel when numba is installed and Z has at least
``COMPILED_FROM`` stored values, else numpy until the run has taken ``SWITCH_AFTER``
seconds, then the kernel from the next epoch on (short runs skip numba's import).
Every decision being the exact one for the float weights, the weights being
updated entry by entry as numpy updates them (fl(w_j + fl(n z_ij))) and the levels
being the same, both engines make the same update sequence, epochs, mini-epochs
and final weights (bit for bit) on every input; only ``exact_decisions`` (how many
decisions needed exact arithmetic) may differ.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

import numpy as np
import scipy.sparse as sps

from novikoff.data.dataset import sign_labels
from novikoff.errors import InputError
from novikoff.runtime.parameters import parse_epsilons, validate_beta
from novikoff.runtime.runs import Order, RunRecord, TwinEngine, check_max_epochs, epoch_order
from novikoff.twins import compiled_large_margin as cl
from novikoff.twins.large_margin_epochs import compiled_epoch, numpy_epoch
from novikoff.twins.large_margin_state import (
    LEVEL1,
    LEVEL2,
    LEVEL3,
    MINI_EPOCHS,
    ROUNDS,
    TwinPatterns,
    TwinState,
)
from novikoff.twins.perceptron import input_patterns

__all__ = [
    "LEVEL1",
    "LEVEL2",
    "LEVEL3",
    "MINI_EPOCHS",
    "ROUNDS",
    "TwinRun",
    "pdm_succ_twin",
    "pdm_twin",
    "pfm_twin",
    "twin_sparse_patterns",
]

COMPILED_FROM = 10_000  # engine="auto": the compiled kernel from the start from this many stored values
COMPILED_CONVERSION_FROM = (
    10**6
)  # twin_sparse_patterns converts in the compiled pass from this many non-zeros
SWITCH_AFTER = 0.5  # engine="auto", smaller problems: the kernel takes over after this many seconds
ENGINES: tuple[TwinEngine, ...] = get_args(TwinEngine)  # ("auto", "numpy", "compiled")


@dataclass
class TwinRun(RunRecord):
    """A twin run; ``exact_decisions`` counts the decisions re-taken in exact arithmetic,
    ``engine`` names the engines that ran ("numpy", "compiled", or "numpy+compiled" when
    engine="auto" switched to the kernel after a slow start)."""

    parameters: dict[str, float] = field(default_factory=dict)
    stages: list[tuple[float, int, int]] = field(default_factory=list)
    exact_decisions: int = 0
    mini_epochs: int = 0
    # the dot products z_i.w the compiled engine computed (presentations and level selections;
    # the epochs the numpy engine ran are not counted): the work the schedule asks for
    row_products: int = 0
    stopped: str = ""  # why the run stopped before converging, when not max_epochs
    engine: str = "numpy"


def twin_sparse_patterns(X: Any, y: Any, bias: float = 1.0) -> sps.csr_matrix:
    """z_i = y_i (x_i, bias) as CSR float64 (bias column only if bias != 0)."""
    Xs = sps.csr_matrix(X, dtype=np.float64)
    ya = sign_labels(y, "y")  # the one label rule: {-1, +1} kept, {0, 1} mapped 0 -> -1
    if Xs.shape[0] == 0:
        raise InputError("X has no rows")
    if ya.shape != (Xs.shape[0],):
        raise InputError(f"y must have shape ({Xs.shape[0]},), got {ya.shape}")
    if not np.isfinite(Xs.data).all():
        raise InputError("X contains NaN or infinity")
    if not np.isfinite(bias) or bias < 0:
        raise InputError(f"bias must be finite and >= 0, got {bias}")
    m, d = Xs.shape
    counts = np.diff(Xs.indptr)
    signs = np.asarray(ya, dtype=np.float64)
    if bias != 0 and _compiled_set_up(Xs.nnz):  # the same arrays, one pass
        indptr, indices, data = cl.signed_rows_with_bias(
            Xs.indptr, Xs.indices, Xs.data, signs, float(bias), d
        )
        Z = sps.csr_matrix((data, indices, indptr), shape=(m, d + 1))
        Z.sum_duplicates()
        return Z
    if bias != 0:  # append the bias entry to every row, building the arrays directly
        indptr = Xs.indptr.astype(np.int64) + np.arange(m + 1)
        last = indptr[1:] - 1  # the bias entry is each row's last
        data = np.empty(Xs.nnz + m)
        indices = np.empty(Xs.nnz + m, dtype=Xs.indices.dtype)
        mask = np.ones(Xs.nnz + m, dtype=bool)
        mask[last] = False
        data[mask], indices[mask] = Xs.data, Xs.indices
        data[last], indices[last] = float(bias), d
        counts = counts + 1
        d += 1
    else:  # copies: the input's arrays are never touched (sum_duplicates works in place)
        data, indices, indptr = Xs.data.copy(), Xs.indices.copy(), Xs.indptr.copy()
    data *= np.repeat(signs, counts)  # y_i = +-1: exact
    Z = sps.csr_matrix((data, indices, indptr), shape=(m, d))
    Z.sum_duplicates()  # one entry per (row, column), sorted: updates then touch each entry once
    return Z


def _compiled_set_up(nnz: int) -> bool:
    """Whether the sparse patterns' set-up takes the compiled passes: numba installed and at
    least COMPILED_CONVERSION_FROM non-zeros (below, numba's import would cost more)."""
    return nnz >= COMPILED_CONVERSION_FROM and cl.available()


def _run_stage(
    S: TwinState,
    order: Order,
    max_epochs: int,
    first_epoch: int,
    multiple: bool,
    active_sets: bool,
    updates: list[tuple[int, int]],
) -> tuple[int, bool, int]:
    """Full passes until one is clean (exact decisions); returns (epochs, converged, mini_epochs)."""
    presentation = epoch_order(order, S.P.m)
    mini = 0
    for e in range(max_epochs):
        S.refresh()
        run_epoch = numpy_epoch if S.kernel is None else compiled_epoch
        order_e = presentation(first_epoch + e)
        rows = (
            np.arange(order_e.start, order_e.stop, dtype=np.intp)  # natural order: no list
            if isinstance(order_e, range)
            else np.asarray(order_e, dtype=np.intp)
        )
        epoch = first_epoch + e
        S.level1 = S.first_level1 if epoch == 0 and S.first_level1 is not None else LEVEL1
        multiple_e = multiple and epoch >= S.multiple_from
        clean, k = run_epoch(S, rows, multiple_e, active_sets, epoch, updates)
        mini += k
        if S.stopped:
            return e + 1, False, mini
        if clean:
            return e + 1, True, mini
        _switch(S)
    return max_epochs, False, mini


def _engine(engine: TwinEngine, S: TwinState) -> None:
    """Checks ``engine`` (InputError for an unknown name, or "compiled" without numba) and
    sets the kernel up when the compiled engine starts the run; for "auto" on a small
    problem, arms the switch to it (:func:`_switch`)."""
    if engine not in ENGINES:
        raise InputError(f"engine must be 'auto', 'compiled' or 'numpy', got {engine!r}")
    if S.three_levels and engine == "compiled":
        raise InputError("three_levels=True runs on the numpy engine only (engine='numpy' or 'auto')")
    if engine == "compiled" and not cl.available():
        raise InputError("engine='compiled' needs numba (pip install novikoff[fast])")
    if engine == "numpy" or S.three_levels or (engine == "auto" and not cl.available()):
        return
    stored = S.P.Z.nnz if S.P.sparse else S.P.Z.size
    if engine == "auto" and stored < COMPILED_FROM:
        S.switch_at = time.perf_counter() + SWITCH_AFTER
        return
    S.kernel = cl.LargeMarginKernel(S.P.Z, S.P.q, S.P.norm_up, S.P.gamma_k)
    S.engines = ["compiled"]


def _switch(S: TwinState) -> None:
    """engine="auto" on a small problem: the compiled kernel takes over after an epoch
    that ended once the run had taken SWITCH_AFTER seconds (both engines make the same updates, and
    they share the state, so the run is the same whichever ran each epoch)."""
    if S.kernel is None and S.switch_at is not None and time.perf_counter() >= S.switch_at:
        S.kernel = cl.LargeMarginKernel(S.P.Z, S.P.q, S.P.norm_up, S.P.gamma_k)
        S.engines.append("compiled")


def _protocol(S: TwinState, multiple_from_epoch: int, first_level1: float | None, three_levels: bool) -> None:
    """The PDM paper's protocol options (module docstring), checked: InputError naming the
    option for a negative or non-integer epoch or a level that is not a positive finite float."""
    if (
        isinstance(multiple_from_epoch, bool)
        or not isinstance(multiple_from_epoch, int)
        or multiple_from_epoch < 0
    ):
        raise InputError(f"multiple_from_epoch must be an integer >= 0, got {multiple_from_epoch!r}")
    if first_level1 is not None:
        if isinstance(first_level1, bool) or not isinstance(first_level1, (int, float)):
            raise InputError(f"first_level1 must be a positive number, got {first_level1!r}")
        if not (math.isfinite(first_level1) and first_level1 > 0):
            raise InputError(f"first_level1 must be a positive finite number, got {first_level1!r}")
        S.first_level1 = float(first_level1)
    S.multiple_from = multiple_from_epoch
    if not isinstance(three_levels, bool):
        raise InputError(f"three_levels must be True or False, got {three_levels!r}")
    S.three_levels = three_levels


def _patterns(X: Any, y: Any | None, bias: float) -> TwinPatterns:
    if sps.issparse(X):
        if y is None:
            raise InputError("y is required unless X is a Dataset")
        Z = twin_sparse_patterns(X, y, bias)
    else:
        Z = input_patterns(X, y, bias)
    return TwinPatterns(Z, compiled_squares=sps.issparse(Z) and _compiled_set_up(Z.nnz))


def pfm_twin(
    X: Any,
    y: Any | None = None,
    *,
    beta: object,
    bias: float = 1.0,
    max_epochs: int = 1000,
    order: Order = None,
    multiple_updates: bool = False,
    active_sets: bool = False,
    max_updates: int = 10**7,
    engine: TwinEngine = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PFM(beta) in float64 (dense or CSR ``X``, or a Dataset); see the module docstring
    (``engine``: "auto", "numpy" or "compiled", the same updates whichever runs).

    Args:
        X: The features (an array or scipy.sparse CSR matrix) or a Dataset.
        y: The labels, {-1, +1} or {0, 1} (omitted when ``X`` is a Dataset).
        beta: The fixed margin, exact, >= 0.
        bias: The bias coordinate appended to every sample (finite, >= 0).
        max_epochs: The number of passes after which a run that has not converged stops.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        multiple_updates: Repeat each update while the condition holds (one count).
        active_sets: Scan the active sets between full epochs (the module docstring).
        max_updates: The update budget; the run stops (``stopped``) before passing it.
        engine: The scan (:data:`novikoff.runtime.runs.TwinEngine`); none changes the run.
        multiple_from_epoch: The PDM paper's protocol: single updates before this epoch.
        first_level1: The PDM paper's protocol: the first epoch's level-1 threshold.
        three_levels: The PDM paper's three nested levels instead of two (numpy only).

    Returns:
        The twin's run: float64 weights, the updates, epochs and mini-epochs, whether it
        converged, why it stopped, how many decisions needed exact arithmetic and which
        engines ran.

    Raises:
        InputError: ``beta`` negative, ``multiple_updates`` with beta not below min ||z_i||,
            an unknown ``engine`` (or "compiled" without numba), or malformed data or options.

    Examples:
        >>> from fractions import Fraction
        >>> X, y = [[0.0, 1.0], [2.0, 1.0], [-1.0, 1.0], [-2.0, -1.0]], [1, 1, -1, -1]
        >>> run = pfm_twin(X, y, beta=Fraction(1, 10))
        >>> run.converged, len(run.updates), run.weights.tolist()
        (True, 7, [3.0, 1.0, 1.0])
    """
    b = validate_beta(beta)
    P = _patterns(X, y, bias)
    if multiple_updates and float(b) ** 2 >= float(P.q.min()):
        raise InputError(f"pfm: beta = {b} is not below min ||z_i||; multiple updates would never end")
    S = TwinState(P, "pfm", b)
    S.max_updates = max_updates
    _protocol(S, multiple_from_epoch, first_level1, three_levels)
    _engine(engine, S)
    updates: list[tuple[int, int]] = []
    epochs, converged, mini = _run_stage(
        S, order, check_max_epochs(max_epochs), 0, multiple_updates, active_sets, updates
    )
    return TwinRun(
        weights=S.w,
        updates=updates,
        epochs=epochs,
        converged=converged,
        algorithm="pfm",
        parameters={"beta": float(b)},
        exact_decisions=S.exact,
        stopped=S.stopped,
        mini_epochs=mini,
        row_products=S.products,
        engine="+".join(S.engines),
    )


def pdm_succ_twin(
    X: Any,
    y: Any | None = None,
    *,
    epsilons: Sequence[object],
    bias: float = 1.0,
    max_epochs: int = 1000,
    order: Order = None,
    multiple_updates: bool = False,
    active_sets: bool = False,
    algorithm: str = "pdm-succ",
    max_updates: int = 10**7,
    engine: TwinEngine = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PDM with eps_1 > ... > eps_final in float64, each stage continuing from the last
    (``engine`` as in :func:`pfm_twin`)."""
    eps = parse_epsilons(epsilons)
    P = _patterns(X, y, bias)
    limit = check_max_epochs(max_epochs)
    S = TwinState(P, "pdm", eps[0])
    S.max_updates = max_updates
    _protocol(S, multiple_from_epoch, first_level1, three_levels)
    _engine(engine, S)
    updates: list[tuple[int, int]] = []
    total, mini_total, converged = 0, 0, False
    stages: list[tuple[float, int, int]] = []
    for e in eps:
        S.param, S.fparam = e, float(e)
        epochs, converged, mini = _run_stage(S, order, limit, total, multiple_updates, active_sets, updates)
        total += epochs
        mini_total += mini
        stages.append((float(e), S.t, epochs))
        if not converged:
            break
    params = (
        {"eps": float(eps[-1])} if len(eps) == 1 else {f"eps_{k + 1}": float(e) for k, e in enumerate(eps)}
    )
    return TwinRun(
        weights=S.w,
        updates=updates,
        epochs=total,
        converged=converged,
        algorithm=algorithm,
        parameters=params,
        stages=stages,
        exact_decisions=S.exact,
        stopped=S.stopped,
        mini_epochs=mini_total,
        row_products=S.products,
        engine="+".join(S.engines),
    )


def pdm_twin(
    X: Any,
    y: Any | None = None,
    *,
    eps: object,
    bias: float = 1.0,
    max_epochs: int = 1000,
    order: Order = None,
    multiple_updates: bool = False,
    active_sets: bool = False,
    max_updates: int = 10**7,
    engine: TwinEngine = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PDM(eps) in float64 from w = 0, t = 0 (``engine`` as in :func:`pfm_twin`).

    Args:
        X: The features (an array or scipy.sparse CSR matrix) or a Dataset.
        y: The labels, {-1, +1} or {0, 1} (omitted when ``X`` is a Dataset).
        eps: The dynamic margin's parameter, exact, in (0, 1].
        bias: The bias coordinate appended to every sample (finite, >= 0).
        max_epochs: The number of passes after which a run that has not converged stops.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        multiple_updates: Repeat each update while the condition holds (one count).
        active_sets: Scan the active sets between full epochs (the module docstring).
        max_updates: The update budget; the run stops (``stopped``) before passing it.
        engine: The scan (:data:`novikoff.runtime.runs.TwinEngine`); none changes the run.
        multiple_from_epoch: The PDM paper's protocol: single updates before this epoch.
        first_level1: The PDM paper's protocol: the first epoch's level-1 threshold.
        three_levels: The PDM paper's three nested levels instead of two (numpy only).

    Returns:
        The twin's run: float64 weights, the updates, epochs and mini-epochs, whether it
        converged, why it stopped, how many decisions needed exact arithmetic and which
        engines ran.

    Raises:
        InputError: ``eps`` outside (0, 1], an unknown ``engine`` (or "compiled" without
            numba), or malformed data or options.

    Examples:
        >>> from fractions import Fraction
        >>> X, y = [[0.0, 1.0], [2.0, 1.0], [-1.0, 1.0], [-2.0, -1.0]], [1, 1, -1, -1]
        >>> run = pdm_twin(X, y, eps=Fraction(1, 2))
        >>> run.converged, len(run.updates), run.weights.tolist()
        (True, 7, [3.0, 1.0, 1.0])
    """
    return pdm_succ_twin(
        X,
        y,
        epsilons=[eps],
        bias=bias,
        max_epochs=max_epochs,
        order=order,
        multiple_updates=multiple_updates,
        active_sets=active_sets,
        algorithm="pdm",
        max_updates=max_updates,
        engine=engine,
        multiple_from_epoch=multiple_from_epoch,
        first_level1=first_level1,
        three_levels=three_levels,
    )
