"""Fuzzing: Hypothesis strategies for perceptron data (re-exported here from
:mod:`novikoff.fuzz.strategies`), the differential harness behind ``novikoff diff``
(:mod:`novikoff.fuzz.harness`), and the falsifier behind ``novikoff falsify``
(:mod:`novikoff.fuzz.falsify`, with its whitelisted bound parser :mod:`novikoff.fuzz.bounds`).

The strategies are imported on first use (module ``__getattr__``): they load the spec and
sympy, which a command that only parses its arguments (``novikoff --help``) must not pay for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names for type checkers and the API reference; no import at run time
    from novikoff.fuzz.strategies import (
        FLOAT_EXACT_BOUND,
        VALUE_KINDS,
        certified_nonseparable,
        certified_separable,
        float_exact_separable,
        nonseparable_datasets,
        orderings,
        separable_datasets,
        t1_datasets,
    )

__all__ = [
    "FLOAT_EXACT_BOUND",
    "VALUE_KINDS",
    "certified_nonseparable",
    "certified_separable",
    "float_exact_separable",
    "nonseparable_datasets",
    "orderings",
    "separable_datasets",
    "t1_datasets",
]


def __getattr__(name: str) -> Any:
    """The strategy ``name`` of :mod:`novikoff.fuzz.strategies`, imported on first use.

    Raises:
        AttributeError: ``name`` is not one of ``__all__``.
    """
    if name in __all__:
        return getattr(importlib.import_module("novikoff.fuzz.strategies"), name)
    raise AttributeError(f"module 'novikoff.fuzz' has no attribute {name!r}")
