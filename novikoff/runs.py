"""The run contract shared by reference solvers, twins and user implementations.

A :class:`RunRecord` is what every perceptron-family run returns: final weights
(bias coordinate last), the ordered updates as ``(epoch, sample index)`` pairs
(epochs count from 0), the number of mistakes (= updates), the epochs run
(including the final clean epoch when converged) and ``converged``.

Orders (:func:`epoch_order`) are input handling, shared on purpose so that the
reference and a twin see the same presentation sequence; no decision is made here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence, Union

import numpy as np

from novikoff.errors import InputError

__all__ = ["RunRecord", "Order", "epoch_order", "parse_order"]

Order = Union[None, str, Sequence[int], Sequence[Sequence[int]]]


@dataclass
class RunRecord:
    """One run. ``weights`` are exact Fractions for exact solvers, floats for float twins."""

    weights: tuple[Fraction, ...] | np.ndarray
    updates: list[tuple[int, int]]
    epochs: int
    converged: bool
    invariants_checked: int = 0
    norm2_history: list[Fraction] = field(default_factory=list)
    algorithm: str = "perceptron"

    @property
    def mistakes(self) -> int:
        """Number of updates (every mistake updates)."""
        return len(self.updates)

    @property
    def update_indices(self) -> list[int]:
        """Sample indices in update order."""
        return [i for _, i in self.updates]


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
    seq = list(order)
    if not seq:
        raise InputError("order: empty")
    perms: list[list[int]]
    if all(isinstance(v, (int, np.integer)) for v in seq):
        perms = [[int(v) for v in seq]]
    else:
        perms = [[int(v) for v in p] for p in seq]  # type: ignore[union-attr]
    target = list(range(m))
    for j, p in enumerate(perms):
        if sorted(p) != target:
            raise InputError(f"order: epoch permutation {j} is not a permutation of 0..{m - 1}")
    return lambda e: perms[e % len(perms)]
