"""A compiled (numba) engine for the PFM, PDM and PDM-succ twins, dense and CSR.

Optional, like :mod:`novikoff.twins.compiled` (``pip install novikoff[fast]``):
:func:`available` says whether numba is installed; without it the twins run their
numpy engine (:mod:`novikoff.twins.large_margin` chooses). The kernel runs a whole
epoch of the numpy engine's schedule: the full pass and, with active sets, the
rounds of level-2 mini-epochs and level-1 passes. The caller keeps the stage loop
and the exact arithmetic.

**Decisions.** Samples are visited in order, one at a time, as the textbook loop
visits them. Each decision (PDM: t w.z <= (1 - eps) ||w||^2; PFM: w.z <= 0 or
(w.z)^2 <= beta^2 ||w||^2) is taken from the float64 value p of w.z with the numpy
engine's rounding bound (|fl(z.w) - z.w| <= gamma_k ||z|| ||w|| for any summation
order). When the condition holds
the multiple-update count is found as the numpy engine finds it (closed form, then
galloping and bisection on the same decisions), w is updated in place (w_j + n z_ij,
rounded as numpy rounds it: no fused multiply-add) and the event (row, n) recorded.

**What comes back to the caller.** A decision whose float value is within its
rounding bound is not taken here: the kernel stops at that sample without touching
it (:data:`UNDECIDED`), and the caller decides, counts and updates it in exact
rational arithmetic, moves the position on and resumes. The kernel also stops
before an update that would pass ``max_updates`` (:data:`STOPPED`) and when the
event buffer is full (:data:`FULL`). So every decision is the exact one for the
float weights, and the update sequence is the numpy engine's. Sparse products are
summed in column order (a reassociated gather loop is slower), dense ones in any
order (vectorized).

**Active sets, bit for bit.** Which rows enter a level depends on floats (c_i <=
1 + LEVEL), so both engines compute c_i from the same floats: p_i summed from 0.0
in column order (scipy's CSR product does; the numpy engine sums dense rows column
by column), ||w||^2 summed in order, then the same divisions.

**The state.** An interrupted epoch is an int64 array ``st`` that the caller keeps and
indexes with the exported positions PHASE, POS (the next sample), MADE, MINI, T, MAXU,
EVENTS and PRODUCTS; the scan's statuses are DONE, UNDECIDED, STOPPED, FULL and CLEAN.
"""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import numpy as np

__all__ = [
    "CLEAN",
    "EPOCH_DONE",
    "EVENTS",
    "FULL",
    "MADE",
    "MAXU",
    "MINI",
    "PHASE",
    "POS",
    "PRODUCTS",
    "STOPPED",
    "UNDECIDED",
    "LargeMarginKernel",
    "T",
    "available",
    "row_squares",
    "signed_rows_with_bias",
]

# statuses: a scan's end (DONE), an epoch's (EPOCH_DONE, CLEAN), an interruption at a sample
DONE, UNDECIDED, STOPPED, FULL, CLEAN = 0, 1, 2, 3, 4
EPOCH_DONE = DONE
PDM, PFM = 0, 1
_U = 2.0**-53

_compiled = False


def available() -> bool:
    """True iff numba is installed (checked without importing it: the import costs ~0.4 s)."""
    return importlib.util.find_spec("numba") is not None


def _compile() -> None:
    """Compile the kernels on first use (numba is imported only then; cached on disk)."""
    global _compiled, _dot_dense, _dot, _products, _decide, _count, _scan, _closeness, _epoch
    global _with_bias, _row_squares
    if _compiled:
        return
    import numba

    _with_bias = numba.njit(cache=True, nogil=True)(_with_bias)
    _row_squares = numba.njit(cache=True, nogil=True)(_row_squares)
    # the dot products only may be reassociated and fused (the rounding bound holds for any
    # order); the updates w_j + n z_j are rounded exactly as numpy rounds them
    _dot_dense = numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(_dot_dense)
    _dot = numba.njit(cache=True, nogil=True)(_dot)
    _products = numba.njit(cache=True, nogil=True)(_products)
    _decide = numba.njit(cache=True, nogil=True)(_decide)
    _count = numba.njit(cache=True, nogil=True)(_count)
    _scan = numba.njit(cache=True, nogil=True)(_scan)
    _closeness = numba.njit(cache=True, nogil=True)(_closeness)
    _epoch = numba.njit(cache=True, nogil=True)(_epoch)
    _compiled = True


def _dot_dense(Zd: np.ndarray, i: int, w: np.ndarray) -> float:
    """z_i.w for a decision, in any order (the rounding bound holds for all: vectorized)."""
    s = 0.0
    for k in range(Zd.shape[1]):
        s += Zd[i, k] * w[k]
    return s


def _dot(
    Zd: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    sparse: bool,
    i: int,
    w: np.ndarray,
) -> float:
    """z_i.w for a decision (sparse: in column order; a reassociated gather loop is slower)."""
    if not sparse:
        return _dot_dense(Zd, i, w)
    s = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        s += data[k] * w[indices[k]]
    return s


def _products(
    Zd: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    sparse: bool,
    rows: np.ndarray,
    count: int,
    w: np.ndarray,
    out: np.ndarray,
) -> None:
    """z_i.w for rows[:count], each summed from 0.0 in column order with one rounding per
    product and per sum (no fused multiply-add): the floats of scipy's CSR product and of a
    column-by-column numpy sum, so the active sets are the numpy engine's."""
    for c in range(count):
        i = rows[c]
        s = 0.0
        if sparse:
            for k in range(indptr[i], indptr[i + 1]):
                s += data[k] * w[indices[k]]
        else:
            for k in range(Zd.shape[1]):
                s += Zd[i, k] * w[k]
        out[c] = s


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


# the int64 state ``st``: where an interrupted epoch stands
PHASE, POS, MADE, MADE_ROUND, ROUND, MINI_K, N1, N2, MINI, T, MAXU, EVENTS, PRODUCTS = range(13)
# the float64 parameters ``par`` and int64 configuration ``cfg``
FPARAM, GAP, GK, LVL1, LVL2, D_COLS = range(6)
RULE, MULTIPLE, ACTIVE, ROUNDS, MINI_EPOCHS, SPARSE = range(6)


def _scan(
    Zd: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    rows: np.ndarray,
    count: int,
    w: np.ndarray,
    st: np.ndarray,
    fw: np.ndarray,
    q: np.ndarray,
    norm_up: np.ndarray,
    par: np.ndarray,
    cfg: np.ndarray,
    ev_row: np.ndarray,
    ev_n: np.ndarray,
) -> tuple[int, float, int]:
    """Scan rows[st[POS]:count] in order, one sample at a time; returns (status, p, row):
    DONE at the end, else the sample at st[POS] is untouched (UNDECIDED, STOPPED, FULL)."""
    sparse = cfg[SPARSE] == 1
    rule, multiple = cfg[RULE], cfg[MULTIPLE] == 1
    fparam, gap, gk = par[FPARAM], par[GAP], par[GK]
    d = Zd.shape[1]
    for c in range(st[POS], count):
        i = rows[c]
        p = _dot(Zd, data, indices, indptr, sparse, i, w)
        st[PRODUCTS] += 1
        t, w2, w2_err = st[T], fw[0], fw[1]
        h = _decide(rule, fparam, gap, t, p, q[i], w2, w2_err, gk, norm_up[i], 0)
        if h == 0:
            continue
        st[POS] = c
        if h < 0:
            return UNDECIDED, p, i
        n = 1
        if multiple:
            n = _count(rule, fparam, gap, t, st[MAXU], p, q[i], w2, w2_err, gk, norm_up[i])
            if n < 0:
                return UNDECIDED, p, i
        if t + n > st[MAXU]:
            return STOPPED, p, i
        if st[EVENTS] == ev_row.shape[0]:
            return FULL, p, i
        fn = float(n)
        if sparse:
            lo, hi = indptr[i], indptr[i + 1]
            for k in range(lo, hi):
                w[indices[k]] += fn * data[k]
            # ||w||^2 carried forward: the error of w2 + 2 n p + n^2 q (p's and q's errors,
            # three roundings), then the rounding of the entries updated, w_j + n z_ij (1 + d_j)
            # (1 + d'_j) = x_j + e_j with |e_j| <= 1.01 u (|x_j| + n |z_ij|), which moves
            # ||w||^2 by at most 3 u (||x|| + n ||z_i||)^2 (x = w + n z_i exactly)
            err_p = gk * norm_up[i] * math.sqrt(w2 + w2_err)
            new = w2 + 2 * fn * p + fn * fn * q[i]
            e1 = w2_err + 2 * fn * err_p + 8 * _U * (abs(new) + 2 * fn * abs(p) + fn * fn * q[i])
            e1 += fn * fn * q[i] * gk  # q_i = fl(||z_i||^2) itself is within gamma_k q_i
            x = math.sqrt(abs(new) + e1) + fn * norm_up[i]
            fw[1] = e1 + 3.01 * _U * x * x
            fw[0] = new
        else:
            s = 0.0
            for k in range(d):
                w[k] += fn * Zd[i, k]
                s += w[k] * w[k]
            fw[0] = s
            fw[1] = (d + 2) * _U * s * 1.01
        st[T] = t + n
        st[MADE] += n
        ev_row[st[EVENTS]] = i
        ev_n[st[EVENTS]] = n
        st[EVENTS] += 1
    st[POS] = count
    return DONE, 0.0, -1


def _closeness(
    Zd: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    norm_up: np.ndarray,
    rows: np.ndarray,
    count: int,
    w: np.ndarray,
    t: int,
    par: np.ndarray,
    cfg: np.ndarray,
    level: float,
    out: np.ndarray,
    buf: np.ndarray,
    st: np.ndarray,
) -> int:
    """Writes to ``out`` the rows of rows[:count] whose closeness c_i is <= ``level``, in
    order, and returns how many: the numpy engine's selection, bit for bit.

    c_i = t p_i / ((1 - eps) ||w||^2) (PDM) or p_i / (beta ||w||) (PFM), p_i summed in
    column order (:func:`_products`), ||w||^2 in order, as the numpy engine computes them."""
    w2 = 0.0
    for k in range(w.shape[0]):
        w2 += w[k] * w[k]
    pdm = cfg[RULE] == PDM
    thr = (1.0 - par[FPARAM]) * w2 if pdm else par[FPARAM] * math.sqrt(w2)
    if not thr > 0:  # every c_i is 0
        for c in range(count):
            out[c] = rows[c]
        return count
    _products(Zd, data, indices, indptr, cfg[SPARSE] == 1, rows, count, w, buf)
    st[PRODUCTS] += count
    ft = float(t)
    selected = 0
    for c in range(count):
        ci = ft * buf[c] / thr if pdm else buf[c] / thr
        if ci <= level:
            out[selected] = rows[c]
            selected += 1
    return selected


def _epoch(
    Zd: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    rows: np.ndarray,
    lv1: np.ndarray,
    lv2: np.ndarray,
    cbuf: np.ndarray,
    w: np.ndarray,
    st: np.ndarray,
    fw: np.ndarray,
    q: np.ndarray,
    norm_up: np.ndarray,
    par: np.ndarray,
    cfg: np.ndarray,
    ev_row: np.ndarray,
    ev_n: np.ndarray,
) -> tuple[int, float, int]:
    """One epoch from where ``st`` stands: the full pass over ``rows`` and, with active
    sets, the rounds of level-2 mini-epochs and level-1 passes (the numpy engine's schedule).
    Returns (status, p, row): EPOCH_DONE, CLEAN (the full pass made no update), or the
    scan's UNDECIDED, STOPPED, FULL at the sample st[POS] of the current pass."""
    m = rows.shape[0]
    while True:
        ph = st[PHASE]
        if ph == 0:  # the full pass
            status, p, i = _scan(
                Zd, data, indices, indptr, rows, m, w, st, fw, q, norm_up, par, cfg, ev_row, ev_n
            )
            if status != DONE:
                return status, p, i
            if st[MADE] == 0:
                return CLEAN, 0.0, -1
            if cfg[ACTIVE] == 0:
                return EPOCH_DONE, 0.0, -1
            st[ROUND] = 0
            st[PHASE] = 1
        elif ph == 1:  # a round: level 1 from all rows
            if st[ROUND] == cfg[ROUNDS]:
                return EPOCH_DONE, 0.0, -1
            n1 = _closeness(
                Zd, data, indices, indptr, norm_up, rows, m, w, st[T], par, cfg, par[LVL1], lv1, cbuf, st
            )
            st[N1], st[MADE_ROUND], st[MINI_K], st[PHASE] = n1, 0, 0, 2
        elif ph == 2:  # a mini-epoch: level 2 from level 1
            if st[MINI_K] == cfg[MINI_EPOCHS]:
                st[PHASE] = 4
                continue
            n1 = st[N1]
            n2 = _closeness(
                Zd, data, indices, indptr, norm_up, lv1, n1, w, st[T], par, cfg, par[LVL2], lv2, cbuf, st
            )
            st[N2], st[MADE], st[POS], st[PHASE] = n2, 0, 0, 3
            st[MINI] += 1
        elif ph == 3:  # scanning level 2
            status, p, i = _scan(
                Zd, data, indices, indptr, lv2, st[N2], w, st, fw, q, norm_up, par, cfg, ev_row, ev_n
            )
            if status != DONE:
                return status, p, i
            st[MADE_ROUND] += st[MADE]
            if st[MADE] == 0:
                st[PHASE] = 4
            else:
                st[MINI_K] += 1
                st[PHASE] = 2
        elif ph == 4:  # a pass over level 1 starts
            st[MINI] += 1
            st[MADE], st[POS], st[PHASE] = 0, 0, 5
        else:  # scanning level 1
            status, p, i = _scan(
                Zd, data, indices, indptr, lv1, st[N1], w, st, fw, q, norm_up, par, cfg, ev_row, ev_n
            )
            if status != DONE:
                return status, p, i
            st[MADE_ROUND] += st[MADE]
            if st[MADE_ROUND] == 0:
                return EPOCH_DONE, 0.0, -1
            st[ROUND] += 1
            st[PHASE] = 1


def _with_bias(
    indptr: np.ndarray,
    indices: np.ndarray,
    data: np.ndarray,
    signs: np.ndarray,
    bias: float,
    column: int,
    indptr_out: np.ndarray,
    indices_out: np.ndarray,
    data_out: np.ndarray,
) -> None:
    """Row i of the output: row i of the input times signs[i], then (column, bias * signs[i])."""
    o = 0
    for i in range(indptr.shape[0] - 1):
        indptr_out[i] = o
        s = signs[i]
        for k in range(indptr[i], indptr[i + 1]):
            indices_out[o] = indices[k]
            data_out[o] = data[k] * s
            o += 1
        indices_out[o] = column
        data_out[o] = bias * s
        o += 1
    indptr_out[indptr.shape[0] - 1] = o


def signed_rows_with_bias(
    indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, signs: np.ndarray, bias: float, column: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The CSR arrays (indptr, indices, data) of the rows signs[i] * (x_i, bias), the bias
    entry appended to each row at ``column``, in one compiled pass: the same arrays as the
    numpy way in :func:`novikoff.twins.large_margin.twin_sparse_patterns` (each value one
    product x_ij * s_i, rounded once), without its masks and repeats over every entry."""
    _compile()
    m = len(indptr) - 1
    indptr_out = np.empty(m + 1, dtype=np.int64)
    indices_out = np.empty(len(data) + m, dtype=indices.dtype)
    data_out = np.empty(len(data) + m)
    _with_bias(indptr, indices, data, signs, float(bias), column, indptr_out, indices_out, data_out)
    return indptr_out, indices_out, data_out


def _row_squares(indptr: np.ndarray, data: np.ndarray, out: np.ndarray) -> None:
    for i in range(indptr.shape[0] - 1):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * data[k]
        out[i] = s


def row_squares(indptr: np.ndarray, data: np.ndarray) -> np.ndarray:
    """The float sum of squares of each CSR row's values, summed in order from 0.0 (so
    within gamma_k of the exact ||z_i||^2, like any order), without a temporary per entry."""
    _compile()
    out = np.empty(len(indptr) - 1)
    _row_squares(indptr, data, out)
    return out


class LargeMarginKernel:
    """The compiled epochs over fixed patterns ``Z`` (dense float64 or scipy CSR float64).

    ``q`` are the float ||z_i||^2, ``norm_up`` upper bounds of ||z_i||, ``gamma_k`` the dot
    products' rounding coefficient, as the numpy engine computes them. The caller sets
    :attr:`st` (t, max_updates, and PHASE = POS = MADE = MINI = EVENTS = 0 for a new epoch)
    and :attr:`fw` (||w||^2 and its error bound), calls :meth:`epoch`, reads the events
    (:attr:`ev_row`, :attr:`ev_n`, ``st[EVENTS]`` of them) and, after an interruption,
    handles the sample, moves ``st[POS]`` on (adding its updates to ``st[MADE]``) and
    calls :meth:`epoch` again."""

    EVENTS_CAPACITY = 1 << 16  # events (row, n) buffered before the kernel hands them back

    def __init__(self, Z: Any, q: np.ndarray, norm_up: np.ndarray, gamma_k: float) -> None:
        if not available():
            raise RuntimeError("numba is not installed (pip install novikoff[fast])")
        _compile()
        sparse = not isinstance(Z, np.ndarray)
        m, d = Z.shape
        if sparse:
            self.Zd = np.empty((0, 0))
            self.data = np.ascontiguousarray(Z.data, dtype=np.float64)
            # unsigned: numba then skips the negative-index check in the inner loops (2x); a
            # view, not a copy (CSR column indices are never negative)
            self.indices = Z.indices.view(np.uint32 if Z.indices.dtype == np.int32 else np.uint64)
            self.indptr = Z.indptr.astype(np.int64)  # one kernel specialization for all inputs
        else:
            self.Zd = np.ascontiguousarray(Z, dtype=np.float64)
            self.data = np.empty(0)
            self.indices = np.empty(0, dtype=np.uint64)
            self.indptr = np.zeros(1, dtype=np.int64)
        self.q = np.ascontiguousarray(q, dtype=np.float64)
        self.norm_up = np.ascontiguousarray(norm_up, dtype=np.float64)
        self.par = np.zeros(6)
        self.par[GK], self.par[D_COLS] = float(gamma_k), float(d)
        self.cfg = np.zeros(6, dtype=np.int64)
        self.cfg[SPARSE] = 1 if sparse else 0
        self.st = np.zeros(13, dtype=np.int64)
        self.fw = np.zeros(2)
        self.lv1 = np.empty(m, dtype=np.int64)
        self.lv2 = np.empty(m, dtype=np.int64)
        self.cbuf = np.empty(m)
        self.ev_row = np.empty(self.EVENTS_CAPACITY, dtype=np.int64)
        self.ev_n = np.empty(self.EVENTS_CAPACITY, dtype=np.int64)

    def configure(
        self,
        *,
        rule: str,
        fparam: float,
        gap: float,
        multiple: bool,
        active_sets: bool,
        levels: tuple[float, float],
        rounds: int,
        mini_epochs: int,
    ) -> None:
        """The rule (``"pdm"`` or ``"pfm"``), its float parameter, the PFM slack ``gap`` =
        |fl(beta)^2 - beta^2| (0 for PDM) and the schedule, as the numpy engine has them."""
        self.par[FPARAM], self.par[GAP] = fparam, gap
        self.par[LVL1], self.par[LVL2] = levels
        self.cfg[RULE] = PDM if rule == "pdm" else PFM
        self.cfg[MULTIPLE], self.cfg[ACTIVE] = int(multiple), int(active_sets)
        self.cfg[ROUNDS], self.cfg[MINI_EPOCHS] = rounds, mini_epochs

    def epoch(self, rows: np.ndarray, w: np.ndarray) -> tuple[int, float, int]:
        """Run (or resume) the epoch over ``rows`` (int64); returns (status, p, row) as
        :func:`_epoch` defines them. ``w`` is updated in place."""
        status, p, i = _epoch(
            self.Zd,
            self.data,
            self.indices,
            self.indptr,
            rows,
            self.lv1,
            self.lv2,
            self.cbuf,
            w,
            self.st,
            self.fw,
            self.q,
            self.norm_up,
            self.par,
            self.cfg,
            self.ev_row,
            self.ev_n,
        )
        return int(status), float(p), int(i)
