"""The exact CSV reader (the format in :mod:`novikoff.data.readers`): a fast path for regular
files, and the field-by-field reader that names the place of any error."""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from novikoff.data.dataset import Dataset, map_labels, validate_bias
from novikoff.data.readers.files import (
    CACHE_LIMIT,
    MIN_FILE_SAMPLES,
    data_lines,
    file_text,
    finish_dataset,
    label_position,
    scale_rows,
)
from novikoff.errors import DataFormatError, InputError
from novikoff.exact.rational import parse_rational, parse_rational_pair

if TYPE_CHECKING:
    from novikoff.data.multiclass import MulticlassData

__all__ = ["csv_fast", "csv_rows", "no_gc", "read_csv", "read_csv_multiclass"]


def _split(line: str, delimiter: str | None) -> list[str]:
    return line.split(delimiter) if delimiter is not None else line.split()


def _detect_delimiter(line: str) -> str | None:
    for d in (",", ";", "\t"):
        if d in line:
            return d
    return None


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
    text = file_text(path)
    with no_gc():
        fast = csv_fast(str(path), text, header, label_column, delimiter)
    if fast is not None:
        rows, den, raw_labels = fast
        try:
            labels = map_labels(raw_labels, positive, one_vs_rest=one_vs_rest, source=str(path))
        except InputError as exc:
            raise DataFormatError(str(path), None, None, str(exc).removeprefix(f"{path}: ")) from None
        return Dataset.from_integer_rows(rows, den, labels, bias=bias, name=str(path))
    pairs, raw_labels, label_lines = csv_rows(path, header, label_column, delimiter, text)
    return finish_dataset(str(path), pairs, raw_labels, label_lines, positive, one_vs_rest, bias)


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
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


def csv_fast(
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
    if len(tokens) > CACHE_LIMIT:
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
    pairs, raw_labels, label_lines = csv_rows(path, header, label_column, delimiter)
    if len(pairs) < MIN_FILE_SAMPLES:
        raise DataFormatError(source, label_lines[0] if label_lines else None, None, "fewer than two samples")
    classes = sorted(set(raw_labels), key=_class_order)
    if len(classes) < 2:
        raise DataFormatError(source, None, None, f"fewer than two classes (only {classes[0]!r})")
    index = {c: k for k, c in enumerate(classes)}
    nums, den = scale_rows(pairs)
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


def csv_rows(
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
    for number, line in data_lines(path, text):
        if first and delimiter is None:
            delimiter = _detect_delimiter(line)
        fields = [f.strip() for f in _split(line, delimiter)]
        if width is None:
            width = len(fields)
            label_index = label_position(source, number, width, label_column, "fields")
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
                if len(seen) < CACHE_LIMIT:
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
