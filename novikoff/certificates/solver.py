"""The untrusted solver: certificates of separability (minimum-norm point) and of
non-separability (Gordan).

``certify(dataset)`` finds, in exact arithmetic, the minimum-norm point p* of
conv{z_i} and returns

- a :class:`~novikoff.certificates.format.SeparableCertificate` (lambda, p*,
  gamma^2 = ||p*||^2, the canonical w~ = p*/||p*||^2, R^2 and the bound R^2/gamma^2)
  when p* != 0, or
- a :class:`~novikoff.certificates.format.GordanCertificate` (lambda >= 0, sum 1,
  sum lambda_i z_i = 0) when the origin is in the hull, i.e. the data are not separable.

Nothing here is trusted: every certificate is re-verified by
:func:`novikoff.certificates.checker.check_certificate` before it is returned
(``verify=False`` skips that, for the checker's own tests). With a bias (rho > 0) and
both classes present, the separable certificate also carries the *geometric* margin of
the original space with an unregularized bias: half the distance between the two class
hulls, certified the same way. :func:`certificate_document` adds the data binding and,
optionally, a perceptron run: what ``novikoff certify --certificate FILE`` writes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction

import flint
import numpy as np

from novikoff.certificates.checker import (
    CertificateRejected,
    certificate_rejection,
    check_certificate,
    check_geometric_margin,
    checker_prepared,
    earliest_rejection,
    prepare_checker,
    release_checker,
)
from novikoff.certificates.format import (
    Certificate,
    CertificateDocument,
    DatasetBinding,
    GeometricMarginCertificate,
    GordanCertificate,
    NonseparableBoundClaim,
    PerceptronRun,
    SeparableCertificate,
    check_order,
)
from novikoff.certificates.minnorm import Atom, PatternAtoms, min_norm_point
from novikoff.certificates.warm_start import simplex_min_norm
from novikoff.data.dataset import Dataset
from novikoff.exact.bigdot import big_scale
from novikoff.exact.rational import RationalVector
from novikoff.runtime.parallel import Beside, beside
from novikoff.runtime.runs import RunRecord

__all__ = [
    "GeometricMarginStarted",
    "certificate_document",
    "certify",
    "check_on_two_cores",
    "geometric_margin",
    "start_certify",
    "start_check_on_two_cores",
]


def _float_weights(
    rows: Sequence[Sequence[int]] | np.ndarray,
    groups: Sequence[int] | None = None,
    start: Sequence[float] | None = None,
) -> np.ndarray | None:
    """Float guess of the min-norm convex weights (one group: the patterns' hull; two groups:
    the rows x_p and -x_n, each group's weights summing to 1, the closest points of the two
    class hulls), or None if floats fail: :func:`~novikoff.certificates.warm_start.simplex_min_norm`,
    one pass over the rows per round, seeded with ``start`` when given. Only a warm start:
    the exact solver decides."""
    try:
        with np.errstate(all="ignore"):
            Z = np.asarray(rows, dtype=np.float64).reshape(len(rows), -1)
        return simplex_min_norm(
            Z,
            None if groups is None else np.asarray(groups),
            start=None if start is None else np.asarray(start, dtype=np.float64),
        )
    except Exception:  # the guess is optional: any float failure (values beyond float64...) is a cold start
        return None


def _warm_pairs(ids: Sequence[Atom], weights: np.ndarray | None) -> list[tuple[Atom, float]]:
    if weights is None:
        return []
    top = float(weights.max()) if len(weights) else 0.0
    order = np.argsort(-weights, kind="stable")
    return [(ids[i], float(weights[i])) for i in order if weights[i] > 1e-12 * top]


_PARALLEL_SIZE = 100_000  # m * dimension above which the geometric margin runs beside


#: Called with the main certificate's float guess (one weight per sample, or None when
#: floats failed) before its exact part starts; see :func:`certify`.
GuessHook = Callable[[Sequence[float] | None], object]


def certify(
    dataset: Dataset, *, geometric: bool = True, verify: bool = True, on_guess: GuessHook | None = None
) -> Certificate:
    """Exact separability certificate of ``dataset`` (see the module docstring).

    Guarantees: the returned certificate passes the exact checker (unless
    ``verify=False``); lambda has one entry per sample in input order. ``on_guess`` is
    called once with the float guess of the main certificate's weights as soon as it is
    known (before the exact work): e.g. to start the geometric margin beside, seeded with
    it (:class:`GeometricMarginStarted`), when ``geometric`` is False.

    Args:
        dataset: The exact data.
        geometric: Also find the geometric margin (the maximum-margin direction's margin).
        verify: Check the certificate with the trusted checker before returning it.
        on_guess: Called with the float guess of the weights before the exact work.

    Returns:
        A :class:`~novikoff.certificates.format.SeparableCertificate` (p*, gamma^2, R^2 and
        Novikoff's bound R^2/gamma^2) when ``dataset`` is linearly separable through the
        origin, else a :class:`~novikoff.certificates.format.GordanCertificate` (a convex
        combination of the signed samples equal to zero).

    Raises:
        CertificateRejected: With ``verify``, the exact checker rejected what the solver
            found (a solver bug: the certificate is never returned unchecked).

    Examples:
        >>> from novikoff.data.dataset import Dataset
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> cert = certify(ds)
        >>> cert.gamma2, cert.R2, cert.bound
        (Fraction(2, 9), Fraction(6, 1), Fraction(27, 1))
        >>> xor = Dataset.from_arrays([[0, 0], [1, 1], [1, 0], [0, 1]], [1, 1, -1, -1], bias=0)
        >>> type(certify(xor)).__name__
        'GordanCertificate'
    """
    _, complete = start_certify(dataset, geometric=geometric, verify=verify, on_guess=on_guess)
    return complete()


def start_certify(
    dataset: Dataset, *, geometric: bool = True, verify: bool = True, on_guess: GuessHook | None = None
) -> tuple[Certificate, Callable[[], Certificate]]:
    """:func:`certify` in two steps, so that the caller can work while the other core still
    checks and finds: ``(main, complete)`` where ``main`` is the certificate without its
    geometric margin and ``complete()`` returns what :func:`certify` returns, raising as it
    would. On large data (from 100,000 samples x coordinates) ``main``'s check may still
    be running on the other core (:func:`start_check_on_two_cores`): do not trust ``main``
    before ``complete()`` has returned (it finishes that check first, then waits for the
    geometric margin); on smaller data ``main`` is checked already. ``complete()`` may be
    called again (the same certificate). The checker's matrix is released at the end unless
    the caller had prepared it for ``dataset`` (then the caller releases it)."""
    kept = checker_prepared(dataset)  # the caller's, kept for its own checks after this
    try:
        return _certify(dataset, geometric, verify, on_guess)
    finally:
        if not kept:
            release_checker()  # the checker's matrix, if prepared below (children keep theirs)


_Started = tuple[Certificate, Callable[[], Certificate]]  # the main certificate, and its completion


def _certify(dataset: Dataset, geometric: bool, verify: bool, on_guess: GuessHook | None) -> _Started:
    Z, scale = dataset.scaled_patterns
    array = dataset.pattern_array  # Z as int64, converted once, before the fork (None beyond int64)
    m = dataset.n_samples
    large = m * dataset.dimension >= _PARALLEL_SIZE
    if verify and large:
        prepare_checker(dataset)  # the checks' FLINT matrix, shared by every process forked below
    atoms = PatternAtoms(Z, array=array)
    weights = _float_weights(Z if array is None else array)
    seed = None if weights is None else weights.tolist()
    if on_guess is not None:
        on_guess(seed)
    # the geometric margin beside the exact work, seeded with the guess's support; cancelled
    # (its child killed) if the data turn out not separable
    pending = GeometricMarginStarted(dataset, verify=verify, seed_weights=seed) if geometric else None
    guess = _warm_pairs(list(range(m)), weights)
    # the start atom matters only without a warm start
    start = 0 if guess else min(range(m), key=lambda i: sum(v * v for v in Z[i]))
    result = min_norm_point(atoms, start, guess)
    numerators = [0] * m
    for a, w in zip(result.atoms, result.weights.numerators):
        numerators[a] = w
    lambdas = RationalVector(numerators, result.weights.denominator)
    R2 = dataset.R2
    if not any(result.numerator):  # not separable: the class hulls meet, no geometric margin
        if pending is not None:
            pending.cancel()
        gordan = GordanCertificate(lambdas, R2)
        if verify:
            check_certificate(dataset, gordan)
        return gordan, lambda: gordan
    den = result.denominator * scale  # p* = numerator / den
    norm2 = result.norm2_numerator()
    gamma2 = Fraction(norm2, den * den)
    # w~ = p*/||p*||^2 = numerator * den / norm2
    weights_tilde = RationalVector(big_scale(result.numerator, den), norm2)
    pstar = RationalVector(result.numerator, den)
    cert = SeparableCertificate(lambdas, pstar, gamma2, weights_tilde, R2, R2 / gamma2)
    finish_check: Callable[[], None] | None = None
    if verify:
        if large:
            finish_check = start_check_on_two_cores(dataset, cert)
        else:
            check_certificate(dataset, cert)
    done: list[Certificate] = []

    def complete() -> Certificate:
        if not done:
            if finish_check is not None:
                finish_check()
            geo = None if pending is None else pending.result()
            done.append(cert if geo is None else dataclasses.replace(cert, geometric=geo))
        return done[0]

    return cert, complete


class GeometricMarginStarted:
    """The geometric margin :func:`certify` attaches (rho > 0, both classes, hulls apart),
    started at construction: on data from 100,000 samples x coordinates it is found, and
    with ``verify`` checked by the exact checker, in a forked child (after
    :func:`~novikoff.certificates.checker.prepare_checker`, so that the child shares the
    checker's matrix; :func:`certify` releases it), else here when :meth:`result` is
    called.

    ``seed`` is the dataset's main certificate, when known: a Gordan certificate means the
    augmented data are not separable, so the class hulls meet and nothing is started (the
    result is None); a separable one seeds the float guess with its support (the two
    problems' supports are usually the same rows). ``seed_weights`` (one float per sample,
    e.g. the main certificate's float guess, known before its exact part) seeds it the same
    way. Without a seed the margin is found from scratch (and, on data that are not
    separable, found to be None). :meth:`cancel` says the hulls meet after all: the child,
    if any, is killed at once and the result is None."""

    def __init__(
        self,
        dataset: Dataset,
        *,
        verify: bool = True,
        seed: Certificate | None = None,
        seed_weights: Sequence[float] | None = None,
    ) -> None:
        self.dataset, self.verify = dataset, verify
        self.wanted = (
            dataset.bias > 0 and len(dataset.classes) == 2 and not isinstance(seed, GordanCertificate)
        )
        self.seed = _seed_weights(seed) if isinstance(seed, SeparableCertificate) else seed_weights
        self._child: Beside[GeometricMarginCertificate | None] | None = None
        self._done: list[GeometricMarginCertificate | None] = []
        if self.wanted and dataset.n_samples * dataset.dimension >= _PARALLEL_SIZE:
            if verify:
                prepare_checker(dataset)
            _ = dataset.scaled_patterns, dataset.pattern_array  # cached: made once, before the fork
            # if the child fails, both are done here when the result is asked for
            self._child = beside(self._find)

    def _find(self) -> GeometricMarginCertificate | None:
        """The margin found here (and checked when ``verify``)."""
        geo = geometric_margin(self.dataset, self.seed)
        if geo is not None and self.verify:
            check_geometric_margin(self.dataset, geo)
        return geo

    def result(self) -> GeometricMarginCertificate | None:
        """The geometric margin (checked when ``verify``), or None when certify attaches none;
        raises CertificateRejected as :func:`certify` would. The same value on every call."""
        if not self._done:
            if self._child is not None:
                self._done.append(self._child())
            elif self.wanted:
                self._done.append(self._find())
            else:
                self._done.append(None)
        return self._done[0]

    def cancel(self) -> None:
        """The hulls meet (the main certificate is a Gordan one): kill the child, if one runs,
        and make the result None, without computing anything."""
        if not self._done:
            if self._child is not None:
                self._child.cancel()
            self._done.append(None)


def check_on_two_cores(dataset: Dataset, cert: Certificate) -> None:
    """:func:`~novikoff.certificates.checker.check_certificate`, its two independent parts
    (:data:`~novikoff.certificates.checker.CERTIFICATE_PARTS`) checked at the same time: the
    "minimality" part in a forked child (or here, if that fails), the "combination" part
    here. Raises the same CertificateRejected (the first false fact) as the one-core check."""
    start_check_on_two_cores(dataset, cert)()


def start_check_on_two_cores(dataset: Dataset, cert: Certificate) -> Callable[[], None]:
    """:func:`check_on_two_cores` up to the combination part's verdict (found here, kept);
    the callable returned waits for the minimality part and raises the first false fact,
    if any (call it once, before trusting ``cert``)."""
    other = beside(_part_rejection, dataset, cert, "minimality")
    first = certificate_rejection(dataset, cert, "combination")

    def finish() -> None:
        found = other()
        rejection = earliest_rejection([first, None if found is None else CertificateRejected(*found)])
        if rejection is not None:
            raise rejection

    return finish


def _part_rejection(dataset: Dataset, cert: Certificate, part: str) -> tuple[str, str] | None:
    """``(code, fact)`` of the first false fact of ``part`` (picklable), or None."""
    rejection = certificate_rejection(dataset, cert, part)
    return None if rejection is None else (rejection.code, rejection.fact)


def _seed_weights(cert: SeparableCertificate) -> list[float]:
    """The main certificate's lambda as floats (one per sample): the geometric margin's seed."""
    lam = cert.lambdas
    return [n / lam.denominator if n else 0.0 for n in lam.numerators]


class _PairAtoms:
    """Atoms x_p - x_n (p positive, n negative): their hull is conv(P) - conv(N)."""

    def __init__(self, features: PatternAtoms, pos: Sequence[int], neg: Sequence[int]) -> None:
        self.features, self.pos, self.neg = features, pos, neg

    def vector(self, atom: Atom) -> Sequence[int]:
        p, n = atom
        rows = self.features.rows
        return [a - b for a, b in zip(rows[p], rows[n])]

    def gram_matrix(self, ids: Sequence[Atom]) -> flint.fmpz_mat:
        G = self.gram_array(ids)
        if G is not None:
            return flint.fmpz_mat(G.tolist())
        V = flint.fmpz_mat([self.vector(a) for a in ids])
        return V * V.transpose()

    def gram_array(self, ids: Sequence[Atom]) -> np.ndarray | None:
        X = self.features.array
        if X is not None and float(np.abs(X).max(initial=0)) ** 2 * 4 * X.shape[1] < 2**53:
            D = X[[p for p, _ in ids]] - X[[n for _, n in ids]]  # exact small integers
            return (D @ D.T).astype(np.int64)  # exact below 2^53
        return None

    def combine(self, ids: Sequence[Atom], coeffs: Sequence[int]) -> list[int]:
        flat: list[Atom] = []
        signed: list[int] = []
        for (p, n), c in zip(ids, coeffs):
            flat += [p, n]
            signed += [c, -c]
        return self.features.combine(flat, signed)

    def lmo(self, direction: Sequence[int]) -> tuple[Atom, int]:
        s = self.features.scores(direction)
        p = min(self.pos, key=s.__getitem__)
        n = max(self.neg, key=s.__getitem__)
        return (p, n), s[p] - s[n]


def _northwest_corner(
    pos: Sequence[int], a: np.ndarray, neg: Sequence[int], b: np.ndarray
) -> list[tuple[Atom, float]]:
    """A transport plan with marginals a, b on at most |P|+|N|-1 pairs (largest first)."""
    i = j = 0
    ra, rb = float(a[0]), float(b[0])
    plan: list[tuple[Atom, float]] = []
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


def geometric_margin(
    dataset: Dataset, seed: Sequence[float] | None = None
) -> GeometricMarginCertificate | None:
    """Exact distance between the class hulls of the original features, or None
    if they intersect (not separable) or a class is empty. ``seed`` (one nonnegative float
    per sample, e.g. the main certificate's lambda) only seeds the float guess: the exact
    minimum-norm point decides, whatever the seed."""
    X = dataset.numerators
    pos = [i for i, y in enumerate(dataset.labels) if y == 1]
    neg = [i for i, y in enumerate(dataset.labels) if y == -1]
    if not pos or not neg:
        return None
    # Z_i = y_i (k X_i, r) with k = scale / denominator: when k = 1 its first columns are
    # y_i X_i, so X and the reflected rows come from the int64 array the certificate used
    Z = dataset.pattern_array
    _, scale = dataset.scaled_patterns
    if Z is not None and scale == dataset.denominator:
        reflected = Z[:, : dataset.n_features]
        features = reflected * np.array(dataset.labels, dtype=np.int64)[:, None]
        atoms = _PairAtoms(PatternAtoms(X, array=features), pos, neg)
        rows: Sequence[Sequence[int]] | np.ndarray = np.vstack([reflected[pos], reflected[neg]])
    else:  # other scales, or entries beyond int64
        atoms = _PairAtoms(PatternAtoms(X), pos, neg)
        rows = [list(X[p]) for p in pos] + [[-v for v in X[n]] for n in neg]
    warm: list[tuple[Atom, float]] = []
    start = None if seed is None else [seed[i] for i in pos] + [seed[i] for i in neg]
    guess = _float_weights(rows, [0] * len(pos) + [1] * len(neg), start)
    if guess is not None:
        a, b = guess[: len(pos)], guess[len(pos) :]
        oa, ob = np.argsort(-a, kind="stable"), np.argsort(-b, kind="stable")
        warm = _northwest_corner([pos[i] for i in oa], a[oa], [neg[j] for j in ob], b[ob])
    res = min_norm_point(atoms, (pos[0], neg[0]), warm)
    if not any(res.numerator):
        return None
    alpha = dict.fromkeys(pos, 0)
    beta = dict.fromkeys(neg, 0)
    for (p, n), w in zip(res.atoms, res.weights.numerators):
        alpha[p] += w
        beta[n] += w
    q = res.weights.denominator
    den = res.denominator * dataset.denominator
    return GeometricMarginCertificate(
        RationalVector(alpha.values(), q),
        RationalVector(beta.values(), q),
        RationalVector(res.numerator, den),
        Fraction(res.norm2_numerator(), den * den),
    )


def certificate_document(
    dataset: Dataset,
    cert: Certificate,
    run: RunRecord | None = None,
    order: str = "natural",
    nonseparable_bound: NonseparableBoundClaim | None = None,
) -> CertificateDocument:
    """The certificate file's content for ``cert`` on ``dataset``: the data binding
    (sizes, bias, digest), the certificate and, when given, the exact perceptron ``run``
    made in presentation ``order`` (``"natural"`` or ``"shuffle:SEED"``). Guarantees: the
    run's weights are kept exactly (an InputError if they are not exact numbers), and the
    order is one the format reads (:func:`~novikoff.certificates.format.check_order`).
    ``nonseparable_bound`` (a Freund-Schapire bound on a run, e.g.
    :meth:`novikoff.reference.nonseparable.NonseparableBound.claim`) makes it a version-2
    document; it is written as given (the checker verifies it)."""
    perceptron = None
    if run is not None:
        perceptron = PerceptronRun(
            check_order(order),
            run.epochs,
            run.converged,
            run.mistakes,
            RationalVector.from_values(run.weights),
        )
    if nonseparable_bound is not None:
        check_order(nonseparable_bound.order, "nonseparable_bound.order")
    return CertificateDocument(DatasetBinding.of(dataset), cert, perceptron, nonseparable_bound)
