"""The spec: every theorem novikoff states, as sympy data with hypotheses and a source.

``THEOREMS`` maps each theorem id to its statement(s): N1-N3, T1 and G1 from the textbook
(and the notes), M1 from the notes, P1, D1-D3 and L1 from the PDM paper, MU (the
repeated-update count), DS1 (PDM-succ's stage ratio bound, from the PDM paper's successive
runs), S1, S2 and RC1 (the linear class's empirical Rademacher complexity) from the IJCAI
paper, and beyond separable data R1 (ROMMA), FS1 and V1 (Freund and Schapire). The PFM/PDM
statements are derived here from the papers' update conditions (see :mod:`novikoff.spec.pdm`).
"""

from novikoff.spec.core import HypothesisNotMet, Statement
from novikoff.spec.invariance import G1
from novikoff.spec.msvmav import RC1, S1, S2
from novikoff.spec.multiclass import M1
from novikoff.spec.nonseparable import FS1_ONE_PASS, FS1_PASSES
from novikoff.spec.pdm import D1_ABOVE_HALF, D1_BELOW_HALF, D1_HALF, D2, D3, L1, MU, P1, PDM_SUCC_RATIO
from novikoff.spec.perceptron import N1, N2, N3
from novikoff.spec.romma import R1
from novikoff.spec.tightness import T1
from novikoff.spec.voted import V1_PREFIXES, V1_SAMPLE, V1_VOTE

THEOREMS: dict[str, tuple[Statement, ...]] = {
    "N1": (N1,),
    "N2": (N2,),
    "N3": (N3,),
    "T1": (T1,),
    "G1": G1,
    "M1": (M1,),
    "P1": (P1,),
    "D1": (D1_ABOVE_HALF, D1_HALF, D1_BELOW_HALF),
    "D2": (D2,),
    "D3": (D3,),
    "L1": (L1,),
    "S1": (S1,),
    "S2": (S2,),
    "MU": (MU,),
    "DS1": (PDM_SUCC_RATIO,),
    "RC1": (RC1,),
    "R1": (R1,),
    "FS1": (FS1_ONE_PASS, FS1_PASSES),
    "V1": (V1_PREFIXES, V1_VOTE, V1_SAMPLE),
}

__all__ = [
    "FS1_ONE_PASS",
    "FS1_PASSES",
    "G1",
    "L1",
    "M1",
    "MU",
    "N1",
    "N2",
    "N3",
    "P1",
    "PDM_SUCC_RATIO",
    "R1",
    "RC1",
    "S1",
    "S2",
    "T1",
    "THEOREMS",
    "V1_PREFIXES",
    "V1_SAMPLE",
    "V1_VOTE",
    "HypothesisNotMet",
    "Statement",
]
