"""``novikoff diff --impl extracted``: the program extracted from Coq as a named protocol target.

``--impl extracted`` builds the extracted program (or finds it in the cache) and runs it as
``--command``: it agrees with the exact reference (protocol version 1, and version 2 for the
voted and multiclass perceptrons); a bug planted in the Python reference is reported against
it with the minimal dataset; misuse is a usage error (exit 2), never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from novikoff import cli
from novikoff.commands import diff as diff_command
from novikoff.extracted import runner, unavailable
from novikoff.fuzz.harness import check_implementation
from novikoff.fuzz.worker import CommandRunner
from novikoff.reference import averaged as reference_averaged

REPO = Path(__file__).resolve().parents[2]
REASON = unavailable()
buildable = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")


def diff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "diff", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
    )


@buildable
@pytest.mark.parametrize(("algorithm", "version"), [("perceptron", 1), ("voted", 2), ("multiclass", 2)])
def test_the_extracted_program_agrees(algorithm: str, version: int) -> None:
    proc = diff("--impl", "extracted", "--algorithm", algorithm, "--examples", "2", "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    assert out["ok"] and out["agreed"] == out["examples"] > 0 and out["unsupported"] == 0, out
    assert out["protocol_version"] == version, out
    assert "--impl extracted" in out["reproduce"] and "--command" not in out["reproduce"], out["reproduce"]


@buildable
def test_outside_its_algorithms_it_answers_unsupported() -> None:
    """The driver declines declared semantics it does not run (a strict tie rule): counted
    as unsupported, not failed."""
    proc = diff("--impl", "extracted", "--tie-rule", "strict", "--examples", "2", "--json")
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["ok"] and out["unsupported"] == out["examples"] > 0, out


@buildable
def test_a_planted_reference_bug_is_reported_with_the_minimal_dataset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reference's survival counts shifted by one presentation: diff reports the extracted
    program's (correct) counts as a bug, shrunk to one sample."""
    real = reference_averaged.survival_counts

    def shifted(updates: Any, m: int, epochs: int, order: Any = None) -> tuple[int, ...]:
        c = real(updates, m, epochs, order)
        return (c[0] + 1, *c[1:-1], c[-1] - 1) if len(c) > 1 else c

    monkeypatch.setattr(reference_averaged, "survival_counts", shifted)
    target = CommandRunner(runner.protocol_command("extracted"))
    report = check_implementation(target, "voted", examples=5, seed=0, families=["float-exact separable"])
    assert not report.ok and report.bugs, report.summary()
    bug = report.bugs[0]
    print(bug.message)
    assert "(minimal example)" in bug.message and "survival counts" in bug.message, bug.message
    assert bug.dataset.n_samples == 1, bug.message


def test_misuse_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, reason in [
        (["diff", "--impl", "extracted", "--command", "true"], "--impl runs a named implementation"),
        (["diff", "--impl", "extracted", "mod:fit"], "--impl runs a named implementation"),
        (["diff", "--impl", "extracted", "--sklearn", "shuffle=False"], "not --impl"),
    ]:
        assert cli.main(argv) == 2, argv
        assert reason in capsys.readouterr().err, argv
    with pytest.raises(SystemExit) as exc:
        cli.main(["diff", "--impl", "no-such-implementation"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_a_program_that_cannot_be_built_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(name: str) -> str:
        raise runner.ExtractedError("the extracted perceptron could not be built: coqc is not installed")

    monkeypatch.setattr(runner, "protocol_command", broken)
    assert cli.main(["diff", "--impl", "extracted"]) == 2
    err = capsys.readouterr().err
    assert "--impl extracted" in err and "coqc is not installed" in err and "Traceback" not in err


def test_the_names_are_the_runner_s() -> None:
    assert diff_command.IMPLEMENTATIONS == runner.IMPLEMENTATIONS
    with pytest.raises(Exception, match="named implementations are extracted"):
        runner.protocol_command("nope")
