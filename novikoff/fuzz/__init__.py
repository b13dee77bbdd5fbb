"""Fuzzing: Hypothesis strategies for perceptron data (the differential harness and
the falsifier come with later issues). Everything in :mod:`novikoff.fuzz.strategies`
is re-exported here."""

from novikoff.fuzz import strategies
from novikoff.fuzz.strategies import *  # noqa: F403

__all__ = list(strategies.__all__)
