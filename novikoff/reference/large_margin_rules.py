"""The PFM(beta) and PDM(eps) rules as exact integer decisions, and the multiple-update count.

The rules of the PDM paper, decided on integer patterns Z_i = s z_i and integer weights
W = s w (:mod:`novikoff.reference.large_margin` runs them), so p = W.Z_i = s^2 w.z_i and
||W||^2 = s^2 ||w||^2:

- PFM(beta): w.z <= beta ||w||  <=>  p <= (beta s) ||W||, by the sign split of
  :func:`~novikoff.reference.kernels.pfm_updates`;
- PDM(eps): t (w.z) <= (1 - eps) ||w||^2  <=>  t p <= (1 - eps) ||W||^2 (scale-free),
  :func:`~novikoff.reference.kernels.pdm_updates`.

**Why the integer decisions are the rational ones (homogeneity).** With one scale
s > 0 per dataset (the common denominator of its values and the bias), Z_i = s z_i
and, since every run starts at w = 0 and adds whole patterns, W = s w stays an
integer vector. Then p = W.Z_i = s^2 (w.z_i) and ||W||^2 = s^2 ||w||^2, ||W|| =
s ||w||, so: PDM's condition t (w.z) <= (1 - eps) ||w||^2 is the same inequality
multiplied by s^2 > 0 (degree 2 on both sides); PFM's w.z <= beta ||w|| is it
multiplied by s^2 as well, since s^2 (w.z) = p and s^2 beta ||w|| = (beta s) ||W||.
Multiplying an inequality by a positive number does not change its truth, so each
integer decision equals the decision on the exact rationals.

**Multiple updates** (the PDM paper, section 4): on a mistake on z the reference
adds z n times, n the smallest n >= 1 after which the rule's condition fails at
(w + n z, t + n), found from the definition by evaluating the condition
(:func:`repeat_count`, a galloping search: the set of n where the condition holds is
{0, ..., n - 1}, since for PDM it is where a quadratic with positive leading
coefficient eps q is <= 0, and for PFM it is {n : p + n q <= 0} joined to where a
quadratic with leading coefficient q (q - beta^2) > 0 is <= 0, which contains -p/q).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from novikoff.reference.kernels import pdm_updates, pfm_updates

__all__ = ["PDMRule", "PFMRule", "Rule", "repeat_count", "repeat_count_near"]


class _ClosedForms(ABC):
    """What both rules derive from their closed forms (``threshold_function`` and
    ``repeat_count_function``, each proved in its docstring)."""

    @abstractmethod
    def threshold_function(self, s: int) -> Callable[[int, int], int | None]:
        """The rule's threshold as a function of (t, ||w||^2) at scale ``s``."""

    @abstractmethod
    def repeat_count_function(self, s: int) -> Callable[[int, int, int, int], int | None]:
        """The rule's repeated-update count as a function of (t, p, q, ||w||^2) at scale ``s``."""

    def threshold(self, t: int, w2: int, s: int) -> int | None:
        """The integer T with ``updates(t, p, w2, s) == (p <= T)`` for every integer p, or
        None when the test holds for every p (``threshold_function`` proves it)."""
        return self.threshold_function(s)(t, w2)

    def repeat_count_exact(self, t: int, p: int, q: int, w2: int, s: int) -> int | None:
        """:func:`repeat_count`'s n without a search (``repeat_count_function``)."""
        return self.repeat_count_function(s)(t, p, q, w2)


@dataclass(frozen=True)
class PFMRule(_ClosedForms):
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

    def threshold_function(self, s: int) -> Callable[[int, int], int | None]:
        """``threshold`` for this scale as a function of (t, w2), its constants b^2 and c^2
        computed once (the integer engine calls it once per update); never None for PFM.

        With b = beta_num s, c = beta_den: the test is p <= 0 or p^2 c^2 <= b^2 w2,
        and T = isqrt(floor(b^2 w2 / c^2)) >= 0. For p <= 0 both sides hold. For p > 0:
        p^2 c^2 <= b^2 w2 iff p^2 <= b^2 w2 / c^2 iff p^2 <= floor(b^2 w2 / c^2) (p^2 is
        an integer) iff p <= isqrt(floor(b^2 w2 / c^2)) (isqrt(M) is the largest r >= 0
        with r^2 <= M, and p >= 0).
        """
        b, c = self.ints
        bb, cc, isqrt = (b * s) ** 2, c * c, math.isqrt
        return lambda t, w2: isqrt((bb * w2) // cc)

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
class PDMRule(_ClosedForms):
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

    def threshold_function(self, s: int) -> Callable[[int, int], int | None]:
        """``threshold`` as a function of (t, w2) (the test is scale-free: s is unused), its
        constants computed once (the integer engine calls it once per update).

        With eps = e/d the test is t p d <= (d - e) w2. At t = 0 it is 0 <= (d - e) w2,
        true since e <= d and w2 >= 0: None. At t >= 1, t d > 0, so for an integer p it
        is p <= (d - e) w2 / (t d) iff p <= floor((d - e) w2 / (t d)) = T.
        """
        e, d = self.ints
        de = d - e
        return lambda t, w2: (de * w2) // (t * d) if t else None

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
        the positive root of the PDM paper's multiple-update quadratic a n^2 + b n - c (a = e q, b = d t q -
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
