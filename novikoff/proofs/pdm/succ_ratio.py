"""The proof of :data:`novikoff.spec.pdm.PDM_SUCC_RATIO` (DS1), PDM-succ's stage ratio bound.

With p = 2(1 - eps), a = ||w_t||^2 and a0 = ||w_t0||^2 the three premises are
D3 (t^2 gamma^2 <= a), the energy recursion from t0 and the previous stage's end
(a0 (1 - eps')^2 <= t0^2 gamma^2). With A = t^(2 eps) and
B = t0^(2 eps) (1/(1 - eps')^2 + R^2/((1 - 2 eps) gamma^2 t0)) the claim A <= B is one
certificate:

    gamma^2 t^p (B - A) = (a - t^2 gamma^2)
                        + (t^p (a0 t0^-p + R^2 t0^(1-p)/(1 - 2 eps)) - a)
                        + t^p t0^-p (1 - eps')^-2 (t0^2 gamma^2 - a0 (1 - eps')^2).

The energy premise is the recursion a(j+1) <= (1 + p/j) a(j) + R^2 of PDM's condition,
telescoped from t0 with Bernoulli ((1 + p/j) <= ((j+1)/j)^p) and the integral comparison
sum_{t0 < j <= t} j^-p <= t0^(1-p)/(p - 1); the checker takes it as a premise (its steps are
those :mod:`novikoff.proofs.pdm.small_eps` proves from t = 0, not re-proved here from t0).
"""

from __future__ import annotations

from novikoff.proofs.core import Certificate, Chain, Obligation, SignByAssumptions, Step, Term, gt
from novikoff.proofs.statements import HeadlineProof
from novikoff.spec.pdm import PDM_SUCC_RATIO

__all__ = ["headline", "obligation"]


def _proof() -> Chain:
    t, t0, eps, eps_prev, _R2, gamma2 = PDM_SUCC_RATIO.symbols
    p = 2 - 2 * eps
    return Chain(
        steps=(
            Step("t_pos", gt(t, 0), SignByAssumptions()),
            Step("t0_pos", gt(t0, 0), SignByAssumptions()),
            Step("g2_pos", gt(gamma2, 0), SignByAssumptions()),
            Step(
                "one_minus_eps_prev_pos",
                gt(1 - eps_prev, 0),
                Certificate(terms=(Term((), "eps_prev_lt_1"),)),
            ),
        ),
        final=Certificate(
            multiplier=("g2_pos", ("power", "t_pos", p)),
            terms=(
                Term((), "D3"),
                Term((), "energy"),
                Term(
                    (
                        ("power", "t_pos", p),
                        ("power", "t0_pos", -p),
                        ("power", "one_minus_eps_prev_pos", -2),
                    ),
                    "previous",
                ),
            ),
        ),
    )


def headline() -> HeadlineProof:
    """DS1's headline proof record (for the proof registry once DS1 is in THEOREMS)."""
    return HeadlineProof(PDM_SUCC_RATIO, _proof())


def obligation() -> Obligation:
    """DS1 as an obligation: premises and hypotheses imply the conclusion."""
    return headline().obligation()
