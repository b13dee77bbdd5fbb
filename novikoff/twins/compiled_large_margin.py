"""A compiled (numba) scan for the PFM, PDM and PDM-succ twins, dense and CSR.

Optional, like :mod:`novikoff.twins.compiled` (``pip install novikoff[fast]``):
:func:`available` says whether numba is installed, and without it the twins run
their numpy engine. The kernel replaces the numpy engine's scan, nothing else:
the caller (:mod:`novikoff.twins.large_margin`) keeps the stage loop, the active
sets and the exact arithmetic.

**What the kernel does.** It visits the given rows in order, one sample at a
time, and for each one decides the rule's condition (PDM: t w.z <= (1 - eps)
||w||^2; PFM: w.z <= 0 or (w.z)^2 <= beta^2 ||w||^2) from the float64 value p of
w.z with the same rounding bound as the numpy engine's (|fl(z.w) - z.w| <=
gamma_k ||z|| ||w|| holds for any summation order, so the compiler may vectorize
the dot product). When the condition holds it finds the multiple-update count
(closed form, then galloping and bisection on the same decisions), updates w in
place (w_j + n z_ij, rounded as numpy rounds it: no fused multiply-add) and
records the event (row, n).

**What it leaves to the caller.** A decision whose float value is within its
rounding bound is not taken here: the kernel returns at that sample without
touching it (status :data:`UNDECIDED`, with p), and the caller decides it, and
counts and updates it, in exact rational arithmetic, then resumes at the next
row. It also returns before an update that would pass ``max_updates``
(:data:`STOPPED`), when the event buffer is full (:data:`FULL`) and at the end
of the rows (:data:`DONE`). So every decision is the exact decision for the float
weights, and the update sequence is the numpy engine's.

State passed in and out: ``tw`` (int64 [t, max_updates]), ``fw`` (float64
[||w||^2, its error bound]).
"""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import numpy as np

__all__ = ["DONE", "FULL", "STOPPED", "UNDECIDED", "LargeMarginKernel", "available"]

DONE, UNDECIDED, STOPPED, FULL = 0, 1, 2, 3
PDM, PFM = 0, 1
_U = 2.0**-53
_EVENTS = 1 << 16

_compiled = False


def available() -> bool:
    """True iff numba is installed (checked without importing it: the import costs ~0.4 s)."""
    return importlib.util.find_spec("numba") is not None


def _compile() -> None:
    """Compile the kernels on first use (numba is imported only then; cached on disk)."""
    global _compiled, _dot_dense, _dot_sparse, _decide, _count, _scan_dense, _scan_sparse
    if _compiled:
        return
    import numba

    # the dot products only may be reassociated and fused (the rounding bound holds for any
    # order); the updates w_j + n z_j are rounded exactly as numpy rounds them
    fast = {"reassoc", "contract"}
    _dot_dense = numba.njit(cache=True, nogil=True, fastmath=fast)(_dot_dense)
    _dot_sparse = numba.njit(cache=True, nogil=True, fastmath=fast)(_dot_sparse)
    _decide = numba.njit(cache=True, nogil=True)(_decide)
    _count = numba.njit(cache=True, nogil=True)(_count)
    _scan_dense = numba.njit(cache=True, nogil=True)(_scan_dense)
    _scan_sparse = numba.njit(cache=True, nogil=True)(_scan_sparse)
    _compiled = True


def _dot_dense(Z: np.ndarray, i: int, w: np.ndarray) -> float:
    s = 0.0
    for k in range(w.shape[0]):
        s += Z[i, k] * w[k]
    return s


def _dot_sparse(data: np.ndarray, indices: np.ndarray, lo: int, hi: int, w: np.ndarray) -> float:
    s = 0.0
    for k in range(lo, hi):
        s += data[k] * w[indices[k]]
    return s


def _decide(
    rule: int,
    fparam: float,
    gap: float,
    t: int,
    p: float,
    q: float,
    w2: float,
    w2_err: float,
    gk: float,
    norm_up: float,
    n: int,
) -> int:
    """The condition at (w + n z, t + n) from floats: 1 holds, 0 fails, -1 too close to tell.

    The same computation as the numpy engine's ``_State.decide_one``."""
    tn = float(t + n)
    fn = float(n)  # as Python rounds an int operand: n * n is exact, then rounded once
    pn = p + fn * q
    w2n = w2 + 2 * fn * p + fn * fn * q
    err_p = gk * norm_up * math.sqrt(w2 + w2_err) * (1 + fn)
    err_p = err_p + fn * q * gk
    err_w2 = w2_err + 2 * fn * err_p + 8 * _U * (w2 + 2 * fn * abs(p) + fn * fn * q)
    if rule == PDM:
        a = 1.0 - fparam
        D = a * w2n - tn * pn
        err = a * err_w2 + tn * err_p + 4 * _U * (a * abs(w2n) + tn * abs(pn))
    else:
        b2 = fparam * fparam
        if pn <= -err_p:
            D, err = 1.0, 0.0
        else:
            D = b2 * w2n - pn * pn
            err = b2 * err_w2 + 2 * abs(pn) * err_p + err_p * err_p + 8 * _U * (b2 * w2n + pn * pn)
            err += gap * abs(w2n)
    if err == 0 and D == 0:
        return 1
    if D > err:
        return 1
    if D < -err:
        return 0
    return -1


def _count(
    rule: int,
    fparam: float,
    gap: float,
    t: int,
    max_updates: int,
    p: float,
    q: float,
    w2: float,
    w2_err: float,
    gk: float,
    norm_up: float,
) -> int:
    """The multiple-update count as the numpy engine's ``_State.count`` finds it; -1 when a
    decision on the way is too close to tell in floats (the caller then counts exactly)."""
    if rule == PDM:
        eps = fparam
        a = eps * q
        b = t * q - (1 - 2 * eps) * p
        c = (1 - eps) * w2 - t * p
    else:
        b2 = fparam * fparam
        a = q * (q - b2)
        b = 2 * p * (q - b2)
        c = -(p * p - b2 * w2)
    disc = b * b + 4 * a * c
    root = (-b + math.sqrt(disc)) / (2 * a) if disc >= 0 and a > 0 else 0.0
    limit = max(max_updates - t + 1, 1)
    if not math.isfinite(root):
        n = 1
    elif root >= limit:
        n = limit
    else:
        n = min(max(math.floor(root), 0) + 1, limit)
    d = _decide(rule, fparam, gap, t, p, q, w2, w2_err, gk, norm_up, n)
    if d < 0:
        return -1
    if d == 1:  # the count is above n: gallop up, then bisect
        lo, step = n, 1
        while True:
            hi = min(lo + step, limit)
            if hi == lo:
                return limit
            d = _decide(rule, fparam, gap, t, p, q, w2, w2_err, gk, norm_up, hi)
            if d < 0:
                return -1
            if d == 0:
                break
            lo, step = hi, 2 * step
    else:  # the count is at most n: gallop down to a holding n (n = 0 holds), then bisect
        hi, step = n, 1
        while True:
            lo = max(hi - step, 0)
            if lo == 0:
                break
            d = _decide(rule, fparam, gap, t, p, q, w2, w2_err, gk, norm_up, lo)
            if d < 0:
                return -1
            if d == 1:
                break
            hi, step = lo, 2 * step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        d = _decide(rule, fparam, gap, t, p, q, w2, w2_err, gk, norm_up, mid)
        if d < 0:
            return -1
        if d == 1:
            lo = mid
        else:
            hi = mid
    return hi


def _scan_dense(
    Z: np.ndarray,
    rows: np.ndarray,
    pos: int,
    w: np.ndarray,
    tw: np.ndarray,
    fw: np.ndarray,
    q: np.ndarray,
    norm_up: np.ndarray,
    gk: float,
    rule: int,
    fparam: float,
    gap: float,
    multiple: bool,
    ev_row: np.ndarray,
    ev_n: np.ndarray,
) -> tuple[int, int, int, float]:
    """Rows ``rows[pos:]`` of dense ``Z`` in order; returns (events, position, status, p)."""
    d = Z.shape[1]
    cap = ev_row.shape[0]
    events = 0
    for c in range(pos, rows.shape[0]):
        i = rows[c]
        p = _dot_dense(Z, i, w)
        t, w2, w2_err = tw[0], fw[0], fw[1]
        h = _decide(rule, fparam, gap, t, p, q[i], w2, w2_err, gk, norm_up[i], 0)
        if h == 0:
            continue
        if h < 0:
            return events, c, UNDECIDED, p
        n = 1
        if multiple:
            n = _count(rule, fparam, gap, t, tw[1], p, q[i], w2, w2_err, gk, norm_up[i])
            if n < 0:
                return events, c, UNDECIDED, p
        if t + n > tw[1]:
            return events, c, STOPPED, p
        if events == cap:
            return events, c, FULL, p
        fn = float(n)
        s = 0.0
        for k in range(d):
            w[k] += fn * Z[i, k]
            s += w[k] * w[k]
        tw[0] = t + n
        fw[0] = s
        fw[1] = (d + 2) * _U * s * 1.01
        ev_row[events] = i
        ev_n[events] = n
        events += 1
    return events, rows.shape[0], DONE, 0.0


def _scan_sparse(
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    d: int,
    rows: np.ndarray,
    pos: int,
    w: np.ndarray,
    tw: np.ndarray,
    fw: np.ndarray,
    q: np.ndarray,
    norm_up: np.ndarray,
    gk: float,
    rule: int,
    fparam: float,
    gap: float,
    multiple: bool,
    ev_row: np.ndarray,
    ev_n: np.ndarray,
) -> tuple[int, int, int, float]:
    """Rows ``rows[pos:]`` of the CSR matrix (data, indices, indptr) with ``d`` columns in
    order; ||w||^2 is carried forward with its error bound as the numpy engine carries it."""
    cap = ev_row.shape[0]
    events = 0
    for c in range(pos, rows.shape[0]):
        i = rows[c]
        lo, hi = indptr[i], indptr[i + 1]
        p = _dot_sparse(data, indices, lo, hi, w)
        t, w2, w2_err = tw[0], fw[0], fw[1]
        h = _decide(rule, fparam, gap, t, p, q[i], w2, w2_err, gk, norm_up[i], 0)
        if h == 0:
            continue
        if h < 0:
            return events, c, UNDECIDED, p
        n = 1
        if multiple:
            n = _count(rule, fparam, gap, t, tw[1], p, q[i], w2, w2_err, gk, norm_up[i])
            if n < 0:
                return events, c, UNDECIDED, p
        if t + n > tw[1]:
            return events, c, STOPPED, p
        if events == cap:
            return events, c, FULL, p
        fn = float(n)
        for k in range(lo, hi):
            w[indices[k]] += fn * data[k]
        err_p = gk * norm_up[i] * math.sqrt(w2 + w2_err)
        new = w2 + 2 * fn * p + fn * fn * q[i]
        fw[1] = w2_err + (
            2 * fn * err_p + 8 * _U * (abs(new) + 2 * fn * abs(p) + fn * fn * q[i]) + 2 * _U * d * abs(new)
        )
        fw[0] = new
        tw[0] = t + n
        ev_row[events] = i
        ev_n[events] = n
        events += 1
    return events, rows.shape[0], DONE, 0.0


class LargeMarginKernel:
    """The compiled scan over fixed patterns ``Z`` (dense float64 or scipy CSR float64).

    ``q`` are the float ||z_i||^2, ``norm_up`` upper bounds of ||z_i||, ``gamma_k`` the dot
    products' rounding coefficient (as the numpy engine computes them). :meth:`scan` runs
    the kernel; the weights ``w`` are updated in place."""

    def __init__(self, Z: Any, q: np.ndarray, norm_up: np.ndarray, gamma_k: float) -> None:
        if not available():
            raise RuntimeError("numba is not installed (pip install novikoff[fast])")
        _compile()
        self.sparse = not isinstance(Z, np.ndarray)
        if self.sparse:
            self.data = np.ascontiguousarray(Z.data, dtype=np.float64)
            self.indices = np.ascontiguousarray(Z.indices)
            self.indptr = np.ascontiguousarray(Z.indptr)
            self.d = int(Z.shape[1])
        else:
            self.Z = np.ascontiguousarray(Z, dtype=np.float64)
        self.q = np.ascontiguousarray(q, dtype=np.float64)
        self.norm_up = np.ascontiguousarray(norm_up, dtype=np.float64)
        self.gamma_k = float(gamma_k)
        self.tw = np.zeros(2, dtype=np.int64)
        self.fw = np.zeros(2)
        self.ev_row = np.empty(_EVENTS, dtype=np.int64)
        self.ev_n = np.empty(_EVENTS, dtype=np.int64)

    def scan(
        self,
        rows: np.ndarray,
        pos: int,
        w: np.ndarray,
        *,
        rule: str,
        fparam: float,
        gap: float,
        multiple: bool,
    ) -> tuple[np.ndarray, np.ndarray, int, int, float]:
        """Scan ``rows[pos:]`` from the state in :attr:`tw` and :attr:`fw` (set them first;
        they hold the state after the call). Returns the events' rows and counts (views,
        valid until the next call), the position reached, the status and p there."""
        code = PDM if rule == "pdm" else PFM
        if self.sparse:
            events, at, status, p = _scan_sparse(
                self.data,
                self.indices,
                self.indptr,
                self.d,
                rows,
                pos,
                w,
                self.tw,
                self.fw,
                self.q,
                self.norm_up,
                self.gamma_k,
                code,
                fparam,
                gap,
                multiple,
                self.ev_row,
                self.ev_n,
            )
        else:
            events, at, status, p = _scan_dense(
                self.Z,
                rows,
                pos,
                w,
                self.tw,
                self.fw,
                self.q,
                self.norm_up,
                self.gamma_k,
                code,
                fparam,
                gap,
                multiple,
                self.ev_row,
                self.ev_n,
            )
        return self.ev_row[:events], self.ev_n[:events], int(at), int(status), float(p)
