"""The small exact integer kernels of the reference solvers, with CrossHair contracts.

Each kernel decides one thing on integers (or numerator/denominator pairs, since
CrossHair cannot reason about lists of Fractions). The docstrings carry PEP 316
contracts (``pre:``/``post:``) that ``crosshair check`` verifies symbolically
(``novikoff verify --crosshair``); they are ordinary functions otherwise.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

__all__ = [
    "dot",
    "pdm_updates",
    "perceptron_mistake",
    "pfm_updates",
    "repeated_update_count",
    "repeated_update_count_closed_form",
    "update_energy",
    "update_progress",
]


def dot(u: Sequence[int], v: Sequence[int]) -> int:
    """Exact inner product of two integer vectors."""
    return sum(map(operator.mul, u, v))


def perceptron_mistake(w: Sequence[int], z: Sequence[int]) -> bool:
    """The perceptron's update test: w.z <= 0 (ties update)."""
    return dot(w, z) <= 0


def update_energy(w: list[int], z: list[int], r2: int) -> int:
    """||w + z||^2 after an update on a mistake (N2's step).

    pre: len(w) == len(z) <= 3
    pre: sum(a * b for a, b in zip(w, z)) <= 0
    pre: sum(b * b for b in z) <= r2
    post: __return__ <= sum(a * a for a in w) + r2
    """
    new = [a + b for a, b in zip(w, z)]
    return dot(new, new)


def update_progress(w: list[int], z: list[int], p: list[int], g2: int) -> int:
    """p.(w + z) after an update, where p.z >= g2 (N1's step; p plays p* scaled).

    pre: len(w) == len(z) == len(p) <= 3
    pre: sum(a * b for a, b in zip(p, z)) >= g2
    post: __return__ >= sum(a * b for a, b in zip(p, w)) + g2
    """
    new = [a + b for a, b in zip(w, z)]
    return dot(p, new)


def pfm_updates(p: int, w2: int, beta_num: int, beta_den: int) -> bool:
    """PFM's test w.z <= beta ||w|| with p = w.z, w2 = ||w||^2, beta = beta_num/beta_den >= 0,
    decided exactly by the sign split: update if p <= 0, else iff p^2 <= beta^2 w2.

    pre: w2 >= 0 and beta_num >= 0 and beta_den > 0
    post: implies(p <= 0, __return__)
    post: implies(beta_num == 0, __return__ == (p <= 0))
    post: implies(p > 0 and __return__, p * p * beta_den * beta_den <= beta_num * beta_num * w2)
    post: implies(p > 0 and not __return__, p * p * beta_den * beta_den > beta_num * beta_num * w2)
    """
    if p <= 0:
        return True
    return p * p * beta_den * beta_den <= beta_num * beta_num * w2


def pdm_updates(t: int, p: int, w2: int, eps_num: int, eps_den: int) -> bool:
    """PDM's test t (w.z) <= (1 - eps) ||w||^2 with eps = eps_num/eps_den in (0, 1].

    pre: t >= 0 and w2 >= 0 and 0 < eps_num <= eps_den
    post: implies(t == 0, __return__ == (0 <= (eps_den - eps_num) * w2))
    post: implies(eps_num == eps_den, __return__ == (t * p <= 0))
    post: __return__ == (t * p * eps_den <= (eps_den - eps_num) * w2)
    """
    return t * p * eps_den <= (eps_den - eps_num) * w2


def repeated_update_count(t: int, p: int, q: int, w2: int, eps_num: int, eps_den: int) -> int:
    """How many times PDM updates on the same z in a row, by definition: the smallest
    n >= 1 after which the test fails at (w + n z, t + n), given that it holds at (w, t).

    pre: 0 < eps_num <= eps_den and q > 0 and t >= 1 and w2 >= 0
    pre: p * p <= w2 * q
    pre: pdm_updates(t, p, w2, eps_num, eps_den)
    post: __return__ >= 1
    post: __return__ == repeated_update_count_closed_form(t, p, q, w2, eps_num, eps_den)
    """
    n = 1
    while pdm_updates(t + n, p + n * q, w2 + 2 * n * p + n * n * q, eps_num, eps_den):
        n += 1
    return n


def repeated_update_count_closed_form(t: int, p: int, q: int, w2: int, eps_num: int, eps_den: int) -> int:
    """floor(root) + 1 for the positive root of eps q n^2 + (t q - (1 - 2 eps) p) n
    - ((1 - eps) w2 - t p) = 0 (PDM's repeated-update condition), computed exactly with integer roots.

    With eps = e/d the quadratic times d is a n^2 + b n - c with a = e q,
    b = d t q - (d - 2 e) p, c = (d - e) w2 - d t p; the condition holds iff
    a n^2 + b n - c <= 0, so the count is the largest n with that, plus one.
    """
    a = eps_num * q
    b = eps_den * t * q - (eps_den - 2 * eps_num) * p
    c = (eps_den - eps_num) * w2 - eps_den * t * p
    disc = b * b + 4 * a * c
    if disc < 0:
        return 1
    # largest integer n with 2 a n + b <= sqrt(disc)
    n = (math.isqrt(disc) - b) // (2 * a)
    while a * (n + 1) ** 2 + b * (n + 1) - c <= 0:  # floor corrections
        n += 1
    while n >= 0 and a * n * n + b * n - c > 0:
        n -= 1
    return max(n, 0) + 1
