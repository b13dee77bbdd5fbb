"""The theorem checks of the large-margin references: D3 after every update, D2, D1 and P1 at convergence.

With a certificate (gamma^2 and R^2 exact), :mod:`novikoff.reference.large_margin` checks D3
exactly after every single update (:class:`RunChecker`, all n updates of a multiple update at
once); at convergence D2 (PDM) by :meth:`~novikoff.spec.core.Statement.holds_rigorously`, D1
for a PDM run from w = 0 and P1 for PFM when beta < gamma (decided as beta^2 < gamma^2), with
eps = 1 - beta/gamma substituted into the spec's statement (:func:`end_checks`). A failure
raises InvariantViolation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InvariantViolation
from novikoff.reference.kernels import dot
from novikoff.reference.large_margin_rules import PDMRule, PFMRule, Rule
from novikoff.spec import D1_ABOVE_HALF, D1_BELOW_HALF, D1_HALF, D2, D3, P1, HypothesisNotMet, Statement
from novikoff.spec.intervals import SquareRoot, Undecided

__all__ = ["RunChecker", "check_d2", "end_checks"]


def _fail(
    statement: Statement, values: dict[str, object], where: str, detail: str = ""
) -> InvariantViolation:
    return InvariantViolation(statement.id, detail or str(statement.conclusion), values, where)


class RunChecker:
    """D3 after every update, and the end-of-run statements; counts what it checked."""

    def __init__(self, certificate: SeparableCertificate | None, s: int) -> None:
        self.cert = certificate
        self.s2 = s * s
        self.d3 = 0

    def _d3(self, t: int, w2: int, where: str) -> None:
        assert self.cert is not None
        values = {"t": Fraction(t), "gamma2": self.cert.gamma2, "w_norm2": Fraction(w2, self.s2)}
        try:
            ok = D3.check(values)
        except HypothesisNotMet as exc:
            raise _fail(D3, dict(values), where, str(exc)) from None
        if not ok:
            raise _fail(D3, dict(values), where)

    def after_updates(self, t: int, p: int, q: int, w2: int, n: int, where: str) -> None:
        """D3 after each of the n single updates t + 1, ..., t + n on one z.

        f(k) = ||w + k z||^2 - (t + k)^2 gamma^2 is a quadratic in k with leading
        coefficient ||z||^2 - gamma^2 >= 0 (gamma <= ||z|| for every pattern), so its
        minimum over the integers 1..n is at an end or next to the vertex: checking
        the statement there checks it at every k. For n <= 3 every k is checked.
        """
        if self.cert is None:
            return
        g2 = self.cert.gamma2
        ks = set(range(1, n + 1)) if n <= 3 else {1, n}
        a = Fraction(q, self.s2) - g2
        if n > 3 and a > 0:
            vertex = (t * g2 - Fraction(p, self.s2)) / a
            ks |= {k for k in (math.floor(vertex), math.ceil(vertex)) if 1 <= k <= n}
        for k in sorted(ks):
            self._d3(t + k, w2 + 2 * k * p + k * k * q, f"after update {t + k} {where}")
        self.d3 += n


def _rigorous(statement: Statement, values: dict[str, Fraction | SquareRoot], where: str) -> str:
    try:
        ok = statement.holds_rigorously(values)
    except HypothesisNotMet as exc:
        return f"not applicable ({exc})"
    except Undecided as exc:
        return f"undecided ({exc})"
    if not ok:
        raise _fail(statement, dict(values), where)
    return "held"


def check_d2(
    t: int, eps: Fraction, min_decision: Fraction, w_norm2: Fraction, gamma2: Fraction, where: str
) -> str:
    """D2 at a converged PDM(eps) state with t updates, min_i w.z_i and ||w||^2 exact.

    "held", "not applicable (eps = 1)" or "undecided (...)"; raises InvariantViolation
    when the conclusion or a hypothesis fails (at convergence the hypotheses hold: the
    clean pass gives t min w.z > (1 - eps)||w||^2 and D3 gives ||w|| >= t gamma, so a
    failing one is a wrong stop or a wrong state, never "not applicable").
    """
    if eps == 1:
        return "not applicable (eps = 1)"
    values: dict[str, Fraction | SquareRoot] = {
        "t": Fraction(t),
        "eps": eps,
        "s": min_decision,
        "w_norm": SquareRoot(w_norm2),
        "gamma": SquareRoot(gamma2),
    }
    try:
        ok = D2.holds_rigorously(values)
    except HypothesisNotMet as exc:
        raise _fail(D2, dict(values), where, str(exc)) from None
    except Undecided as exc:
        return f"undecided ({exc})"
    if not ok:
        raise _fail(D2, dict(values), where)
    return "held"


def _min_decision(dataset: Dataset, W: Sequence[int]) -> int:
    Z, _ = dataset.scaled_patterns
    return min(dot(W, z) for z in Z)


def end_checks(
    dataset: Dataset,
    rule: Rule,
    W: list[int],
    t: int,
    cert: SeparableCertificate | None,
    from_zero: bool,
    min_decision: int | None = None,
) -> dict[str, str]:
    """D2 (PDM), D1 (PDM from w = 0), P1 (PFM) at convergence; values exact or SquareRoot.
    ``min_decision`` is min_i W.Z_i when the caller has it (else it is computed)."""
    if cert is None:
        return {}
    _, s = dataset.scaled_patterns
    w_norm2 = Fraction(dot(W, W), s * s)
    checks: dict[str, str] = {}
    where = f"at convergence after {t} updates"
    R2, gamma2 = cert.R2, cert.gamma2
    if isinstance(rule, PDMRule) and t > 0:
        low = _min_decision(dataset, W) if min_decision is None else min_decision
        s_min = Fraction(low, s * s)
        checks["D2"] = check_d2(t, rule.eps, s_min, w_norm2, gamma2, where)
        if from_zero:
            if rule.eps > Fraction(1, 2):
                d1: Statement = D1_ABOVE_HALF
            elif rule.eps == Fraction(1, 2):
                d1 = D1_HALF
            else:
                d1 = D1_BELOW_HALF
            values: dict[str, Fraction | SquareRoot] = {"t": Fraction(t), "R2": R2, "gamma2": gamma2}
            if d1 is not D1_HALF:
                values["eps"] = rule.eps
            checks["D1"] = _rigorous(d1, values, where)
    if isinstance(rule, PFMRule):
        if rule.beta**2 < gamma2 and t > 0:
            beta = sp.Symbol("beta", nonnegative=True)
            eps_sym, gamma_sym, R_sym, t_sym = (
                P1.symbols[1],
                P1.symbols[3],
                P1.symbols[2],
                P1.symbols[0],
            )
            p1 = P1.substitute({eps_sym: 1 - beta / gamma_sym}, (t_sym, beta, R_sym, gamma_sym))
            values = {"t": Fraction(t), "beta": rule.beta, "R": SquareRoot(R2), "gamma": SquareRoot(gamma2)}
            checks["P1"] = _rigorous(p1, values, where)
        else:
            checks["P1"] = "not applicable (needs 0 < t and beta < gamma)"
    return checks
