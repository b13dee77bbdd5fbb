"""Shards of one dataset, kept where they were read: the blocks, the two ways to run on them,
and the driver's view of the whole.

A :class:`Block` is one shard's samples as exact integers over the *whole* data's common
denominator (a :class:`~novikoff.data.dataset.Dataset` of its own, so that every exact routine,
the trusted checker included, runs on it unchanged), with the global index of its first
sample. Blocks live in this process (:class:`LocalShards`: tests, and DATA read here) or on
the Dask workers that read them (:class:`DaskShards`: a shard's file is read by a worker and
its block never leaves that worker; every later task on it is sent there). Both run
``fn(block, *args)`` per shard (:meth:`LocalShards.each`), keep a result where it was made
when asked to (a handle a later task takes), and relay a value through the shards in order
(:meth:`LocalShards.relay`). Shard functions must be module-level functions of an installed
module (Dask pickles them by reference).

:class:`ShardedData` is the driver's view: the sizes, classes, denominator, scale and R^2 of
the concatenation of the shards in order, exactly as :class:`~novikoff.data.dataset.Dataset` has them
for the same samples in one file (:func:`novikoff.data.readers.plan_shards` makes the choices that
need every shard), the rows it asks for (fetched and kept), and the data binding of a
certificate file (:meth:`ShardedData.binding`: the one pass whose bytes reach the driver,
the canonical lines of :func:`~novikoff.certificates.format.dataset_digest`, streamed shard by
shard into one SHA-256).
"""

from __future__ import annotations

import bisect
import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from novikoff.certificates.format import DatasetBinding
from novikoff.data.dataset import Dataset
from novikoff.data.readers import (
    ShardPlan,
    ShardSummary,
    ShardText,
    plan_shards,
    read_shard,
    shard_format,
    shard_paths,
    shard_samples,
)
from novikoff.errors import InputError
from novikoff.exact.rational import unlimited_int_digits
from novikoff.runtime.runs import DataFormat

__all__ = [
    "Block",
    "BlockStats",
    "DaskShards",
    "LocalShards",
    "ReadOptions",
    "ShardFailure",
    "ShardedData",
    "Shards",
    "list_shards",
    "load_text",
    "open_dask",
    "open_local",
    "open_shards",
]

DIGEST_CHUNK = 20_000  # samples per piece of the digest's canonical text


@dataclass(frozen=True)
class ShardFailure:
    """What a shard task returns instead of raising an :class:`~novikoff.errors.InputError`
    (bad data): its message (the file, line and field), raised again by the driver."""

    message: str


@dataclass(frozen=True)
class ReadOptions:
    """How the shard files are read: ``format`` (None: from the suffixes), the CSV ``header``
    (None: detected per file) and ``label_column``, the ``positive`` label and the ``bias``."""

    format: DataFormat | None = None
    header: bool | None = None
    label_column: int = -1
    positive: object | None = None
    bias: object = 1


def list_shards(data: str, fmt: DataFormat | None) -> tuple[list[str], DataFormat] | ShardFailure:
    """The shard files of DATA and their one format, as the reading side sees them."""
    try:
        paths = shard_paths(data) if not Path(data).is_file() else [Path(data)]
        return [str(p) for p in paths], shard_format(paths, fmt, data)
    except InputError as exc:
        return ShardFailure(str(exc))


def load_text(path: str, fmt: DataFormat, options: ReadOptions) -> ShardText | ShardFailure:
    """One shard file read exactly (:func:`novikoff.data.readers.read_shard`)."""
    try:
        return read_shard(path, fmt, header=options.header, label_column=options.label_column)
    except InputError as exc:
        return ShardFailure(str(exc))


def _summary(text: ShardText | ShardFailure) -> ShardSummary | ShardFailure:
    return text if isinstance(text, ShardFailure) else text.summary()


def _block(text: ShardText, plan: ShardPlan, index: int, first: int) -> Block:
    rows, labels = shard_samples(text, plan)
    ds = Dataset(rows, plan.denominator, labels, plan.bias, text.source) if rows else None
    return Block(index, text.source, first, ds, plan.n_features, plan.bias != 0)


@dataclass(frozen=True)
class BlockStats:
    """A block's sizes and exact extremes: ``samples``, ``positives``, the largest ``peak``
    |Z_ij| of its scaled patterns and ``norm2`` ||Z_i||^2, whether they fit int64
    (``int64``), the largest |X_ij| of its features (``feature_peak``)."""

    samples: int
    positives: int
    peak: int
    norm2: int
    int64: bool
    feature_peak: int


class Block:
    """One shard's samples (see the module docstring); ``ds`` is None for a shard without
    samples. Cached arrays are made on first use, where the block lives."""

    def __init__(
        self, index: int, source: str, first: int, ds: Dataset | None, n_features: int, bias: bool
    ) -> None:
        self.index, self.source, self.first, self.ds = index, source, first, ds
        self.n_features = n_features
        self.dimension = n_features + (1 if bias else 0)
        self.cache: dict[Any, Any] = {}  # the float views of the warm start, by name

    @property
    def samples(self) -> int:
        return 0 if self.ds is None else self.ds.n_samples

    @cached_property
    def patterns(self) -> tuple[tuple[int, ...], ...]:
        """The scaled patterns Z_i = s z_i (s the whole data's scale)."""
        return () if self.ds is None else self.ds.scaled_patterns[0]

    @cached_property
    def array(self) -> np.ndarray | None:
        """:attr:`patterns` as int64 (None when an entry does not fit)."""
        if self.ds is None:
            return np.zeros((0, self.dimension), dtype=np.int64)
        return self.ds.pattern_array

    @cached_property
    def features(self) -> np.ndarray | None:
        """The feature numerators X_i as int64 (None when an entry does not fit)."""
        if self.ds is None:
            return np.zeros((0, self.n_features), dtype=np.int64)
        try:
            return np.array(self.ds.numerators, dtype=np.int64).reshape(self.samples, self.n_features)
        except OverflowError:
            return None

    @cached_property
    def labels(self) -> np.ndarray:
        return np.array(() if self.ds is None else self.ds.labels, dtype=np.int64)

    def stats(self) -> BlockStats:
        """This block's :class:`BlockStats`."""
        if self.ds is None:
            return BlockStats(0, 0, 0, 0, True, 0)
        A = self.array
        peak = (
            int(np.abs(A).max(initial=0)) if A is not None else max(abs(v) for r in self.patterns for v in r)
        )
        if A is not None and peak**2 * A.shape[1] < 2**63:
            norm2 = int(np.einsum("ij,ij->i", A, A).max())
        else:
            norm2 = max(sum(v * v for v in row) for row in self.patterns)
        X = self.features
        fpeak = (
            int(np.abs(X).max(initial=0))
            if X is not None
            else max(abs(v) for r in self.ds.numerators for v in r)
        )
        positives = sum(1 for y in self.ds.labels if y == 1)
        return BlockStats(self.samples, positives, peak, norm2, A is not None, fpeak)

    def digest_text(self, start: int, stop: int) -> bytes:
        """The canonical lines of samples start..stop-1 of this block
        (:func:`~novikoff.certificates.format.dataset_digest`; the denominator is reduced)."""
        assert self.ds is not None
        with unlimited_int_digits():
            lines = [
                " ".join([str(y), *map(str, row)]) + "\n"
                for y, row in zip(self.ds.labels[start:stop], self.ds.numerators[start:stop])
            ]
        return "".join(lines).encode()

    def take(self, local: Sequence[int]) -> list[tuple[tuple[int, ...], int, tuple[int, ...]]]:
        """``(features X_i, label, pattern Z_i)`` of the samples at these local positions."""
        assert self.ds is not None
        ds, Z = self.ds, self.patterns
        return [(ds.numerators[i], ds.labels[i], Z[i]) for i in local]


class Shards(Protocol):
    """Per-shard work where the shards are (:class:`LocalShards`, :class:`DaskShards`)."""

    @property
    def count(self) -> int: ...

    def each(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]], keep: bool = False) -> list[Any]:
        """``fn(block_k, *args[k])`` for every shard k, in shard order; with ``keep`` the
        results stay where they were made (handles a later call may pass as an argument)."""
        ...

    def relay(self, fn: Callable[..., Any], carry: Any, *args: Any, rounds: int = 1) -> list[Any]:
        """``carry = fn(block_k, carry, *args)`` through the shards in order, ``rounds`` times
        over (the first carry given); every carry made, in order."""
        ...

    def free(self, handles: Sequence[Any]) -> None:
        """Forget kept results."""
        ...


class LocalShards:
    """Blocks in this process."""

    def __init__(self, blocks: Sequence[Any]) -> None:
        self.blocks = list(blocks)

    @property
    def count(self) -> int:
        return len(self.blocks)

    def each(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]], keep: bool = False) -> list[Any]:
        return _raised([fn(b, *a) for b, a in zip(self.blocks, args)], keep)

    def relay(self, fn: Callable[..., Any], carry: Any, *args: Any, rounds: int = 1) -> list[Any]:
        return _relayed(fn, self.blocks * rounds, [carry], *args)

    def free(self, handles: Sequence[Any]) -> None:
        pass

    def replace(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> None:
        """The blocks become ``fn(block_k, *args[k])``."""
        self.blocks = self.each(fn, args, keep=True)


def _raised(results: list[Any], keep: bool) -> list[Any]:
    """``results``, after raising the first :class:`ShardFailure` among them as an InputError."""
    if not keep:
        for r in results:
            if isinstance(r, ShardFailure):
                raise InputError(r.message)
    return results


def _called(fn: Callable[..., Any], blocks: Sequence[Any], args: Sequence[tuple[Any, ...]]) -> list[Any]:
    """``fn(block, *a)`` for the blocks one worker holds (one task for all of them)."""
    return [fn(b, *a) for b, a in zip(blocks, args)]


def _relayed(fn: Callable[..., Any], blocks: Sequence[Any], before: Sequence[Any], *args: Any) -> list[Any]:
    """The relay through ``blocks`` from the last carry of ``before``; every carry made."""
    carry, out = before[-1], []
    for b in blocks:
        carry = fn(b, carry, *args)
        out.append(carry)
    return out


class DaskShards:
    """Blocks kept by the workers of a Dask ``client``: shard k's tasks go to ``workers[k]``
    (the worker that read it; another one only if that one is gone, Dask moving the block).
    The shards of one worker are consecutive, and each call makes one task per worker: its
    shards one after another (in a relay, one task per run of consecutive shards)."""

    def __init__(self, client: Any, blocks: Sequence[Any], workers: Sequence[str]) -> None:
        self.client, self.blocks, self.workers = client, list(blocks), list(workers)

    @property
    def count(self) -> int:
        return len(self.blocks)

    def _submit(self, worker: str, fn: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(fn, *args, workers=[worker], allow_other_workers=True, pure=False)

    def _runs(self) -> list[list[int]]:
        """The shards in runs of consecutive ones on the same worker."""
        runs: list[list[int]] = []
        for k, w in enumerate(self.workers):
            if runs and self.workers[runs[-1][-1]] == w:
                runs[-1].append(k)
            else:
                runs.append([k])
        return runs

    def each(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]], keep: bool = False) -> list[Any]:
        if keep:
            return [
                self._submit(self.workers[k], fn, b, *a) for k, (b, a) in enumerate(zip(self.blocks, args))
            ]
        runs = self._runs()
        futures = [
            self._submit(
                self.workers[run[0]], _called, fn, [self.blocks[k] for k in run], [args[k] for k in run]
            )
            for run in runs
        ]
        return [r for part in self._gather(futures) for r in part]

    def relay(self, fn: Callable[..., Any], carry: Any, *args: Any, rounds: int = 1) -> list[Any]:
        before: Any = [carry]
        futures = []
        for _ in range(rounds):
            for run in self._runs():
                before = self._submit(
                    self.workers[run[0]], _relayed, fn, [self.blocks[k] for k in run], before, *args
                )
                futures.append(before)
        return [r for part in self._gather(futures) for r in part]

    def _gather(self, futures: list[Any]) -> list[Any]:
        try:
            return [_raised(part, False) for part in self.client.gather(futures)]
        finally:
            self.free(futures)

    def free(self, handles: Sequence[Any]) -> None:
        for future in handles:  # released, not cancelled: a task that needs it still gets it
            future.release()

    def replace(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> None:
        old = self.blocks
        self.blocks = self.each(fn, args, keep=True)
        self.free(old)

    @classmethod
    def start(cls, client: Any, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]) -> DaskShards:
        """Shard k made by ``calls[k]`` (a function and its arguments) on one of the workers (in
        address order), consecutive shards together: K shards on W workers, shard k on worker
        k W // K."""
        workers = sorted(client.scheduler_info()["workers"])
        chosen = [workers[k * len(workers) // len(calls)] for k in range(len(calls))]
        futures = [
            client.submit(fn, *args, workers=[w], allow_other_workers=True, pure=False)
            for (fn, args), w in zip(calls, chosen)
        ]
        return cls(client, futures, chosen)


def _each_same(shards: Shards, fn: Callable[..., Any], *args: Any, keep: bool = False) -> list[Any]:
    return shards.each(fn, [args] * shards.count, keep)


class ShardedData:
    """The driver's view of the concatenation of the shards (module docstring). The
    attributes are those of the :class:`~novikoff.data.dataset.Dataset` of the same samples:
    ``name``, ``n_samples``, ``n_features``, ``dimension``, ``bias``, ``denominator``,
    ``scale`` (of the scaled patterns), ``R2``; per shard ``sizes``, ``firsts`` (global index
    of the first sample) and ``positives``; ``peak`` = max |Z_ij|, ``fits`` whether every
    pattern entry fits int64, ``feature_peak`` = max |X_ij|."""

    def __init__(self, shards: Shards, plan: ShardPlan, stats: Sequence[BlockStats]) -> None:
        self.shards, self.plan = shards, plan
        self.name = plan.name
        self.n_features = plan.n_features
        self.bias = plan.bias
        self.dimension = plan.n_features + (1 if plan.bias != 0 else 0)
        self.denominator = plan.denominator
        self.scale = math.lcm(plan.denominator, plan.bias.denominator)
        self.sizes = [s.samples for s in stats]
        self.firsts = [0, *np.cumsum(self.sizes).tolist()][:-1]
        self.n_samples = sum(self.sizes)
        self.positives = [s.positives for s in stats]
        self.peak = max(s.peak for s in stats)
        self.fits = all(s.int64 for s in stats)
        self.feature_peak = max(s.feature_peak for s in stats)
        self.R2 = Fraction(max(s.norm2 for s in stats), self.scale * self.scale)
        self._rows: dict[int, tuple[tuple[int, ...], int, tuple[int, ...]]] = {}

    @property
    def classes(self) -> tuple[int, ...]:
        """The labels that occur, sorted (as :attr:`Dataset.classes`)."""
        pos = sum(self.positives)
        return tuple(y for y, n in ((-1, self.n_samples - pos), (1, pos)) if n)

    def each(self, fn: Callable[..., Any], *args: Any, keep: bool = False) -> list[Any]:
        """``fn(block, *args)`` on every shard, in shard order."""
        return _each_same(self.shards, fn, *args, keep=keep)

    def locate(self, indices: Sequence[int]) -> list[list[int]]:
        """Per shard, the local positions of those of ``indices`` (global) that it holds."""
        out: list[list[int]] = [[] for _ in self.sizes]
        for i in indices:
            k = bisect.bisect_right(self.firsts, i) - 1
            while self.sizes[k] == 0:  # empty shards share their first index with the next
                k += 1
            out[k].append(i - self.firsts[k])
        return out

    def fetch(self, indices: Sequence[int]) -> None:
        """Bring the samples ``indices`` here (kept: features, label, pattern)."""
        missing = sorted({int(i) for i in indices} - self._rows.keys())
        if not missing:
            return
        wanted = self.locate(missing)
        got = self.shards.each(_take, [(w,) for w in wanted])
        for k, (local, rows) in enumerate(zip(wanted, got)):
            for i, row in zip(local, rows):
                self._rows[self.firsts[k] + i] = row

    def pattern(self, i: int) -> tuple[int, ...]:
        """Z_i (fetched)."""
        self.fetch([i])
        return self._rows[i][2]

    def sample(self, i: int) -> tuple[tuple[int, ...], int]:
        """``(X_i, y_i)`` (fetched)."""
        self.fetch([i])
        row = self._rows[i]
        return row[0], row[1]

    def held(self) -> int:
        """How many samples the driver holds (fetched for the solver and the checks)."""
        return len(self._rows)

    def keep(self, i: int, row: tuple[tuple[int, ...], int, tuple[int, ...]]) -> None:
        """Keep a sample a shard sent along (an LMO's answer)."""
        self._rows[i] = row

    def subset(self, indices: Sequence[int], name: str = "") -> Dataset:
        """The samples ``indices`` as a Dataset over the whole data's denominator and bias
        (not reduced: the same integers the whole data has)."""
        self.fetch(indices)
        rows = tuple(self._rows[i][0] for i in indices)
        labels = tuple(self._rows[i][1] for i in indices)
        return Dataset(rows, self.denominator, labels, self.bias, name or self.name)

    def binding(self) -> DatasetBinding:
        """The certificate file's data binding (sizes, bias, the digest of the canonical lines,
        streamed here shard by shard in :data:`DIGEST_CHUNK`-sample pieces, a few at a time)."""
        h = hashlib.sha256()
        h.update(f"novikoff-dataset 1\n{self.n_samples} {self.n_features} {self.denominator}\n".encode())
        for piece in self._digest_pieces():
            h.update(piece)
        return DatasetBinding(self.n_samples, self.n_features, Fraction(self.bias), h.hexdigest())

    def _digest_pieces(self) -> Iterator[bytes]:
        calls = [
            (k, a, min(a + DIGEST_CHUNK, n))
            for k, n in enumerate(self.sizes)
            for a in range(0, n, DIGEST_CHUNK)
        ]
        window = 2 * max(1, self.shards.count)  # pieces asked for ahead of the one hashed
        for start in range(0, len(calls), window):
            batch = calls[start : start + window]
            args: list[tuple[Any, ...]] = [() for _ in self.sizes]
            chosen: list[list[tuple[int, int]]] = [[] for _ in self.sizes]
            for k, a, b in batch:
                chosen[k].append((a, b))
            for k in range(len(self.sizes)):
                args[k] = (chosen[k],)
            pieces = self.shards.each(_digest_pieces_of, args)
            for k, a, b in sorted(batch):
                yield pieces[k][chosen[k].index((a, b))]


def _take(block: Block, local: Sequence[int]) -> list[tuple[tuple[int, ...], int, tuple[int, ...]]]:
    return block.take(local) if local else []


def _digest_pieces_of(block: Block, spans: Sequence[tuple[int, int]]) -> list[bytes]:
    return [block.digest_text(a, b) for a, b in spans]


def _stats(block: Block) -> BlockStats:
    return block.stats()


def open_shards(shards: LocalShards | DaskShards, name: str, options: ReadOptions) -> ShardedData:
    """The blocks of shards whose handles are their :class:`~novikoff.data.readers.ShardText`
    (or :class:`ShardFailure`): summaries, the plan, the blocks, their stats."""
    summaries = shards.each(_summary, [()] * shards.count)
    plan = plan_shards(summaries, name, positive=options.positive, bias=options.bias)
    firsts = [0, *np.cumsum([s.samples for s in summaries]).tolist()][:-1]
    shards.replace(_block, [(plan, k, f) for k, f in enumerate(firsts)])
    return ShardedData(shards, plan, _each_same(shards, _stats))


def open_local(data: str, options: ReadOptions) -> ShardedData:
    """DATA's shards read in this process (a directory, a glob or one file)."""
    listed = list_shards(data, options.format)
    if isinstance(listed, ShardFailure):
        raise InputError(listed.message)
    paths, fmt = listed
    texts = [load_text(p, fmt, options) for p in paths]
    return open_shards(LocalShards(texts), data, options)


def open_dask(client: Any, data: str, options: ReadOptions) -> ShardedData:
    """DATA's shards read by the workers of ``client``: the listing too is made by a worker
    (the workers' view of the path is the one that counts)."""
    listed = client.submit(list_shards, data, options.format, pure=False).result()
    if isinstance(listed, ShardFailure):
        raise InputError(listed.message)
    paths, fmt = listed
    shards = DaskShards.start(client, [(load_text, (p, fmt, options)) for p in paths])
    return open_shards(shards, data, options)
