"""A compiled (numba) scan for the perceptron twins, with a safe active set kept contiguous.

Optional: used when numba is installed (``pip install novikoff[fast]``) and the
presentation order is natural; otherwise the numpy scan runs. Both give the same
update sequence on data where float arithmetic is exact, and the same contract.

The kernel visits samples one by one in order, like the textbook loop, but only
the rows of an *active set*, copied contiguously so that the scan streams
through memory. The active set comes from a reference point ``w_ref``: with
``V = Z @ w_ref`` and a radius ``theta``, a row is active iff
``V_i <= ||z_i|| (theta + c (2 ||w_ref|| + theta))``. While ``||w - w_ref|| <= theta``
an inactive row cannot be a mistake: by Cauchy-Schwarz its real value is at least
``V_i - ||z_i|| theta`` minus the rounding of the two dot products, which the
standard bound limits to ``c ||z_i|| (||w_ref|| + ||w||)`` with
``c = d u / (1 - d u)``, ``u = 2^-53`` (any summation order; ``c = 0`` for exact
integer data). Norms and the test carry a relative factor 1 + 1e-9 for their own
rounding. The kernel recomputes ``||w - w_ref||`` after each update and returns
as soon as it passes ``theta``; the caller then takes a new reference (one
``Z @ w`` pass) and resumes at the next position. So the mistakes found, in
order, are those of the plain loop.

``theta`` adapts to the run: it grows when references change more than once an
epoch and shrinks when one lasts four epochs or more; screening pauses (the
whole matrix is the active set, no copy) while over 60% of the rows would be
active, and for the first three epochs of a run (``FIRST_TRY``: what the plain
epochs cost then is about what building the active sets would, so a short run is
a plain compiled scan and pays nothing for screening). The dot product is
vectorized by the compiler (reassociation and fused multiply-add allowed, nothing
else of ``fastmath``), so its summation order is the compiler's, as BLAS's is
BLAS's; the screening bound holds for any order, and on integer data every order
is exact. The rows the kernel
streams are stored in the narrowest dtype that holds every value exactly
(:func:`narrowest_exact`; small integer data fit int8, 8x less memory traffic);
each value is converted back to float64 before it is used, so the arithmetic is
that of float64 rows. The set-up is a few passes over the data: one compiled pass
picks the dtype (no temporaries), one copy narrows (:func:`narrow_patterns`
builds the narrow patterns from ``X`` and ``y`` directly, with no float64 copy),
and the row norms wait until screening is first tried.
"""

from __future__ import annotations

import importlib.util
from functools import cached_property

import numpy as np

from novikoff.twins.screen import SAFETY, active_rows, rounding_coefficient

__all__ = [
    "CompiledEpochs",
    "available",
    "kernel_row_norms",
    "loaded",
    "narrow_patterns",
    "narrowest_exact",
    "value_counts",
]


_compiled = False


def available() -> bool:
    """True iff numba is installed (checked without importing it: the import costs ~0.4 s)."""
    return importlib.util.find_spec("numba") is not None


def _compile() -> None:
    """Compile the kernels on first use (numba is imported only then; cached on disk)."""
    global _compiled, _dot, _scan, _scan_epochs, _matvec, _value_counts, _fill_patterns, _row_norms
    if _compiled:
        return
    import numba

    # reassociation and fused multiply-add only: the dot product's summation order is
    # the compiler's (vectorized), as BLAS's is its own; no assumption about NaN/inf
    _dot = numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(_dot)
    _scan = numba.njit(cache=True, nogil=True)(_scan)
    _scan_epochs = numba.njit(cache=True, nogil=True)(_scan_epochs)
    _matvec = numba.njit(cache=True, nogil=True)(_matvec)
    _value_counts = numba.njit(cache=True, nogil=True)(_value_counts)
    _fill_patterns = numba.njit(cache=True, nogil=True)(_fill_patterns)
    _row_norms = numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(_row_norms)
    _compiled = True


def loaded() -> bool:
    """True once this process has loaded the kernels (a compiled run costs no import then)."""
    return _compiled


def _dot(Z: np.ndarray, i: int, w: np.ndarray) -> float:
    s = 0.0
    for k in range(w.shape[0]):
        s += Z[i, k] * w[k]
    return s


def _scan(
    Za: np.ndarray,
    ids: np.ndarray,
    start: int,
    w: np.ndarray,
    refs: np.ndarray,
    thetas: np.ndarray,
    peak: float,
    l1: float,
    bound: np.ndarray,
    limit: float,
    out_index: np.ndarray,
    out_value: np.ndarray,
    n: int,
) -> tuple[int, int, int]:
    """Scan active rows start.. in order, updating ``w`` in place on every mistake.

    Returns (updates recorded so far, next active position, status): status -1 at the
    end of the rows; k >= 0 when ``||w - refs[k]||`` passed ``thetas[k]`` after an
    update (the outermost such level); -2 when the next update would break the
    no-overflow bound ``(bound + peak) l1 <= limit`` (that update is not made; the
    position is the mistake's).
    """
    rows, d = Za.shape
    levels = thetas.shape[0]
    for c in range(start, rows):
        s = _dot(Za, c, w)
        if s <= 0.0:
            if (bound[0] + peak) * l1 > limit:
                return n, c, -2
            for k in range(d):
                w[k] += Za[c, k]
            bound[0] += peak
            out_index[n] = ids[c]
            out_value[n] = s
            n += 1
            for level in range(levels):
                acc = 0.0
                for k in range(d):
                    t = w[k] - refs[level, k]
                    acc += t * t
                if np.sqrt(acc) * SAFETY > thetas[level]:
                    return n, c + 1, level
    return n, rows, -1


def _scan_epochs(
    Z: np.ndarray,
    w: np.ndarray,
    e0: int,
    start: int,
    e_last: int,
    peak: float,
    l1: float,
    bound: np.ndarray,
    limit: float,
    out_epoch: np.ndarray,
    out_index: np.ndarray,
    out_value: np.ndarray,
) -> tuple[int, int, int, int]:
    """Whole epochs e0 (from position ``start``), e0 + 1, ... over all rows, without
    screening. Returns (updates recorded, epoch e, status, position): status 0 when the
    buffer could not hold another epoch (epochs before e are complete, e not begun), 1 when
    epoch e was clean, 2 when an update at (e, position) would break the overflow bound
    (not made), 3 when epoch ``e_last`` was completed (e = e_last)."""
    m, d = Z.shape
    cap = out_index.shape[0]
    n = 0
    e = e0
    pos = start
    while True:
        if n + m > cap:
            return n, e, 0, 0
        clean = True
        for c in range(pos, m):
            s = _dot(Z, c, w)
            if s <= 0.0:
                if (bound[0] + peak) * l1 > limit:
                    return n, e, 2, c
                for k in range(d):
                    w[k] += Z[c, k]
                bound[0] += peak
                out_epoch[n] = e
                out_index[n] = c
                out_value[n] = s
                n += 1
                clean = False
        if clean:
            return n, e, 1, 0
        if e >= e_last:
            return n, e, 3, 0
        e += 1
        pos = 0


def _matvec(Za: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    for c in range(Za.shape[0]):
        out[c] = _dot(Za, c, w)


def _value_counts(A: np.ndarray) -> tuple[int, int, int, int]:
    """Over the values v of the C-contiguous float64 array ``A``: how many are not an
    integer with |v| <= 127 (int8), not one with |v| <= 32767 (int16), not a float32
    (float64(float32(v)) != v; infinities are, NaN is not) and not finite. One pass,
    branch-free (the compiler vectorizes it)."""
    flat = A.reshape(-1)
    c8 = c16 = c32 = nonfinite = 0
    for i in range(flat.shape[0]):
        v = flat[i]
        a = abs(v)
        fraction = np.floor(v) != v  # NaN too
        c8 += fraction | (a > 127.0)
        c16 += fraction | (a > 32767.0)
        c32 += np.float64(np.float32(v)) != v
        nonfinite += not (a < np.inf)
    return c8, c16, c32, nonfinite


def _fill_patterns(X: np.ndarray, y: np.ndarray, bias: float, out: np.ndarray) -> None:
    """out[i] = y_i (x_i, bias) (the bias column only if ``out`` has one more column than
    ``X``), each value stored in out's dtype (callers choose one that holds them exactly)."""
    m, d = X.shape
    with_bias = out.shape[1] > d
    for i in range(m):
        for k in range(d):
            out[i, k] = y[i] * X[i, k]
        if with_bias:
            out[i, d] = y[i] * bias


def _row_norms(Za: np.ndarray, out: np.ndarray) -> None:
    for i in range(Za.shape[0]):
        s = 0.0
        for k in range(Za.shape[1]):
            v = np.float64(Za[i, k])
            s += v * v
        out[i] = np.sqrt(s) * SAFETY


_DTYPES = (np.int8, np.int16, np.float32, np.float64)  # narrowest first; the first three
# are the kernel's narrow storage, counted by _value_counts[0..2]


def value_counts(A: np.ndarray) -> tuple[int, int, int, int]:
    """:func:`_value_counts` of ``A`` (converted to C-contiguous float64 if need be)."""
    _compile()
    return _value_counts(np.ascontiguousarray(A, dtype=np.float64))


def _rank(counts: tuple[int, int, int, int]) -> int:
    """The index in _DTYPES of the narrowest dtype holding every value counted exactly."""
    return next((k for k in range(3) if counts[k] == 0), 3)


def narrowest_exact(Z: np.ndarray) -> np.ndarray:
    """``Z`` in the narrowest dtype (int8, int16, float32, float64) holding every value
    exactly: the kernel converts each value back to float64 before using it, so the
    arithmetic is unchanged; only the memory the scans stream through shrinks. One
    compiled pass decides (no temporary arrays), one copy narrows."""
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    rank = _rank(value_counts(Z))
    return Z if rank == 3 else Z.astype(_DTYPES[rank])


def narrow_patterns(X: np.ndarray, y: np.ndarray, bias: float) -> np.ndarray | None:
    """The patterns z_i = y_i (x_i, bias) (bias column only if bias != 0; ``X`` float64,
    ``y`` of +-1, ``bias`` finite) in the narrowest dtype holding every value exactly:
    equal, dtype included, to ``narrowest_exact`` of the float64 patterns, without building
    them (two passes over ``X``, the narrow copy written directly). None if ``X`` has a NaN
    or an infinity. Negating a value keeps it in every one of these dtypes, so the
    patterns' dtype is the widest of X's and the bias's."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    counts = value_counts(X)
    if counts[3]:
        return None
    rank = max(_rank(counts), _rank(value_counts(np.array([[bias]])))) if bias != 0 else _rank(counts)
    out = np.empty((X.shape[0], X.shape[1] + (bias != 0)), dtype=_DTYPES[rank])
    _fill_patterns(X, np.ascontiguousarray(y, dtype=np.float64), float(bias), out)
    return out


def kernel_row_norms(Za: np.ndarray) -> np.ndarray:
    """||z_i|| of every row of ``Za`` (any of the kernel's dtypes, read as float64), rounded
    up by SAFETY as :func:`novikoff.twins.screen.row_norms` (the sum's own rounding, below
    d 2^-53 relative, is far inside it)."""
    _compile()
    out = np.empty(Za.shape[0])
    _row_norms(Za, out)
    return out


class _Level:
    """An active set: rows ``ids`` (copied to ``Z``) outside of which every row of the
    enclosing level is proven positive while ``||w - ref|| <= theta``."""

    def __init__(
        self, ids: np.ndarray, Z: np.ndarray, norms: np.ndarray, ref: np.ndarray, theta: float
    ) -> None:
        self.ids, self.Z, self.norms, self.ref, self.theta = ids, Z, norms, ref, theta
        self.epochs = 0  # full epochs since this level's reference


class CompiledEpochs:
    """Epoch-by-epoch compiled runs on rows ``Z`` (natural order), weights ``w`` (float64)
    updated in place (they must start at 0 or at a point the run reached). ``Z`` is
    float64 (narrowed here, :func:`narrowest_exact`) or already in one of the narrow
    dtypes (int8, int16, float32; :func:`narrow_patterns`), whose values are float64 values.

    Two nested active sets (module docstring): the outer one is rebuilt from all rows,
    rarely; the inner one from the outer one's rows, about every epoch or two.

    ``exact=True`` declares the rows integer-valued with every value of the run exact
    (the exact path's float64 tier): no rounding slack, and the run stops before the
    no-overflow bound ``(B + peak) l1 <= limit / 2`` could fail (half the proved limit,
    2^53, so that its float evaluation is safe), leaving the rest of the run to the caller.
    """

    # outer, inner: rebuild the level's active set less often than `short` epochs -> widen,
    # `long` epochs or more -> narrow
    SHORT = (4, 1)
    LONG = (16, 4)
    MIN_ROWS = 1024  # fewer rows: no screening (a rebuild would cost more than it saves)
    # screening is first tried at epoch FIRST_TRY - 1, after plain epochs that cost about what
    # building the active sets does (rent or buy: a short run never pays for them, a long
    # one pays at most those plain epochs more)
    FIRST_TRY = 4
    MAX_ACTIVE = 0.6  # a larger share of the rows in the outer active set: screening pauses

    def __init__(
        self,
        Z: np.ndarray,
        w: np.ndarray,
        *,
        exact: bool,
        peak: int = 0,
        l1: int = 0,
        limit: int = 2**53,
        screening: bool = True,
        bound: int = 0,
        last_epoch: int | None = None,
    ) -> None:
        if not available():
            raise RuntimeError("numba is not installed")
        _compile()
        narrow = Z.dtype in _DTYPES[:3]
        self.rows = np.ascontiguousarray(Z) if narrow else narrowest_exact(Z)  # what the kernel scans
        m, d = self.rows.shape
        self.m = m
        self.w = w
        self.c = rounding_coefficient(d, exact)
        self.bound = np.array([float(bound)])  # >= max |w_j| (exact mode), exact below 2^53
        self.peak, self.l1 = float(peak), float(l1)
        self.limit = float(limit) / 2 if exact else np.inf
        self.fractions = [0.2, 0.04]  # theta / ||w|| of the outer and inner levels
        # screening pays only when an epoch is long enough to outweigh a rebuild
        self.screening = screening and m >= self.MIN_ROWS
        self.wait = self.FIRST_TRY  # epochs (this one included) before screening is tried
        self.backoff = 4  # the wait after a failed try; doubles up to 1024, reset on success
        self.references = 0
        self.levels: list[_Level] = []
        # without screening, whole epochs run in one call (:meth:`batch`, up to last_epoch,
        # which the caller must give: the kernel may not update past the run's last epoch)
        self.batchable = not self.screening and last_epoch is not None
        self.last_epoch = last_epoch if last_epoch is not None else 0
        # update buffers: one epoch (at most m updates), or a batch of epochs
        cap = max(4 * m, 1 << 16) if self.batchable else m
        self.out_index = np.empty(cap, dtype=np.int64)
        self.out_value = np.empty(cap)
        self.out_epoch = np.empty(cap, dtype=np.int64)
        self._cache_valid = False  # set False whenever self.levels changes
        self._cache: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    @cached_property
    def norms(self) -> np.ndarray:
        """||z_i|| rounded up, computed when screening is first tried (a short run never is)."""
        return kernel_row_norms(self.rows)

    @cached_property
    def _all(self) -> np.ndarray:
        return np.arange(self.m)

    def _rebuild(self, k: int) -> bool:
        """New references for levels k.. (inner ones nested in the new level k); False
        (screening paused) if the outer level would hold over 60% of the rows."""
        self.levels = self.levels[:k]
        self._cache_valid = False
        while len(self.levels) < len(self.fractions):
            k = len(self.levels)
            parent_ids = self.levels[-1].ids if k else np.arange(self.m)
            parent_Z = self.levels[-1].Z if k else self.rows
            parent_norms = self.levels[-1].norms if k else self.norms
            self.references += 1
            norm = float(np.linalg.norm(self.w)) * SAFETY
            theta = self.fractions[k] * norm
            V = np.empty(len(parent_ids))
            _matvec(parent_Z, self.w, V)  # streams the narrow rows; the same values
            keep = active_rows(V, parent_norms, theta, norm, self.c)
            if norm == 0 or (k == 0 and keep.size > self.MAX_ACTIVE * self.m):
                self.fractions = [f / 2 for f in self.fractions]
                self.wait, self.levels = self.backoff, []
                self.backoff = min(2 * self.backoff, 1024)
                return False
            take = [np.take(a, keep, axis=0) for a in (parent_ids, parent_Z, parent_norms)]  # take: 3x []
            self.levels.append(_Level(take[0], take[1], take[2], self.w.copy(), theta))
        self.backoff = 4
        return True

    def _adapt(self, k: int, within_epoch: bool) -> None:
        """Level k's reference ended after ``levels[k].epochs`` epochs: tune its radius."""
        lived = self.levels[k].epochs
        if within_epoch or lived < self.SHORT[k]:
            self.fractions[k] = min(2 * self.fractions[k], 1.0)
        elif lived >= self.LONG[k]:
            self.fractions[k] = max(self.fractions[k] / 1.5, 1e-4)
        if k == 0:
            self.fractions[1] = min(self.fractions[1], self.fractions[0] / 2)

    def batch(self, e: int, start: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
        """Whole epochs from (e, start) in one call (only when ``batchable``): returns the
        updates' (epochs, indices, values) and (epoch, status, position) as
        :func:`_scan_epochs` defines them. The arrays are views, valid until the next call."""
        n, end, status, pos = _scan_epochs(
            self.rows,
            self.w,
            e,
            start,
            max(self.last_epoch, e),
            self.peak,
            self.l1,
            self.bound,
            self.limit,
            self.out_epoch,
            self.out_index,
            self.out_value,
        )
        return self.out_epoch[:n], self.out_index[:n], self.out_value[:n], int(end), int(status), int(pos)

    def finish(self, e: int, updates: list[tuple[int, int]]) -> tuple[int, bool]:
        """Run epochs e, e + 1, ... up to the first clean one or ``last_epoch`` (which must
        have been given), appending each update's (epoch, index) to ``updates``; returns
        (the last epoch run, whether it was clean). No overflow bound may be set
        (``exact=False``): nothing stops the kernel inside an epoch."""
        assert self.limit == np.inf, "finish() runs without an overflow bound"
        if self.batchable:
            while True:
                epochs, indices, _, e, status, _ = self.batch(e)
                updates.extend(zip(epochs.tolist(), indices.tolist()))
                if status != 0:  # 1: a clean epoch; 3: the last epoch was run
                    return e, status == 1
        for epoch in range(e, max(self.last_epoch, e) + 1):
            indices = self.epoch(epoch)[0].tolist()
            updates.extend(zip([epoch] * len(indices), indices))
            if not indices:
                return epoch, True
        return epoch, False

    def _current(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The innermost rows and ids, the references and radii (cached per level set)."""
        if not self._cache_valid or self._cache is None:
            if self.levels:
                inner = self.levels[-1]
                refs = np.array([lv.ref for lv in self.levels])
                thetas = np.array([lv.theta for lv in self.levels])
                self._cache = (inner.Z, inner.ids, refs, thetas)
            else:
                self._cache = (self.rows, self._all, np.zeros((0, len(self.w))), np.zeros(0))
            self._cache_valid = True
        return self._cache

    def epoch(self, e: int, start: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
        """Run epoch ``e`` from position ``start`` (> 0 only to resume after a stop);
        returns (update indices, their values, stop): ``stop`` is the position of a
        mistake whose update was not made (the overflow bound), else -1. After a stop the
        caller may lower ``bound[0]`` to the exact max |w_j| and resume at ``stop``."""
        if not self.levels and self.screening and start == 0:
            self.wait -= 1
            if self.wait <= 0:
                self._rebuild(0)
        n, pos, rebuilt = 0, start, 0
        while True:
            Za, ids, refs, thetas = self._current()
            start = int(np.searchsorted(ids, pos)) if pos else 0
            n, nxt, status = _scan(
                Za,
                ids,
                start,
                self.w,
                refs,
                thetas,
                self.peak,
                self.l1,
                self.bound,
                self.limit,
                self.out_index,
                self.out_value,
                n,
            )
            if status == -2:
                return self.out_index[:n], self.out_value[:n], int(ids[nxt])
            if status == -1:
                break
            pos = int(ids[nxt - 1]) + 1
            rebuilt += 1
            self._adapt(status, within_epoch=self.levels[status].epochs == 0)
            if rebuilt > 4:  # the weights move too fast for screening to pay
                self.wait, self.levels, self._cache_valid = self.backoff, [], False
                self.backoff = min(2 * self.backoff, 1024)
            else:
                self._rebuild(status)
        for level in self.levels:
            level.epochs += 1
        return self.out_index[:n], self.out_value[:n], -1
