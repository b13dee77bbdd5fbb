"""Search for datasets that break a proposed bound on the perceptron's number of updates.

``falsify(text)`` parses the bound (:func:`novikoff.fuzz.bounds.parse_bound`), then

1. checks the T1 family (e_1..e_n, plain and scaled, n = 1..200), where the
   perceptron makes exactly n = R^2/gamma^2 updates: any bound below R^2/gamma^2 there
   fails at once, with the T1 witness;
2. searches certified separable datasets and orderings with Hypothesis (seeded;
   failures shrink to small examples). Each example runs the drawn order and two
   adversarial ones (:func:`adversarial_orders`) and keeps the worst; ``target()``
   steers the search towards many updates and a high updates/bound ratio.

Counterexamples are saved in an example database (:mod:`novikoff.fuzz.database`)
under a key made of the bound, so reruns, ``workers`` and Redis-sharing shards
replay them first.

Every value is exact: R2 and gamma2 come from the exact certificate, the update
count from the exact reference, and ``updates > bound`` is decided by interval
arithmetic at 60 digits (``sqrt``/``log``/``exp``/``floor``/... included); an
interval that straddles the count is never called a counterexample. The answer is
a counterexample or "no counterexample in N examples", never a proof.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import strategies as st

from novikoff.certify import SeparableCertificate, certify
from novikoff.data import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.bounds import BOUND_SYMBOLS, DEFAULT_LIMITS, BoundLimits, parse_bound
from novikoff.fuzz.database import campaign_key, default_database, has_stored_examples, open_database
from novikoff.fuzz.settings_space import RunSetting, parameter_values, settings_for, validate_epsilon
from novikoff.fuzz.shrinking import shrink_failure
from novikoff.fuzz.strategies import certified_separable, orderings
from novikoff.multiclass import MulticlassData
from novikoff.rational import format_rational, unlimited_int_digits
from novikoff.runs import Order
from novikoff.spec.intervals import SquareRoot, Value, interval_of
from novikoff.spec.tightness import basis_dataset

__all__ = [
    "Counterexample",
    "FalsifyResult",
    "Progress",
    "Replay",
    "adversarial_orders",
    "bound_exceeded",
    "falsify",
    "replay_file",
    "stderr_progress",
]

_MAX_EPOCHS = 10_000

_iv = mpmath.iv


def _evaluate(bound: sp.Expr, values: dict[str, Fraction]) -> Any:
    """An interval containing the bound's value (200-bit interval arithmetic).

    R and gamma are the square roots of R2 and gamma2; for PFM (``beta`` given, no
    ``eps``) eps means 1 - beta/gamma and is substituted before evaluating.
    """
    env: dict[str, Value] = dict(values)
    env["R"] = SquareRoot(values["R2"])
    env["gamma"] = SquareRoot(values["gamma2"])
    expr = bound
    if "beta" in values and "eps" not in values:
        S = BOUND_SYMBOLS
        expr = bound.xreplace({S["eps"]: 1 - S["beta"] / S["gamma"]})
    saved = _iv.prec
    _iv.prec = 200
    try:
        return interval_of(expr, env)
    finally:
        _iv.prec = saved


def _finite_value(bound: sp.Expr, values: dict[str, Fraction]) -> Any | None:
    """The bound's interval, or None where it is undefined or infinite (e.g. log(0), or a
    symbol this run has no value for; or too large for interval arithmetic, such as
    exp(exp(exp(1000))), where it exceeds any update count we can make): there the bound
    says nothing."""
    try:
        value = _evaluate(bound, values)
    except (ZeroDivisionError, ValueError, TypeError, KeyError, OverflowError):
        return None
    if not (mpmath.isfinite(value.a) and mpmath.isfinite(value.b)):
        return None
    return value


def _exceeds(value: Any | None, updates: int) -> bool:
    return value is not None and bool(value.b < updates)


def bound_exceeded(bound: sp.Expr, updates: int, values: dict[str, Fraction]) -> bool:
    """True iff ``updates`` > the bound's value, decided rigorously (False when unsure)."""
    return _exceeds(_finite_value(bound, values), updates)


@dataclass
class Counterexample:
    """A dataset, an order and its exact update count above the bound."""

    dataset: Dataset | MulticlassData  # MulticlassData for the multiclass campaign
    order: Order
    updates: int
    values: dict[str, Fraction]
    bound_value: str
    source: str
    setting: RunSetting = field(default_factory=lambda: RunSetting("perceptron"))

    bound_text: str = ""  # the bound expression as the user wrote it (set by falsify)
    limits: BoundLimits = DEFAULT_LIMITS

    def replay_command(self, path: str | Path) -> str:
        """The command that re-runs the counterexample from the written file alone."""
        return f"novikoff replay {path}"

    def header(self) -> dict[str, Any]:
        """Everything a replay needs besides the data rows: the algorithm and its parameters,
        the bias, the order, the bound (text and parser limits) and what the search saw."""
        params: dict[str, str] = {}
        if self.setting.value is not None:
            params["eps"] = str(format_rational(self.setting.value))
        if self.setting.algorithm == "pfm":
            params["beta"] = str(format_rational(self.setting.beta(self.values["gamma2"])))
        lim = self.limits
        return {
            "novikoff_counterexample": 1,
            "algorithm": self.setting.algorithm,
            "parameters": params,
            "bias": str(format_rational(self.dataset.bias)),
            "order": order_to_json(self.order),
            "bound": self.bound_text,
            "bound_limits": [lim.length, lim.depth, lim.exponent, lim.power_digits],
            "samples": self.dataset.n_samples,
            "updates": self.updates,
            "bound_value": self.bound_value,
            "values": {k: str(format_rational(v)) for k, v in self.values.items()},
            "source": self.source,
            **({"classes": self.dataset.n_classes} if isinstance(self.dataset, MulticlassData) else {}),
        }

    def write_csv(self, path: str | Path) -> None:
        """Write the counterexample so that ``novikoff replay FILE`` replays it: a first line
        ``# novikoff-replay {JSON}`` (:meth:`header`), a readable comment, then one data row
        per sample (features, then the label), each exactly once."""
        with unlimited_int_digits():
            lines = [
                "# novikoff-replay " + json.dumps(self.header(), sort_keys=True),
                f"# novikoff falsify counterexample ({self.source}): {self.updates} updates of "
                f"{self.setting.describe(self.values['gamma2'])}, bias {self.dataset.bias}, "
                f"order {order_to_json(self.order)}, bound {self.bound_text}",
            ]
            for i in range(self.dataset.n_samples):
                xs = [str(format_rational(v)) for v in self.dataset.features(i)]
                lines.append(",".join([*xs, str(self.dataset.labels[i])]))
        Path(path).write_text("\n".join(lines) + "\n")


def order_to_json(order: Order) -> Any:
    """``"natural"``, ``"shuffle:SEED"``, a permutation, or a list of per-epoch permutations."""
    if order is None:
        return "natural"
    if isinstance(order, str):
        return order
    seq: list[Any] = list(order)
    if seq and not isinstance(seq[0], (int, np.integer)):
        return [[int(i) for i in p] for p in seq]
    return [int(i) for i in seq]


@dataclass
class FalsifyResult:
    """What a search saw: the bound, how many examples it tried, the counterexample or None.

    ``replayed`` is True when the counterexample was the first example the search
    ran, i.e. it came from the example database (a rerun, another worker or shard);
    ``best_ratio`` is the largest updates/bound seen (a float, for display only).
    """

    bound: sp.Expr
    examples: int
    counterexample: Counterexample | None
    replayed: bool = False
    best_ratio: float | None = None


@dataclass(frozen=True)
class Progress:
    """One progress report: examples tried so far and the best updates/bound ratio."""

    examples: int
    best_ratio: float | None
    worker: int | None = None


ProgressCallback = Callable[[Progress], None]

_USE_DEFAULT = "<default>"


def _values(ds: Dataset, cert: SeparableCertificate, setting: RunSetting) -> dict[str, Fraction]:
    common = {"R2": cert.R2, "gamma2": cert.gamma2, "m": Fraction(ds.n_samples), "d": Fraction(ds.n_features)}
    return {**common, **setting.values(cert.gamma2)}


def _bound_value(bound: sp.Expr, values: dict[str, Fraction]) -> str:
    try:
        v = _evaluate(bound, values)
        return f"in {_iv.nstr(v, 15)}"
    except (ZeroDivisionError, ValueError, TypeError, KeyError):
        return "undefined"


def _bound_float(bound: sp.Expr, values: dict[str, Fraction]) -> float | None:
    """The bound's value as a float (midpoint of its interval), for steering and display."""
    v = _finite_value(bound, values)
    return None if v is None else float(v.mid)


def adversarial_orders(ds: Dataset, cert: SeparableCertificate) -> list[list[int]]:
    """Two fixed orders built against the run: samples sorted by their progress
    z_i.p* toward the certificate's direction, least first and most first.

    Presenting the samples that move w least toward p* first is the classic way to
    make the perceptron slow (each of its updates gains as little as the data
    allows); the reverse order is kept as its foil. Ties keep index order.
    """
    Z, _ = ds.scaled_patterns
    p = cert.pstar.numerators
    progress = [sum(a * b for a, b in zip(z, p)) for z in Z]
    least_first = sorted(range(ds.n_samples), key=lambda i: (progress[i], i))
    most_first = sorted(range(ds.n_samples), key=lambda i: (-progress[i], i))
    return [least_first, most_first]


def _worst_run(
    ds: Dataset, cert: SeparableCertificate, order: Order, setting: RunSetting
) -> tuple[int, Order]:
    """The largest exact update count over the drawn order and the adversarial ones."""
    best_updates, best_order = -1, order
    for candidate in [order, *adversarial_orders(ds, cert)]:
        updates = setting.run(ds, cert, candidate, _MAX_EPOCHS)
        if updates > best_updates:
            best_updates, best_order = updates, candidate
    return best_updates, best_order


def _t1_precheck(
    bound: sp.Expr, algorithm: str, epsilons: Sequence[Fraction] | None = None
) -> tuple[int, Counterexample | None]:
    """T1 (e_1..e_n, plain and scaled) under every setting of ``algorithm``: n updates,
    n = R^2/gamma^2 (for PDM any eps, for PFM any beta < gamma); a hit is confirmed by
    the exact run before it is reported."""
    tried = 0
    for value in parameter_values(algorithm, epsilons):
        setting = RunSetting(algorithm, value)
        for scale in (Fraction(1), Fraction(1, 3), Fraction(5)):
            for n in range(1, 201):
                tried += 1
                gamma2 = scale**2 / n
                values = {
                    "R2": scale**2,
                    "gamma2": gamma2,
                    "m": Fraction(n),
                    "d": Fraction(n),
                    **setting.values(gamma2),
                }
                if not bound_exceeded(bound, n, values):
                    continue
                ds = basis_dataset(n, scale=scale)
                cert = certify(ds)
                assert isinstance(cert, SeparableCertificate)
                updates = setting.run(ds, cert, None, _MAX_EPOCHS)
                if bound_exceeded(bound, updates, values):
                    source = f"T1 with n = {n}, scale {scale}"
                    return tried, Counterexample(
                        ds, None, updates, values, _bound_value(bound, values), source, setting
                    )
    return tried, None


def falsify(
    text: str,
    examples: int = 200,
    seed: int = 0,
    *,
    database: str | None = _USE_DEFAULT,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    precheck: bool = True,
    algorithm: str = "perceptron",
    epsilons: Sequence[Fraction] | None = None,
    limits: BoundLimits = DEFAULT_LIMITS,
) -> FalsifyResult:
    """Search for a counterexample to ``updates <= bound`` (see :func:`_falsify`); the
    counterexample records the bound's text and limits, so its file replays alone."""
    result = _falsify(
        text,
        examples,
        seed,
        database=database,
        workers=workers,
        progress=progress,
        precheck=precheck,
        algorithm=algorithm,
        epsilons=epsilons,
        limits=limits,
    )
    if result.counterexample is not None:
        result.counterexample.bound_text = text
        result.counterexample.limits = limits
    return result


def _falsify(
    text: str,
    examples: int = 200,
    seed: int = 0,
    *,
    database: str | None = _USE_DEFAULT,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    precheck: bool = True,
    algorithm: str = "perceptron",
    epsilons: Sequence[Fraction] | None = None,
    limits: BoundLimits = DEFAULT_LIMITS,
) -> FalsifyResult:
    """Search for a counterexample to ``updates <= bound`` (see the module docstring).

    ``algorithm`` is perceptron, pdm or pfm (:mod:`novikoff.fuzz.settings_space`:
    which parameters are drawn, which symbols the bound may use); ``epsilons``
    replaces the default eps values drawn for pdm and pfm.

    ``examples`` is the total Hypothesis budget (split across ``workers`` processes,
    worker i using seed ``seed + i``); ``database`` names the example database
    (:mod:`novikoff.fuzz.database`; default ``$NOVIKOFF_DATABASE`` or
    ``.novikoff/examples``, ``None`` for none). Counterexamples stored there under
    this bound are replayed before anything new is tried. ``progress`` is called
    after every example (in each worker when ``workers > 1``).
    """
    bound = parse_bound(text, algorithm, limits)
    eps_values = parameter_values(algorithm, epsilons)  # validates them
    campaign = algorithm if algorithm == "perceptron" else f"{algorithm}{eps_values}"
    if workers < 1:
        raise InputError(f"workers must be >= 1, got {workers}")
    if database == _USE_DEFAULT:
        database = default_database()
    open_database(database)  # bad specs fail here, in the caller's process, with their name
    tried = 0
    if algorithm == "multiclass":
        if workers != 1:
            raise InputError("--workers: the multiclass campaign runs in one process")
        from novikoff.fuzz.falsify_multiclass import search_multiclass

        result: FalsifyResult = search_multiclass(bound, examples, seed, database, progress)
        return result
    if precheck:
        tried, witness = _t1_precheck(bound, algorithm, epsilons)
        if witness is not None:
            return FalsifyResult(bound, tried, witness)
    if workers == 1:
        result = _search(
            bound,
            examples,
            seed,
            database,
            progress,
            algorithm=algorithm,
            epsilons=epsilons,
            campaign=campaign,
        )
    else:
        result = _search_in_workers(
            text,
            examples,
            seed,
            database,
            workers,
            progress is not None,
            algorithm,
            epsilons,
            campaign,
            limits,
        )
    result.examples += tried
    return result


def _search(
    bound: sp.Expr,
    examples: int,
    seed: int,
    database: str | None,
    progress: ProgressCallback | None,
    worker: int | None = None,
    shrink_seconds: float = 30.0,
    algorithm: str = "perceptron",
    epsilons: Sequence[Fraction] | None = None,
    campaign: str = "perceptron",
) -> FalsifyResult:
    """The Hypothesis part of :func:`falsify`, in this process.

    Hypothesis finds a failing example (replaying the database first) without
    shrinking it; :func:`~novikoff.fuzz.shrinking.shrink_failure` then shrinks it
    with exact checks. The database holds the unshrunk example, and shrinking is
    deterministic, so a replay ends at the same counterexample.
    """
    tally = Tally(bound, progress, worker)

    def violates(example: tuple[tuple[Dataset, SeparableCertificate], Order, RunSetting]) -> bool:
        (ds, cert), order, setting = example
        updates, _ = _worst_run(ds, cert, order, setting)
        return tally.observe(updates, _values(ds, cert, setting))

    strategy = certified_separable().flatmap(
        lambda p: st.tuples(st.just(p), orderings(p[0].n_samples), settings_for(algorithm, epsilons))
    )
    # shrink_failure below shrinks far faster than Hypothesis re-drawing certified examples
    found, stored = campaign_search(
        strategy, violates, bound, campaign, database, examples, seed, hypothesis_shrinks=False
    )
    if found is None:
        return FalsifyResult(bound, tally.tried, None, best_ratio=tally.best_ratio)
    (ds, _), order, setting = found

    def still_fails(candidate: Dataset, candidate_order: Order) -> bool:
        cert = certify(candidate)
        if not isinstance(cert, SeparableCertificate):
            return False
        updates, _ = _worst_run(candidate, cert, candidate_order, setting)
        return bound_exceeded(bound, updates, _values(candidate, cert, setting))

    ds, order = shrink_failure(ds, order, still_fails, budget_seconds=shrink_seconds)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)  # still_fails held on it
    updates, worst = _worst_run(ds, cert, order, setting)
    values = _values(ds, cert, setting)
    replayed, source = tally.provenance(stored)
    ce = Counterexample(ds, worst, updates, values, _bound_value(bound, values), source, setting)
    return FalsifyResult(bound, tally.tried, ce, replayed=replayed, best_ratio=tally.best_ratio)


def campaign_search(
    strategy: st.SearchStrategy[Any],
    violates: Callable[[Any], bool],
    bound: sp.Expr,
    campaign: str,
    database: str | None,
    examples: int,
    seed: int,
    *,
    hypothesis_shrinks: bool,
) -> tuple[Any | None, bool]:
    """The seeded Hypothesis search of one campaign against its example database, which
    is replayed first. Returns the failing example (None if none was found) and whether
    the database already held examples for this campaign and bound (so that a hit on the
    first example was a replay)."""
    db, key = open_database(database), campaign_key(campaign, sp.srepr(bound))
    stored = has_stored_examples(db, key)
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    found = _seeded_find(
        strategy,
        violates,
        settings(
            max_examples=examples,
            derandomize=False,  # the seed decides; a test profile's derandomize must not drop the database
            database=db,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
            phases=[*phases, Phase.shrink] if hypothesis_shrinks else phases,
        ),
        seed=seed,
        key=key,
    )
    return found, stored


class Tally:
    """What a search has seen: examples tried, the first hit, the best updates/bound.

    :meth:`observe` steers Hypothesis with ``target()`` (updates, and updates/bound),
    reports progress and decides the example rigorously (:func:`bound_exceeded`).
    """

    def __init__(self, bound: sp.Expr, progress: ProgressCallback | None, worker: int | None = None) -> None:
        self.bound = bound
        self.progress = progress
        self.worker = worker
        self.tried = 0
        self.first_hit: int | None = None
        self.best_ratio: float | None = None

    def provenance(self, stored: bool) -> tuple[bool, str]:
        """(replayed, how the counterexample was found): a hit on the first example, with
        examples stored for the campaign, is the database's replay."""
        replayed = self.first_hit == 1 and stored
        return replayed, (
            "replayed from the example database" if replayed else "Hypothesis search"
        ) + ", shrunk"

    def observe(self, updates: int, values: dict[str, Fraction]) -> bool:
        """True iff ``updates`` > the bound at ``values`` (a counterexample)."""
        self.tried += 1
        target(float(updates), label="updates")
        interval = _finite_value(self.bound, values)  # evaluated once, for steering and deciding
        if interval is not None and float(interval.mid) > 0:
            ratio = updates / float(interval.mid)
            target(ratio, label="updates/bound")
            self.best_ratio = ratio if self.best_ratio is None else max(self.best_ratio, ratio)
        hit = _exceeds(interval, updates)
        if hit and self.first_hit is None:
            self.first_hit = self.tried
        if self.progress is not None:
            self.progress(Progress(self.tried, self.best_ratio, self.worker))
        return hit


class _Found(Exception):
    pass


def _seeded_find(
    strategy: st.SearchStrategy[Any],
    condition: Callable[[Any], bool],
    config: settings,
    seed: int,
    key: bytes,
) -> Any | None:
    """``hypothesis.find`` with both a seed and an example database.

    Hypothesis's public ``seed()`` switches the database off, and ``find(random=...)``
    uses it; a campaign needs both (reproducible search, shared counterexamples). So
    this sets the two attributes ``find`` and ``seed`` set themselves
    (``_hypothesis_internal_use_seed``, ``_hypothesis_internal_database_key``).
    ``tests/test_falsify.py`` checks that a seed still reproduces a search and that
    a stored counterexample is still replayed, so a Hypothesis release that stops
    reading them fails those tests rather than this code silently.
    Returns the minimal (shrunk) value satisfying ``condition``, or None.
    """
    last: list[Any] = []

    @config
    @given(strategy)
    def search(value: Any) -> None:
        if condition(value):
            last[:] = [value]
            raise _Found

    search._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    search._hypothesis_internal_database_key = key  # type: ignore[attr-defined]
    try:
        search()
    except _Found:
        return last[0]
    return None


def _worker_main(job: tuple[Any, ...]) -> FalsifyResult:
    text, examples, seed, database, index, show, algorithm, epsilons, campaign, limits = job
    callback = stderr_progress(worker=index) if show else None
    bound = parse_bound(text, algorithm, limits)
    return _search(
        bound,
        examples,
        seed,
        database,
        callback,
        worker=index,
        algorithm=algorithm,
        epsilons=epsilons,
        campaign=campaign,
    )


def _search_in_workers(
    text: str,
    examples: int,
    seed: int,
    database: str | None,
    workers: int,
    show: bool,
    algorithm: str,
    epsilons: Sequence[Fraction] | None,
    campaign: str,
    limits: BoundLimits = DEFAULT_LIMITS,
) -> FalsifyResult:
    """Run ``workers`` searches in processes sharing ``database``; stop at the first counterexample."""
    share, extra = divmod(examples, workers)
    jobs = [
        (text, share + (i < extra), seed + i, database, i, show, algorithm, epsilons, campaign, limits)
        for i in range(workers)
    ]
    jobs = [j for j in jobs if j[1] > 0]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[FalsifyResult] = []
    from novikoff.parallel import prepare_child

    # workers die with the parent and on SIGTERM quietly (the pool's terminate() sends it)
    with context.Pool(len(jobs), initializer=prepare_child) as pool:
        for result in pool.imap_unordered(_worker_main, jobs):
            results.append(result)
            if result.counterexample is not None:
                pool.terminate()  # the others would only search on; their budget is not counted
                break
    found = [r for r in results if r.counterexample is not None]
    ratios = [r.best_ratio for r in results if r.best_ratio is not None]
    merged = found[0] if found else results[0]
    return FalsifyResult(
        merged.bound,
        sum(r.examples for r in results),
        merged.counterexample,
        replayed=merged.replayed,
        best_ratio=max(ratios) if ratios else None,
    )


def stderr_progress(worker: int | None = None, every: float = 0.5) -> ProgressCallback:
    """A progress callback that rewrites one stderr line at most every ``every`` seconds."""
    last = 0.0
    prefix = "" if worker is None else f"[worker {worker}] "

    def show(p: Progress) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < every:
            return
        last = now
        ratio = "-" if p.best_ratio is None else f"{p.best_ratio:.4g}"
        end = "\n" if worker is not None else ""
        sys.stderr.write(f"\r{prefix}{p.examples} examples tried, best updates/bound {ratio}   {end}")
        sys.stderr.flush()

    return show


def certify_check(ce: Counterexample) -> bool:
    """Re-derive the counterexample's numbers from scratch (certificate and exact run)."""

    if isinstance(ce.dataset, MulticlassData):
        from novikoff.fuzz.falsify_multiclass import multiclass_values
        from novikoff.multiclass import kesler
        from novikoff.reference.multiclass import run_multiclass

        kcert = certify(kesler(ce.dataset))
        if not isinstance(kcert, SeparableCertificate):
            return False
        updates = run_multiclass(ce.dataset, order=ce.order, max_epochs=_MAX_EPOCHS).mistakes
        return updates == ce.updates and multiclass_values(ce.dataset, kcert) == ce.values
    cert = certify(ce.dataset)
    if not isinstance(cert, SeparableCertificate):
        return False
    updates = ce.setting.run(ce.dataset, cert, ce.order, _MAX_EPOCHS)
    return updates == ce.updates and _values(ce.dataset, cert, ce.setting) == ce.values


# --------------------------------------------------------------------------- replays

_HEADER = "# novikoff-replay "


@dataclass
class Replay:
    """A counterexample file rerun: the exact update count against the recorded bound."""

    algorithm: str
    parameters: dict[str, str]
    order: Any
    bound: str
    updates: int
    bound_value: str
    violated: bool
    values: dict[str, Fraction]
    recorded_updates: int | None

    def summary(self) -> str:
        params = "".join(f", {k} = {v}" for k, v in self.parameters.items())
        values = ", ".join(f"{k} = {format_rational(v)}" for k, v in self.values.items())
        verdict = "VIOLATED" if self.violated else "holds"
        return (
            f"{self.algorithm}{params}, order {self.order}: {self.updates} updates "
            f"(recorded {self.recorded_updates})\n"
            f"bound {self.bound} = {self.bound_value} at {values}\n"
            f"{self.updates} <= bound: {verdict}"
        )


def _read_counterexample(path: str | Path) -> tuple[dict[str, Any], list[list[Fraction]], list[int]]:
    from novikoff.rational import parse_rational

    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if not lines or not lines[0].startswith(_HEADER):
        raise InputError(
            f"{path}, line 1: not a novikoff falsify counterexample (no '{_HEADER.strip()}' header)"
        )
    try:
        header = json.loads(lines[0][len(_HEADER) :])
        if not isinstance(header, dict) or header.get("novikoff_counterexample") != 1:
            raise ValueError("unknown header version")
    except ValueError as exc:
        raise InputError(f"{path}, line 1: bad replay header ({exc})") from None
    rows, labels = [], []
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split(",")
        try:
            rows.append([parse_rational(c.strip()) for c in cells[:-1]])
            labels.append(int(cells[-1].strip()))
        except (InputError, ValueError) as exc:
            raise InputError(f"{path}, line {n}: {exc}") from None
    if not rows or len({len(r) for r in rows}) != 1:
        raise InputError(f"{path}: expected data rows of equal length after the header")
    if header.get("samples") not in (None, len(rows)):
        raise InputError(f"{path}: the header records {header['samples']} samples, the file has {len(rows)}")
    return header, rows, labels


def _order_from_json(value: Any, path: str | Path) -> Order:
    if value == "natural":
        return None
    if isinstance(value, str) or (isinstance(value, list) and value):
        return value  # validated by the run (epoch_order)
    raise InputError(f"{path}, line 1: bad order {value!r}")


def replay_file(path: str | Path) -> Replay:
    """Rerun the counterexample in ``path`` (written by :meth:`Counterexample.write_csv`):
    the recorded algorithm and parameters in the recorded order, the exact update count and
    the recorded bound evaluated rigorously at the data's own R^2, gamma^2, m, d.

    A bad file is one :class:`InputError` line that names the file."""
    try:
        return _replay_file(path)
    except InputError as exc:
        first = (str(exc).splitlines() or ["bad file"])[0]
        raise InputError(first if first.startswith(str(path)) else f"{path}: {first}") from None


def _replay_file(path: str | Path) -> Replay:
    from novikoff.rational import parse_rational

    header, rows, labels = _read_counterexample(path)
    try:
        algorithm = str(header["algorithm"])
        params = {str(k): str(v) for k, v in dict(header.get("parameters", {})).items()}
        bias = parse_rational(str(header["bias"]))
        limits = BoundLimits(*header.get("bound_limits", []))
        bound = parse_bound(str(header["bound"]), algorithm, limits)
        eps = parse_rational(params["eps"]) if "eps" in params else None
        if algorithm in ("pdm", "pfm"):
            eps = validate_epsilon(eps, "parameters.eps")
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{path}, line 1: bad replay header ({type(exc).__name__}: {exc})") from None
    order = _order_from_json(header.get("order", "natural"), path)
    setting = RunSetting(algorithm, eps)
    values: dict[str, Fraction]
    if algorithm == "multiclass":
        from novikoff.fuzz.falsify_multiclass import multiclass_values
        from novikoff.multiclass import kesler
        from novikoff.reference.multiclass import run_multiclass

        k = header.get("classes")
        if not isinstance(k, int) or k < 2 or not all(0 <= c < k for c in labels):
            raise InputError(f"{path}: multiclass labels must be class indices 0..K-1 with K recorded")
        data = MulticlassData.from_arrays(rows, labels, bias=bias, name=str(path))
        data = replace(data, labels=tuple(labels), class_names=tuple(str(c) for c in range(k)))
        kcert = certify(kesler(data))
        if not isinstance(kcert, SeparableCertificate):
            raise InputError(f"{path}: the data are not separable, so no bound applies")
        updates = run_multiclass(data, order=order, max_epochs=_MAX_EPOCHS).mistakes
        values = multiclass_values(data, kcert)
    else:
        ds = Dataset.from_fraction_rows(rows, labels, bias=bias, name=str(path))
        cert = certify(ds)
        if not isinstance(cert, SeparableCertificate):
            raise InputError(f"{path}: the data are not separable, so no bound applies")
        if (
            algorithm == "pfm"
            and "beta" in params
            and setting.beta(cert.gamma2) != parse_rational(params["beta"])
        ):
            raise InputError(
                f"{path}: the recorded beta {params['beta']} is not the one eps gives on these data"
            )
        updates = setting.run(ds, cert, order, _MAX_EPOCHS)
        values = _values(ds, cert, setting)
    recorded = header.get("updates")
    return Replay(
        algorithm,
        params,
        order_to_json(order),
        str(header["bound"]),
        updates,
        _bound_value(bound, values),
        bound_exceeded(bound, updates, values),
        values,
        recorded if isinstance(recorded, int) else None,
    )
