"""Fuzzing: Hypothesis strategies for perceptron data (re-exported here from
:mod:`novikoff.fuzz.strategies`), the differential harness behind ``novikoff diff``
(:mod:`novikoff.fuzz.harness`), and the falsifier behind ``novikoff falsify``
(:mod:`novikoff.fuzz.falsify`, with its whitelisted bound parser :mod:`novikoff.fuzz.bounds`)."""

from novikoff.fuzz import strategies
from novikoff.fuzz.strategies import *  # noqa: F403

__all__ = list(strategies.__all__)
