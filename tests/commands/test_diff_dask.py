"""``novikoff diff --executor dask://...`` with ``--command``, declared semantics and
``--families`` on a LocalCluster on 127.0.0.1: the sharded campaign reports what the serial
one reports, catches what the serial one catches, and runs only the families asked for."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from fractions import Fraction as F
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.fuzz.harness import check_implementation
from novikoff.fuzz.semantics import Semantics
from novikoff.fuzz.shards import run_diff_shards
from novikoff.fuzz.worker import CommandRunner
from novikoff.runtime.executors import parse_executor

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tests" / "impls" / "protocol_perceptron.py"
COMMAND = f"{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))} --tie-rule {{tie_rule}}"
TEXTBOOK = f"{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))}"  # ignores the declaration
FAMILIES = ["float-exact separable", "float-exact near ties"]

pytestmark = pytest.mark.xdist_group("dask")


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    """A LocalCluster of 2 worker processes (1 thread each) on loopback."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield f"dask://{cluster.scheduler_address.removeprefix('tcp://')}"
    finally:
        cluster.close()


def test_a_command_with_declared_semantics_on_dask_is_the_serial_campaign(dask_address: str) -> None:
    spec = parse_executor(dask_address)
    strict = Semantics(tie_rule="strict")
    sharded = run_diff_shards(
        spec, None, None, "perceptron", 6, 3, 20.0, "", command=COMMAND, semantics=strict, families=FAMILIES
    )
    with CommandRunner(COMMAND, strict, 20.0) as runner:
        serial = check_implementation(runner, examples=6, seed=3, semantics=strict, families=FAMILIES)
    assert sharded.ok and serial.ok, sharded.summary()
    assert [c.id for c in sharded.families] == FAMILIES
    assert (sharded.examples, sharded.agreed, sharded.unsupported) == (
        serial.examples,
        serial.agreed,
        serial.unsupported,
    )


def test_a_wrong_declaration_and_a_planted_bug_are_caught_on_dask(dask_address: str) -> None:
    spec = parse_executor(dask_address)
    wrong = run_diff_shards(
        spec,
        None,
        None,
        "perceptron",
        20,
        0,
        20.0,
        "",
        command=TEXTBOOK,
        semantics=Semantics(tie_rule="strict"),
        families=["float-exact near ties"],
    )
    assert wrong.bugs and "--tie-rule nonstrict" in wrong.bugs[0].hint, wrong.summary()
    target = "tests.impls.semantics:tenth_rate"
    declared = run_diff_shards(
        spec,
        target,
        None,
        "perceptron",
        6,
        0,
        20.0,
        "",
        semantics=Semantics(learning_rate=F(1, 10)),
        families=FAMILIES,
    )
    assert declared.ok, declared.summary()


def test_the_cli_runs_command_semantics_and_families_on_dask(
    dask_address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["diff", "--command", COMMAND, "--examples", "5", "--executor", dask_address, "--json"]
    args += ["--families", ",".join(FAMILIES), "--tie-rule", "strict"]
    assert cli.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and [f["id"] for f in out["families"]] == FAMILIES, out
    assert cli.main([*args[:-2], "--families", "no such family"]) == 2
