"""The large-margin perceptrons' parameters (eps, beta, eps schedules), read exactly.

Input handling shared on purpose by the exact references, the twins and the CLI
(like :func:`novikoff.runtime.runs.epoch_order`): no decision is made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from novikoff.errors import InputError
from novikoff.exact.rational import exact_parameter

__all__ = ["parse_epsilons", "validate_beta", "validate_epsilon"]


def validate_epsilon(eps: object, name: str = "epsilon") -> Fraction:
    """eps as an exact Fraction in (0, 1]; InputError otherwise."""
    value = exact_parameter(eps, name)
    if not 0 < value <= 1:
        raise InputError(f"{name} must be in (0, 1], got {value}")
    return value


def validate_beta(beta: object) -> Fraction:
    """beta as an exact Fraction >= 0; InputError otherwise."""
    value = exact_parameter(beta, "beta")
    if value < 0:
        raise InputError(f"beta must be >= 0, got {value}")
    return value


def parse_epsilons(values: Sequence[object]) -> list[Fraction]:
    """A strictly decreasing, non-empty sequence of eps in (0, 1]; InputError otherwise."""
    eps = [validate_epsilon(v, f"epsilons[{i}]") for i, v in enumerate(values)]
    if not eps:
        raise InputError("epsilons: empty sequence (PDM-succ needs eps_1 > ... > eps_final)")
    for i in range(1, len(eps)):
        if eps[i] >= eps[i - 1]:
            raise InputError(f"epsilons must decrease strictly: epsilons[{i}] = {eps[i]} >= {eps[i - 1]}")
    return eps
