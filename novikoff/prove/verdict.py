"""The answer of :func:`novikoff.prove.prove_bound`: one of three verdicts and its evidence.

``proved``: the proposed bound is at least the algorithm's kernel-checked bound on the whole
admissible domain, shown by an exact certificate (:mod:`novikoff.prove.certificate`) that the
project's checker accepted, and (when Coq is installed) by a Coq file that applies the run
theorem and that ``coqc`` accepted (ROMMA's: its mistakes under either rule). ``refuted``: a
dataset and an order on which the run makes more updates than the bound (found as ``novikoff
falsify`` finds it; replayable). ``open``: neither; the report says what was to be proved,
where the search looked and the highest updates/bound it saw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["EXIT_CODES", "EXIT_UNCHECKED", "ProveVerdict"]

#: The exit status of ``novikoff prove`` for each verdict (2 is bad input or a refused algorithm);
#: a "proved" that coqc did not check (Coq not installed, or ``--no-coq``) exits 4, never 0.
EXIT_CODES: dict[str, int] = {"proved": 0, "refuted": 1, "open": 3}
#: The exit status of a bound proved by the Python checker only.
EXIT_UNCHECKED = 4


@dataclass
class ProveVerdict:
    """What ``prove_bound`` decided about ``updates <= bound``.

    - ``verdict``: "proved", "refuted" or "open";
    - ``inequality``: the real inequality that was to be proved, as text;
    - ``domain``: the admissible values of the symbols, as text;
    - ``certificates``: the exact certificates the checker accepted (one per goal; empty unless
      proved);
    - ``coq_text``: the Coq file (proved only), ``coq_checked``: True when ``coqc`` accepted it,
      False when it rejected it, None when Coq is not installed (then the verdict is "proved by
      the Python checker only"); ``coq_log``: coqc's output when it rejected the file;
    - ``ratio``: for a proved bound, the largest rational c among a few candidates with
      bound >= c * known bound everywhere (c > 1 proved by its own certificate; 1 when no larger
      candidate was proved, which does not say the bound meets the known one), or None;
    - ``counterexample``: the falsifier's counterexample (refuted only);
    - ``examples``, ``best_ratio``: how many examples the search tried and the highest
      updates/bound it saw (a float, display only);
    - ``reasons``: why a goal was not proved (open only), ``seconds``: CPU seconds spent.
    """

    verdict: str
    algorithm: str
    bound_text: str
    known_text: str
    inequality: str
    domain: str
    certificates: list[Any] = field(default_factory=list)
    coq_text: str | None = None
    coq_checked: bool | None = None
    coq_log: str = ""
    ratio: Fraction | None = None
    counterexample: Any = None
    examples: int = 0
    best_ratio: float | None = None
    reasons: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """0 proved (coqc accepted the file), 4 proved by the Python checker only, 1 refuted,
        3 open."""
        if self.verdict == "proved" and self.coq_checked is not True:
            return EXIT_UNCHECKED
        return EXIT_CODES[self.verdict]

    def summary(self) -> str:
        """One or more lines saying the verdict and its evidence, for the terminal."""
        if self.verdict == "proved":
            how = {
                True: "the Coq kernel accepted the proof",
                False: "coqc rejected the file",
                None: "proved by the Python checker only: coqc not found or not run",
            }[self.coq_checked]
            looser = ""
            if self.ratio is not None and self.ratio > 1:
                looser = f"; valid, at least {self.ratio}x the known bound {self.known_text} everywhere"
            if self.algorithm == "romma":  # R1 bounds the mistakes, under either rule
                claim = f"mistakes <= {self.bound_text} for every run, conservative or aggressive"
            else:
                claim = f"updates <= {self.bound_text} for every run"
            head = f"PROVED: {claim} ({how}){looser}"
            return f"{head}\n  proved: {self.inequality} on {self.domain}"
        if self.verdict == "refuted":
            return f"REFUTED: {self.bound_text} (see the counterexample)"
        best = "-" if self.best_ratio is None else f"{self.best_ratio:.6g}"
        why = "".join(f"\n  not proved: {r}" for r in self.reasons)
        return (
            f"OPEN: {self.bound_text} is neither proved nor refuted\n"
            f"  to prove: {self.inequality}\n  over: {self.domain}{why}\n"
            f"  search (as falsify's: the T1 pre-check where the algorithm has one, then the seeded "
            f"search): {self.examples} examples, the highest updates/bound seen was {best}"
        )
