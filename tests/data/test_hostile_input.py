"""The command line under hostile and extreme input (one test per finding at least).

Never hang, never crash, never lie: every call ends with exit 0, 1 or 2 (or 130/143 on a
signal), one line naming the place on error, standard JSON under --json. Calls that
hung before the fix run in a subprocess with a generous timeout, so a regression fails
the test instead of hanging the suite (the timeout is a hang guard, not a timing check).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import IO

import pytest

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.reference.large_margin import PDMRule, repeat_count
from novikoff.twins.large_margin import pdm_twin

HANG_GUARD = 120  # seconds; each call below finishes in a few seconds


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, out, err


def run_proc(
    *args: str, cwd: Path | None = None, stdout: int | IO[str] = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "novikoff.cli", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=HANG_GUARD,
        cwd=cwd,
    )


def strict_json(text: str) -> dict[str, object]:
    def refuse(token: str) -> object:
        raise AssertionError(f"non-standard JSON constant {token}")

    value = json.loads(text, parse_constant=refuse)
    assert isinstance(value, dict)
    return value


@pytest.fixture
def xor(tmp_path: Path) -> Path:
    f = tmp_path / "xor.csv"
    f.write_text("1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    return f


@pytest.fixture
def huge(tmp_path: Path) -> Path:
    f = tmp_path / "huge.csv"
    f.write_text("1e309,1,1\n-1,-2,-1\n2,3,1\n")
    return f


# ---------------------------------------------------------------- 2. endless runs


def test_repeat_count_is_bounded_on_a_zero_pattern() -> None:
    # z = 0: the PDM condition holds for every n; without a limit the doubling never ended
    assert repeat_count(PDMRule(Fraction(1, 2)), 1, 0, 0, 0, 1, limit=17) == 17
    assert repeat_count(PDMRule(Fraction(1, 2)), 1, 0, 4, 0, 1, limit=10**6) == 1


def test_pdm_twin_on_zero_rows_stops_at_max_updates() -> None:
    ds = Dataset.from_arrays([[0, 0], [0, 0]], [1, -1], bias=0)
    run = pdm_twin(ds, eps=Fraction(1, 100), max_epochs=1, max_updates=1000)
    assert not run.converged and run.mistakes <= 1000


@pytest.mark.parametrize("algorithm", ["pdm", "pdm-succ"])
def test_fast_run_on_all_zero_rows_returns(tmp_path: Path, algorithm: str) -> None:
    f = tmp_path / "zero2.csv"
    f.write_text("0,0,1\n0,0,-1\n")
    extra = ["--epsilons", "1/2,1/4"] if algorithm == "pdm-succ" else []
    r = run_proc(
        "run",
        str(f),
        "--bias",
        "0",
        "--fast",
        "--max-epochs",
        "1",
        "--algorithm",
        algorithm,
        *extra,
        "--json",
    )
    assert r.returncode == 0, r.stderr
    report = strict_json(r.stdout)
    assert report["run"]["converged"] is False  # type: ignore[index]


@pytest.mark.parametrize("expr", ["10**10**10", "2**2**2**2**2", "(10**100)**200", "R**(10**5)"])
def test_falsify_refuses_huge_powers_at_once(expr: str) -> None:
    r = run_proc("falsify", expr, "--examples", "1", "--database", "none")
    assert r.returncode == 2 and "column" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "name", ["t1:10^30", "t1:1000000000000", "t1:0", "t1-rotated:3:-1", "t1-rotated:100000"]
)
def test_example_sizes_are_bounded(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, _, err = run_cli(capsys, "certify", f"example:{name}")
    assert code == 2 and f"example '{name}'" in err


def test_diff_call_that_never_returns_is_an_error_not_a_hang(tmp_path: Path) -> None:
    (tmp_path / "hanging_impl.py").write_text("def fit(X, y, **kw):\n    while True:\n        pass\n")
    r = run_proc("diff", "hanging_impl:fit", "--examples", "2", "--call-timeout", "1", "--json", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    report = strict_json(r.stdout)
    assert report["ok"] is False and "did not return within 1 s" in report["errors"][0]  # type: ignore[index]


# ---------------------------------------------------------------- 3. valid large numbers

ALGORITHMS = [
    ("perceptron", []),
    ("pocket", []),
    ("pfm", ["--beta", "1"]),
    ("pdm", []),
    ("pdm-succ", ["--epsilons", "1/2,1/4"]),
    ("msvmav", []),
]


@pytest.mark.parametrize(("algorithm", "extra"), ALGORITHMS)
@pytest.mark.parametrize("mode", ["--exact", "--fast"])
@pytest.mark.parametrize("as_json", [False, True])
def test_run_with_huge_exact_values_never_crashes(
    capsys: pytest.CaptureFixture[str], huge: Path, algorithm: str, extra: list[str], mode: str, as_json: bool
) -> None:
    args = ["run", str(huge), "--algorithm", algorithm, *extra, mode] + (["--json"] if as_json else [])
    code, out, err = run_cli(capsys, *args)
    if mode == "--fast":
        assert code == 2 and "does not fit a float64" in err and len(err) < 400  # the twin needs floats
    else:
        assert code == 0, err
    if as_json:
        strict_json(out)


def test_run_multiclass_with_huge_values(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "mc.csv"
    f.write_text(f"{10**400},1,a\n-1,-2,b\n2,3,c\n")
    code, out, _ = run_cli(capsys, "run", str(f), "--algorithm", "multiclass", "--json")
    assert code in (0, 2)
    strict_json(out)


def test_integer_beyond_float_range_in_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "int.csv"
    f.write_text(f"{10**400},1,1\n-1,-2,-1\n")
    code, out, _ = run_cli(capsys, "run", str(f))
    assert code == 0 and "gamma^2 =" in out and "e+" in out


def test_certify_json_has_null_for_floats_beyond_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "big.csv"
    f.write_text("1e10000,1,1\n-1,-2,-1\n2,3,1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json")
    r = strict_json(out)
    assert code == 0 and r["R2_float"] is None and r["bound_float"] is None
    assert Fraction(str(r["R2"])) == Fraction(10) ** 20000 + 2


@pytest.mark.parametrize("weights", ["1e-10000 0 1", "1e400 1 1"])
def test_margins_with_extreme_weights(
    capsys: pytest.CaptureFixture[str], huge: Path, tmp_path: Path, weights: str
) -> None:
    w = tmp_path / "w.txt"
    w.write_text(weights)
    for extra in ([], ["--json"]):
        code, out, err = run_cli(capsys, "margins", str(huge), "--weights", str(w), *extra)
        assert code == 0, err
        if extra:
            strict_json(out)


def test_soft_margin_tiny(capsys: pytest.CaptureFixture[str], huge: Path) -> None:
    code, out, err = run_cli(capsys, "run", str(huge), "--soft-margin", "1e-300", "--json")
    assert code == 0, err
    strict_json(out)


@pytest.mark.parametrize("value", ["1e400", "1e-400"])
def test_msvmav_parameters_beyond_float_range_are_refused(
    capsys: pytest.CaptureFixture[str], xor: Path, value: str
) -> None:
    code, _, err = run_cli(capsys, "run", str(xor), "--algorithm", "msvmav", "--alpha", value)
    assert code == 2 and "--alpha" in err


@pytest.mark.parametrize("value", ["1000000000000000000000000000000", "10**30", "-1"])
def test_max_epochs_beyond_its_bound_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], xor: Path, value: str
) -> None:
    code, _, err = run_cli(
        capsys, "run", str(xor), "--algorithm", "perceptron", "--fast", "--max-epochs", value
    )
    assert code == 2 and "--max-epochs" in err


def test_plot_with_values_beyond_float_range(
    capsys: pytest.CaptureFixture[str], huge: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    code, _, err = run_cli(capsys, "certify", str(huge), "--plot", str(tmp_path / "f.png"))
    assert code == 2 and "--plot" in err


# ---------------------------------------------------------------- 4. header auto


@pytest.mark.parametrize("first", ["1,nan,1", "1,,1", "1,inf,1", "nan,2,1"])
@pytest.mark.parametrize("command", ["certify", "run", "margins"])
def test_header_auto_never_drops_a_data_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, first: str, command: str
) -> None:
    f = tmp_path / "d.csv"
    f.write_text(f"{first}\n2,3,1\n-1,-2,-1\n-3,-1,-1\n")
    w = tmp_path / "w.txt"
    w.write_text("1 1 0")
    extra = ["--weights", str(w)] if command == "margins" else []
    code, _, err = run_cli(capsys, command, str(f), *extra)
    assert code == 2 and "d.csv:1:" in err


def test_header_auto_still_reads_a_real_header(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "h.csv"
    f.write_text("x1,x2,label\n1,2,1\n-1,-2,-1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json")
    assert code == 0 and strict_json(out)["n_samples"] == 2


# ---------------------------------------------------------------- 5. diff false pass


def test_diff_callable_calling_sys_exit_is_a_failure(tmp_path: Path) -> None:
    (tmp_path / "exiting_impl.py").write_text("import sys\ndef fit(X, y, **kw):\n    sys.exit(0)\n")
    r = run_proc("diff", "exiting_impl:fit", "--examples", "2", cwd=tmp_path)
    assert r.returncode == 1 and "sys.exit(0)" in r.stdout, (r.stdout, r.stderr)


def test_diff_module_exiting_at_import_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "exits_at_import.py").write_text("import sys\nsys.exit(0)\n")
    r = run_proc("diff", "exits_at_import:fit", "--examples", "2", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "sys.exit(0)" in r.stderr
    assert strict_json(r.stdout)["exit_code"] == 2


# ---------------------------------------------------------------- 6. bounded memory and output


def test_long_non_separable_run_is_bounded_and_says_which_bound(
    capsys: pytest.CaptureFixture[str], xor: Path
) -> None:
    code, out, _ = run_cli(
        capsys,
        "certify",
        str(xor),
        "--json",
        "--max-epochs",
        "1000000000",
        "--max-updates",
        "1000",
        "--record",
        "3",
    )
    p = strict_json(out)["perceptron"]
    assert code == 0 and p["stopped_by"] == "max_updates" and p["mistakes"] <= 1000  # type: ignore[index]
    assert len(p["updates"]) == 3 and len(p["updates_last"]) == 3  # type: ignore[index]
    assert p["updates_omitted"] == p["mistakes"] - 6  # type: ignore[index]


def test_stopped_by_max_epochs(capsys: pytest.CaptureFixture[str], xor: Path) -> None:
    code, out, _ = run_cli(capsys, "certify", str(xor), "--max-epochs", "5")
    assert code == 0 and "stopped by --max-epochs" in out


@pytest.mark.parametrize("algorithm", ["perceptron", "pocket", "pdm", "pfm"])
def test_run_reports_the_bound_and_a_bounded_record(
    capsys: pytest.CaptureFixture[str], xor: Path, tmp_path: Path, algorithm: str
) -> None:
    extra = ["--beta", "1"] if algorithm == "pfm" else []
    trace = tmp_path / "trace.csv"
    code, out, err = run_cli(
        capsys,
        "run",
        str(xor),
        "--algorithm",
        algorithm,
        *extra,
        "--max-updates",
        "40",
        "--record",
        "2",
        "--trace",
        str(trace),
        "--json",
    )
    assert code == 0, err
    run = strict_json(out)["run"]
    assert run["stopped_by"] == "max_updates" and run["updates"] <= 40  # type: ignore[index]
    assert len(run["record"]["first"]) <= 2 and len(run["record"]["last"]) <= 2  # type: ignore[index]
    lines = trace.read_text().splitlines()
    assert lines[0] == "epoch,sample" and len(lines) == run["updates"] + 1  # type: ignore[index]


def test_multiclass_rejects_options_it_would_ignore(capsys: pytest.CaptureFixture[str], xor: Path) -> None:
    for extra in (["--positive", "1"], ["--format", "libsvm"]):
        code, _, err = run_cli(capsys, "run", str(xor), "--algorithm", "multiclass", *extra)
        assert code == 2 and extra[0] in err


def test_pfm_twin_with_a_margin_no_sample_can_clear_stays_one_pass_per_epoch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "four.csv"
    f.write_text("1,2,1\n2,1,1\n-1,-2,-1\n-2,-1,-1\n")
    code, out, _ = run_cli(
        capsys,
        "run",
        str(f),
        "--algorithm",
        "pfm",
        "--beta",
        "1000000",
        "--fast",
        "--max-epochs",
        "50",
        "--json",
    )
    run = strict_json(out)["run"]
    assert code == 0 and run["updates"] <= 4 * 50  # type: ignore[index]


# ---------------------------------------------------------------- 7. edges


def test_broken_pipe_is_one_line_not_a_traceback() -> None:
    p = subprocess.Popen(
        [sys.executable, "-m", "novikoff.cli", "textbook-tables"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=HANG_GUARD) == 2
    assert "Traceback" not in err and "Broken pipe" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_disk_is_one_line_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        r = run_proc("certify", "example:exercise-6.1", stdout=full)
    assert r.returncode == 2 and "No space left" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("expr", ["-" * 1500 + "R", "(" * 500 + "R" + ")" * 500, "sqrt(-1)", "log(-2) * R2"])
def test_falsify_refuses_deep_or_complex_bounds(capsys: pytest.CaptureFixture[str], expr: str) -> None:
    code, _, err = run_cli(capsys, "falsify", "--examples", "1", "--database", "none", "--", expr)
    assert code == 2 and "bound expression" in err and err.count("\n") == 1


def test_falsify_with_an_astronomical_bound_does_not_crash(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run_cli(capsys, "falsify", "exp(exp(exp(1000)))", "--examples", "2", "--database", "none")
    assert code == 0


def test_binary_weights_file(capsys: pytest.CaptureFixture[str], xor: Path, tmp_path: Path) -> None:
    w = tmp_path / "w.bin"
    w.write_bytes(b"\x00\xff\xfe\x80")
    code, _, err = run_cli(capsys, "margins", str(xor), "--weights", str(w))
    assert code == 2 and "--weights" in err and "UTF-8" in err


@pytest.mark.parametrize("name", ["x.xyz", "", "NOSUFFIX", "DIR"])
def test_plot_names_are_checked_before_the_run(
    capsys: pytest.CaptureFixture[str], xor: Path, tmp_path: Path, name: str
) -> None:
    target = tmp_path / name if name else ""
    if name == "DIR":
        (tmp_path / "DIR").mkdir()
    code, _, err = run_cli(capsys, "certify", str(xor), "--plot", str(target))
    assert code == 2 and "--plot" in err
    assert not (tmp_path / "DIR.png").exists() and not (tmp_path / "NOSUFFIX.png").exists()


def test_database_that_is_a_regular_file(capsys: pytest.CaptureFixture[str], xor: Path) -> None:
    code, _, err = run_cli(capsys, "falsify", "R2/gamma2", "--examples", "1", "--database", str(xor))
    assert code == 2 and "not a directory" in err


def test_diff_sklearn_misuse_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    code, _, err = run_cli(
        capsys, "diff", "sklearn.linear_model:Perceptron", "--sklearn", "bogus=1", "--examples", "1"
    )
    assert code == 2 and "--sklearn" in err
    code, _, err = run_cli(
        capsys, "diff", "novikoff.data.examples:load_example", "--sklearn", "", "--examples", "1"
    )
    assert code == 2 and "not an estimator class" in err


# ---------------------------------------------------------------- JSON errors and time limits


@pytest.mark.parametrize(
    "args",
    [
        ["certify", "no-such-file.csv", "--json"],
        ["certify", "--json"],
        ["run", "example:t1:3", "--json", "--algorithm", "nope"],
        ["falsify", "R2 +", "--json", "--database", "none"],
        ["verify", "--json", "--only", "N1", "--time-limit", "-1"],
        ["diff", "no_such_module:fit", "--json"],
        ["margins", "example:t1:3", "--weights", "missing.txt", "--json"],
        ["textbook-tables", "--json", "--bogus"],
    ],
)
def test_errors_under_json_are_one_json_object_on_stdout(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and err.strip()
    report = strict_json(out)
    assert report["exit_code"] == 2 and isinstance(report["error"], str)


def test_time_limit_stops_the_command_and_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "slow.csv"
    f.write_text("1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    code, out, err = run_cli(
        capsys,
        "run",
        str(f),
        "--algorithm",
        "perceptron",
        "--max-epochs",
        "1000000000",
        "--max-updates",
        "1000000000",
        "--time-limit",
        "1",
        "--json",
    )
    assert code == 1 and "--time-limit" in err
    assert strict_json(out)["stopped_by"] == "time_limit"


def test_no_infinity_in_any_json(capsys: pytest.CaptureFixture[str], huge: Path) -> None:
    for args in (["certify", str(huge), "--json"], ["run", str(huge), "--json"]):
        code, out, _ = run_cli(capsys, *args)
        assert code == 0 and "Infinity" not in out and "NaN" not in out
        strict_json(out)


def test_messages_quoting_control_characters_stay_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the CLI fuzz suite: a vertical tab in an argument split the error message."""
    code, _, err = run_cli(capsys, "textbook-tables", "a\x0bb", "c\u2028d")
    assert code == 2 and len(err.splitlines()) == 1 and "\\x0b" in err
    code, _, err = run_cli(capsys, "certify", "a\nb.csv")
    assert code == 2 and len(err.splitlines()) == 1
