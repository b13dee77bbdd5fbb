"""``novikoff diff`` cut into shards for :func:`novikoff.runtime.executors.run_until_first`.

A diff campaign is one Hypothesis search per data family of the algorithm, each with the
same budget and seed as the serial :func:`~novikoff.fuzz.harness.check_implementation`;
a shard is one family. So a sharded campaign that finds no bug reports exactly what the
serial one reports (same examples, same verdicts), wherever its shards run; when one
shard finds a bug or an error, the others are cancelled and the report holds what the
finished shards saw.

The implementation travels by name: ``MODULE:CALLABLE`` (imported again in the worker by
:func:`~novikoff.fuzz.harness.load_callable`: on a Dask cluster its module must be
importable on every worker) or a ``--command`` line (run by a
:class:`~novikoff.fuzz.worker.CommandRunner` in the worker, from the driver's working
directory: the executable must exist at that path on every worker). The declared
semantics and the chosen families travel with the shards. Every call runs in a killable
worker process (a forked child or the command's process group), so ``--call-timeout``
bounds a call on Dask's worker threads too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from novikoff.fuzz.harness import (
    Report,
    call_time_limit,
    check_family,
    load_callable,
    merge_reports,
    select_families,
    sklearn_fit,
)
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.fuzz.worker import CommandRunner
from novikoff.runtime.executors import ExecutorSpec, run_until_first

__all__ = ["DiffShard", "diff_shard", "run_diff_shards"]


@dataclass(frozen=True)
class DiffShard:
    """One data family of a diff campaign, with everything a worker needs to run it:
    ``target`` (MODULE:CALLABLE, or None with ``command``), the declared ``semantics``, and
    ``cwd``, the directory the command runs in."""

    target: str | None
    sklearn_params: dict[str, Any] | None
    algorithm: str
    family: str
    examples: int
    seed: int
    call_timeout: float | None
    command: str | None = None
    semantics: Semantics = DEFAULT
    cwd: str | None = None


def diff_shard(shard: DiffShard) -> Report:
    """Run one family of a diff campaign (in a worker): load the implementation by name
    (adapting a scikit-learn estimator if asked) or build the command's runner, and check
    the family as the serial run does."""
    fit: Any
    if shard.command is not None:
        fit = CommandRunner(shard.command, shard.semantics, shard.call_timeout, cwd=shard.cwd)
    else:
        if shard.target is None:
            raise ValueError("a diff shard needs a target or a command")
        target = load_callable(shard.target)
        fit = sklearn_fit(target, **shard.sklearn_params) if shard.sklearn_params is not None else target
    call_time_limit(shard.call_timeout)
    try:
        return check_family(
            fit,
            shard.family,
            shard.examples,
            shard.seed,
            algorithm=shard.algorithm,
            semantics=shard.semantics,
            call_timeout=shard.call_timeout or 0,
        )
    finally:
        if shard.command is not None:
            fit.close()


def run_diff_shards(
    executor: ExecutorSpec,
    target: str | None,
    sklearn_params: dict[str, Any] | None,
    algorithm: str,
    examples: int,
    seed: int,
    call_timeout: float | None,
    repro: str,
    timeout: float | None = None,
    *,
    command: str | None = None,
    semantics: Semantics = DEFAULT,
    families: Sequence[str] | None = None,
) -> Report:
    """The diff campaign with one shard per data family (those named in ``families``, else
    all) on ``executor``, of ``target`` or of ``command``, under the declared ``semantics``;
    the first shard that finds a bug or an error stops the others (its findings are in
    the report). Unknown family names are an InputError before anything runs."""
    chosen = select_families(algorithm, families)
    cwd = os.getcwd() if command is not None else None
    shards = [
        (
            DiffShard(
                target,
                sklearn_params,
                algorithm,
                fam.name,
                examples,
                seed,
                call_timeout,
                command,
                semantics,
                cwd,
            ),
        )
        for fam in chosen
    ]
    outcome = run_until_first(executor, diff_shard, shards, is_hit=_found_something, timeout=timeout)
    return merge_reports([outcome.results[i] for i in sorted(outcome.results)], repro)


def _found_something(report: Report) -> bool:
    return not report.ok
