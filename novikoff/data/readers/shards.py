"""Sharded data: DATA a directory or a glob of shard files, read as one dataset.

The samples are those of the shards in order (file names sorted), each shard read as a file
of its own (a CSV header line per shard is allowed, and so are shards with one sample or
none). What needs every shard is decided once for all (:func:`plan_shards`): the number of
features, a LIBSVM file's index base, the labels' mapping to {-1, +1} and the common
denominator, exactly as for one file holding all the samples. :func:`read_shard` runs where
the shard is read (a Dask worker, with ``novikoff certify --executor``), the plan where the
shards' summaries meet.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from novikoff.data.dataset import Dataset, map_labels, validate_bias
from novikoff.data.readers.csv_reader import csv_fast, csv_rows, no_gc
from novikoff.data.readers.files import MIN_FILE_SAMPLES, check_dense, file_text, guess_format, scale_rows
from novikoff.data.readers.libsvm_reader import libsvm_entries
from novikoff.data.readers.parquet_reader import parquet_rows
from novikoff.errors import InputError
from novikoff.runtime.runs import DataFormat

__all__ = [
    "ShardPlan",
    "ShardSummary",
    "ShardText",
    "is_sharded",
    "plan_shards",
    "read_shard",
    "read_sharded",
    "shard_format",
    "shard_paths",
    "shard_samples",
]

_GLOB = frozenset("*?[")


def is_sharded(data: str) -> bool:
    """True iff DATA names shards: an existing directory, or a glob pattern (``*``, ``?``,
    ``[``) that is not itself an existing file."""
    p = Path(data)
    return p.is_dir() or (bool(_GLOB & set(data)) and not p.is_file())


def shard_paths(data: str) -> list[Path]:
    """The shard files of DATA in order: a directory's regular files (names starting with
    ``.`` or ``_`` left out, as Spark's ``_SUCCESS`` and ``.crc`` files), or the files a glob
    matches, sorted by path. InputError naming DATA when there are none."""
    p = Path(data)
    if p.is_dir():
        found = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith((".", "_")))
        if not found:
            raise InputError(f"{data}: no shard files in this directory")
        return found
    anchor = Path(p.anchor) if p.is_absolute() else Path()
    pattern = str(p.relative_to(anchor)) if p.is_absolute() else data
    found = sorted(f for f in anchor.glob(pattern) if f.is_file())
    if not found:
        raise InputError(f"{data}: no file matches this pattern")
    return found


def shard_format(paths: list[Path], fmt: DataFormat | None, data: str) -> DataFormat:
    """The one format of the shards: ``fmt`` when given, else each file's
    :func:`guess_format`; InputError naming two files of different formats."""
    if fmt is not None:
        return fmt
    seen: dict[DataFormat, Path] = {}
    for path in paths:
        seen.setdefault(guess_format(path), path)
        if len(seen) > 1:
            (a, pa), (b, pb) = seen.items()
            raise InputError(
                f"{data}: mixed formats: {pa} is {a}, {pb} is {b} (give --format to read all as one)"
            )
    return next(iter(seen))


@dataclass
class ShardText:
    """One shard file read exactly, before the choices that need every shard. The samples'
    features are integers over ``den`` (reduced: no factor common to den and every
    numerator): CSV and Parquet ``rows`` (``width`` features each; None without a sample), LIBSVM
    ``entries`` ``(index, numerator)`` per sample with ``top`` = 1 + the largest index and
    ``zero_seen`` whether some index is 0. ``labels`` are the raw label texts."""

    source: str
    fmt: DataFormat
    labels: list[str]
    den: int = 1
    rows: list[tuple[int, ...]] = dataclasses.field(default_factory=list)
    width: int | None = None
    entries: list[list[tuple[int, int]]] = dataclasses.field(default_factory=list)
    top: int = 0
    zero_seen: bool = False

    def summary(self) -> ShardSummary:
        """What :func:`plan_shards` needs of this shard."""
        return ShardSummary(
            self.source,
            self.fmt,
            len(self.labels),
            self.width,
            self.den,
            self.top,
            self.zero_seen,
            tuple(sorted(set(self.labels))),
        )


@dataclass(frozen=True)
class ShardSummary:
    """A shard's sizes, denominator and distinct raw labels (see :class:`ShardText`)."""

    source: str
    fmt: DataFormat
    samples: int
    width: int | None
    den: int
    top: int
    zero_seen: bool
    labels: tuple[str, ...]


@dataclass(frozen=True)
class ShardPlan:
    """The choices that need every shard: ``n_features``, the LIBSVM index ``offset`` (1 for
    1-based indices), the common ``denominator`` of all features, each raw label's value in
    {-1, +1}, the bias and the dataset's ``name`` (DATA)."""

    n_features: int
    offset: int
    denominator: int
    labels: dict[str, int]
    bias: Fraction
    name: str


def read_shard(
    path: str | Path,
    fmt: DataFormat,
    *,
    header: bool | None = None,
    label_column: int = -1,
    zero_based: bool | str = "auto",
) -> ShardText:
    """Read one shard exactly as :func:`read_csv` / :func:`read_libsvm` read a file (the same
    errors, naming the file, line and field), but without mapping the labels, and a shard may
    hold one sample or none (a CSV file with only a header line)."""
    source = str(path)
    if fmt == "parquet":
        pairs, labels = parquet_rows(path, label_column)
        rows, den = _reduced_rows(pairs)
        return ShardText(source, fmt, labels, den, rows, len(rows[0]) if rows else None)
    if fmt == "libsvm":
        raw, labels, _, top, zero_seen = libsvm_entries(path, zero_based)
        den = math.lcm(*{d for row in raw for _, _, d, _ in row})
        entries = [[(i, n * (den // d)) for i, n, d, _ in row] for row in raw]
        g = math.gcd(den, *(n for row in entries for _, n in row))
        if g > 1:
            den //= g
            entries = [[(i, n // g) for i, n in row] for row in entries]
        return ShardText(source, fmt, labels, den, entries=entries, top=top, zero_seen=zero_seen)
    if fmt != "csv":
        raise InputError(f"unknown format {fmt!r}: use 'csv', 'libsvm' or 'parquet'")
    text = file_text(path)
    with no_gc():
        fast = csv_fast(source, text, header, label_column, None)
    if fast is not None:
        rows, den, labels = fast
    else:
        pairs, labels, _ = csv_rows(path, header, label_column, None, text)
        rows, den = _reduced_rows(pairs)
    return ShardText(source, fmt, labels, den, rows, len(rows[0]) if rows else None)


def _reduced_rows(pairs: list[list[tuple[int, int]]]) -> tuple[list[tuple[int, ...]], int]:
    """Integer rows over the least common denominator of the pairs."""
    rows, den = scale_rows(pairs)
    g = math.gcd(den, *(v for row in rows for v in row))
    if g > 1:
        den //= g
        rows = [tuple(v // g for v in row) for row in rows]
    return rows, den


def plan_shards(
    summaries: list[ShardSummary],
    name: str,
    *,
    positive: object | None = None,
    bias: object = 1,
    zero_based: bool | str = "auto",
) -> ShardPlan:
    """The :class:`ShardPlan` of the concatenation of the shards, as reading one file holding
    all their samples would choose it: InputError (naming the shards) for shards with other
    numbers of features, no sample or only one in all, or labels that map to {-1, +1} by no
    rule of :func:`~novikoff.data.dataset.map_labels`."""
    filled = [s for s in summaries if s.samples]
    total = sum(s.samples for s in filled)
    if total < MIN_FILE_SAMPLES:
        what = "no samples" if total == 0 else "only one sample; a dataset needs at least two"
        raise InputError(f"{name}: {what} in its {len(summaries)} shard{'' if len(summaries) == 1 else 's'}")
    if filled[0].fmt != "libsvm":  # dense rows: CSV or Parquet
        first = filled[0]
        for other in filled[1:]:
            if other.width != first.width:
                raise InputError(
                    f"{name}: shard {other.source} has {other.width} features, "
                    f"shard {first.source} has {first.width}"
                )
        assert first.width is not None
        n_features, offset = first.width, 0
    else:
        zero = any(s.zero_seen for s in filled)
        offset = 0 if zero_based is True or (zero_based == "auto" and zero) else 1
        n_features = max(s.top for s in filled) - offset
        if n_features <= 0:
            raise InputError(f"{name}: no features in any sample of its shards")
    distinct = sorted({label for s in filled for label in s.labels})
    mapped = map_labels(distinct, positive, source=name)  # the rule depends on the distinct labels only
    den = math.lcm(*(s.den for s in filled))  # each shard's is reduced, so this one is too
    return ShardPlan(n_features, offset, den, dict(zip(distinct, mapped)), validate_bias(bias, name), name)


def shard_samples(text: ShardText, plan: ShardPlan) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The shard's samples under ``plan``: integer rows over ``plan.denominator`` and labels
    in {-1, +1}."""
    factor = plan.denominator // text.den
    if text.fmt == "libsvm":
        check_dense(text.source, len(text.entries), plan.n_features)
    if text.fmt != "libsvm":
        rows = text.rows if factor == 1 else [tuple(v * factor for v in row) for row in text.rows]
    else:
        rows = []
        for entries in text.entries:
            dense = [0] * plan.n_features
            for index, value in entries:
                dense[index - plan.offset] = value * factor
            rows.append(tuple(dense))
    return tuple(rows), tuple(plan.labels[label] for label in text.labels)


def read_sharded(
    data: str,
    *,
    format: DataFormat | None = None,
    header: bool | None = None,
    label_column: int = -1,
    positive: object | None = None,
    bias: object = 1,
) -> Dataset:
    """DATA (a directory or a glob of shards, :func:`shard_paths`) read here as one dataset:
    the samples of the shards in order, under their :func:`plan_shards` (named DATA)."""
    paths = shard_paths(data)
    fmt = shard_format(paths, format, data)
    texts = [read_shard(p, fmt, header=header, label_column=label_column) for p in paths]
    plan = plan_shards([t.summary() for t in texts], data, positive=positive, bias=bias)
    if fmt == "libsvm":
        check_dense(data, sum(len(t.entries) for t in texts), plan.n_features)
    rows: list[tuple[int, ...]] = []
    labels: list[int] = []
    for text in texts:
        r, y = shard_samples(text, plan)
        rows.extend(r)
        labels.extend(y)
    return Dataset.from_integer_rows(rows, plan.denominator, labels, bias=plan.bias, name=data)
