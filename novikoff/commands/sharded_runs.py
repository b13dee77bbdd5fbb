"""The exact perceptron and the Freund-Schapire bound on sharded data (``novikoff certify DATA
--executor``), the rows staying where they are.

:func:`sharded_perceptron` is :func:`novikoff.twins.exact.exact_perceptron` in natural order
on the concatenation of the shards: an epoch is a relay through the shards in order (several
epochs relayed at once), each shard's task running the exact scan-with-restart
(:class:`~novikoff.twins.scan.BlockScan`) on its own rows from the weights the previous shard
left, in the integer tiers of :mod:`novikoff.twins.integer` (float64 while its no-overflow
bound proves every product exact, then int64, then Python ints). Every decision is an exact
integer sign, so the updates, epochs and weights are the twin's (tested). What reaches the
driver per update: the sample, its decision value w.z_i, ||Z_i||^2 and p*.Z_i, from which
N1-N3 are checked after every update in the twin's integer form
(:func:`~novikoff.twins.exact.n1_n2_n3_integer_form`), the spec's statements deciding when it
fails.

:func:`sharded_nonseparable_bound` is :func:`novikoff.reference.nonseparable.nonseparable_bound`
on that run: the candidate directions are sum_i z_i (exact) and the rationalized minimizers of
the squared-hinge SVM found by the same Newton steps along the same grid of C, whose sums over
the rows (the Hessian, the gradient, the objective) are taken shard by shard and added in
shard order; the margins u.z_i of every candidate come here (one number per sample) and the
best margin threshold, the bound and its check after every pass are exactly
:func:`~novikoff.reference.nonseparable.best_gamma`'s and FS1's. The one difference from the
single-machine bound: those float sums are added in another order than one BLAS call over
all the rows, so a direction can round to another integer vector when the float search meets
a near-tie; the bound reported is then for another u, exact and checked all the same.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np

from novikoff.certificates.format import SeparableCertificate
from novikoff.certificates.minnorm import PatternAtoms
from novikoff.certificates.sharded.data import Block, ShardedData
from novikoff.errors import InvariantViolation
from novikoff.exact.bigdot import one_blas_thread, small_times_big
from novikoff.exact.rational import RationalVector
from novikoff.reference.nonseparable import MAX_SVM_DIMENSION, NonseparableBound, best_gamma
from novikoff.runtime.runs import RunRecord, check_max_epochs
from novikoff.spec.nonseparable import fs_bound_holds
from novikoff.twins.exact import n1_n2_n3_integer_form
from novikoff.twins.integer import LIMITS, TIERS, IntegerPatterns, tier_dtype
from novikoff.twins.scan import BlockScan

__all__ = ["sharded_nonseparable_bound", "sharded_perceptron"]


# ------------------------------------------------------------------------------ the perceptron


class _Pass:
    """One exact pass over a block's rows from given integer weights (module docstring)."""

    def __init__(self, patterns: IntegerPatterns, W: Sequence[int]) -> None:
        self.patterns = patterns
        self.bound = max((abs(v) for v in W), default=0)  # >= max |W_j|
        tier = patterns.first_tier
        while not self._covers(tier):
            tier = TIERS[TIERS.index(tier) + 1]
        self.tier = tier
        self.Z = patterns.matrix(tier)
        self.W = self._weights(W, tier)

    def _covers(self, tier: str) -> bool:
        """Whether ``tier`` holds one more update exactly."""
        limit = LIMITS[tier]
        return limit is None or (self.bound + self.patterns.peak) * self.patterns.l1_max <= limit

    @staticmethod
    def _weights(W: Sequence[int], tier: str) -> np.ndarray:
        out = np.empty(len(W), dtype=tier_dtype(tier))
        out[:] = [int(v) for v in W] if tier == "python-int" else W
        return out

    def values(self, a: int, b: int) -> np.ndarray:
        return self.Z[a:b] @ self.W

    def update(self, j: int) -> None:
        """W += Z_j exactly, moving to the next tier first when the bound asks for it."""
        if not self._covers(self.tier):
            self.bound = int(np.abs(self.W).max()) if self.W.dtype != object else max(map(abs, self.W))
            tier = self.tier
            while not self._covers(tier):
                tier = TIERS[TIERS.index(tier) + 1]
            if tier != self.tier:
                self.tier, self.Z = tier, self.patterns.matrix(tier)
                self.W = self._weights([int(v) for v in self.W], tier)
        self.W += self.Z[j]
        self.bound += self.patterns.peak


def _integer_patterns(block: Block) -> IntegerPatterns:
    assert block.ds is not None
    if "integer" not in block.cache:
        block.cache["integer"] = IntegerPatterns.from_dataset(block.ds)
    patterns: IntegerPatterns = block.cache["integer"]
    return patterns


def _epoch(
    block: Block, carry: tuple[list[int], Any], pstar: Sequence[int] | None, details: bool
) -> tuple[list[int], list[Any]]:
    """The relay's step: the block's part of one natural-order epoch from the weights ``carry[0]``;
    the weights after it and its updates: the samples, or with ``details`` per update
    ``(sample, w.Z_i before it, ||Z_i||^2, P.Z_i)`` (P the numerators of p*, 0 without one)."""
    W = carry[0]
    if block.ds is None:
        return W, []
    patterns = _integer_patterns(block)
    state = _Pass(patterns, W)
    with one_blas_thread():
        found = [(j, int(value)) for j, value in _scan(state, block.samples)]
    weights = [int(v) for v in state.W]
    if not details:
        return weights, [block.first + j for j, _ in found]
    rows = [j for j, _ in found]
    norms = [sum(int(v) * int(v) for v in block.patterns[j]) for j in rows]
    if pstar and rows and _small(patterns):
        progress = small_times_big(patterns.rows[rows].astype(np.float64), pstar)
    else:
        progress = [sum(a * b for a, b in zip(block.patterns[j], pstar)) if pstar else 0 for j in rows]
    return weights, [(block.first + j, v, n, p) for (j, v), n, p in zip(found, norms, progress)]


def _small(patterns: IntegerPatterns) -> bool:
    """Whether the rows are exact in float64 limbs' products (``novikoff.exact.bigdot.small_times_big``)."""
    return patterns.rows.dtype != object and patterns.peak**2 * patterns.rows.shape[1] < 2**53


def _scan(state: _Pass, n: int) -> Any:
    for j, value in BlockScan().epoch(n, state.values):
        state.update(j)
        yield j, value


def sharded_perceptron(
    data: ShardedData,
    *,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
    progress: Callable[[int, int], object] | None = None,
) -> RunRecord:
    """The exact perceptron from w = 0 in natural order on the sharded data (module
    docstring): the twin's RunRecord (updates, epochs, converged, exact weights; with
    ``certificate``, N1-N3 checked after every update, InvariantViolation at the first
    failure; ``track_norms``, ||w_k||^2 after every update). ``progress(epochs, updates)`` is
    called after every relay of epochs."""
    max_epochs = check_max_epochs(max_epochs)
    s = data.scale
    W = [0] * data.dimension
    pstar = None if certificate is None else list(certificate.pstar.numerators)
    details = certificate is not None or track_norms  # else the updated samples only
    updates: list[tuple[int, int]] = []
    seen: list[tuple[int, int, int, int]] = []
    converged = False
    epoch, ahead, K = 0, 1, data.shards.count
    while epoch < max_epochs and not converged:
        # several epochs relayed at once (1, 2, 4, ... up to 64): the workers pass the weights
        # on without waiting here; epochs after a clean one are clean too, and left out
        rounds = min(ahead, max_epochs - epoch)
        steps = data.shards.relay(_epoch, (W, []), pstar, details, rounds=rounds)
        for r in range(rounds):
            part = steps[r * K : (r + 1) * K]
            made = [u for _, done in part for u in done]
            W = part[-1][0]
            if details:
                updates += [(epoch, u[0]) for u in made]
                seen += made
            else:
                updates += [(epoch, i) for i in made]
            if not made:
                converged = True
                break
            epoch += 1
        ahead = min(2 * ahead, 64)
        if progress is not None:
            progress(epoch, len(updates))
    checked, history = _invariants(seen, updates, certificate, s, track_norms)
    return RunRecord(
        weights=tuple(Fraction(v, s) for v in W),
        updates=updates,
        epochs=min(epoch, max_epochs - 1) + 1,
        converged=converged,
        invariants_checked=checked,
        norm2_history=history,
    )


def _invariants(
    seen: Sequence[tuple[int, int, int, int]],
    updates: Sequence[tuple[int, int]],
    cert: SeparableCertificate | None,
    s: int,
    track: bool,
) -> tuple[int, list[Fraction]]:
    """N1-N3 after every update k in integer form (p*.W_k from the P.Z_i, ||W_k||^2 from the
    decision values); ``(checks made, ||w_k||^2 for k = 0, 1, ...)`` (the history when
    ``track``). At a failure, the spec's own statements raise."""
    ww = pw = checks = 0
    history = [Fraction(0)] if track else []
    for k, (_, value, norm2, progress) in enumerate(seen, start=1):
        ww += 2 * value + norm2
        pw += progress
        if track:
            history.append(Fraction(ww, s * s))
        if cert is None:
            continue
        checks += 3
        if not all(n1_n2_n3_integer_form(k, pw, ww, cert, s)):
            _spec_failure(
                k,
                pw,
                ww,
                cert,
                s,
                f"after update {k} (epoch {updates[k - 1][0]}, sample {updates[k - 1][1]})",
            )
    return checks, history


def _spec_failure(k: int, pw: int, ww: int, cert: SeparableCertificate, s: int, where: str) -> None:
    """The spec's N1-N3 at update k; the integer form failing where the spec holds is a bug."""
    from novikoff.spec import N1, N2, N3

    kk = Fraction(k)
    statements = (
        (N1, {"k": kk, "gamma2": cert.gamma2, "pstar_dot_w": Fraction(pw, cert.pstar.denominator * s)}),
        (N2, {"k": kk, "R2": cert.R2, "w_norm2": Fraction(ww, s * s)}),
        (N3, {"k": kk, "gamma2": cert.gamma2, "R2": cert.R2}),
    )
    for theorem, values in statements:
        theorem.require(values, where)
    raise InvariantViolation("N1-N3", "integer form of N1-N3 fails where the spec holds", {"k": k}, where)


# ------------------------------------------------------------------------------ Freund-Schapire


def _column_sums(block: Block) -> list[int]:
    if block.ds is None:
        return [0] * block.dimension
    return [sum(col) for col in zip(*block.patterns)]


def _margins(block: Block, U: Sequence[int]) -> list[int]:
    if block.ds is None:
        return []
    return PatternAtoms(block.patterns, array=block.array).scores(list(U))


def _svm_rows(block: Block, peak: int) -> np.ndarray:
    """The block's patterns over the data's largest |Z_ij|, in float64 (kept), as
    :func:`~novikoff.reference.nonseparable.propose_directions` makes them."""
    key = ("svm", peak)
    if key not in block.cache:
        A = block.array
        if A is not None and peak < 2**53:  # every entry and the peak exact floats
            made = A.astype(np.float64) / peak
        else:
            made = np.array([[v / peak for v in row] for row in block.patterns], dtype=np.float64)
        block.cache[key] = made.reshape(block.samples, block.dimension)
    F: np.ndarray = block.cache[key]
    return F


def _svm_radius2(block: Block, peak: int) -> float:
    F = _svm_rows(block, peak)
    return float(np.max(np.sum(F * F, axis=1))) if F.size else 0.0


def _svm_hinge2(block: Block, peak: int, v: np.ndarray) -> float:
    """sum_i max(0, 1 - F_i.v)^2 over the block."""
    with np.errstate(all="ignore"), one_blas_thread():
        h = np.maximum(0.0, 1.0 - _svm_rows(block, peak) @ v)
        return float(h @ h)


def _svm_system(block: Block, peak: int, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """The block's part of the Newton system on the rows with F_i.u < 1 (ZA'ZA and the sum of
    ZA's rows) and whether that set is the one of the previous call (kept)."""
    F = _svm_rows(block, peak)
    with np.errstate(all="ignore"), one_blas_thread():
        active = F @ u < 1.0
        ZA = F[active]
        part = (ZA.T @ ZA, ZA.sum(axis=0))
    before = block.cache.get(("svm-active", peak))
    block.cache[("svm-active", peak)] = active
    return part[0], part[1], before is not None and bool(np.array_equal(before, active))


class _SVM:
    """The squared-hinge SVM's Newton steps on the sharded float rows (the reference's steps
    and stopping rule; the sums over rows taken per shard, added in shard order)."""

    def __init__(self, data: ShardedData, peak: int) -> None:
        self.data, self.peak = data, peak
        self.d = data.dimension

    def hinge2(self, v: np.ndarray) -> float:
        return float(sum(self.data.each(_svm_hinge2, self.peak, v)))

    def system(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        parts = self.data.each(_svm_system, self.peak, u)
        H = sum((p[0] for p in parts), np.zeros((self.d, self.d)))
        g = sum((p[1] for p in parts), np.zeros(self.d))
        return H, g, all(p[2] for p in parts)

    def solve(self, C: float, start: np.ndarray | None, iterations: int = 40) -> np.ndarray:
        """min ||u||^2/2 + C/2 sum max(0, 1 - F_i.u)^2 from ``start`` (default 0)."""
        u = np.zeros(self.d) if start is None else start.copy()

        def objective(v: np.ndarray) -> float:
            return float(0.5 * v @ v + 0.5 * C * self.hinge2(v))

        current = objective(u)
        AA, total, _ = self.system(u)
        for _ in range(iterations):
            try:
                target = np.linalg.solve(np.eye(self.d) + C * AA, C * total)
            except np.linalg.LinAlgError:
                break
            found = _backtracked(objective, u, target - u, current)
            if found is None:
                break
            u, current, t = found
            AA, total, same = self.system(u)
            if t == 1.0 and same:
                break  # the Newton step solved the problem of this active set exactly
        return u


def _backtracked(
    objective: Any, u: np.ndarray, step: np.ndarray, current: float
) -> tuple[np.ndarray, float, float] | None:
    """The first of u + t step, t = 1, 1/2, ... above 1e-6, whose objective is at most
    ``current``: ``(point, its objective, t)``; None when there is none."""
    t = 1.0
    while t > 1e-6:
        trial = u + t * step
        value = objective(trial)
        if value <= current:
            return trial, value, t
        t /= 2
    return None


def _direction(u: np.ndarray, denominator: int) -> tuple[int, ...] | None:
    """``u`` rounded at ``denominator`` steps of its largest |u_j|, divided by the gcd (the
    reference's rationalization)."""
    top = float(np.max(np.abs(u))) if u.size else 0.0
    if not (math.isfinite(top) and top > 0.0):
        return None
    ints = [int(x) for x in np.rint(u / top * denominator)]  # half to even, as round() rounds
    g = math.gcd(*ints)
    return tuple(v // g for v in ints) if g else None


def _directions(data: ShardedData, passes: int) -> list[tuple[int, ...]]:
    """The candidate directions (module docstring), in the reference's order."""
    total = [sum(col) for col in zip(*data.each(_column_sums))]
    g = math.gcd(*total)
    out = [tuple(v // g for v in total)] if g else []
    if data.peak == 0 or data.dimension > MAX_SVM_DIMENSION:
        return out
    svm = _SVM(data, data.peak)
    R = float(np.sqrt(max(data.each(_svm_radius2, data.peak))))
    root_T = math.sqrt(float(passes))
    best: tuple[float, float, np.ndarray] | None = None

    def solve(log_c: float, start: np.ndarray | None) -> np.ndarray | None:
        nonlocal best
        with np.errstate(all="ignore"), one_blas_thread():
            v = svm.solve(float(10.0**log_c), start)
            if not np.all(np.isfinite(v)):
                return None
            if np.any(v):
                value = float(R * np.linalg.norm(v) + root_T * math.sqrt(svm.hinge2(v)))
                if best is None or value < best[0]:
                    best = (value, log_c, v)
        return v

    u = None
    for log_c in np.arange(-4.0, 6.01, 1.0):  # the path, each solve from the last
        u = solve(float(log_c), u)
    if best is not None:
        centre, start = best[1], best[2]
        for log_c in (centre - 0.5, centre + 0.5):
            solve(log_c, start)
        for den in (4, 32, 1000, 10**6):
            cand = _direction(best[2], den)
            if cand is not None and cand not in out:
                out.append(cand)
    return out


def sharded_nonseparable_bound(data: ShardedData, run: RunRecord) -> NonseparableBound:
    """The Freund-Schapire bound over the run's passes (natural order), as
    :func:`~novikoff.reference.nonseparable.nonseparable_bound` finds and checks it (module
    docstring: the candidates may differ only where float sums meet a near-tie)."""
    T = run.epochs
    s = data.scale
    R2i = data.R2.numerator * (s * s // data.R2.denominator)
    candidates = _directions(data, T) or [tuple(1 if j == 0 else 0 for j in range(data.dimension))]
    best: tuple[Any, tuple[int, ...], Fraction, list[int]] | None = None
    for U in candidates:
        margins = [a for part in data.each(_margins, U) for a in part]
        g, value = best_gamma(margins, sum(v * v for v in U), R2i, T)
        if best is None or value < best[0]:
            best = (value, U, g, margins)
    assert best is not None
    value, U, g, margins = best
    N = sum(v * v for v in U)
    S = sum(((g - a) ** 2 for a in margins if a < g), Fraction(0))  # in units s^2
    gamma2 = (g / s) ** 2 / N
    R2 = Fraction(R2i, s * s)
    per_pass = Counter(epoch for epoch, _ in run.updates)
    made = list(accumulate(per_pass[t] for t in range(T)))  # mistakes after each pass
    for t, k in enumerate(made, start=1):  # FS1 after every pass, exactly
        if not fs_bound_holds(k, R2, t * S / (s * s * N), gamma2):
            facts = {"k": k, "gamma2": gamma2, "R2": R2, "deviation2": t * S / (s * s * N), "passes": t}
            statement = "k*gamma2 <= (sqrt(R2) + sqrt(deviation2))**2"
            raise InvariantViolation("FS1", statement, facts, f"after pass {t} of {data.name}")
    u = RationalVector.from_values(U)
    return NonseparableBound(u, g / s, gamma2, T * S / (s * s * N), R2, T, made[-1], "natural", value, T)
