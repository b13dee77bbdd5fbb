"""``novikoff diff --command`` end to end with the C++ perceptron of examples/perceptron-cpp:
the correct build passes under every declared semantics (it reads them from the request),
each planted bug (``-DBUG_*``) is caught with the finding it should give, a native hang is
bounded by --call-timeout and reported once, a crash is shrunk, the implementation's output
never reaches novikoff's stdout, and the ``reproduce:`` line reruns the configuration."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from novikoff import cli
from novikoff.fuzz.harness import Report, check_implementation
from novikoff.fuzz.semantics import Semantics
from novikoff.fuzz.worker import CommandRunner

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "examples" / "perceptron-cpp" / "perceptron.cpp"
VARIANTS = ("", "TIE", "BIAS", "LAST", "EPOCHS", "HANG", "CRASH", "STDOUT")

pytestmark = pytest.mark.xdist_group("diff-command")  # one worker builds the binaries


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every variant built with g++ (two compilers at a time), by name ('' = correct)."""
    if shutil.which("g++") is None or not Path("/usr/include/gmpxx.h").exists():
        pytest.skip("g++ and libgmp-dev are needed (.ci/run installs them)")
    out = tmp_path_factory.mktemp("perceptron-cpp")
    built: dict[str, str] = {}
    pending = list(VARIANTS)
    while pending:
        batch, pending = pending[:2], pending[2:]
        procs = []
        for name in batch:
            exe = out / f"perceptron{'-' + name.lower() if name else ''}"
            flag = [f"-DBUG_{name}"] if name else []
            cmd = ["g++", "-O0", "-std=c++17", "-Wall", "-Wextra", *flag, "-o", str(exe), str(SOURCE)]
            procs.append((name, exe, subprocess.Popen([*cmd, "-lgmpxx", "-lgmp"], stderr=subprocess.PIPE)))
        for name, exe, proc in procs:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err.decode()
            built[name] = str(exe)
    return built


def diff(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """``novikoff diff ARGS`` in a process (and session) of its own."""
    return subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "diff", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
    )


def report(*args: str) -> tuple[int, dict[str, Any]]:
    proc = diff(*args, "--json")
    return proc.returncode, json.loads(proc.stdout)  # valid JSON, whatever the command printed


def test_the_correct_build_passes_every_family(binaries: dict[str, str]) -> None:
    code, out = report("--command", binaries[""], "--examples", "10")
    assert code == 0 and out["ok"] and out["protocol_version"] == 1, out
    families = out["families"]
    assert isinstance(families, list) and len(families) == 7
    assert all(f["agreed"] + f["ambiguous"] == f["examples"] == 10 for f in families), families


def campaign(exe: str, examples: int, families: list[str] | None = None, **declared: object) -> Report:
    """The diff campaign of the command ``exe`` in this process (the calls in their own)."""
    sem = Semantics(**declared)  # type: ignore[arg-type]
    return check_implementation(
        CommandRunner(exe, sem, timeout=30), examples=examples, semantics=sem, families=families
    )


SOME = ["float-exact separable", "float-exact near ties", "general float", "gordan non-separable"]


@pytest.mark.parametrize(
    "declared",
    [
        {"tie_rule": "strict", "initial_weights": "drawn"},
        {"tie_rule": "sign-positive"},
        {"tie_rule": "sign-negative", "stop": "all-epochs"},
        {"margin": F(1)},
        {"margin": F(1, 2), "learning_rate": F(1, 3), "initial_weights": "drawn"},
        {"order": "shuffle-v1:7"},
        {"order": "natural", "precision": "float32"},
    ],
    ids=lambda d: " ".join(f"{k}={v}" for k, v in d.items()),
)
def test_the_correct_build_passes_each_declared_semantics(
    binaries: dict[str, str], declared: dict[str, object]
) -> None:
    # an independent implementation of each declared rule (it reads them from the request)
    # agrees with the exact reference's
    report = campaign(binaries[""], 6, SOME, **declared)
    assert report.ok and report.agreed > 0, report.summary()


@pytest.mark.parametrize(
    ("variant", "check", "words"),
    [
        ("TIE", "check_updates_match_reference", "try --tie-rule strict"),
        ("BIAS", "check_weight_direction", ""),
        ("LAST", "check_updates_match_reference", ""),
        ("EPOCHS", "check_epoch_count", ""),
    ],
)
def test_each_planted_bug_is_caught_with_a_minimal_example(
    binaries: dict[str, str], variant: str, check: str, words: str
) -> None:
    report = campaign(binaries[variant], 10, SOME[:2])
    assert not report.ok and report.bugs
    first = report.bugs[0]
    assert first.check == check and first.message.startswith("(minimal example)"), first.describe()
    assert first.dataset.n_samples <= 3 and first.trace, first.describe()
    if variant not in ("EPOCHS", "BIAS"):  # the weights come out wrong too
        assert "check_weight_direction" in {name for name, _ in first.others}, first.describe()
    assert words in first.hint
    assert first.stdout.startswith("novikoff-perceptron 1\n")  # the response, shown


def test_a_declared_difference_is_no_bug_and_an_undeclared_one_is(binaries: dict[str, str]) -> None:
    assert campaign(binaries["TIE"], 10, SOME, tie_rule="strict").ok  # "<" is its declared rule ...
    other = campaign(binaries["LAST"], 10, SOME[:1], tie_rule="strict", initial_weights="drawn")
    assert other.bugs, other.summary()  # ... and declaring a rule excuses nothing else


def test_a_native_hang_is_bounded_and_reported_once(binaries: dict[str, str]) -> None:
    families = "float-exact separable,general float"
    code, out = report(
        "--command", binaries["HANG"], "--examples", "4", "--call-timeout", "0.5", "--families", families
    )
    assert code == 1 and not out["ok"]
    assert out["errors"] == [
        "the command did not answer within 0.5 s (the per-call limit, --call-timeout); its process "
        "group was killed"
    ]
    assert out["timeouts"] == 2 and out["not_run"] == 6  # one call per family, the rest not run
    assert [(f["timeouts"], f["not_run"]) for f in out["families"]] == [(1, 3), (1, 3)]
    assert "--call-timeout 0.5" in str(out["reproduce"])


def test_a_crash_is_a_finding_shrunk_to_its_cause(binaries: dict[str, str]) -> None:
    report = campaign(binaries["CRASH"], 20, SOME[:1])
    (crash, *_) = report.errors
    assert (
        crash.status == "crash"
        and crash.message == "(minimal example) the command was killed by SIGSEGV (11)"
    )
    assert crash.dataset.n_samples == 1 and crash.dataset.features(0) == [0], crash.describe()


def test_output_outside_the_protocol_is_a_finding_and_never_novikoffs_output(
    binaries: dict[str, str],
) -> None:
    code, out = report("--command", binaries["STDOUT"], "--examples", "3", "--families", "float-exact copies")
    assert code == 1
    (finding, *_) = out["error_findings"]
    assert finding["status"] == "protocol" and "unknown key 'debug:'" in finding["message"]
    assert "debug: done" in finding["stdout"]


def test_the_reproduce_line_reruns_the_configuration_that_failed(binaries: dict[str, str]) -> None:
    first = diff("--command", binaries["LAST"], "--examples", "6", "--margin", "1/2")
    assert first.returncode == 1
    line = next(x for x in first.stdout.splitlines() if x.startswith("reproduce: "))
    words = shlex.split(line.removeprefix("reproduce: "))
    assert words[:2] == ["novikoff", "diff"] and "--margin" in words and "1/2" in words
    again = diff(*words[2:])
    assert again.returncode == 1

    def finding(text: str) -> str:
        return text.split("[bug]")[1].split("reproduce:")[0]

    assert finding(again.stdout) == finding(first.stdout)
    assert line in again.stdout


def test_usage_errors_name_the_option(binaries: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    for args, words in [
        (["--command", binaries[""], "tests.impls.perceptrons:correct"], "exactly one"),
        ([], "exactly one"),
        (["--command", binaries[""] + " {tie}"], "unknown placeholder {tie}"),
        (["--command", "/nonexistent/perceptron"], "cannot run '/nonexistent/perceptron'"),
        (["--command", binaries[""], "--tie-rule", "sometimes"], "--tie-rule: expected one of"),
        (["--command", binaries[""], "--margin", "-1"], "--margin: expected a rational >= 0"),
        (["--command", binaries[""], "--order", "shuffle-v1:x"], "--order: expected given, natural"),
        (["--command", binaries[""], "--families", "nope"], "--families: unknown 'nope'"),
        (
            ["--command", binaries[""], "--algorithm", "multiclass", "--tie-rule", "strict"],
            "are for --algorithm",
        ),
        (["tests.impls.perceptrons:correct", "--algorithm", "pdm", "--margin", "1"], "are for --algorithm"),
    ]:
        assert cli.main(["diff", *args]) == 2, args
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, (args, err)
