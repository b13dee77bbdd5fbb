"""The run contract shared by reference solvers, twins and user implementations.

A :class:`RunRecord` is what every perceptron-family run returns: final weights
(bias coordinate last), the ordered updates as ``(epoch, sample index)`` pairs
(epochs count from 0), the number of mistakes (= updates), the epochs run
(including the final clean epoch when converged) and ``converged``.

Orders (:func:`epoch_order`) are input handling, shared on purpose so that the
reference and a twin see the same presentation sequence; no decision is made here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, TypeAlias

import numpy as np

from novikoff.errors import InputError

__all__ = [
    "DataFormat",
    "Order",
    "ReferenceEngine",
    "RunRecord",
    "TwinEngine",
    "UpdateSequence",
    "check_max_epochs",
    "epoch_order",
    "parse_order",
]

Order = None | str | Sequence[int] | Sequence[Sequence[int]]
"""A presentation order (:func:`epoch_order`): None or ``"natural"``, ``"shuffle:SEED"``,
one permutation of 0..m-1, or a list of permutations (one per epoch, cycled)."""

ReferenceEngine: TypeAlias = Literal["integer", "plain"]
"""How an exact large-margin reference (:mod:`novikoff.reference.large_margin`) computes its
decisions: ``"integer"`` keeps every decision value and updates it by exact integer deltas
(:mod:`novikoff.reference.large_margin_integer`), ``"plain"`` recomputes each from the
weights. Both make the same run; only the time differs."""

TwinEngine: TypeAlias = Literal["auto", "numpy", "compiled"]
"""Which scan a float64 twin runs: ``"numpy"`` (vectorized), ``"compiled"`` (the numba
kernel, ``pip install novikoff[fast]``) or ``"auto"`` (compiled when numba is installed and
the problem suits it). None changes the run. The exact references' engines are another
vocabulary, :data:`ReferenceEngine`."""

DataFormat: TypeAlias = Literal["csv", "libsvm", "parquet"]
"""A data file's format (:func:`novikoff.data.readers.load_dataset`): CSV, LIBSVM/svmlight
or Parquet."""


class UpdateSequence:
    """What every run record derives from its ``updates`` ((epoch, index) pairs): the
    mistake count and the updated indices. A mixin without fields, for dataclasses that
    declare ``updates``."""

    updates: Sequence[tuple[int, int]]

    @property
    def mistakes(self) -> int:
        """Number of updates (every mistake updates)."""
        return len(self.updates)

    @property
    def update_indices(self) -> list[int]:
        """Sample indices in update order."""
        return [i for _, i in self.updates]


@dataclass
class RunRecord(UpdateSequence):
    """One run. ``weights`` are exact Fractions for exact solvers, floats for float twins."""

    weights: tuple[Fraction, ...] | np.ndarray
    updates: list[tuple[int, int]]
    epochs: int
    converged: bool
    invariants_checked: int = 0
    norm2_history: list[Fraction] = field(default_factory=list)
    algorithm: str = "perceptron"
    arithmetic: tuple[str, ...] = ()  # exact fast path: the integer tiers used, in order


def check_max_epochs(max_epochs: object) -> int:
    """``max_epochs`` as an int; InputError unless it is a positive integer (Python or numpy, not bool)."""
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, (int, np.integer)) or max_epochs < 1:
        raise InputError(f"max_epochs must be a positive integer, got {max_epochs!r}")
    return int(max_epochs)


def parse_order(text: str) -> Order:
    """CLI form: ``natural`` or ``shuffle:SEED``."""
    if text == "natural":
        return None
    head, colon, seed = text.partition(":")
    if head == "shuffle" and colon:
        try:
            return f"shuffle:{int(seed)}"
        except ValueError:
            pass
    raise InputError(f"--order: expected 'natural' or 'shuffle:SEED' (integer seed), got {text!r}")


def _is_index(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def epoch_order(order: Order, m: int) -> Callable[[int], Sequence[int]]:
    """The presentation order for each epoch.

    - ``None`` or ``"natural"``: 0..m-1 every epoch;
    - ``"shuffle:SEED"``: epoch e uses ``numpy.random.default_rng([SEED, e]).permutation(m)``;
    - one permutation of 0..m-1: used every epoch;
    - a list of permutations: epoch e uses ``orders[e % len(orders)]``.

    Raises InputError for anything that is not a permutation of 0..m-1.
    """
    if order is None or order == "natural":
        natural = range(m)
        return lambda e: natural
    if isinstance(order, str):
        head, _, seed_text = order.partition(":")
        if head != "shuffle":
            raise InputError(f"order: unknown order {order!r} (natural, shuffle:SEED or permutations)")
        try:
            seed = int(seed_text)
        except ValueError:
            raise InputError(f"order: bad shuffle seed in {order!r}") from None
        if seed < 0:
            raise InputError(f"order: shuffle seed must be >= 0, got {seed}")
        return lambda e: np.random.default_rng([seed, e]).permutation(m).tolist()
    bad = InputError(
        "order: expected natural, shuffle:SEED, a permutation of the sample indices "
        "or a list of such permutations"
    )
    try:
        seq: list[Any] = list(order)
        if not seq:
            raise InputError("order: empty")
        nested = seq if not all(_is_index(v) for v in seq) else [seq]
        perms = [[int(v) for v in p] for p in nested if all(_is_index(v) for v in p)]
    except TypeError:
        raise bad from None
    if len(perms) != len(nested):
        raise bad
    target = list(range(m))
    for j, p in enumerate(perms):
        if sorted(p) != target:
            raise InputError(f"order: epoch permutation {j} is not a permutation of 0..{m - 1}")
    return lambda e: perms[e % len(perms)]
