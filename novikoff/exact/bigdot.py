"""Exact products of a small-integer matrix with a vector of big integers, through BLAS.

Certificates carry vectors with thousands of digits (p* on vec400 has 2,561-digit
entries) while the data are small integers. :func:`small_times_big` computes
``A @ v`` exactly by cutting each entry of ``v`` into ``b``-bit limbs
(sign carried by every limb of that entry): ``v_j = sum_l V_jl 2^(b l)`` with
``|V_jl| < 2^b``, so ``(A v)_i = sum_l 2^(b l) (A V)_il``. With
``max |A_ij| * n_cols * 2^b <= 2^53`` every product and partial sum of ``A V``
is an integer below 2^53, so one float64 BLAS product is exact whatever its
summation order; carries are then propagated in int64 and the limbs joined by
``int.from_bytes``. When no limb width fits the bound it falls back to Python
integer arithmetic (same result, slower).
"""

from __future__ import annotations

import contextlib
import operator
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import flint
import numpy as np

__all__ = ["big_dot", "big_scale", "one_blas_thread", "small_times_big"]

_EXACT = 2**53


def small_times_big(A: np.ndarray, v: Sequence[int]) -> list[int]:
    """``A @ v`` exactly as Python ints; ``A`` holds integers (any dtype), ``v`` Python ints."""
    rows, cols = A.shape
    if cols != len(v):
        raise ValueError(f"shape mismatch: {A.shape} @ ({len(v)},)")
    if rows == 0:
        return []
    peak = int(np.abs(A).max()) if A.dtype != object else max(abs(int(a)) for a in A.ravel())
    width = next((b for b in (32, 16, 8) if peak * cols * 2**b <= _EXACT), None)
    if width is None or A.dtype == object or peak == 0:
        return [sum(map(operator.mul, (int(a) for a in row), v)) for row in A]
    Af = np.asarray(A, dtype=np.float64)
    limbs = _limbs(v, width)  # cols x L, float64, |entry| < 2^width
    with one_blas_thread() if rows * cols * limbs.shape[1] >= _THREADS_WORTH else contextlib.nullcontext():
        S = (Af @ limbs).astype(np.int64)  # exact (module docstring)
    return _join(S, width)


_THREADS_WORTH = 1 << 22  # multiply-adds above which limiting BLAS threads pays its ~0.5 ms


def one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """A context with one BLAS thread (when threadpoolctl is installed; else no change).

    On this project's two shared cores, with the geometric margin on the other core,
    OpenBLAS's threads cost several times the CPU time of one thread for the products and
    the inverse of ``novikoff certify`` (a 354 x 354 inverse: 0.1 s against 5 ms), and after
    a threaded call the idle threads spin for ~0.1 s of CPU (a 208 x 61 Gram product of the
    exact large-margin reference cost 70 ms that way). The loaded BLAS libraries are read
    once per process, so entering costs ~30 us; inside another one_blas_thread
    (``novikoff certify`` holds one around its whole work) it costs nothing."""
    if _HELD[0]:
        return contextlib.nullcontext()
    controller = _blas_controller()
    if controller is None:  # pragma: no cover - scikit-learn (the test extra) brings threadpoolctl
        return contextlib.nullcontext()
    return _held(controller.limit(limits=1, user_api="blas"))


def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS libraries (None without threadpoolctl), made
    again only when modules were imported since the last one (a module such as scipy.linalg
    may have brought its own BLAS, which an older view would leave unlimited)."""
    count = len(sys.modules)
    if _CONTROLLER and _CONTROLLER[0] == count:
        return _CONTROLLER[1]
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover
        return None
    controller = ThreadpoolController()
    _CONTROLLER[:] = [len(sys.modules), controller]
    return controller


_CONTROLLER: list[Any] = []  # [len(sys.modules) when made, the controller]


_HELD = [0]  # how many one_blas_thread contexts are open (in this thread of control)


@contextlib.contextmanager
def _held(limits: contextlib.AbstractContextManager[object]) -> Iterator[object]:
    with limits as value:
        _HELD[0] += 1
        try:
            yield value
        finally:
            _HELD[0] -= 1


def _limbs(v: Sequence[int], width: int) -> np.ndarray:
    """Signed base-2^width digits of each v_j (least significant first), as float64 columns."""
    mags = [abs(int(x)) for x in v]
    n_bytes = max(1, (max(mags).bit_length() + 7) // 8)
    n_bytes += (-n_bytes) % (width // 8)  # whole limbs
    raw = b"".join(x.to_bytes(n_bytes, "little") for x in mags)
    dtype = {32: "<u4", 16: "<u2", 8: "u1"}[width]
    digits = np.frombuffer(raw, dtype=dtype).reshape(len(mags), -1).astype(np.float64)
    signs = np.array([-1.0 if int(x) < 0 else 1.0 for x in v])
    return digits * signs[:, None]


def _join(S: np.ndarray, width: int) -> list[int]:
    """sum_l S_il 2^(width l) per row, exactly: carries in int64, then bytes."""
    S = S.copy()
    L = S.shape[1]
    mask = (1 << width) - 1
    for col in range(L - 1):
        carry = S[:, col] >> width  # floor division: the digit left is in [0, 2^width)
        S[:, col] &= mask
        S[:, col + 1] += carry
    top = S[:, L - 1]
    low = S[:, : L - 1].astype({32: "<u4", 16: "<u2", 8: "u1"}[width])
    shift = width * (L - 1)
    return [int.from_bytes(low[i].tobytes(), "little") + (int(top[i]) << shift) for i in range(S.shape[0])]


def big_dot(u: Sequence[int], v: Sequence[int]) -> int:
    """``sum_i u_i v_i`` exactly, for vectors of big integers (thousands of digits): one FLINT
    (GMP) product, 5-20x faster than Python's own multiplication at 2,561 digits."""
    if len(u) != len(v):
        raise ValueError(f"length mismatch: {len(u)} and {len(v)}")
    if not u:
        return 0
    row = flint.fmpz_mat(1, len(u), [int(a) for a in u])
    col = row.transpose() if u is v else flint.fmpz_mat(len(v), 1, [int(b) for b in v])
    return int((row * col)[0, 0])


def big_scale(values: Sequence[int], factor: int) -> list[int]:
    """``[factor * v for v in values]`` exactly, through FLINT (GMP) for big integers."""
    if not values:
        return []
    product = flint.fmpz_mat(1, len(values), [int(a) for a in values]) * flint.fmpz(int(factor))
    return [int(v) for v in product.entries()]
