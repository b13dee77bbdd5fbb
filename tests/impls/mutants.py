"""Broken perceptrons of the kinds people ship, and correct variants, for the mutation
benchmark of ``novikoff diff`` (``benchmarks/bench_mutants.py``, ``tests/fuzz/test_mutants.py``).

Every entry of :data:`MUTANTS` is a module-level function, so ``novikoff diff
tests.impls.mutants:NAME`` runs it from the repository root. Each follows the ``diff``
contract (``fit(X, y, max_epochs=, order=)``, weights with the bias weight last, bias
input 1) and returns what such code typically returns: most return the weights alone
(the hardest case for the tester), a few also the counts their bug is about.

A *broken* one differs from the textbook's perceptron (w_0 = 0, update iff
w.z <= 0, w <- w + z, stop after a clean epoch, at most max_epochs epochs) on some input;
a *correct* one computes the same decisions and a positive multiple of the same weights
on every input where float64 is exact (a learning rate alone only rescales the weights
when w_0 = 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["MUTANTS", "Mutant"]

Fit = Callable[..., Any]


def _patterns(X: np.ndarray, y: np.ndarray, bias: float = 1.0, dtype: Any = np.float64) -> np.ndarray:
    """z_i = y_i (x_i, bias) as rows."""
    Xb = np.hstack([np.asarray(X, dtype=dtype), np.full((X.shape[0], 1), bias, dtype=dtype)])
    return Xb * np.asarray(y, dtype=dtype)[:, None]


def _indices(m: int, order: Sequence[int] | None) -> list[int]:
    return list(range(m)) if order is None else [int(i) for i in order]


def _loop(
    X: np.ndarray,
    y: np.ndarray,
    max_epochs: int,
    order: Sequence[int] | None,
    mistake: Callable[[float, np.ndarray, np.ndarray], bool] = lambda p, w, z: p <= 0,
    *,
    bias: float = 1.0,
    lr: float = 1.0,
    w0: float = 0.0,
    dtype: Any = np.float64,
    update_bias: bool = True,
    epochs: Callable[[int], int] = lambda e: e,
    extra_last: bool = False,
    epoch_order: Callable[[int, list[int]], list[int]] | None = None,
    stop: Callable[[list[int]], bool] | None = None,
) -> dict[str, Any]:
    """The textbook loop with one switch per kind of bug (the defaults are correct)."""
    Z = _patterns(X, y, bias, dtype)
    w = np.full(Z.shape[1], w0, dtype=dtype)
    idx = _indices(Z.shape[0], order)
    mistakes_per_epoch: list[int] = []
    done, converged = 0, False
    for epoch in range(epochs(max_epochs)):
        done += 1
        present = idx if epoch_order is None else epoch_order(epoch, idx)
        if extra_last:
            present = present + present[-1:]
        made = 0
        for i in present:
            if mistake(float(Z[i] @ w), w, Z[i]):
                step = (dtype(lr) * Z[i]).astype(dtype)
                if not update_bias:
                    step[-1] = 0
                w = w + step
                made += 1
        mistakes_per_epoch.append(made)
        if made == 0:
            converged = True
            break
        if stop is not None and stop(mistakes_per_epoch):
            break
    return {"weights": np.asarray(w, dtype=np.float64), "epochs": done, "converged": converged}


def _weights(out: dict[str, Any]) -> np.ndarray:
    return np.asarray(out["weights"])


# ----------------------------------------------------------------------------- broken


def tolerance_1e6(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Updates iff w.z <= 1e-6 ("a small tolerance for rounding")."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p <= 1e-6))


def tolerance_1e9(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Updates iff w.z <= 1e-9."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p <= 1e-9))


def tolerance_1e12(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Updates iff w.z <= 1e-12."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p <= 1e-12))


def relative_tolerance(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Updates iff w.z <= 1e-12 ||w|| ||z|| (a "scale-aware" tolerance)."""
    return _weights(
        _loop(
            X, y, max_epochs, order, lambda p, w, z: p <= 1e-12 * float(np.linalg.norm(w) * np.linalg.norm(z))
        )
    )


def isclose_zero(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Counts a mistake iff w.z < 0 or np.isclose(w.z, 0) (absolute tolerance 1e-8)."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p < 0 or bool(np.isclose(p, 0.0))))


def strict_less(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Updates iff w.z < 0, except at w = 0 (where nothing would ever update)."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p < 0 or not w.any()))


def ties_predict_positive(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Predicts +1 iff w.x~ >= 0 and updates iff the prediction is wrong: a tie is a mistake
    on a negative sample only (z's last coordinate, y times the bias input, says which)."""
    return _weights(_loop(X, y, max_epochs, order, lambda p, w, z: p < 0 or (p == 0 and z[-1] < 0)))


def max_epochs_plus_one(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """``for epoch in range(max_epochs + 1)``: one epoch too many when the data do not separate."""
    return _weights(_loop(X, y, max_epochs, order, epochs=lambda e: e + 1))


def max_epochs_minus_one(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """``for epoch in range(1, max_epochs)``: one epoch too few."""
    return _weights(_loop(X, y, max_epochs, order, epochs=lambda e: e - 1))


def epochs_without_clean_epoch(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """Right weights, but the reported epoch count leaves out the final clean epoch."""
    out = _loop(X, y, max_epochs, order)
    if out["converged"]:
        out["epochs"] -= 1
    return out


def bias_input_two(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """The bias input is 2 instead of 1 (rho scaled), the bias weight returned as learned."""
    return _weights(_loop(X, y, max_epochs, order, bias=2.0))


def bias_not_updated(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """The bias weight is never updated."""
    return _weights(_loop(X, y, max_epochs, order, update_bias=False))


def float32_accumulation(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Weights and dot products in float32."""
    return _weights(_loop(X, y, max_epochs, order, dtype=np.float32))


def shuffled_fixed_seed(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Shuffles every epoch with a fixed seed (reproducible, but not the order asked for)."""
    rng = np.random.default_rng(0)
    return _weights(_loop(X, y, max_epochs, order, epoch_order=lambda e, idx: list(rng.permutation(idx))))


def early_stop_no_improvement(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Stops when an epoch makes no fewer mistakes than the one before (n_iter_no_change = 1)."""
    return _weights(_loop(X, y, max_epochs, order, stop=lambda h: len(h) >= 2 and h[-1] >= h[-2]))


def learning_rate_with_init(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Learning rate 0.1 from w_0 = 0.01 (1, ..., 1): the rate no longer just rescales."""
    return _weights(_loop(X, y, max_epochs, order, lr=0.1, w0=0.01))


def last_sample_twice(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Presents the last sample of every epoch twice (an off-by-one in the inner loop)."""
    return _weights(_loop(X, y, max_epochs, order, extra_last=True))


def stale_margins(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Vectorized wrongly: the epoch's margins are computed once, with the epoch's first weights."""
    Z = _patterns(X, y)
    w = np.zeros(Z.shape[1])
    idx = _indices(Z.shape[0], order)
    for _ in range(max_epochs):
        margins = Z[idx] @ w
        hits = [i for i, p in zip(idx, margins) if p <= 0]
        for i in hits:
            w = w + Z[i]
        if not hits:
            break
    return w


def duplicates_dropped(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Drops repeated samples first (np.unique on the rows, which also sorts them)."""
    idx = _indices(X.shape[0], order)
    rows = np.hstack([X[idx], np.asarray(y, dtype=np.float64)[idx][:, None]])
    unique = np.unique(rows, axis=0)
    return _weights(_loop(unique[:, :-1], unique[:, -1], max_epochs, None))


# ----------------------------------------------------------------------------- correct


def sklearn_perceptron(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    """scikit-learn's Perceptron(shuffle=False, tol=None) through novikoff's adapter."""
    from sklearn.linear_model import Perceptron

    from novikoff.fuzz.harness import sklearn_fit

    return sklearn_fit(Perceptron, shuffle=False, tol=None)(X, y, max_epochs=max_epochs, order=order)


def half_rate(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Learning rate 0.5 from w_0 = 0: every weight halved, every decision the same."""
    return _weights(_loop(X, y, max_epochs, order, lr=0.5))


def integer_arithmetic(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """Exact integer arithmetic: the floats (dyadic rationals) scaled to integers by one power of two."""
    values = [[Fraction(float(v)) for v in row] for row in np.asarray(X)]
    scale = max([v.denominator for row in values for v in row] + [1])
    Z = [[int(v * scale) * int(t) for v in row] + [scale * int(t)] for row, t in zip(values, y)]
    w = [0] * (X.shape[1] + 1)
    idx = _indices(X.shape[0], order)
    for _ in range(max_epochs):
        clean = True
        for i in idx:
            if sum(a * b for a, b in zip(w, Z[i])) <= 0:
                w = [a + b for a, b in zip(w, Z[i])]
                clean = False
        if clean:
            break
    return np.array([float(Fraction(v, scale)) for v in w])


def vectorized_sequential(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Vectorized but sequential: the margins of the rest of the epoch at once, jump to the
    first mistake, update, recompute from the next sample."""
    Z = _patterns(X, y)
    w = np.zeros(Z.shape[1])
    idx = np.asarray(_indices(Z.shape[0], order))
    for _ in range(max_epochs):
        start, clean = 0, True
        while start < idx.size:
            hits = np.flatnonzero(Z[idx[start:]] @ w <= 0)
            if hits.size == 0:
                break
            k = start + int(hits[0])
            w = w + Z[idx[k]]
            clean, start = False, k + 1
        if clean:
            break
    return w


def longdouble(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """The textbook loop in np.longdouble (80-bit or wider on most platforms)."""
    Z = _patterns(X, y, dtype=np.longdouble)
    w = np.zeros(Z.shape[1], dtype=np.longdouble)
    idx = _indices(Z.shape[0], order)
    for _ in range(max_epochs):
        clean = True
        for i in idx:
            if np.dot(Z[i], w) <= 0:
                w = w + Z[i]
                clean = False
        if clean:
            break
    return np.asarray(w, dtype=np.float64)


# ----------------------------------------------------------------------------- averaged, voted


def _run_with_history(
    X: np.ndarray, y: np.ndarray, max_epochs: int, order: Any
) -> tuple[np.ndarray, list[np.ndarray], list[int]]:
    """The perceptron's final weights, every w_j (j = 0..k) and the survival counts c_j."""
    Z = _patterns(X, y)
    w = np.zeros(Z.shape[1])
    vectors, counts = [w], [0]
    idx = _indices(Z.shape[0], order)
    for _ in range(max_epochs):
        clean = True
        for i in idx:
            if Z[i] @ w <= 0:
                w = w + Z[i]
                vectors.append(w)
                counts.append(0)
                clean = False
            counts[-1] += 1
        if clean:
            break
    return w, vectors, counts


def averaged_lazy(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> np.ndarray:
    """The averaged perceptron with the lazy-update trick (w_avg = w - u / N, u = sum of
    s z over the updates at presentation s): no sum over every presentation."""
    Z = _patterns(X, y)
    w = np.zeros(Z.shape[1])
    u = np.zeros(Z.shape[1])
    idx = _indices(Z.shape[0], order)
    s = 0
    for _ in range(max_epochs):
        clean = True
        for i in idx:
            s += 1
            if Z[i] @ w <= 0:
                w = w + Z[i]
                u = u + (s - 1) * Z[i]
                clean = False
        if clean:
            break
    return w - u / s


def averaged_returns_last(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> np.ndarray:
    """Averages, then returns the last weights instead of the average."""
    w, _, _ = _run_with_history(X, y, max_epochs, order)
    return w


def voted(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> dict[str, Any]:
    """The voted perceptron: every w_j with its survival count (``voters``)."""
    w, vectors, counts = _run_with_history(X, y, max_epochs, order)
    return {"weights": w, "voters": list(zip(vectors, counts))}


def voted_count_from_zero(
    X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None
) -> dict[str, Any]:
    """The voted perceptron whose new vector's count starts at 0 (the presentation that
    made it is not counted)."""
    w, vectors, counts = _run_with_history(X, y, max_epochs, order)
    fixed = [c - 1 if j > 0 else c for j, c in enumerate(counts)]
    return {"weights": w, "voters": list(zip(vectors, fixed))}


# ----------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Mutant:
    """One implementation: its function's ``name`` (``tests.impls.mutants:NAME``), the
    ``kind`` of bug (or "correct"), whether it is ``broken``, and the ``algorithm`` diff
    tests it as."""

    name: str
    kind: str
    broken: bool
    algorithm: str = "perceptron"

    @property
    def target(self) -> str:
        """``MODULE:CALLABLE`` for ``novikoff diff``."""
        return f"tests.impls.mutants:{self.name}"

    @property
    def fit(self) -> Fit:
        """The function."""
        fn: Fit = globals()[self.name]
        return fn


MUTANTS: tuple[Mutant, ...] = (
    Mutant("tolerance_1e6", "tolerance: w.z <= 1e-6", True),
    Mutant("tolerance_1e9", "tolerance: w.z <= 1e-9", True),
    Mutant("tolerance_1e12", "tolerance: w.z <= 1e-12", True),
    Mutant("relative_tolerance", "tolerance: w.z <= 1e-12 ||w|| ||z||", True),
    Mutant("isclose_zero", "tolerance: np.isclose(w.z, 0) is a mistake", True),
    Mutant("strict_less", "comparison: < for <=", True),
    Mutant("ties_predict_positive", "ties: a tie predicts +1", True),
    Mutant("max_epochs_plus_one", "epochs: range(max_epochs + 1)", True),
    Mutant("max_epochs_minus_one", "epochs: one epoch too few", True),
    Mutant("epochs_without_clean_epoch", "epochs: the clean epoch not counted", True),
    Mutant("bias_input_two", "bias: input rho * 2", True),
    Mutant("bias_not_updated", "bias: never updated", True),
    Mutant("float32_accumulation", "precision: float32", True),
    Mutant("shuffled_fixed_seed", "order: shuffled with a fixed seed", True),
    Mutant("early_stop_no_improvement", "stopping: no improvement in mistakes", True),
    Mutant("learning_rate_with_init", "init: rate 0.1 from w_0 = 0.01", True),
    Mutant("last_sample_twice", "presentation: last sample twice", True),
    Mutant("stale_margins", "vectorization: margins per epoch", True),
    Mutant("duplicates_dropped", "data: duplicates dropped (np.unique)", True),
    Mutant("averaged_returns_last", "averaging: last weights, not the average", True, "averaged"),
    Mutant("voted_count_from_zero", "voting: a new vector's count from 0", True, "voted"),
    Mutant("sklearn_perceptron", "correct: sklearn Perceptron(shuffle=False, tol=None)", False),
    Mutant("half_rate", "correct: learning rate 0.5 from w_0 = 0", False),
    Mutant("integer_arithmetic", "correct: exact integers", False),
    Mutant("vectorized_sequential", "correct: vectorized, sequential", False),
    Mutant("longdouble", "correct: np.longdouble", False),
    Mutant("averaged_lazy", "correct: averaged, lazy updates", False, "averaged"),
    Mutant("voted", "correct: voted", False, "voted"),
)
