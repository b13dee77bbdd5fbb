"""Exact readers for CSV and LIBSVM/svmlight files.

Every number is read exactly (decimals as decimals, ``p/q`` as ratios). Any
problem raises :class:`~novikoff.errors.DataFormatError` naming the file, the
1-based line and the 1-based field (column) where it applies.

CSV: one sample per line, comma-, semicolon- or tab-separated (detected from the
first data line unless given), features then the label by default
(``label_column=-1``; 0-based, negative counts from the end). With
``header=None`` the first line is a header iff none of its fields is a number
or empty and none is a spelling of NaN or infinity: ``x1,x2,label`` is a header,
``1,nan,1`` and ``1,,1`` are data lines with a bad field (an error naming it,
never a silently dropped sample). ``True``/``False`` force. Blank lines and
lines starting with ``#`` are skipped.

LIBSVM: ``label index:value ...`` with strictly increasing indices; missing
entries are 0; text after ``#`` is a comment. ``zero_based`` as in scikit-learn's
``load_svmlight_file``: ``False`` (indices start at 1), ``True`` (at 0, what
``dump_svmlight_file`` writes by default) or ``"auto"`` (the default): 0-based iff
some index in the file is 0, else 1-based.

Files must hold at least two samples: a one-line file is almost always a
mistake (a lost header or separator), so it is refused with a clear error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from novikoff.data.dataset import Dataset, map_labels, validate_bias
from novikoff.errors import DataFormatError, InputError
from novikoff.exact.rational import parse_rational, parse_rational_pair
from novikoff.runtime.bounded import check_allocation, memory_budget, read_text

if TYPE_CHECKING:
    from novikoff.data.multiclass import MulticlassData

__all__ = [
    "ShardPlan",
    "ShardSummary",
    "ShardText",
    "check_dense",
    "data_cap",
    "is_sharded",
    "load_dataset",
    "plan_shards",
    "read_csv",
    "read_csv_multiclass",
    "read_libsvm",
    "read_parquet",
    "read_shard",
    "read_sharded",
    "shard_format",
    "shard_paths",
    "shard_samples",
]

MIN_FILE_SAMPLES = 2
_CACHE_LIMIT = 1 << 20  # distinct field texts remembered while reading one file
MAX_FEATURES = 1_000_000  # LIBSVM indices are expanded into dense exact rows


#: Data files larger than this are refused (read to this many bytes plus one, never trusting st_size).
MAX_DATA_BYTES = 1 << 30
#: Estimated peak bytes per cell of a dense dataset in a run (the exact rows, the float twin,
#: the algorithm's working copies; measured about 65 for ``run`` on a 100 x 10^6 LIBSVM file).
DENSE_CELL_BYTES = 64
_STREAM_TEXT: dict[str, str] = {}  # a pipe's text, read once (guess_format reads it first)
_INDEX = re.compile(r"[+-]?[0-9]{1,20}\Z")


def _text(path: str | Path) -> str:
    """The UTF-8 text of a data file, read through :func:`novikoff.runtime.bounded.read_text` (at most
    :data:`MAX_DATA_BYTES`; devices refused); a pipe is read once and remembered."""
    name = str(path)
    if name in _STREAM_TEXT:
        return _STREAM_TEXT[name]
    try:
        text = read_text(name, data_cap())
    except InputError as exc:
        raise DataFormatError(name, None, None, str(exc).removeprefix(f"{name}: ")) from None
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.stat(name).st_mode):
            _STREAM_TEXT.clear()
            _STREAM_TEXT[name] = text
    return text


def data_cap() -> int:
    """The most bytes a data file may have: :data:`MAX_DATA_BYTES`, or an eighth of the memory
    budget if less (the exact rows take several times the text's size)."""
    return min(MAX_DATA_BYTES, memory_budget() // 8)


def check_dense(source: str, rows: int, features: int) -> None:
    """MemoryBudgetExceeded (exit 2) naming ``source`` when a dense dataset of ``rows`` x
    ``features`` would need more than the memory budget (estimated with
    :data:`DENSE_CELL_BYTES`); checked before the dense rows are built."""
    check_allocation(
        rows * max(features, 1) * DENSE_CELL_BYTES,
        f"{source}: the dense form of {rows} samples x {features} features",
    )


def _lines(path: str | Path, text: str | None = None) -> Iterator[tuple[int, str]]:
    if text is None:
        text = _text(path)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def _split(line: str, delimiter: str | None) -> list[str]:
    return line.split(delimiter) if delimiter is not None else line.split()


def _detect_delimiter(line: str) -> str | None:
    for d in (",", ";", "\t"):
        if d in line:
            return d
    return None


def _scale_rows(
    pairs: list[list[tuple[int, int]]],
) -> tuple[list[tuple[int, ...]], int]:
    den = math.lcm(*{d for row in pairs for _, d in row}) if pairs else 1
    return [tuple(n * (den // d) for n, d in row) for row in pairs], den


def _finish(
    source: str,
    pairs: list[list[tuple[int, int]]],
    raw_labels: list[str],
    label_lines: list[int],
    positive: object | None,
    one_vs_rest: bool,
    bias: object,
) -> Dataset:
    if not pairs:
        raise DataFormatError(source, None, None, "empty file: no samples")
    if len(pairs) < MIN_FILE_SAMPLES:
        raise DataFormatError(
            source, label_lines[0], None, "only one sample; a dataset file needs at least two"
        )
    try:
        labels = map_labels(raw_labels, positive, one_vs_rest=one_vs_rest, source=source)
    except InputError as exc:
        raise DataFormatError(source, None, None, str(exc).removeprefix(f"{source}: ")) from None
    nums, den = _scale_rows(pairs)
    return Dataset.from_integer_rows(nums, den, labels, bias=bias, name=source)


def read_csv(
    path: str | Path,
    *,
    header: bool | None = None,
    label_column: int = -1,
    positive: object | None = None,
    one_vs_rest: bool = False,
    bias: object = 1,
    delimiter: str | None = None,
) -> Dataset:
    """Read a CSV file exactly into a :class:`Dataset` (see the module docstring).

    Regular files (every line a sample with the same number of fields, each feature a
    number) take a fast path: each distinct field text is parsed once and the rows are
    built from a table of exact integers over one common denominator. Anything else (a
    header, blank or comment lines, a bad field) is read field by field, which also
    names the place of any error; both give the same dataset (tested).
    """
    text = _text(path)
    with _no_gc():
        fast = _csv_fast(str(path), text, header, label_column, delimiter)
    if fast is not None:
        rows, den, raw_labels = fast
        try:
            labels = map_labels(raw_labels, positive, one_vs_rest=one_vs_rest, source=str(path))
        except InputError as exc:
            raise DataFormatError(str(path), None, None, str(exc).removeprefix(f"{path}: ")) from None
        return Dataset.from_integer_rows(rows, den, labels, bias=bias, name=str(path))
    pairs, raw_labels, label_lines = _csv_rows(path, header, label_column, delimiter, text)
    return _finish(str(path), pairs, raw_labels, label_lines, positive, one_vs_rest, bias)


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a file's rows are built: they are hundreds of
    thousands of new containers without cycles, and the collector's passes over them cost
    more than the parsing (restored on exit, whatever happens)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _csv_fast(
    source: str, text: str, header: bool | None, label_column: int, delimiter: str | None
) -> tuple[list[tuple[int, ...]], int, list[str]] | None:
    """Integer rows over one denominator and the raw labels of a regular CSV text, or None
    when the text needs the field-by-field reader (see :func:`read_csv`)."""
    lines = text.splitlines()
    if len(lines) < MIN_FILE_SAMPLES or header is True:
        return None
    if delimiter is None:
        delimiter = _detect_delimiter(lines[0])
    if delimiter is None or delimiter.isspace() or not delimiter:
        return None
    table = [line.split(delimiter) for line in lines]
    width = len(table[0])
    if width < 2 or not -width <= label_column < width:
        return None
    label_index = label_column % width
    if any(len(fields) != width for fields in table):
        return None  # also blank lines; comment lines fail below
    labels = [fields.pop(label_index) for fields in table]
    if any(not label.strip() or label.lstrip().startswith("#") for label in labels):
        return None
    tokens = set().union(*table)
    if len(tokens) > _CACHE_LIMIT:
        return None
    pairs: dict[str, tuple[int, int]] = {}
    for token in tokens:
        if not token or token.startswith("#"):
            return None
        try:
            pairs[token] = parse_rational_pair(token)
        except InputError:
            return None  # a header or a bad field: the field-by-field reader decides and names it
    den = math.lcm(*{d for _, d in pairs.values()})
    scaled = {t: n * (den // d) for t, (n, d) in pairs.items()}
    g = math.gcd(den, *scaled.values())
    if g > 1:
        den //= g
        scaled = {t: v // g for t, v in scaled.items()}
    lookup = scaled.__getitem__
    return [tuple(map(lookup, fields)) for fields in table], den, [label.strip() for label in labels]


def read_csv_multiclass(
    path: str | Path,
    *,
    header: bool | None = None,
    label_column: int = -1,
    bias: object = 1,
    delimiter: str | None = None,
) -> MulticlassData:
    """Read a CSV file exactly into :class:`~novikoff.data.multiclass.MulticlassData`: the
    label column's distinct texts, sorted, are the classes (at least two)."""
    from novikoff.data.multiclass import MulticlassData

    source = str(path)
    pairs, raw_labels, label_lines = _csv_rows(path, header, label_column, delimiter)
    if len(pairs) < MIN_FILE_SAMPLES:
        raise DataFormatError(source, label_lines[0] if label_lines else None, None, "fewer than two samples")
    classes = sorted(set(raw_labels), key=_class_order)
    if len(classes) < 2:
        raise DataFormatError(source, None, None, f"fewer than two classes (only {classes[0]!r})")
    index = {c: k for k, c in enumerate(classes)}
    nums, den = _scale_rows(pairs)
    width = len(nums[0])
    if width == 0:
        raise DataFormatError(source, label_lines[0], None, "no features")
    return MulticlassData(
        tuple(nums),
        den,
        tuple(index[v] for v in raw_labels),
        tuple(classes),
        validate_bias(bias, source),
        source,
    )


def _class_order(text: str) -> tuple[int, Fraction, str]:
    """Numeric class labels in numeric order (2 before 10), then the others as text."""
    try:
        return 0, parse_rational(text), text
    except InputError:
        return 1, Fraction(0), text


_NOT_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


def _looks_like_header(fields: list[str]) -> bool:
    """True iff every field is non-empty text that is neither a number nor a NaN/infinity spelling."""
    for field in fields:
        if not field or field.lower() in _NOT_FINITE:
            return False
        try:
            parse_rational_pair(field)
        except InputError:
            continue
        return False
    return True


def _label_index(source: str, line: int | None, width: int, label_column: int, unit: str) -> int:
    """The label's index among ``width`` fields (``unit``: what they are called), or a
    DataFormatError naming the place: fewer than two fields, or no such column."""
    if width < 2:
        raise DataFormatError(source, line, None, "a sample needs at least one feature and a label")
    if not -width <= label_column < width:
        raise DataFormatError(
            source, line, None, f"label column {label_column} does not exist ({width} {unit})"
        )
    return label_column % width


def _csv_rows(
    path: str | Path, header: bool | None, label_column: int, delimiter: str | None, text: str | None = None
) -> tuple[list[list[tuple[int, int]]], list[str], list[int]]:
    """The parsed rows (numerator, denominator pairs), raw label texts and line numbers."""
    source = str(path)
    pairs: list[list[tuple[int, int]]] = []
    raw_labels: list[str] = []
    label_lines: list[int] = []
    width: int | None = None
    label_index = 0
    first = True
    seen: dict[str, tuple[int, int]] = {}  # data files repeat values a lot (vec*: 501 distinct)
    for number, line in _lines(path, text):
        if first and delimiter is None:
            delimiter = _detect_delimiter(line)
        fields = [f.strip() for f in _split(line, delimiter)]
        if width is None:
            width = len(fields)
            label_index = _label_index(source, number, width, label_column, "fields")
        elif len(fields) != width:
            raise DataFormatError(
                source, number, None, f"{len(fields)} fields, expected {width} (ragged rows)"
            )
        row: list[tuple[int, int]] = []
        error: DataFormatError | None = None
        for j, field in enumerate(fields):
            if j == label_index:
                continue
            pair = seen.get(field)
            if pair is None:
                try:
                    pair = parse_rational_pair(field)
                except InputError as exc:
                    error = DataFormatError(source, number, j + 1, str(exc))
                    break
                if len(seen) < _CACHE_LIMIT:
                    seen[field] = pair
            row.append(pair)
        if first:
            first = False
            if header is True or (header is None and error is not None and _looks_like_header(fields)):
                continue
        if error is not None:
            raise error
        if not fields[label_index]:
            raise DataFormatError(source, number, label_index + 1, "empty label")
        pairs.append(row)
        raw_labels.append(fields[label_index])
        label_lines.append(number)
    return pairs, raw_labels, label_lines


def read_libsvm(
    path: str | Path,
    *,
    n_features: int | None = None,
    positive: object | None = None,
    one_vs_rest: bool = False,
    bias: object = 1,
    zero_based: bool | str = "auto",
) -> Dataset:
    """Read a LIBSVM/svmlight file exactly (sparse; ``zero_based`` in the module docstring)."""
    source = str(path)
    entries, raw_labels, label_lines, top, zero_seen = _libsvm_entries(path, zero_based)
    # the offset is known once the whole file is read ("auto": 0-based iff some index is 0)
    offset = 0 if zero_based is True or (zero_based == "auto" and zero_seen) else 1
    d = n_features if n_features is not None else top - offset
    if entries and d <= 0:
        raise DataFormatError(source, None, None, "no features in any sample")
    check_dense(source, len(entries), d)
    pairs: list[list[tuple[int, int]]] = []
    for row, number in zip(entries, label_lines):
        dense = [(0, 1)] * d
        for idx, num, den, j in row:
            if idx - offset >= d:  # only with n_features given
                raise DataFormatError(
                    source, number, j, f"feature index {idx} > n_features={n_features} ({_based(offset)})"
                )
            dense[idx - offset] = (num, den)
        pairs.append(dense)
    return _finish(source, pairs, raw_labels, label_lines, positive, one_vs_rest, bias)


def _libsvm_entries(
    path: str | Path, zero_based: bool | str
) -> tuple[list[list[tuple[int, int, int, int]]], list[str], list[int], int, bool]:
    """The samples of a LIBSVM file as ``(index, numerator, denominator, field)`` entries, the
    raw labels, their line numbers, 1 + the largest index (0 without any) and whether some
    index is 0; every error names the file, the line and the field."""
    source = str(path)
    if zero_based not in (True, False, "auto"):
        raise InputError(f"zero_based must be True, False or 'auto', got {zero_based!r}")
    lowest = 1 if zero_based is False else 0
    entries: list[list[tuple[int, int, int, int]]] = []
    raw_labels: list[str] = []
    label_lines: list[int] = []
    top = 0
    zero_seen = False
    for number, line in _lines(path):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        raw_labels.append(body[0])
        label_lines.append(number)
        row: list[tuple[int, int, int, int]] = []
        last = -1
        for j, item in enumerate(body[1:], start=2):
            idx_text, colon, value_text = item.partition(":")
            if not colon:
                shown = item if len(item) <= 40 else item[:37] + "..."
                raise DataFormatError(source, number, j, f"expected index:value, got {shown!a}")
            if not _INDEX.match(idx_text):  # ASCII digits only: no '_', no other scripts
                shown = idx_text if len(idx_text) <= 40 else idx_text[:37] + "..."
                raise DataFormatError(source, number, j, f"bad feature index {shown!a}")
            idx = int(idx_text)
            if idx < lowest:
                based = "1-based (zero_based=False)" if lowest else "0- or 1-based"
                raise DataFormatError(
                    source, number, j, f"feature index {idx} < {lowest} (indices are {based})"
                )
            if idx <= last:
                raise DataFormatError(source, number, j, f"feature index {idx} is not increasing")
            if idx > MAX_FEATURES:
                raise DataFormatError(
                    source, number, j, f"feature index {idx} > {MAX_FEATURES} (the exact dataset is dense)"
                )
            try:
                num, den = parse_rational_pair(value_text)
            except InputError as exc:
                raise DataFormatError(source, number, j, str(exc)) from None
            row.append((idx, num, den, j))
            last = idx
            zero_seen = zero_seen or idx == 0
        top = max(top, last + 1)
        entries.append(row)
    return entries, raw_labels, label_lines, top, zero_seen


def _based(offset: int) -> str:
    return "indices read as 1-based" if offset else "indices read as 0-based"


def load_dataset(
    path: str | Path,
    *,
    format: str | None = None,
    **options: object,
) -> Dataset:
    """Read ``path`` as ``format`` ('csv', 'libsvm' or 'parquet'); guessed from the suffix when None.

    ``.svm``, ``.libsvm``, ``.svmlight`` and ``.txt`` files whose first data line
    looks like ``label i:v`` are LIBSVM; ``.parquet`` files are Parquet (:func:`read_parquet`);
    everything else is CSV.
    """
    fmt = format or guess_format(path)
    if fmt == "csv":
        return read_csv(path, **options)  # type: ignore[arg-type]
    if fmt == "libsvm":
        return read_libsvm(path, **options)  # type: ignore[arg-type]
    if fmt == "parquet":
        return read_parquet(path, **options)  # type: ignore[arg-type]
    raise InputError(f"unknown format {fmt!r}: use 'csv', 'libsvm' or 'parquet'")


def guess_format(path: str | Path) -> str:
    """'libsvm', 'parquet' or 'csv' for ``path``, by suffix, else by the shape of its first data line."""
    suffix = Path(path).suffix.lower()
    if suffix in {".svm", ".libsvm", ".svmlight"}:
        return "libsvm"
    if suffix in {".parquet", ".pq"}:
        return "parquet"
    if suffix == ".csv":
        return "csv"
    for _, line in _lines(path):
        fields = line.split()
        return "libsvm" if len(fields) > 1 and ":" in fields[1] else "csv"
    return "csv"


# ------------------------------------------------------------------------------ shards
#
# DATA may be a directory or a glob of shard files: the samples are those of the shards in
# order (file names sorted), each shard read as a file of its own (a CSV header line per
# shard is allowed, and so are shards with one sample or none). What needs every shard is
# decided once for all (:func:`plan_shards`): the number of features, a LIBSVM file's index
# base, the labels' mapping to {-1, +1} and the common denominator, exactly as for one file
# holding all the samples. :func:`read_shard` runs where the shard is read (a Dask worker,
# with ``novikoff certify --executor``), the plan where the shards' summaries meet.

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


def shard_format(paths: list[Path], fmt: str | None, data: str) -> str:
    """The one format of the shards: ``fmt`` when given, else each file's
    :func:`guess_format`; InputError naming two files of different formats."""
    if fmt is not None:
        return fmt
    seen: dict[str, Path] = {}
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
    fmt: str
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
    fmt: str
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
    fmt: str,
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
        pairs, labels = _parquet_rows(path, label_column)
        rows, den = _reduced_rows(pairs)
        return ShardText(source, fmt, labels, den, rows, len(rows[0]) if rows else None)
    if fmt == "libsvm":
        raw, labels, _, top, zero_seen = _libsvm_entries(path, zero_based)
        den = math.lcm(*{d for row in raw for _, _, d, _ in row})
        entries = [[(i, n * (den // d)) for i, n, d, _ in row] for row in raw]
        g = math.gcd(den, *(n for row in entries for _, n in row))
        if g > 1:
            den //= g
            entries = [[(i, n // g) for i, n in row] for row in entries]
        return ShardText(source, fmt, labels, den, entries=entries, top=top, zero_seen=zero_seen)
    if fmt != "csv":
        raise InputError(f"unknown format {fmt!r}: use 'csv', 'libsvm' or 'parquet'")
    text = _text(path)
    with _no_gc():
        fast = _csv_fast(source, text, header, label_column, None)
    if fast is not None:
        rows, den, labels = fast
    else:
        pairs, labels, _ = _csv_rows(path, header, label_column, None, text)
        rows, den = _reduced_rows(pairs)
    return ShardText(source, fmt, labels, den, rows, len(rows[0]) if rows else None)


def _reduced_rows(pairs: list[list[tuple[int, int]]]) -> tuple[list[tuple[int, ...]], int]:
    """Integer rows over the least common denominator of the pairs."""
    rows, den = _scale_rows(pairs)
    g = math.gcd(den, *(v for row in rows for v in row))
    if g > 1:
        den //= g
        rows = [tuple(v // g for v in row) for row in rows]
    return rows, den


def read_parquet(
    path: str | Path,
    *,
    label_column: int = -1,
    positive: object | None = None,
    one_vs_rest: bool = False,
    bias: object = 1,
) -> Dataset:
    """Read a Parquet file exactly (pyarrow: ``pip install "novikoff[dask]"``): one sample per
    row, the features in the other columns than ``label_column`` (0-based, negative from the
    end), each value exactly (integers, floats as the dyadic rationals they store, decimals,
    booleans as 0/1, text as numbers are written in CSV); a missing or non-finite value is an
    error naming the file, the 1-based row and column."""
    pairs, raw_labels = _parquet_rows(path, label_column)
    lines = list(range(1, len(pairs) + 1))
    return _finish(str(path), pairs, raw_labels, lines, positive, one_vs_rest, bias)


def _parquet_rows(path: str | Path, label_column: int) -> tuple[list[list[tuple[int, int]]], list[str]]:
    """The exact (numerator, denominator) rows and the label texts of a Parquet file."""
    source = str(path)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(f'{source}: reading Parquet needs pyarrow: pip install "novikoff[dask]"') from None
    p = Path(path)
    if not p.is_file():
        raise DataFormatError(
            source, None, None, "is a directory, not a data file" if p.is_dir() else "no such file"
        )
    try:
        table = pq.read_table(p)
    except (OSError, pa.ArrowException) as exc:
        raise DataFormatError(source, None, None, f"not a readable Parquet file ({exc})") from None
    width = table.num_columns
    label_index = _label_index(source, None, width, label_column, "columns")
    columns = [
        _parquet_values(source, table.column(j).to_pylist(), j, table.column_names[j])
        for j in range(width)
        if j != label_index
    ]
    labels = [
        _parquet_label(source, v, i, label_index) for i, v in enumerate(table.column(label_index).to_pylist())
    ]
    return [list(row) for row in zip(*columns)], labels


def _parquet_values(source: str, values: list[object], j: int, name: str) -> list[tuple[int, int]]:
    """One feature column's values as exact (numerator, denominator) pairs."""
    seen: dict[object, tuple[int, int]] = {}
    out = []
    for i, v in enumerate(values):
        key = (type(v), v)
        pair = seen.get(key)
        if pair is None:
            try:
                pair = _exact_pair(v)
            except InputError as exc:
                raise DataFormatError(source, i + 1, j + 1, f"column {name!r}: {exc}") from None
            if len(seen) < _CACHE_LIMIT:
                seen[key] = pair
        out.append(pair)
    return out


def _exact_pair(v: object) -> tuple[int, int]:
    if v is None:
        raise InputError("missing value")
    if isinstance(v, bool):
        return int(v), 1
    if isinstance(v, int):
        return v, 1
    if isinstance(v, str):
        return parse_rational_pair(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise InputError(f"{v!r} is not a finite number")
        return v.as_integer_ratio()
    if isinstance(v, Decimal):
        if not v.is_finite():
            raise InputError(f"{v} is not a finite number")
        q = Fraction(v)
        return q.numerator, q.denominator
    raise InputError(f"not a number: {v!r}")


def _parquet_label(source: str, v: object, i: int, j: int) -> str:
    """A label as the text a CSV file would hold (booleans as 1/0)."""
    if v is None:
        raise DataFormatError(source, i + 1, j + 1, "empty label")
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float) and not math.isfinite(v):
        raise DataFormatError(source, i + 1, j + 1, f"label {v!r} is not a finite number")
    return str(v).strip()


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
    format: str | None = None,
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
