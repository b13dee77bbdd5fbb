"""A data file as the readers see it: its text (bounded), its lines, its format, and the rows' common finish.

Every reader of :mod:`novikoff.data.readers` reads through :func:`file_text` (at most
:func:`data_cap` bytes, devices refused, a pipe read once) and ends as :func:`finish_dataset` does:
at least :data:`MIN_FILE_SAMPLES` samples, the labels mapped to {-1, +1}, the rows over one
common denominator.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from novikoff.data.dataset import Dataset, map_labels
from novikoff.errors import DataFormatError, InputError
from novikoff.runtime.bounded import check_allocation, memory_budget, read_text
from novikoff.runtime.runs import DataFormat

__all__ = [
    "CACHE_LIMIT",
    "DENSE_CELL_BYTES",
    "MAX_DATA_BYTES",
    "MIN_FILE_SAMPLES",
    "check_dense",
    "data_cap",
    "data_lines",
    "file_text",
    "finish_dataset",
    "guess_format",
    "label_position",
    "scale_rows",
]

MIN_FILE_SAMPLES = 2
CACHE_LIMIT = 1 << 20  # distinct field texts remembered while reading one file
#: Data files larger than this are refused (read to this many bytes plus one, never trusting st_size).
MAX_DATA_BYTES = 1 << 30
#: Estimated peak bytes per cell of a dense dataset in a run (the exact rows, the float twin,
#: the algorithm's working copies; measured about 65 for ``run`` on a 100 x 10^6 LIBSVM file).
DENSE_CELL_BYTES = 64
_STREAM_TEXT: dict[str, str] = {}  # a pipe's text, read once (guess_format reads it first)


def file_text(path: str | Path) -> str:
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


def data_lines(path: str | Path, text: str | None = None) -> Iterator[tuple[int, str]]:
    """(1-based line number, stripped line) for each line of the file (or of ``text``, already
    read) that is neither blank nor a comment (``#`` first)."""
    if text is None:
        text = file_text(path)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def scale_rows(
    pairs: list[list[tuple[int, int]]],
) -> tuple[list[tuple[int, ...]], int]:
    """Rows of (numerator, denominator) pairs as integer rows over their least common
    denominator, and that denominator (1 without rows)."""
    den = math.lcm(*{d for row in pairs for _, d in row}) if pairs else 1
    return [tuple(n * (den // d) for n, d in row) for row in pairs], den


def finish_dataset(
    source: str,
    pairs: list[list[tuple[int, int]]],
    raw_labels: list[str],
    label_lines: list[int],
    positive: object | None,
    one_vs_rest: bool,
    bias: object,
) -> Dataset:
    """The dataset of a whole file's rows: DataFormatError naming ``source`` for no sample or only
    one (at least :data:`MIN_FILE_SAMPLES`) or labels that map to {-1, +1} by no rule of
    :func:`~novikoff.data.dataset.map_labels`; the rows over their common denominator."""
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
    nums, den = scale_rows(pairs)
    return Dataset.from_integer_rows(nums, den, labels, bias=bias, name=source)


def label_position(source: str, line: int | None, width: int, label_column: int, unit: str) -> int:
    """The label's index among ``width`` fields (``unit``: what they are called), or a
    DataFormatError naming the place: fewer than two fields, or no such column."""
    if width < 2:
        raise DataFormatError(source, line, None, "a sample needs at least one feature and a label")
    if not -width <= label_column < width:
        raise DataFormatError(
            source, line, None, f"label column {label_column} does not exist ({width} {unit})"
        )
    return label_column % width


def guess_format(path: str | Path) -> DataFormat:
    """'libsvm', 'parquet' or 'csv' for ``path``, by suffix, else by the shape of its first data line."""
    suffix = Path(path).suffix.lower()
    if suffix in {".svm", ".libsvm", ".svmlight"}:
        return "libsvm"
    if suffix in {".parquet", ".pq"}:
        return "parquet"
    if suffix == ".csv":
        return "csv"
    for _, line in data_lines(path):
        fields = line.split()
        return "libsvm" if len(fields) > 1 and ":" in fields[1] else "csv"
    return "csv"
