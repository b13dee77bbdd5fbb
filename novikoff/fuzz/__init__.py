"""Fuzzing: Hypothesis strategies for perceptron data (differential harness and falsifier come later)."""

from novikoff.fuzz.strategies import (
    FLOAT_EXACT_BOUND,
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
    "certified_nonseparable",
    "certified_separable",
    "float_exact_separable",
    "nonseparable_datasets",
    "orderings",
    "separable_datasets",
    "t1_datasets",
]
