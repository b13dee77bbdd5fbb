"""Certificates of separability (minimum-norm point) and of non-separability (Gordan).

``certify(dataset)`` finds, in exact arithmetic, the minimum-norm point p* of
conv{z_i} (DESIGN section 4) and returns

- a :class:`SeparableCertificate` (lambda, p*, gamma^2 = ||p*||^2, the canonical
  w~ = p*/||p*||^2, R^2 and the bound R^2/gamma^2) when p* != 0, or
- a :class:`GordanCertificate` (lambda >= 0, sum 1, sum lambda_i z_i = 0) when
  the origin is in the hull, i.e. the data are not separable.

Every certificate is re-verified by :func:`novikoff.checker.check_certificate`
before it is returned (``verify=False`` skips that, for the checker's own tests).
With a bias (rho > 0) and both classes present, the separable certificate also
carries the *geometric* margin of the original space with an unregularized bias:
half the distance between the two class hulls, certified the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Hashable, Sequence, Union

import numpy as np

from novikoff.data import Dataset
from novikoff.minnorm import PatternAtoms, min_norm_point

__all__ = [
    "SeparableCertificate",
    "GordanCertificate",
    "GeometricMarginCertificate",
    "Certificate",
    "certify",
]


@dataclass(frozen=True)
class GeometricMarginCertificate:
    """Convex weights ``alpha`` on the positives and ``beta`` on the negatives (input order
    within each class) whose hull points differ by ``v``; ``distance2 = ||v||^2`` and the
    geometric margin is ``sqrt(distance2)/2`` (``margin2 = distance2/4``)."""

    alpha: tuple[Fraction, ...]
    beta: tuple[Fraction, ...]
    v: tuple[Fraction, ...]
    distance2: Fraction

    @property
    def margin2(self) -> Fraction:
        return self.distance2 / 4


@dataclass(frozen=True)
class SeparableCertificate:
    """lambda >= 0, sum 1, p* = sum lambda_i z_i, min_i z_i.p* >= ||p*||^2 > 0."""

    lambdas: tuple[Fraction, ...]
    pstar: tuple[Fraction, ...]
    gamma2: Fraction
    weights: tuple[Fraction, ...]
    R2: Fraction
    bound: Fraction
    geometric: GeometricMarginCertificate | None = None

    separable = True


@dataclass(frozen=True)
class GordanCertificate:
    """lambda >= 0, sum 1, sum lambda_i z_i = 0: no w has w.z_i > 0 for all i."""

    lambdas: tuple[Fraction, ...]
    R2: Fraction

    separable = False


Certificate = Union[SeparableCertificate, GordanCertificate]


def _float_weights(rows: Sequence[Sequence[int]], groups: Sequence[int] | None = None) -> np.ndarray | None:
    """Float guess of min-norm convex weights by one NNLS solve, or None if floats fail.

    With one group, min_{l>=0} ||Z^T l||^2 + (sum l - 1)^2 is solved by
    l = lambda*/(1 + gamma^2), lambda* the min-norm weights, so l/sum(l) estimates
    lambda* (for any row scaling). With two groups (rows x_p and -x_n) a heavy
    penalty keeps the group sums equal, so the normalized weights estimate the
    closest points of the two hulls. Weights are normalized within each group.
    """
    try:
        from scipy.optimize import nnls

        with np.errstate(all="ignore"):
            Z = np.array([[float(v) for v in r] for r in rows], dtype=np.float64)
        if not np.isfinite(Z).all():
            return None
        peak = np.abs(Z).max()
        if peak > 0:
            Z = Z / peak
        g = np.zeros(len(rows), dtype=int) if groups is None else np.asarray(groups)
        labels = np.unique(g)
        ones = [(g == k).astype(np.float64) for k in labels]
        # sum of all weights near len(labels); group sums forced equal by a heavy row
        constraints = [sum(ones)] + [1e4 * (ones[0] - o) for o in ones[1:]]
        A = np.vstack([Z.T] + constraints)
        b = np.zeros(A.shape[0])
        b[Z.shape[1]] = float(len(labels))
        weights, _ = nnls(A, b, maxiter=50 * A.shape[1])
        for k in labels:
            total = weights[g == k].sum()
            if not np.isfinite(total) or total <= 0:
                return None
            weights[g == k] /= total
        return np.asarray(weights)
    except Exception:  # the guess is optional: any float failure means a cold start
        return None


def _warm_pairs(ids: Sequence[Hashable], weights: np.ndarray | None) -> list[tuple[Hashable, float]]:
    if weights is None:
        return []
    top = float(weights.max()) if len(weights) else 0.0
    order = np.argsort(-weights, kind="stable")
    return [(ids[i], float(weights[i])) for i in order if weights[i] > 1e-12 * top]


def certify(dataset: Dataset, *, geometric: bool = True, verify: bool = True) -> Certificate:
    """Exact separability certificate of ``dataset`` (see the module docstring).

    Guarantees: the returned certificate passes the exact checker (unless
    ``verify=False``); lambda has one entry per sample in input order.
    """
    Z, scale = dataset.scaled_patterns
    m = dataset.n_samples
    atoms = PatternAtoms(Z)
    guess = _warm_pairs(list(range(m)), _float_weights(Z))
    start = min(range(m), key=lambda i: sum(v * v for v in Z[i]))
    result = min_norm_point(atoms, start, guess)
    lambdas = [Fraction(0)] * m
    for a, w in zip(result.atoms, result.weights):
        lambdas[a] = w  # type: ignore[index]
    R2 = dataset.R2
    cert: Certificate
    if not any(result.numerator):
        cert = GordanCertificate(tuple(lambdas), R2)
    else:
        den = result.denominator * scale
        pstar = tuple(Fraction(v, den) for v in result.numerator)
        gamma2 = Fraction(sum(v * v for v in result.numerator), den * den)
        weights = tuple(p / gamma2 for p in pstar)
        geo = None
        if geometric and dataset.bias > 0 and len(dataset.classes) == 2:
            geo = geometric_margin(dataset)
        cert = SeparableCertificate(tuple(lambdas), pstar, gamma2, weights, R2, R2 / gamma2, geo)
    if verify:
        from novikoff.checker import check_certificate

        check_certificate(dataset, cert)
    return cert


class _PairAtoms:
    """Atoms x_p - x_n (p positive, n negative): their hull is conv(P) - conv(N)."""

    def __init__(self, rows: Sequence[Sequence[int]], pos: Sequence[int], neg: Sequence[int]) -> None:
        self.rows, self.pos, self.neg = rows, pos, neg
        self._scores = PatternAtoms(rows)

    def vector(self, atom: Hashable) -> Sequence[int]:
        p, n = atom  # type: ignore[misc]
        return [a - b for a, b in zip(self.rows[p], self.rows[n])]

    def lmo(self, direction: Sequence[int]) -> tuple[Hashable, int]:
        s = self._scores.scores(direction)
        p = min(self.pos, key=s.__getitem__)
        n = max(self.neg, key=s.__getitem__)
        return (p, n), s[p] - s[n]


def _northwest_corner(
    pos: Sequence[int], a: np.ndarray, neg: Sequence[int], b: np.ndarray
) -> list[tuple[Hashable, float]]:
    """A transport plan with marginals a, b on at most |P|+|N|-1 pairs (largest first)."""
    i = j = 0
    ra, rb = float(a[0]), float(b[0])
    plan: list[tuple[Hashable, float]] = []
    while i < len(pos) and j < len(neg):
        t = min(ra, rb)
        if t > 0:
            plan.append(((pos[i], neg[j]), t))
        ra -= t
        rb -= t
        if ra <= rb:
            i += 1
            ra = float(a[i]) if i < len(pos) else 0.0
        else:
            j += 1
            rb = float(b[j]) if j < len(neg) else 0.0
    plan.sort(key=lambda pw: -pw[1])
    return plan


def geometric_margin(dataset: Dataset) -> GeometricMarginCertificate | None:
    """Exact distance between the class hulls of the original features, or None
    if they intersect (not separable) or a class is empty."""
    X = dataset.numerators
    pos = [i for i, y in enumerate(dataset.labels) if y == 1]
    neg = [i for i, y in enumerate(dataset.labels) if y == -1]
    if not pos or not neg:
        return None
    atoms = _PairAtoms(X, pos, neg)
    warm: list[tuple[Hashable, float]] = []
    guess = _float_weights(
        [list(X[p]) for p in pos] + [[-v for v in X[n]] for n in neg],
        [0] * len(pos) + [1] * len(neg),
    )
    if guess is not None:
        a, b = guess[: len(pos)], guess[len(pos) :]
        oa, ob = np.argsort(-a, kind="stable"), np.argsort(-b, kind="stable")
        warm = _northwest_corner([pos[i] for i in oa], a[oa], [neg[j] for j in ob], b[ob])
    res = min_norm_point(atoms, (pos[0], neg[0]), warm)
    if not any(res.numerator):
        return None
    alpha = dict.fromkeys(pos, Fraction(0))
    beta = dict.fromkeys(neg, Fraction(0))
    for (p, n), w in zip(res.atoms, res.weights):  # type: ignore[misc]
        alpha[p] += w
        beta[n] += w
    den = res.denominator * dataset.denominator
    v = tuple(Fraction(c, den) for c in res.numerator)
    return GeometricMarginCertificate(
        tuple(alpha.values()), tuple(beta.values()), v, Fraction(sum(c * c for c in res.numerator), den * den)
    )

