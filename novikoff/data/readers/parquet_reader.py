"""The exact Parquet reader (pyarrow, the ``dask`` extra): every value exactly, errors naming
the file, the 1-based row and column."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from novikoff.data.dataset import Dataset
from novikoff.data.readers.files import CACHE_LIMIT, finish_dataset, label_position
from novikoff.errors import DataFormatError, InputError
from novikoff.exact.rational import parse_rational_pair

__all__ = ["parquet_rows", "read_parquet"]


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
    pairs, raw_labels = parquet_rows(path, label_column)
    lines = list(range(1, len(pairs) + 1))
    return finish_dataset(str(path), pairs, raw_labels, lines, positive, one_vs_rest, bias)


def parquet_rows(path: str | Path, label_column: int) -> tuple[list[list[tuple[int, int]]], list[str]]:
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
    label_index = label_position(source, None, width, label_column, "columns")
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
            if len(seen) < CACHE_LIMIT:
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
