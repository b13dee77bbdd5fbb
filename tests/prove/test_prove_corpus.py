"""The corpus of proposed bounds, each with its verdict decided by hand (the comment says why).

"proved": the bound is at least the kernel-checked bound (N3: R^2/gamma^2; M1: 2 R^2/gamma^2;
R1: R^2/gamma^2 on ROMMA's mistakes under either rule; D1 at eps > 1/2: R^2/((2 eps - 1)
gamma^2), at eps < 1/2 with 1/(2 eps) = k an integer: (2 (1 - eps)/(1 - 2 eps) R^2/gamma^2)^k)
for every R > 0, 0 < gamma <= R (multiclass: any gamma > 0), m, d >= 1, K >= 2. "refuted": a
dataset named in the comment breaks it (T1 is e_1..e_n: R^2 = 1, gamma^2 = 1/n, m = d = n and
exactly n updates). "open": the bound holds on every run (so nothing can refute it) but is not
at least the known bound everywhere, or its inequality is beyond the certificate search (floor,
ceil, logarithms of the known bound); it must never be "proved". "refused": claims on non-separable
data are not decided yet (FS1 has its run theorems, prove has no certificates for them), so
prove exits 2 saying so.
``benchmarks/prove_corpus.py`` times the same corpus into docs/howto/prove.md.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from fractions import Fraction

import pytest

from novikoff.errors import InputError
from novikoff.fuzz.falsify import certify_check
from novikoff.prove import prove_bound


@dataclass(frozen=True)
class Entry:
    text: str
    expected: str
    algorithm: str = "perceptron"
    epsilons: tuple[Fraction, ...] | None = None
    nonseparable: bool = False


Q = Fraction
CORPUS: list[Entry] = [
    # ---- proved: at least the known bound everywhere
    Entry("R**2/gamma**2", "proved"),  # Novikoff's bound itself
    Entry("R2/gamma2", "proved"),  # the same in the squared symbols
    Entry("(R/gamma)**2", "proved"),  # the same, written as a square
    Entry("2*R**2/gamma**2", "proved"),  # a constant off by 2, upwards
    Entry("R**2/gamma**2 + 1", "proved"),  # plus a positive constant
    Entry("R2/gamma2 + m", "proved"),  # plus m >= 1
    Entry("m*R2/gamma2", "proved"),  # times m >= 1
    Entry("d*R**2/gamma**2", "proved"),  # times d >= 1
    Entry("max(m, R2/gamma2)", "proved"),  # its second argument is the bound
    Entry("min(2*R2/gamma2, R2/gamma2 + d)", "proved"),  # both arguments are above it
    Entry("R**4/gamma**4", "proved"),  # (R/gamma)^4 >= (R/gamma)^2 since R >= gamma
    Entry("R**3/gamma**3", "proved"),  # (R/gamma)^3 >= (R/gamma)^2 since R >= gamma
    Entry("R**2/gamma**2 + R/gamma - 1", "proved"),  # R/gamma >= 1
    Entry("(R + gamma)**2/gamma**2", "proved"),  # (R + gamma)^2 >= R^2
    Entry("R**2/gamma**2 + (R - gamma)**2/gamma**2", "proved"),  # plus a square
    Entry("R**2/gamma**2*(1 + 1/m)", "proved"),  # times 1 + 1/m >= 1
    Entry("R2/gamma2*(1 + log(m))", "proved"),  # a log factor: log m >= 0 for m >= 1
    Entry("R2/gamma2*(1 + log(R2/gamma2))", "proved"),  # log(R^2/gamma^2) >= 0 since R >= gamma
    Entry("R2/gamma2 + log(m*d)", "proved"),  # plus log(m d) >= 0
    Entry("R2/gamma2", "proved", "averaged"),  # the averaged perceptron's updates are N3's
    Entry("2*R2/gamma2", "proved", "voted"),  # the voted perceptron's too, with room
    Entry("R2/gamma2", "proved", "romma"),  # ROMMA's R1 itself (its mistakes, either rule)
    Entry("R2/gamma2 + d", "proved", "romma"),  # R1 plus d >= 1
    Entry("2*R2/gamma2", "proved", "multiclass"),  # M1 itself
    Entry("2*R**2/gamma**2 + K", "proved", "multiclass"),  # M1 plus K >= 2
    Entry("2*R2/gamma2", "proved", "pdm", (Q(3, 4),)),  # D1 at 3/4: R^2/((3/2 - 1) gamma^2)
    Entry("R2/((2*eps - 1)*gamma2)", "proved", "pdm", (Q(1), Q(3, 4), Q(2, 3))),  # D1 itself
    # D1 below 1/2 at eps = 1/4: (2 (3/4)/(1/2) R^2/gamma^2)^2 = 9 R^4/gamma^4, and at eps = 1 R^2/gamma^2
    Entry("9*R2**2/gamma2**2", "proved", "pdm", (Q(1), Q(1, 4))),
    Entry("(9/4)**5*R**10/gamma**10 + m", "proved", "pdm", (Q(1, 10),)),  # D1 at 1/10: (9/4 R^2/gamma^2)^5
    # ---- refuted: a dataset breaks it
    Entry("4", "refuted"),  # holds only for gamma >= R/2: T1 with n = 5 makes 5 updates
    Entry("R/gamma", "refuted"),  # R instead of R^2: T1 n = 4 gives 4 updates > 2
    Entry("R2/gamma", "refuted"),  # gamma instead of gamma^2: T1 scaled by 1/3, n = 1: 1 > 1/3
    Entry("R**2/gamma**2 - 1/2", "refuted"),  # T1 meets R^2/gamma^2 exactly: n > n - 1/2
    Entry("R2/(2*gamma2)", "refuted"),  # constant off by 1/2: T1 n = 1 gives 1 > 1/2
    Entry("gamma2/R2", "refuted"),  # inverted: T1 n = 2 gives 2 > 1/2
    Entry("min(m, d)/2", "refuted"),  # T1 n = 1: 1 > 1/2
    Entry("R2/gamma2*log(m)", "refuted"),  # T1 n = 1: log 1 = 0 < 1 update
    Entry("sqrt(m)", "refuted"),  # T1 n = 2: 2 > sqrt 2
    # multiclass R^2/gamma^2 (without M1's factor 2): x~ = (2, 1) -> class 1, (-2, 1) -> class 0;
    # the first sample is a mistake (all scores tie, class 0 wins) and R^2 = 5 < gamma_K^2 = 8
    Entry("R2/gamma2", "refuted", "multiclass"),
    # PDM's eps > 1/2 form for every eps: at eps = 1/3 it is negative while T1 makes updates
    Entry("R2/((2*eps - 1)*gamma2)", "refuted", "pdm"),
    # conservative ROMMA on T1 (e_1..e_n): w = e_1 + ... + e_j after j mistakes, each sample a
    # mistake (w.e_j = 0), so n mistakes: n = 2 gives 2 > sqrt 2, n = 1 gives 1 > 1/2
    Entry("R/gamma", "refuted", "romma"),
    Entry("R2/(2*gamma2)", "refuted", "romma"),
    # ---- open: holds on every run, but not proved
    # a planted bound tighter than R^2/gamma^2 for R^2/gamma^2 > 1000 (T1 with n = 1001 would break
    # it, beyond the search's T1 sizes): the inequality fails on part of the domain, never proved
    Entry("min(R2/gamma2, 1000)", "open"),
    # true (one sample: exactly one update) but below R^2/gamma^2 at m = 1
    Entry("min(R2/gamma2, 1 + (m - 1)*R2/gamma2)", "open"),
    Entry("floor(R2/gamma2)", "open"),  # true (the updates are an integer), floor is beyond the search
    Entry("ceil(R2/gamma2)", "open"),  # true, ceil is beyond the search
    Entry("floor(R2/gamma2)", "open", "romma"),  # true for ROMMA's mistakes too (R1), floor is beyond
    # true (log(3 m) >= log 3 > 1) but the search only knows log(3 m) >= 0
    Entry("R2/gamma2*log(3*m)", "open"),
    # P1 itself: true for every PFM run, but it has a logarithm
    Entry("(1 + exp(-1))*R2/(2*eps*gamma2)*(2*gamma/R + log((1 + exp(1))*R2/(2*eps*gamma2)))", "open", "pfm"),
    # D1 at eps = 1/3 itself, (4 R^2/gamma^2)^(3/2): true, a real power
    Entry("(4*R2/gamma2)**(3/2)", "open", "pdm", (Q(1, 3),)),
    # ---- refused (exit 2): claims on non-separable data (FS1, with the deviation D and the passes
    # T) are not decided by prove yet
    Entry("(R + D)**2/gamma**2", "refused", nonseparable=True),  # Freund-Schapire
    Entry("(R2 + deviation2)/gamma2", "refused", nonseparable=True),  # its squared variant
    Entry("T*(R + D)**2/gamma**2", "refused", nonseparable=True),  # over T passes
    # D1 at eps = 1/2 itself: true, with a logarithm
    Entry("R2*(exp(-1) + 1)*log(R2*(1 + exp(1))/gamma2)/gamma2", "open", "pdm", (Q(1, 2),)),
]

HAS_COQ = shutil.which("coqc") is not None


def test_the_corpus_is_large_and_covers_every_verdict() -> None:
    assert len(CORPUS) >= 30
    assert {e.expected for e in CORPUS} == {"proved", "refuted", "open", "refused"}
    assert len([e for e in CORPUS if e.expected != "refused"]) >= 30
    assert len({(e.text, e.algorithm, e.epsilons, e.nonseparable) for e in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: f"{e.algorithm}:{e.text}")
def test_corpus_verdict(entry: Entry) -> None:
    if entry.expected == "refused":
        with pytest.raises(InputError, match=r"prove does not state or certify"):
            prove_bound(entry.text, entry.algorithm, nonseparable=entry.nonseparable)
        return
    v = prove_bound(entry.text, entry.algorithm, epsilons=entry.epsilons, examples=40)
    assert v.verdict == entry.expected, v.summary()
    if v.verdict == "proved":
        assert v.certificates and v.coq_text is not None
        assert v.coq_checked is (True if HAS_COQ else None), v.coq_log
    elif v.verdict == "refuted":
        assert certify_check(v.counterexample)  # the counterexample's numbers re-derived from scratch
        assert v.counterexample.updates > 0
    else:
        assert v.reasons and v.certificates == [] and v.coq_text is None
