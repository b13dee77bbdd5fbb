"""Kernels of the kernel perceptron: the spec text and the exact Gram matrix.

A kernel is named on the command line as

- ``poly:DEGREE[:C]``: K(x, x') = (x.x' + c)^p with integer p = DEGREE in [1, MAX_DEGREE]
  and rational c = C >= 0 (default 1: every monomial of degree <= p); exact over the rationals;
- ``rbf:GAMMA``: K(x, x') = exp(-gamma ||x - x'||^2) with rational gamma > 0; its values are
  transcendental, so it exists only for the float twin (:func:`parse_kernel` refuses it unless
  ``allow_rbf=True``, and :func:`exact_gram` always does).

The bias trick in feature space: K~(x, x') = K(x, x') + rho^2, with rho the dataset's bias
(the feature map gains a constant coordinate rho). The reflected Gram matrix is
G_ij = y_i y_j K~(x_i, x_j), the Gram matrix of the feature-space patterns z_i = y_i phi~(x_i),
and R^2 = max_i K~(x_i, x_i).

Guarantees: :func:`parse_kernel` returns a valid :class:`KernelSpec` or raises
:class:`~novikoff.errors.InputError` naming the text; :func:`exact_gram` is exact (Python
integers over one common denominator; no float anywhere).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import flint

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational, parse_rational

__all__ = ["MAX_DEGREE", "ExactGram", "KernelSpec", "exact_gram", "parse_kernel"]

#: Polynomial degrees above this are refused: the exact entries grow like (x.x')^p.
MAX_DEGREE = 64


@dataclass(frozen=True)
class KernelSpec:
    """A parsed kernel: ``kind`` is ``"poly"`` (``degree``, ``c``) or ``"rbf"`` (``gamma``)."""

    kind: str
    degree: int = 1
    c: Fraction = Fraction(1)
    gamma: Fraction = Fraction(0)

    @property
    def exact(self) -> bool:
        """True iff the kernel's values are rational on rational data (the polynomial kernel)."""
        return self.kind == "poly"

    def __str__(self) -> str:
        if self.kind == "poly":
            return f"poly:{self.degree}:{format_rational(self.c)}"
        return f"rbf:{format_rational(self.gamma)}"


def parse_kernel(text: str, *, allow_rbf: bool = False) -> KernelSpec:
    """``poly:DEGREE[:C]`` (C defaults to 1) or, with ``allow_rbf``, ``rbf:GAMMA``.

    Numbers are read exactly (``0.5``, ``1/3``). Raises InputError naming ``text`` for an
    unknown kind, a degree that is not an integer in [1, MAX_DEGREE], C < 0, gamma <= 0, or
    ``rbf`` without ``allow_rbf`` (the RBF kernel is float-only).
    """
    shown = repr(text[:60])
    head, _, rest = text.strip().partition(":")
    parts = rest.split(":") if rest else []
    if head == "poly":
        if not 1 <= len(parts) <= 2:
            raise InputError(f"kernel {shown}: expected poly:DEGREE[:C]")
        degree_text = parts[0].strip()
        if not degree_text.isdigit() or len(degree_text) > 6:
            raise InputError(f"kernel {shown}: DEGREE must be an integer in [1, {MAX_DEGREE}]")
        degree = int(degree_text)
        if not 1 <= degree <= MAX_DEGREE:
            raise InputError(f"kernel {shown}: DEGREE must be an integer in [1, {MAX_DEGREE}], got {degree}")
        c = Fraction(1)
        if len(parts) == 2:
            c = _number(parts[1], f"kernel {shown}: C")
            if c < 0:
                raise InputError(f"kernel {shown}: C must be >= 0, got {format_rational(c)}")
        return KernelSpec("poly", degree=degree, c=c)
    if head == "rbf":
        if len(parts) != 1:
            raise InputError(f"kernel {shown}: expected rbf:GAMMA")
        if not allow_rbf:
            raise InputError(
                f"kernel {shown}: the RBF kernel is float-only (exp is not rational); "
                "exact work takes poly:DEGREE[:C]"
            )
        gamma = _number(parts[0], f"kernel {shown}: GAMMA")
        if gamma <= 0:
            raise InputError(f"kernel {shown}: GAMMA must be > 0, got {format_rational(gamma)}")
        return KernelSpec("rbf", gamma=gamma)
    raise InputError(f"kernel {shown}: expected poly:DEGREE[:C] or rbf:GAMMA")


def _number(text: str, where: str) -> Fraction:
    try:
        return parse_rational(text)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


@dataclass(frozen=True)
class ExactGram:
    """The reflected Gram matrix G_ij = y_i y_j K~(x_i, x_j) = ``numerators[i][j] / denominator``.

    ``numerators`` is a symmetric integer matrix and ``denominator > 0``. Scaling by the one
    positive denominator changes no sign, so decisions may be taken on the numerators.
    """

    kernel: KernelSpec
    numerators: tuple[tuple[int, ...], ...]
    denominator: int

    @property
    def n(self) -> int:
        return len(self.numerators)

    def entry(self, i: int, j: int) -> Fraction:
        """G_ij exactly."""
        return Fraction(self.numerators[i][j], self.denominator)

    @cached_property
    def R2(self) -> Fraction:
        """R^2 = max_i K~(x_i, x_i) = max_i G_ii (y_i^2 = 1)."""
        return Fraction(max(self.numerators[i][i] for i in range(self.n)), self.denominator)

    def quadratic(self, weights: tuple[int, ...] | list[int]) -> int:
        """a^T N a for integer weights a (N the numerators): exact."""
        return sum(
            a * sum(b * g for b, g in zip(weights, row) if b) for a, row in zip(weights, self.numerators) if a
        )

    def times(self, weights: tuple[int, ...] | list[int]) -> list[int]:
        """N a for integer weights a: exact, one entry per sample."""
        support = [(j, a) for j, a in enumerate(weights) if a]
        return [sum(a * row[j] for j, a in support) for row in self.numerators]


def exact_gram(dataset: Dataset, kernel: KernelSpec) -> ExactGram:
    """The exact reflected Gram matrix of ``dataset`` under ``kernel`` with K~ = K + rho^2.

    With x_i = X_i / D (integer rows), c = a/b and rho = r/t:
    K~_ij = (b X_i.X_j + a D^2)^p / (b D^2)^p + r^2/t^2, put over L = lcm((b D^2)^p, t^2).
    InputError (naming the kernel) for a float-only kernel.
    """
    if not kernel.exact:
        raise InputError(f"kernel {kernel}: the RBF kernel is float-only; the exact Gram matrix needs poly")
    D = dataset.denominator
    a, b = kernel.c.numerator, kernel.c.denominator
    p = kernel.degree
    rho = dataset.bias
    r, t = rho.numerator, rho.denominator
    Q = (b * D * D) ** p
    L = Q * t * t // math.gcd(Q, t * t)
    kq, kr = L // Q, (L // (t * t)) * r * r
    shift = a * D * D
    M = flint.fmpz_mat([list(row) for row in dataset.numerators])
    P = M * M.transpose()
    y = dataset.labels
    n = dataset.n_samples
    rows: list[list[int]] = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            value = (b * int(P[i, j]) + shift) ** p * kq + kr
            if y[i] != y[j]:
                value = -value
            rows[i][j] = rows[j][i] = value
    g = math.gcd(L, *(v for row in rows for v in row))
    if g > 1:
        rows = [[v // g for v in row] for row in rows]
        L //= g
    return ExactGram(kernel, tuple(tuple(row) for row in rows), L)
