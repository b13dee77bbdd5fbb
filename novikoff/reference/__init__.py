"""Exact reference solvers: obviously correct, one update per loop turn, invariants checked."""

from novikoff.reference.perceptron import DEFAULT_MAX_EPOCHS, run_perceptron

__all__ = ["DEFAULT_MAX_EPOCHS", "run_perceptron"]
