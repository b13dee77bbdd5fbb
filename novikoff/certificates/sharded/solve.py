"""Exact certificates of sharded data, found (untrusted) and checked (by the trusted checker).

:func:`sharded_certify` is :func:`~novikoff.certificates.solver.certify` with
``geometric=False`` and :func:`sharded_geometric_margin` is
:func:`~novikoff.certificates.solver.geometric_margin`, on data kept in shards
(:class:`~novikoff.certificates.sharded.data.ShardedData`): the same float warm start
(:class:`~novikoff.certificates.sharded.rows.ShardedRows`), the same exact Wolfe iterations
(:func:`~novikoff.certificates.minnorm.min_norm_point` over
:class:`~novikoff.certificates.sharded.rows.ShardedAtoms`), so the same certificate as on the
concatenated data; the driver holds the corral's rows, lambda and the class weights (one
number per sample), never all the rows. Differences, and when they can arise: the geometric
margin's seeded start sums its rows in another order than the in-memory product, so its
guess may differ in the last bits; the exact solver then still ends at the same point, and at
the same weights unless several weight vectors give it (rows repeated on the closest faces).

:func:`sharded_check` decides with the trusted checker's own functions, run on parts of the
data (the data's facts are each a sum over the support or a max/min over every row):

- the "combination" facts of :func:`~novikoff.certificates.checker.certificate_rejection`
  on the support (the samples with lambda_i != 0; the other weights are 0, so they change
  neither the sum of lambda nor sum lambda_i z_i);
- on every shard, the "minimality" facts of its samples (with the geometric margin's support,
  when there is one) with R^2 set to their own largest ||z_i||^2 (which the checker verifies),
  and here: the claimed R^2 is the largest of those;
- the geometric margin (:func:`~novikoff.certificates.checker.check_geometric_margin`) on
  the support rows, and on the support rows together with each shard's rows. Why that is
  the whole check: with convex weights on the support, ||v||^2 = sum alpha_p x_p.v - sum
  beta_n x_n.v >= a - b, a (b) the least (greatest) score of a support positive (negative);
  the support's check gives a - b >= ||v||^2, so a - b = ||v||^2, and a set holding the
  support passes iff its positives score at least a and its negatives at most b. Every
  shard's set passing is then every positive at least a and every negative at most b: the
  whole data's gap is a - b = ||v||^2.

On each shard the two checks share one FLINT matrix of its samples
(:func:`~novikoff.certificates.checker.prepare_checker`).
The first false fact, by :data:`~novikoff.certificates.checker.REASON_CODES` order, is raised,
as :func:`~novikoff.certificates.checker.check_certificate` raises it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.certificates.checker import (
    CertificateRejected,
    certificate_rejection,
    check_geometric_margin,
    earliest_rejection,
    prepare_checker,
    release_checker,
)
from novikoff.certificates.format import (
    Certificate,
    GeometricMarginCertificate,
    GordanCertificate,
    SeparableCertificate,
)
from novikoff.certificates.minnorm import Atom, min_norm_point
from novikoff.certificates.sharded.data import Block, ShardedData
from novikoff.certificates.sharded.rows import ShardedAtoms, ShardedPairAtoms, ShardedRows
from novikoff.certificates.warm_start import SparseSeed, working_set_min_norm
from novikoff.data.dataset import Dataset
from novikoff.exact.bigdot import big_scale, one_blas_thread
from novikoff.exact.rational import RationalVector

__all__ = [
    "float_guess",
    "sharded_certify",
    "sharded_check",
    "sharded_check_geometric",
    "sharded_geometric_margin",
    "warm_pairs",
]


# ------------------------------------------------------------------------------ the worker side


def _shortest(block: Block) -> tuple[int, int] | None:
    """``(||Z_i||^2, global index)`` of the block's first shortest pattern."""
    if block.ds is None:
        return None
    norms = [sum(v * v for v in row) for row in block.patterns]
    best = min(range(len(norms)), key=norms.__getitem__)
    return norms[best], block.first + best


def _ranks(block: Block, local: Sequence[int]) -> list[int]:
    """The rank of each sample (local positions) among the block's samples of its class."""
    y = block.labels
    cum_pos = np.cumsum(y == 1)
    cum_neg = np.cumsum(y == -1)
    return [int((cum_pos if y[i] == 1 else cum_neg)[i]) - 1 for i in local]


def _members(block: Block, pos: Sequence[int], neg: Sequence[int]) -> tuple[list[int], list[int]]:
    """The global indices of the block's positives (negatives) of these ranks."""
    y = block.labels
    p, n = np.flatnonzero(y == 1), np.flatnonzero(y == -1)
    return [block.first + int(p[r]) for r in pos], [block.first + int(n[r]) for r in neg]


_GeometricPart = tuple[Dataset, list[int], list[int], GeometricMarginCertificate]  # support, alpha, beta


def _checks(
    block: Block, cert: Certificate | None, geo: _GeometricPart | None
) -> tuple[Fraction | None, list[tuple[str, str]]]:
    """The block's part of the check (the module docstring), on its samples and, with ``geo``,
    the geometric margin's support with its weights (the block's weighing 0): the largest
    ||z_i||^2 of those samples and the first false fact of ``cert``'s "minimality" part with R^2
    set to it (which the checker verifies), then of the geometric margin. One FLINT matrix of
    the samples serves both checks."""
    if block.ds is None:
        return None, []
    ds, where = block.ds, f"shard {block.source} (its samples from {block.first}): "
    samples, R2, weights = ds, ds.R2, None
    if geo is not None:
        support, alpha, beta, claim = geo
        samples = Dataset(
            support.numerators + ds.numerators, ds.denominator, support.labels + ds.labels, ds.bias
        )
        R2 = max(R2, support.R2)
        positives = sum(1 for y in ds.labels if y == 1)
        weights = dataclasses.replace(
            claim,
            alpha=RationalVector([*alpha, *[0] * positives], claim.alpha.denominator),
            beta=RationalVector([*beta, *[0] * (ds.n_samples - positives)], claim.beta.denominator),
        )
    found: list[tuple[str, str]] = []
    prepare_checker(samples)
    try:
        if cert is not None:
            rejection = certificate_rejection(samples, dataclasses.replace(cert, R2=R2), "minimality")
            if rejection is not None:
                found.append((rejection.code, where + rejection.fact))
        if weights is not None:
            try:
                check_geometric_margin(samples, weights)
            except CertificateRejected as exc:
                found.append((exc.code, where + exc.fact))
    finally:
        release_checker()
    return R2, found


# ------------------------------------------------------------------------------ finding


def warm_pairs(S: np.ndarray, weights: np.ndarray) -> list[tuple[Atom, float]]:
    """The float guess ``weights`` on the rows ``S`` (ascending) as the exact solver's warm
    start: the rows of weight above 1e-12 of the largest, largest first, equal weights in row
    order (what :func:`~novikoff.certificates.solver.certify` makes of the same guess)."""
    if not weights.size:
        return []
    top = max(float(weights.max()), 0.0)
    order = np.argsort(-weights, kind="stable")
    return [(int(S[i]), float(weights[i])) for i in order if weights[i] > 1e-12 * top]


def float_guess(
    data: ShardedData, view: str, seed: SparseSeed | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The float working-set guess on a view (:class:`~novikoff.certificates.sharded.rows.ShardedRows`):
    ``(S, lam_S)``, or None where :func:`~novikoff.certificates.warm_start.simplex_min_norm` gives
    up on the same rows (the same floats: with one BLAS thread, as it runs)."""
    rows = ShardedRows.open(data, view)
    if rows is None:
        return None
    try:
        with np.errstate(all="ignore"), one_blas_thread():
            return working_set_min_norm(rows, rows.width, seed)
    except (np.linalg.LinAlgError, ValueError, FloatingPointError):  # a guess: a cold start instead
        return None
    finally:
        rows.release()


def sharded_certify(data: ShardedData, *, verify: bool = True) -> Certificate:
    """The main certificate of the sharded data (the module docstring): what
    ``certify(dataset, geometric=False)`` returns for the concatenated data; checked by
    :func:`sharded_check` unless ``verify=False``."""
    m = data.n_samples
    found = float_guess(data, "patterns", None)
    guess = [] if found is None else warm_pairs(*found)
    if guess:
        start = 0
    else:  # the first shortest pattern, as certify starts without a guess
        start = min(s for s in data.each(_shortest) if s is not None)[1]
    result = min_norm_point(ShardedAtoms(data), start, guess)
    weights = dict(zip(result.atoms, result.weights.numerators))
    lambdas = RationalVector([weights.get(i, 0) for i in range(m)], result.weights.denominator)
    cert: Certificate
    if any(result.numerator):
        den = result.denominator * data.scale  # p* = numerator / den
        norm2 = result.norm2_numerator()
        gamma2 = Fraction(norm2, den * den)
        cert = SeparableCertificate(
            lambdas,
            RationalVector(result.numerator, den),
            gamma2,
            RationalVector(big_scale(result.numerator, den), norm2),  # p*/||p*||^2
            data.R2,
            data.R2 / gamma2,
        )
    else:  # not separable: the class hulls meet
        cert = GordanCertificate(lambdas, data.R2)
    if verify:
        sharded_check(data, cert)
    return cert


def _class_positions(data: ShardedData, indices: Sequence[int]) -> list[int]:
    """Each sample's position in the order positives first, then negatives."""
    where = data.locate(indices)
    ranks = data.shards.each(_ranks, [(w,) for w in where])
    total = sum(data.positives)
    out: dict[int, int] = {}
    pos_before = neg_before = 0
    for k, (local, got) in enumerate(zip(where, ranks)):
        for i, r in zip(local, got):
            y = data.sample(data.firsts[k] + i)[1]
            out[data.firsts[k] + i] = pos_before + r if y == 1 else total + neg_before + r
        pos_before += data.positives[k]
        neg_before += data.sizes[k] - data.positives[k]
    return [out[i] for i in indices]


def _class_samples(data: ShardedData, positions: Sequence[int]) -> list[int]:
    """The global index of each position of the order positives first, then negatives."""
    total = sum(data.positives)
    asked: list[tuple[list[int], list[int]]] = [([], []) for _ in data.sizes]
    where: list[tuple[int, int, int]] = []
    pos_before = np.cumsum([0, *data.positives])
    neg_before = np.cumsum([0, *(n - p for n, p in zip(data.sizes, data.positives))])
    for q in positions:
        negative = q >= total
        rank = q - total if negative else q
        prefix = neg_before if negative else pos_before
        k = int(np.searchsorted(prefix, rank, side="right")) - 1
        asked[k][negative].append(int(rank - prefix[k]))
        where.append((k, int(negative), len(asked[k][negative]) - 1))
    got = data.shards.each(_members, asked)
    return [got[k][side][j] for k, side, j in where]


def _northwest(
    pos: Sequence[int], a: Sequence[float], neg: Sequence[int], b: Sequence[float]
) -> list[tuple[Atom, float]]:
    """The north-west-corner transport plan between the weights ``a`` of ``pos`` and ``b`` of
    ``neg`` (in that order): pairs of positive mass, largest first."""
    plan: list[tuple[Atom, float]] = []
    i = j = 0
    ra, rb = (a[0] if a else 0.0), (b[0] if b else 0.0)  # what the current pair has left
    while i < len(pos) and j < len(neg):
        moved = min(ra, rb)
        if moved > 0:
            plan.append(((pos[i], neg[j]), moved))
        ra, rb = ra - moved, rb - moved
        if ra <= rb:
            i += 1
            ra = a[i] if i < len(pos) else 0.0
        else:
            j += 1
            rb = b[j] if j < len(neg) else 0.0
    return sorted(plan, key=lambda pw: -pw[1])


def sharded_geometric_margin(
    data: ShardedData, seed: SeparableCertificate | None = None
) -> GeometricMarginCertificate | None:
    """The geometric margin of the sharded data: what
    :func:`~novikoff.certificates.solver.geometric_margin` returns on the concatenated data
    (None when a class is empty or the hulls meet), seeded with ``seed``'s support; unchecked
    (:func:`sharded_check` checks it with the certificate it belongs to)."""
    total = sum(data.positives)
    if total in (0, data.n_samples):
        return None
    first_pos, first_neg = _class_samples(data, [0, total])
    sparse = None
    if seed is not None:
        support = [i for i, n in enumerate(seed.lambdas.numerators) if n]
        values = np.array([seed.lambdas.numerators[i] / seed.lambdas.denominator for i in support])
        positions = np.array(_class_positions(data, support), dtype=np.int64)
        order = np.argsort(positions)
        positions, values = positions[order], values[order]
        sums = [float(values[positions < total].sum()), float(values[positions >= total].sum())]
        if all(t > 0 for t in sums):  # weight in both classes, as the in-memory seed needs
            sparse = SparseSeed(positions, values / np.where(positions < total, sums[0], sums[1]))
    found = float_guess(data, "classes", sparse)
    warm: list[tuple[Atom, float]] = []
    if found is not None:
        S, lam = found
        keep = lam > 0
        S, lam = S[keep], lam[keep]
        samples = _class_samples(data, S.tolist())
        p, n = S < total, S >= total
        op, on = np.argsort(-lam[p], kind="stable"), np.argsort(-lam[n], kind="stable")
        ps, ns = np.array(samples)[p][op], np.array(samples)[n][on]
        warm = _northwest(ps.tolist(), lam[p][op].tolist(), ns.tolist(), lam[n][on].tolist())
    res = min_norm_point(ShardedPairAtoms(data), (first_pos, first_neg), warm)
    if not any(res.numerator):
        return None
    used = sorted({i for pair in res.atoms for i in pair})
    rank = dict(zip(used, _class_positions(data, used)))
    alpha, beta = [0] * total, [0] * (data.n_samples - total)
    for (p_i, n_i), w in zip(res.atoms, res.weights.numerators):
        alpha[rank[p_i]] += w
        beta[rank[n_i] - total] += w
    q = res.weights.denominator
    den = res.denominator * data.denominator
    return GeometricMarginCertificate(
        RationalVector(alpha, q),
        RationalVector(beta, q),
        RationalVector(res.numerator, den),
        Fraction(res.norm2_numerator(), den * den),
    )


# ------------------------------------------------------------------------------ checking


def sharded_check(data: ShardedData, cert: Certificate) -> None:
    """Raise the checker's CertificateRejected for the first false fact of ``cert`` (its
    geometric margin included) on the sharded data, or return: the module docstring says how
    the checker's functions decide it part by part."""
    first = earliest_rejection(
        _rejections(data, cert, cert.geometric if isinstance(cert, SeparableCertificate) else None)
    )
    if first is not None:
        raise first


def sharded_check_geometric(data: ShardedData, geo: GeometricMarginCertificate) -> None:
    """:func:`~novikoff.certificates.checker.check_geometric_margin` on the sharded data (the
    module docstring says how its parts decide it): raise the first false fact, or return."""
    first = earliest_rejection(_rejections(data, None, geo))
    if first is not None:
        raise first


def _rejections(
    data: ShardedData, cert: Certificate | None, geo: GeometricMarginCertificate | None
) -> list[CertificateRejected | None]:
    """The first false fact of each part: here, the combinations on the supports (and the
    lengths); on the shards, the rest."""
    out: list[CertificateRejected | None] = []
    light: Any = None
    if cert is not None:
        lam = cert.lambdas
        if len(lam) != data.n_samples:
            return [CertificateRejected("lambda-length", f"{len(lam)} weights for {data.n_samples} samples")]
        support = [i for i, c in enumerate(lam.numerators) if c] or [0]  # a zero weight: the sum is wrong
        part: Any = dataclasses.replace(
            cert, lambdas=RationalVector([lam.numerators[i] for i in support], lam.denominator)
        )
        light = dataclasses.replace(cert, lambdas=RationalVector([1]))  # minimality reads p* and R^2 only
        if isinstance(cert, SeparableCertificate):
            part = dataclasses.replace(part, geometric=None)
            light = dataclasses.replace(light, geometric=None)
        out.append(certificate_rejection(data.subset(support, "support"), part, "combination"))
    geo_part = None
    if geo is not None:
        found_part = _geometric_support(data, geo)
        if isinstance(found_part, CertificateRejected):  # the other facts are still checked
            out.append(found_part)
        else:
            geo_part = found_part
            try:
                check_geometric_margin(geo_part[0], geo_part[3])
            except CertificateRejected as exc:
                out.append(exc)
    found = data.each(_checks, light, geo_part)
    out += [CertificateRejected(*f) for _, facts in found for f in facts]
    if cert is not None:
        largest = max(R2 for R2, _ in found if R2 is not None)
        if cert.R2 != largest:
            out.append(CertificateRejected("radius", f"R^2 claimed {cert.R2}, actual {largest}"))
    return out


def _geometric_support(
    data: ShardedData, geo: GeometricMarginCertificate
) -> _GeometricPart | CertificateRejected:
    """The geometric margin restricted to its support: the support's samples (positives, then
    negatives), their weights and the claim on them; or the rejection of the weights' lengths."""
    total = sum(data.positives)
    alpha, beta = _vector(geo.alpha), _vector(geo.beta)
    if len(alpha) != total or len(beta) != data.n_samples - total:
        return CertificateRejected("geometric-length", "geometric margin: wrong number of class weights")
    a_at = [r for r, c in enumerate(alpha.numerators) if c] or [0]  # a zero weight: the sum is wrong
    b_at = [r for r, c in enumerate(beta.numerators) if c] or [0]
    support = data.subset(_class_samples(data, [*a_at, *(total + r for r in b_at)]), "support")
    a = [alpha.numerators[r] for r in a_at]
    b = [beta.numerators[r] for r in b_at]
    claim = dataclasses.replace(
        geo, alpha=RationalVector(a, alpha.denominator), beta=RationalVector(b, beta.denominator)
    )
    return support, a, b, claim


def _vector(values: Sequence[object]) -> RationalVector:
    return values if isinstance(values, RationalVector) else RationalVector.from_values(values)
