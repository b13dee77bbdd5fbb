"""Bounded by construction: no input, file or header takes unbounded time, memory or a process.

One test (at least) per class of the hostile campaign: numbers' lengths refused before
conversion, files without a size, counts taken from files, dense blow-ups, defaults that
finish, peers and programs that do not answer, internal errors, and messages. Every CLI call
runs in a subprocess under an address-space limit (``resource.RLIMIT_AS``) and a wall-clock
guard, and its peak memory (``ru_maxrss`` of the child) is asserted: a regression fails the
test instead of filling the machine or hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO

import pytest

from novikoff.errors import InputError
from novikoff.fuzz.bound_limits import DEFAULT_LIMITS, BoundLimits, limits_from_file
from novikoff.runtime.bounded import (
    MemoryBudgetExceeded,
    check_allocation,
    loads_json,
    parse_memory,
    read_bytes,
    run_bounded,
    set_memory_budget,
)

GUARD = 120  # seconds: a hang guard, each call below ends in a few seconds
ADDRESS_SPACE = 3 << 30  # every CLI call runs with at most this much address space
PEAK_KB = 700 * 1024  # and must stay below this resident peak (the interpreter alone is ~100 MiB)

XOR = "1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n"
XOR01 = "0,0,0\n0,1,1\n1,0,1\n1,1,0\n"  # not separable, labels {0, 1}
SEP = "0,0,-1\n1,1,1\n2,0,1\n0,2,-1\n"


class Call:
    def __init__(self, code: int, out: str, err: str, peak_kb: int, seconds: float) -> None:
        self.code, self.out, self.err, self.peak_kb, self.seconds = code, out, err, peak_kb, seconds


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (GUARD, GUARD))


def cli(*args: str, cwd: Path | None = None) -> Call:
    """One CLI call in its own session under the limits; its exit, output and peak memory."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "novikoff.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        preexec_fn=_limit,
        start_new_session=True,
    )
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream: IO[bytes]) -> None:
        chunks[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=(name, stream), daemon=True)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
        if stream is not None
    ]
    for t in readers:
        t.start()
    timer = threading.Timer(GUARD, lambda: os.killpg(proc.pid, 9))
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    assert proc.returncode != -9, f"hang: {args}"
    seconds = time.monotonic() - start
    out, err = chunks.get("out", b""), chunks.get("err", b"")
    text_err = err.decode("utf-8", "replace")
    assert "Traceback" not in text_err, text_err
    assert "INTERNAL ERROR" not in text_err, text_err
    if proc.returncode != 0:  # every non-zero exit says why, on exactly one line of stderr
        lines = [line for line in text_err.splitlines() if line.strip()]
        assert len(lines) == 1, text_err
        assert "\x1b" not in text_err
    return Call(proc.returncode, out.decode("utf-8", "replace"), text_err, int(usage.ru_maxrss), seconds)


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


@pytest.fixture
def sep_certificate(tmp_path: Path) -> tuple[Path, dict[str, object], str]:
    data = write(tmp_path, "sep.csv", SEP)
    cert = tmp_path / "c.json"
    call = cli("certify", str(data), "--certificate", str(cert))
    assert call.code == 0, call.err
    text = cert.read_text()
    return data, json.loads(text), text


# ------------------------------------------------------------------ 1. numbers' lengths


def test_a_million_digit_count_in_a_certificate_is_refused_before_conversion(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, doc, text = sep_certificate
    n = doc["dataset"]["n_samples"]  # type: ignore[index]
    for digits in (3_000_000, 101):
        bad = write(tmp_path, "big.json", text.replace(f'"n_samples": {n}', '"n_samples": ' + "7" * digits))
        call = cli("check", str(data), str(bad), "--time-limit", "5")
        assert call.code == 2, call.err
        assert f"a number of {digits} characters" in call.err
        assert call.seconds < 30
    ok = write(tmp_path, "ok.json", text.replace(f'"n_samples": {n}', '"n_samples": ' + "0" * 0 + str(n)))
    assert cli("check", str(data), str(ok)).code == 0


def test_loads_json_checks_lengths_before_converting() -> None:
    assert loads_json('{"a": [1, 2.5, "x"]}', max_digits=3) == {"a": [1, 2.5, "x"]}
    with pytest.raises(ValueError, match="a number of 4 characters"):
        loads_json('{"a": 1234}', max_digits=3)
    with pytest.raises(ValueError, match="a number of 6 characters"):
        loads_json("[1.2e30]", max_digits=5)
    with pytest.raises(ValueError, match="duplicate key"):
        loads_json('{"a": 1, "a": 2}', max_digits=10)
    with pytest.raises(ValueError, match="NaN"):
        loads_json("[NaN]", max_digits=10)
    with pytest.raises(ValueError, match="not UTF-8"):
        loads_json('{"a": 1}'.encode("utf-16"), max_digits=10)
    with pytest.raises(ValueError, match="byte-order mark"):
        loads_json('\ufeff{"a": 1}', max_digits=10)
    # a million-digit number is refused at once (before int() would take its quadratic time)
    start = time.process_time()
    with pytest.raises(ValueError):
        loads_json("[" + "9" * 1_000_000 + "]", max_digits=100)
    assert time.process_time() - start < 5


def test_a_utf16_certificate_is_refused(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, _, text = sep_certificate
    bad = tmp_path / "u16.json"
    bad.write_bytes(text.encode("utf-16"))
    call = cli("check", str(data), str(bad))
    assert call.code == 2 and "not UTF-8" in call.err


@pytest.mark.parametrize("text", ["1_0", "\u0661\u0660", "１０", "+", "1e3", " "])
def test_integer_arguments_are_ascii_digits(tmp_path: Path, text: str) -> None:
    data = write(tmp_path, "sep.csv", SEP)
    call = cli("check", str(data), str(data), "--label-column", text)
    assert call.code == 2 and "not an integer" in call.err, call.err


@pytest.mark.parametrize("index", ["1_0", "\u0661\u0660", "１", "0x1", "1" * 25])
def test_libsvm_indices_are_ascii_digits(tmp_path: Path, index: str) -> None:
    data = tmp_path / "bad.svm"
    data.write_text(f"+1 {index}:1\n-1 1:2\n", encoding="utf-8")
    call = cli("run", str(data))
    assert call.code == 2 and "bad feature index" in call.err, call.err
    assert ":1:2:" in call.err


# ------------------------------------------------------------------ 2. dense blow-ups


def test_a_tiny_sparse_file_with_a_huge_index_is_refused_with_its_estimated_size(tmp_path: Path) -> None:
    data = tmp_path / "wide.svm"
    data.write_text("".join(f"{'+1' if k % 2 else '-1'} 1000000:{k}\n" for k in range(1, 101)))
    assert data.stat().st_size < 1500
    for extra in ([], ["--max-memory", "1G"]):
        call = cli("run", str(data), *extra)
        assert call.code == 2, call.err
        assert "100 samples x 1000000 features" in call.err and "GiB" in call.err
        assert call.peak_kb < PEAK_KB
    call = cli("certify", str(data), "--max-memory", "1G")
    assert call.code == 2 and "dense form" in call.err


def test_check_allocation_and_the_budget() -> None:
    set_memory_budget(10 << 20)
    try:
        check_allocation(10 << 20, "this")
        with pytest.raises(MemoryBudgetExceeded, match=r"this would need about 10\.0 MiB, more than"):
            check_allocation((10 << 20) + 1, "this")
    finally:
        set_memory_budget(None)
    assert parse_memory("2G") == 2 << 30 and parse_memory("1.5M") == 3 << 19
    for bad in ("1_0G", "\u0662G", "1e9", "", "G", "100"):
        with pytest.raises(InputError):
            parse_memory(bad)


# ------------------------------------------------------------------ 3. files with no size


@pytest.mark.parametrize(
    "args",
    [
        ["check", "DATA", "/dev/zero"],
        ["run", "/dev/zero", "--format", "csv"],
        ["certify", "/dev/zero", "--format", "libsvm"],
        ["margins", "DATA", "--weights", "/dev/zero"],
        ["replay", "/dev/zero"],
        ["run", "/dev/urandom"],
    ],
)
def test_devices_are_refused_unread(tmp_path: Path, args: list[str]) -> None:
    data = write(tmp_path, "sep.csv", SEP)
    argv = [str(data) if a == "DATA" else a for a in args]
    call = cli(*argv)
    assert call.code == 2 and "is a device, not a file" in call.err, call.err
    assert call.peak_kb < PEAK_KB


@pytest.fixture
def endless_fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe that a thread fills with zeros until the reader goes away."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    stop = threading.Event()

    def feed() -> None:
        try:
            fd = os.open(fifo, os.O_WRONLY)
        except OSError:
            return
        block = b"0" * (1 << 16)
        try:
            while not stop.is_set():
                os.write(fd, block)
        except OSError:
            pass
        finally:
            os.close(fd)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    yield fifo
    stop.set()
    drain = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # unblock a writer stuck on a full pipe
    try:
        with contextlib.suppress(BlockingIOError):
            os.read(drain, 1 << 20)
    finally:
        os.close(drain)
    thread.join(timeout=10)


def test_an_endless_pipe_is_read_to_the_cap_plus_one_byte(endless_fifo: Path) -> None:
    call = cli("run", str(endless_fifo), "--format", "csv", "--max-memory", "64M")
    assert call.code == 2 and "larger than 8.0 MiB" in call.err, call.err
    assert call.peak_kb < PEAK_KB


def test_read_bytes_never_trusts_st_size(tmp_path: Path) -> None:
    # /proc files report st_size 0 and hold more: read to the cap plus one byte, then refused
    with pytest.raises(InputError, match="larger than"):
        read_bytes("/proc/self/maps", 10)
    assert read_bytes("/proc/self/maps", 1 << 24)
    p = tmp_path / "f"
    p.write_bytes(b"x" * 100)
    assert read_bytes(p, 100) == b"x" * 100
    with pytest.raises(InputError, match="larger than 99 bytes"):
        read_bytes(p, 99)
    with pytest.raises(InputError, match="not a regular file"):
        os.mkfifo(tmp_path / "q")
        read_bytes(tmp_path / "q", 10, regular_only=True)


def test_a_silent_pipe_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "silent"
    os.mkfifo(fifo)
    call = cli("run", str(fifo), "--time-limit", "2")
    assert call.code == 1 and "stopped by --time-limit = 2 s during reading the data" in call.err
    assert call.seconds < 30


# ------------------------------------------------------------------ 4. counts from files


@pytest.fixture(scope="module")
def counterexample(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A non-separable falsify counterexample file's text (a real one, written by falsify)."""
    tmp = tmp_path_factory.mktemp("ce")
    out = tmp / "ce.csv"
    proc = subprocess.run(
        [
            sys.executable, "-m", "novikoff.cli", "falsify", "--nonseparable",
            "(sqrt(R2)+sqrt(deviation2))**2/gamma2/4", "--examples", "30", "--database", "none",
            "--out", str(out),
        ],
        capture_output=True,
        timeout=GUARD,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    return out.read_text()


def test_a_real_replay_still_runs(tmp_path: Path, counterexample: str) -> None:
    call = cli("replay", str(write(tmp_path, "ce.csv", counterexample)))
    assert call.code == 1 and call.err.startswith("novikoff: bound violated:"), call.err


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"passes": ', '"passes": 1000000000000, "x": ', "more than --max-passes 10000"),
        (
            "[2000, 100, 10000, 10000]",
            "[2000, 100, 100000000, 10000]",
            "more than --max-bound-exponent 10000",
        ),
        ("[2000, 100, 10000, 10000]", "[2000, 100, 10000, 100000000]", "more than --max-bound-digits 10000"),
        (
            '"order": "natural"',
            '"order": "shuffle:' + "1" * 1_000_000 + '"',
            "expected 'natural' or 'shuffle:SEED'",
        ),
        ('"samples": ', '"samples": ' + "2" * 1_000_000 + ', "y": ', "a number of 1000000 characters"),
    ],
)
def test_replay_header_counts_are_capped_by_the_command(
    tmp_path: Path, counterexample: str, old: str, new: str, message: str
) -> None:
    assert old in counterexample
    text = counterexample.replace(old, new, 1)
    call = cli("replay", str(write(tmp_path, "bad.csv", text)), "--time-limit", "10")
    assert call.code == 2 and message in call.err, call.err
    assert ", line 1:" in call.err
    assert call.seconds < 30 and call.peak_kb < PEAK_KB


def test_replay_options_raise_the_caps(tmp_path: Path, counterexample: str) -> None:
    text = counterexample.replace("[2000, 100, 10000, 10000]", "[2000, 100, 20000, 10000]", 1)
    path = str(write(tmp_path, "raised.csv", text))
    assert cli("replay", path).code == 2
    assert cli("replay", path, "--max-bound-exponent", "20000").code == 1


def test_limits_from_file_never_lift_the_commands_limits() -> None:
    own = BoundLimits(100, 10, 50, 60)
    assert limits_from_file(None, own, "f") == own
    assert limits_from_file([100, 5], own, "f") == BoundLimits(100, 5, 50, 60)
    with pytest.raises(InputError, match="more than --max-bound-length 100"):
        limits_from_file([101], own, "f")
    with pytest.raises(InputError, match="a 101-digit number"):
        limits_from_file([1, 1, 10**100], own, "f")
    for bad in ([0], [True], ["1"], [1, 2, 3, 4, 5], {"length": 1}):
        with pytest.raises(InputError):
            limits_from_file(bad, DEFAULT_LIMITS, "f")


def test_check_refuses_a_claimed_run_longer_than_max_epochs(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, doc, _ = sep_certificate
    run = doc["perceptron"]
    assert isinstance(run, dict)
    run["epochs"], run["converged"] = 10**12, False
    bad = write(tmp_path, "long.json", json.dumps(doc))
    call = cli("check", str(data), str(bad))
    assert call.code == 2 and "perceptron.epochs: the certificate claims 1000000000000 epochs" in call.err
    assert call.seconds < 30
    # within the limit the claim is replayed and found false (a reason code, exit 1, one stderr line)
    run["epochs"] = 7
    call = cli("check", str(data), str(write(tmp_path, "short.json", json.dumps(doc))))
    assert call.code == 1 and call.err.startswith("novikoff: certificate invalid: run-"), call.err


# ------------------------------------------------------------------ 5. defaults that finish


@pytest.mark.parametrize("extra", [[], ["--aggressive"], ["--fast"]])
def test_romma_defaults_finish_on_tiny_data(tmp_path: Path, extra: list[str]) -> None:
    for text in (XOR01, XOR, SEP):
        call = cli(
            "run", str(write(tmp_path, "d.csv", text)), "--algorithm", "romma", *extra, "--time-limit", "60"
        )
        assert call.code == 0, call.err
        assert call.seconds < 30


def test_romma_max_updates_given_is_obeyed(tmp_path: Path) -> None:
    data = str(write(tmp_path, "d.csv", XOR01))
    small = json.loads(cli("run", data, "--algorithm", "romma", "--json").out)
    larger = json.loads(cli("run", data, "--algorithm", "romma", "--json", "--max-updates", "18").out)
    assert small["run"]["updates"] < larger["run"]["updates"] <= 18


@pytest.mark.parametrize("kernel", ["poly:64:1e9999", "poly:64:10/3", "poly:2:1e6000"])
def test_kernel_parameters_are_range_checked(tmp_path: Path, kernel: str) -> None:
    data = write(tmp_path, "xor.csv", XOR)
    call = cli("certify", str(data), "--kernel", kernel)
    expected = "C^DEGREE would have about"
    if kernel == "poly:64:10/3":  # small C: accepted and run
        assert call.code == 0, call.err
    else:
        assert call.code == 2 and expected in call.err, call.err


def test_kernel_values_from_the_data_are_range_checked(tmp_path: Path) -> None:
    big = "1" + "0" * 200
    data = write(tmp_path, "big.csv", f"{big},0,1\n0,{big},-1\n-{big},0,1\n0,-{big},-1\n")
    call = cli("certify", str(data), "--kernel", "poly:64")
    assert call.code == 2 and "kernel values on" in call.err, call.err


def test_pfm_fast_with_a_huge_beta_is_bad_input(tmp_path: Path) -> None:
    call = cli("run", str(write(tmp_path, "s.csv", SEP)), "--algorithm", "pfm", "--beta", "1e300", "--fast")
    assert call.code == 2 and "overflow float64" in call.err, call.err


# ------------------------------------------------------------------ 6. peers and programs


@pytest.fixture(params=["silent", "garbage", "banner"])
def fake_scheduler(request: pytest.FixtureRequest) -> Iterator[int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    mode = request.param
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            if mode == "garbage":
                conn.sendall(b"\xff" * 64)
            elif mode == "banner":
                conn.sendall(b"SSH-2.0-OpenSSH_8.9\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield port
    stop.set()
    thread.join(timeout=5)
    for conn in held:
        conn.close()
    server.close()


def test_a_non_dask_peer_is_bad_input_naming_the_address(tmp_path: Path, fake_scheduler: int) -> None:
    pytest.importorskip("distributed")
    data = write(tmp_path, "s.csv", SEP)
    call = cli("certify", str(data), "--executor", f"dask://127.0.0.1:{fake_scheduler}")
    if call.code == 2 and "--executor" in call.err and "not available" in call.err:
        pytest.skip("certify has no --executor for one file")
    assert call.code == 2, call.err
    assert f"127.0.0.1:{fake_scheduler}" in call.err
    assert "Dask" in call.err
    assert call.seconds < 60 and call.peak_kb < PEAK_KB


def _alive(pid: int) -> bool:
    """True iff ``pid`` runs (a zombie waiting for a reaper that is not ours counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pid)


def test_run_bounded_kills_the_whole_group_at_the_limit(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    script = f"sleep 300 & echo $! > {marker}; wait"
    code, _, _, seconds = run_bounded(["sh", "-c", script], 1.0)
    assert code is None and seconds < 20
    assert _gone(int(marker.read_text()))


def test_run_bounded_returns_output_and_kills_what_is_left(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    code, out, err, _ = run_bounded(["sh", "-c", f"sleep 300 & echo $! > {marker}; echo hi; echo e >&2"], 30)
    assert (code, out, err) == (0, b"hi\n", b"e\n")
    assert _gone(int(marker.read_text()))


def test_run_bounded_kills_the_group_on_an_exception(tmp_path: Path) -> None:
    import signal

    marker = tmp_path / "pid"

    class Stop(BaseException):
        pass

    def alarm(signum: int, frame: object) -> None:
        raise Stop

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(Stop):
            run_bounded(["sh", "-c", f"echo $$ > {marker}; sleep 300"], None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert _gone(int(marker.read_text()))


def test_run_bounded_applies_an_address_space_limit() -> None:
    code, _, err, _ = run_bounded([sys.executable, "-c", "bytearray(1 << 30)"], 60, max_memory=512 << 20)
    assert code == 1 and b"MemoryError" in err


# ------------------------------------------------------------------ 7. internal errors


@pytest.mark.parametrize("kind", [["gordan"], {"a": 1}, None, 3])
def test_an_unhashable_kind_is_a_format_error(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str], kind: object
) -> None:
    data, doc, _ = sep_certificate
    doc["certificate"]["kind"] = kind  # type: ignore[index]
    call = cli("check", str(data), str(write(tmp_path, "k.json", json.dumps(doc))), "--json")
    assert call.code == 2 and "certificate.kind: unknown kind" in call.err, call.err
    assert json.loads(call.out)["reason"] == "kind"


def test_out_of_memory_is_exit_2_naming_the_phase_and_said_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from novikoff import cli as app
    from novikoff.commands import check
    from novikoff.runtime.limits import phase

    def exhausted(args: object) -> int:
        with phase("checking the certificate"):
            raise MemoryError

    monkeypatch.setattr(check, "run", exhausted)
    data = str(write(tmp_path, "s.csv", SEP))
    code = app.main(["check", data, data, "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "out of memory during checking the certificate" in err
    assert json.loads(out)["stopped_by"] == "memory"


# ------------------------------------------------------------------ 8. messages


def test_keys_from_a_file_are_escaped_in_messages(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, doc, _ = sep_certificate
    doc["dataset"]["x\n\x1b[31mred"] = 1  # type: ignore[index]
    call = cli("check", str(data), str(write(tmp_path, "key.json", json.dumps(doc))))
    assert call.code == 2
    assert 'dataset."x\\n\\u001b[31mred": unexpected field' in call.err, call.err


def test_an_invalid_certificate_says_so_on_stderr(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, doc, _ = sep_certificate
    doc["dataset"]["sha256"] = "0" * 64  # type: ignore[index]
    call = cli("check", str(data), str(write(tmp_path, "digest.json", json.dumps(doc))))
    assert call.code == 1 and call.err.startswith("novikoff: certificate invalid: "), call.err
    assert call.out.startswith("invalid: ")


def test_format_values_are_shown_short_and_ascii(
    tmp_path: Path, sep_certificate: tuple[Path, dict[str, object], str]
) -> None:
    data, doc, _ = sep_certificate
    doc["format"] = "\x1b]0;title\x07" + "y" * 10_000
    call = cli("check", str(data), str(write(tmp_path, "f.json", json.dumps(doc))))
    assert call.code == 2 and "\\x1b" in call.err and len(call.err) < 300, call.err


def test_memory_sizes_parse_exactly() -> None:
    assert parse_memory("1024K") == 1 << 20
    assert Fraction(parse_memory("0.5G"), 1 << 30) == Fraction(1, 2)


def test_a_command_reports_one_failure_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A signal that arrives while a reported failure is cleaned up adds no second message
    (and no second JSON object): the voted run that ran out of memory, then got SIGTERM."""
    from novikoff import cli as app
    from novikoff.commands import check
    from novikoff.runtime.limits import Terminated

    def exhausted_then_terminated(args: object) -> int:
        raise MemoryError

    signals = [15]

    def kill_children_then_signal() -> None:  # SIGTERM arrives while the children are killed
        if signals:
            raise Terminated(signals.pop())

    monkeypatch.setattr(check, "run", exhausted_then_terminated)
    from novikoff.cli import app as app_module

    monkeypatch.setattr(app_module, "kill_children", kill_children_then_signal)
    data = str(write(tmp_path, "s.csv", SEP))
    code = app.main(["check", data, data, "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert len(err.splitlines()) == 1 and "out of memory" in err, err
    assert len(out.splitlines()) == 1 and json.loads(out)["exit_code"] == 2


def test_run_completed_kills_the_whole_group_at_the_bound(tmp_path: Path) -> None:
    from novikoff.runtime.bounded import run_completed

    pidfile = tmp_path / "pid"
    script = f"sleep 60 & echo $! > {pidfile}; wait"
    with pytest.raises(subprocess.TimeoutExpired):
        run_completed(["sh", "-c", script], 0.5)
    grandchild = int(pidfile.read_text())

    def state() -> str:
        try:
            return Path(f"/proc/{grandchild}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return "gone"

    deadline = time.monotonic() + 10  # SIGKILL is delivered asynchronously: give it time to land
    while state() not in ("gone", "Z", "X") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state() in ("gone", "Z", "X")  # the background sleep died with its group (a 60 s sleep)
    done = run_completed(["sh", "-c", "printf out; printf err >&2; exit 3"], 10.0)
    assert (done.returncode, done.stdout, done.stderr) == (3, "out", "err")
