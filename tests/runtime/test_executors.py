"""novikoff.runtime.executors: parsing --executor, and run_until_first on local processes and on a
Dask cluster of two worker processes on loopback (started here, with a Redis server for the
shared example database).

The shard functions below are module-level so that they pickle by reference: the Dask
workers are spawned processes that inherit this process's sys.path (multiprocessing passes
it on), which holds tests/ under pytest's default import mode, so they import this module
by name. The fixture checks that before any test relies on it.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from novikoff.errors import InputError
from novikoff.runtime.executors import (
    ExecutorSpec,
    ShardCancelled,
    ShardError,
    installed_version,
    parse_executor,
    raise_if_stopped,
    run_until_first,
    stop_requested,
)

# a scheduler serves HTTP (health, metrics) on 8787 even without a dashboard; a second one moves on
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning")

_ON_CI = bool(os.environ.get("CI"))
_SLEEP = 30.0  # a sleeping shard's length: every run that stops early takes far less


def _missing(what: str) -> NoReturn:
    if _ON_CI:
        pytest.fail(f"{what} is missing on CI (.ci/run installs it)")
    pytest.skip(f"{what} is not installed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- shard functions (run in the workers) ------------------------------------------------------


def nap(seconds: float, value: int, marker: str | None = None) -> int:
    """Return ``value`` after ``seconds``, or early when the task is cancelled. With a marker
    file: write this process's pid when starting, then append how the nap ended."""
    if marker is not None:
        Path(marker).write_text(f"{os.getpid()}\n")
    end = time.monotonic() + seconds
    ended = "slept"
    while time.monotonic() < end:
        if stop_requested():
            ended = "stopped"
            break
        time.sleep(0.02)
    if marker is not None:
        with Path(marker).open("a") as f:
            f.write(ended + "\n")
    return value


def fail(message: str) -> int:
    raise ValueError(message)


def nap_or_fail(seconds: float, value: int, marker: str | None) -> int:
    """:func:`nap`, but a negative value raises ValueError after the nap."""
    nap(seconds, value, marker)
    if value < 0:
        raise ValueError(f"negative value {value}")
    return value


def die() -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def search_until_stopped(marker: str, hit_after: float) -> int:
    """With hit_after < 0: a Hypothesis search of a million examples that calls
    raise_if_stopped() in every example and records in the marker file how it ended.
    Otherwise: return -1 (a hit) after hit_after seconds."""
    if hit_after >= 0:
        time.sleep(hit_after)
        return -1
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    seen = 0

    @settings(max_examples=10**6, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers())
    def search(value: int) -> None:
        nonlocal seen
        seen += 1
        if seen == 1:
            Path(marker).write_text("started\n")
        time.sleep(0.005)
        raise_if_stopped()

    try:
        search()
    except ShardCancelled:
        with Path(marker).open("a") as f:
            f.write(f"cancelled after {seen} examples\n")
        raise
    return seen


def where_am_i() -> tuple[int, str]:
    return os.getpid(), __name__


# --- parsing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "address", "canonical"),
    [
        ("local", "local", "", "local"),
        ("  LOCAL ", "local", "", "local"),
        ("dask://127.0.0.1:8786", "dask", "tcp://127.0.0.1:8786", "dask://127.0.0.1:8786"),
        (
            "dask://Sched.example.org:9000",
            "dask",
            "tcp://sched.example.org:9000",
            "dask://sched.example.org:9000",
        ),
        ("DASK://[::1]:8786/", "dask", "tcp://[::1]:8786", "dask://[::1]:8786"),
    ],
)
def test_good_executor_specs(text: str, kind: str, address: str, canonical: str) -> None:
    pytest.importorskip("distributed")
    spec = parse_executor(text)
    assert (spec.kind, spec.address, str(spec)) == (kind, address, canonical)
    assert parse_executor(str(spec)) == spec  # the canonical spelling reads back


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("threads", "unknown executor"),
        ("tcp://127.0.0.1:8786", "unknown scheme 'tcp://'; write dask://HOST:PORT"),
        ("http://h:80", "unknown scheme 'http://'"),
        ("dask://sched", "missing port"),
        ("dask://sched:", "missing port"),
        ("dask://:8786", "missing host"),
        ("dask://sched:0", "port 0 is not in 1..65535"),
        ("dask://sched:70000", "bad address (Port out of range"),
        ("dask://sched:87a6", "bad address"),
        ("dask://sched:-1", "bad address"),
        ("dask://sched:8786/extra", "nothing may follow HOST:PORT"),
        ("dask://sched:8786?x=1", "nothing may follow HOST:PORT"),
        ("dask://me@sched:8786", "no user or password"),
        ("dask://[::1:8786", "bad address"),
        ("dask://[fe80::zz]:8786", "bad address ('fe80::zz' does not appear to be an IPv4 or IPv6"),
        ("dask://::1:8786", "bad address (Port could not be cast"),
        ("dask://[127.0.0.1]:8786", "bad address (An IPv4 address cannot be in brackets"),
        ("dask://sched host:8786", "bad host name 'sched host'"),
        ("dask://sch%65d:8786", "bad host name 'sch%65d'"),
        ("dask://-sched:8786", "bad host name '-sched'"),
        ("dask://sched..lan:8786", "bad host name 'sched..lan'"),
    ],
)
def test_bad_executor_specs_name_the_option_and_the_reason(text: str, reason: str) -> None:
    pytest.importorskip("distributed")
    with pytest.raises(InputError) as info:
        parse_executor(text)
    message = str(info.value)
    assert message.startswith(f"--executor {text!r}: "), message
    assert reason in message, message
    assert "expected 'local' or 'dask://HOST:PORT'" in message


def test_a_dask_spec_without_distributed_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    with pytest.raises(InputError, match=r'--executor: .*pip install "novikoff\[dask\]"'):
        parse_executor("dask://127.0.0.1:8786")
    assert parse_executor("local") == ExecutorSpec()  # local needs nothing


def test_stop_requested_is_false_outside_a_dask_task() -> None:
    assert stop_requested() is False
    raise_if_stopped()  # does not raise


# --- a cluster and a Redis server on loopback ----------------------------------------------------


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    """A LocalCluster of 2 worker processes (1 thread each) on loopback; its scheduler address."""
    try:
        import distributed
    except ImportError:
        _missing("the distributed package")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
            # the workers can import this module by name (the shard functions pickle by reference)
            seen = client.run(where_am_i)
            assert len(seen) == 2 and {name for _, name in seen.values()} == {__name__}
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Debian's redis-server on a free loopback port, nothing persisted."""
    server = shutil.which("redis-server")
    try:
        import redis
    except ImportError:
        _missing("the redis package")
    if server is None:
        _missing("redis-server")
    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.025)
        else:
            pytest.fail(f"redis-server did not answer on port {port}")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(params=["local", "dask"])
def spec(request: pytest.FixtureRequest) -> ExecutorSpec:
    if request.param == "local":
        return parse_executor("local")
    address = request.getfixturevalue("dask_address")
    return parse_executor("dask://" + address.removeprefix("tcp://"))


def _wait_for(path: Path, text: str, seconds: float = 10.0) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and text in path.read_text():
            break
        time.sleep(0.05)
    return path.read_text() if path.exists() else ""


def _assert_sleeper_stopped(spec: ExecutorSpec, marker: Path) -> None:
    """A cancelled sleeper is gone: a local one killed (its pid no longer exists), a Dask one
    (which cannot be killed) returned early, having seen stop_requested()."""
    assert _wait_for(marker, "\n"), "the sleeping shard never started"
    if spec.kind == "local":
        pid = int(marker.read_text().split()[0])
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        assert "slept" not in marker.read_text()
    else:
        assert _wait_for(marker, "stopped").split()[1:] == ["stopped"]


# --- run_until_first ------------------------------------------------------------------------------


def test_the_first_hit_returns_at_once_and_cancels_the_other_shards(
    spec: ExecutorSpec, tmp_path: Path
) -> None:
    marker = tmp_path / "sleeper"
    start = time.monotonic()
    outcome = run_until_first(
        spec,
        nap,
        [(_SLEEP, 0, str(marker)), (0.5, 1)],  # the hit waits until the sleeper has started
        is_hit=lambda value: value == 1,
    )
    elapsed = time.monotonic() - start
    assert outcome.hit_shard == 1 and outcome.hit == 1 and outcome.results == {1: 1}
    assert not outcome.complete and not outcome.timed_out
    assert elapsed < _SLEEP / 4, f"took {elapsed:.1f} s: the sleeping shard was waited for"
    _assert_sleeper_stopped(spec, marker)


def test_without_a_hit_every_result_comes_back(spec: ExecutorSpec) -> None:
    outcome = run_until_first(spec, nap, [(0.05 * i, 10 + i) for i in range(3)], is_hit=lambda v: v > 99)
    assert outcome.complete and outcome.hit is None and outcome.hit_shard is None
    assert outcome.ordered() == [10, 11, 12]
    assert sorted(outcome.results) == [0, 1, 2]


def test_the_time_limit_stops_the_run_and_cancels_the_shards(spec: ExecutorSpec, tmp_path: Path) -> None:
    marker = tmp_path / "sleeper"
    start = time.monotonic()
    outcome = run_until_first(
        spec, nap, [(_SLEEP, 0, str(marker)), (0.0, 7)], is_hit=lambda v: False, timeout=2.0
    )
    elapsed = time.monotonic() - start
    assert outcome.timed_out and outcome.hit is None and outcome.results == {1: 7}
    with pytest.raises(ValueError, match="only 1 of 2 shards returned"):
        outcome.ordered()
    assert 2.0 <= elapsed < _SLEEP / 4
    _assert_sleeper_stopped(spec, marker)


def test_an_exception_in_a_shard_names_the_shard_the_call_and_the_error(spec: ExecutorSpec) -> None:
    with pytest.raises(ShardError) as info:
        run_until_first(spec, fail, [("boom one",), ("boom two",)][1:], is_hit=lambda v: False)
    message = str(info.value)
    assert info.value.shard == 0
    assert message.startswith("shard 0 of 1 (fail('boom two')) failed "), message
    assert message.endswith("ValueError: boom two"), message
    assert (
        "on the Dask cluster at " + spec.address if spec.kind == "dask" else "in a local process"
    ) in message


def test_a_failing_shard_among_good_ones_is_the_one_named(spec: ExecutorSpec, tmp_path: Path) -> None:
    marker = tmp_path / "sleeper"
    with pytest.raises(ShardError) as info:
        run_until_first(
            spec,
            nap_or_fail,
            [(_SLEEP, 0, str(marker)), (0.3, -1, None)],
            is_hit=lambda v: False,
        )
    assert info.value.shard == 1 and "shard 1 of 2" in str(info.value)
    assert "ValueError: negative value -1" in str(info.value)
    _assert_sleeper_stopped(spec, marker)  # the error cancelled the other shard


def test_a_local_shard_that_dies_is_reported_with_its_signal() -> None:
    with pytest.raises(
        ShardError,
        match=r"shard 0 of 1 \(die\(\)\) failed in a local process: "
        r"the process died without a result \(killed by signal 9\)",
    ):
        run_until_first(ExecutorSpec(), die, [()], is_hit=lambda v: False)


def test_no_shards_is_an_empty_complete_outcome(spec: ExecutorSpec) -> None:
    outcome = run_until_first(spec, nap, [], is_hit=lambda v: True)
    assert outcome.complete and outcome.ordered() == [] and outcome.hit is None


def test_an_unreachable_scheduler_fails_fast_naming_the_address() -> None:
    pytest.importorskip("distributed")
    port = _free_port()  # nobody listens there
    spec = parse_executor(f"dask://127.0.0.1:{port}")
    start = time.monotonic()
    with pytest.raises(InputError) as info:
        run_until_first(spec, nap, [(0.0, 1)], is_hit=lambda v: True, connect_timeout=1.0)
    assert time.monotonic() - start < 10
    message = str(info.value)
    assert message.startswith(
        f"--executor dask://127.0.0.1:{port}: cannot reach the Dask scheduler "
        f"at tcp://127.0.0.1:{port} within 1 s"
    ), message


def test_a_cancelled_hypothesis_search_stops_at_its_next_example(dask_address: str, tmp_path: Path) -> None:
    spec = parse_executor("dask://" + dask_address.removeprefix("tcp://"))
    marker = tmp_path / "search"
    start = time.monotonic()
    outcome = run_until_first(
        spec, search_until_stopped, [(str(marker), -1.0), (str(marker), 1.0)], is_hit=lambda v: v == -1
    )
    assert outcome.hit_shard == 1 and time.monotonic() - start < 10
    ended = _wait_for(marker, "cancelled").split("\n")
    assert ended[0] == "started" and ended[1].startswith("cancelled after "), ended
    assert 0 < int(ended[1].split()[2]) < 10**6  # it stopped mid-search, not at the end


def test_a_scheduler_without_workers_is_an_input_error() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None
    ) as empty:
        spec = parse_executor("dask://" + str(empty.scheduler_address).removeprefix("tcp://"))
        with pytest.raises(
            InputError,
            match=r"^--executor dask://127\.0\.0\.1:\d+: the scheduler at "
            r"tcp://127\.0\.0\.1:\d+ has no worker after 1 s$",
        ):
            run_until_first(spec, nap, [(0.0, 1)], is_hit=lambda v: True, connect_timeout=1.0)


def test_workers_with_another_novikoff_are_refused_before_anything_runs(
    dask_address: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import novikoff

    spec = parse_executor("dask://" + dask_address.removeprefix("tcp://"))
    distributed = pytest.importorskip("distributed")
    with distributed.Client(dask_address, set_as_default=False) as client:
        versions = client.run(installed_version)
    assert len(versions) == 2 and len(set(versions.values())) == 1
    theirs = next(iter(versions.values()))
    assert installed_version() == theirs  # the same tree (the other tests ran on it)
    monkeypatch.setattr(novikoff, "__version__", "0.0.0.test")
    mine = installed_version()
    assert mine == "0.0.0.test " + theirs.split(" ", 1)[1]
    marker = tmp_path / "never"
    with pytest.raises(InputError) as info:
        run_until_first(spec, nap, [(0.0, 1, str(marker))], is_hit=lambda v: True)
    message = str(info.value)
    assert message.startswith(f"--executor {spec}: workers run another novikoff than this {mine}: "), message
    assert message.count(f" has {theirs}") == 2, message  # both workers are named
    assert not marker.exists()  # nothing was submitted


# --- a real campaign: two Dask workers search with Hypothesis, sharing a Redis example database -----

# "d" (no more updates than features) fails on two points on a line; tests/fuzz/test_falsify.py finds that
# with seed 2 in under a second.
_BOUND = "d"


def test_two_dask_workers_share_a_counterexample_through_redis(dask_address: str, redis_url: str) -> None:
    from novikoff.fuzz.falsify import falsify

    spec = parse_executor("dask://" + dask_address.removeprefix("tcp://"))
    shard = functools.partial(falsify, database=redis_url, precheck=False)  # pickles falsify by name

    def found(result: Any) -> bool:  # a FalsifyResult
        return result.counterexample is not None

    first = run_until_first(spec, shard, [(_BOUND, 100, 2), (_BOUND, 100, 3)], is_hit=found)
    hit = first.hit
    assert hit is not None and hit.counterexample is not None and not hit.replayed
    ce = hit.counterexample
    assert ce.updates > ce.dataset.n_features  # it does break "updates <= d"
    # new seeds with one example each: only the shared database can give them the counterexample
    again = run_until_first(spec, shard, [(_BOUND, 1, 1001), (_BOUND, 1, 1002)], is_hit=found)
    replay = again.hit
    assert replay is not None and replay.counterexample is not None and replay.replayed
    # both shards of the first run may have saved a counterexample before one was cancelled,
    # so the replay is one of the database's counterexamples, not necessarily the first's
    same = replay.counterexample
    assert same.updates > same.dataset.n_features


# --- the commands on the executors: falsify --workers/--executor, diff --executor -----------------


def _dask_spec(dask_address: str) -> ExecutorSpec:
    return parse_executor("dask://" + dask_address.removeprefix("tcp://"))


def test_falsify_shards_on_dask_stop_at_the_counterexample(dask_address: str, redis_url: str) -> None:
    from novikoff.fuzz.falsify import falsify

    result = falsify(_BOUND, 200, 2, database=redis_url, workers=2, executor=_dask_spec(dask_address))
    ce = result.counterexample
    assert ce is not None and ce.updates > ce.dataset.n_features
    assert 0 < result.examples <= 200 + 1300  # the shards' examples, plus the T1 pre-check's


def test_the_falsify_command_on_dask_writes_a_replayable_counterexample(
    dask_address: str, redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import cli

    out = tmp_path / "ce.csv"
    executor = str(_dask_spec(dask_address))
    argv = ["falsify", _BOUND, "--seed", "2", "--workers", "2", "--executor", executor]
    code = cli.main([*argv, "--database", redis_url, "--out", str(out), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["counterexample"] == str(out)
    assert cli.main(["replay", str(out), "--json"]) == 1  # the file alone reproduces the violation
    assert json.loads(capsys.readouterr().out)["violated"] is True


def test_diff_on_dask_reports_what_the_serial_run_reports(dask_address: str) -> None:
    from novikoff.fuzz.harness import check_implementation
    from novikoff.fuzz.shards import run_diff_shards
    from tests.impls.perceptrons import correct

    spec = _dask_spec(dask_address)
    sharded = run_diff_shards(spec, "tests.impls.perceptrons:correct", None, "perceptron", 5, 0, None, "")
    serial = check_implementation(correct, "perceptron", examples=5, seed=0)
    assert sharded.ok and serial.ok
    assert (sharded.examples, sharded.agreed, len(sharded.ambiguous)) == (
        serial.examples,
        serial.agreed,
        len(serial.ambiguous),
    )


def test_diff_on_dask_finds_a_planted_bug(dask_address: str) -> None:
    from novikoff.fuzz.shards import run_diff_shards

    spec = _dask_spec(dask_address)
    report = run_diff_shards(
        spec, "tests.impls.perceptrons:label_ignored", None, "perceptron", 10, 0, None, ""
    )
    assert not report.ok and report.bugs
    assert report.bugs[0].family  # the finding says which data family showed it


def test_the_diff_command_takes_an_executor(dask_address: str, capsys: pytest.CaptureFixture[str]) -> None:
    from novikoff import cli

    executor = str(_dask_spec(dask_address))
    target = "tests.impls.perceptrons:label_ignored"
    code = cli.main(["diff", target, "--examples", "10", "--executor", executor, "--json"])
    assert code == 1 and json.loads(capsys.readouterr().out)["bugs"]
    assert cli.main(["diff", target, "--executor", "dask://no such host:1"]) == 2
    assert "--executor" in capsys.readouterr().err
