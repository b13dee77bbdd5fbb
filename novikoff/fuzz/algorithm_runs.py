"""The exact runs ``novikoff diff`` and ``novikoff falsify`` compare with, and the float64
rounding tests they do not have in :mod:`novikoff.fuzz.rounding`, one per algorithm; the
registry entries (:mod:`novikoff.runtime.algorithms`, :class:`~novikoff.runtime.algorithms.FuzzSpec`)
name them.

Every ``*_run(data, value, order, max_epochs)`` returns the exact run the implementation is
compared with (``value`` the algorithm's parameter or None); every ``*_ambiguous(data, run,
order, value)`` says whether some decision of that run lies within float64 error of its
threshold, so that an implementation's differing there is rounding, not a bug.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.fuzz import rounding
from novikoff.fuzz.checks import CHECKS, VOTED_CHECKS, DiffCheck
from novikoff.fuzz.families import BINARY_FAMILIES, DataFamily
from novikoff.reference.averaged import averaged_from_run, voted_from_run
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.romma import romma_step, run_romma
from novikoff.runtime.runs import Order, RunRecord, epoch_order
from novikoff.twins.exact import exact_perceptron

__all__ = [
    "ROMMA_CLOSE",
    "ROMMA_FAMILIES",
    "ROMMA_MAX_UPDATES",
    "VOTED_ALL_CHECKS",
    "averaged_ambiguous",
    "averaged_run",
    "identity",
    "multiclass_run",
    "pdm_run",
    "perceptron_run",
    "pfm_beta",
    "pfm_run",
    "romma_ambiguous",
    "romma_run",
    "voted_ambiguous",
    "voted_run",
]

#: What ``novikoff diff --algorithm voted`` compares: the perceptron's checks and the voters'.
VOTED_ALL_CHECKS: tuple[DiffCheck, ...] = CHECKS + VOTED_CHECKS


def identity(eps: Fraction, gamma2: Fraction) -> Fraction:
    """PDM's eps for a falsify setting with eps: eps itself."""
    return eps


def pfm_beta(eps: Fraction, gamma2: Fraction) -> Fraction:
    """PFM's beta for eps on data with margin^2 ``gamma2``: the largest k/10^6 with
    (k/10^6)^2 <= (1 - eps)^2 gamma^2 (rational, so the run stays exact)."""
    target = (1 - eps) ** 2 * gamma2 * 10**12
    return Fraction(math.isqrt(target.numerator // target.denominator), 10**6)


def perceptron_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """The perceptron's exact run (the exact twin: run_perceptron's run, faster)."""
    return exact_perceptron(ds, order=order, max_epochs=max_epochs)


def pdm_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """PDM(eps = value), exactly."""
    return run_pdm(ds, value, order=order, max_epochs=max_epochs)


def pfm_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """PFM(beta = value), exactly."""
    return run_pfm(ds, value, order=order, max_epochs=max_epochs)


def multiclass_run(data: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """The multiclass perceptron, exactly."""
    return run_multiclass(data, order=order, max_epochs=max_epochs)


def averaged_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """The averaged perceptron read off the exact perceptron's run."""
    return averaged_from_run(ds, exact_perceptron(ds, order=order, max_epochs=max_epochs), order)


def voted_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """The voted perceptron read off the exact perceptron's run."""
    return voted_from_run(ds, exact_perceptron(ds, order=order, max_epochs=max_epochs), order)


_U = 2.0**-53


def _gamma(n: int) -> float:
    return n * _U / (1 - n * _U)


def _float_voters(ds: Any, run: RunRecord) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(|w_j| as floats, the float64 error bound of w_j, the exact integer W_j = s w_j)
    for j = 0..k: w_j after j float additions errs by at most gamma_j sum |z_u| per coordinate."""
    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    W = [0] * ds.dimension
    acc = np.zeros(ds.dimension)
    out = [(np.zeros(ds.dimension), np.zeros(ds.dimension), np.array(W, dtype=object))]
    for k, (_, i) in enumerate(run.updates, start=1):
        W = [a + b for a, b in zip(W, Z[i])]
        acc = acc + Zf[i]
        out.append((np.abs(np.array([v / s for v in W])), _gamma(k) * acc, np.array(W, dtype=object)))
    return out


def averaged_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    """True iff the perceptron's run is ambiguous (:func:`rounding.perceptron_ambiguous`) or
    the float64 error bound of the average (each w_j's, plus gamma_(k+2) for summing
    c_j w_j and dividing by N) exceeds 1e-10 of the exact average's norm, so its direction
    may rightly differ by more than the 1e-9 compared."""
    if rounding.perceptron_ambiguous(ds, run, order, value):
        return True
    counts = getattr(run, "counts", ())
    voters = _float_voters(ds, run)
    g = _gamma(len(voters) + 1)
    err = sum((c * (e + g * a) for (a, e, _), c in zip(voters, counts)), np.zeros(ds.dimension))
    err = err / max(sum(counts), 1)
    norm = float(np.linalg.norm([float(v) for v in run.weights]))
    return bool(np.linalg.norm(err) > 1e-10 * norm)


def voted_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    """True iff the perceptron's run is ambiguous or some w_j.x~_i (a sign the vote counts)
    lies within the float64 error bound of evaluating it: gamma_n |w_j|.|z_i| plus the
    weights' own error, doubled."""
    if rounding.perceptron_ambiguous(ds, run, order, value):
        return True
    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    g = _gamma(ds.dimension)
    for a, e, W in _float_voters(ds, run):
        for i, z in enumerate(Z):
            bound = 2 * (g * float(a @ Zf[i]) + float(e @ Zf[i]))
            p = sum(x * y for x, y in zip(W, z))
            if bound > 0 and abs(p) / (s * s) <= bound:
                return True
    return False


# ---------------------------------------------------------------------------------- ROMMA

#: ROMMA's decisions within this relative distance of a threshold count as ambiguous.
ROMMA_CLOSE = 1e-9

#: ROMMA's data families: the binary families of integer data, not float-exact for ROMMA (its
#: update divides, so its weights round even on integer data), each asking :func:`romma_ambiguous`.
#: The general float family is left out: on floats' dyadic values the exact reference's numbers
#: grow past minutes within its 16 updates.
ROMMA_FAMILIES: tuple[DataFamily, ...] = tuple(replace(f, exact=False) for f in BINARY_FAMILIES if f.exact)


#: The exact ROMMA run of diff and falsify stops after this many updates (its numbers double in
#: size per update; the CLI's default is 16): a falsify count is then a lower bound on the
#: updates, so a counterexample is still one, and diff counts such a run as undecided.
ROMMA_MAX_UPDATES = 12


def romma_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    """Conservative ROMMA (update iff w.z <= 0), exactly, stopped after ``ROMMA_MAX_UPDATES``."""
    return run_romma(ds, order=order, max_epochs=max_epochs, max_updates=ROMMA_MAX_UPDATES)


def romma_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    """True iff the exact ROMMA run stopped at its update limit (what the implementation does
    after it is not known exactly: counted as undecided, never as a bug), or, replaying the run
    exactly, some decision value w.z lies within ``ROMMA_CLOSE`` (relative to ||w|| ||z||) of 0,
    or some update's w.z within ``ROMMA_CLOSE`` of q ||w||^2 (the boundary between ROMMA's two
    update formulas). This is a window, as the float twin's, not a proved float64 error bound:
    ROMMA's float weights carry the rounding of every division before them."""
    if getattr(run, "stopped", "").startswith("update limit"):
        return True
    Z, s = ds.scaled_patterns
    zs = [[Fraction(v, s) for v in z] for z in Z]
    w = [Fraction(0)] * ds.dimension
    norm2 = Fraction(0)
    present = epoch_order(order, ds.n_samples)
    updates = set(map(tuple, run.updates))
    for epoch in range(run.epochs):
        for i in present(epoch):
            z = zs[i]
            p = sum((a * b for a, b in zip(w, z)), Fraction(0))
            q = sum((b * b for b in z), Fraction(0))
            scale = math.sqrt(float(norm2) * float(q))
            if norm2 and abs(float(p)) <= ROMMA_CLOSE * scale:
                return True
            if (epoch, i) not in updates:
                continue
            if norm2 and abs(float(p - q * norm2)) <= ROMMA_CLOSE * (abs(float(p)) + float(q * norm2)):
                return True
            step = romma_step(norm2, p, q)
            if step is None:
                return False
            _, cw, cz = step
            w = [cw * a + cz * b for a, b in zip(w, z)]
            norm2 = sum((a * a for a in w), Fraction(0))
    return False
