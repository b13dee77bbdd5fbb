"""Built-in example datasets, addressed on the command line as ``example:NAME``.

- ``exercise-6.1``: the four points of the textbook's exercise 6.1 (bias 1);
- ``textbook-6.6:SEP``: the textbook's section 6.6, two Gaussian clusters of 30 points,
  ``numpy.random.RandomState(42)``, centres (-SEP/2, 0) and (SEP/2, 0), sd 0.5;
  floats converted exactly;
- ``xor``: XOR on the unit square, (0,0)- (0,1)+ (1,0)+ (1,1)- (bias 1): not linearly
  separable, separable in the feature space of the degree-2 polynomial kernel;
- ``textbook-6.9``: the textbook's section 6.9, the non-separable overlapping Gaussians
  (``numpy.random.seed(42)``, 40 points per class, centres (-0.5, 0) and (0.5, 0),
  sd 1; class 0 -> -1, class 1 -> +1): the pocket algorithm's example;
- ``t1:N``, ``t1-rotated:N[:SEED]``: the T1 basis construction (rho = 0), with
  1 <= N <= ``MAX_T1`` (``MAX_T1_ROTATED`` rotated: its exact Cayley transform costs
  far more) and SEED >= 0; larger sizes are refused, never attempted.

The textbook prepends the bias coordinate (x_0 = 1); novikoff appends it. R, gamma
and the perceptron's run do not depend on where the coordinate sits.

``seed-6.6:SEP`` and ``seed-6.9`` are the deprecated names of ``textbook-6.6:SEP`` and
``textbook-6.9`` (:data:`DEPRECATED_NAMES`), still accepted; so are the functions
``seed_6_6``, ``seed_6_6_arrays`` and ``seed_6_9``.
"""

from __future__ import annotations

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.data.tight import basis_dataset, rotated_basis_dataset
from novikoff.errors import InputError

__all__ = [
    "DEPRECATED_NAMES",
    "EXAMPLES",
    "MAX_T1",
    "MAX_T1_ROTATED",
    "exercise_6_1",
    "load_example",
    "seed_6_6",
    "seed_6_6_arrays",
    "seed_6_9",
    "textbook_6_6",
    "textbook_6_6_arrays",
    "textbook_6_9",
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
    """The textbook's exercise 6.1: (1,1)+, (2,2)+, (-1,-1)-, (-2,0)-."""
    return Dataset.from_arrays([[1, 1], [2, 2], [-1, -1], [-2, 0]], [1, 1, -1, -1], name="exercise-6.1")


def xor() -> Dataset:
    """XOR: (0,0)-, (0,1)+, (1,0)+, (1,1)- with bias 1. Not linearly separable (the two
    diagonals' midpoints coincide), separable with the kernel poly:2."""
    return Dataset.from_arrays([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1], name="xor")


def textbook_6_6_arrays(
    separation: float, n_per_class: int = 30, seed: int = 42
) -> tuple[np.ndarray, np.ndarray]:
    """The float data of the textbook's ``run_experiment`` (section 6.6, without the bias column)."""
    rng = np.random.RandomState(seed)
    X0 = rng.randn(n_per_class, 2) * 0.5 + np.array([-separation / 2, 0])
    X1 = rng.randn(n_per_class, 2) * 0.5 + np.array([separation / 2, 0])
    return np.vstack([X0, X1]), np.array([-1] * n_per_class + [1] * n_per_class)


def textbook_6_6(
    separation: float, n_per_class: int = 30, seed: int = 42, name: str = "textbook-6.6"
) -> Dataset:
    """The textbook's section 6.6 dataset for one separation, converted exactly, called
    ``<name>:<separation>``."""
    X, y = textbook_6_6_arrays(separation, n_per_class, seed)
    return Dataset.from_arrays(X, y, name=f"{name}:{separation:g}")


def textbook_6_9(name: str = "textbook-6.9") -> Dataset:
    """The textbook's section 6.9 overlapping Gaussians (numpy's legacy global seed 42, as
    the textbook runs it)."""
    rng = np.random.RandomState(42)  # np.random.seed(42) then np.random.randn: the same stream
    X0 = rng.randn(40, 2) * 1.0 + np.array([-0.5, 0])
    X1 = rng.randn(40, 2) * 1.0 + np.array([0.5, 0])
    return Dataset.from_arrays(np.vstack([X0, X1]), [-1] * 40 + [1] * 40, name=name)


#: Deprecated aliases of the functions (the datasets were named after the source file).
seed_6_6_arrays = textbook_6_6_arrays
seed_6_6 = textbook_6_6
seed_6_9 = textbook_6_9

#: Deprecated example names, still accepted: old -> new (the dataset keeps the name asked for).
DEPRECATED_NAMES: dict[str, str] = {"seed-6.6": "textbook-6.6", "seed-6.9": "textbook-6.9"}


EXAMPLES = {
    "exercise-6.1": "the textbook's exercise 6.1 (4 points, bias 1)",
    "textbook-6.6:SEP": "the textbook's section 6.6 clusters, separation SEP (e.g. 3), 60 points",
    "xor": "XOR on the unit square, 4 points, bias 1: not linearly separable, separable with poly:2",
    "textbook-6.9": "the textbook's section 6.9 overlapping Gaussians, 80 points, not separable (pocket)",
    "t1:N": "T1 basis vectors e_1..e_N, labels +1, no bias",
    "t1-rotated:N[:SEED]": "T1 rotated by a rational Cayley transform",
}


def load_example(name: str) -> Dataset:
    """The built-in dataset called ``name`` (see EXAMPLES); InputError lists them otherwise."""
    head, _, rest = name.partition(":")
    canonical = DEPRECATED_NAMES.get(head, head)
    try:
        if head == "exercise-6.1" and not rest:
            return exercise_6_1()
        if head == "xor" and not rest:
            return xor()
        if canonical == "textbook-6.9" and not rest:
            return textbook_6_9(name=head)
        if canonical == "textbook-6.6" and rest:
            return textbook_6_6(float(rest), name=head)
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
