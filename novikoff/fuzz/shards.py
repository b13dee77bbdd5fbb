"""``novikoff diff`` cut into shards for :func:`novikoff.executors.run_until_first`.

A diff campaign is one Hypothesis search per data family of the algorithm, each with the
same budget and seed as the serial :func:`~novikoff.fuzz.harness.check_implementation`;
a shard is one family. So a sharded campaign that finds no bug reports exactly what the
serial one reports (same examples, same verdicts), wherever its shards run; when one
shard finds a bug or an error, the others are cancelled and the report holds what the
finished shards saw.

The implementation travels by name (``MODULE:CALLABLE``, imported again in the worker by
:func:`~novikoff.fuzz.harness.load_callable`), so on a Dask cluster its module must be
importable on every worker. The per-call limit (``--call-timeout``) is a SIGALRM timer,
which only works in a process's main thread: local shards have it; Dask runs tasks in
worker threads, where only the campaign's ``--time-limit`` bounds a call that never returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from novikoff.executors import ExecutorSpec, run_until_first
from novikoff.fuzz.harness import (
    Report,
    call_time_limit,
    check_family,
    load_callable,
    merge_reports,
    sklearn_fit,
)
from novikoff.fuzz.registry import lookup

__all__ = ["DiffShard", "diff_shard", "run_diff_shards"]


@dataclass(frozen=True)
class DiffShard:
    """One data family of a diff campaign, with everything a worker needs to run it."""

    target: str
    sklearn_params: dict[str, Any] | None
    algorithm: str
    family: str
    examples: int
    seed: int
    call_timeout: float | None


def diff_shard(shard: DiffShard) -> Report:
    """Run one family of a diff campaign (in a worker): load the implementation by name,
    adapt a scikit-learn estimator if asked, and check the family as the serial run does."""
    target = load_callable(shard.target)
    fit = sklearn_fit(target, **shard.sklearn_params) if shard.sklearn_params is not None else target
    call_time_limit(shard.call_timeout)
    return check_family(fit, shard.family, shard.examples, shard.seed, algorithm=shard.algorithm)


def run_diff_shards(
    executor: ExecutorSpec,
    target: str,
    sklearn_params: dict[str, Any] | None,
    algorithm: str,
    examples: int,
    seed: int,
    call_timeout: float | None,
    repro: str,
    timeout: float | None = None,
) -> Report:
    """The diff campaign with one shard per data family on ``executor``; the first shard that
    finds a bug or an error stops the others (its findings are in the report)."""
    algo = lookup(algorithm)
    shards = [
        (DiffShard(target, sklearn_params, algo.name, fam.name, examples, seed, call_timeout),)
        for fam in algo.data_families
    ]
    outcome = run_until_first(executor, diff_shard, shards, is_hit=_found_something, timeout=timeout)
    return merge_reports([outcome.results[i] for i in sorted(outcome.results)], repro)


def _found_something(report: Report) -> bool:
    return not report.ok
