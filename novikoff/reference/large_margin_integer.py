"""The exact large-margin reference's integer fast path: every decision value kept, updated by Gram columns.

The large-margin references (:mod:`novikoff.reference.large_margin`) decide on the
integer patterns ``Z_i = s z_i`` (one common scale ``s > 0`` per dataset,
:attr:`novikoff.data.dataset.Dataset.scaled_patterns`) and integer weights ``W = s w``.
Their plain loop recomputes ``p_i = W.Z_i`` (a d-term sum of Python ints) at every
presentation. This module keeps instead the vector of *all* decision values
``p = Z W`` exactly and updates it in O(m) when the run adds ``n Z_k`` to ``W``:

    Z (W + n Z_k) = p + n G_k,   G_k = Z Z_k  (the k-th Gram column, exact integers).

The Gram columns are computed once: all of them at the start when the float64 way
below applies and m <= 2048 (one BLAS product on one thread), else each when sample k
is first updated, cached. Then a presentation costs one comparison ``p_i <= T`` with
the rule's integer threshold ``T`` (see ``threshold`` on the rules), done for all
samples at once by one numpy comparison into a byte buffer whose first set byte at or
after the search position (``bytearray.find``) is the next update, and an update
costs one O(m) vector addition.

**Cost.** :meth:`DecisionValues.run` runs a stage's epochs with its state in local
variables; in natural order without theorem checks (``_natural``) an update is one
``np.add`` into ``p`` (``n G_k`` from a cache of the multiples used), a look at the next
sample's value and, when that is no hit, one ``np.less_equal`` against the threshold
held in a 0-d int64 array (numpy compares with it faster than with a Python int) and
one ``bytearray.find``. Every BLAS product runs on one thread: after a threaded call
OpenBLAS's idle threads spin for about 0.1 s of CPU on the shared second core.

**Exactness.** Every stored number is an integer and every operation is exact:

- a Gram column goes through float64 BLAS only when ``peak^2 d <= 2^53``
  (``peak = max |Z_ij|``): every product and partial sum of ``Z_i.Z_k`` is then an
  integer of at most 53 bits, so each float operation is exact whatever order BLAS
  sums in; else through numpy int64 when ``peak^2 d <= 2^63 - 1`` (no partial sum
  can overflow); else with unbounded integers: python-flint's ``fmpz_mat``, or, when
  Z_k has few non-zeros (the soft-margin extension), Python ints over these only;
- ``p`` is an int64 array while a running bound ``B >= max_i |p_i|`` stays at most
  ``2^62`` (``B`` grows by ``n max_i |G_ik|`` per update, so no int64 addition or
  product ``n G_k`` can overflow); when an update would break that bound it is
  first replaced by the exact ``max |p_i|``, and if it still breaks, ``p`` becomes
  a numpy object array of Python ints, where nothing can overflow;
- a comparison ``p_i <= T`` with ``T >= B`` is true for every i and with
  ``T < -B`` false for every i, so only a threshold within ``[-B, B]`` (hence an
  int64 value) is ever compared with an int64 array.

The final weights are ``W_0 + Z^T a`` with ``a_k`` the number of updates on sample
k, and :meth:`DecisionValues.weights` re-computes ``Z W`` from them and compares it
with the kept ``p``: a disagreement raises :class:`~novikoff.errors.InvariantViolation`.
Both products go through float64 BLAS only when every product and partial sum is an
integer below ``2^53`` (``peak sum_k a_k`` for ``Z^T a``, ``peak sum_j |W_j|`` for
``Z W``), else through :func:`novikoff.exact.bigdot.small_times_big` or ``fmpz_mat`` (both exact).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import flint
import numpy as np

from novikoff.errors import InvariantViolation
from novikoff.exact.bigdot import one_blas_thread, small_times_big

__all__ = ["INT64_VALUES_LIMIT", "DecisionValues"]

INT64_VALUES_LIMIT = 2**62  # p stays int64 while its bound B is at most this
_FLOAT_EXACT = 2**53
_INT64_MAX = 2**63 - 1
_FULL_GRAM_ROWS = 2048  # up to this many rows the float64 way computes the whole Gram matrix at once
_MULTIPLES = 4096  # at most this many cached multiples n G_k
_SPARSE = 4  # a flint-way Gram column skips the zeros of Z_k when they are more than 3/4 of it
_LIGHT = 4  # a column of Z with at most this many non-zeros is summed in Python ints there


class DecisionValues:
    """``p = Z W`` for integer rows ``Z`` (m x d) and integer weights ``W``, kept exactly.

    ``W`` starts at ``W0``; :meth:`add` adds ``n Z_k`` to it. The class never stores
    ``W`` itself during a run: :meth:`weights` builds it at the end. ``array``, when
    given, is ``Z`` already as an int64 array (m x d, e.g.
    :attr:`novikoff.data.dataset.Dataset.pattern_array`); it is only read, never written.
    """

    def __init__(
        self, Z: Sequence[Sequence[int]], W0: Sequence[int], array: np.ndarray | None = None
    ) -> None:
        m, d = len(Z), len(W0)
        self.m, self.d = m, d
        self._rows = Z
        if array is not None and (array.dtype != np.int64 or array.shape != (m, d)):
            raise ValueError(f"array must be int64 of shape {(m, d)}, got {array.dtype} {array.shape}")
        try:
            self.Z: np.ndarray = array if array is not None else np.array(Z, dtype=np.int64).reshape(m, d)
            peak = int(np.abs(self.Z).max()) if self.Z.size else 0  # |Z_ij| <= 2^63 - 1: no overflow
        except OverflowError:  # some |Z_ij| >= 2^63
            self.Z = _object_matrix(Z, m, d)
            peak = max((max(max(r), -min(r)) for r in Z if len(r)), default=0)  # C-level max/min per row
        self._peak = peak
        self._cols: list[np.ndarray | None] = [None] * m  # G_k, once computed
        self._tops: list[int] = [-1] * m  # max_i |G_ik| once computed (with G_k), -1 before
        # how a Gram column is computed (module docstring: each way is exact)
        if self.Z.dtype != object and peak * peak * d <= _FLOAT_EXACT:
            self._gram = "float64"
            self._Zf = self.Z.astype(np.float64)
            if 0 < m <= _FULL_GRAM_ROWS:
                with one_blas_thread():
                    full = (self._Zf @ self._Zf.T).astype(np.int64)  # exact: module docstring
                self._cols = list(full)  # G is symmetric: row k is column k
                self._tops = np.abs(full).max(axis=1).tolist()
        elif self.Z.dtype != object and peak * peak * d <= _INT64_MAX:
            self._gram = "int64"
        else:
            self._gram = "flint"
            self._Zflint = flint.fmpz_mat(m, d, list(map(int, itertools.chain.from_iterable(Z))))
        # Z's columns split for Gram columns of sparse rows (_split_product), made when needed
        self._split: tuple[list[int], Any, dict[int, list[tuple[int, int]]]] | None = None
        if self.Z.dtype != object and peak * peak * d <= _INT64_MAX:  # no int64 sum can overflow
            self.norms2: list[int] = np.einsum("ij,ij->i", self.Z, self.Z).tolist()
        else:
            self.norms2 = [sum(map(operator.mul, r, r)) for r in Z]
        self._columns_obj: dict[int, np.ndarray] = {}
        self._W0 = [int(v) for v in W0]
        self.counts = [0] * m  # a_k: updates on sample k
        with one_blas_thread():
            start = self._product(self._W0) if any(self._W0) else [0] * m
        self.bound = max((abs(v) for v in start), default=0)  # >= max_i |p_i|
        self._int64 = self.bound <= INT64_VALUES_LIMIT
        self.p = np.array(start, dtype=np.int64) if self._int64 else _object_array(start)
        self._buffer = np.empty(m, dtype=np.int64)
        self._threshold = np.zeros((), dtype=np.int64)  # the search's T as an array (run)
        self._last_counts = [0] * m  # each sample's last multiple-update count (a guess)
        self._multiples: dict[int, np.ndarray] = {}  # n m + k -> n G_k (int64), for multiple updates
        # the search's byte buffers: hits[i] = (p_i <= T) by sample, and in presentation order
        self._mask = bytearray(m)
        self._hits = np.frombuffer(self._mask, dtype=np.bool_)
        self._mask_ordered = bytearray(m)
        self._hits_ordered = np.frombuffer(self._mask_ordered, dtype=np.bool_)
        self.used = [self.arithmetic]  # the storages p went through, in order

    @property
    def gram_arithmetic(self) -> str:
        """How Gram columns are computed: ``"float64"``, ``"int64"`` or ``"flint"`` (module docstring)."""
        return self._gram

    @property
    def arithmetic(self) -> str:
        """``"int64"`` or ``"python-int"``: how ``p`` is stored now."""
        return "int64" if self._int64 else "python-int"

    def _product(self, v: Sequence[int]) -> list[int]:
        """``Z v`` exactly, for integer ``v`` of any size."""
        if self._gram == "float64" and self._peak * sum(abs(x) for x in v) <= _FLOAT_EXACT:
            # every product and partial sum is an integer below 2^53 (module docstring)
            return (self._Zf @ np.array(v, dtype=np.float64)).astype(np.int64).tolist()
        if self._gram == "flint":
            return [int(x) for x in (self._Zflint * flint.fmpz_mat(self.d, 1, [int(x) for x in v])).entries()]
        return small_times_big(self.Z, v)

    def _transpose_product(self, a: Sequence[int]) -> list[int]:
        """``Z^T a`` exactly, for integers ``a_k >= 0`` of any size."""
        if self._gram == "float64" and self._peak * sum(a) <= _FLOAT_EXACT and sum(a) <= _FLOAT_EXACT:
            # every product and partial sum is an integer below 2^53 (module docstring)
            return (np.array(a, dtype=np.float64) @ self._Zf).astype(np.int64).tolist()
        if self._gram == "flint":
            return [int(x) for x in (flint.fmpz_mat(1, self.m, [int(x) for x in a]) * self._Zflint).entries()]
        return small_times_big(self.Z.T, a)

    def column(self, k: int) -> tuple[np.ndarray, int]:
        """The Gram column ``G_k = Z Z_k`` (int64 when every entry fits, else Python ints) and
        ``max_i |G_ik|``; computed once per k."""
        col = self._cols[k]
        if col is not None:
            return col, self._tops[k]
        if self._gram == "float64":
            with one_blas_thread():
                col = (self._Zf @ self._Zf[k]).astype(np.int64)  # exact: module docstring
        elif self._gram == "int64":
            col = self.Z @ self.Z[k]
        else:
            row = [int(v) for v in self._rows[k]]
            nonzero = [j for j, v in enumerate(row) if v]
            if _SPARSE * len(nonzero) < self.d:  # few non-zeros: only these columns of Z count
                values = self._split_product(row, nonzero)
            else:
                values = [int(v) for v in (self._Zflint * flint.fmpz_mat(self.d, 1, row)).entries()]
            top = max(max(values), -min(values)) if values else 0
            col = np.array(values, dtype=np.int64) if top <= _INT64_MAX else _object_array(values)
            self._cols[k], self._tops[k] = col, top
            return col, top
        top = int(np.abs(col).max())
        self._cols[k], self._tops[k] = col, top
        return col, top

    def _split_product(self, row: list[int], nonzero: list[int]) -> list[int]:
        """``Z v`` exactly for an integer ``v`` (``row``) whose non-zeros are ``nonzero``: the
        columns of Z with more than ``_LIGHT`` non-zeros through one fmpz matrix of them
        (made once), each other column j with v_j != 0 as its few products Z_ij v_j in
        Python ints (the soft-margin extension's columns have one non-zero each)."""
        if self._split is None:
            nz = self.Z != 0  # elementwise, also for an object matrix
            per_column = nz.sum(axis=0)
            heavy = [j for j in range(self.d) if per_column[j] > _LIGHT]
            rows = self._rows
            matrix = flint.fmpz_mat(self.m, len(heavy), [int(r[j]) for r in rows for j in heavy])
            light: dict[int, list[tuple[int, int]]] = {
                j: [(i, int(rows[i][j])) for i in np.flatnonzero(nz[:, j]).tolist()]
                for j in range(self.d)
                if 0 < per_column[j] <= _LIGHT
            }
            self._split = (heavy, matrix, light)
        heavy, matrix, light = self._split
        if heavy:
            values = [
                int(x) for x in (matrix * flint.fmpz_mat(len(heavy), 1, [row[j] for j in heavy])).entries()
            ]
        else:
            values = [0] * self.m
        for j in nonzero:
            v = row[j]
            for i, z in light.get(j, ()):
                values[i] += z * v
        return values

    def value(self, i: int) -> int:
        """``p_i = W.Z_i`` as a Python int."""
        return int(self.p.item(i))

    def minimum(self) -> int:
        """``min_i W.Z_i``."""
        return int(self.p.min())

    def first_at_most(self, threshold: int | None, order: np.ndarray | None, start: int) -> int:
        """The first position j >= ``start`` of the presentation (``order``, a permutation of
        0..m-1, or 0..m-1 when None) whose sample has ``p <= threshold`` (every sample when
        ``threshold`` is None), or -1 when there is none."""
        if start >= self.m:
            return -1
        if threshold is None or threshold >= self.bound:
            return start
        if threshold < -self.bound:
            return -1
        p = self.p
        if p.item(start if order is None else order[start]) <= threshold:  # often the very next sample
            return start
        np.less_equal(p, threshold, out=self._hits)  # within [-bound, bound]: an int64 if p is
        if order is None:
            return self._mask.find(1, start)
        np.take(self._hits, order, out=self._hits_ordered)
        return self._mask_ordered.find(1, start)

    def add(self, k: int, n: int) -> None:
        """``W += n Z_k``: ``p += n G_k``, exactly (module docstring)."""
        col, top = self.column(k)
        step = n * top
        self.counts[k] += n
        if step == 0:  # G_k = 0 (Z_k = 0): p does not change
            return
        if self._int64 and self.bound + step > INT64_VALUES_LIMIT:
            self.bound = int(np.abs(self.p).max())  # exact: |p_i| <= 2^62
            if self.bound + step > INT64_VALUES_LIMIT:
                self.p = self.p.astype(object)  # int64 -> Python ints, exactly
                self._int64 = False
                self.used.append(self.arithmetic)
        if self._int64:  # then n max|G_ik| <= 2^62: G_k is int64 and nothing overflows
            if n == 1:
                self.p += col
            else:
                np.multiply(col, n, out=self._buffer)
                self.p += self._buffer
        else:
            obj = self._columns_obj.get(k)
            if obj is None:
                obj = col if col.dtype == object else col.astype(object)
                self._columns_obj[k] = obj
            self.p += obj if n == 1 else obj * n
        self.bound += step

    def run(
        self,
        epochs: Iterable[tuple[int, np.ndarray | None]],
        threshold: Callable[[int, int], int | None],
        *,
        t: int,
        w2: int,
        updates: list[tuple[int, int]],
        max_updates: int,
        count: Callable[[int, int, int, int], int | None] | None = None,
        search: Callable[[int, int, int, int, int], int] | None = None,
        before_update: Callable[[int, int, int, int, int, int, int], None] | None = None,
    ) -> tuple[int, int, int, bool, bool]:
        """A large-margin run's epochs on the kept values: at each presentation the test
        ``p_i <= threshold(t, w2)`` (None: every p), and on a hit the update of sample i,
        once, or with ``count`` (multiple updates) min(n, max_updates - t + 1) times, n =
        ``count(t, p_i, q_i, w2)`` or, where that is None, ``search(t, p_i, q_i, w2,
        max_updates - t + 1)`` (which applies the limit itself).

        ``epochs`` gives each epoch's number (recorded in ``updates``) and its presentation
        (a permutation of 0..m-1 as an intp array, or None for 0..m-1); ``w2`` is ||W||^2
        and is updated as ||W + n Z_i||^2 = w2 + 2 n p_i + n^2 q_i (q_i = ||Z_i||^2);
        ``before_update(t, p_i, q_i, w2, n, i, epoch)`` runs before each update (the
        theorem checks). ``count`` may return None (then ``search`` decides) but must not
        return a number for a sample where the n at which the test holds are not
        {0, ..., n - 1}: in natural order a sample's last count is tried first as a guess
        (``_natural``). Stops after a clean epoch (converged), when ``epochs`` ends, or
        before an update that would pass ``max_updates`` (limited). Returns (t, w2, epochs
        run, converged, limited).

        Each step is :meth:`first_at_most` and :meth:`add`; the int64 case (no tier change,
        a threshold within [-B, B]) is done inline with the same operations, ``n G_i``
        taken from a cache of the multiples used (exact int64 products, as in :meth:`add`).
        """
        if count is not None and search is None:
            raise ValueError("run: count needs search for the cases it leaves (None)")
        m, Q, counts = self.m, self.norms2, self.counts
        cols, tops, hits, mask = self._cols, self._tops, self._hits, self._mask
        ordered, mask_ordered = self._hits_ordered, self._mask_ordered
        less_equal, take = np.less_equal, np.take
        append, extend = updates.append, updates.extend
        multiples = self._multiples
        ran = 0
        for epoch, seq in epochs:
            ran += 1
            j = self.first_at_most(threshold(t, w2), seq, 0)
            if j < 0:
                return t, w2, ran, True, False
            while j >= 0:
                if seq is None and before_update is None and self._int64:
                    j, t, w2 = self._natural(j, t, w2, epoch, threshold, count, max_updates, updates)
                    if j < 0:
                        break
                i = j if seq is None else int(seq[j])
                p = self.p
                pi, q = p.item(i), Q[i]
                if count is None:
                    n = 1
                    if t >= max_updates:
                        return t, w2, ran, False, True
                else:
                    limit = max_updates - t + 1
                    n = count(t, pi, q, w2) or search(t, pi, q, w2, limit)  # type: ignore[misc]
                    if n >= limit:
                        return t, w2, ran, False, True
                if before_update is not None:
                    before_update(t, pi, q, w2, n, i, epoch)
                if n == 1:
                    w2 += 2 * pi + q
                    t += 1
                    append((epoch, i))
                else:
                    w2 += 2 * n * pi + n * n * q
                    t += n
                    extend([(epoch, i)] * n)
                T = threshold(t, w2)
                j += 1
                col, top = cols[i], tops[i]
                bound = self.bound + n * top
                if (
                    col is None
                    or T is None
                    or not self._int64
                    or bound > INT64_VALUES_LIMIT
                    or not -bound <= T < bound
                ):
                    self.add(i, n)
                    j = self.first_at_most(T, seq, j)
                    continue
                # add(i, n) and first_at_most(T, seq, j) in the int64 case, the same operations
                if n == 1:
                    p += col
                else:
                    step = multiples.get(n * m + i)
                    if step is None:
                        step = col * n  # |n G_ik| <= bound <= 2^62: exact in int64
                        if len(multiples) < _MULTIPLES:
                            multiples[n * m + i] = step
                    p += step
                counts[i] += n
                self.bound = bound
                if j >= m:
                    j = -1
                elif p.item(j if seq is None else seq[j]) > T:
                    less_equal(p, T, hits)
                    if seq is None:
                        j = mask.find(1, j)
                    else:
                        take(hits, seq, out=ordered)
                        j = mask_ordered.find(1, j)
        return t, w2, ran, False, False

    def _natural(
        self,
        j: int,
        t: int,
        w2: int,
        epoch: int,
        threshold: Callable[[int, int], int | None],
        count: Callable[[int, int, int, int], int | None] | None,
        max_updates: int,
        updates: list[tuple[int, int]],
    ) -> tuple[int, int, int]:
        """:meth:`run`'s steps from the hit at position j of the natural order while they need
        no tier change, no lazily computed column and no ``search``: the same operations with
        fewer checks. Returns (j, t, w2): j = -1 at the end of the epoch, else a hit that
        :meth:`run` takes (nothing of it applied yet; the max_updates stop is decided there).

        With multiple updates the count n is decided by evaluating the test at
        (w + k z, t + k) as ``p + k q <= threshold(t + k, ||W + k Z||^2)`` (threshold's
        equivalence), the set of k where it holds being {0, ..., n - 1}: first at g - 1 and
        g, g the sample's previous count (n = g where it holds at g - 1 and fails at g;
        n = g + 1 where it also holds at g and fails at g + 1; n = 1 where g = 2 and it
        fails at 1), else at 1 (n = 1 where it fails), else ``count``'s closed form. The
        last evaluation is the threshold the search needs next.
        """
        m, Q, counts, cols, tops = self.m, self.norms2, self.counts, self._cols, self._tops
        hits, mask, multiples, p = self._hits, self._mask, self._multiples, self.p
        less_equal, add, append, extend, find = (
            np.less_equal,
            np.add,
            updates.append,
            updates.extend,
            mask.find,
        )
        at = self._threshold  # T as a 0-d int64 array: numpy compares with it faster than with an int
        bound, limit, last = self.bound, INT64_VALUES_LIMIT, self._last_counts
        pi = p.item(j)
        while True:
            col = cols[j]
            if col is None:
                break
            q = Q[j]
            n = 0
            if count is not None and (g := last[j]) >= 2:
                # a = W_k.Z_j and w2_1 = ||W_k||^2 at W_k = W + k Z_j, k = g - 1, g, g + 1:
                # W_{k+1}.Z_j = a + q and ||W_{k+1}||^2 = ||W_k||^2 + 2 a + q
                k = g - 1
                a = pi + k * q
                w2_1 = w2 + k * (pi + a)
                T = threshold(t + k, w2_1)
                if T is None or a <= T:  # holds at g - 1: n >= g
                    w2_1 += 2 * a + q
                    a += q
                    T = threshold(t + g, w2_1)
                    if T is not None and a > T:
                        n = g
                    else:
                        w2_1 += 2 * a + q
                        a += q
                        T = threshold(t + g + 1, w2_1)
                        if T is not None and a > T:
                            n = g + 1
                elif k == 1:  # fails at 1
                    n = 1
            if n == 0:
                w2_1 = w2 + 2 * pi + q
                T = threshold(t + 1, w2_1)
                if count is not None and (T is None or pi + q <= T):  # holds at 1: n >= 2
                    n = count(t, pi, q, w2) or 0
                    if n == 0:  # no closed form: run's search decides
                        break
                    w2_1 = w2 + 2 * n * pi + n * n * q
                    T = threshold(t + n, w2_1)
                else:
                    n = 1
            if n > max_updates - t:  # limited: run decides
                break
            bound1 = bound + n * tops[j]
            if T is None or bound1 > limit or not -bound1 <= T < bound1:
                break
            t, w2, bound = t + n, w2_1, bound1
            if n == 1:
                add(p, col, p)
                append((epoch, j))
            else:
                step = multiples.get(n * m + j)
                if step is None:
                    step = col * n  # |n G_jk| <= bound <= 2^62: exact in int64
                    if len(multiples) < _MULTIPLES:
                        multiples[n * m + j] = step
                add(p, step, p)
                extend([(epoch, j)] * n)
            counts[j] += n
            if count is not None:
                last[j] = n
            j += 1
            if j >= m:
                j = -1
                break
            pi = p.item(j)
            if pi > T:
                at[()] = T  # exact: |T| < bound <= 2^62
                less_equal(p, at, hits)
                j = find(1, j)
                if j < 0:
                    break
                pi = p.item(j)
        self.bound = bound
        return j, t, w2

    def weights(self) -> list[int]:
        """``W = W0 + sum_k a_k Z_k`` exactly, after checking that ``Z W`` is the kept ``p``."""
        with one_blas_thread():
            W = [a + b for a, b in zip(self._W0, self._transpose_product(self.counts))]
            agree = self._product(W) == self.p.tolist()
        if not agree:  # never expected: the two ways must agree
            raise InvariantViolation(
                "integer-path",
                "the kept decision values p equal Z W",
                {"updates": sum(self.counts)},
                "at the end of a stage",
            )
        return W


def _object_matrix(Z: Sequence[Sequence[int]], m: int, d: int) -> np.ndarray:
    out = np.empty((m, d), dtype=object)
    for i, row in enumerate(Z):
        out[i, :] = list(row)
    return out


def _object_array(values: Sequence[int]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out
