"""Fast numpy twins of the reference solvers, tested against them like any user's code."""

from novikoff.twins.perceptron import perceptron_twin, twin_patterns

__all__ = ["perceptron_twin", "twin_patterns"]
