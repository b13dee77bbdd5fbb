"""The float twin against scikit-learn's Perceptron(shuffle=False, tol=None) with the same epochs.

Data: 20,000 x 50 separable integer features (|x| <= 8, a planted direction with
margin), so float64 arithmetic is exact for both and the runs must agree
weight for weight. sklearn never stops on a clean epoch, so it is given exactly
the twin's epoch count (which includes the final clean epoch).
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import timed


def separable_ints(m: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d).astype(float)
    X = rng.integers(-8, 9, size=(4 * m, d)).astype(float)
    s = X @ w + 0.5
    keep = np.abs(s) >= 4  # a margin
    X, s = X[keep][:m], s[keep][:m]
    return X, np.where(s > 0, 1.0, -1.0)


def main(m: int = 20_000, d: int = 50) -> list[tuple[str, str, str]]:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    from novikoff.twins import perceptron_twin

    X, y = separable_ints(m, d)
    t_twin, run = timed(lambda: perceptron_twin(X, y, max_epochs=10_000), repeat=3)
    assert run.converged

    def sk() -> Perceptron:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return Perceptron(shuffle=False, tol=None, max_iter=run.epochs, eta0=1.0).fit(X, y)

    t_sk, model = timed(sk, repeat=3)
    sk_w = np.append(model.coef_.ravel(), model.intercept_)
    same = bool(np.array_equal(sk_w, run.weights))
    return [
        (
            f"twin {m}x{d}: {run.mistakes} updates, {run.epochs} epochs",
            f"{t_twin:.3f} s",
            f"sklearn Perceptron {t_sk:.3f} s: ratio sklearn/twin {t_sk / t_twin:.2f}; "
            f"identical weights: {same}",
        )
    ]


if __name__ == "__main__":
    for row in main():
        print(" | ".join(row))
