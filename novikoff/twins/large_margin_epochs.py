"""The float64 twins' epochs: the block scan, the active sets and the compiled kernel's epoch.

One epoch of :mod:`novikoff.twins.large_margin` (see its docstring) on a
:class:`~novikoff.twins.large_margin_state.TwinState`: :func:`_scan` presents rows in blocks
and updates on the first whose condition holds, restarting right after it;
:func:`numpy_epoch` is the full pass then the two-level active-set rounds (or the PDM
paper's three levels, :func:`_active_set_rounds`); :func:`compiled_epoch` is the same
epoch in the numba kernel, which leaves the decisions it cannot take in floats to the exact
code here.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from novikoff.twins import compiled_large_margin as cl
from novikoff.twins.large_margin_state import LEVEL2, LEVEL3, MINI_EPOCHS, ROUNDS, TwinState

__all__ = ["compiled_epoch", "numpy_epoch"]

_FIRST_BLOCK = 16


def _scan(
    S: TwinState,
    rows: np.ndarray,
    multiple: bool,
    epoch: int,
    updates: list[tuple[int, int]],
) -> int:
    """One pass over ``rows`` with restarts; returns the number of updates."""
    pos, block, made, m = 0, _FIRST_BLOCK, 0, len(rows)
    taken = S.P.take(rows)
    while pos < m:
        idx = rows[pos : pos + block]
        p = S.P.block_of(taken, pos, pos + len(idx), S.w)
        D, err = S.margins(p, idx)
        hit = -1
        for c in np.flatnonzero(D >= -err):  # holds, or too close to tell in floats
            if D[c] > err[c] or (err[c] == 0 and D[c] == 0) or S.exact_holds(int(idx[c])):
                hit = int(c)
                break
        if hit < 0:
            pos += block
            block = min(2 * block, max(m, 1))
            continue
        i = int(idx[hit])
        n = S.count(float(p[hit]), i) if multiple else 1
        if S.t + n > S.max_updates:
            S.stopped = f"stopped before update {S.t + 1}: more than max_updates = {S.max_updates}"
            return made
        S.update(float(p[hit]), i, n)
        updates.extend([(epoch, i)] * n)
        made += n
        pos, block = pos + hit + 1, _FIRST_BLOCK
    return made


def _record(updates: list[tuple[int, int]], epoch: int, rows: np.ndarray, counts: np.ndarray) -> int:
    """Append (epoch, i) n times for each event (i, n); returns the number of updates."""
    if len(rows) == 0:
        return 0
    pairs = list(zip(itertools.repeat(epoch), rows.tolist()))
    if int(counts.max()) == 1:
        updates.extend(pairs)
        return len(pairs)
    append, extend = updates.append, updates.extend
    for pair, n in zip(pairs, counts.tolist()):  # [pair] * n: one shared tuple, copied as pointers
        if n == 1:
            append(pair)
        else:
            extend([pair] * n)
    return int(counts.sum())


def _products(S: TwinState, rows: np.ndarray) -> np.ndarray:
    """z_i.w for the rows, each summed from 0 in column order (scipy's CSR product sums so;
    dense rows column by column here; the compiled kernel the same way, without fused
    multiply-adds), so both engines get the same floats."""
    taken = S.P.take(rows)
    if S.P.sparse:
        return np.asarray(taken @ S.w).ravel()
    columns = np.asfortranarray(taken)  # contiguous columns for the column-by-column sum
    p = np.zeros(len(rows))
    for k in np.flatnonzero(S.w):  # a zero weight adds +-0: only the sign of a zero p could change
        p += columns[:, k] * S.w[k]
    return p


def _closeness(S: TwinState, rows: np.ndarray) -> np.ndarray:
    """c_i for the active sets, a function of (w, t) only: both engines compute it alike."""
    p = _products(S, rows)
    w2 = float(np.cumsum(S.w * S.w)[-1])  # summed in order, as the compiled kernel sums it
    if S.rule == "pdm":
        thr = (1 - S.fparam) * w2
        return S.t * p / thr if thr > 0 else np.zeros_like(p)
    thr = S.fparam * math.sqrt(w2)
    return p / thr if thr > 0 else np.zeros_like(p)


def numpy_epoch(
    S: TwinState,
    rows: np.ndarray,
    multiple: bool,
    active_sets: bool,
    epoch: int,
    updates: list[tuple[int, int]],
) -> tuple[bool, int]:
    """One epoch: the full pass, then (active sets) the rounds; returns (clean, mini-epochs)."""
    made = _scan(S, rows, multiple, epoch, updates)
    if S.stopped or made == 0 or not active_sets:
        return made == 0, 0
    return False, _active_set_rounds(S, rows, multiple, epoch, updates)


def _active_set_rounds(
    S: TwinState, rows: np.ndarray, multiple: bool, epoch: int, updates: list[tuple[int, int]]
) -> int:
    """The nested active sets after a full pass with updates; returns the mini-epochs (scans
    of a level).

    Level 1 is built from the data (c <= 1 + level1), each next level from the one before
    (c <= 1 + LEVEL2, then, with ``three_levels``, c <= 1 + LEVEL3: the paper's three levels).
    A cycle of a level builds it afresh, runs the cycles of the next level (if any), then
    scans it once; a cycle without updates ends its loop, which runs at most MINI_EPOCHS
    cycles for the innermost level and ROUNDS for the others. The run's stop ends every loop."""
    levels = [S.level1, LEVEL2, LEVEL3] if S.three_levels else [S.level1, LEVEL2]
    cycles = [ROUNDS] * (len(levels) - 1) + [MINI_EPOCHS]
    mini = 0

    def run(parent: np.ndarray, k: int) -> int:
        nonlocal mini
        made_all = 0
        for _ in range(cycles[k]):
            c = _closeness(S, parent) if len(parent) else np.zeros(0)
            level = parent[c <= 1 + levels[k]]
            made = run(level, k + 1) if k + 1 < len(levels) else 0
            if S.stopped:
                return made_all + made
            mini += 1
            made += _scan(S, level, multiple, epoch, updates)
            made_all += made
            if S.stopped or made == 0:
                break
        return made_all

    run(rows, 0)
    return mini


def compiled_epoch(
    S: TwinState,
    rows: np.ndarray,
    multiple: bool,
    active_sets: bool,
    epoch: int,
    updates: list[tuple[int, int]],
) -> tuple[bool, int]:
    """:func:`numpy_epoch` in the compiled kernel; the samples it cannot decide in floats
    (and an update past max_updates) come back here and are taken exactly as :func:`_scan`
    takes them."""
    K = S.kernel
    assert K is not None
    b2 = S.fparam * S.fparam
    K.configure(
        rule=S.rule,
        fparam=S.fparam,
        gap=abs(b2 - float(S.param * S.param)) if S.rule == "pfm" else 0.0,
        multiple=multiple,
        active_sets=active_sets,
        levels=(1 + S.level1, 1 + LEVEL2),
        rounds=ROUNDS,
        mini_epochs=MINI_EPOCHS,
    )
    st = K.st
    st[:] = 0
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    while True:
        st[cl.T], st[cl.MAXU] = S.t, S.max_updates
        K.fw[0], K.fw[1] = S.w2, S.w2_err
        status, p, i = K.epoch(rows, S.w)
        _record(updates, epoch, K.ev_row[: st[cl.EVENTS]], K.ev_n[: st[cl.EVENTS]])
        st[cl.EVENTS] = 0
        S.t, S.w2, S.w2_err = int(st[cl.T]), float(K.fw[0]), float(K.fw[1])
        if status in (cl.EPOCH_DONE, cl.CLEAN):
            S.products += int(st[cl.PRODUCTS])
            return status == cl.CLEAN, int(st[cl.MINI])
        if status == cl.FULL:
            continue
        # UNDECIDED or STOPPED at sample i: taken here, exactly, as _scan takes it
        if status == cl.UNDECIDED and not S.decide_one(p, i):
            st[cl.POS] += 1
            continue
        n = S.count(p, i) if multiple else 1
        if S.t + n > S.max_updates:
            S.stopped = f"stopped before update {S.t + 1}: more than max_updates = {S.max_updates}"
            S.products += int(st[cl.PRODUCTS])
            return False, int(st[cl.MINI])
        S.update(p, i, n)
        updates.extend([(epoch, i)] * n)
        st[cl.MADE] += n
        st[cl.POS] += 1
