"""Built-in example datasets, addressed on the command line as ``example:NAME``.

- ``exercise-6.1``: the four points of seed 000 exercise 6.1 (bias 1);
- ``seed-6.6:SEP``: seed 000 section 6.6, two Gaussian clusters of 30 points,
  ``numpy.random.RandomState(42)``, centres (-SEP/2, 0) and (SEP/2, 0), sd 0.5;
  floats converted exactly;
- ``xor``: XOR on the unit square, (0,0)- (0,1)+ (1,0)+ (1,1)- (bias 1): not linearly
  separable, separable in the feature space of the degree-2 polynomial kernel;
- ``seed-6.9``: seed 000 section 6.9, the non-separable overlapping Gaussians
  (``numpy.random.seed(42)``, 40 points per class, centres (-0.5, 0) and (0.5, 0),
  sd 1; class 0 -> -1, class 1 -> +1): the pocket algorithm's example;
- ``t1:N``, ``t1-rotated:N[:SEED]``: the T1 basis construction (rho = 0), with
  1 <= N <= ``MAX_T1`` (``MAX_T1_ROTATED`` rotated: its exact Cayley transform costs
  far more) and SEED >= 0; larger sizes are refused, never attempted.

The seed prepends the bias coordinate (x_0 = 1); novikoff appends it. R, gamma
and the perceptron's run do not depend on where the coordinate sits.
"""

from __future__ import annotations

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.data.tight import basis_dataset, rotated_basis_dataset
from novikoff.errors import InputError

__all__ = [
    "EXAMPLES",
    "MAX_T1",
    "MAX_T1_ROTATED",
    "exercise_6_1",
    "load_example",
    "seed_6_6",
    "seed_6_9",
    "xor",
]

MAX_T1 = 2000
MAX_T1_ROTATED = 200


def _size(text: str, what: str, low: int, high: int) -> int:
    """``text`` as an integer in [low, high]; InputError naming ``what`` otherwise."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit():
        raise InputError(f"{what}: expected an integer, got {text[:40]!r}")
    value = int(text) if len(digits) <= 30 else (high + 1 if not text.strip().startswith("-") else low - 1)
    if not low <= value <= high:
        raise InputError(f"{what}: must be between {low} and {high}, got {text[:40]}")
    return value


def exercise_6_1() -> Dataset:
    """Seed 000 exercise 6.1: (1,1)+, (2,2)+, (-1,-1)-, (-2,0)-."""
    return Dataset.from_arrays([[1, 1], [2, 2], [-1, -1], [-2, 0]], [1, 1, -1, -1], name="exercise-6.1")


def xor() -> Dataset:
    """XOR: (0,0)-, (0,1)+, (1,0)+, (1,1)- with bias 1. Not linearly separable (the two
    diagonals' midpoints coincide), separable with the kernel poly:2."""
    return Dataset.from_arrays([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1], name="xor")


def seed_6_6_arrays(
    separation: float, n_per_class: int = 30, seed: int = 42
) -> tuple[np.ndarray, np.ndarray]:
    """The float data of seed 000's ``run_experiment`` (without the bias column)."""
    rng = np.random.RandomState(seed)
    X0 = rng.randn(n_per_class, 2) * 0.5 + np.array([-separation / 2, 0])
    X1 = rng.randn(n_per_class, 2) * 0.5 + np.array([separation / 2, 0])
    return np.vstack([X0, X1]), np.array([-1] * n_per_class + [1] * n_per_class)


def seed_6_6(separation: float, n_per_class: int = 30, seed: int = 42) -> Dataset:
    """Seed 000 section 6.6 dataset for one separation, converted exactly."""
    X, y = seed_6_6_arrays(separation, n_per_class, seed)
    return Dataset.from_arrays(X, y, name=f"seed-6.6:{separation:g}")


def seed_6_9() -> Dataset:
    """Seed 000 section 6.9's overlapping Gaussians (legacy global seed 42, as the seed runs it)."""
    rng = np.random.RandomState(42)  # np.random.seed(42) then np.random.randn: the same stream
    X0 = rng.randn(40, 2) * 1.0 + np.array([-0.5, 0])
    X1 = rng.randn(40, 2) * 1.0 + np.array([0.5, 0])
    return Dataset.from_arrays(np.vstack([X0, X1]), [-1] * 40 + [1] * 40, name="seed-6.9")


EXAMPLES = {
    "exercise-6.1": "seed 000 exercise 6.1 (4 points, bias 1)",
    "seed-6.6:SEP": "seed 000 section 6.6 clusters, separation SEP (e.g. 3), 60 points",
    "xor": "XOR on the unit square, 4 points, bias 1: not linearly separable, separable with poly:2",
    "seed-6.9": "seed 000 section 6.9 overlapping Gaussians, 80 points, not separable (pocket)",
    "t1:N": "T1 basis vectors e_1..e_N, labels +1, no bias",
    "t1-rotated:N[:SEED]": "T1 rotated by a rational Cayley transform",
}


def load_example(name: str) -> Dataset:
    """The built-in dataset called ``name`` (see EXAMPLES); InputError lists them otherwise."""
    head, _, rest = name.partition(":")
    try:
        if head == "exercise-6.1" and not rest:
            return exercise_6_1()
        if head == "xor" and not rest:
            return xor()
        if head == "seed-6.9" and not rest:
            return seed_6_9()
        if head == "seed-6.6" and rest:
            return seed_6_6(float(rest))
        if head == "t1" and rest:
            return basis_dataset(_size(rest, f"example {name!r}: N", 1, MAX_T1))
        if head == "t1-rotated" and rest:
            size, _, seed = rest.partition(":")
            n = _size(size, f"example {name!r}: N", 1, MAX_T1_ROTATED)
            return rotated_basis_dataset(n, seed=_size(seed or "0", f"example {name!r}: SEED", 0, 2**63 - 1))
    except InputError:
        raise
    except ValueError as exc:
        raise InputError(f"example {name!r}: {exc}") from None
    raise InputError(f"unknown example {name!r}; built-in examples: {', '.join(EXAMPLES)}")
