"""Declared semantics: what real perceptron implementations legitimately differ in, each
with its exact reference.

``novikoff diff`` compares an implementation with the textbook perceptron (w_0 = 0,
update w <- w + z iff w.z <= 0, z = y (x, 1), stop after an epoch without an update,
at most max_epochs epochs, float64). Implementations that differ *by design* declare
how (:class:`Semantics`, the ``diff`` options ``--tie-rule``, ``--margin``,
``--learning-rate``, ``--initial-weights``, ``--order``, ``--stop`` and
``--precision``); the reference then runs their rule exactly (:func:`declared_run`), so
a difference inside the declared semantics is no finding and a difference outside it is
a bug.

Guarantees of :func:`declared_run`: every decision is an exact integer comparison (the
weights are kept as integers over one common denominator), so the run is the exact run
of the declared rule on the exact data (for ``precision="float32"``: on the inputs
rounded to float64 and then to float32, as ``(float)(double)x`` does). With the default
semantics it is the run of :func:`novikoff.twins.exact.exact_perceptron` (a test checks
this on generated data).

:func:`float_exact` says whether floating point of the declared precision carries out a
declared run exactly (then any difference is a bug); :func:`ambiguous` whether some
decision of it lies within the rounding bound of evaluating it (then a difference may be
rounding). :func:`shuffle_v1` is the documented shuffle protocol of ``--order
shuffle-v1:SEED``, short enough to reimplement in any language (docs/howto/protocol.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
from novikoff.fuzz.sgd import ReplicaRun, parse_tol_stop, replica_run, replica_tolerance, sklearn_order
from novikoff.runtime.runs import RunRecord, epoch_order

__all__ = [
    "DECLARABLE",
    "DEFAULT",
    "ORDERS",
    "PRECISIONS",
    "SCHEDULES",
    "STOPS",
    "TIE_RULES",
    "DeclaredRun",
    "Presentation",
    "Semantics",
    "alternatives",
    "ambiguous",
    "declared_run",
    "direction_tolerance",
    "fits_in_bits",
    "float32_rounded",
    "float_exact",
    "shuffle_v1",
    "trace_lines",
]

#: Update rules at the threshold b (``--margin``, default 0), p = y w.(x, 1):
#: ``nonstrict`` updates iff p <= b (the textbook rule); ``strict`` iff p < b (no update on a
#: tie); ``sign-positive`` predicts sign(w.(x, 1)) with sign(0) = +1 and updates iff the
#: prediction is wrong (mlxtend's rule: a tie updates a negative sample only);
#: ``sign-negative`` the same with sign(0) = -1 (a tie updates a positive sample only).
TIE_RULES = ("nonstrict", "strict", "sign-positive", "sign-negative")
#: ``converged``: stop after the first epoch without an update; ``all-epochs``: run every one
#: of max_epochs epochs (the weights are the same: a clean epoch changes nothing; the
#: epoch count is max_epochs); ``tol:TOL:N``: scikit-learn's rule (:mod:`novikoff.fuzz.sgd`):
#: stop after N epochs in a row whose mean objective is above the best so far minus TOL.
STOPS = ("converged", "all-epochs", "tol:TOL:N")
#: ``constant``: eta_t = the declared learning rate; ``optimal``: scikit-learn's
#: eta_t = 1 / (alpha (t0 + t - 1)) (:mod:`novikoff.fuzz.sgd`; needs ``l2`` > 0).
SCHEDULES = ("constant", "optimal")
#: ``float64``: the implementation computes in float64 (a difference is a bug unless a
#: decision lies within float64 rounding); ``float32``: in float32 on the inputs rounded to
#: float32 (the reference runs on those inputs, with the float32 rounding bound).
PRECISIONS = ("float64", "float32")
#: ``given``: the implementation presents ``order`` as passed (None: 0..m-1 each epoch);
#: ``natural``: it always presents 0..m-1 (``order`` is always None); ``shuffle-v1:SEED``:
#: epoch e presents :func:`shuffle_v1` (SEED, e, m); ``sklearn:SEED``: scikit-learn's SGD
#: shuffling with ``random_state=SEED`` (:func:`novikoff.fuzz.sgd.sklearn_order`).
ORDERS = ("given", "natural", "shuffle-v1:SEED", "sklearn:SEED")

#: The algorithms whose implementations may declare semantics (the others run the defaults).
DECLARABLE = ("perceptron",)

_MASK = 2**64 - 1


def shuffle_v1(seed: int, epoch: int, m: int) -> list[int]:
    """The presentation order of epoch ``epoch`` (0-based) under ``--order shuffle-v1:SEED``.

    state = (seed * 2^32 + epoch) mod 2^64; perm = [0, ..., m-1]; for i = m-1 down to 1:
    r = splitmix64(state) (which advances state), j = r mod (i + 1), swap perm[i] and
    perm[j]. splitmix64: state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) *
    0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31), all
    mod 2^64. ``seed`` and ``epoch`` must lie in 0..2^32-1."""
    state = (seed * 2**32 + epoch) & _MASK
    perm = list(range(m))
    for i in range(m - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


@dataclass(frozen=True)
class Semantics:
    """What the implementation under test does, where implementations legitimately differ.

    The defaults are the textbook perceptron. ``tie_rule`` (:data:`TIE_RULES`), ``margin``
    b >= 0 (update iff y w.(x, 1) <= b, or < b with ``strict``), ``learning_rate`` eta > 0
    (w <- w + eta z), ``initial_weights`` ("zero", or "drawn": a small integer vector drawn
    per example and passed to the implementation, ``initial_weights=`` in Python, an
    ``initial_weights`` line in the protocol), ``order`` (:data:`ORDERS`), ``stop``
    (:data:`STOPS`), ``precision`` (:data:`PRECISIONS`), ``l2`` alpha >= 0 (the L2 penalty
    w <- (1 - eta alpha) w before each step, the intercept not penalised) and ``schedule``
    (:data:`SCHEDULES`). An L2 penalty, the optimal schedule or a ``tol`` stop make the
    reference the float64 replica of :mod:`novikoff.fuzz.sgd` (:attr:`replica`). Invalid
    values raise InputError naming the option."""

    tie_rule: str = "nonstrict"
    margin: Fraction = Fraction(0)
    learning_rate: Fraction = Fraction(1)
    initial_weights: str = "zero"
    order: str = "given"
    stop: str = "converged"
    precision: str = "float64"
    l2: Fraction = Fraction(0)
    schedule: str = "constant"

    def __post_init__(self) -> None:
        if self.tie_rule not in TIE_RULES:
            raise InputError(f"--tie-rule: expected one of {', '.join(TIE_RULES)}, got {self.tie_rule!r}")
        if self.stop not in STOPS[:2] and parse_tol_stop(self.stop) is None:
            raise InputError(f"--stop: expected one of {', '.join(STOPS)}, got {self.stop!r}")
        if not isinstance(self.l2, Fraction) or self.l2 < 0:
            raise InputError(f"--l2: expected a rational >= 0, got {self.l2!r}")
        if self.schedule not in SCHEDULES:
            raise InputError(f"--schedule: expected one of {', '.join(SCHEDULES)}, got {self.schedule!r}")
        if self.schedule == "optimal" and self.l2 == 0:
            raise InputError("--schedule optimal: eta_t = 1 / (alpha (t0 + t - 1)) needs --l2 ALPHA > 0")
        if self.schedule == "optimal" and self.learning_rate != 1:
            raise InputError("--learning-rate: --schedule optimal sets the rate itself (eta_t)")
        if self.replica and self.precision != "float64":
            raise InputError("--l2, --schedule optimal and --stop tol: have a float64 replica only")
        if self.precision not in PRECISIONS:
            raise InputError(f"--precision: expected one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        if self.initial_weights not in ("zero", "drawn"):
            raise InputError(f"--initial-weights: expected zero or drawn, got {self.initial_weights!r}")
        if not isinstance(self.margin, Fraction) or self.margin < 0:
            raise InputError(f"--margin: expected a rational >= 0, got {self.margin!r}")
        if not isinstance(self.learning_rate, Fraction) or self.learning_rate <= 0:
            raise InputError(f"--learning-rate: expected a rational > 0, got {self.learning_rate!r}")
        if self.tie_rule.startswith("sign") and self.margin != 0:
            raise InputError(f"--tie-rule {self.tie_rule} predicts sign(w.x~): it takes no --margin")
        _ = self.shuffle_seed  # validates the order

    @property
    def shuffle_seed(self) -> int | None:
        """SEED of ``order="shuffle-v1:SEED"``, else None."""
        if self.order in ("given", "natural"):
            return None
        head, colon, text = self.order.partition(":")
        if head in ("shuffle-v1", "sklearn") and colon and text.isdigit() and int(text) < 2**32:
            return int(text)
        raise InputError(
            "--order: expected given, natural, shuffle-v1:SEED or sklearn:SEED (SEED in 0..2^32-1), "
            f"got {self.order!r}"
        )

    @property
    def replica(self) -> bool:
        """True iff the reference is the float64 replica of :mod:`novikoff.fuzz.sgd` (an L2
        penalty, the optimal schedule or a ``tol`` stop is declared)."""
        return self.l2 != 0 or self.schedule != "constant" or self.stop.startswith("tol:")

    @property
    def is_default(self) -> bool:
        """True iff this is the textbook perceptron."""
        return self == DEFAULT

    def options(self) -> list[str]:
        """The ``novikoff diff`` options that declare this (empty for the defaults)."""
        out: list[str] = []
        for name, flag in _FLAGS:
            value = getattr(self, name)
            if value != getattr(DEFAULT, name):
                out += [flag, str(format_rational(value)) if isinstance(value, Fraction) else str(value)]
        return out

    def placeholders(self) -> dict[str, str]:
        """The values of a ``--command`` template's placeholders ``{tie_rule}``, ``{margin}``,
        ``{learning_rate}``, ``{initial_weights}``, ``{order}``, ``{stop}``, ``{precision}``."""
        return {
            name: str(format_rational(v)) if isinstance(v, Fraction) else str(v)
            for name, v in ((n, getattr(self, n)) for n, _ in _FLAGS)
        }

    def describe(self) -> str:
        """One line: the declared semantics in words (``textbook perceptron`` when default)."""
        if self.is_default:
            return "the textbook perceptron"
        return "declared " + " ".join(self.options())


_FLAGS = (
    ("tie_rule", "--tie-rule"),
    ("margin", "--margin"),
    ("learning_rate", "--learning-rate"),
    ("initial_weights", "--initial-weights"),
    ("order", "--order"),
    ("stop", "--stop"),
    ("precision", "--precision"),
    ("l2", "--l2"),
    ("schedule", "--schedule"),
)

#: The textbook perceptron.
DEFAULT = Semantics()


def float32_rounded(ds: Dataset) -> Dataset:
    """``ds`` with every feature rounded to the nearest float64 and then to the nearest
    float32 (what ``X.astype(np.float32)`` of the float64 array does); labels and bias kept."""
    X, _ = ds.to_numpy()
    X32 = X.astype(np.float32)
    rows = [[Fraction(float(v)) for v in row] for row in X32]
    return Dataset.from_fraction_rows(rows, list(ds.labels), bias=ds.bias, name=ds.name)


@dataclass(frozen=True)
class Presentation:
    """One presentation of a declared run: ``epoch``, sample ``index``, the exact
    p = y w.(x, 1) before it, whether the rule ``updated``, and ``k``, the updates before it."""

    epoch: int
    index: int
    p: Fraction
    updated: bool
    k: int


@dataclass
class DeclaredRun(RunRecord):
    """A :class:`~novikoff.runtime.runs.RunRecord` of a declared run, with the data it ran on
    (``data``: float32-rounded for ``precision="float32"``), the semantics, the initial
    weights, and (when asked) every presentation."""

    semantics: Semantics = DEFAULT
    data: Dataset | None = None
    initial: tuple[Fraction, ...] = ()
    presentations: list[Presentation] = field(default_factory=list)
    float_exact: bool | None = None
    replica: ReplicaRun | None = None  # the rounding bound's verdicts of a replica run


def fits_in_bits(values: Sequence[int], bits: int) -> bool:
    """True iff every partial sum of ``values`` (integers), in any order, has at most
    ``bits`` significant bits: with 2^t the largest power of two dividing all of them,
    sum |v| / 2^t < 2^bits. Over one power-of-two scale, that is: a float with ``bits``
    significant bits holds each partial sum exactly."""
    nonzero = [abs(v) for v in values if v]
    if not nonzero:
        return True
    t = min((v & -v).bit_length() - 1 for v in nonzero)
    return (sum(nonzero) >> t) < 2**bits


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _presenter(sem: Semantics, order: Any, m: int) -> Any:
    seed = sem.shuffle_seed
    if seed is not None and sem.order.startswith("sklearn:"):
        return sklearn_order(seed, m)
    if seed is not None:
        return lambda e: shuffle_v1(seed, e, m)
    return epoch_order(None if sem.order == "natural" else order, m)


def declared_run(
    ds: Dataset,
    semantics: Semantics = DEFAULT,
    order: Any = None,
    max_epochs: int = 1000,
    initial_weights: Sequence[Fraction] | None = None,
    *,
    trace: bool = False,
    check_bits: bool = False,
) -> DeclaredRun:
    """The exact run of the declared rule on ``ds`` (module docstring).

    ``order`` is what the implementation was given (ignored for ``order="natural"`` and
    ``shuffle-v1``); ``initial_weights`` (d + 1 values, bias last; None = zero). ``trace``
    records every presentation; ``check_bits`` sets ``float_exact``: whether the declared
    precision's arithmetic carries the run out exactly (:func:`float_exact`). For a
    :attr:`Semantics.replica` semantics the run is :func:`novikoff.fuzz.sgd.replica_run`
    (float64, ``float_exact`` False, its rounding bound's verdicts in ``replica``)."""
    sem = semantics
    if sem.replica:
        n = ds.dimension
        w_init = [Fraction(0)] * n if initial_weights is None else [Fraction(v) for v in initial_weights]
        if len(w_init) != n:
            raise InputError(f"initial weights: {len(w_init)} values for dimension {n} (bias last)")
        rep = replica_run(ds, sem, _presenter(sem, order, ds.n_samples), max_epochs, w_init, trace=trace)
        return DeclaredRun(
            weights=rep.weights,
            updates=rep.updates,
            epochs=rep.epochs,
            converged=rep.converged,
            algorithm="perceptron",
            semantics=sem,
            data=ds,
            initial=tuple(w_init),
            presentations=[Presentation(*p) for p in rep.presentations],
            float_exact=False,
            replica=rep.replica,
        )
    data = float32_rounded(ds) if sem.precision == "float32" else ds
    Z, s = data.scaled_patterns
    n, m = data.dimension, data.n_samples
    w0 = [Fraction(0)] * n if initial_weights is None else [Fraction(v) for v in initial_weights]
    if len(w0) != n:
        raise InputError(f"initial weights: {len(w0)} values for dimension {n} (bias last)")
    eta = sem.learning_rate
    D = math.lcm(s * eta.denominator, *(v.denominator for v in w0))
    W = [int(v * D) for v in w0]
    c = eta.numerator * (D // (s * eta.denominator))  # W += c Z_i is w += eta z_i
    b = sem.margin
    # p = W.Z_i / (D s); compare p with b: W.Z_i * b.den against b.num * D * s
    rhs = b.numerator * D * s
    bden = b.denominator
    labels = data.labels
    rule = sem.tie_rule
    bits = 24 if sem.precision == "float32" else 53
    exact = not check_bits or (
        _is_power_of_two(D * s) and fits_in_bits([b.numerator], bits) and _is_power_of_two(bden)
    )
    if check_bits and exact:
        exact = all(fits_in_bits([v], bits) for v in W) and all(
            fits_in_bits([c * v], bits) and fits_in_bits([v], bits) for row in Z for v in row
        )
    present = _presenter(sem, order, m)
    updates: list[tuple[int, int]] = []
    seen: list[Presentation] = []
    converged = False
    epochs = 0
    for epoch in range(max_epochs):
        epochs += 1
        clean = True
        for i in present(epoch):
            zi = Z[i]
            if check_bits and exact:
                exact = fits_in_bits([a * v for a, v in zip(W, zi)], bits)
            lhs = sum(a * v for a, v in zip(W, zi)) * bden
            if rule == "nonstrict":
                update = lhs <= rhs
            elif rule == "strict":
                update = lhs < rhs
            elif rule == "sign-positive":  # a tie predicts +1: wrong for a negative sample
                update = lhs < 0 or (lhs == 0 and labels[i] < 0)
            else:  # sign-negative: a tie predicts -1, wrong for a positive sample
                update = lhs < 0 or (lhs == 0 and labels[i] > 0)
            if trace:
                seen.append(
                    Presentation(
                        epoch, i, Fraction(sum(a * v for a, v in zip(W, zi)), D * s), update, len(updates)
                    )
                )
            if update:
                if check_bits and exact:
                    exact = all(fits_in_bits([a, c * v], bits) for a, v in zip(W, zi))
                W = [a + c * v for a, v in zip(W, zi)]
                updates.append((epoch, i))
                clean = False
        if clean:
            converged = True
            if sem.stop == "converged":
                break
    return DeclaredRun(
        weights=tuple(Fraction(v, D) for v in W),
        updates=updates,
        epochs=epochs,
        converged=converged,
        algorithm="perceptron",
        semantics=sem,
        data=data,
        initial=tuple(w0),
        presentations=seen,
        float_exact=exact if check_bits else None,
    )


def float_exact(
    ds: Dataset,
    semantics: Semantics,
    order: Any,
    max_epochs: int,
    initial_weights: Sequence[Fraction] | None = None,
) -> bool:
    """True iff floating point of the declared precision (53 or 24 significant bits) carries
    out the declared run exactly, whatever the summation order: the weights' common
    denominator is a power of two, and every coordinate, every eta z_j, every partial sum of
    the products w_j z_j and every update w_j + eta z_j fits (as :func:`novikoff.fuzz.
    families.float_exact_run` for the textbook rule). Then a correct implementation makes
    exactly the reference's decisions."""
    run = declared_run(ds, semantics, order, max_epochs, initial_weights, check_bits=True)
    return bool(run.float_exact)


def _gamma(j: int, u: float) -> float:
    return j * u / (1 - j * u)


def ambiguous(run: DeclaredRun) -> bool:
    """True iff some decision of the declared run (traced: :func:`declared_run` with
    ``trace=True``) lies within the rounding bound of its precision (u = 2^-53 or 2^-24):
    |p - b| <= 2 (gamma_n sum |w_j z_j| + gamma_(2k+1) (|w_0| + eta A).|z|), A the sum of
    |z_u| over the k updates so far; an exact tie with a zero bound is not close."""
    if run.replica is not None:
        return bool(run.replica.ambiguous_decisions or run.replica.ambiguous_stop)
    data = run.data
    if data is None or (not run.presentations and run.updates):
        raise ValueError("ambiguous() needs a traced declared run")
    sem = run.semantics
    u = 2.0**-24 if sem.precision == "float32" else 2.0**-53
    Z, s = data.scaled_patterns
    signed = np.array([[v / s for v in row] for row in Z], dtype=np.float64).reshape(len(Z), -1)
    Zf = np.abs(signed)
    n = data.dimension
    w = np.array([float(v) for v in run.initial], dtype=np.float64)
    w0 = np.abs(w)
    acc = np.zeros(n)
    eta = float(sem.learning_rate)
    b = sem.margin
    for pres in run.presentations:
        z = Zf[pres.index]
        err = 2 * (
            _gamma(n, u) * float(np.abs(w) @ z) + _gamma(2 * pres.k + 1, u) * float((w0 + eta * acc) @ z)
        )
        if err > 0 and abs(float(pres.p - b)) <= err:
            return True
        if pres.updated:
            w = w + eta * signed[pres.index]
            acc = acc + z
    return False


def direction_tolerance(run: DeclaredRun) -> float:
    """How far in direction (norm of the difference of unit vectors) weights computed in
    the declared precision may lie from the exact ones: 1e-9 for float64, else twice the
    relative bound gamma_(2k+1)(u) ||(|w_0| + eta A)|| / ||w|| on the error of k rounded
    updates (u = 2^-24, A the sum of |z_u| over the updates), at least 1e-9; for a replica
    run :func:`novikoff.fuzz.sgd.replica_tolerance`."""
    if run.replica is not None:
        return replica_tolerance(run)
    if run.semantics.precision != "float32" or run.data is None:
        return 1e-9
    Z, s = run.data.scaled_patterns
    acc = np.zeros(run.data.dimension)
    for _, i in run.updates:
        acc += np.abs(np.array([v / s for v in Z[i]], dtype=np.float64))
    w = np.array([float(v) for v in run.weights])
    norm = float(np.linalg.norm(w))
    if norm == 0:
        return 1e-9
    w0 = np.abs(np.array([float(v) for v in run.initial]))
    bound = _gamma(2 * len(run.updates) + 1, 2.0**-24) * float(
        np.linalg.norm(w0 + float(run.semantics.learning_rate) * acc)
    )
    return max(1e-9, 4 * bound / norm)


def trace_lines(run: DeclaredRun, around: int | None = None, width: int = 3, limit: int = 12) -> list[str]:
    """The reference's presentations in words, one a line: epoch, sample, the exact
    p = y w.(x, 1), and whether the declared rule updated and why. ``around``: the index of
    an update (0-based); the presentations from ``width`` before the one that made it to
    ``width`` after; else the first ``limit``."""
    pres = run.presentations
    if not pres:
        return []
    if around is None:
        lo, hi = 0, min(len(pres), limit)
    else:
        at = next((j for j, p in enumerate(pres) if p.updated and p.k == around), len(pres) - 1)
        lo, hi = max(0, at - width), min(len(pres), at + width + 1)
    rule = _rule_text(run.semantics)
    lines = []
    for p in pres[lo:hi]:
        label = run.data.labels[p.index] if run.data is not None else 0
        verdict = "update" if p.updated else "no update"
        why = _why(run.semantics, p.p, label)
        lines.append(
            f"epoch {p.epoch}, sample {p.index}: y w.x~ = {format_rational(p.p)} -> {verdict} ({why}; {rule})"
        )
    if hi < len(pres):
        lines.append(f"... {len(pres) - hi} more presentations")
    return lines


def _rule_text(sem: Semantics) -> str:
    b = format_rational(sem.margin)
    return {
        "nonstrict": f"the rule updates iff y w.x~ <= {b}",
        "strict": f"the rule updates iff y w.x~ < {b}",
        "sign-positive": "the rule predicts sign(w.x~), sign(0) = +1",
        "sign-negative": "the rule predicts sign(w.x~), sign(0) = -1",
    }[sem.tie_rule]


def _why(sem: Semantics, p: Fraction, label: int) -> str:
    b = sem.margin
    if sem.tie_rule.startswith("sign"):
        if p != 0:
            return "a mistake" if p < 0 else "classified correctly"
        return f"a tie w.x~ = 0 with label {label:+d}"
    bt = format_rational(b)
    if p == b:
        return f"a tie: y w.x~ = {bt}"
    return f"y w.x~ {'<' if p < b else '>'} {bt}"


def alternatives(sem: Semantics, rate: Fraction | None = None) -> Iterator[tuple[Semantics, str]]:
    """Semantics one declared difference away from ``sem`` (then mlxtend's two), each with
    the hint that names it (``diff`` tries them on a bug's minimal example: an
    implementation that agrees with one of them probably differs by design, not by a bug).
    ``rate``: the learning rate the implementation's weights suggest, tried first (never
    under the optimal schedule, which sets the rate itself)."""
    if sem.schedule == "optimal":
        rate = None
    if rate is not None and rate != sem.learning_rate:
        yield (
            replace(sem, learning_rate=rate),
            f"the implementation's learning rate looks like {rate} (not a float-exact rate, or the "
            f"rate matters with a margin or initial weights): try --learning-rate {rate}",
        )
    hints = {
        "strict": "the implementation does not update on ties (y w.x~ = b): try --tie-rule strict",
        "nonstrict": "the implementation updates on ties (y w.x~ = b): try --tie-rule nonstrict",
        "sign-positive": "the implementation predicts sign(0) = +1 (mlxtend's rule): "
        "try --tie-rule sign-positive",
        "sign-negative": "the implementation predicts sign(0) = -1: try --tie-rule sign-negative",
    }
    for rule in TIE_RULES:
        if rule != sem.tie_rule and (sem.margin == 0 or not rule.startswith("sign")):
            yield replace(sem, tie_rule=rule), hints[rule]
    other = "all-epochs" if sem.stop == "converged" else "converged"
    yield (
        replace(sem, stop=other),
        "the implementation runs every epoch, even after a clean one: try --stop all-epochs"
        if other == "all-epochs"
        else "the implementation stops after a clean epoch: try --stop converged",
    )
    if sem.order == "given":
        yield (
            replace(sem, order="natural"),
            "the implementation ignores the order it is given: try --order natural",
        )
    if sem.precision == "float64" and not sem.replica:
        yield (
            replace(sem, precision="float32"),
            "the implementation computes in float32: try --precision float32",
        )
    for b in (Fraction(1),):
        if sem.margin != b and not sem.tie_rule.startswith("sign"):
            yield (
                replace(sem, margin=b),
                f"the implementation updates within a margin (hinge loss): try --margin {b}",
            )
    if sem.margin == 0 and (sem.tie_rule, sem.stop) != ("sign-positive", "all-epochs"):
        mlxtend = replace(sem, tie_rule="sign-positive", stop="all-epochs")
        text = (
            "the implementation predicts sign(0) = +1 and runs every epoch (mlxtend's Perceptron): "
            "try --tie-rule sign-positive --stop all-epochs"
        )
        if rate is not None and rate != sem.learning_rate:
            yield replace(mlxtend, learning_rate=rate), f"{text} --learning-rate {rate}"
        yield mlxtend, text
    if (sem.margin != 0 or sem.initial_weights != "zero") and sem.schedule != "optimal":
        for eta in (Fraction(1, 10), Fraction(1, 100), Fraction(1, 2), Fraction(1)):
            if eta != sem.learning_rate:
                yield (
                    replace(sem, learning_rate=eta),
                    f"the implementation's learning rate is {eta}: try --learning-rate {eta}",
                )
