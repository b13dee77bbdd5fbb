"""The exact perceptron at float speed: integer patterns, vectorized scan, proved no-overflow tiers.

An exact twin of :func:`novikoff.reference.run_perceptron`: same contract, same
:class:`~novikoff.runtime.runs.RunRecord` (exact Fraction weights), the same update
sequence always, but computed with numpy on integer patterns
(:class:`~novikoff.twins.integer.IntegerPatterns`: float64 while the no-overflow
bound proves every float operation exact, then int64, then Python ints) with
the scan-with-restart of :mod:`novikoff.twins.scan`. Every decision is an exact
integer sign; no rounded value is ever compared.

With a separability certificate it checks N1-N3 after every update in integer
form (``p*.w_k >= k gamma^2``, ``||w_k||^2 <= k R^2``, ``k gamma^2 <= R^2``,
each multiplied out over its denominators; ``||w_k||^2`` follows from the exact
decision values); at the first failure it evaluates the spec's own statements
(:mod:`novikoff.spec`), which raise :class:`~novikoff.errors.InvariantViolation`
naming the theorem. That the integer form is the spec's statement is tested on
random values (so a clean run never imports sympy). It does not
import the reference's decision code: the two check each other.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from novikoff.data.dataset import Dataset, plain_features
from novikoff.errors import InvariantViolation
from novikoff.exact.bigdot import small_times_big
from novikoff.runtime.runs import Order, RunRecord, TwinEngine, check_max_epochs, epoch_order
from novikoff.twins.compiled import CompiledEpochs
from novikoff.twins.integer import LIMITS, TIERS, IntegerPatterns, tier_dtype
from novikoff.twins.perceptron import EngineSwitch, input_patterns
from novikoff.twins.scan import BlockScan
from novikoff.twins.screen import ScreenedScan

if TYPE_CHECKING:
    from novikoff.certificates import SeparableCertificate

__all__ = ["exact_perceptron", "exact_perceptron_on_patterns"]


def exact_perceptron(
    X: Any,
    y: Any | None = None,
    *,
    bias: float = 1.0,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
    start_tier: str | None = None,
    engine: TwinEngine = "auto",
) -> RunRecord:
    """Run the perceptron exactly from w_0 = 0 on a :class:`Dataset`, or on arrays ``X``, ``y``
    with ``bias`` (converted exactly): float and small-integer arrays through their dyadic
    integers, anything else (Fractions, huge integers, decimal strings, DataFrames with such
    columns, sparse matrices of them) through :meth:`Dataset.from_arrays`. Labels follow the
    one rule of :func:`novikoff.data.dataset.map_labels` ({-1, +1} kept, {0, 1} mapped 0 -> -1).

    Guarantees: the same ``updates``, ``epochs``, ``converged`` and exact weights as
    :func:`novikoff.reference.run_perceptron` on the same exact data; with
    ``certificate``, N1-N3 hold at every update or InvariantViolation is raised.
    ``start_tier`` (``"int64"``, ``"python-int"``) skips the faster tiers (for tests);
    ``engine`` (``"auto"``, ``"compiled"``, ``"numpy"``) picks the float64 tier's scan.
    The record's ``arithmetic`` lists the tiers the run used.
    """
    if isinstance(X, Dataset):
        patterns = IntegerPatterns.from_dataset(X)
    else:
        X, _ = plain_features(X, "X")
        if y is not None and not _float_exact(X):  # exact values a float64 cannot hold
            patterns = IntegerPatterns.from_dataset(Dataset.from_arrays(X, y, bias=bias, name="X"))
        else:
            patterns = IntegerPatterns.from_float_patterns(input_patterns(X, y, bias))
    return exact_perceptron_on_patterns(
        patterns,
        order=order,
        max_epochs=max_epochs,
        certificate=certificate,
        track_norms=track_norms,
        start_tier=start_tier,
        engine=engine,
    )


def _float_exact(X: Any) -> bool:
    """True iff converting ``X`` to float64 loses nothing: a float array (at most 64 bits), an
    integer array with every |value| <= 2^53, or a list that numpy reads as such."""
    try:
        A = np.asarray(X)
    except (TypeError, ValueError):  # ragged rows and the like: the exact reader says where
        return False
    if A.dtype.kind not in "biuf" or A.dtype.itemsize > 8:
        return False
    if A.dtype.kind in "iu" and A.size:
        return max(abs(int(A.max())), abs(int(A.min()))) <= 2**53
    return True


def n1_n2_n3_integer_form(
    k: int, pw: int, ww: int, cert: SeparableCertificate, s: int
) -> tuple[bool, bool, bool]:
    """N1, N2, N3 after update k, with p*.W = ``pw`` (p* = P / pd), ||W||^2 = ``ww`` and
    w = W / s, each multiplied out over its positive denominators:
    N1 ``pw/(pd s) >= k gamma^2``, N2 ``ww/s^2 <= k R^2``, N3 ``k gamma^2 <= R^2``.
    The equivalence with the spec's statements is a test (tests/twins/test_exact_twin.py)."""
    g, r, pd = cert.gamma2, cert.R2, cert.pstar.denominator
    return (
        pw * g.denominator >= k * g.numerator * pd * s,
        ww * r.denominator <= k * r.numerator * s * s,
        k * g.numerator * r.denominator <= r.numerator * g.denominator,
    )


class _Invariants:
    """N1-N3 in integer form at every update (see the module docstring).

    The run records each update's sample and exact decision value; :meth:`finish`
    then checks every prefix k = 1, 2, ... in order, with p*.Z_i for the updated
    rows from one exact BLAS product (p* has thousands of digits on real data).
    Checking after the run is sound because the checks never steer the run.
    """

    def __init__(
        self, patterns: IntegerPatterns, certificate: SeparableCertificate | None, track_norms: bool
    ) -> None:
        self.patterns, self.cert, self.track = patterns, certificate, track_norms
        self.samples: list[int] = []
        self.values: list[int] = []
        self.checked = 0
        self.history: list[Fraction] = []

    def record(self, i: int, value: Any) -> None:
        if self.cert is not None or self.track:
            self.samples.append(i)
            self.values.append(int(value))

    def finish(self, updates: list[tuple[int, int]]) -> None:
        """Check N1-N3 after every update; raise InvariantViolation at the first failure."""
        if self.cert is None and not self.track:
            return
        s = self.patterns.scale
        norms2 = self.patterns.norms2()
        ww = 0
        wws = []
        for i, value in zip(self.samples, self.values):
            ww += 2 * value + norms2[i]
            wws.append(ww)
        if self.track:
            self.history = [Fraction(0)] + [Fraction(v, s * s) for v in wws]
        if self.cert is None or not self.samples:
            return
        progress = self._progress()
        pw = 0
        for k, (i, ww) in enumerate(zip(self.samples, wws), start=1):
            pw += progress[i]
            self.checked += 3
            if not all(n1_n2_n3_integer_form(k, pw, ww, self.cert, s)):
                epoch, sample = updates[k - 1]
                where = f"after update {k} (epoch {epoch}, sample {sample})"
                self.spec_check(k, pw, ww, where)
                raise InvariantViolation(  # the integer form and the spec disagree: never expected
                    "N1-N3", "integer form of N1-N3 fails where the spec holds", {"k": k}, where
                )

    def _progress(self) -> dict[int, int]:
        """P.Z_i (p* = P / pd) for every updated row, exactly (:func:`small_times_big`)."""
        assert self.cert is not None
        rows = sorted(set(self.samples))
        values = small_times_big(self.patterns.rows[rows], self.cert.pstar.numerators)
        return dict(zip(rows, values))

    def spec_check(self, k: int, pw: int, ww: int, where: str) -> None:
        """The spec's N1-N3 evaluated exactly at update k (p*.W = pw, ||W||^2 = ww)."""
        from novikoff.spec import N1, N2, N3

        assert self.cert is not None
        s, kk = self.patterns.scale, Fraction(k)
        gamma2, R2 = self.cert.gamma2, self.cert.R2
        N1.require(
            {"k": kk, "gamma2": gamma2, "pstar_dot_w": Fraction(pw, self.cert.pstar.denominator * s)}, where
        )
        N2.require({"k": kk, "R2": R2, "w_norm2": Fraction(ww, s * s)}, where)
        N3.require({"k": kk, "gamma2": gamma2, "R2": R2}, where)


class _Arithmetic:
    """The current tier, weights W and rows (in presentation order) of an exact run."""

    def __init__(self, patterns: IntegerPatterns, tier: str) -> None:
        self.patterns, self.tier, self.used = patterns, tier, [tier]
        self.Z = patterns.matrix(tier)
        self.Zo = self.Z
        self.W = np.zeros(patterns.rows.shape[1], dtype=tier_dtype(tier))
        self.bound = 0  # >= max |W_j|

    def present(self, idx: np.ndarray | None) -> None:
        self.Zo = self.Z if idx is None else self.Z[idx]

    def values(self, a: int, b: int) -> np.ndarray:
        return self.Zo[a:b] @ self.W

    def update(self, j: int, idx: np.ndarray | None) -> bool:
        """W += Zo[j] exactly; True iff the tier had to change first (module docstring)."""
        P, limit = self.patterns, LIMITS[self.tier]
        moved = False
        if limit is not None and (self.bound + P.peak) * P.l1_max > limit:
            self.bound = int(np.abs(self.W).max())  # exact in every tier
            while limit is not None and (self.bound + P.peak) * P.l1_max > limit:
                self.tier = TIERS[TIERS.index(self.tier) + 1]
                limit = LIMITS[self.tier]
            if self.tier != self.used[-1]:
                moved = True
                self.used.append(self.tier)
                self.W = _convert(self.W, self.tier)
                self.Z = P.matrix(self.tier)
                self.present(idx)
        self.W += self.Zo[j]  # in place: a screened scan holds this array
        self.bound += P.peak
        return moved


def exact_perceptron_on_patterns(
    patterns: IntegerPatterns,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    track_norms: bool = False,
    start_tier: str | None = None,
    screening: bool = True,
    engine: TwinEngine = "auto",
) -> RunRecord:
    """:func:`exact_perceptron` on integer patterns already built.

    In natural order and the float64 tier the run goes through the compiled kernel
    (:mod:`novikoff.twins.compiled`, ``engine`` as in
    :func:`~novikoff.twins.perceptron.perceptron_on_patterns`) or, with
    ``engine="numpy"``, the numpy scan with ``screening`` (:mod:`novikoff.twins.screen`).
    Both skip only rows whose value is provably positive, so neither changes the
    run; if the float64 bound would fail, the run goes on in numpy in the next tier.
    """
    max_epochs = check_max_epochs(max_epochs)
    m = patterns.rows.shape[0]
    presentation = epoch_order(order, m)
    natural = order is None or order == "natural"
    tier = patterns.first_tier
    if start_tier is not None:
        if start_tier not in TIERS:
            raise ValueError(f"start_tier must be one of {TIERS}, got {start_tier!r}")
        tier = TIERS[max(TIERS.index(tier), TIERS.index(start_tier))]
    state = _Arithmetic(patterns, tier)
    compiled: CompiledEpochs | None = None
    switch = EngineSwitch(engine, natural, patterns.rows.size) if tier == "float64" else None
    screened = ScreenedScan(state.Z, exact=True) if screening and natural and tier == "float64" else None
    checks = _Invariants(patterns, certificate, track_norms)
    updates: list[tuple[int, int]] = []
    converged = False
    epoch = 0
    scan = BlockScan()
    while epoch < max_epochs:  # a while loop: the batched kernel moves epoch on by itself
        idx = None if natural else np.asarray(presentation(epoch), dtype=np.intp)
        state.present(idx)
        clean = True
        resume: int | None = 0
        if switch is not None and state.tier == "float64" and switch.now():
            limit = LIMITS["float64"]
            assert limit is not None
            compiled = CompiledEpochs(  # takes over W (in place) and the bound where numpy left them
                state.Z,
                state.W,
                exact=True,
                peak=patterns.peak,
                l1=patterns.l1_max,
                limit=limit,
                bound=state.bound,
                last_epoch=max_epochs - 1,
            )
            switch = screened = None
        if compiled is not None and compiled.batchable:  # the rest of the run, in batches
            resume, start = None, 0
            while True:
                epochs, indices, values, end, status, pos = compiled.batch(epoch, start)
                for e, i, value in zip(epochs.tolist(), indices.tolist(), values.tolist()):
                    updates.append((e, i))
                    checks.record(i, value)
                epoch, start = end, 0
                if status in (1, 3):  # a clean epoch, or the last epoch was run
                    break
                if status == 2:  # stopped at the running overflow bound
                    if _kernel_may_resume(compiled, state.W, patterns):
                        start = pos
                        continue
                    compiled, resume = None, pos  # numpy from here on, into the next tier
                    break
            if compiled is not None:
                converged = status == 1
                break
            state.bound = int(np.abs(state.W).max())
            clean = False  # the mistake at (epoch, resume) is still to be made
        elif compiled is not None:  # updates W in place
            resume, start = None, 0
            while True:
                indices, values, stop = compiled.epoch(epoch, start)
                for i, value in zip(indices.tolist(), values.tolist()):
                    updates.append((epoch, i))
                    checks.record(i, value)
                clean = clean and indices.size == 0
                if stop < 0:
                    break
                if _kernel_may_resume(compiled, state.W, patterns):
                    start = stop
                    continue
                compiled, resume = None, stop  # numpy from here on, into the next tier
                break
            state.bound = int(compiled.bound[0]) if compiled is not None else int(np.abs(state.W).max())
        elif screened is not None:
            resume = None
            for j, value in screened.epoch(state.W):
                moved = state.update(j, idx)
                updates.append((epoch, j))
                checks.record(j, value)
                clean = False
                if moved:  # the screened scan holds the float64 weights: go on plainly
                    screened, resume = None, j + 1
                    break
        if resume is not None:
            for j, value in scan.epoch(m, state.values, resume):
                i = j if idx is None else int(idx[j])
                state.update(j, idx)
                updates.append((epoch, i))
                checks.record(i, value)
                clean = False
        if clean:
            converged = True
            break
        epoch += 1
    epoch = min(epoch, max_epochs - 1)  # the last epoch run
    checks.finish(updates)
    s = patterns.scale
    return RunRecord(
        weights=tuple(Fraction(int(v), s) for v in state.W),
        updates=updates,
        epochs=epoch + 1,
        converged=converged,
        invariants_checked=checks.checked,
        norm2_history=checks.history,
        arithmetic=tuple(state.used),
    )


def _kernel_may_resume(kernel: CompiledEpochs, W: np.ndarray, patterns: IntegerPatterns) -> bool:
    """The kernel stopped before an update its running bound (max |W_j| + peak per update)
    could not cover: lower that bound to the exact max |W_j|; True iff the float64 tier
    then covers the update, so that the kernel may resume there."""
    exact_bound = int(np.abs(W).max())
    if (exact_bound + patterns.peak) * patterns.l1_max <= kernel.limit:
        kernel.bound[0] = float(exact_bound)
        return True
    return False


def _convert(W: np.ndarray, tier: str) -> np.ndarray:
    """Integer-valued weights in the next tier's dtype, exactly."""
    if tier == "int64":
        return W.astype(np.int64)
    out = np.empty(W.shape, dtype=object)
    out[:] = [int(v) for v in W]
    return out
