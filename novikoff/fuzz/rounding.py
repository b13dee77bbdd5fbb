"""When a float64 run may rightly differ from the exact one: each algorithm's rounding test.

``novikoff diff`` compares an implementation with the exact reference. On general
float data a difference is a bug only if no decision of the exact run came within
the float64 error of evaluating it; these predicates say whether one did.

For the binary algorithms, at each presentation the exact decision value is
compared with a bound on the error of evaluating it in float64. For p = w.z:
gamma_n sum|w_j z_j| (n terms) plus gamma_k (A.|z|) for the weights themselves
after k float additions (A sums |z_u| over the updates so far). For ||w||^2 (PDM,
PFM): gamma_n ||w||^2 plus 2 |w|.(gamma_k A). The perceptron decides the sign of
p; PDM decides D = (1 - eps)||w||^2 - k p; PFM the sign of p and then
D = beta^2 ||w||^2 - p^2. Every bound is doubled for its own rounding. A value of
exactly 0 with a zero bound is a tie (decided identically in float64), never close.

For the multiclass perceptron, a presentation is close when some class's exact
score comes within the error bound of the top score.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.reference.multiclass import MulticlassRun
from novikoff.runtime.runs import RunRecord, epoch_order

__all__ = [
    "Presentation",
    "multiclass_ambiguous",
    "pdm_ambiguous",
    "perceptron_ambiguous",
    "pfm_ambiguous",
    "presentations",
]

UNIT_ROUNDOFF = 2.0**-53


def _gamma(j: int) -> float:
    return j * UNIT_ROUNDOFF / (1 - j * UNIT_ROUNDOFF)


def _close(num: int, den: int, bound: float) -> bool:
    """True iff the exact value num/den (den > 0) is within a positive ``bound`` of 0."""
    return bound > 0 and abs(num) / den <= bound  # int / int is correctly rounded


@dataclass(frozen=True)
class Presentation:
    """One presentation of the exact binary run, with exact values as integer numerators
    over the common denominator ``den``: ``p`` = w.z and ``w2`` = ||w||^2, their float64
    error bounds, and ``k``, the updates made before it."""

    p: int
    w2: int
    den: int
    err_p: float
    err_w2: float
    k: int


def presentations(ds: Dataset, run: RunRecord, order: Any) -> Iterator[Presentation]:
    """Every presentation of the exact run ``run`` on ``ds`` in ``order``, in run order."""
    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    present = epoch_order(order, ds.n_samples)
    n = ds.dimension
    W = [0] * n
    acc = np.zeros(n)  # sum of |z_u| over the updates so far
    updates = iter(run.updates)
    pending = next(updates, None)
    k = 0
    den = s * s
    for epoch in range(run.epochs):
        for i in present(epoch):
            wf = np.abs(np.array([v / s for v in W]))  # each the float nearest w_j
            werr = _gamma(k) * acc
            err_p = 2 * (_gamma(n) * float(wf @ Zf[i]) + float(werr @ Zf[i]))
            err_w2 = 2 * (_gamma(n) * float(wf @ wf) + 2 * float(wf @ werr))
            p = sum(a * b for a, b in zip(W, Z[i]))
            yield Presentation(p, sum(a * a for a in W), den, err_p, err_w2, k)
            while pending == (epoch, i):  # several entries: a multiple update
                W = [a + b for a, b in zip(W, Z[i])]
                acc += Zf[i]
                k += 1
                pending = next(updates, None)


def perceptron_ambiguous(ds: Dataset, run: RunRecord, order: Any, value: Fraction | None) -> bool:
    """True iff some sign of w.z the exact perceptron run decided lies within float64 error."""
    return any(_close(v.p, v.den, v.err_p) for v in presentations(ds, run, order))


def pdm_ambiguous(ds: Dataset, run: RunRecord, order: Any, value: Fraction | None) -> bool:
    """True iff some PDM decision (1 - eps)||w||^2 - k w.z of the exact run (eps = ``value``)
    lies within float64 error."""
    if value is None:
        raise ValueError("PDM needs eps")
    c = 1 - value
    for v in presentations(ds, run, order):
        num = c.numerator * v.w2 - v.k * c.denominator * v.p
        if _close(num, c.denominator * v.den, 2 * (float(c) * v.err_w2 + v.k * v.err_p)):
            return True
    return False


def pfm_ambiguous(ds: Dataset, run: RunRecord, order: Any, value: Fraction | None) -> bool:
    """True iff some PFM decision of the exact run (beta = ``value``) lies within float64
    error: the sign of w.z, or, where w.z > 0, the sign of beta^2 ||w||^2 - (w.z)^2."""
    if value is None:
        raise ValueError("PFM needs beta")
    b2 = value * value
    for v in presentations(ds, run, order):
        if _close(v.p, v.den, v.err_p):
            return True
        p = v.p / v.den
        bound = 2 * (float(b2) * v.err_w2 + 2 * abs(p) * v.err_p + v.err_p**2)
        num = b2.numerator * v.w2 * v.den - b2.denominator * v.p * v.p
        if v.p > 0 and _close(num, b2.denominator * v.den * v.den, bound):
            return True
    return False


def multiclass_ambiguous(
    data: MulticlassData, run: MulticlassRun, order: Any, value: Fraction | None
) -> bool:
    """True iff at some presentation of the exact multiclass run another class's score came
    within the float64 error bound of the top score (so a float argmax may differ)."""
    X, s = data.scaled_rows
    Xf = np.abs(data.float_rows())
    K, D = data.n_classes, data.dimension
    W = [[0] * D for _ in range(K)]
    acc = np.zeros(D)
    present = epoch_order(order, data.n_samples)
    pending = iter(zip(run.updates, run.predictions))
    nxt = next(pending, None)
    g = _gamma(D)
    k = 0
    for epoch in range(run.epochs):
        for i in present(epoch):
            scores = [sum(a * b for a, b in zip(w, X[i])) for w in W]  # numerators over s^2
            wmax = max(float(np.abs(np.array([v / s for v in w])) @ Xf[i]) for w in W)
            bound = 2 * (2 * g * wmax + 2 * _gamma(k) * float(acc @ Xf[i]))
            top = max(scores)
            first = scores.index(top)
            if any(j != first and _close(top - v, s * s, bound) for j, v in enumerate(scores)):
                return True
            if nxt is not None and nxt[0] == (epoch, i):
                y, p = data.labels[i], nxt[1]
                W[y] = [a + b for a, b in zip(W[y], X[i])]
                W[p] = [a - b for a, b in zip(W[p], X[i])]
                acc += Xf[i]
                k += 1
                nxt = next(pending, None)
    return False
