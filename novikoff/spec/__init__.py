"""The spec: every theorem novikoff states, as sympy data with hypotheses and a source.

``THEOREMS`` maps each normative id of DESIGN section 3 implemented so far to
its statement(s).
"""

from novikoff.spec.core import HypothesisNotMet, Statement
from novikoff.spec.invariance import G1
from novikoff.spec.perceptron import N1, N2, N3
from novikoff.spec.tightness import T1

THEOREMS: dict[str, tuple[Statement, ...]] = {
    "N1": (N1,),
    "N2": (N2,),
    "N3": (N3,),
    "T1": (T1,),
    "G1": G1,
}

__all__ = ["G1", "N1", "N2", "N3", "T1", "THEOREMS", "HypothesisNotMet", "Statement"]
