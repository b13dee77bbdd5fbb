"""The rows of sharded data as the solvers ask for them: the float warm start's passes and
the exact atoms of Wolfe's algorithm. Untrusted, like the solvers they serve.

:class:`ShardedRows` is the :class:`~novikoff.certificates.warm_start.RowPasses` oracle of a
view of the data: ``"patterns"`` (the scaled patterns Z_i in sample order, one group: the
main certificate) or ``"classes"`` (the feature rows x_p of the positive samples, then -x_n
of the negative ones, two groups: the geometric margin), the order in which
:func:`~novikoff.certificates.solver.certify` and
:func:`~novikoff.certificates.solver.geometric_margin` hand them to
:func:`~novikoff.certificates.warm_start.simplex_min_norm`. Its floats are the in-memory
ones: every row is converted and divided by the same peak; ``Z @ v`` is computed per shard
on an array padded so that each row keeps its place in 64-row groups of the whole array (BLAS
kernels sum a row's products by where the row stands in such a group: OpenBLAS's do, for the
rows of a last, partial group), the groups' sums run through the shards in order (numpy's
``mean(axis=0)`` adds the rows one after another; with one coordinate it sums pairwise, so
then the column comes here), and the lowest rows of a pass are merged from each shard's own
lowest, their whole list brought here when a tie at the cut leaves the choice to numpy's
``argpartition``. So :func:`~novikoff.certificates.warm_start.working_set_min_norm` chooses
the same working sets and returns the same floats as on the concatenated array, as long as
the seed (the geometric margin's, a product over every row) is not involved.

:class:`ShardedAtoms` (the patterns) and :class:`ShardedPairAtoms` (the differences x_p -
x_n) are :class:`~novikoff.certificates.minnorm.Atoms`: the linear minimization oracle runs on every shard
(exact integer scores; the least score, the lowest index among equals, as
:class:`~novikoff.certificates.minnorm.PatternAtoms` picks it); vectors, Gram matrices and combinations use
the rows fetched here (the corral's, a handful), with the same exact arithmetic paths.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

import flint
import numpy as np

from novikoff.certificates.minnorm import Atom, PatternAtoms
from novikoff.certificates.sharded.data import Block, ShardedData
from novikoff.certificates.warm_start import SparseSeed, lowest, multipliers
from novikoff.exact.bigdot import one_blas_thread

__all__ = ["ShardedAtoms", "ShardedPairAtoms", "ShardedRows"]

ALIGN = 64  # rows per group of the whole array that a shard's product keeps (see the module docstring)

_Segment = tuple[int, int, int, int, int]  # shard, segment of the shard, first position, rows, group


# ------------------------------------------------------------------------------ the worker side


def _raw_segments(block: Block, view: str) -> list[np.ndarray] | None:
    """The block's rows of ``view`` as float64 (None when a value is beyond float64)."""
    try:
        if view == "patterns":
            source: Any = block.array if block.array is not None else block.patterns
            return [np.asarray(source, dtype=np.float64).reshape(block.samples, block.dimension)]
        X = (
            block.features
            if block.features is not None
            else np.array(() if block.ds is None else block.ds.numerators, dtype=object).reshape(
                block.samples, block.n_features
            )
        )
        pos = block.labels == 1
        return [np.asarray(X[pos], dtype=np.float64), np.asarray(-X[~pos], dtype=np.float64)]
    except OverflowError:
        return None


def _prepare(block: Block, view: str) -> tuple[bool, float]:
    """Convert (kept); ``(usable, peak)``: all finite, and the largest |value|."""
    raw = _raw_segments(block, view)
    block.cache[view] = raw
    if raw is None:
        return False, 0.0
    finite = all(bool(np.isfinite(r).all()) for r in raw)
    peak = max((float(np.abs(r).max()) for r in raw if r.size), default=0.0)
    return finite, peak


def _scale(block: Block, view: str, peak: float, starts: Sequence[int], total: int) -> None:
    """The kept rows divided by ``peak``, each segment in a zero-padded array that keeps every
    row's place in the :data:`ALIGN`-row groups of the whole array (``starts``: the segments'
    first positions in it; ``total`` its rows)."""
    padded = []
    for rows, start in zip(block.cache.pop(view), starts):
        n = rows.shape[0]
        front = start % ALIGN
        back = 0 if start + n == total else -(front + n) % ALIGN
        A = np.zeros((front + n + back, rows.shape[1]))
        A[front : front + n] = rows / peak
        padded.append((A, front, n))
    block.cache[view] = padded


def _rows_of(block: Block, view: str, seg: int) -> np.ndarray:
    A, front, n = block.cache[view][seg]
    return A[front : front + n]


def _sums(block: Block, carry: list[np.ndarray | None], view: str) -> list[np.ndarray | None]:
    """The groups' running sums, the block's rows added one after another (numpy's order)."""
    out = list(carry)
    for seg in range(len(block.cache[view])):
        rows = _rows_of(block, view, seg)
        if rows.shape[0]:
            acc = out[seg]
            out[seg] = np.add.reduce(rows if acc is None else np.vstack([acc[None], rows]), axis=0)
    return out


def _column(block: Block, view: str) -> list[np.ndarray]:
    return [_rows_of(block, view, seg) for seg in range(len(block.cache[view]))]


def _pass(block: Block, view: str, v: np.ndarray) -> list[np.ndarray]:
    """The scores ``Z @ v`` of the block's segments (the last pass is kept, for a second call)."""
    kept = block.cache.get(("pass", view))
    if kept is not None and np.array_equal(kept[0], v):
        scores: list[np.ndarray] = kept[1]
        return scores
    with one_blas_thread():
        scores = [(A @ v)[front : front + n] for A, front, n in block.cache[view]]
    block.cache[("pass", view)] = (v.copy(), scores)
    return scores


def _candidates(scores: np.ndarray, mu: float | None, tol: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Local positions and slacks of the rows whose slack is below -tol (all rows without tol)."""
    slack = scores if mu is None else scores - mu
    bad = np.arange(slack.size) if tol is None else np.flatnonzero(slack < -tol)
    return bad, slack[bad]


def _round(
    block: Block,
    view: str,
    v: np.ndarray,
    groups: list[int],
    wanted: list[list[int]] | None,
    told: list[np.ndarray] | None,
    mu: np.ndarray | None,
    tol: float | None,
    k: int,
) -> tuple[list[np.ndarray] | None, bool, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One pass on the block: the scores of the ``wanted`` rows and whether they are those it
    was ``told`` (the driver's, from which it found ``mu``), and per segment its ``k``
    lowest-slack candidates (local positions, slacks) and how many candidates it has."""
    scores = _pass(block, view, v)
    at = None if wanted is None else [s[w] for s, w in zip(scores, wanted)]
    agree = at is None or told is None or all(np.array_equal(a, t) for a, t in zip(at, told))
    out = []
    for s, g in zip(scores, groups):
        bad, values = _candidates(s, None if mu is None else float(mu[g]), tol)
        chosen = lowest(values, k)
        out.append((bad[chosen], values[chosen], int(bad.size)))
    return at, agree, out


def _every_candidate(
    block: Block,
    view: str,
    v: np.ndarray,
    groups: list[int],
    mu: np.ndarray | None,
    tol: float | None,
    group: int,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """All of the group's candidates in each segment (a tie at the cut)."""
    scores = _pass(block, view, v)
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0))
    return [
        _candidates(s, None if mu is None else float(mu[g]), tol) if g == group else empty
        for s, g in zip(scores, groups)
    ]


def _forget(block: Block, view: str) -> None:
    block.cache.pop(view, None)
    block.cache.pop(("pass", view), None)


def _float_rows(block: Block, view: str, wanted: list[list[int]]) -> list[np.ndarray]:
    return [_rows_of(block, view, seg)[w] for seg, w in enumerate(wanted)]


# ------------------------------------------------------------------------------ the oracle


class ShardedRows:
    """The :class:`~novikoff.certificates.warm_start.RowPasses` of a view of ``data`` (module
    docstring). Build it with :meth:`open`, which returns None where the in-memory guess
    would give up before its first pass (a value beyond float64, not finite, or all zero)."""

    def __init__(self, data: ShardedData, view: str, segments: list[_Segment], total: int) -> None:
        self.data, self.view, self.segments, self.total = data, view, segments, total
        self.groups = 2 if view == "classes" else 1
        self.split_at = sum(data.positives) if view == "classes" else total
        self.width = data.n_features if view == "classes" else data.dimension
        self._filled = [s for s in segments if s[3]]  # ascending first positions
        self._starts = [s[2] for s in self._filled]
        self._rows: dict[int, np.ndarray] = {}

    @classmethod
    def open(cls, data: ShardedData, view: str) -> ShardedRows | None:
        positives = sum(data.positives)
        segments: list[_Segment] = []
        pos_at, neg_at = 0, positives
        for k, (first, n, p) in enumerate(zip(data.firsts, data.sizes, data.positives)):
            if view == "patterns":
                segments.append((k, 0, first, n, 0))
            else:
                segments += [(k, 0, pos_at, p, 0), (k, 1, neg_at, n - p, 1)]
                pos_at, neg_at = pos_at + p, neg_at + n - p
        found = data.each(_prepare, view)
        peak = max(p for _, p in found)
        if not all(ok for ok, _ in found) or peak == 0:
            return None
        per_shard: list[list[int]] = [[] for _ in data.sizes]
        for k, _, start, _, _ in segments:
            per_shard[k].append(start)
        data.shards.each(_scale, [(view, peak, starts, data.n_samples) for starts in per_shard])
        return cls(data, view, sorted(segments, key=lambda s: (s[2], s[0])), data.n_samples)

    # the positions of the view, by segment
    def _split(self, positions: np.ndarray) -> list[list[list[int]]]:
        """Per shard, per segment of the shard, the local positions of ``positions``."""
        out: list[list[list[int]]] = [[[] for _ in range(self.groups)] for _ in self.data.sizes]
        for q in positions.tolist():
            k, seg, start, _, _ = self._filled[bisect.bisect_right(self._starts, q) - 1]
            out[k][seg].append(q - start)
        return out

    def _place(self, positions: np.ndarray, parts: list[list[list[int]]], got: list[list[Any]]) -> list[Any]:
        """The values ``got`` (per shard, per segment, in the order of ``parts``) in the order of
        ``positions``."""
        where: dict[int, Any] = {}
        for k, segs in enumerate(parts):
            for seg, local in enumerate(segs):
                start = self._segment(k, seg)[2]
                for q, value in zip(local, got[k][seg]):
                    where[start + q] = value
        return [where[q] for q in positions.tolist()]

    def _segment(self, k: int, seg: int) -> _Segment:
        return next(s for s in self.segments if s[0] == k and s[1] == seg)

    def _group_segments(self) -> list[list[int]]:
        """Per shard, the group of each of its segments."""
        out: list[list[int]] = [[] for _ in self.data.sizes]
        for k, _, _, _, g in sorted(self.segments, key=lambda s: (s[0], s[1])):
            out[k].append(g)
        return out

    # RowPasses
    def codes(self, S: np.ndarray) -> np.ndarray:
        return (S >= self.split_at).astype(np.int64)

    def direction(self, seed: SparseSeed | None) -> np.ndarray:
        if seed is not None:  # sum seed_i z_i over the seed's rows (not the dense product)
            return self.rows(seed.rows).T @ seed.values
        counts = [0] * self.groups
        for _, _, _, n, g in self.segments:
            counts[g] += n
        if self.width == 1:  # numpy sums one column pairwise: the column comes here
            columns = self.data.each(_column, self.view)
            means = [np.concatenate([c[g] for c in columns]).mean(axis=0) for g in range(self.groups)]
        else:  # numpy adds the rows one after another: so do the shards, in order
            sums = self.data.shards.relay(_sums, [None] * self.groups, self.view)[-1]
            means = [s / n for s, n in zip(sums, counts) if n]
        return np.asarray(sum(means))

    def scores(self, v: np.ndarray) -> np.ndarray:
        """The pass is made by :meth:`lowest`, on the shards: its handle is ``v`` itself."""
        return v

    def _predict(self, S: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The scores of the rows S as the shards' products make them: each row at its place in
        a :data:`ALIGN`-row group, the rows of the whole array's last, partial group in one of
        the same length (the shards check them; a difference costs a second call, not a guess)."""
        last = self.total - self.total % ALIGN
        ZS = self.rows(S)
        early = S < last
        A = np.zeros((int(early.sum()) * ALIGN + self.total % ALIGN, ZS.shape[1]))
        where = np.empty(S.size, dtype=np.int64)
        where[early] = np.arange(int(early.sum())) * ALIGN + S[early] % ALIGN
        where[~early] = int(early.sum()) * ALIGN + S[~early] - last
        A[where] = ZS
        with one_blas_thread():
            return (A @ v)[where]

    def lowest(
        self, scores: np.ndarray, S: np.ndarray | None, lam_S: np.ndarray | None, tol: float | None, k: int
    ) -> list[np.ndarray]:
        v, groups = scores, self._group_segments()
        mu = wanted = told = None
        if S is not None and lam_S is not None:
            wanted = self._split(S)
            predicted = self._predict(S, v)
            mu = multipliers(predicted, lam_S, self.codes(S), self.groups)
            told = self._spread_like(S, predicted, wanted)
        got = self.data.shards.each(
            _round,
            [(self.view, v, g, w, t, mu, tol, k) for g, w, t in zip(groups, *self._per_shard(wanted, told))],
        )
        if (
            S is not None
            and lam_S is not None
            and wanted is not None
            and not all(agree for _, agree, _ in got)
        ):
            true = np.array(self._place(S, wanted, [at for at, _, _ in got]), dtype=np.float64)
            mu = multipliers(true, lam_S, self.codes(S), self.groups)
            got = self.data.shards.each(_round, [(self.view, v, g, None, None, mu, tol, k) for g in groups])
        return self._merge(v, groups, [c for _, _, c in got], mu, tol, k)

    def _per_shard(self, wanted: Any, told: Any) -> tuple[list[Any], list[Any]]:
        n = len(self.data.sizes)
        return (wanted if wanted is not None else [None] * n), (told if told is not None else [None] * n)

    def _spread_like(
        self, S: np.ndarray, values: np.ndarray, parts: list[list[list[int]]]
    ) -> list[list[np.ndarray]]:
        """``values`` (in the order of S) per shard and segment, in the order of ``parts``."""
        at = dict(zip(S.tolist(), values.tolist()))
        out = []
        for k, segs in enumerate(parts):
            out.append(
                [
                    np.array([at[self._segment(k, seg)[2] + q] for q in local], dtype=np.float64)
                    for seg, local in enumerate(segs)
                ]
            )
        return out

    def _merge(
        self,
        v: np.ndarray,
        groups: list[list[int]],
        got: list[list[tuple[np.ndarray, np.ndarray, int]]],
        mu: np.ndarray | None,
        tol: float | None,
        k: int,
    ) -> list[np.ndarray]:
        """Each group's ``k`` lowest from the shards' own (module docstring)."""
        out: list[np.ndarray] = []
        for g in range(self.groups):
            found = [
                (self._segment(kk, seg)[2] + local, values, count)
                for kk, per in enumerate(got)
                for seg, (local, values, count) in enumerate(per)
                if groups[kk][seg] == g
            ]
            total = sum(c for _, _, c in found)
            if total == 0:
                continue
            positions = np.concatenate([p for p, _, _ in found])
            values = np.concatenate([x for _, x, _ in found])
            if total <= k:
                out.append(positions)
                continue
            order = np.argsort(values, kind="stable")
            cut = values[order[k - 1]]
            tied = (values.size > k and values[order[k]] == cut) or any(
                c > k and x.size and x.max() == cut for _, x, c in found
            )
            out.append(self._lowest_of_all(v, groups, mu, tol, k, g) if tied else positions[order[:k]])
        return out

    def _lowest_of_all(
        self,
        v: np.ndarray,
        groups: list[list[int]],
        mu: np.ndarray | None,
        tol: float | None,
        k: int,
        group: int,
    ) -> np.ndarray:
        """A tie at the cut: the group's whole candidate list, in position order, and numpy's choice."""
        got = self.data.shards.each(_every_candidate, [(self.view, v, g, mu, tol, group) for g in groups])
        pieces = sorted(
            (self._segment(kk, seg)[2], local, values)
            for kk, per in enumerate(got)
            for seg, (local, values) in enumerate(per)
            if groups[kk][seg] == group and local.size
        )
        positions = np.concatenate([start + local for start, local, _ in pieces])
        values = np.concatenate([x for _, _, x in pieces])
        return positions[lowest(values, k)]

    def rows(self, S: np.ndarray) -> np.ndarray:
        missing = np.array(sorted(set(S.tolist()) - self._rows.keys()), dtype=np.int64)
        if missing.size:
            parts = self._split(missing)
            got = self.data.shards.each(_float_rows, [(self.view, w) for w in parts])
            for q, row in zip(missing.tolist(), self._place(missing, parts, got)):
                self._rows[q] = row
        if not S.size:
            return np.zeros((0, self.width))
        return np.array([self._rows[q] for q in S.tolist()], dtype=np.float64)

    def release(self) -> None:
        """Forget the shards' kept pass and rows."""
        self.data.each(_forget, self.view)


# ------------------------------------------------------------------------------ exact atoms


def _pattern_atoms(block: Block) -> PatternAtoms | None:
    """The block's patterns as PatternAtoms (made once per block; None when empty)."""
    if block.ds is None:
        return None
    if "atoms" not in block.cache:
        block.cache["atoms"] = PatternAtoms(block.patterns, array=block.array)
    atoms: PatternAtoms = block.cache["atoms"]
    return atoms


def _feature_atoms(block: Block) -> PatternAtoms | None:
    if block.ds is None:
        return None
    if "features" not in block.cache:
        block.cache["features"] = PatternAtoms(block.ds.numerators, array=block.features)
    atoms: PatternAtoms = block.cache["features"]
    return atoms


def _least(block: Block, direction: Sequence[int]) -> tuple[int, int, Any] | None:
    """``(score, global index, sample)`` of the block's first pattern of least ``Z_i . direction``."""
    atoms = _pattern_atoms(block)
    if atoms is None:
        return None
    s = atoms.scores(direction)
    best = min(range(len(s)), key=s.__getitem__)
    return s[best], block.first + best, block.take([best])[0]


def _extreme_classes(block: Block, direction: Sequence[int]) -> tuple[Any, Any]:
    """The block's first positive of least ``X_i . direction`` and first negative of greatest,
    each as ``(score, global index, sample)`` (None without one)."""
    atoms = _feature_atoms(block)
    if atoms is None:
        return None, None
    s = atoms.scores(direction)
    y = block.labels
    pos = [i for i in range(len(s)) if y[i] == 1]
    neg = [i for i in range(len(s)) if y[i] == -1]
    p = min(pos, key=s.__getitem__) if pos else None
    n = max(neg, key=s.__getitem__) if neg else None
    return tuple(None if i is None else (s[i], block.first + i, block.take([i])[0]) for i in (p, n))  # type: ignore[return-value]


class _FetchedRows:
    """Exact vectors, Gram matrices and combinations of rows kept here, with the arithmetic
    :class:`~novikoff.certificates.minnorm.PatternAtoms` uses on the whole data (float64 BLAS while
    ``exact_float``: every entry and partial sum an integer below 2^53; FLINT otherwise)."""

    def __init__(self, exact_float: bool) -> None:
        self.exact_float = exact_float

    def gram_array(self, vectors: Sequence[Sequence[int]]) -> np.ndarray | None:
        """The Gram matrix as int64 (one exact BLAS product), or None without ``exact_float``."""
        if not self.exact_float:
            return None
        A = np.array(vectors, dtype=np.float64)
        with one_blas_thread():
            return (A @ A.T).astype(np.int64)

    def gram_matrix(self, vectors: Sequence[Sequence[int]]) -> flint.fmpz_mat:
        G = self.gram_array(vectors)
        if G is not None:
            return flint.fmpz_mat(G.tolist())
        V = flint.fmpz_mat([list(v) for v in vectors])
        return V * V.transpose()

    def combine(self, vectors: Sequence[Sequence[int]], coeffs: Sequence[int], width: int) -> list[int]:
        if not vectors:
            return [0] * width
        array = np.array(vectors, dtype=np.int64) if self.exact_float else None
        return PatternAtoms(vectors, array=array).combine(range(len(vectors)), coeffs)


class ShardedAtoms:
    """The patterns z_i of sharded data as :class:`~novikoff.certificates.minnorm.Atoms` (see the module)."""

    def __init__(self, data: ShardedData) -> None:
        self.data = data
        self._rows = _FetchedRows(data.fits and data.peak**2 * data.dimension < 2**53)

    def vector(self, atom: Atom) -> Sequence[int]:
        return self.data.pattern(atom)

    def gram_array(self, ids: Sequence[Atom]) -> np.ndarray | None:
        self.data.fetch(ids)
        return self._rows.gram_array([self.data.pattern(a) for a in ids])

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        self.data.fetch(ids)
        return self._rows.gram_matrix([self.data.pattern(a) for a in ids])

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        merged: dict[Atom, int] = {}
        for a, c in zip(ids, coeffs):
            merged[a] = merged.get(a, 0) + c
        used = [a for a, c in merged.items() if c]
        self.data.fetch(used)
        vectors = [self.data.pattern(a) for a in used]
        return self._rows.combine(vectors, [merged[a] for a in used], self.data.dimension)

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        found = [f for f in self.data.each(_least, list(direction)) if f is not None]
        score, index, sample = min(found, key=lambda f: (f[0], f[1]))
        self.data.keep(index, sample)
        return index, score


class ShardedPairAtoms:
    """The differences x_p - x_n (p positive, n negative) of sharded data's feature rows as
    :class:`~novikoff.certificates.minnorm.Atoms`: their hull is conv(P) - conv(N)."""

    def __init__(self, data: ShardedData) -> None:
        self.data = data
        fits = data.fits and data.feature_peak**2 * 4 * data.n_features < 2**53
        self._rows = _FetchedRows(fits)

    def _difference(self, atom: Atom) -> list[int]:
        p, n = atom
        return [a - b for a, b in zip(self.data.sample(p)[0], self.data.sample(n)[0])]

    def vector(self, atom: Atom) -> Sequence[int]:
        return self._difference(atom)

    def _fetch(self, ids: Sequence[Atom]) -> None:
        self.data.fetch([i for pair in ids for i in pair])

    def gram_array(self, ids: Sequence[Atom]) -> np.ndarray | None:
        self._fetch(ids)
        return self._rows.gram_array([self._difference(a) for a in ids])

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        self._fetch(ids)
        return self._rows.gram_matrix([self._difference(a) for a in ids])

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        merged: dict[int, int] = {}
        for (p, n), c in zip(ids, coeffs):  # a sample may come in several pairs
            merged[p] = merged.get(p, 0) + c
            merged[n] = merged.get(n, 0) - c
        used = [i for i, c in merged.items() if c]
        self.data.fetch(used)
        vectors = [self.data.sample(i)[0] for i in used]
        return self._rows.combine(vectors, [merged[i] for i in used], self.data.n_features)

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        found = self.data.each(_extreme_classes, list(direction))
        low = min((f[0] for f in found if f[0] is not None), key=lambda f: (f[0], f[1]))
        high = min((f[1] for f in found if f[1] is not None), key=lambda f: (-f[0], f[1]))
        self.data.keep(low[1], low[2])
        self.data.keep(high[1], high[2])
        return (low[1], high[1]), low[0] - high[0]
