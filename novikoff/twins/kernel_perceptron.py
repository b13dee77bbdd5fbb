"""The float64 kernel-perceptron twin (dual form): polynomial and RBF kernels.

Same rule as the exact reference (:mod:`novikoff.reference.kernel_perceptron`, which this
module does not import): alpha_i += 1 iff y_i f(x_i) <= 0 with
f(x) = sum_j alpha_j y_j K~(x_j, x), K~ = K + rho^2. The twin keeps g = G alpha in float64 and
adds one Gram column, computed on demand in O(n d), per update (no n x n matrix is stored).

Error bound of the decision values (u = 2^-53, gamma_m = m u / (1 - m u)). Every presented
decision value g^_i is compared with a bound B_i such that |g^_i - (G alpha)_i| <= B_i, where
G is the exact reflected Gram matrix of the float inputs (their exact dyadic values) and, for
RBF, of the float gamma as given:

- entries: |G^_ij - G_ij| <= e_ij with, for ``poly`` (x.x' + c)^p + rho^2 evaluated as a dot
  product, one addition and p - 1 multiplications,
  e_ij = gamma_M ((|x_i|.|x_j| + c)^p + rho^2), M = (d + 3) p + 3
  (each monomial of the expansion passes through at most M roundings, the rounding of c
  included; all terms of the absolute expression are nonnegative); for ``rbf``
  exp(-gamma ||x - x'||^2) + rho^2, with ||x - x'||^2 summed from the differences
  (t^ = t (1 + eta), |eta| <= gamma_{d+4}) and exp within ``EXP_ULPS`` units in the last place
  (an assumption about the platform's exp, the one unproved ingredient),
  e_ij = exp^(-t^)(1 + 2 EXP_ULPS u)(expm1(2 gamma_{d+4} t^) + EXP_ULPS u) + 2 u K~^_ij + 2^-1073
  (the last term covers an exp that underflows);
- sums: g^_i is the float sum of the k columns added so far, so
  |g^_i - (G alpha)_i| <= sum_j alpha_j e_ij + gamma_k sum_j alpha_j |G^_ij|.

The twin uses B_i = 2 (sum_j alpha_j e_ij + gamma_(k+1) sum_j alpha_j |G^_ij|) (the factor 2
covers the rounding of the bound's own float sums while (k + M) u < 1/4). A decision with
|g^_i| <= B_i (or a non-finite value) is *ambiguous*: the float sign might be wrong.

- ``poly``: an ambiguous decision is re-taken exactly (the exact Gram matrix of the float
  inputs, :func:`novikoff.data.kernels.exact_gram`, built on first need), so every decision,
  hence the whole run, equals the exact reference's on the same (float) data;
- ``rbf`` (float-only, its values are transcendental): the float decision is taken and the
  presentation is listed in ``ambiguous``; a run with no ambiguous decision provably made the
  updates of exact arithmetic on the same data (given the exp assumption).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset, sign_labels
from novikoff.data.kernels import ExactGram, KernelSpec, exact_gram, parse_kernel
from novikoff.errors import InputError
from novikoff.runtime.runs import Order, UpdateSequence, check_max_epochs, epoch_order
from novikoff.twins.perceptron import twin_patterns

__all__ = ["EXP_ULPS", "KernelTwinRun", "kernel_perceptron_twin"]

U = 2.0**-53
#: The assumed accuracy of numpy's float64 exp, in units in the last place.
EXP_ULPS = 4.0


def _gamma(m: float) -> float:
    return m * U / (1 - m * U)


@dataclass(frozen=True)
class KernelTwinRun(UpdateSequence):
    """A twin run: the reference's record (``alphas``, ``updates``, ``epochs``, ``converged``)
    plus ``ambiguous``, the (epoch, sample) presentations whose float decision value was
    within its (nonzero) error bound, and ``retaken``, how many of those were decided exactly (poly)."""

    kernel: str
    alphas: tuple[int, ...]
    updates: tuple[tuple[int, int], ...]
    epochs: int
    converged: bool
    ambiguous: tuple[tuple[int, int], ...] = ()
    retaken: int = 0


class _Columns:
    """Float Gram columns G^_:j, their absolute versions and entry error bounds e_:j."""

    def __init__(self, X: np.ndarray, y: np.ndarray, rho: float, spec: KernelSpec) -> None:
        self.X, self.y, self.rho2, self.spec = X, y, rho * rho, spec
        self.absX = np.abs(X)
        d = X.shape[1]
        if spec.kind == "poly":
            self.c = float(spec.c)
            self.theta = _gamma((d + 3) * spec.degree + 3)
        else:
            self.g = float(spec.gamma)
            self.eta = _gamma(d + 4)

    def _power(self, base: np.ndarray) -> np.ndarray:
        out = base.copy()
        for _ in range(self.spec.degree - 1):
            out *= base
        return out

    def column(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(G^_:j, |G^_:j| or a bound of it, e_:j)."""
        X = self.X
        sign = self.y * self.y[j]
        with np.errstate(over="ignore", invalid="ignore"):
            if self.spec.kind == "poly":
                K = self._power(X @ X[j] + self.c) + self.rho2
                A = self._power(self.absX @ self.absX[j] + self.c) + self.rho2
                return sign * K, A, self.theta * A
            diff = X - X[j]
            t = self.g * np.einsum("ij,ij->i", diff, diff)
            E = np.exp(-t)
            K = E + self.rho2
            err = (
                E * (1 + 2 * EXP_ULPS * U) * (np.expm1(2 * self.eta * t) + EXP_ULPS * U)
                + 2 * U * K
                + 2.0**-1073
            )
            return sign * K, K, err


def kernel_perceptron_twin(
    X: Any,
    y: Any | None = None,
    *,
    kernel: str | KernelSpec,
    bias: float = 1.0,
    order: Order = None,
    max_epochs: int = 1000,
) -> KernelTwinRun:
    """Run the float64 dual perceptron; ``X`` may be a :class:`Dataset` (then ``y`` and ``bias``
    come from it, as float64 values). ``kernel``: ``poly:DEGREE[:C]`` or ``rbf:GAMMA`` (text or
    a parsed :class:`KernelSpec`).

    Guarantees: the record's contract is the reference's (``converged`` iff an epoch made no
    update, else ``epochs == max_epochs``); for ``poly`` every decision equals the exact one on
    the float inputs (ambiguous ones re-taken exactly); for ``rbf`` every decision outside
    ``ambiguous`` is the exact sign (see the module docstring for the bound). InputError for
    bad input or kernel text.
    """
    spec = kernel if isinstance(kernel, KernelSpec) else parse_kernel(kernel, allow_rbf=True)
    max_epochs = check_max_epochs(max_epochs)
    if isinstance(X, Dataset):
        Xf, yf = X.to_numpy()
        rho = float(X.bias)
    else:
        if y is None:
            raise InputError("y is required unless X is a Dataset")
        Z = twin_patterns(X, y, 0.0)  # validates X, y and finiteness; z_i = y_i x_i exactly
        yf = sign_labels(y, "y")
        Xf = Z * yf[:, None]  # x_i again (multiplying by +-1 is exact)
        if not np.isfinite(bias) or bias < 0:
            raise InputError(f"bias must be finite and >= 0, got {bias}")
        rho = float(bias)
    Xf = np.ascontiguousarray(Xf, dtype=np.float64)
    m = Xf.shape[0]
    cols = _Columns(Xf, yf, rho, spec)
    presentation = epoch_order(order, m)
    g = np.zeros(m)  # G^ alpha, summed column by column
    err = np.zeros(m)  # sum_j alpha_j e_ij
    size = np.zeros(m)  # sum_j alpha_j |G^_ij|
    alphas = [0] * m
    updates: list[tuple[int, int]] = []
    ambiguous: list[tuple[int, int]] = []
    retaken = 0
    exact: ExactGram | None = None
    converged = False
    epoch = 0
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            value = float(g[i])
            bound = 2.0 * (float(err[i]) + _gamma(len(updates) + 1) * float(size[i]))
            update = value <= 0
            # ambiguous: within the bound (NaN and infinities included); a zero bound is exact
            if not abs(value) > bound and not (bound == 0 and np.isfinite(value)):
                ambiguous.append((epoch, i))
                if spec.exact:
                    if exact is None:
                        exact = exact_gram(Dataset.from_arrays(Xf, yf, bias=Fraction(rho)), spec)
                    row = exact.numerators[i]
                    update = sum(a * row[j] for j, a in enumerate(alphas) if a) <= 0
                    retaken += 1
            if update:
                alphas[i] += 1
                col, absolute, entry_err = cols.column(i)
                g += col
                size += absolute
                err += entry_err
                updates.append((epoch, i))
                clean = False
        if clean:
            converged = True
            break
    return KernelTwinRun(
        kernel=str(spec),
        alphas=tuple(alphas),
        updates=tuple(updates),
        epochs=epoch + 1,
        converged=converged,
        ambiguous=tuple(ambiguous),
        retaken=retaken,
    )
