"""The float64 ROMMA twin: the rule of :mod:`novikoff.reference.romma` in numpy.

Same contract and run record fields as the exact reference (updates, mistake count, kinds,
``stopped``), the same minimum-norm update (``p >= q l``: w <- z/q; else both constraints
tight, the closed form; ``a = 0`` with ``p < q l``: the constraint set is empty and the
run stops), computed in float64, and the scan is a block scan with restart (each block one
``Z @ w`` product; nothing computed after an update is used).

Close calls. A decision value ``w.z - threshold`` within ``CLOSE`` (relative to
``||w|| ||z|| + threshold``) of zero is re-taken in exact arithmetic: the twin replays its
own updates since the last such re-take exactly (over the dyadic values of the float
patterns, so over the dataset itself on float-exact data), decides on the exact weights and
resets the float weights to them, rounded; likewise an update whose w.z is that close to
``q ||w||^2`` (the boundary between the two update formulas) is computed exactly.
Exact ties (``w.z = 0`` on integer data, the common case)
are thus decided as the reference decides them. The exact weights double in
bit length with every update, so after ``EXACT_UPDATES`` updates close calls stay in floats
(counted in ``unresolved``). Decisions outside the window are the float ones: the twin equals the
reference as long as the float weights stay within the window of the exact ones, which the
tests check on generated data; it is not proved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.twins.perceptron import input_patterns

__all__ = ["CLOSE", "EXACT_UPDATES", "RommaTwinRun", "romma_on_patterns", "romma_twin"]

#: Relative width of the window of decision values re-taken exactly.
CLOSE = 1e-9
#: Close calls are re-taken exactly only while the run has made at most this many updates.
EXACT_UPDATES = 12
_FIRST_BLOCK = 16


@dataclass
class RommaTwinRun(RunRecord):
    """A float ROMMA run; ``exact_decisions`` counts close calls re-taken exactly,
    ``unresolved`` those left to floats (after ``EXACT_UPDATES`` updates)."""

    aggressive: bool = False
    eps: float = 0.0
    mistake_count: int = 0
    kinds: list[str] = field(default_factory=list)
    stopped: str = ""
    exact_decisions: int = 0
    unresolved: int = 0


def _check_eps(eps: float, aggressive: bool) -> float:
    try:
        value = float(eps)
    except (TypeError, ValueError):
        raise InputError(f"eps must be a number in [0, 1), got {eps!r}") from None
    if not 0 <= value < 1:
        raise InputError(f"eps must be in [0, 1), got {eps!r}")
    if value and not aggressive:
        raise InputError("eps > 0 needs the aggressive rule (the conservative rule updates on w.z <= 0)")
    return value


def _exact_step(w: list[Fraction], norm2: Fraction, z: list[Fraction]) -> tuple[str, list[Fraction]] | None:
    """The exact minimum-norm update (kind, new w), None if the constraint set is empty."""
    p = sum((a * b for a, b in zip(w, z)), Fraction(0))
    q = sum((b * b for b in z), Fraction(0))
    if q == 0:
        return None
    if p >= q * norm2:
        return ("start" if norm2 == 0 else "z"), [b / q for b in z]
    a = q * norm2 - p * p
    if a == 0:
        return None
    cw, cz = (q * norm2 - p) / a, norm2 * (1 - p) / a
    return "both", [cw * x + cz * b for x, b in zip(w, z)]


class _Shadow:
    """The exact weights of the twin's own update sequence, advanced lazily."""

    def __init__(self, Z: np.ndarray) -> None:
        self.Z = Z
        self.w: list[Fraction] = [Fraction(0)] * Z.shape[1]
        self.norm2 = Fraction(0)
        self.pending: list[int] = []

    def row(self, i: int) -> list[Fraction]:
        return [Fraction(float(v)) for v in self.Z[i]]

    def catch_up(self) -> None:
        for i in self.pending:
            step = _exact_step(self.w, self.norm2, self.row(i))
            if step is None:  # the float run updated where the exact one cannot: keep going in floats
                raise _Diverged
            self.w = step[1]
            self.norm2 = sum((v * v for v in self.w), Fraction(0))
        self.pending.clear()

    def floats(self) -> tuple[np.ndarray, float]:
        return np.array([float(v) for v in self.w], dtype=np.float64), float(self.norm2)


class _Diverged(Exception):
    pass


def romma_twin(
    X: Any,
    y: Any | None = None,
    *,
    aggressive: bool = False,
    eps: float = 0.0,
    bias: float = 1.0,
    max_epochs: int = 1000,
    order: Order = None,
) -> RommaTwinRun:
    """ROMMA in float64; ``X`` may be a :class:`~novikoff.data.Dataset` (then ``y``, ``bias`` come from it).

    Guarantees the contract of :func:`novikoff.reference.romma.run_romma` (updates as
    (epoch, index) pairs, ``converged`` iff an epoch made no update, ``stopped`` when an
    update finds the constraint set empty), with float decisions outside the close-call window.
    """
    return romma_on_patterns(
        input_patterns(X, y, bias), aggressive=aggressive, eps=eps, max_epochs=max_epochs, order=order
    )


def romma_on_patterns(
    Z: np.ndarray,
    *,
    aggressive: bool = False,
    eps: float = 0.0,
    max_epochs: int = 1000,
    order: Order = None,
) -> RommaTwinRun:
    """ROMMA on float64 patterns z_i (rows of ``Z``, labels folded in); see :func:`romma_twin`."""
    max_epochs = check_max_epochs(max_epochs)
    eps = _check_eps(eps, aggressive)
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    m, d = Z.shape
    presentation = epoch_order(order, m)
    thr = 1.0 - eps if aggressive else 0.0
    qs = np.einsum("ij,ij->i", Z, Z)
    norms = np.sqrt(qs)
    w = np.zeros(d)
    norm2 = 0.0
    shadow = _Shadow(Z)
    run = RommaTwinRun(
        weights=w,
        updates=[],
        epochs=0,
        converged=False,
        algorithm="romma-aggressive" if aggressive else "romma",
        aggressive=aggressive,
        eps=eps,
    )
    epoch = 0
    block = _FIRST_BLOCK
    for epoch in range(max_epochs):
        idx = np.asarray(presentation(epoch), dtype=np.intp)
        clean = True
        pos = 0
        while pos < m:
            rows = idx[pos : pos + block]
            values = Z[rows] @ w - thr
            hit = values < 0 if aggressive else values <= 0
            close = np.abs(values) <= CLOSE * (math.sqrt(norm2) * norms[rows] + thr)
            flagged = np.flatnonzero(hit | close)
            if flagged.size == 0:
                pos += rows.size
                block = min(2 * block, m)
                continue
            j = int(flagged[0])
            i = int(rows[j])
            pos += j + 1
            block = _FIRST_BLOCK
            exact_w: list[Fraction] | None = None
            if close[j]:
                if len(run.updates) <= EXACT_UPDATES:
                    try:
                        shadow.catch_up()
                    except _Diverged:
                        shadow.pending.clear()
                        run.unresolved += 1
                    else:
                        run.exact_decisions += 1
                        z = shadow.row(i)
                        pe = sum((a * b for a, b in zip(shadow.w, z)), Fraction(0))
                        t = 1 - Fraction(eps) if aggressive else Fraction(0)
                        w, norm2 = shadow.floats()
                        if not (pe < t if aggressive else pe <= t):
                            continue
                        exact_w = shadow.w
                        p_mistake = pe <= 0
                else:
                    run.unresolved += 1
                    if not hit[j]:
                        continue
            if exact_w is None:
                p_float = float(values[j] + thr)
                p_mistake = p_float <= 0
                # the branch p >= q l is a decision too: near it, take the step exactly; so is
                # the aggressive rule's mistake flag (w.z <= 0), near w.z = 0
                ql = float(qs[i]) * norm2
                near_branch = abs(p_float - ql) <= CLOSE * (abs(p_float) + ql)
                near_mistake = aggressive and abs(p_float) <= CLOSE * math.sqrt(norm2) * float(norms[i])
                if (near_branch or near_mistake) and len(run.updates) <= EXACT_UPDATES:
                    try:
                        shadow.catch_up()
                    except _Diverged:
                        shadow.pending.clear()
                        run.unresolved += 1
                    else:
                        run.exact_decisions += 1
                        exact_w = shadow.w
                        p_mistake = sum((a * b for a, b in zip(exact_w, shadow.row(i))), Fraction(0)) <= 0
            clean = False
            where = f"update {len(run.updates) + 1} (epoch {epoch}, sample {i})"
            if exact_w is not None:
                step = _exact_step(exact_w, shadow.norm2, shadow.row(i))
                if step is None:
                    run.stopped = f"{where}: the constraint set is empty: the data are not separable"
                    break
                kind, shadow.w = step
                shadow.norm2 = sum((v * v for v in shadow.w), Fraction(0))
                w, norm2 = shadow.floats()
            else:
                step_f = _float_step(w, norm2, Z[i], float(qs[i]))
                if step_f is None:
                    run.stopped = f"{where}: the constraint set is empty: the data are not separable"
                    break
                kind, w = step_f
                norm2 = float(w @ w)
                shadow.pending.append(i)
            run.updates.append((epoch, i))
            run.kinds.append(kind)
            run.mistake_count += p_mistake
        if run.stopped:
            break
        if clean:
            run.converged = True
            break
    run.weights = w
    run.epochs = epoch + 1
    return run


def _float_step(w: np.ndarray, norm2: float, z: np.ndarray, q: float) -> tuple[str, np.ndarray] | None:
    """The float minimum-norm update (kind, new w); None if the constraint set is empty."""
    if q == 0.0:
        return None
    p = float(w @ z)
    if p >= q * norm2:
        return ("start" if norm2 == 0.0 else "z"), z / q
    a = q * norm2 - p * p
    if a <= 8 * np.finfo(np.float64).eps * q * norm2:  # z along w with p < q l: a nonpositive multiple
        return None
    return "both", ((q * norm2 - p) / a) * w + (norm2 * (1 - p) / a) * z
