"""Every call in a killable worker: a Python fit runs in a forked process of its own group;
a hang is killed with its group and ends its data family only (reported once, the rest of
the campaign in a fresh worker); a crash or an exit is a finding; what the implementation
prints is captured per call and never reaches novikoff's stdout."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from novikoff.data.dataset import Dataset
from novikoff.fuzz.contract import Unsupported
from novikoff.fuzz.harness import check_implementation
from novikoff.fuzz.worker import Call, ForkRunner, InProcessRunner
from tests.impls.perceptrons import correct

REPO = Path(__file__).resolve().parents[2]
DS = Dataset.from_fraction_rows([[Fraction(1), Fraction(0)], [Fraction(-1, 2), Fraction(2)]], [1, -1], bias=1)
CALL = Call(DS, None, 20)


def test_a_call_runs_in_a_worker_process_of_its_own_group() -> None:
    def fit(X: np.ndarray, y: np.ndarray, **kw: Any) -> dict[str, Any]:
        return {"weights": np.zeros(3), "notes": [f"{os.getpid()} {os.getpgid(0)}"]}

    with ForkRunner(fit, timeout=30) as runner:
        pid, group = map(int, runner.call(CALL).output["notes"][0].split())
        assert pid == group == runner.pid and pid != os.getpid()
        again = runner.call(CALL).output["notes"][0]
        assert again.split()[0] == str(pid)  # one worker serves call after call
    assert runner.pid is None


def test_a_hang_is_killed_with_its_group_and_the_next_call_gets_a_fresh_worker(tmp_path: Path) -> None:
    child = tmp_path / "child.pid"

    def fit(X: np.ndarray, y: np.ndarray, **kw: Any) -> Any:
        if not child.exists():  # the first call (a file: each worker has its own memory)
            proc = subprocess.Popen(["sleep", "1000"])  # a grandchild in the worker's group
            child.write_text(str(proc.pid))
            print("about to hang", flush=True)
            while True:
                time.sleep(1)
        return correct(X, y, kw["max_epochs"], kw["order"])

    with ForkRunner(fit, timeout=2) as runner:
        hung = runner.call(CALL)
        assert hung.status == "timeout" and "did not return within 2 s" in hung.message
        assert hung.stdout == "about to hang\n"
        state = _process_state(int(child.read_text()))
        assert state in (None, "Z"), state  # killed with the group (a zombie until reaped)
        assert runner.call(CALL).status == "ok" and runner.workers_started == 2


def _process_state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (lambda: os._exit(7), "crash", "fit crashed: the worker exited with status 7"),
        (lambda: os.kill(os.getpid(), signal.SIGSEGV), "crash", "killed by SIGSEGV (11)"),
        (lambda: sys.exit(3), "exit", "fit called sys.exit(3)"),
        (lambda: 1 / 0, "raised", "fit raised ZeroDivisionError: division by zero"),
        (lambda: (_ for _ in ()).throw(Unsupported("not here")), "unsupported", "not here"),
    ],
    ids=["os._exit", "SIGSEGV", "sys.exit", "raises", "unsupported"],
)
def test_crashes_exits_and_exceptions_are_outcomes(body: Any, status: str, words: str) -> None:
    def fit(X: np.ndarray, y: np.ndarray, **kw: Any) -> Any:
        print("before", flush=True)
        body()

    with ForkRunner(fit, timeout=30) as runner:
        outcome = runner.call(CALL)
        assert outcome.status == status and words in outcome.message, outcome
        assert outcome.stdout == "before\n"


def test_every_kind_of_output_is_captured_per_call() -> None:
    def fit(X: np.ndarray, y: np.ndarray, **kw: Any) -> Any:
        print("python print")
        os.write(1, b"fd write\n")
        ctypes.CDLL(None).printf(b"c stdio %d\n", 42)  # buffered in C: flushed after the call
        sys.stderr.write("warning\n")
        return np.zeros(3)

    with ForkRunner(fit, timeout=30) as runner:
        first = runner.call(CALL)
        second = runner.call(CALL)
    for outcome in (first, second):  # each call's own output, not the one before
        assert outcome.stdout.splitlines() == ["python print", "fd write", "c stdio 42"], outcome
        assert outcome.stderr == "warning\n"


def test_lambdas_and_closures_run_in_the_worker_and_in_process() -> None:
    scale = 0.5
    fit = lambda X, y, **kw: {"weights": scale * np.ones(X.shape[1] + 1)}  # noqa: E731
    for runner in (ForkRunner(fit, 30), InProcessRunner(fit, 30)):
        with runner:
            assert runner.call(CALL).output["weights"].tolist() == [0.5, 0.5, 0.5]


def hangs_on_nonseparable(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    """Correct, except that it never returns when the data are not separable."""
    out = correct(X, y, max_epochs, order)
    while not out["converged"]:
        time.sleep(1)
    return out


def test_a_hang_ends_its_family_only_and_is_reported_once() -> None:
    families = [
        "float-exact separable",
        "float-exact non-separable",
        "gordan non-separable",
        "float-exact copies",
    ]
    report = check_implementation(hangs_on_nonseparable, examples=4, call_timeout=2, families=families)
    assert not report.ok and not report.bugs
    (hang,) = report.errors  # one finding however many families hung
    assert hang.status == "timeout" and hang.family_id in families
    counts = {c.id: (c.timeouts, c.not_run) for c in report.families}
    assert counts["gordan non-separable"] == (1, 3)  # its first call hung: the rest not run
    assert counts["float-exact separable"][0] == 0
    assert report.timeouts == sum(t for t, _ in counts.values()) >= 2
    assert report.families[-1].agreed + report.families[-1].timeouts >= 1  # the campaign went on


def test_the_implementations_output_never_reaches_novikoffs_stdout(tmp_path: Path) -> None:
    (tmp_path / "chatty.py").write_text(
        "import os\n"
        "from tests.impls.perceptrons import correct\n"
        "def fit(X, y, max_epochs=1000, order=None):\n"
        "    print('{not json')\n"
        "    os.write(1, b'raw]')\n"
        "    return correct(X, y, max_epochs, order)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "diff", "chatty:fit", "--examples", "3", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}:{REPO}"},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_the_campaigns_time_limit_leaves_no_worker_behind(tmp_path: Path) -> None:
    (tmp_path / "forever.py").write_text("import time\ndef fit(X, y, **kw):\n    time.sleep(10**6)\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "novikoff.cli",
            "diff",
            "forever:fit",
            "--call-timeout",
            "0",
            "--time-limit",
            "1",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}:{REPO}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    proc.communicate(timeout=600)
    assert proc.returncode == 1
    left = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _session(p) == proc.pid]
    assert [p for p in left if _process_state(int(p.name)) not in (None, "Z")] == []


def _session(entry: Path) -> int | None:
    try:
        return int(entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[3])
    except (OSError, ValueError, IndexError):
        return None
