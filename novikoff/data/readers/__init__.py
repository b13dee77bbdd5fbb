"""Exact readers for CSV, LIBSVM/svmlight and Parquet files, and for sharded data.

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

The readers are in :mod:`~novikoff.data.readers.csv_reader`,
:mod:`~novikoff.data.readers.libsvm_reader` and :mod:`~novikoff.data.readers.parquet_reader`,
sharded data (a directory or a glob of shard files) in :mod:`~novikoff.data.readers.shards`,
and what they share (the bounded text, the format's guess) in
:mod:`~novikoff.data.readers.files`; this package re-exports their public names and chooses
the reader (:func:`load_dataset`).
"""

from __future__ import annotations

from pathlib import Path

from novikoff.data.dataset import Dataset
from novikoff.data.readers.csv_reader import read_csv, read_csv_multiclass
from novikoff.data.readers.files import (
    DENSE_CELL_BYTES,
    MAX_DATA_BYTES,
    MIN_FILE_SAMPLES,
    check_dense,
    data_cap,
    guess_format,
)
from novikoff.data.readers.libsvm_reader import MAX_FEATURES, read_libsvm
from novikoff.data.readers.parquet_reader import read_parquet
from novikoff.data.readers.shards import (
    ShardPlan,
    ShardSummary,
    ShardText,
    is_sharded,
    plan_shards,
    read_shard,
    read_sharded,
    shard_format,
    shard_paths,
    shard_samples,
)
from novikoff.errors import InputError
from novikoff.runtime.runs import DataFormat

__all__ = [
    "DENSE_CELL_BYTES",
    "MAX_DATA_BYTES",
    "MAX_FEATURES",
    "MIN_FILE_SAMPLES",
    "ShardPlan",
    "ShardSummary",
    "ShardText",
    "check_dense",
    "data_cap",
    "guess_format",
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


def load_dataset(
    path: str | Path,
    *,
    format: DataFormat | None = None,
    **options: object,
) -> Dataset:
    """Read ``path`` as ``format`` ('csv', 'libsvm' or 'parquet'); guessed from the suffix when None.

    ``.svm``, ``.libsvm``, ``.svmlight`` and ``.txt`` files whose first data line
    looks like ``label i:v`` are LIBSVM; ``.parquet`` files are Parquet (:func:`read_parquet`);
    everything else is CSV.

    Args:
        path: The data file.
        format: ``"csv"``, ``"libsvm"`` or ``"parquet"`` (default: guessed).
        **options: The format's reader options (:func:`read_csv`, :func:`read_libsvm`,
            :func:`read_parquet`): e.g. ``positive``, ``bias``, ``label_column``.

    Returns:
        The exact dataset: every value read as the rational it denotes, never through a float.

    Raises:
        DataFormatError: The file is missing, too large, or malformed (the message names
            the line and column).
        InputError: An unknown ``format`` or option, or labels that are not two classes.

    Examples:
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "data.csv"
        >>> _ = path.write_text("x1,x2,y\\n0.5,1,1\\n2,1,1\\n-1,1,-1\\n-2,-1,-1\\n")
        >>> ds = load_dataset(path)
        >>> ds.n_samples, ds.numerators[0], ds.denominator, ds.labels
        (4, (1, 2), 2, (1, 1, -1, -1))
    """
    fmt = format or guess_format(path)
    if fmt == "csv":
        return read_csv(path, **options)  # type: ignore[arg-type]
    if fmt == "libsvm":
        return read_libsvm(path, **options)  # type: ignore[arg-type]
    if fmt == "parquet":
        return read_parquet(path, **options)  # type: ignore[arg-type]
    raise InputError(f"unknown format {fmt!r}: use 'csv', 'libsvm' or 'parquet'")
