"""Stochastic gradient descent semantics: an L2 penalty, scikit-learn's "optimal" learning
rate schedule and its ``tol`` stopping rule, with a float64 replica and a rounding bound.

These rules involve irrational numbers (the schedule takes square roots), so their
reference is not the exact run of :func:`novikoff.fuzz.semantics.declared_run`: it is a
*float64 replica* of the rule (:func:`replica_run`, the operations of scikit-learn's
``_plain_sgd`` in its order: a weight vector kept as ``wscale * v``, the intercept apart and
not penalised) together with a running bound on how far any float64 evaluation of the
rule may lie from the real-number run. The rule, per presentation t = 1, 2, ... of sample
(x, y) with p = w.x + b:

* eta_t = the declared constant rate, or (``schedule="optimal"``) 1 / (alpha (t0 + t - 1))
  with t0 = 1 / (eta_0 alpha), eta_0 = sqrt(1 / sqrt(alpha)) (scikit-learn's heuristic for
  a loss whose gradient at p = -eta_0, y = 1 is -1: the hinge and perceptron losses);
* alpha (``l2``), the margin, a constant rate and TOL are taken as the float64 nearest to
  the declared rationals (what an implementation given them in float64 computes with);
* the update condition is the declared tie rule and margin (the hinge loss is margin 1);
* w <- max(0, 1 - eta_t alpha) w (the L2 penalty, alpha = ``l2``), then, when the condition
  holds, w <- w + eta_t y x and b <- b + eta_t y;
* ``stop="tol:TOL:N"``: after each epoch the mean objective (sum over its presentations of
  the hinge loss max(0, margin - y p) plus alpha/2 ||w||^2, divided by m) is compared with
  the best so far: an epoch whose mean is above best - TOL counts, one below resets the
  count; N counting epochs in a row stop the run (scikit-learn's ``n_iter_no_change``).

The bound (stated as proved): while every decision agrees, each weight is a sum of terms
eta_s y_s x_(s,j) prod_(r>s) c_r; a float64 evaluation perturbs each term by its rate's
relative error rho_eta (0 for a constant rate, gamma_12 for the optimal schedule: its
formula takes 12 roundings), each factor c_r by rho_c = u + (eta alpha / c)(rho_eta + u)
(1 + u), and by at most 3T + 3 further roundings (T presentations so far; 2 more per
``wscale`` reset), so |w^_j - w_j| <= F M_j with M_j = sum |term| and F =
(1 + rho_eta)(1 + u)^(3T+4) prod (1 + rho_c) - 1, u = 2^-53; the intercept's error is
((1 + rho_eta)(1 + u)^(T+1) - 1) sum |eta_s|. A decision p against the margin is within
E_p = sum_j E_j |x_j| + E_b + gamma_(d+3) (sum |w_j x_j| + |b|) of the real one, for the
replica and the implementation alike: the decision is *ambiguous* when |y p - margin| <=
2 E_p (2: both sides of the real run). The stop rule's comparison is ambiguous when the
mean objectives differ from best - TOL by at most twice their bound (hinge terms E_p each,
the norm term alpha/2 (2 ||w|| E + E^2 + gamma_(d+5) ||w||^2), gamma_(2m) for the sum).
Bounds are computed in float64 and inflated by 1 + 2^-20, which covers their own rounding.
Outside ambiguity a correct float64 implementation makes exactly the replica's decisions,
and its weights lie within 2 E of the replica's (:attr:`ReplicaRun.weight_error`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError

__all__ = [
    "ReplicaResult",
    "ReplicaRun",
    "optimal_rates",
    "parse_tol_stop",
    "replica_run",
    "replica_tolerance",
    "sklearn_order",
    "sklearn_seed",
]

_U = 2.0**-53
_INFLATE = 1 + 2.0**-20
#: Roundings of scikit-learn's optimal schedule: sqrt, divide, sqrt, divide (eta_0), multiply,
#: divide (t0), two additions, multiply, divide (eta_t), and 2 for the rate's use.
_SCHEDULE_ROUNDINGS = 12
_RESET_BELOW = 1e-9


def _gamma(n: int) -> float:
    return n * _U / (1 - n * _U)


def sklearn_seed(random_state: int) -> int:
    """The shuffle seed scikit-learn's SGD estimators draw from ``random_state``: the second
    draw of ``numpy.random.RandomState(random_state)`` (the first seeds its dataset object),
    ``randint(2^31 - 1)``."""
    rng = np.random.RandomState(random_state)
    rng.randint(1, np.iinfo(np.int32).max)
    return int(rng.randint(np.iinfo(np.int32).max))


def _xorshift(state: int) -> tuple[int, int]:
    """scikit-learn's ``our_rand_r``: (new state, value)."""
    if state == 0:
        state = 1
    state ^= (state << 13) & 0xFFFFFFFF
    state ^= state >> 17
    state ^= (state << 5) & 0xFFFFFFFF
    return state, state % 0x80000000


def sklearn_order(random_state: int, m: int) -> Callable[[int], list[int]]:
    """The presentation order of each epoch under ``--order sklearn:SEED`` (``shuffle=True,
    random_state=SEED``): every epoch shuffles the *current* index array with the same
    Fisher-Yates pass (for i in 0..m-2: j = i + rand() mod (m - i), swap; rand the xorshift
    ``our_rand_r`` restarted from the seed of :func:`sklearn_seed`), so epoch e presents
    P^(e+1) applied to 0..m-1."""
    seed = sklearn_seed(random_state)
    orders: list[list[int]] = []

    def present(epoch: int) -> list[int]:
        while len(orders) <= epoch:
            ind = list(orders[-1]) if orders else list(range(m))
            state = seed
            for i in range(m - 1):
                state, r = _xorshift(state)
                j = i + r % (m - i)
                ind[i], ind[j] = ind[j], ind[i]
            orders.append(ind)
        return orders[epoch]

    return present


def optimal_rates(alpha: float) -> tuple[float, float]:
    """(eta_0, t0) of scikit-learn's optimal schedule, in its float64 operations."""
    typw = math.sqrt(1.0 / math.sqrt(alpha))
    eta0 = typw / max(1.0, 1.0)  # the hinge/perceptron gradient at (y=1, p=-typw) is -1
    return eta0, 1.0 / (eta0 * alpha)


@dataclass
class ReplicaRun:
    """What :func:`replica_run` adds to a :class:`~novikoff.fuzz.semantics.DeclaredRun`:
    ``ambiguous_decisions`` (presentations whose decision lies within the bound),
    ``ambiguous_stop`` (epochs whose stop comparison does), and ``weight_error``: a bound
    on the Euclidean distance between the replica's final weights (bias last) and any
    float64 evaluation's, valid when nothing is ambiguous."""

    ambiguous_decisions: int = 0
    ambiguous_stop: int = 0
    weight_error: float = 0.0


@dataclass
class ReplicaResult:
    """A replica run: final ``weights`` (the floats, exactly), ``updates`` as (epoch, index),
    ``epochs``, ``converged`` (some epoch was clean), ``presentations`` as (epoch, index,
    y p, updated, updates before) and the bound's verdicts ``replica``."""

    weights: tuple[Fraction, ...]
    updates: list[tuple[int, int]]
    epochs: int
    converged: bool
    replica: ReplicaRun
    presentations: list[tuple[int, int, Fraction, bool, int]] = field(default_factory=list)


def _decide(rule: str, margin: float, p: float, y: int) -> bool:
    q = y * p
    if rule == "nonstrict":
        return q <= margin
    if rule == "strict":
        return q < margin
    if rule == "sign-positive":
        return q < 0 or (p == 0 and y < 0)
    return q < 0 or (p == 0 and y > 0)


def _stop_rule(stop: str) -> tuple[float, int] | None:
    parsed = parse_tol_stop(stop)
    return None if parsed is None else (float(parsed[0]), parsed[1])


def parse_tol_stop(stop: str) -> tuple[Fraction, int] | None:
    """(TOL, N) of ``stop="tol:TOL:N"``, None for another stop; InputError when malformed."""
    if not stop.startswith("tol:"):
        return None
    parts = stop.split(":")
    try:
        tol, n = Fraction(parts[1]), int(parts[2])
        if len(parts) != 3 or tol < 0 or n < 1:
            raise ValueError
    except (ValueError, IndexError, ZeroDivisionError):
        raise InputError(f"--stop: expected tol:TOL:N (TOL a rational >= 0, N >= 1), got {stop!r}") from None
    return tol, n


def replica_run(
    ds: Dataset,
    sem: Any,
    present: Callable[[int], Sequence[int]],
    max_epochs: int,
    w0: Sequence[Fraction],
    *,
    trace: bool,
) -> ReplicaResult:
    """The float64 replica of the declared SGD rule on ``ds`` (module docstring), with its
    presentations (``trace``) and the rounding bound's verdicts. ``sem`` is a
    :class:`novikoff.fuzz.semantics.Semantics`; ``present(e)`` is epoch e's order."""
    X, y = ds.to_numpy()
    rows = [[float(v) for v in row] for row in X]
    labels = [int(v) for v in y]
    m, d = X.shape
    alpha = float(sem.l2)
    margin = float(sem.margin)
    optimal = sem.schedule == "optimal"
    eta_const = float(sem.learning_rate)
    if optimal:
        _, t0 = optimal_rates(alpha)
    rho_eta = _gamma(_SCHEDULE_ROUNDINGS) if optimal else 0.0
    stop = _stop_rule(sem.stop)
    wscale = 1.0
    v = [float(a) for a in w0[:d]]
    rho = float(ds.bias)  # the bias input (0: no intercept)
    b = float(w0[d]) if rho else 0.0
    sq = sum(a * a for a in v)
    M = [abs(a) for a in v]  # magnitudes of the terms of each weight
    Mb = abs(b)
    log_c = 0.0  # sum of log1p(rho_c)
    resets = 0
    t = 1.0
    steps = 0
    amb_dec = amb_stop = 0
    seen: list[tuple[int, int, Fraction, bool, int]] = []
    updates: list[tuple[int, int]] = []
    best = math.inf
    best_err = 0.0
    no_improvement = 0
    epochs = 0
    converged = False
    ew = eb = 0.0
    for epoch in range(max_epochs):
        epochs += 1
        clean = True
        obj = obj_mag = obj_err = 0.0
        for i in present(epoch):
            x, yi = rows[i], labels[i]
            inner = 0.0
            for j in range(d):
                inner += v[j] * x[j]
            p = inner * wscale + b * rho
            eta = 1.0 / (alpha * (t0 + t - 1)) if optimal else eta_const
            f = math.expm1(math.log1p(rho_eta) + (3 * steps + 4 + 2 * resets) * math.log1p(_U) + log_c)
            fb = math.expm1(math.log1p(rho_eta) + (steps + 1) * math.log1p(_U))
            E = [f * a for a in M]
            eb = fb * Mb
            wabs = [abs(a * wscale) for a in v]
            ep = _INFLATE * (
                sum(e * abs(c) for e, c in zip(E, x))
                + eb
                + _gamma(d + 3) * (sum((w + e) * abs(c) for w, e, c in zip(wabs, E, x)) + abs(b) + eb)
            )
            update = _decide(sem.tie_rule, margin, p, yi)
            if 0 < ep and abs(yi * p - margin) <= 2 * ep:
                amb_dec += 1
            if trace:
                seen.append((epoch, i, Fraction(yi * p), update, len(updates)))
            if stop is not None:
                z = p * yi
                loss = margin - z if z <= margin else 0.0
                obj += loss
                obj_mag += abs(loss)
                obj_err += ep
                if alpha:
                    norm2 = math.sqrt(sq) ** 2
                    term = alpha * (1.0 * 0.5 * norm2)
                    obj += term
                    obj_mag += term
                    en = math.sqrt(sum(e * e for e in E))
                    nw = math.sqrt(norm2)
                    obj_err += alpha * 0.5 * (2 * nw * en + en * en + _gamma(d + 5) * norm2)
            if alpha:
                c = max(0.0, 1.0 - eta * alpha)
                if c > 0:
                    log_c += math.log1p(_U + (eta * alpha / c) * (rho_eta + _U) * (1 + _U))
                elif abs(1.0 - eta * alpha) <= 2 * eta * alpha * (rho_eta + _U):
                    amb_dec += 1
                wscale *= c
                sq *= c * c
                M = [c * a for a in M]
                if wscale < _RESET_BELOW:
                    v = [a * wscale for a in v]
                    wscale = 1.0
                    resets += 1
            if update:
                step = eta * yi
                for j in range(d):
                    v[j] += x[j] * (step / wscale)
                sq = sum(a * a for a in v) * (wscale * wscale)
                b += step * rho
                M = [a + abs(step * c) for a, c in zip(M, x)]
                Mb += abs(step * rho)
                updates.append((epoch, i))
                clean = False
            t += 1
            steps += 1
        if not all(map(math.isfinite, [*v, b, wscale])):
            raise InputError("the declared SGD rule overflowed float64 on this data")
        if clean:
            converged = True
            if sem.stop == "converged":
                break
        if stop is not None:
            tol, patience = stop
            mean = obj / m
            err = _INFLATE * (obj_err + _gamma(2 * m) * obj_mag) / m + _U * abs(mean)
            if abs(mean - (best - tol)) <= 2 * (err + best_err) and math.isfinite(best):
                amb_stop += 1
            if mean > best - tol:
                no_improvement += 1
            else:
                no_improvement = 0
            if mean < best:
                best, best_err = mean, err
            if no_improvement >= patience:
                break
    weights = [a * wscale for a in v] + ([b] if rho else [])
    f = math.expm1(math.log1p(rho_eta) + (3 * steps + 4 + 2 * resets) * math.log1p(_U) + log_c)
    ew = math.sqrt(sum((f * a) ** 2 for a in M) + eb * eb)
    return ReplicaResult(
        tuple(Fraction(a) for a in weights),
        updates,
        epochs,
        converged,
        ReplicaRun(amb_dec, amb_stop, _INFLATE * 2 * ew),
        seen,
    )


def replica_tolerance(run: Any) -> float:
    """How far in direction (norm of the difference of unit vectors) a float64 evaluation's
    weights may lie from the replica's: 2 ``weight_error`` / ||w|| (at least 1e-9)."""
    norm = float(np.linalg.norm([float(a) for a in run.weights]))
    if norm == 0:
        return 1e-9
    return max(1e-9, 2 * run.replica.weight_error / norm)
