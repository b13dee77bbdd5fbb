"""Safe screening for the perceptron scan: skip samples whose decision is provably positive.

Late in a run few samples are near the boundary, yet a plain scan reads every
row every epoch (the memory-bandwidth floor of ``Z @ w``). This scanner keeps
the decision values ``V = Z @ w_ref`` at a reference weight vector and, while
the current weights stay within ``theta`` of it (``||w - w_ref|| <= theta``),
scans only the *candidates*: the rows with ``V_i <= ||z_i|| (theta + slack_i)``.

**Why a skipped row cannot be a mistake.** Write ``u = z_i.w`` (real) for the
current float weights. By Cauchy-Schwarz ``u >= z_i.w_ref - ||z_i|| ||w - w_ref||``.
The computed values differ from the real ones by at most ``g ||z_i|| ||w||``
with ``g = d u_r / (1 - d u_r)``, ``u_r = 2^-53`` (the standard dot-product bound,
valid for any summation order, fused or not), so ``fl(z_i.w) > 0`` whenever
``V_i > ||z_i|| (theta + g (||w_ref|| + ||w||))``; with ``||w|| <= ||w_ref|| + theta``
that is the candidate test above (the norms and the test carry a relative
safety factor of 1e-9 for their own rounding). With exact integer arithmetic
(``g = 0``, the exact path's float64 tier) the values are exact. So the mistakes
found, in order, are exactly those of the plain scan: a skipped row would have
had a positive value there too.

When ``||w - w_ref||`` passes ``theta`` the scanner refreshes (one ``Z @ w`` pass,
new candidates). ``theta`` adapts: it doubles when refreshes come more than once
an epoch, and screening pauses (plain scan) when over half the rows are
candidates, retrying after a back-off. Natural presentation order only.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Any

import numpy as np

from novikoff.twins.scan import BlockScan

__all__ = ["SAFETY", "ScreenedScan", "active_rows", "rounding_coefficient", "row_norms"]

SAFETY = 1 + 1e-9  # relative allowance for the rounding of norms and of the test itself
_U = 2.0**-53


def rounding_coefficient(d: int, exact: bool) -> float:
    """c with |fl(z.w) - z.w| <= c ||z|| ||w|| for d-term dot products in any order
    (c = d u / (1 - d u)); 0 when every value is an exact integer below 2^53."""
    return 0.0 if exact else d * _U / (1 - d * _U)


def row_norms(Z: np.ndarray) -> np.ndarray:
    """||z_i|| for every row, rounded up by SAFETY."""
    Zf = np.asarray(Z, dtype=np.float64)
    return np.sqrt(np.einsum("ij,ij->i", Zf, Zf)) * SAFETY


def active_rows(V: np.ndarray, norms: np.ndarray, theta: float, ref_norm: float, c: float) -> np.ndarray:
    """The rows that may be mistakes at some w with ||w - w_ref|| <= theta, given their
    values ``V`` at w_ref (``ref_norm`` >= ||w_ref||): every other row has
    V_i > ||z_i|| (theta + c (2 ||w_ref|| + theta)), hence a positive computed value
    there (module docstring)."""
    return np.flatnonzero(V <= norms * ((theta + c * (2 * ref_norm + theta)) * SAFETY))


class ScreenedScan:
    """Scans of successive epochs of ``Z`` (natural order) against in-place updated weights."""

    def __init__(self, Z: np.ndarray, *, exact: bool) -> None:
        self.Z = Z
        m, d = Z.shape
        self.m = m
        self.g = rounding_coefficient(d, exact)
        self.scan = BlockScan()
        self.fraction = 0.02  # theta / ||w_ref||
        self.active = False
        self.wait = 1  # epochs before the next try
        self.refreshes_this_epoch = 0
        self.refreshes = 0
        self.ids = np.arange(m)
        self.rows = Z
        self.theta = np.inf
        self.w_ref = np.zeros(d)

    @cached_property
    def norms(self) -> np.ndarray:
        """||z_i|| rounded up (one pass over Z, on the first reference only: a run that
        never screens, e.g. one the compiled kernel takes over, never pays for it)."""
        return row_norms(self.Z)

    def _refresh(self, w: np.ndarray) -> None:
        """New reference weights and candidates (one full pass)."""
        self.refreshes += 1
        self.refreshes_this_epoch += 1
        if self.refreshes_this_epoch > 1:
            self.fraction = min(2 * self.fraction, 0.5)
        norm = float(np.linalg.norm(w)) * SAFETY
        theta = self.fraction * norm
        ids = active_rows(self.Z @ w, self.norms, theta, norm, self.g)
        if ids.size > self.m // 2 or norm == 0:
            self._pause()
            return
        self.w_ref = w.copy()
        self.theta = theta
        self.ids = ids
        self.rows = self.Z[ids]

    def _pause(self) -> None:
        self.active = False
        self.ids, self.rows, self.theta = np.arange(self.m), self.Z, np.inf
        self.fraction = max(self.fraction / 2, 1e-4)
        self.wait = min(2 * self.wait, 64)

    def _moved_too_far(self, w: np.ndarray) -> bool:
        return bool(float(np.linalg.norm(w - self.w_ref)) * SAFETY > self.theta)

    def epoch(self, w: np.ndarray) -> Iterator[tuple[int, Any]]:
        """Yield ``(j, value)`` for the mistakes of one epoch in order; the caller adds
        z_j to ``w`` in place before resuming."""
        self.refreshes_this_epoch = 0
        if not self.active:
            self.wait -= 1
            if self.wait <= 0:
                self.active = True
                self._refresh(w)
        pos = 0
        while True:
            start = int(np.searchsorted(self.ids, pos))
            rows = self.rows
            restarted = False
            # rows is rebound only after this generator is abandoned
            for c, value in self.scan.epoch(len(self.ids), lambda a, b: rows[a:b] @ w, start):  # noqa: B023
                j = int(self.ids[c])
                yield j, value
                pos = j + 1
                if self.active and self._moved_too_far(w):
                    self._refresh(w)
                    restarted = True
                    break
            if not restarted:
                return
