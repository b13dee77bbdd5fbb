"""The exact LIBSVM/svmlight reader (the format and ``zero_based`` in :mod:`novikoff.data.readers`):
sparse entries expanded into dense exact rows, at most :data:`MAX_FEATURES` features."""

from __future__ import annotations

import re
from pathlib import Path

from novikoff.data.dataset import Dataset
from novikoff.data.readers.files import check_dense, data_lines, finish_dataset
from novikoff.errors import DataFormatError, InputError
from novikoff.exact.rational import parse_rational_pair

__all__ = ["MAX_FEATURES", "libsvm_entries", "read_libsvm"]

MAX_FEATURES = 1_000_000  # LIBSVM indices are expanded into dense exact rows
_INDEX = re.compile(r"[+-]?[0-9]{1,20}\Z")


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
    entries, raw_labels, label_lines, top, zero_seen = libsvm_entries(path, zero_based)
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
    return finish_dataset(source, pairs, raw_labels, label_lines, positive, one_vs_rest, bias)


def libsvm_entries(
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
    for number, line in data_lines(path):
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
