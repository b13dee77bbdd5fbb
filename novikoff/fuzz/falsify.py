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
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
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
from novikoff.fuzz.falsify_multiclass import multiclass_numbers, multiclass_replay_data, search_multiclass
from novikoff.fuzz.falsify_nonseparable import (
    CAMPAIGN as NONSEPARABLE_CAMPAIGN,
)
from novikoff.fuzz.falsify_nonseparable import (
    NonseparableCounterexample,
    evaluable,
    extremal_precheck,
    nonseparable_numbers,
    replay_nonseparable,
    search_nonseparable,
)
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.settings_space import RunSetting, parameter_values, settings_for, validate_epsilon
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


def _values(ds: Dataset, cert: SeparableCertificate, setting: RunSetting) -> dict[str, Fraction]:
    common = {"R2": cert.R2, "gamma2": cert.gamma2, "m": Fraction(ds.n_samples), "d": Fraction(ds.n_features)}
    return {**common, **setting.values(cert.gamma2)}


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
    """Search for a counterexample to ``updates <= bound`` (see :func:`_falsify`); the
    counterexample records the bound's text and limits, so its file replays alone.
    ``nonseparable`` runs the non-separable campaign
    (:mod:`novikoff.fuzz.falsify_nonseparable`; perceptron only, one process)."""
    if nonseparable:
        return _falsify_nonseparable(
            text, examples, seed, database, workers, progress, precheck, algorithm, limits, executor
        )
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
        executor=executor,
    )
    if result.counterexample is not None:
        result.counterexample.bound_text = text
        result.counterexample.limits = limits
    return result


def _falsify_nonseparable(
    text: str,
    examples: int,
    seed: int,
    database: str | None,
    workers: int,
    progress: ProgressCallback | None,
    precheck: bool,
    algorithm: str,
    limits: BoundLimits,
    executor: ExecutorSpec | None,
) -> FalsifyResult:
    bound = parse_bound(text, algorithm, limits, nonseparable=True)
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
    executor: ExecutorSpec | None = None,
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
    """
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


def certify_check(ce: Counterexample) -> bool:
    """Re-derive the counterexample's numbers from scratch (certificate and exact run):
    True iff the data are separable and give the recorded update count and values (for a
    non-separable campaign's: the recorded mistakes and values at its T, u and gamma)."""
    if isinstance(ce, NonseparableCounterexample):
        if not isinstance(ce.dataset, Dataset):
            return False
        direction = [int(v) for v in ce.direction]
        mistakes, values, _ = nonseparable_numbers(ce.dataset, ce.passes, ce.order, direction, ce.gamma)
        return (mistakes, values) == (ce.updates, ce.values)
    numbers = CAMPAIGNS[ce.setting.spec.family].numbers(ce.dataset, ce.setting, ce.order)
    return numbers is not None and numbers == (ce.updates, ce.values)


# --------------------------------------------------------------------------- families


def _binary_numbers(ds: Dataset, setting: RunSetting, order: Order) -> tuple[int, dict[str, Fraction]] | None:
    cert = certify(ds)
    if not isinstance(cert, SeparableCertificate):
        return None
    return setting.run(ds, cert, order, MAX_EPOCHS), _values(ds, cert, setting)


def _binary_replay_data(
    rows: list[list[Fraction]], labels: list[int], bias: Fraction, header: dict[str, Any], name: str
) -> Dataset:
    return Dataset.from_fraction_rows(rows, labels, bias=bias, name=name)


@dataclass(frozen=True)
class FamilyCampaign:
    """How falsify runs the algorithms of one family (:attr:`Algorithm.family`).

    ``search(bound, examples, seed, database, progress, campaign)`` is the family's own
    one-process search, or None for the binary flow (the T1 pre-check, then
    :func:`_search`, in ``workers`` processes); ``numbers(data, setting, order)`` re-derives
    (updates, bound values) exactly, None when the data are not separable;
    ``replay_data(rows, labels, bias, header, name)`` reads a counterexample file's data.
    """

    search: Callable[..., FalsifyResult] | None
    numbers: Callable[[Any, RunSetting, Order], tuple[int, dict[str, Fraction]] | None]
    replay_data: Callable[[list[list[Fraction]], list[int], Fraction, dict[str, Any], str], Any]


#: The campaign of each algorithm family.
CAMPAIGNS: dict[str, FamilyCampaign] = {
    "binary": FamilyCampaign(None, _binary_numbers, _binary_replay_data),
    "multiclass": FamilyCampaign(search_multiclass, multiclass_numbers, multiclass_replay_data),
}


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
    from novikoff.exact.rational import parse_rational

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
    from novikoff.exact.rational import parse_rational

    header, rows, labels = _read_counterexample(path)
    try:
        algorithm = str(header["algorithm"])
        params = {str(k): str(v) for k, v in dict(header.get("parameters", {})).items()}
        bias = parse_rational(str(header["bias"]))
        limits = BoundLimits(*header.get("bound_limits", []))
        nonseparable = "nonseparable" in header
        bound = parse_bound(str(header["bound"]), algorithm, limits, nonseparable=nonseparable)
        eps = parse_rational(params["eps"]) if "eps" in params else None
        spec = lookup(algorithm)
        if spec.parameter is not None:
            eps = validate_epsilon(eps, "parameters.eps")
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{path}, line 1: bad replay header ({type(exc).__name__}: {exc})") from None
    order = _order_from_json(header.get("order", "natural"), path)
    if nonseparable:
        data = Dataset.from_fraction_rows(rows, labels, bias=bias, name=str(path))
        updates, values, params = replay_nonseparable(data, header, bound, order, str(path))
        bound = evaluable(bound)  # D, D2, T at the recorded direction and margin
    else:
        setting = RunSetting(algorithm, eps)
        family = CAMPAIGNS[spec.family]
        numbers = family.numbers(family.replay_data(rows, labels, bias, header, str(path)), setting, order)
        if numbers is None:
            raise InputError(f"{path}: the data are not separable, so no bound applies")
        updates, values = numbers
        keyword = spec.keyword
        if keyword is not None and keyword != "eps" and keyword in params:  # a value derived from eps
            recorded_value = parse_rational(params[keyword])
            if setting.parameter_value(values["gamma2"]) != recorded_value:
                raise InputError(
                    f"{path}: the recorded {keyword} {params[keyword]} is not the one eps gives on these data"
                )
    recorded = header.get("updates")
    return Replay(
        algorithm,
        params,
        order_to_json(order),
        str(header["bound"]),
        updates,
        bound_value(bound, values),
        bound_exceeded(bound, updates, values),
        values,
        recorded if isinstance(recorded, int) else None,
    )
