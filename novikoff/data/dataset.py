"""The exact dataset: rational features, labels in {-1, +1}, a bias coordinate.

Representation (one interface, one choice behind it): all features share one
common denominator ``D``; row ``i`` is stored as Python integers ``X_i = D x_i``.
Python integers are unbounded, so huge values stay exact. The bias trick appends
``rho`` as the LAST coordinate, ``x~_i = (x_i, rho)``, and the reflected
patterns are ``z_i = y_i x~_i`` (the textbook, section 6.3).

Guarantees: a :class:`Dataset` is never empty, has rows of equal length, finite
exact rational entries, labels exactly -1 or +1 and ``rho >= 0``. Constructors
refuse anything else with an :class:`~novikoff.errors.InputError` naming the place.

Inputs people have (:func:`plain_features`): numpy arrays and sequences of rows,
pandas DataFrames (column names kept as :attr:`Dataset.feature_names`, every column
converted exactly), and scipy.sparse matrices and arrays of any format (densified
exactly; the exact dataset is dense). Labels follow ONE rule everywhere
(:func:`map_labels`, :func:`sign_labels`): {-1, +1} kept, {0, 1} (and False/True)
mapped 0 -> -1, 1 -> +1, any other two labels need a named positive label.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from novikoff.errors import InputError
from novikoff.exact.dyadic import dyadic_integers
from novikoff.exact.rational import to_fraction

__all__ = ["Dataset", "exact_rows", "map_labels", "plain_features", "sign_labels", "validate_bias"]

MAX_DENSE_ENTRIES = 50_000_000  # a sparse input larger than this is refused, not densified


def map_labels(
    raw: Sequence[object],
    positive: object | None = None,
    *,
    one_vs_rest: bool = False,
    source: str = "labels",
) -> list[int]:
    """Map raw labels to {-1, +1} by these rules:

    - labels already in {-1, +1} are kept; labels in {0, 1} map 0 -> -1, 1 -> +1;
    - any other two labels need ``positive`` (that label -> +1, the other -> -1);
    - more than two labels are an error unless ``one_vs_rest`` (``positive`` vs all others).

    Labels are compared by exact numeric value when they are numbers (so ``"1.0"``
    equals ``1``) and as text otherwise.
    """
    keys = _label_keys(raw)
    distinct = sorted(set(keys), key=repr)
    if positive is not None:
        pos_key = _label_key(positive)
        if pos_key not in distinct:
            raise InputError(
                f"{source}: positive label {positive!r} does not occur; labels are {_show(distinct)}"
            )
        if len(distinct) > 2 and not one_vs_rest:
            raise InputError(
                f"{source}: {len(distinct)} labels {_show(distinct)} for a binary algorithm; "
                "pass one_vs_rest=True to use the positive label against the rest"
            )
        return [1 if k == pos_key else -1 for k in keys]
    numeric = {k for k in distinct if isinstance(k, Fraction)}
    if len(numeric) == len(distinct):
        if numeric <= {Fraction(-1), Fraction(1)}:
            return [int(k) for k in keys]
        if numeric <= {Fraction(0), Fraction(1)}:
            return [1 if k == 1 else -1 for k in keys]
    if len(distinct) > 2:
        raise InputError(
            f"{source}: {len(distinct)} labels {_show(distinct)} for a binary algorithm; "
            "choose a positive label and one-vs-rest"
        )
    raise InputError(
        f"{source}: labels {_show(distinct)} are not {{-1,+1}} or {{0,1}}; "
        "name the positive label (--positive LABEL)"
    )


def sign_labels(y: Any, name: str = "y") -> np.ndarray:
    """Labels as a float64 array of -1/+1 by the rule of :func:`map_labels` (vectorized for
    numeric arrays): {-1, +1} kept, {0, 1} and booleans mapped 0 -> -1, 1 -> +1; anything
    else is an InputError naming ``name`` (map other labels with ``positive=``)."""
    if _is_pandas(y):
        y = _pandas_labels(y, name)
    ya = np.asarray(y)
    if ya.ndim == 2 and ya.shape[1] == 1:
        ya = ya[:, 0]
    if ya.ndim != 1:
        raise InputError(f"{name}: labels must be one-dimensional, got shape {ya.shape}")
    if ya.dtype.kind == "b":
        return np.where(ya, 1.0, -1.0)
    if ya.dtype.kind in "iuf":
        values = ya.astype(np.float64)
        if np.isin(values, (-1.0, 1.0)).all():
            return values
        if np.isin(values, (0.0, 1.0)).all():
            return np.where(values == 1.0, 1.0, -1.0)
    return np.array(map_labels(ya.tolist(), source=name), dtype=np.float64)


def _is_pandas(obj: object) -> bool:
    """A pandas DataFrame or Series (without importing pandas)."""
    return type(obj).__module__.split(".")[0] == "pandas" and hasattr(obj, "to_numpy")


def _pandas_labels(y: Any, name: str) -> Any:
    """A Series as is; a one-column DataFrame as its column; more columns are an error."""
    if hasattr(y, "columns"):
        if y.shape[1] != 1:
            raise InputError(f"{name}: labels must be one column, got a DataFrame with {y.shape[1]} columns")
        y = y.iloc[:, 0]
    return y.to_numpy(dtype=object) if str(y.dtype) in {"category", "string"} else y.to_numpy()


def plain_features(X: Any, name: str = "X") -> tuple[Any, tuple[str, ...] | None]:
    """``(X', feature_names)``: a pandas DataFrame as a numpy array converted exactly (one
    dtype when its columns share it, else an object array of the exact Python values) with
    its column names; a scipy.sparse matrix or array (any format) as a dense array of its
    own dtype (exact); anything else unchanged with no names."""
    if _is_pandas(X):
        if not hasattr(X, "columns"):
            raise InputError(f"{name}: features must be 2-D (a DataFrame), got a Series")
        names = tuple(str(c) for c in X.columns)
        dtypes = set(X.dtypes)
        if len(dtypes) == 1:
            (dtype,) = dtypes
            if isinstance(dtype, np.dtype) and dtype.kind in "biuf":  # one numpy dtype: as is
                return X.to_numpy(), names
        columns = [  # exact Python values per column; a boolean column is 0/1
            [int(v) for v in X.iloc[:, j].tolist()] if X.dtypes.iloc[j] == np.bool_ else X.iloc[:, j].tolist()
            for j in range(X.shape[1])
        ]
        out = np.empty((X.shape[0], X.shape[1]), dtype=object)
        for j, col in enumerate(columns):
            out[:, j] = col
        return out, names
    if type(X).__module__.startswith("scipy.sparse"):
        import scipy.sparse as sps

        if sps.issparse(X):
            m, d = X.shape
            if m * d > MAX_DENSE_ENTRIES:
                raise InputError(
                    f"{name}: a sparse matrix of shape {m} x {d} is too large to densify for an exact "
                    f"path (limit {MAX_DENSE_ENTRIES} entries); the float PDM/PFM twins take CSR as is"
                )
            return X.toarray(), None
    return X, None


def _label_keys(raw: Sequence[object]) -> list[Fraction | str]:
    """``_label_key`` of each label, computed once per distinct label text (files repeat them)."""
    if all(type(v) is str for v in raw):
        table = {v: _label_key(v) for v in set(raw)}
        return [table[v] for v in raw]
    return [_label_key(v) for v in raw]


def _label_key(value: object) -> Fraction | str:
    if isinstance(value, (np.generic,)):
        value = value.item()
    if isinstance(value, bool):
        return Fraction(int(value))
    try:
        return to_fraction(value)
    except InputError:
        if isinstance(value, float):
            raise InputError(f"label {value!r} is not a finite number") from None
        return str(value).strip()


def _show(keys: Sequence[Fraction | str]) -> str:
    return "{" + ", ".join(str(k) for k in keys[:6]) + (", ..." if len(keys) > 6 else "") + "}"


@dataclass(frozen=True, eq=False)
class Dataset:
    """An exact binary dataset. Build it with a ``from_*`` constructor.

    ``numerators[i][j] / denominator`` is feature ``j`` of sample ``i``.
    """

    numerators: tuple[tuple[int, ...], ...]
    denominator: int
    labels: tuple[int, ...]
    bias: Fraction = Fraction(1)
    name: str = "dataset"
    feature_names: tuple[str, ...] | None = None  # a DataFrame's column names, when known

    def __post_init__(self) -> None:
        if not self.numerators:
            raise InputError(f"{self.name}: no samples")
        if self.denominator <= 0:
            raise InputError(f"{self.name}: denominator must be positive")
        d = len(self.numerators[0])
        for i, row in enumerate(self.numerators):
            if len(row) != d:
                raise InputError(f"{self.name}: row {i} has {len(row)} features, row 0 has {d}")
        if len(self.labels) != len(self.numerators):
            raise InputError(f"{self.name}: {len(self.labels)} labels for {len(self.numerators)} samples")
        for i, y in enumerate(self.labels):
            if y not in (-1, 1):
                raise InputError(f"{self.name}: label {y!r} of sample {i} is not -1 or +1")
        if self.bias < 0:
            raise InputError(f"{self.name}: bias rho must be >= 0, got {self.bias}")
        if self.feature_names is not None and len(self.feature_names) != d:
            raise InputError(f"{self.name}: {len(self.feature_names)} feature names for {d} features")

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_arrays(
        cls,
        X: Any,
        y: Any,
        *,
        bias: object = 1,
        positive: object | None = None,
        one_vs_rest: bool = False,
        name: str = "arrays",
        feature_names: Sequence[str] | None = None,
    ) -> Dataset:
        """From a 2-D array or sequence of rows (ints, Fractions, finite floats, numeric str),
        a pandas DataFrame (its column names become ``feature_names``) or a scipy.sparse
        matrix or array (see :func:`plain_features`); ``y`` a sequence, array or Series.

        float64 values are converted exactly to the dyadic rational they store.
        Labels follow :func:`map_labels`.

        Args:
            X: The features, one row per sample.
            y: The labels: {-1, +1}, {0, 1}, or any two values with ``positive`` naming one.
            bias: The bias coordinate rho appended to every sample (exact, >= 0).
            positive: The label that maps to +1 (required unless the labels are
                {-1, +1} or {0, 1}).
            one_vs_rest: With ``positive``: every other label maps to -1.
            name: The dataset's name in error messages.
            feature_names: The column names (default: a DataFrame's).

        Returns:
            The exact dataset, every feature a rational over one common denominator.

        Raises:
            InputError: A value is not a finite number, the labels are not two classes
                (naming ``positive`` fixes it), or the shapes disagree (the message
                names the row and column).

        Examples:
            >>> ds = Dataset.from_arrays([[0.5, 1], [2, -1]], [1, 0])
            >>> ds.numerators, ds.denominator, ds.labels
            (((1, 2), (4, -2)), 2, (1, -1))
        """
        X, names = plain_features(X, name)
        if feature_names is not None:
            names = tuple(str(v) for v in feature_names)
        labels = _labels_list(y, name)
        fast = _integer_rows_of_array(X, name)
        if fast is not None:  # numeric arrays: vectorized, exact (dyadic scaling)
            nums, den = fast
            if len(labels) != len(nums):
                raise InputError(f"{name}: {len(labels)} labels for {len(nums)} samples")
            mapped = map_labels(labels, positive, one_vs_rest=one_vs_rest, source=name)
            ds = cls.from_integer_rows(nums, den, mapped, bias=bias, name=name)
        else:
            rows = exact_rows(X, name, names)
            if len(labels) != len(rows):
                raise InputError(f"{name}: {len(labels)} labels for {len(rows)} samples")
            mapped = map_labels(labels, positive, one_vs_rest=one_vs_rest, source=name)
            ds = cls.from_fraction_rows(rows, mapped, bias=bias, name=name)
        if names is None:
            return ds
        return cls(ds.numerators, ds.denominator, ds.labels, ds.bias, ds.name, names)

    @classmethod
    def from_fraction_rows(
        cls,
        rows: Sequence[Sequence[Fraction]],
        labels: Sequence[int],
        *,
        bias: object = 1,
        name: str = "dataset",
    ) -> Dataset:
        """From rows of exact Fractions and labels already in {-1, +1}.

        Args:
            rows: One sequence of Fractions per sample, all of one length.
            labels: One label in {-1, +1} per row.
            bias: The bias coordinate rho (exact, >= 0).
            name: The dataset's name in error messages.

        Returns:
            The dataset over the least common denominator of the rows.

        Raises:
            InputError: No rows, rows of different lengths, a label not in {-1, +1}, or a
                negative bias.

        Examples:
            >>> rows = [[Fraction(1, 2), Fraction(1)], [Fraction(-1), Fraction(0)]]
            >>> ds = Dataset.from_fraction_rows(rows, [1, -1])
            >>> ds.numerators, ds.denominator
            (((1, 2), (-2, 0)), 2)
        """
        den = math.lcm(*{v.denominator for row in rows for v in row}) if rows else 1
        nums = tuple(tuple(v.numerator * (den // v.denominator) for v in row) for row in rows)
        return cls._reduced(nums, den, tuple(labels), validate_bias(bias, name), name)

    @classmethod
    def from_integer_rows(
        cls,
        numerators: Sequence[Sequence[int]],
        denominator: int,
        labels: Sequence[int],
        *,
        bias: object = 1,
        name: str = "dataset",
    ) -> Dataset:
        """From integer rows over one common denominator (reduced on the way in).

        Args:
            numerators: One sequence of ints per sample: feature j of sample i is
                ``numerators[i][j] / denominator``.
            denominator: The common denominator (positive).
            labels: One label in {-1, +1} per row.
            bias: The bias coordinate rho (exact, >= 0).
            name: The dataset's name in error messages.

        Returns:
            The dataset, with the fraction reduced by the common gcd.

        Raises:
            InputError: As :meth:`from_fraction_rows`, or a denominator that is not positive.

        Examples:
            >>> Dataset.from_integer_rows([[2, 4], [-2, 0]], 4, [1, -1]).denominator
            2
        """
        nums, distinct = _int_rows(numerators)
        return cls._reduced(nums, int(denominator), tuple(labels), validate_bias(bias, name), name, distinct)

    @classmethod
    def _reduced(
        cls,
        nums: tuple[tuple[int, ...], ...],
        den: int,
        labels: tuple[int, ...],
        bias: Fraction,
        name: str,
        distinct: set[int] | None = None,
    ) -> Dataset:
        if distinct is None:
            distinct = set().union(*nums)
        g = math.gcd(den, *distinct) if den > 0 else 1  # the gcd of all entries: of the distinct ones
        if g > 1:
            nums = tuple(tuple(v // g for v in row) for row in nums)
            den //= g
        return cls(nums, den, labels, bias, name)

    def with_bias(self, rho: object) -> Dataset:
        """The same samples with another bias coordinate ``rho >= 0`` (0: no bias)."""
        return Dataset(
            self.numerators,
            self.denominator,
            self.labels,
            validate_bias(rho, self.name),
            self.name,
            self.feature_names,
        )

    # -------------------------------------------------------------- geometry
    @property
    def n_samples(self) -> int:
        return len(self.numerators)

    @property
    def n_features(self) -> int:
        """Features of the original space (the bias coordinate not counted)."""
        return len(self.numerators[0])

    @property
    def dimension(self) -> int:
        """Length of the patterns z_i: ``n_features + 1`` with a bias, else ``n_features``."""
        return self.n_features + (1 if self.bias != 0 else 0)

    def features(self, i: int) -> list[Fraction]:
        """x_i as exact Fractions."""
        return [Fraction(v, self.denominator) for v in self.numerators[i]]

    @cached_property
    def scaled_patterns(self) -> tuple[tuple[tuple[int, ...], ...], int]:
        """``(Z, s)`` with integer rows ``Z_i = s z_i`` and one scale ``s > 0``.

        ``z_i = y_i (x_i, rho)``; the bias coordinate is last and present iff rho > 0.
        Every exact computation on patterns goes through this pair.
        """
        rho = self.bias
        scale = math.lcm(self.denominator, rho.denominator)
        k = scale // self.denominator
        if k == 1:  # the common case: y_i x_i is the row or its negation (C-level maps)
            tail = () if rho == 0 else (rho.numerator * (scale // rho.denominator),)
            neg_tail = tuple(-v for v in tail)
            Z = tuple(
                row + tail if y == 1 else tuple(map(operator.neg, row)) + neg_tail
                for row, y in zip(self.numerators, self.labels)
            )
            return Z, scale
        if rho == 0:
            Z = tuple(tuple(y * k * v for v in row) for row, y in zip(self.numerators, self.labels))
        else:
            r = rho.numerator * (scale // rho.denominator)
            Z = tuple((*tuple(y * k * v for v in row), y * r) for row, y in zip(self.numerators, self.labels))
        return Z, scale

    @cached_property
    def pattern_array(self) -> np.ndarray | None:
        """The rows of :attr:`scaled_patterns` as one int64 array (m x dimension), or None
        when an entry does not fit int64. Converted once per dataset: the exact solvers and
        R^2 share it instead of converting 400,000 Python integers each."""
        Z, _ = self.scaled_patterns
        try:
            A = np.array(Z, dtype=np.int64)
        except OverflowError:
            return None
        A.setflags(write=False)  # shared: nobody may change it
        return A.reshape(self.n_samples, self.dimension)

    def pattern(self, i: int) -> list[Fraction]:
        """z_i = y_i (x_i, rho) as exact Fractions."""
        Z, s = self.scaled_patterns
        return [Fraction(v, s) for v in Z[i]]

    @cached_property
    def R2(self) -> Fraction:
        """R^2 = max_i ||z_i||^2, exact."""
        Z, s = self.scaled_patterns
        return Fraction(_max_norm2(Z, self.pattern_array), s * s)

    @property
    def classes(self) -> tuple[int, ...]:
        """The labels that occur, sorted (one of (-1,), (1,), (-1, 1))."""
        return tuple(sorted(set(self.labels)))

    # --------------------------------------------------------- float views
    def to_numpy(self) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` as float64 arrays (nearest floats); raises if a value overflows float64."""
        X = np.array(
            [[_float(v, self.denominator, self.name) for v in row] for row in self.numerators],
            dtype=np.float64,
        ).reshape(self.n_samples, self.n_features)
        return X, np.array(self.labels, dtype=np.float64)

    def float_patterns(self) -> np.ndarray:
        """z_i as float64 rows (nearest floats of the exact values)."""
        Z, s = self.scaled_patterns
        return np.array([[_float(v, s, self.name) for v in row] for row in Z], dtype=np.float64).reshape(
            self.n_samples, self.dimension
        )

    def is_float_exact(self) -> bool:
        """True iff every z_i coordinate is exactly a float64."""
        Z, s = self.scaled_patterns
        return all(Fraction(float(Fraction(v, s))) == Fraction(v, s) for row in Z for v in row)

    def __repr__(self) -> str:
        return (
            f"Dataset(name={self.name!r}, n_samples={self.n_samples}, n_features={self.n_features}, "
            f"bias={self.bias}, classes={self.classes})"
        )


def _int_rows(rows: Sequence[Sequence[int]]) -> tuple[tuple[tuple[int, ...], ...], set[int] | None]:
    """``rows`` as tuples of Python ints (exact: ``int()`` of each integer value), and their
    distinct values when they were computed on the way. Rows that are already tuples of
    ints are kept as they are (checked on their distinct values)."""
    if all(type(row) is tuple for row in rows):
        tuples: tuple[tuple[int, ...], ...] = tuple(rows)  # type: ignore[arg-type]
        distinct: set[int] = set().union(*tuples)
        if all(type(v) is int for v in distinct):
            return tuples, distinct
    return tuple(tuple(int(v) for v in row) for row in rows), None


def _max_norm2(Z: Sequence[Sequence[int]], A: np.ndarray | None = None) -> int:
    """max_i ||Z_i||^2 exactly: in int64 when no sum can overflow, else in Python ints
    (``A``: Z as an int64 array, when the caller has it)."""
    if A is None:
        try:
            A = np.array(Z, dtype=np.int64)
        except OverflowError:
            A = None
    if A is not None and A.ndim == 2 and int(np.abs(A).max(initial=0)) ** 2 * A.shape[1] < 2**63:
        return int(np.einsum("ij,ij->i", A, A).max())
    return max(sum(v * v for v in row) for row in Z)


def _float(num: int, den: int, name: str) -> float:
    try:
        value = num / den
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        from novikoff.exact.approx import show

        raise InputError(f"{name}: a value of about {show(Fraction(num, den), 3)} does not fit a float64")
    return value


def validate_bias(rho: object, name: str) -> Fraction:
    """``rho`` as an exact bias coordinate >= 0; InputError naming ``name`` otherwise."""
    try:
        value = to_fraction(rho)
    except InputError as exc:
        raise InputError(f"{name}: bias: {exc}") from None
    if value < 0:
        raise InputError(f"{name}: bias rho must be >= 0, got {value}")
    return value


def _labels_list(y: Any, name: str) -> list[object]:
    if _is_pandas(y):
        y = _pandas_labels(y, name)
    elif type(y).__module__.startswith("scipy.sparse"):
        raise InputError(f"{name}: labels must be a dense sequence, got a sparse {type(y).__name__}")
    if isinstance(y, np.ndarray):
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1:
            raise InputError(f"{name}: labels must be one-dimensional, got shape {y.shape}")
        return list(y.tolist())
    try:
        return list(y)
    except TypeError:
        raise InputError(f"{name}: labels must be a sequence, got {type(y).__name__}") from None


def _integer_rows_of_array(X: Any, name: str) -> tuple[list[list[int]], int] | None:
    """Integer rows and a power-of-two denominator for a non-empty 2-D float (<= 64 bits) or
    integer array, exactly; None for anything else (the general path handles it)."""
    if not isinstance(X, np.ndarray) or X.ndim != 2 or X.size == 0 or X.dtype.itemsize > 8:
        return None
    if X.dtype.kind in "iu":
        return X.tolist(), 1
    if X.dtype.kind != "f":
        return None
    _check_finite(X, name)
    N, k = dyadic_integers(X)
    nums = N.astype(np.int64).tolist() if N.dtype != object else N.tolist()
    return nums, 2**k


def _check_finite(X: np.ndarray, name: str) -> None:
    bad = ~np.isfinite(X)
    if bad.any():
        i, j = (int(t) for t in np.argwhere(bad)[0])
        raise InputError(f"{name}: row {i}, column {j}: {X[i, j]!r} is not a finite number")


def exact_rows(X: Any, name: str, names: Sequence[str] | None = None) -> list[list[Fraction]]:
    """Exact rows of any 2-D input (:func:`plain_features` first); errors name the row and
    the column (its name too when known)."""
    X, found = plain_features(X, name)
    names = names if names is not None else found
    if isinstance(X, np.ndarray):
        if X.dtype.kind == "b":
            X = X.astype(np.int64)
        if X.ndim != 2:
            raise InputError(f"{name}: features must be a 2-D array, got shape {X.shape}")
        if X.dtype.kind == "f":
            _check_finite(X, name)
            if X.dtype != np.float64 and X.dtype.itemsize > 8:
                raise InputError(f"{name}: dtype {X.dtype} is wider than float64; pass exact values")
            X = X.astype(np.float64)
        elif X.dtype.kind not in "iuO":
            raise InputError(f"{name}: unsupported feature dtype {X.dtype}")
        data: Sequence[Any] = X.tolist()
    else:
        try:
            data = [list(r) for r in X]
        except TypeError:
            raise InputError(f"{name}: features must be a sequence of rows") from None
    if not data:
        raise InputError(f"{name}: no samples")
    width = len(data[0])
    rows: list[list[Fraction]] = []
    for i, row in enumerate(data):
        if len(row) != width:
            raise InputError(f"{name}: row {i} has {len(row)} features, row 0 has {width} (ragged rows)")
        out = []
        for j, v in enumerate(row):
            try:
                out.append(to_fraction(v))
            except InputError as exc:
                col = f"column {j}" if names is None or j >= len(names) else f"column {j} ({names[j]!r})"
                raise InputError(f"{name}: row {i}, {col}: {exc}") from None
        rows.append(out)
    return rows
