"""The float64 twins' state: the patterns, w, t and ||w||^2 with error bounds, and the decisions.

What :mod:`novikoff.twins.large_margin` runs on (see its docstring): :class:`TwinPatterns` gives
row access to dense or CSR patterns (block products, row updates, the exact rows);
:class:`TwinState` holds the twin's float weights and takes each decision in floats with a
rounding-error bound, and again in exact rational arithmetic from the float64 values (dyadic
rationals) when the bound cannot tell, so every decision is the exact one for the twin's own
state; its multiple-update count is the definition's count for that state.

The active sets' levels LEVEL1 = 1, LEVEL2 = 1/10 (and LEVEL3 = 1/100 with three levels) and
their schedule, MINI_EPOCHS = 20 mini-epochs in each of ROUNDS = 10 rounds, are the ones the
module docstring of :mod:`novikoff.twins.large_margin` describes.
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sps

from novikoff.twins import compiled_large_margin as cl

__all__ = ["LEVEL1", "LEVEL2", "LEVEL3", "MINI_EPOCHS", "ROUNDS", "TwinPatterns", "TwinState"]

_U = 2.0**-53
# the active sets' levels and rounds (the module docstring of novikoff.twins.large_margin)
LEVEL1, LEVEL2 = 1.0, 0.1
LEVEL3 = 0.01  # three_levels=True: the third level (the paper's own values were lost)
MINI_EPOCHS, ROUNDS = 20, 10


def _row_sums(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """The sum of each CSR row's ``values`` (0 for an empty row)."""
    m = len(indptr) - 1
    if len(values) == 0:
        return np.zeros(m)
    starts = np.minimum(indptr[:-1], len(values) - 1)
    out = np.add.reduceat(values, starts)
    out[indptr[1:] == indptr[:-1]] = 0.0  # reduceat gives an empty row a neighbour's value
    return out


class TwinPatterns:
    """Row access for dense or CSR patterns: block products, row updates, exact rows."""

    def __init__(self, Z: Any, compiled_squares: bool = False) -> None:
        """``compiled_squares``: the squared row norms of CSR ``Z`` in the compiled pass."""
        self.Z = Z  # np.ndarray or scipy.sparse.csr_matrix
        self.sparse = sps.issparse(Z)
        self.m, self.d = Z.shape
        if self.sparse:
            self.nnz_per_row = np.diff(Z.indptr)
            if compiled_squares:  # one pass, no 8-byte temporary per entry
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


class TwinState:
    """w, t and ||w||^2 with an error bound; decisions float-first, exact when close."""

    def __init__(self, P: TwinPatterns, rule: str, param: Fraction) -> None:
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
    def exact_holds(self, i: int, n: int = 0) -> bool:
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
        return self.exact_holds(i, n)

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
