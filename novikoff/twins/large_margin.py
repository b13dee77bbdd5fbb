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
(:func:`_three_level_rounds`; numpy engine only: "auto" then stays on numpy).

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

import itertools
import math
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sps

from novikoff.data.dataset import sign_labels
from novikoff.errors import InputError
from novikoff.runtime.parameters import parse_epsilons, validate_beta
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.twins import compiled_large_margin as cl
from novikoff.twins.perceptron import input_patterns

__all__ = ["TwinRun", "pdm_succ_twin", "pdm_twin", "pfm_twin", "twin_sparse_patterns"]

_U = 2.0**-53
_FIRST_BLOCK = 16
LEVEL1, LEVEL2 = 1.0, 0.1
LEVEL3 = 0.01  # three_levels=True: the third level (the paper's own values were lost)
MINI_EPOCHS, ROUNDS = 20, 10
COMPILED_FROM = 10_000  # engine="auto": the compiled kernel from the start from this many stored values
COMPILED_CONVERSION_FROM = (
    10**6
)  # twin_sparse_patterns converts in the compiled pass from this many non-zeros
SWITCH_AFTER = 0.5  # engine="auto", smaller problems: the kernel takes over after this many seconds
ENGINES = ("auto", "numpy", "compiled")


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


def _row_sums(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """The sum of each CSR row's ``values`` (0 for an empty row)."""
    m = len(indptr) - 1
    if len(values) == 0:
        return np.zeros(m)
    starts = np.minimum(indptr[:-1], len(values) - 1)
    out = np.add.reduceat(values, starts)
    out[indptr[1:] == indptr[:-1]] = 0.0  # reduceat gives an empty row a neighbour's value
    return out


class _Patterns:
    """Row access for dense or CSR patterns: block products, row updates, exact rows."""

    def __init__(self, Z: Any) -> None:
        self.Z = Z  # np.ndarray or scipy.sparse.csr_matrix
        self.sparse = sps.issparse(Z)
        self.m, self.d = Z.shape
        if self.sparse:
            self.nnz_per_row = np.diff(Z.indptr)
            if _compiled_set_up(Z.nnz):  # one pass, no 8-byte temporary per entry
                sq = cl.row_squares(Z.indptr, Z.data)
            else:
                sq = _row_sums(Z.data * Z.data, Z.indptr)
        else:
            sq = np.einsum("ij,ij->i", Z, Z)
            self.nnz_per_row = np.full(self.m, self.d)
        self.q = sq  # ||z_i||^2 (float)
        self.norm_up = np.sqrt(sq) * (1 + 4 * _U)  # upper bounds of ||z_i||
        k = int(self.nnz_per_row.max()) + 2 if self.m else 2
        self.gamma_k = k * _U / (1 - k * _U)

    def block(self, rows: np.ndarray | slice, w: np.ndarray) -> np.ndarray:
        return np.asarray(self.Z[rows] @ w).ravel()

    def take(self, rows: np.ndarray) -> Any:
        """The rows in this order, ready for contiguous block products (one copy per scan)."""
        natural = len(rows) == self.m and bool(np.all(rows[1:] > rows[:-1])) if len(rows) else True
        return self.Z if natural else self.Z[rows]

    def block_of(self, taken: Any, a: int, b: int, w: np.ndarray) -> np.ndarray:
        """Decision values z.w of rows a..b-1 of ``take``'s result."""
        if not self.sparse:
            return np.asarray(taken[a:b] @ w)
        if a == 0 and b == taken.shape[0]:
            return np.asarray(taken @ w).ravel()
        ptr = taken.indptr
        lo, hi = ptr[a], ptr[b]
        if hi == lo:
            return np.zeros(b - a)
        prod = taken.data[lo:hi] * w[taken.indices[lo:hi]]
        starts = ptr[a:b] - lo
        out = np.add.reduceat(prod, np.minimum(starts, hi - lo - 1))
        out[ptr[a + 1 : b + 1] == ptr[a:b]] = 0.0  # empty rows (reduceat would copy a neighbour)
        return out

    def add(self, w: np.ndarray, i: int, n: float) -> None:
        if self.sparse:
            lo, hi = self.Z.indptr[i], self.Z.indptr[i + 1]
            w[self.Z.indices[lo:hi]] += n * self.Z.data[lo:hi]
        else:
            w += n * self.Z[i]

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(columns, values) of the non-zero entries of z_i."""
        if self.sparse:
            lo, hi = self.Z.indptr[i], self.Z.indptr[i + 1]
            cols, vals = self.Z.indices[lo:hi], self.Z.data[lo:hi]
        else:
            cols = np.flatnonzero(self.Z[i])
            vals = self.Z[i, cols]
        keep = vals != 0
        return cols[keep], vals[keep]


def _dyadic(values: np.ndarray) -> tuple[list[int], int]:
    """Finite float64 values as (integers, e), each value exactly integer * 2**e."""
    if len(values) == 0:
        return [], 0
    mant, exp = np.frexp(values)  # values = mant 2**exp, |mant| in [0.5, 1) (or 0)
    ints = (mant * 2.0**53).astype(np.int64).tolist()  # exact: 53-bit significands
    shifts = exp.astype(np.int64) - 53
    low = int(shifts.min())
    return [v << s for v, s in zip(ints, (shifts - low).tolist())], low


def _dot_ints(a: list[int], b: list[int]) -> int:
    return sum(map(operator.mul, a, b))


def _scaled(value: int, e: int) -> Fraction:
    return Fraction(value * 2**e) if e >= 0 else Fraction(value, 2**-e)


class _State:
    """w, t and ||w||^2 with an error bound; decisions float-first, exact when close."""

    def __init__(self, P: _Patterns, rule: str, param: Fraction) -> None:
        self.P = P
        self.rule = rule  # "pdm" (param = eps) or "pfm" (param = beta)
        self.param = param
        self.fparam = float(param)
        self.w = np.zeros(P.d)
        self.t = 0
        self.w2 = 0.0
        self.w2_err = 0.0
        self.exact = 0
        self.products = 0  # the compiled kernel's z_i.w (TwinRun.row_products)
        self.max_updates = 10**7
        self.stopped = ""
        self.kernel: cl.LargeMarginKernel | None = None  # the compiled engine's, when it runs
        self.switch_at: float | None = None  # engine="auto": when the kernel may take over
        self.engines = ["numpy"]  # the engines that ran, in order (TwinRun.engine)
        self.level1 = LEVEL1  # this epoch's level-1 parameter (first_level1 in epoch 0)
        self.multiple_from = 0  # multiple updates from this full epoch on
        self.first_level1: float | None = None
        self.three_levels = False  # the paper's three nested active sets (numpy engine only)

    def refresh(self) -> None:
        self.w2 = float(self.w @ self.w)
        self.w2_err = (self.P.d + 2) * _U * self.w2 * 1.01

    # --- decisions ----------------------------------------------------------
    def _exact_holds(self, i: int, n: int = 0) -> bool:
        """The rule's condition at (w + n z_i, t + n), exactly from the float64 values."""
        self.exact += 1
        cols, vals = self.P.row(i)
        zi, ez = _dyadic(vals)  # floats are dyadic rationals: exact sums of integers
        wi, ew = _dyadic(self.w[cols])
        wa, ea = _dyadic(self.w[np.flatnonzero(self.w)])
        p = _scaled(_dot_ints(wi, zi), ew + ez)
        q = _scaled(_dot_ints(zi, zi), 2 * ez)
        w2 = _scaled(_dot_ints(wa, wa), 2 * ea)
        t, p, w2 = self.t + n, p + n * q, w2 + 2 * n * p + n * n * q
        if self.rule == "pdm":
            return t * p <= (1 - self.param) * w2
        return p <= 0 or p * p <= self.param * self.param * w2

    def margins(self, p: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(D, err) for the current state: the condition holds iff the exact D >= 0 (PDM:
        D = (1 - eps)||w||^2 - t w.z; PFM: 1 if w.z <= 0 else beta^2 ||w||^2 - (w.z)^2), and
        |fl(D) - D| <= err. :meth:`decide_one` is the same computation for one sample at n."""
        err_p = self.P.gamma_k * self.P.norm_up[rows] * math.sqrt(self.w2 + self.w2_err)
        abs_p = np.abs(p)
        if self.rule == "pdm":
            a = 1.0 - self.fparam
            D = a * self.w2 - self.t * p
            err = (a * self.w2_err + 4 * _U * a * self.w2) + self.t * (err_p + 4 * _U * abs_p)
            return D, err
        b2 = self.fparam * self.fparam
        neg = p <= -err_p
        D = np.where(neg, 1.0, b2 * self.w2 - p * p)
        err = b2 * self.w2_err + 2 * abs_p * err_p + err_p**2 + 8 * _U * (b2 * self.w2 + p * p)
        err = np.where(neg, 0.0, err + abs(b2 - float(self.param * self.param)) * self.w2)
        return D, err

    def decide_one(self, p: float, i: int, n: int = 0) -> bool:
        """The same decision as :meth:`holds` for one sample, in scalar float arithmetic."""
        q = float(self.P.q[i])
        t = self.t + n
        pn = p + n * q
        w2n = self.w2 + 2 * n * p + n * n * q
        err_p = self.P.gamma_k * float(self.P.norm_up[i]) * math.sqrt(self.w2 + self.w2_err) * (1 + n)
        err_p = err_p + n * q * self.P.gamma_k
        err_w2 = self.w2_err + 2 * n * err_p + 8 * _U * (self.w2 + 2 * n * abs(p) + n * n * q)
        if self.rule == "pdm":
            a = 1.0 - self.fparam
            D = a * w2n - t * pn
            err = a * err_w2 + t * err_p + 4 * _U * (a * abs(w2n) + t * abs(pn))
        else:
            b2 = self.fparam * self.fparam
            if pn <= -err_p:
                D, err = 1.0, 0.0
            else:
                D = b2 * w2n - pn * pn
                err = b2 * err_w2 + 2 * abs(pn) * err_p + err_p**2 + 8 * _U * (b2 * w2n + pn * pn)
                err += abs(b2 - float(self.param * self.param)) * abs(w2n)
        if err == 0 and D == 0:
            return True
        if D > err:
            return True
        if D < -err:
            return False
        return self._exact_holds(i, n)

    # --- updates ------------------------------------------------------------
    def count(self, p: float, i: int) -> int:
        """The multiple-update count, capped at the update budget.

        Returns the smallest n >= 1 at which the rule's condition fails at (w + n z_i,
        t + n), or ``max_updates - t + 1`` when that is smaller (the caller then stops
        at ``max_updates``; a zero pattern never stops updating). The closed form is a
        first guess; the decisions at n and n - 1 correct it, searched by galloping and
        bisection so the number of decisions is O(log budget) whatever the guess.
        """
        q = float(self.P.q[i])
        if self.rule == "pdm":
            eps = self.fparam
            a, b, c = eps * q, self.t * q - (1 - 2 * eps) * p, (1 - eps) * self.w2 - self.t * p
        else:
            b2 = self.fparam**2
            a, b, c = q * (q - b2), 2 * p * (q - b2), -(p * p - b2 * self.w2)
        disc = b * b + 4 * a * c
        root = (-b + math.sqrt(disc)) / (2 * a) if disc >= 0 and a > 0 else 0.0
        limit = max(self.max_updates - self.t + 1, 1)
        n = 1 if not math.isfinite(root) else min(max(math.floor(root), 0) + 1, limit)
        if self.decide_one(p, i, n):  # the count is above n: gallop up, then bisect
            lo, step = n, 1
            while True:
                hi = min(lo + step, limit)
                if hi == lo:
                    return limit
                if not self.decide_one(p, i, hi):
                    break
                lo, step = hi, 2 * step
        else:  # the count is at most n: gallop down to a holding n (n = 0 holds), then bisect
            hi, step = n, 1
            while True:
                lo = max(hi - step, 0)
                if lo == 0 or self.decide_one(p, i, lo):
                    break
                hi, step = lo, 2 * step
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.decide_one(p, i, mid):
                lo = mid
            else:
                hi = mid
        return hi

    def update(self, p: float, i: int, n: int) -> None:
        q = float(self.P.q[i])
        self.P.add(self.w, i, float(n))
        self.t += n
        if self.P.sparse:
            err_p = self.P.gamma_k * self.P.norm_up[i] * math.sqrt(self.w2 + self.w2_err)
            new = self.w2 + 2 * n * p + n * n * q
            self.w2_err += (
                2 * n * err_p
                + 8 * _U * (abs(new) + 2 * n * abs(p) + n * n * q)
                + 2 * _U * self.P.d * abs(new)
            )
            self.w2 = new
        else:
            self.refresh()


def _scan(
    S: _State,
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
            if D[c] > err[c] or (err[c] == 0 and D[c] == 0) or S._exact_holds(int(idx[c])):
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


def _products(S: _State, rows: np.ndarray) -> np.ndarray:
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


def _closeness(S: _State, rows: np.ndarray) -> np.ndarray:
    """c_i for the active sets, a function of (w, t) only: both engines compute it alike."""
    p = _products(S, rows)
    w2 = float(np.cumsum(S.w * S.w)[-1])  # summed in order, as the compiled kernel sums it
    if S.rule == "pdm":
        thr = (1 - S.fparam) * w2
        return S.t * p / thr if thr > 0 else np.zeros_like(p)
    thr = S.fparam * math.sqrt(w2)
    return p / thr if thr > 0 else np.zeros_like(p)


def _numpy_epoch(
    S: _State, rows: np.ndarray, multiple: bool, active_sets: bool, epoch: int, updates: list[tuple[int, int]]
) -> tuple[bool, int]:
    """One epoch: the full pass, then (active sets) the rounds; returns (clean, mini-epochs)."""
    mini = 0
    made = _scan(S, rows, multiple, epoch, updates)
    if S.stopped or made == 0 or not active_sets:
        return made == 0, mini
    if S.three_levels:
        return False, _three_level_rounds(S, rows, multiple, epoch, updates)
    for _ in range(ROUNDS):
        c = _closeness(S, rows)
        level1 = rows[c <= 1 + S.level1]
        made_round = 0
        for _ in range(MINI_EPOCHS):
            c1 = _closeness(S, level1) if len(level1) else c[:0]
            level2 = level1[c1 <= 1 + LEVEL2]
            mini += 1
            made = _scan(S, level2, multiple, epoch, updates)
            made_round += made
            if S.stopped:
                return False, mini
            if made == 0:
                break
        mini += 1
        made_round += _scan(S, level1, multiple, epoch, updates)
        if S.stopped or made_round == 0:
            break
    return False, mini


def _three_level_rounds(
    S: _State, rows: np.ndarray, multiple: bool, epoch: int, updates: list[tuple[int, int]]
) -> int:
    """The paper's three nested active sets after a full pass with updates: level 1 from the
    data (c <= 1 + level1), level 2 from level 1 (c <= 1 + LEVEL2), level 3 from level 2
    (c <= 1 + LEVEL3); level 3 is scanned for up to MINI_EPOCHS mini-epochs (rebuilt from
    level 2 before each, until one is clean), then level 2 once, up to ROUNDS cycles of level 2
    (each rebuilt from level 1), then level 1 once, up to ROUNDS cycles of level 1; a cycle
    without updates ends its loop. Returns the mini-epochs (scans of a level)."""
    mini = 0
    for _ in range(ROUNDS):
        c = _closeness(S, rows)
        level1 = rows[c <= 1 + S.level1]
        made1 = 0
        for _ in range(ROUNDS):
            c1 = _closeness(S, level1) if len(level1) else c[:0]
            level2 = level1[c1 <= 1 + LEVEL2]
            made2 = 0
            for _ in range(MINI_EPOCHS):
                c2 = _closeness(S, level2) if len(level2) else c[:0]
                level3 = level2[c2 <= 1 + LEVEL3]
                mini += 1
                made = _scan(S, level3, multiple, epoch, updates)
                made2 += made
                if S.stopped:
                    return mini
                if made == 0:
                    break
            mini += 1
            made2 += _scan(S, level2, multiple, epoch, updates)
            made1 += made2
            if S.stopped:
                return mini
            if made2 == 0:
                break
        mini += 1
        made1 += _scan(S, level1, multiple, epoch, updates)
        if S.stopped or made1 == 0:
            break
    return mini


def _compiled_epoch(
    S: _State, rows: np.ndarray, multiple: bool, active_sets: bool, epoch: int, updates: list[tuple[int, int]]
) -> tuple[bool, int]:
    """:func:`_numpy_epoch` in the compiled kernel; the samples it cannot decide in floats
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


def _run_stage(
    S: _State,
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
        run_epoch = _numpy_epoch if S.kernel is None else _compiled_epoch
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


def _engine(engine: str, S: _State) -> None:
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


def _switch(S: _State) -> None:
    """engine="auto" on a small problem: the compiled kernel takes over after an epoch
    that ended once the run had taken SWITCH_AFTER seconds (both engines make the same updates, and
    they share the state, so the run is the same whichever ran each epoch)."""
    if S.kernel is None and S.switch_at is not None and time.perf_counter() >= S.switch_at:
        S.kernel = cl.LargeMarginKernel(S.P.Z, S.P.q, S.P.norm_up, S.P.gamma_k)
        S.engines.append("compiled")


def _protocol(S: _State, multiple_from_epoch: int, first_level1: float | None, three_levels: bool) -> None:
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


def _patterns(X: Any, y: Any | None, bias: float) -> _Patterns:
    if sps.issparse(X):
        if y is None:
            raise InputError("y is required unless X is a Dataset")
        return _Patterns(twin_sparse_patterns(X, y, bias))
    return _Patterns(input_patterns(X, y, bias))


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
    engine: str = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PFM(beta) in float64 (dense or CSR ``X``, or a Dataset); see the module docstring
    (``engine``: "auto", "numpy" or "compiled", the same updates whichever runs)."""
    b = validate_beta(beta)
    P = _patterns(X, y, bias)
    if multiple_updates and float(b) ** 2 >= float(P.q.min()):
        raise InputError(f"pfm: beta = {b} is not below min ||z_i||; multiple updates would never end")
    S = _State(P, "pfm", b)
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
    engine: str = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PDM with eps_1 > ... > eps_final in float64, each stage continuing from the last
    (``engine`` as in :func:`pfm_twin`)."""
    eps = parse_epsilons(epsilons)
    P = _patterns(X, y, bias)
    limit = check_max_epochs(max_epochs)
    S = _State(P, "pdm", eps[0])
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
    engine: str = "auto",
    multiple_from_epoch: int = 0,
    first_level1: float | None = None,
    three_levels: bool = False,
) -> TwinRun:
    """PDM(eps) in float64 from w = 0, t = 0 (``engine`` as in :func:`pfm_twin`)."""
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
