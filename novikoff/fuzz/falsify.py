"""Search for datasets that break a proposed bound on the perceptron's number of updates.

``falsify(text)`` parses the bound (:func:`novikoff.fuzz.bounds.parse_bound`), then

1. checks the T1 family (e_1..e_n, plain and scaled, n = 1..200), where the
   perceptron makes exactly n = R^2/gamma^2 updates: any bound below R^2/gamma^2 there
   fails at once, with the T1 witness;
2. searches certified separable datasets and orderings with Hypothesis (seeded;
   failures shrink to small examples). Each example runs the drawn order and two
   adversarial ones (:func:`adversarial_orders`) and keeps the worst; ``target()``
   steers the search towards many updates and a high updates/bound ratio.

``nonseparable=True`` runs the non-separable campaign instead
(:mod:`novikoff.fuzz.falsify_nonseparable`: the Freund-Schapire symbols D, D2, T, an
extremal pre-check, non-separable data).

Counterexamples are saved in an example database (:mod:`novikoff.fuzz.database`)
under a key made of the bound, so reruns, ``workers`` and Redis-sharing shards
replay them first.

Every value is exact: R2 and gamma2 come from the exact certificate, the update
count from the exact reference, and ``updates > bound`` is decided by interval
arithmetic at 60 digits (``sqrt``/``log``/``exp``/``floor``/... included); an
interval that straddles the count is never called a counterexample. The answer is
a counterexample or "no counterexample in N examples", never a proof.

The campaign of each algorithm family, the re-derivation of a counterexample's numbers
(:func:`certify_check`) and the replay of a counterexample file (:func:`replay_file`) are
in :mod:`novikoff.fuzz.falsify_replay`, re-exported here.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.bounds import DEFAULT_LIMITS, BoundLimits, parse_bound
from novikoff.fuzz.campaign import (
    MAX_EPOCHS,
    Counterexample,
    FalsifyResult,
    Progress,
    ProgressCallback,
    Tally,
    bound_exceeded,
    bound_value,
    campaign_search,
    order_to_json,
)
from novikoff.fuzz.database import default_database, open_database
from novikoff.fuzz.falsify_nonseparable import CAMPAIGN as NONSEPARABLE_CAMPAIGN
from novikoff.fuzz.falsify_nonseparable import extremal_precheck, search_nonseparable
from novikoff.fuzz.falsify_replay import (
    CAMPAIGNS,
    FamilyCampaign,
    Replay,
    certify_check,
    replay_file,
    symbol_values,
)
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.settings_space import RunSetting, parameter_values, settings_for
from novikoff.fuzz.shrinking import shrink_failure
from novikoff.fuzz.strategies import certified_separable, orderings
from novikoff.runtime.executors import ExecutorSpec, raise_if_stopped, run_until_first
from novikoff.runtime.runs import Order
from novikoff.spec.tightness import basis_dataset

__all__ = [
    "CAMPAIGNS",
    "Counterexample",
    "FalsifyResult",
    "FamilyCampaign",
    "Progress",
    "Replay",
    "adversarial_orders",
    "bound_exceeded",
    "certify_check",
    "falsify",
    "order_to_json",
    "replay_file",
    "stderr_progress",
]


_USE_DEFAULT = "<default>"


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
        updates = setting.run(ds, cert, candidate, MAX_EPOCHS)
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
                updates = setting.run(ds, cert, None, MAX_EPOCHS)
                if bound_exceeded(bound, updates, values):
                    source = f"T1 with n = {n}, scale {scale}"
                    return tried, Counterexample(
                        ds, None, updates, values, bound_value(bound, values), source, setting
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
    executor: ExecutorSpec | None = None,
    nonseparable: bool = False,
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
    after every example (in each worker when ``workers > 1``; not on a Dask cluster, whose
    workers' output goes to their logs). ``executor`` (:func:`novikoff.runtime.executors.parse_executor`)
    says where the ``workers`` shards run: processes here (the default) or a Dask cluster;
    the first counterexample cancels the other shards.

    ``nonseparable`` runs the non-separable campaign instead
    (:mod:`novikoff.fuzz.falsify_nonseparable`; perceptron only, one process). The
    counterexample records the bound's text and limits, so its file replays alone.

    Args:
        text: The proposed bound on the updates (the syntax of :mod:`novikoff.fuzz.bounds`).
        examples: The total Hypothesis budget.
        seed: The seed (worker i uses ``seed + i``).
        database: The example database's path, ``None`` for none (default: the environment's).
        workers: How many shards search in parallel.
        progress: Called after every example.
        precheck: Try the known tight datasets first.
        algorithm: ``"perceptron"``, ``"pdm"`` or ``"pfm"``.
        epsilons: The eps values drawn for pdm and pfm.
        limits: How large the bound expression may be.
        executor: Where the shards run (processes here, or a Dask cluster).
        nonseparable: Search non-separable data (the Freund-Schapire campaign).

    Returns:
        What the search saw: the parsed bound, the examples tried and the first
        counterexample (exact data, order, update count and bound value), or None.

    Raises:
        BoundSyntaxError: ``text`` is not a bound of the accepted syntax (an InputError).
        InputError: An unknown ``algorithm`` or a malformed option.

    Examples:
        >>> falsify("R/gamma", examples=30, database=None).counterexample is not None
        True
        >>> print(falsify("R**2/gamma**2", examples=10, database=None).counterexample)
        None
    """
    if nonseparable:
        result = _falsify_nonseparable(
            parse_bound(text, algorithm, limits, nonseparable=True),
            examples,
            seed,
            database,
            workers,
            progress,
            precheck,
            executor,
        )
    else:
        result = _falsify_separable(
            text, examples, seed, database, workers, progress, precheck, algorithm, epsilons, limits, executor
        )
    if result.counterexample is not None:
        result.counterexample.bound_text = text
        result.counterexample.limits = limits
    return result


def _falsify_nonseparable(
    bound: sp.Expr,
    examples: int,
    seed: int,
    database: str | None,
    workers: int,
    progress: ProgressCallback | None,
    precheck: bool,
    executor: ExecutorSpec | None,
) -> FalsifyResult:
    """The non-separable campaign of :func:`falsify` (one process): the extremal pre-check,
    then the search of :mod:`novikoff.fuzz.falsify_nonseparable`."""
    if workers != 1 or (executor is not None and executor.kind != "local"):
        raise InputError(
            "--workers/--executor: the non-separable campaign runs in one process, on this machine"
        )
    if database == _USE_DEFAULT:
        database = default_database()
    open_database(database)
    tried = 0
    result: FalsifyResult | None = None
    if precheck:
        tried, witness = extremal_precheck(bound)
        if witness is not None:
            result = FalsifyResult(bound, tried, witness)
    if result is None:
        result = search_nonseparable(bound, examples, seed, database, progress, NONSEPARABLE_CAMPAIGN)
        result.examples += tried
    return result


def _falsify_separable(
    text: str,
    examples: int,
    seed: int,
    database: str | None,
    workers: int,
    progress: ProgressCallback | None,
    precheck: bool,
    algorithm: str,
    epsilons: Sequence[Fraction] | None,
    limits: BoundLimits,
    executor: ExecutorSpec | None,
) -> FalsifyResult:
    """The separable campaigns of :func:`falsify`: the algorithm family's own search, or the
    T1 pre-check, then the Hypothesis search in this process or in ``workers`` shards."""
    executor = executor or ExecutorSpec()
    bound = parse_bound(text, algorithm, limits)
    eps_values = parameter_values(algorithm, epsilons)  # validates them
    campaign = algorithm if eps_values == [None] else f"{algorithm}{eps_values}"
    if workers < 1:
        raise InputError(f"workers must be >= 1, got {workers}")
    if database == _USE_DEFAULT:
        database = default_database()
    open_database(database)  # bad specs fail here, in the caller's process, with their name
    tried = 0
    family = CAMPAIGNS[lookup(algorithm).family]
    if family.search is not None:
        if workers != 1 or executor.kind != "local":
            raise InputError(
                f"--workers/--executor: the {algorithm} campaign runs in one process, on this machine"
            )
        return family.search(bound, examples, seed, database, progress, campaign)
    if precheck:
        tried, witness = _t1_precheck(bound, algorithm, epsilons)
        if witness is not None:
            return FalsifyResult(bound, tried, witness)
    if workers == 1 and executor.kind == "local":
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
            progress is not None and executor.kind == "local",
            algorithm,
            epsilons,
            campaign,
            limits,
            executor,
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
        return tally.observe(updates, symbol_values(ds, cert, setting))

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
        return bound_exceeded(bound, updates, symbol_values(candidate, cert, setting))

    ds, order = shrink_failure(ds, order, still_fails, budget_seconds=shrink_seconds)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)  # still_fails held on it
    updates, worst = _worst_run(ds, cert, order, setting)
    values = symbol_values(ds, cert, setting)
    replayed, source = tally.provenance(stored)
    ce = Counterexample(ds, worst, updates, values, bound_value(bound, values), source, setting)
    return FalsifyResult(bound, tally.tried, ce, replayed=replayed, best_ratio=tally.best_ratio)


def _worker_main(job: tuple[Any, ...]) -> FalsifyResult:
    """One shard of a campaign (a local child process or a Dask task): the seeded search of
    its share of the budget. A shard cancelled because another found a counterexample stops
    at its next example (:func:`novikoff.runtime.executors.raise_if_stopped`)."""
    text, examples, seed, database, index, show, algorithm, epsilons, campaign, limits = job
    shown = stderr_progress(worker=index) if show else None

    def callback(report: Progress) -> None:
        raise_if_stopped()
        if shown is not None:
            shown(report)

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


def _has_counterexample(result: FalsifyResult) -> bool:
    return result.counterexample is not None


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
    executor: ExecutorSpec | None = None,
) -> FalsifyResult:
    """Run ``workers`` shards sharing ``database`` on ``executor`` (local processes by
    default); stop at the first counterexample. Shard i searches its share of the budget
    with seed ``seed + i``; the budget of cancelled shards is not counted."""
    share, extra = divmod(examples, workers)
    jobs = [
        (text, share + (i < extra), seed + i, database, i, show, algorithm, epsilons, campaign, limits)
        for i in range(workers)
    ]
    jobs = [j for j in jobs if j[1] > 0]
    outcome = run_until_first(
        executor or ExecutorSpec(), _worker_main, [(job,) for job in jobs], is_hit=_has_counterexample
    )
    results = [outcome.results[i] for i in sorted(outcome.results)]
    found = [outcome.hit] if outcome.hit is not None else []
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
