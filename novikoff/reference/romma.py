"""The exact reference ROMMA (Li and Long 2002).

On patterns z (labels folded in): w_1 = 0. The update condition is

- conservative (the default, Li and Long's ROMMA): ``w.z <= 0`` (a mistake; ties update);
- aggressive: ``w.z < 1 - eps`` (Li and Long's aggressive rule is eps = 0; eps > 0 is the
  accuracy-controlled stop used for the PDM paper's comparison, see below).

On an update w becomes the minimum-norm point of {v : v.w >= ||w||^2, v.z >= 1}. With
l = ||w||^2, p = w.z, q = ||z||^2, a = q l - p^2:

- ``p >= q l`` (this includes w = 0, the first update ``w <- z/||z||^2``, and, for the aggressive
  rule only, z along w with p > 0 and the case where the first constraint is slack):
  w <- z/q, the minimum-norm point of the second constraint alone, which satisfies the
  first (kind ``"z"``; ``"start"`` when w = 0);
- else, a > 0: both constraints are tight (kind ``"both"``),
  w <- ((q l - p)/a) w + (l (1 - p)/a) z, the closed form, whose two coefficients are
  then positive;
- else (a = 0 with p < q l: z = c w with c <= 0, or z = 0) the set is empty, which
  certifies that the data are not separable (w is a nonnegative combination of earlier
  patterns): the run stops with ``stopped`` saying so, ``converged = False``.

Size: the exact weights' numerators and denominators double in bit length with every
update (w' = c_w w + c_z z with c_w, c_z built from ||w||^2; measured: 2 million bits after 19
updates on 3-dimensional integer data), so the exact run stops after ``max_updates`` updates
(default :data:`DEFAULT_MAX_UPDATES`) with ``stopped`` saying so; it is a reference for short
runs, and long runs belong to the float twin.

Arithmetic: integer patterns Z_i = s z_i and weights w = W/D with integer W and D > 0, so
every decision is an integer comparison (``W.Z <= 0``; aggressive
``e_d W.Z < (e_d - e_n) D s`` for eps = e_n/e_d) and every update is exact.

Checks (with a separability certificate; computed with :func:`~novikoff.certificates.certify`
when none is given): after every update ``||w'||^2 >= ||w||^2`` and gamma^2 ||w'||^2 <= 1 (w' is
the minimum-norm point of a set that u/gamma satisfies); after a mistake (``w.z <= 0``)
``q (||w'||^2 - ||w||^2) >= (1 - p)^2``; for kind ``"both"`` the closed form's w'.w = ||w||^2 and
w'.z = 1. At the end of every run R1 (mistakes gamma^2 <= R^2, :data:`novikoff.spec.R1`) and, for
aggressive runs with eps > 0, the count bound updates eps^2 gamma^2 <= R^2 (each such update
raises ||w||^2 by more than eps^2/R^2) and, at convergence, the margin min_i w.z_i/||w|| >=
(1 - eps) gamma. Any failure raises :class:`~novikoff.errors.InvariantViolation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from novikoff.certificates import Certificate, SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.kernels import dot
from novikoff.runtime.parameters import exact_parameter
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs, epoch_order
from novikoff.spec.romma import R1

__all__ = [
    "DEFAULT_MAX_EPOCHS",
    "DEFAULT_MAX_UPDATES",
    "RommaRun",
    "romma_step",
    "run_romma",
    "validate_romma_eps",
]

DEFAULT_MAX_EPOCHS = 1000
#: Exact ROMMA's numbers double in size per update: 16 updates mean about 2^16-bit integers.
DEFAULT_MAX_UPDATES = 16


@dataclass
class RommaRun(RunRecord):
    """A ROMMA run: the run record plus the rule, the mistakes among the updates and the checks.

    ``updates`` lists every update; ``mistake_count`` counts those made on ``w.z <= 0``
    (all of them for the conservative rule); ``kinds[k]`` is how update k was computed
    ("start", "z" or "both"); ``checks`` says what was checked at the end and how it came out.
    """

    aggressive: bool = False
    eps: Fraction = Fraction(0)
    mistake_count: int = 0
    kinds: list[str] = field(default_factory=list)
    checks: dict[str, str] = field(default_factory=dict)
    stopped: str = ""
    gamma2: Fraction | None = None


def validate_romma_eps(eps: object, aggressive: bool) -> Fraction:
    """eps as an exact Fraction in [0, 1); InputError otherwise, or if eps > 0 without ``aggressive``."""
    value = exact_parameter(eps, "eps")
    if not 0 <= value < 1:
        raise InputError(f"eps must be in [0, 1), got {value}")
    if value and not aggressive:
        raise InputError("eps > 0 needs the aggressive rule (the conservative rule updates on w.z <= 0)")
    return value


def romma_step(norm2: Fraction, p: Fraction, q: Fraction) -> tuple[str, Fraction, Fraction] | None:
    """The update's kind and coefficients: w' = c_w w + c_z z is the minimum-norm point of
    {v : v.w >= norm2, v.z >= 1} for norm2 = ||w||^2, p = w.z < 1, q = ||z||^2; None if the set is empty.

    Precondition: p < 1 (the update condition of either rule)."""
    if q == 0:
        return None
    if p >= q * norm2:  # z/q satisfies v.w = p/q >= norm2: the first constraint is slack (or w = 0)
        return ("start" if norm2 == 0 else "z"), Fraction(0), 1 / q
    a = q * norm2 - p * p
    if a == 0:  # z = c w, c = p/l; p < q l = c p forces c < 0 (c > 0 would need p > 1)
        return None
    return "both", (q * norm2 - p) / a, norm2 * (1 - p) / a


def _violation(what: str, values: dict[str, object], where: str) -> InvariantViolation:
    return InvariantViolation("R1", what, values, where)


def run_romma(
    dataset: Dataset,
    *,
    aggressive: bool = False,
    eps: object = 0,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: Certificate | None = None,
    max_updates: int = DEFAULT_MAX_UPDATES,
) -> RommaRun:
    """Run exact ROMMA from w_1 = 0 (see the module docstring for the rule and the checks).

    Guarantees: ``updates`` is the exact sequence of (epoch, index) at which the rule's
    condition held; ``converged`` iff an epoch made no update (``epochs`` counts it);
    ``stopped`` is non-empty iff an update found the constraint set empty (not separable)
    or the run reached ``max_updates`` updates with the condition holding again.
    On separable data every check of the module docstring held, else InvariantViolation.

    Args:
        dataset: The exact data.
        aggressive: The aggressive rule (update when ``w.z < 1 - eps``), else the
            conservative one (update on a mistake, ``w.z <= 0``).
        eps: The aggressive rule's eps, exact, in [0, 1) (0 for the conservative rule).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_epochs: The number of passes after which a run that has not converged stops.
        certificate: A certificate of ``dataset``: R1's mistake bound is then checked.
        max_updates: The update budget; the run stops (``stopped``) when it is spent.

    Returns:
        The run record: exact weights, the updates, the mistakes among them, the epochs,
        whether it converged, and why it stopped (empty when it did not stop early).

    Raises:
        InputError: ``eps`` outside [0, 1), ``eps > 0`` without ``aggressive``, or a
            malformed ``order``, ``max_epochs`` or ``max_updates``.
        InvariantViolation: A check of the module docstring failed at an update.

    Examples:
        >>> from novikoff.data.dataset import Dataset
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> run = run_romma(ds)
        >>> run.converged, len(run.updates), run.weights
        (True, 2, (Fraction(2, 1), Fraction(1, 2), Fraction(1, 2)))
        >>> xor = Dataset.from_arrays([[0, 0], [1, 1], [1, 0], [0, 1]], [1, 1, -1, -1], bias=0)
        >>> run_romma(xor).stopped.endswith("the data are not separable")
        True
    """
    max_epochs = check_max_epochs(max_epochs)
    if isinstance(max_updates, bool) or not isinstance(max_updates, int) or max_updates < 0:
        raise InputError(f"max_updates must be an integer >= 0, got {max_updates!r}")
    eps_value = validate_romma_eps(eps, aggressive)
    if certificate is None:
        from novikoff.certificates import certify

        certificate = certify(dataset, geometric=False)
    cert = certificate if isinstance(certificate, SeparableCertificate) else None
    Z, s = dataset.scaled_patterns
    presentation = epoch_order(order, dataset.n_samples)
    e_n, e_d = eps_value.numerator, eps_value.denominator
    W, D = [0] * dataset.dimension, 1
    norm2 = Fraction(0)
    run = RommaRun(
        weights=(),
        updates=[],
        epochs=0,
        converged=False,
        algorithm="romma-aggressive" if aggressive else "romma",
        aggressive=aggressive,
        eps=eps_value,
        gamma2=cert.gamma2 if cert else None,
    )
    checked = 0
    epoch = 0
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            P = dot(W, Z[i])
            hit = e_d * P < (e_d - e_n) * D * s if aggressive else P <= 0
            if not hit:
                continue
            clean = False
            if len(run.updates) >= max_updates:
                run.stopped = (
                    f"update limit {max_updates} reached at epoch {epoch}, sample {i} "
                    "(exact ROMMA's numbers double in size with every update)"
                )
                break
            p, q = Fraction(P, D * s), Fraction(dot(Z[i], Z[i]), s * s)
            step = romma_step(norm2, p, q)
            where = f"update {len(run.updates) + 1} (epoch {epoch}, sample {i})"
            if step is None:
                run.stopped = (
                    f"{where}: the constraints v.w >= ||w||^2, v.z >= 1 have no common point "
                    "(z is a nonpositive multiple of w): the data are not separable"
                )
                break
            kind, cw, cz = step
            c1, c2 = cw / D, cz / s
            D2 = math.lcm(c1.denominator, c2.denominator)
            f1, f2 = c1.numerator * (D2 // c1.denominator), c2.numerator * (D2 // c2.denominator)
            W2 = [f1 * a + f2 * b for a, b in zip(W, Z[i])]
            g = math.gcd(D2, *W2)
            W2, D2 = [v // g for v in W2], D2 // g
            l2 = Fraction(dot(W2, W2), D2 * D2)
            mistake = P <= 0
            run.updates.append((epoch, i))
            run.kinds.append(kind)
            run.mistake_count += mistake
            if cert is not None:
                values: dict[str, object] = {"w_norm2": norm2, "new_w_norm2": l2, "p": p, "q": q}
                if l2 < norm2:
                    raise _violation("||w'||^2 >= ||w||^2", values, where)
                if cert.gamma2 * l2 > 1:
                    raise _violation("gamma^2 ||w'||^2 <= 1", {**values, "gamma2": cert.gamma2}, where)
                if mistake and q * (l2 - norm2) < (1 - p) ** 2:
                    raise _violation("q (||w'||^2 - ||w||^2) >= (1 - p)^2", values, where)
                checked += 3
                if kind == "both":
                    ww = Fraction(dot(W2, W), D2 * D)
                    wz = Fraction(dot(W2, Z[i]), D2 * s)
                    if ww != norm2 or wz != 1:
                        raise _violation("w'.w = ||w||^2 and w'.z = 1", {**values, "ww": ww, "wz": wz}, where)
                    checked += 1
            W, D, norm2 = W2, D2, l2
        if run.stopped:
            break
        if clean:
            run.converged = True
            break
    run.weights = tuple(Fraction(v, D) for v in W)
    run.epochs = epoch + 1
    run.invariants_checked = checked + _end_checks(run, dataset, Z, s, W, D, norm2, cert)
    return run


def _end_checks(
    run: RommaRun,
    dataset: Dataset,
    Z: tuple[tuple[int, ...], ...],
    s: int,
    W: list[int],
    D: int,
    norm2: Fraction,
    cert: SeparableCertificate | None,
) -> int:
    """R1 and, for aggressive eps > 0, the count and margin bounds; records them in ``run.checks``."""
    if cert is None:
        run.checks["R1"] = "not applicable (not separable: no gamma > 0)"
        return 0
    where = f"end of run ({len(run.updates)} updates, {run.mistake_count} mistakes)"
    R1.require({"k": run.mistake_count, "gamma2": cert.gamma2, "R2": cert.R2}, where)
    run.checks["R1"] = f"held: {run.mistake_count} mistakes <= R^2/gamma^2 = {cert.R2 / cert.gamma2}"
    n = 1
    eps = run.eps
    if run.aggressive and eps > 0:
        n += 1
        bound = cert.R2 / (eps * eps * cert.gamma2)
        if len(run.updates) > bound:
            raise _violation(
                "updates eps^2 gamma^2 <= R^2", {"updates": len(run.updates), "bound": bound}, where
            )
        run.checks["updates"] = f"held: {len(run.updates)} updates <= R^2/(eps^2 gamma^2) = {bound}"
        if run.converged:
            n += 1
            low = min(Fraction(dot(W, z), D * s) for z in Z)
            if low <= 0 or low * low < (1 - eps) ** 2 * cert.gamma2 * norm2:
                raise _violation(
                    "min_i w.z_i/||w|| >= (1 - eps) gamma",
                    {"min_wz": low, "w_norm2": norm2, "gamma2": cert.gamma2, "eps": eps},
                    where,
                )
            run.checks["margin"] = "held: min_i w.z_i/||w|| >= (1 - eps) gamma"
    return n
