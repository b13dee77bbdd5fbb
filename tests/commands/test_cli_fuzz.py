"""A Hypothesis-driven fuzz suite of the whole command line, run as a user runs it.

Hypothesis writes malformed and extreme CSV and LIBSVM files (byte flips, huge exponents,
empty fields, NaN in the first row, BOM, NUL, CRLF, binary noise) and draws extreme
arguments; every subcommand runs in its own subprocess and session, with --time-limit
and a hang guard. Every call must end as documented:

- exit 0: success; under --json stdout is one standard JSON object without "error";
- exit 1: a check or bound failed: here only --time-limit, a falsify counterexample, or
  a diff finding (an invariant or certificate failure on fuzzed data would be a bug);
- exit 2: bad input or usage, one line on stderr starting with "novikoff";
- never a traceback or "INTERNAL ERROR", never a hang, JSON on stdout under --json even
  for errors, and no process of the call's session still running afterwards.

Profiles: the default run tries about 30 inputs (under 2 minutes on 2 shared cores);
``NOVIKOFF_FUZZ_EXAMPLES=N`` tries N per test function (the longer profile, on demand).
``NOVIKOFF_FUZZ_LOG=FILE`` appends one JSON line per call (command, exit status); the
table in docs/reference/contract.md comes from ``python benchmarks/cli_hostile_report.py``, never
typed by hand.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc sessions")

REPO = Path(__file__).resolve().parents[2]
TIME_LIMIT = "20"  # seconds, passed to every call (the last --time-limit wins)
HANG_GUARD = 120.0  # seconds for the subprocess itself: a hang fails, it does not block CI
ADDRESS_SPACE = 3 << 30  # RLIMIT_AS of every call: a blow-up is a MemoryError, not a full machine
PEAK_KB = 1536 * 1024  # and every call's resident peak must stay below this (KiB)
EXTRA = int(os.environ.get("NOVIKOFF_FUZZ_EXAMPLES", "0"))


def _settings(default: int) -> Any:
    return settings(
        max_examples=EXTRA or default,
        deadline=None,
        database=None,
        derandomize=not EXTRA,
        phases=[
            Phase.explicit,
            Phase.generate,
        ],  # a failure is reported as drawn: shrinking re-runs processes
        suppress_health_check=list(HealthCheck),
    )


# ------------------------------------------------------------------ running one call


def _session_members(sid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def _log(command: str, code: int, peak_kb: int, seconds: float) -> None:
    path = os.environ.get("NOVIKOFF_FUZZ_LOG")
    if path:
        with open(path, "a") as out:
            line = {"command": command, "exit": code, "peak_kb": peak_kb, "seconds": round(seconds, 3)}
            out.write(json.dumps(line) + "\n")


def _resource_limits() -> None:
    """In the child before exec: at most ADDRESS_SPACE of address space and HANG_GUARD s of CPU."""
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (int(HANG_GUARD), int(HANG_GUARD) + 5))


def _drain(chunks: dict[str, bytes], name: str, stream: Any) -> None:
    chunks[name] = stream.read()


def call(args: list[str], cwd: Path, allow_1: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``novikoff ARGS`` and assert the documented outcome (see the module docstring).

    ``allow_1`` names the documented exit-1 outcomes of this command besides --time-limit:
    "counterexample" (falsify), "finding" (diff)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("NOVIKOFF_TRACEBACK", None)
    cut = args.index("--") if "--" in args else len(args)
    full = [sys.executable, "-m", "novikoff.cli", *args[:cut], "--time-limit", TIME_LIMIT, *args[cut:]]
    proc = subprocess.Popen(
        full,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_resource_limits,
    )
    start = time.monotonic()
    chunks: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=_drain, args=(chunks, name, stream), daemon=True)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for t in readers:
        t.start()
    timer = threading.Timer(HANG_GUARD, lambda: os.killpg(proc.pid, 9))
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)  # this call's own peak memory (ru_maxrss, KiB)
    finally:
        hung = not timer.is_alive()
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    if hung:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)
        pytest.fail(f"hang: {args!r} did not end within {HANG_GUARD} s")
    for t in readers:
        t.join(timeout=10)
    out = chunks.get("out", b"").decode("utf-8", "replace")
    err = chunks.get("err", b"").decode("utf-8", "replace")
    peak_kb = int(usage.ru_maxrss)
    deadline = time.monotonic() + 10
    while _session_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _session_members(proc.pid)
    known = ("certify", "run", "margins", "falsify", "diff", "verify", "textbook-tables", "check", "replay")
    command = args[0] if args and args[0] in known else "(other)"
    _log(command, proc.returncode, peak_kb, seconds)
    where = (
        f"novikoff {' '.join(repr(a) for a in args)[:3000]}\nexit {proc.returncode}\nstderr: {err[-2000:]}"
    )
    assert not left, f"processes left running {left}: {where}"
    assert peak_kb < PEAK_KB, f"peak memory {peak_kb} KiB over {PEAK_KB} KiB: {where}"
    assert proc.returncode != -signal.SIGXCPU and proc.returncode != -signal.SIGKILL, f"CPU limit: {where}"
    assert proc.returncode in (0, 1, 2), where
    assert "Traceback" not in err and "INTERNAL ERROR" not in err, where
    if proc.returncode == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("novikoff"), where
    if proc.returncode == 1:
        ok = "--time-limit" in err
        ok = ok or (allow_1 == "counterexample" and ("COUNTEREXAMPLE" in out or '"counterexample": "' in out))
        ok = ok or (allow_1 == "finding" and ('"ok": false' in out or "bugs" in out or "errors" in out))
        ok = ok or (allow_1 == "invalid" and "novikoff: certificate invalid: " in err)
        ok = ok or (allow_1 == "violated" and "novikoff: bound violated: " in err)
        assert ok, where
    options = args[:cut]
    if "--json" in options and not {"-h", "--help"} & set(options):
        value = json.loads(out, parse_constant=_refuse)
        assert isinstance(value, dict), where
        assert ("error" in value) == (proc.returncode == 2 or "--time-limit" in err), where
    return subprocess.CompletedProcess(full, proc.returncode, out, err)


def _refuse(token: str) -> None:
    raise AssertionError(f"non-standard JSON: {token}")


# ------------------------------------------------------------------ hostile files

_TOKENS = [
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "3/4",
    "-7/3",
    "0.1",
    ".5",
    "5.",
    "1e309",
    "-1e309",
    "1e-10000",
    "1e10000",
    "1e10001",
    "9" * 5000,
    "1/0",
    "1e",
    "e5",
    "+-1",
    "1_000",
    "0x10",
    "١",
    "nan",
    "NaN",
    "inf",
    "-Infinity",
    "",
    " ",
    "abc",
    '"1"',
    "\x00",
    "1\x00",
    "\ufeff1",
]
_LABELS = ["1", "-1", "0", "+1", "1.0", "2", "a", "", "nan"]


@st.composite
def _number(draw: Any) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return str(draw(st.integers(-20, 20)))
    if kind == 1:
        return draw(st.sampled_from(_TOKENS))
    if kind == 2:
        return repr(draw(st.floats()))
    return f"{draw(st.integers(-(10**30), 10**30))}/{draw(st.integers(-3, 10**30))}"


@st.composite
def csv_bytes(draw: Any, hostile: bool = True, width: int | None = None) -> bytes:
    """A CSV file: well formed (small integers, labels +-1) unless ``hostile``; hostile files
    mix extreme tokens, headers that are data, BOM, CRLF/CR, byte flips and binary noise."""
    width = draw(st.integers(1, 4)) if width is None else width
    rows = draw(st.integers(0 if hostile else 2, 7))
    sep = draw(st.sampled_from([",", ";", "\t", " ", ", "]))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = []
    if hostile:
        header = draw(st.sampled_from([None, "x1,x2,label", "1,nan,1", "1,,1", ",,", "# comment"]))
        if header:
            lines.append(header)
    clean = not hostile or draw(st.booleans())
    for _ in range(rows):
        if clean:
            fields = [str(draw(st.integers(-5, 5))) for _ in range(width)]
            fields.append(draw(st.sampled_from(["1", "-1"])))
        else:
            fields = [draw(_number()) for _ in range(width)] + [draw(st.sampled_from(_LABELS))]
        lines.append(sep.join(fields))
    text = eol.join(lines) + draw(st.sampled_from(["", eol]))
    return _mangle(draw, text) if hostile else text.encode()


_BAD_INDEX = st.sampled_from(["0", "-1", "10000000", "x", ""])


@st.composite
def libsvm_bytes(draw: Any, hostile: bool = True) -> bytes:
    """A LIBSVM file, well formed unless ``hostile`` (then: bad indices and values, mangled bytes)."""
    lines = []
    for _ in range(draw(st.integers(0 if hostile else 2, 6))):
        label = draw(st.sampled_from(_LABELS if hostile else ["1", "-1"]))
        pairs = []
        last = 0
        for _ in range(draw(st.integers(0 if hostile else 1, 3))):
            if hostile:
                index = draw(st.one_of(st.integers(1, 5).map(str), _BAD_INDEX))
                pairs.append(f"{index}:{draw(_number())}")
            else:
                last += draw(st.integers(1, 2))
                pairs.append(f"{last}:{draw(st.integers(-5, 5))}")
        lines.append(" ".join([label, *pairs]) + draw(st.sampled_from(["", " # note"])))
    text = draw(st.sampled_from(["\n", "\r\n"])).join(lines)
    return _mangle(draw, text) if hostile else text.encode()


def _mangle(draw: Any, text: str) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if data and draw(st.integers(0, 3)) == 0:  # byte flips
        buf = bytearray(data)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(buf) - 1))
            buf[i] ^= draw(st.integers(1, 255))
        data = bytes(buf)
    if draw(st.integers(0, 9)) == 0:
        data = draw(st.binary(max_size=64))
    return data


class _Options:
    """Draws options: from all values when hostile, else only from the valid ones (the first
    ``valid`` entries of each list), so about half the calls reach the algorithms themselves."""

    def __init__(self, draw: Any, hostile: bool) -> None:
        self.draw, self.hostile = draw, hostile

    def __call__(self, name: str, values: list[str | None], valid: int) -> list[str]:
        value = self.draw(st.sampled_from(values if self.hostile else values[:valid]))
        return [] if value is None else [name, value]


_ALGORITHMS = ["perceptron", "pocket", "pfm", "pdm", "pdm-succ", "multiclass", "msvmav", "nope"]


def _run_options(draw: Any, opt: _Options, hostile: bool) -> list[str]:
    algorithm = draw(st.sampled_from(_ALGORITHMS if hostile else _ALGORITHMS[:7]))
    args = ["--algorithm", algorithm]
    if algorithm == "pdm" or hostile:
        args += opt("--epsilon", [None, None, "1/2", "1e-300", "0", "2", "-1", "abc"], 4)
    if algorithm in ("pfm", "msvmav") or hostile:
        args += opt("--beta", ["1", "1/2", "1000000", "0", "-1", "1e400", None], 3)
    if algorithm == "pdm-succ" or hostile:
        args += opt("--epsilons", ["1/2,1/4", "1/4,1/2", "", "1,1", "1,nan", None], 1)
    if algorithm in ("perceptron", "pfm", "pdm", "pdm-succ", "pocket") or hostile:
        args += opt("--soft-margin", [None, None, None, "1", "1e-300", "0", "-1"], 5)
    if algorithm == "msvmav" or hostile:
        args += opt("--alpha", [None, None, None, "1", "1e400", "0"], 4)
        args += opt("--iterations", [None, None, "0", "3", "-1", "10**9", "1000000000"], 4)
    speeds: list[list[str]] = [[], [], ["--fast"], ["--exact"], ["--fast", "--exact"]]
    args += draw(st.sampled_from(speeds if hostile else speeds[:4]))
    if algorithm in ("pfm", "pdm", "pdm-succ") or hostile:
        args += draw(st.sampled_from([[], [], ["--multiple-updates"]]))
    return args


_SOURCES = ["example:exercise-6.1", "example:t1:3", "example:t1:10^30", "example:t1-rotated:3:-1"]
_SOURCES += ["example:seed-6.6:nan", "example:nope", "missing.csv", "."]


@st.composite
def data_command(draw: Any) -> tuple[list[str], dict[str, bytes]]:
    """(arguments, files to write) of certify, run or margins; file and arguments are each
    hostile or well formed, independently."""
    files: dict[str, bytes] = {}
    hostile_file, hostile_args = draw(st.booleans()), draw(st.integers(0, 2)) == 0
    width = draw(st.integers(1, 4))
    opt = _Options(draw, hostile_args)
    command = draw(st.sampled_from(["certify", "run", "margins"]))
    # margins needs weights as long as the rows: its well-formed cases use CSV of a known width
    fmt = "csv" if command == "margins" and not hostile_file else draw(st.sampled_from(["csv", "libsvm"]))
    name = "data.csv" if fmt == "csv" else "data.svm"
    files[name] = draw(csv_bytes(hostile_file, width) if fmt == "csv" else libsvm_bytes(hostile_file))
    sources = [name] * 6 + _SOURCES
    source = draw(st.sampled_from(sources if hostile_args else sources[: 6 if command == "margins" else 8]))
    args = [command, source]
    args += opt("--bias", [None, None, "0", "1/2", "-1", "1e309", "nan", "1e-10000"], 4)
    args += opt("--max-epochs", [None, None, "1", "3", "0", "-5", "10**30", "1000000000", "10" * 20], 4)
    args += opt("--header", [None, None, "auto", "yes", "no", "maybe"], 5)
    args += opt("--label-column", [None, None, "0", "-1", "5", "-100", "x"], 4)
    args += opt("--format", [None, None, "csv", "libsvm", "xml"], 2)
    args += opt("--positive", [None, None, None, "1", "a", "2"], 3)
    if command in ("certify", "run"):
        args += opt("--max-updates", [None, None, "1", "10", "1000000000", "0", "1e3"], 5)
        args += opt("--record", [None, None, "1", "2", "0", "-1"], 4)
        args += opt("--trace", [None, None, "trace.csv", ".", "nodir/trace.csv"], 3)
    if command == "certify":
        args += opt("--order", [None, "natural", "shuffle:3", "shuffle:-1", "shuffle:x"], 3)
        args += opt("--plot", [None, None, None, "f.png", "f.xyz", "", "."], 4)
    if command == "run":
        args += _run_options(draw, opt, hostile_args)
    if command == "margins":
        good = " ".join(str(draw(st.integers(-3, 3))) for _ in range(width + 1))
        weights = " ".join(draw(st.lists(_number(), max_size=5)))
        choices = [good.encode(), b"1 1 1", weights.encode(), b"\x00\xff", b""]
        files["w.txt"] = draw(st.sampled_from(choices if hostile_args else choices[:2]))
        args += [
            "--weights",
            draw(st.sampled_from(["w.txt", "w.txt", "missing.txt", "."][: 4 if hostile_args else 1])),
        ]
        args += opt("--plot", [None, None, None, "m.png", "m.xyz"], 4)
    if draw(st.booleans()):
        args.append("--json")
    return args, files


def _write(tmp: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (tmp / name).write_bytes(data)


@_settings(14)
@given(data_command())
@example((["certify", "data.csv", "--json"], {"data.csv": b"1,nan,1\n2,3,1\n-1,-2,-1\n"}))
@example(
    (["run", "data.csv", "--bias", "0", "--fast", "--max-epochs", "1"], {"data.csv": b"0,0,1\n0,0,-1\n"})
)
@example((["run", "data.csv", "--algorithm", "perceptron", "--json"], {"data.csv": b"1e309,1,1\n-1,-2,-1\n"}))
def test_fuzz_certify_run_margins(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[list[str], dict[str, bytes]]
) -> None:
    args, files = case
    tmp = tmp_path_factory.mktemp("fuzz")
    _write(tmp, files)
    call(args, tmp)


# ------------------------------------------------------------------ falsify

_ATOMS = [
    "R",
    "gamma",
    "R2",
    "gamma2",
    "m",
    "d",
    "eps",
    "beta",
    "K",
    "1",
    "0",
    "2",
    "0.5",
    "1e309",
    "10**10**10",
    "sqrt(-1)",
    "log(0)",
    "x",
    "__import__('os')",
    "R.real",
    "lambda: 1",
    "[1]",
]


_GOOD_BOUNDS = [
    "R2/gamma2",
    "R2/gamma2 - 1",
    "floor(R2/gamma2) + 1",
    "max(m, R2/gamma2)",
    "sqrt(R2/gamma2) + d",
]
_GOOD_BOUNDS += ["R**2/gamma**2 / 2", "2*R2/gamma2", "R2/gamma2/3"]


@st.composite
def bound_text(draw: Any) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(_GOOD_BOUNDS))
    if draw(st.integers(0, 4)) == 0:
        return draw(
            st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=40)
        )
    expr = draw(st.sampled_from(_ATOMS))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["+", "-", "*", "/", "**", "^", "//", "%"]))
        other = draw(st.sampled_from(_ATOMS))
        expr = draw(
            st.sampled_from(
                [
                    f"{expr} {op} {other}",
                    f"({expr}) {op} {other}",
                    f"max({expr}, {other})",
                    f"floor({expr})",
                    f"exp({expr})",
                    f"sqrt({expr})",
                    f"log({expr}",
                ]
            )
        )
    return expr


@st.composite
def falsify_command(draw: Any) -> list[str]:
    """falsify with a bound and options, each hostile or well formed independently."""
    hostile = draw(st.integers(0, 2)) == 0
    opt = _Options(draw, hostile)
    algorithm = draw(
        st.sampled_from(["perceptron", "pdm", "pfm", "multiclass", "nope"][: 5 if hostile else 4])
    )
    args = ["falsify", "--algorithm", algorithm]
    args += opt("--examples", ["2", "3", "0", "-1"], 2)
    args += opt("--workers", [None, None, "2", "0"], 3)
    if algorithm in ("pdm", "pfm") or hostile:
        args += opt("--epsilons", [None, "1/2", "1/2,1/10", "", "2,nan"], 3)
    args += opt("--database", ["none", "db", "afile", ""], 2)
    args += opt("--out", [None, "ce.csv", ".", "nodir/ce.csv"], 2)
    args += opt("--seed", [None, "7", "-1", "9" * 200, "x"], 4)
    if draw(st.booleans()):
        args.append("--json")
    return [*args, "--", draw(bound_text() if hostile else st.sampled_from(_GOOD_BOUNDS))]


@_settings(6)
@given(falsify_command())
@example(["falsify", "--examples", "2", "--database", "none", "--json", "--", "R2/gamma2 - 1"])
@example(["falsify", "--examples", "2", "--database", "none", "--", "10**10**10"])
def test_fuzz_falsify(tmp_path_factory: pytest.TempPathFactory, args: list[str]) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    (tmp / "afile").write_text("not a directory")
    call(args, tmp, allow_1="counterexample")


# ------------------------------------------------------------------ diff

_IMPLEMENTATIONS = {
    "hangs.py": "def fit(X, y, **kw):\n    while True:\n        pass\n",
    "exits.py": "import sys\ndef fit(X, y, **kw):\n    sys.exit(0)\n",
    "exits_at_import.py": "import sys\nsys.exit(3)\n",
    "recursive.py": "def fit(X, y, **kw):\n    return fit(X, y, **kw)\n",
    "huge.py": "def fit(X, y, **kw):\n    return [1e308] * (X.shape[1] + 1)\n",
}


@_settings(4)
@given(
    st.sampled_from(
        [
            "tests.impls.perceptrons:correct",
            "tests.impls.perceptrons:raises",
            "tests.impls.perceptrons:returns_nan",
            "tests.impls.perceptrons:wrong_shape",
            "hangs:fit",
            "exits:fit",
            "exits_at_import:fit",
            "recursive:fit",
            "huge:fit",
            "no_such_module:fit",
            "json:nothing",
            ":",
            "sklearn.linear_model:Perceptron",
        ]
    ),
    st.sampled_from(["perceptron", "pdm", "pfm", "multiclass"]),
    st.sampled_from(
        [[], ["--sklearn", ""], ["--sklearn", "bogus=1"], ["--sklearn", "shuffle=False,tol=None"]]
    ),
    st.sampled_from([["--call-timeout", "1"], ["--call-timeout", "0"], ["--call-timeout", "-1"]]),
    st.booleans(),
)
@example("exits:fit", "perceptron", [], ["--call-timeout", "1"], True)
def test_fuzz_diff(
    tmp_path_factory: pytest.TempPathFactory,
    target: str,
    algorithm: str,
    sklearn: list[str],
    timeout: list[str],
    as_json: bool,
) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    for name, text in _IMPLEMENTATIONS.items():
        (tmp / name).write_text(text)
    args = ["diff", target, "--algorithm", algorithm, "--examples", "1", *sklearn, *timeout]
    call(args + (["--json"] if as_json else []), tmp, allow_1="finding")


# ------------------------------------------------------------------ everything else: arguments

_WORDS = [
    "verify",
    "textbook-tables",
    "seed-tables",
    "certify",
    "run",
    "--json",
    "--only",
    "N1",
    "ZZ",
    "--baseline",
    "missing.json",
    "--junit",
    ".",
    "--report",
    "r.md",
    "--time-limit",
    "-1",
    "nan",
    "1e400",
    "--help",
    "--",
    "-",
    "",
]
_ARG_TEXT = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=8)


@_settings(6)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), _ARG_TEXT), max_size=6))
@example(["textbook-tables", "--json"])
@example(["seed-tables", "--json"])
@example(["verify", "--only", "ZZ", "--json"])
def test_fuzz_arguments(tmp_path_factory: pytest.TempPathFactory, words: list[str]) -> None:
    if words[:1] == ["verify"] and "--only" not in words:
        words = [*words, "--only", "N1"]  # the full campaign is a minute of work, not a fuzz input
    call(words, tmp_path_factory.mktemp("fuzz"))


# ------------------------------------------------------------------ resources: huge numbers,
# devices and pipes as files, counts in headers, sparse blow-ups (each call under the
# address-space and CPU limits of :func:`call`, its peak memory asserted there)

_SEP = b"0,0,-1\n1,1,1\n2,0,1\n0,2,-1\n"
# an earlier replay file: its bound names the squared deviation by its old name, D2
_REPLAY = (
    '# novikoff-replay {"algorithm": "perceptron", "bias": "0", "bound": "(sqrt(R2)+sqrt(D2))**2/gamma2/4", '
    '"bound_limits": [2000, 100, 10000, 10000], "nonseparable": {"gamma": "4", "passes": 1, "u": ["1"]}, '
    '"novikoff_counterexample": 1, "order": "natural", "parameters": {}, "samples": 2, "updates": 2}\n'
    "1,1\n1,-1\n"
)
_HUGE = st.sampled_from([101, 4301, 10_001, 1_000_000])


def _certificate_text() -> str:
    import tempfile

    from novikoff.certificates import certify
    from novikoff.certificates.format import CertificateDocument, DatasetBinding
    from novikoff.data.readers import read_csv

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sep.csv"
        path.write_bytes(_SEP)
        ds = read_csv(path)
    return CertificateDocument(DatasetBinding.of(ds), certify(ds)).to_json()


_CERTIFICATE: list[str] = []


@st.composite
def resource_command(draw: Any) -> tuple[list[str], dict[str, bytes], str, str]:
    """(arguments, files, a FIFO's name or "", the documented exit-1 outcome) of a call whose
    input asks for unbounded time or memory."""
    kind = draw(st.sampled_from(["certificate", "replay", "data", "sparse", "device", "pipe", "argument"]))
    digits = draw(_HUGE)
    huge = "9" * digits
    files: dict[str, bytes] = {"sep.csv": _SEP}
    if kind == "certificate":
        if not _CERTIFICATE:
            _CERTIFICATE.append(_certificate_text())
        doc = json.loads(_CERTIFICATE[0])
        field = draw(st.sampled_from(["n_samples", "n_features", "bias", "version", "kind", "lambda", "key"]))
        if field in ("n_samples", "n_features"):
            doc["dataset"][field] = int(huge[: min(digits, 4000)])  # json.dumps of more is itself slow
            text = json.dumps(doc)
            text = text.replace(str(doc["dataset"][field]), huge)
        elif field == "bias":
            doc["dataset"]["bias"] = huge
            text = json.dumps(doc)
        elif field == "version":
            text = json.dumps(doc).replace('"version": 1', '"version": ' + huge)
        elif field == "kind":
            doc["certificate"]["kind"] = draw(st.sampled_from([["gordan"], {"k": 1}, huge, None]))
            text = json.dumps(doc)
        elif field == "lambda":
            doc["certificate"]["lambda"][0] = huge + "/7"
            text = json.dumps(doc)
        else:
            doc["dataset"]["\n\x1b[2J" + huge[:50]] = 1
            text = json.dumps(doc)
        encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16"]))
        files["c.json"] = text.encode(encoding)
        return ["check", "sep.csv", "c.json"], files, "", "invalid"
    if kind == "replay":
        field = draw(st.sampled_from(["passes", "limits", "seed", "samples", "gamma"]))
        text = _REPLAY
        if field == "passes":
            text = text.replace(
                '"passes": 1', '"passes": ' + draw(st.sampled_from([huge, "1000000000000", "0"]))
            )
        elif field == "limits":
            text = text.replace("[2000, 100, 10000, 10000]", f"[2000, 100, {huge}, 100000000]")
        elif field == "seed":
            text = text.replace('"order": "natural"', f'"order": "shuffle:{huge}"')
        elif field == "samples":
            text = text.replace('"samples": 2', '"samples": ' + huge)
        else:
            text = text.replace('"gamma": "4"', f'"gamma": "{huge}"')
        files["ce.csv"] = text.encode()
        return ["replay", "ce.csv"], files, "", "violated"
    if kind == "data":
        where = draw(st.sampled_from(["field", "exponent", "index"]))
        if where == "field":
            files["d.csv"] = f"{huge},1,1\n-1,-2,-1\n".encode()
            return ["run", "d.csv"], files, "", ""
        if where == "exponent":
            files["d.csv"] = f"1e{huge},1,1\n-1,-2,-1\n".encode()
            return ["certify", "d.csv"], files, "", ""
        files["d.svm"] = f"+1 {huge}:1\n-1 1:1\n".encode()
        return ["run", "d.svm"], files, "", ""
    if kind == "sparse":
        rows = draw(st.sampled_from([2, 10, 100, 1000]))
        index = draw(st.sampled_from([1000, 100_000, 1_000_000]))
        files["w.svm"] = "".join(
            f"{'+1' if k % 2 else '-1'} {index}:{k}\n" for k in range(1, rows + 1)
        ).encode()
        budget = draw(st.sampled_from([[], ["--max-memory", "256M"], ["--max-memory", "1G"]]))
        return [draw(st.sampled_from(["run", "certify"])), "w.svm", *budget], files, "", ""
    if kind == "device":
        device = draw(st.sampled_from(["/dev/zero", "/dev/urandom", "/dev/null", "/proc/self/maps"]))
        args = draw(
            st.sampled_from(
                [
                    ["check", "sep.csv", device],
                    ["run", device, "--format", "csv"],
                    ["certify", device, "--format", "libsvm"],
                    ["margins", "sep.csv", "--weights", device],
                    ["replay", device],
                ]
            )
        )
        return args, files, "", "invalid" if args[0] == "check" else ""
    if kind == "pipe":
        args = draw(
            st.sampled_from(
                [
                    ["check", "sep.csv", "pipe"],
                    ["run", "pipe", "--format", "csv", "--time-limit", "3"],
                    ["margins", "sep.csv", "--weights", "pipe", "--time-limit", "3"],
                    ["replay", "pipe"],
                ]
            )
        )
        return args, files, "pipe", ""
    option = draw(st.sampled_from(["--max-epochs", "--label-column", "--max-memory", "--time-limit"]))
    value = draw(st.sampled_from([huge[:100_000], "1_0", "\u0661", "1e400"]))  # exec's limit: 128 KiB
    return ["run", "sep.csv", option, value], files, "", ""


@_settings(10)
@given(resource_command(), st.booleans())
@example(
    (["run", "w.svm"], {"w.svm": b"".join(b"+1 1000000:%d\n" % k for k in range(1, 101))}, "", ""), False
)
@example((["check", "sep.csv", "/dev/zero"], {"sep.csv": _SEP}, "", ""), True)
def test_fuzz_resources(
    tmp_path_factory: pytest.TempPathFactory,
    case: tuple[list[str], dict[str, bytes], str, str],
    as_json: bool,
) -> None:
    args, files, fifo, allow_1 = case
    tmp = tmp_path_factory.mktemp("fuzz")
    _write(tmp, files)
    if fifo:
        os.mkfifo(tmp / fifo)  # nobody writes: the read waits until the time limit or a refusal
    call([*args, "--json"] if as_json else args, tmp, allow_1)
