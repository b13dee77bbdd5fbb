"""Exact references for the large-margin perceptrons PFM(beta), PDM(eps) and PDM-succ.

DESIGN section 2. Arithmetic as in :mod:`novikoff.reference.perceptron`: integer
patterns Z_i = s z_i and integer weights W = s w, so p = W.Z_i = s^2 w.z_i and
||W||^2 = s^2 ||w||^2. The decisions, exactly:

- PFM(beta): w.z <= beta ||w||  <=>  p <= (beta s) ||W||, by the sign split of
  :func:`~novikoff.reference.kernels.pfm_updates`;
- PDM(eps): t (w.z) <= (1 - eps) ||w||^2  <=>  t p <= (1 - eps) ||W||^2 (scale-free),
  :func:`~novikoff.reference.kernels.pdm_updates`.

Multiple updates (``multiple_updates=True``): on a mistake on z the reference
adds z n times, n the smallest n >= 1 after which the rule's condition fails at
(w + n z, t + n), found from the definition by evaluating the condition (a
galloping search: the set of n where the condition holds is {0, ..., n - 1}, since
for PDM it is where a quadratic with positive leading coefficient eps q is <= 0,
and for PFM it is {n : p + n q <= 0} joined to where a quadratic with leading
coefficient q (q - beta^2) > 0 is <= 0, which contains -p/q).

**Why the integer decisions are the rational ones (homogeneity).** With one scale
s > 0 per dataset (the common denominator of its values and the bias), Z_i = s z_i
and, since every run starts at w = 0 and adds whole patterns, W = s w stays an
integer vector. Then p = W.Z_i = s^2 (w.z_i) and ||W||^2 = s^2 ||w||^2, ||W|| =
s ||w||, so: PDM's condition t (w.z) <= (1 - eps) ||w||^2 is the same inequality
multiplied by s^2 > 0 (degree 2 on both sides); PFM's w.z <= beta ||w|| is it
multiplied by s^2 as well, since s^2 (w.z) = p and s^2 beta ||w|| = (beta s) ||W||.
Multiplying an inequality by a positive number does not change its truth, so each
integer decision equals the decision on the exact rationals.

**Engines.** ``engine="integer"`` (the default) runs the same loop on the exact
decision values of all samples at once
(:class:`~novikoff.reference.large_margin_integer.DecisionValues`: p = Z W kept
as integers and updated by n G_k, G_k = Z Z_k the k-th Gram column, when the run
adds n Z_k), with ||W||^2 updated as ||W + n Z_k||^2 = l + 2 n p + n^2 q
(l = ||W||^2, q = ||Z_k||^2) and each decision made as the integer comparison
p <= T against the rule's integer threshold T (``threshold`` on the rules, which
proves it equivalent to ``updates``); a multiple update's count is the closed form
``repeat_count_function`` (the floor of the larger root of the rule's quadratic, by
integer square root: proved equal to :func:`repeat_count`'s n where it applies), or,
in natural order, the sample's previous count accepted by evaluating the test at the
two counts around it, or else :func:`repeat_count_near`, which evaluates the
condition itself and so finds :func:`repeat_count`'s n from any start.
``engine="plain"`` is the definition itself: one exact dot product W.Z_i per
presentation. Both make the same decisions in the same order (the equivalences are
proved in the docstrings and tested on generated data for every rule and option),
hence the same run.

Checks with a certificate (:func:`check_run_theorems` says which ran): D3 exactly
after every single update; at convergence D2 (PDM) by
:meth:`~novikoff.spec.core.Statement.check_rigorous`; D1 for a PDM run from w = 0;
P1 for PFM when beta < gamma (decided as beta^2 < gamma^2), with eps = 1 - beta/gamma
substituted into the spec's statement. A failure raises InvariantViolation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
import sympy as sp

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.kernels import dot, pdm_updates, pfm_updates
from novikoff.reference.large_margin_integer import DecisionValues
from novikoff.reference.pdm_succ_ratio import check_pdm_succ_ratio
from novikoff.runtime.parameters import parse_epsilons, validate_beta, validate_epsilon
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.spec import D1_ABOVE_HALF, D1_BELOW_HALF, D1_HALF, D2, D3, P1, HypothesisNotMet, Statement
from novikoff.spec.intervals import SquareRoot, Undecided

__all__ = [
    "ENGINES",
    "LargeMarginRun",
    "PDMRule",
    "PFMRule",
    "Rule",
    "check_d2",
    "parse_epsilons",
    "run_pdm",
    "run_pdm_succ",
    "run_pfm",
    "validate_beta",
    "validate_epsilon",
]

ENGINES = ("integer", "plain")


@dataclass(frozen=True)
class PFMRule:
    """PFM(beta): update iff w.z <= beta ||w||."""

    beta: Fraction
    name = "pfm"

    @cached_property
    def ints(self) -> tuple[int, int]:
        """(beta_num, beta_den) in lowest terms."""
        return self.beta.numerator, self.beta.denominator

    def updates(self, t: int, p: int, w2: int, s: int) -> bool:
        b, c = self.ints
        return pfm_updates(p, w2, b * s, c)

    def threshold(self, t: int, w2: int, s: int) -> int | None:
        """The integer T with ``updates(t, p, w2, s) == (p <= T)`` for every integer p.

        With b = beta_num s, c = beta_den: the test is p <= 0 or p^2 c^2 <= b^2 w2,
        and T = isqrt(floor(b^2 w2 / c^2)) >= 0. For p <= 0 both sides hold. For p > 0:
        p^2 c^2 <= b^2 w2 iff p^2 <= b^2 w2 / c^2 iff p^2 <= floor(b^2 w2 / c^2) (p^2 is
        an integer) iff p <= isqrt(floor(b^2 w2 / c^2)) (isqrt(M) is the largest r >= 0
        with r^2 <= M, and p >= 0).
        """
        return self.threshold_function(s)(t, w2)

    def threshold_function(self, s: int) -> Callable[[int, int], int | None]:
        """``threshold`` for this scale as a function of (t, w2): the same formula, its
        constants b^2 and c^2 computed once (the integer engine calls it once per update)."""
        b, c = self.ints
        bb, cc, isqrt = (b * s) ** 2, c * c, math.isqrt
        return lambda t, w2: isqrt((bb * w2) // cc)

    def repeat_count_exact(self, t: int, p: int, q: int, w2: int, s: int) -> int | None:
        """:func:`repeat_count`'s n without a search (``repeat_count_function``)."""
        return self.repeat_count_function(s)(t, p, q, w2)

    def repeat_count_function(self, s: int) -> Callable[[int, int, int, int], int | None]:
        """(t, p, q, w2) -> :func:`repeat_count`'s n (without a limit) by a closed form, or None
        where it does not apply (q = 0, or beta^2 s^2 >= q, where multiple updates are refused).

        Precondition: the test holds at n = 0. With b = beta_num s, c = beta_den and
        k = q c^2 - b^2 > 0 the test holds at n iff n <= lin = floor(-p/q) or the quadratic
        A n^2 + B n + C <= 0 (A = q k > 0, B = 2 p k, C = p^2 c^2 - b^2 w2: the squared test at
        w + n z), i.e. n <= floor(r2), r2 its larger root, where that set is not empty. The
        two sets join into {0, ..., n* - 1}: for p > 0 the first is empty and the second holds
        0; for p <= 0 the quadratic's value at its vertex -p/q is b^2 (p^2/q - w2) <= 0
        (Cauchy-Schwarz: p^2 <= w2 q), so the second's interval reaches from below lin + 1
        (> -p/q) to r2. So n* - 1 = max(lin, floor(r2), 0) (0: the precondition), and
        floor(r2) = (isqrt(D) - B) // (2A) exactly, D = B^2 - 4AC: with r = isqrt(D) <=
        sqrt(D) < r + 1 and N = (r - B) // (2A), 2AN + B <= r <= sqrt(D), and r < 2A(N + 1)
        + B, an integer, so sqrt(D) < r + 1 <= 2A(N + 1) + B.
        """
        b, c = self.ints
        bb, cc, isqrt = (b * s) ** 2, c * c, math.isqrt

        def count(t: int, p: int, q: int, w2: int) -> int | None:
            k = q * cc - bb
            if q <= 0 or k <= 0:
                return None
            a, B = q * k, 2 * p * k
            D = B * B - 4 * a * (p * p * cc - bb * w2)
            root = (isqrt(D) - B) // (2 * a) if D >= 0 else -1
            return max(root, (-p) // q, 0) + 1

        return count

    def repeat_guess(self, t: int, p: int, q: int, w2: int, s: int) -> int:
        """A starting point (>= 1) for :func:`repeat_count_near`: one more than the largest
        integer root of the test's two parts, p + n q <= 0 and (with b = beta_num s,
        c = beta_den) A n^2 + B n + C <= 0, A = q (q c^2 - b^2), B = 2 p (q c^2 - b^2),
        C = p^2 c^2 - b^2 w2 (the squared test at w + n z). Only a guess: the count is
        decided by evaluating the test."""
        b, c = self.ints
        b *= s
        if q <= 0:
            return 1
        k = q * c * c - b * b
        a, lin = q * k, (-p) // q
        if a <= 0:
            return max(lin, 0) + 1
        bb, cc = 2 * p * k, p * p * c * c - b * b * w2
        disc = bb * bb - 4 * a * cc
        root = (math.isqrt(disc) - bb) // (2 * a) if disc >= 0 else -1
        return max(root, lin, 0) + 1


@dataclass(frozen=True)
class PDMRule:
    """PDM(eps): update iff t (w.z) <= (1 - eps) ||w||^2."""

    eps: Fraction
    name = "pdm"

    @cached_property
    def ints(self) -> tuple[int, int]:
        """(e, d) with eps = e/d in lowest terms."""
        return self.eps.numerator, self.eps.denominator

    def updates(self, t: int, p: int, w2: int, s: int) -> bool:
        e, d = self.ints
        return pdm_updates(t, p, w2, e, d)

    def threshold(self, t: int, w2: int, s: int) -> int | None:
        """The integer T with ``updates(t, p, w2, s) == (p <= T)`` for every integer p, or
        None when the test holds for every p.

        With eps = e/d the test is t p d <= (d - e) w2. At t = 0 it is 0 <= (d - e) w2,
        true since e <= d and w2 >= 0: None. At t >= 1, t d > 0, so for an integer p it
        is p <= (d - e) w2 / (t d) iff p <= floor((d - e) w2 / (t d)) = T.
        """
        return self.threshold_function(s)(t, w2)

    def threshold_function(self, s: int) -> Callable[[int, int], int | None]:
        """``threshold`` as a function of (t, w2) (the test is scale-free: s is unused), its
        constants computed once (the integer engine calls it once per update)."""
        e, d = self.ints
        de = d - e
        return lambda t, w2: (de * w2) // (t * d) if t else None

    def repeat_count_exact(self, t: int, p: int, q: int, w2: int, s: int) -> int | None:
        """:func:`repeat_count`'s n without a search (``repeat_count_function``)."""
        return self.repeat_count_function(s)(t, p, q, w2)

    def repeat_count_function(self, s: int) -> Callable[[int, int, int, int], int | None]:
        """(t, p, q, w2) -> :func:`repeat_count`'s n (without a limit) by a closed form, or None
        where it does not apply (q = 0: z = 0, where no count exists and the limit decides).

        Precondition: the test holds at n = 0. The test at (w + n z, t + n) is
        f(n) = a n^2 + b n - c <= 0 (expand (t + n) d (p + n q) - (d - e)(w2 + 2 n p + n^2 q):
        a = e q > 0, b = d t q - (d - 2e) p, c = (d - e) w2 - d t p), and f(0) = -c <= 0, so
        D = b^2 + 4 a c >= 0 and the roots are r1 <= 0 <= r2: the test holds at an integer
        n >= 0 iff n <= floor(r2), so n* = floor(r2) + 1, and floor(r2) = (isqrt(D) - b) //
        (2a) exactly (r = isqrt(D) <= sqrt(D) < r + 1; with N that floor, 2aN + b <= r <=
        sqrt(D) and r < 2a(N + 1) + b, an integer, so sqrt(D) < r + 1 <= 2a(N + 1) + b).
        """
        e, d = self.ints
        de, d2e, isqrt = d - e, d - 2 * e, math.isqrt

        def count(t: int, p: int, q: int, w2: int) -> int | None:
            if q <= 0:
                return None
            a, b = e * q, d * t * q - d2e * p
            return (isqrt(b * b + 4 * a * (de * w2 - d * t * p)) - b) // (2 * a) + 1

        return count

    def repeat_guess(self, t: int, p: int, q: int, w2: int, s: int) -> int:
        """A starting point (>= 1) for :func:`repeat_count_near`: one more than the floor of
        the positive root of DESIGN's quadratic a n^2 + b n - c (a = e q, b = d t q -
        (d - 2e) p, c = (d - e) w2 - d t p, as in
        :func:`~novikoff.reference.kernels.repeated_update_count_closed_form`, up to its
        corrections), 1 when q = 0. Only a guess: the count is decided by evaluating the test."""
        if q <= 0:
            return 1
        e, d = self.ints
        a = e * q
        b = d * t * q - (d - 2 * e) * p
        c = (d - e) * w2 - d * t * p
        disc = b * b + 4 * a * c
        if disc < 0:
            return 1
        return max((math.isqrt(disc) - b) // (2 * a), 0) + 1


Rule = PFMRule | PDMRule


def repeat_count(rule: Rule, t: int, p: int, q: int, w2: int, s: int, limit: int | None = None) -> int:
    """The smallest n >= 1 with the rule's condition false at (w + n z, t + n), by evaluating it,
    or ``limit`` when that is smaller (where no such n exists, e.g. z = 0, it is ``limit``).

    Precondition: the condition holds at n = 0. Without ``limit`` it also needs q =
    ||Z||^2 > 0 (and for PFM beta^2 < ||z||^2), else it would not terminate.
    """

    def holds(n: int) -> bool:
        return rule.updates(t + n, p + n * q, w2 + 2 * n * p + n * n * q, s)

    hi = 1
    while holds(hi):
        if limit is not None and hi >= limit:
            return limit
        hi *= 2
    lo = hi // 2  # holds(lo) (lo = 0 is the precondition), not holds(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return hi if limit is None else min(hi, limit)


def repeat_count_near(
    rule: Rule, t: int, p: int, q: int, w2: int, s: int, limit: int | None, guess: int
) -> int:
    """:func:`repeat_count`'s value, searched from ``guess`` instead of from 1.

    The set of n >= 0 where the condition holds at (w + n z, t + n) is {0, ..., n* - 1}
    (module docstring), so with g = max(1, guess) (and g <= ``limit``): if it holds at
    g, n* > g and a galloping search upward from g finds it; if it fails at g and holds
    at g - 1, n* = g; if it fails at g - 1, n* < g and a binary search in [0, g - 1]
    finds it (it holds at 0: the precondition). Every step evaluates the condition
    itself, so a wrong guess costs time, never a wrong count. Returns min(n*, limit)
    like :func:`repeat_count` (``limit`` when no n* exists).
    """

    def holds(n: int) -> bool:
        return rule.updates(t + n, p + n * q, w2 + 2 * n * p + n * n * q, s)

    g = max(1, guess) if limit is None else max(1, min(guess, limit))
    if holds(g):
        lo, hi = g, 2 * g
        if limit is not None and g >= limit:
            return limit
        while holds(hi):
            if limit is not None and hi >= limit:
                return limit
            lo, hi = hi, 2 * hi
    elif g == 1 or holds(g - 1):
        return g
    else:
        lo, hi = 0, g - 1
    while hi - lo > 1:  # holds(lo), not holds(hi)
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return hi if limit is None else min(hi, limit)


@dataclass
class LargeMarginRun(RunRecord):
    """A PFM/PDM/PDM-succ run: the run record plus the rule's parameters and the theorem checks."""

    parameters: dict[str, Fraction] = field(default_factory=dict)
    stages: list[tuple[Fraction, int, int]] = field(default_factory=list)  # (eps, updates, epochs)
    checks: dict[str, str] = field(default_factory=dict)
    integer_state: tuple[tuple[int, ...], int] = ((), 1)  # (W, s) with weights = W / s
    stopped: str = ""  # why the run stopped before converging, when not max_epochs


def _fail(
    statement: Statement, values: dict[str, object], where: str, detail: str = ""
) -> InvariantViolation:
    return InvariantViolation(statement.id, detail or str(statement.conclusion), values, where)


class _Checker:
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
        ok = statement.check_rigorous(values)
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
        ok = D2.check_rigorous(values)
    except HypothesisNotMet as exc:
        raise _fail(D2, dict(values), where, str(exc)) from None
    except Undecided as exc:
        return f"undecided ({exc})"
    if not ok:
        raise _fail(D2, dict(values), where)
    return "held"


def _run(
    dataset: Dataset,
    rule: Rule,
    *,
    order: Order,
    max_epochs: int,
    checker: _Checker,
    multiple_updates: bool,
    W: list[int],
    t: int,
    first_epoch: int,
    updates: list[tuple[int, int]],
    max_updates: int = 10**7,
) -> tuple[list[int], int, int, bool, str]:
    """One run of ``rule`` until a clean epoch, ``max_epochs`` or more than ``max_updates``
    updates; returns (W, t, epochs, converged, why it stopped early or "")."""
    Z, s = dataset.scaled_patterns
    Q = [dot(z, z) for z in Z]
    presentation = epoch_order(order, dataset.n_samples)
    w2 = dot(W, W)
    for e in range(max_epochs):
        clean = True
        for i in presentation(first_epoch + e):
            p = dot(W, Z[i])
            if not rule.updates(t, p, w2, s):
                continue
            n = repeat_count(rule, t, p, Q[i], w2, s, max_updates - t + 1) if multiple_updates else 1
            if t + n > max_updates:
                return (
                    W,
                    t,
                    e + 1,
                    False,
                    f"stopped before update {t + 1}: more than max_updates = {max_updates}",
                )
            checker.after_updates(t, p, Q[i], w2, n, f"(sample {i}, epoch {first_epoch + e})")
            W = [a + n * b for a, b in zip(W, Z[i])]
            w2 = w2 + 2 * n * p + n * n * Q[i]
            t += n
            updates.extend([(first_epoch + e, i)] * n)
            clean = False
        if clean:
            return W, t, e + 1, True, ""
    return W, t, max_epochs, False, ""


def _run_integer(
    dataset: Dataset,
    rule: Rule,
    *,
    order: Order,
    max_epochs: int,
    checker: _Checker,
    multiple_updates: bool,
    values: DecisionValues,
    t: int,
    w2: int,
    first_epoch: int,
    updates: list[tuple[int, int]],
    max_updates: int = 10**7,
) -> tuple[int, int, int, bool, str]:
    """:func:`_run` on the kept decision values (module docstring, "Engines"):
    :meth:`~novikoff.reference.large_margin_integer.DecisionValues.run` makes the same
    presentations in the same order, the same test at each (``p <= rule.threshold``),
    the same update counts (``rule.repeat_count_function``, the closed form proved equal
    to :func:`repeat_count`'s, or :func:`repeat_count_near` where it does not apply) and
    the same stops. ``values`` holds W (updated in place); ``w2`` is ||W||^2. Returns
    (t, ||W||^2, epochs, converged, why it stopped early or "")."""
    _, s = dataset.scaled_patterns
    natural = order is None or order == "natural"
    presentation = epoch_order(order, dataset.n_samples)

    def search(t: int, p: int, q: int, w2: int, limit: int) -> int:
        return repeat_count_near(rule, t, p, q, w2, s, limit, rule.repeat_guess(t, p, q, w2, s))

    def check(t: int, p: int, q: int, w2: int, n: int, i: int, epoch: int) -> None:
        checker.after_updates(t, p, q, w2, n, f"(sample {i}, epoch {epoch})")

    epochs = (
        (epoch, None if natural else np.asarray(presentation(epoch), dtype=np.intp))
        for epoch in range(first_epoch, first_epoch + max_epochs)
    )
    t, w2, ran, converged, limited = values.run(
        epochs,
        rule.threshold_function(s),
        t=t,
        w2=w2,
        updates=updates,
        max_updates=max_updates,
        count=rule.repeat_count_function(s) if multiple_updates else None,
        search=search,
        before_update=check if checker.cert is not None else None,
    )
    stopped = f"stopped before update {t + 1}: more than max_updates = {max_updates}" if limited else ""
    return t, w2, ran, converged, stopped


class _Engine:
    """The run's state across stages for either engine: W (and the kept values for "integer")."""

    def __init__(self, dataset: Dataset, engine: str) -> None:
        if engine not in ENGINES:
            raise InputError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        Z, _ = dataset.scaled_patterns
        self.dataset = dataset
        self.W = [0] * dataset.dimension
        self.w2 = 0
        self.values = DecisionValues(Z, self.W, dataset.pattern_array) if engine == "integer" else None

    def stage(
        self,
        rule: Rule,
        *,
        order: Order,
        max_epochs: int,
        checker: _Checker,
        multiple_updates: bool,
        t: int,
        first_epoch: int,
        updates: list[tuple[int, int]],
        max_updates: int,
    ) -> tuple[int, int, bool, str]:
        """One stage from the current W; returns (t, epochs, converged, stopped)."""
        if self.values is None:
            self.W, t, epochs, converged, stopped = _run(
                self.dataset,
                rule,
                order=order,
                max_epochs=max_epochs,
                checker=checker,
                multiple_updates=multiple_updates,
                W=self.W,
                t=t,
                first_epoch=first_epoch,
                updates=updates,
                max_updates=max_updates,
            )
            return t, epochs, converged, stopped
        t, self.w2, epochs, converged, stopped = _run_integer(
            self.dataset,
            rule,
            order=order,
            max_epochs=max_epochs,
            checker=checker,
            multiple_updates=multiple_updates,
            values=self.values,
            t=t,
            w2=self.w2,
            first_epoch=first_epoch,
            updates=updates,
            max_updates=max_updates,
        )
        self.W = self.values.weights()
        return t, epochs, converged, stopped

    def min_decision(self) -> int | None:
        """min_i W.Z_i when the engine keeps the values, else None."""
        return None if self.values is None else self.values.minimum()

    @property
    def arithmetic(self) -> tuple[str, ...]:
        """The storages of the kept values, in order ("integer" engine), else ()."""
        return () if self.values is None else tuple(self.values.used)


def _min_decision(dataset: Dataset, W: Sequence[int]) -> int:
    Z, _ = dataset.scaled_patterns
    return min(dot(W, z) for z in Z)


def _end_checks(
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


def _result(
    dataset: Dataset,
    W: list[int],
    t_updates: list[tuple[int, int]],
    epochs: int,
    converged: bool,
    algorithm: str,
    parameters: dict[str, Fraction],
    checks: dict[str, str],
    checker: _Checker,
    stages: list[tuple[Fraction, int, int]] | None = None,
    arithmetic: tuple[str, ...] = (),
) -> LargeMarginRun:
    _, s = dataset.scaled_patterns
    if checker.cert is not None:
        checks = {"D3": f"held at all {checker.d3} updates", **checks}
    return LargeMarginRun(
        weights=tuple(Fraction(v, s) for v in W),
        updates=t_updates,
        epochs=epochs,
        converged=converged,
        invariants_checked=checker.d3 + len(checks),
        algorithm=algorithm,
        parameters=parameters,
        stages=stages or [],
        checks=checks,
        integer_state=(tuple(W), s),
        arithmetic=arithmetic,
    )


def run_pfm(
    dataset: Dataset,
    beta: object,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    max_updates: int = 10**7,
    engine: str = "integer",
) -> LargeMarginRun:
    """Run PFM(beta) exactly from w = 0 (see the module docstring for what is checked).

    The run also stops (converged = False, ``stopped`` says why) before it would pass
    ``max_updates`` updates: a multiple update can be astronomically large when beta
    is close to some ||z_i||.

    With ``multiple_updates`` beta must be below min_i ||z_i|| (else a repeated update
    on some z would never stop: PFM cannot converge then anyway).

    ``engine`` ("integer" or "plain", module docstring) does not change the run.
    """
    b = validate_beta(beta)
    max_epochs = check_max_epochs(max_epochs)
    Z, s = dataset.scaled_patterns
    if multiple_updates and any(b * b * s * s >= dot(z, z) for z in Z):
        raise InputError(
            f"pfm: beta = {b} is not below min ||z_i||; multiple updates would never end "
            "(and PFM cannot converge: every w.z_i <= ||w|| ||z_i|| <= beta ||w||)"
        )
    rule = PFMRule(b)
    state = _Engine(dataset, engine)
    checker = _Checker(certificate, s)
    updates: list[tuple[int, int]] = []
    t, epochs, converged, stopped = state.stage(
        rule,
        order=order,
        max_epochs=max_epochs,
        checker=checker,
        multiple_updates=multiple_updates,
        t=0,
        first_epoch=0,
        updates=updates,
        max_updates=max_updates,
    )
    W = state.W
    checks = _end_checks(dataset, rule, W, t, certificate, True, state.min_decision()) if converged else {}
    result = _result(
        dataset,
        W,
        updates,
        epochs,
        converged,
        "pfm",
        {"beta": b},
        checks,
        checker,
        arithmetic=state.arithmetic,
    )
    result.stopped = stopped
    return result


def run_pdm(
    dataset: Dataset,
    eps: object,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    max_updates: int = 10**7,
    engine: str = "integer",
) -> LargeMarginRun:
    """Run PDM(eps) exactly from w = 0, t = 0 (eps = 1 is the perceptron)."""
    return run_pdm_succ(
        dataset,
        [eps],
        order=order,
        max_epochs=max_epochs,
        certificate=certificate,
        multiple_updates=multiple_updates,
        algorithm="pdm",
        max_updates=max_updates,
        engine=engine,
    )


def run_pdm_succ(
    dataset: Dataset,
    epsilons: Sequence[object],
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    algorithm: str = "pdm-succ",
    max_updates: int = 10**7,
    engine: str = "integer",
) -> LargeMarginRun:
    """PDM with eps_1 > ... > eps_final, each stage continuing from the previous (w, t).

    ``max_epochs`` bounds each stage; a stage that does not converge ends the run
    (converged = False). Epochs are numbered across stages, so an explicit
    per-epoch order continues where the previous stage stopped. D2 is checked at
    the end of every stage, D1 only for the first (its derivation starts at w = 0).
    ``engine`` ("integer" or "plain", module docstring) does not change the run. With a
    certificate, DS1 (PDM-succ's stage ratio bound) is checked on every pair of consecutive
    converged stages it applies to (``checks["DS1 (eps = e)"]``).
    """
    eps_list = parse_epsilons(epsilons)
    max_epochs = check_max_epochs(max_epochs)
    _, s = dataset.scaled_patterns
    state = _Engine(dataset, engine)
    checker = _Checker(certificate, s)
    updates: list[tuple[int, int]] = []
    t, epochs_total = 0, 0
    stages: list[tuple[Fraction, int, int]] = []
    checks: dict[str, str] = {}
    converged, stopped = False, ""
    for k, eps in enumerate(eps_list):
        rule = PDMRule(eps)
        t, epochs, converged, stopped = state.stage(
            rule,
            order=order,
            max_epochs=max_epochs,
            checker=checker,
            multiple_updates=multiple_updates,
            t=t,
            first_epoch=epochs_total,
            updates=updates,
            max_updates=max_updates,
        )
        epochs_total += epochs
        stages.append((eps, t, epochs))
        if not converged:
            break
        stage_checks = _end_checks(dataset, rule, state.W, t, certificate, k == 0, state.min_decision())
        suffix = "" if len(eps_list) == 1 else f" (eps = {eps})"
        checks.update({f"{key}{suffix}": v for key, v in stage_checks.items()})
    if certificate is not None and len(stages) > 1:  # DS1 between consecutive converged stages
        checks.update(check_pdm_succ_ratio(stages, certificate.R2, certificate.gamma2, converged=converged))
    parameters = (
        {"eps": eps_list[-1]} if len(eps_list) == 1 else {f"eps_{i + 1}": e for i, e in enumerate(eps_list)}
    )
    result = _result(
        dataset,
        state.W,
        updates,
        epochs_total,
        converged,
        algorithm,
        parameters,
        checks,
        checker,
        stages,
        state.arithmetic,
    )
    result.stopped = stopped
    return result
