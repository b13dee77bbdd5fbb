"""The atoms of Wolfe's algorithm: finite sets of integer vectors with a linear minimization oracle.

:class:`Atoms` is what :func:`novikoff.certificates.minnorm.min_norm_point` needs of them;
:class:`PatternAtoms` is the rows of an integer matrix (the scaled patterns z_i of a dataset),
with exact products through float64 BLAS when the entries are small enough, else FLINT.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import flint
import numpy as np

from novikoff.exact.bigdot import one_blas_thread, small_times_big

__all__ = ["Atom", "Atoms", "PatternAtoms"]

Atom = Any  # an atom id: any hashable (an index, a pair of indices)


class Atoms(Protocol):
    """A finite set of integer vectors with a linear minimization oracle."""

    def vector(self, atom: Atom) -> Sequence[int]:
        """The integer vector of ``atom``."""
        ...

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        """The integer Gram matrix of the atoms ``ids``."""
        ...

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        """sum_j coeffs_j vector(ids_j), exactly."""
        ...

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        """An atom minimizing ``atom . direction`` and that minimal value."""
        ...


class PatternAtoms:
    """The rows of an integer matrix as atoms (the z_i of a dataset).

    Products go through exact float64 BLAS when the rows are small enough
    (:func:`novikoff.exact.bigdot.small_times_big`, and a Gram matrix whose entries are below
    2^53), else through FLINT (``matrix`` may pass the rows as an fmpz_mat).
    """

    def __init__(
        self,
        rows: Sequence[Sequence[int]],
        matrix: flint.fmpz_mat | None = None,
        array: np.ndarray | None = None,
    ) -> None:
        self.rows = rows
        self._matrix = matrix
        self.array: np.ndarray | None = None
        ints: np.ndarray | None
        if array is not None:  # the rows as int64, already converted (Dataset.pattern_array)
            if array.dtype != np.int64 or array.shape != (len(rows), len(rows[0]) if len(rows) else 0):
                raise ValueError(f"array of dtype {array.dtype} and shape {array.shape} is not the rows")
            ints = array
        else:
            try:
                ints = np.array(rows, dtype=np.int64)
            except OverflowError:
                ints = None
        if ints is not None and ints.ndim == 2 and ints.size:
            peak = int(np.abs(ints).max())
            if peak**2 * ints.shape[1] < 2**53:  # Gram entries and bigdot limbs are exact
                self.array = ints.astype(np.float64)

    @property
    def matrix(self) -> flint.fmpz_mat:
        if self._matrix is None:
            self._matrix = flint.fmpz_mat([list(r) for r in self.rows])
        return self._matrix

    def vector(self, atom: Atom) -> Sequence[int]:
        return self.rows[atom]

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        G = self.gram_array(ids)
        if G is not None:
            return flint.fmpz_mat(G.tolist())
        V = flint.fmpz_mat([list(self.rows[a]) for a in ids])
        return V * V.transpose()

    def gram_array(self, ids: Sequence[Atom]) -> np.ndarray | None:
        """The Gram matrix of ``ids`` as an exact int64 array (one float64 BLAS product, exact
        because every entry and partial sum is an integer below 2^53), or None when the rows
        are too large for that."""
        if self.array is None:
            return None
        A = self.array[list(ids)]
        with one_blas_thread():
            return (A @ A.T).astype(np.int64)

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        merged: dict[Atom, int] = {}
        for a, c in zip(ids, coeffs):  # an atom may come twice (the pairs of the two hulls)
            merged[a] = merged.get(a, 0) + c
        used = [a for a, c in merged.items() if c]
        if not used:
            return [0] * (len(self.rows[0]) if len(self.rows) else 0)
        weights = [merged[a] for a in used]
        if self.array is not None:  # only the rows used: the cost does not grow with the data
            return small_times_big(self.array[used].T, weights)
        rows = flint.fmpz_mat([list(self.rows[a]) for a in used])
        return [int(v) for v in (flint.fmpz_mat(1, len(used), weights) * rows).entries()]

    def scores(self, direction: Sequence[int]) -> list[int]:
        """``row . direction`` for every row, exactly."""
        if self.array is not None:
            return small_times_big(self.array, direction)
        col = flint.fmpz_mat(len(direction), 1, list(direction))
        return [int(v) for v in (self.matrix * col).entries()]

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        s = self.scores(direction)
        best = min(range(len(s)), key=s.__getitem__)
        return best, s[best]
