"""The certify command: JSON contract, readable output, exit codes and bad input."""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from novikoff import cli
from novikoff.certificates import SeparableCertificate, certify
from novikoff.commands import certify as certify_command
from novikoff.data.dataset import Dataset


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract_exercise_6_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "example:exercise-6.1", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["separable"] is True and r["n_samples"] == 4 and r["n_features"] == 2 and r["bias"] == 1
    assert (r["R2"], r["gamma2"], r["bound"]) == (9, 2, "9/2")
    assert (r["R2_float"], r["gamma2_float"], r["bound_float"]) == (9.0, 2.0, 4.5)
    assert r["weights"] == ["1/2", "1/2", 0]
    assert r["lambda"] == ["1/2", 0, "1/2", 0]
    assert r["geometric_margin2"] == 2
    p = r["perceptron"]
    assert (p["mistakes"], p["epochs"], p["converged"], p["invariants_checked"]) == (1, 2, True, 3)
    assert "gordan" not in r


def test_json_nonseparable_has_gordan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "xor.csv"
    f.write_text("1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json", "--max-epochs", "7")
    assert code == 0
    r = json.loads(out)
    assert r["separable"] is False and "weights" not in r
    assert r["gordan"]["lambda"] == ["1/4"] * 4
    assert r["perceptron"]["converged"] is False and r["perceptron"]["epochs"] == 7


def test_libsvm_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "d.svm"
    f.write_text("+1 1:2 3:1/2\n-1 2:3\n-1 1:-1 2:1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json", "--bias", "1/2")
    r = json.loads(out)
    assert code == 0 and r["separable"] and r["n_features"] == 3 and r["bias"] == "1/2"
    code, out, err = run_cli(capsys, "certify", str(f), "--format", "csv")
    # read as CSV: the first line has a number (+1), so it is data, and its field 2 is refused
    assert code == 2 and "d.svm:1:2" in err


def test_libsvm_detected_by_content_not_only_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "d.txt"
    f.write_text("+1 1:2 3:1/2\n-1 2:3\n")
    code, out, err = run_cli(capsys, "certify", str(f), "--json")
    assert code == 0, err
    assert json.loads(out)["n_features"] == 3


def test_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", "example:t1:5")
    assert code == 0
    assert "separable: yes" in out and "Novikoff bound R^2/gamma^2" in out and "5 mistakes" in out


def test_shared_files_certify(coq_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "certify", str(coq_dir / "iris_setosa.csv"), "--json")
    r = json.loads(out)
    assert code == 0 and r["separable"] and r["perceptron"]["converged"]
    assert r["perceptron"]["mistakes"] * Fraction(r["gamma2"]) <= Fraction(r["R2"])


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("1,2,1\n3,nan,-1\n", [], r"bad\.csv:2:2: 'nan' is not a finite number"),
        ("1,2,1\n3,inf,-1\n", [], r"bad\.csv:2:2"),
        ("1,2,1\n3,4\n", [], r"bad\.csv:2: 2 fields, expected 3"),
        ("1,2,1\n3,four,-1\n", [], r"bad\.csv:2:2: not a number: 'four'"),
        ("", [], "empty file"),
        ("1,2,1\n", [], "only one sample"),
        ("1,2,a\n3,4,b\n", [], "name the positive label"),
        ("1,2,a\n3,4,b\n", ["--positive", "c"], "does not occur"),
        ("1,2,1\n3,4,2\n5,6,3\n", [], "3 labels"),
        ("1,2,1\n3,4,-1\n", ["--bias", "-1"], "bias"),
        ("1,2,1\n3,4,-1\n", ["--order", "random"], "--order"),
        ("1,2,1\n3,4,-1\n", ["--label-column", "5"], "label column 5"),
    ],
)
def test_bad_input_exits_2_naming_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, args: list[str], message: str
) -> None:
    f = tmp_path / "bad.csv"
    f.write_text(content)
    code, _out, err = run_cli(capsys, "certify", str(f), *args)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert __import__("re").search(message, err), err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["certify", "/no/such/file.csv"], "no such file"),
        (["certify", "example:nope"], "unknown example"),
        (["certify", "example:t1:x"], "example"),
        (["certify", "example:t1:3", "--max-epochs", "0"], "--max-epochs"),
        (["certify", "example:t1:3", "--bias", "x"], "--bias"),
        (["nosuchcommand"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    try:
        code = cli.main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code == 2 and message in err and "Traceback" not in err


def test_huge_integer_stays_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = 10**400
    f = tmp_path / "big.csv"
    f.write_text(f"{big},1\n-{big},-1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json")
    r = json.loads(out)
    # beyond float64: the exact integer as a string of digits, its float companion null
    assert code == 0 and r["R2"] == str(big * big + 1)
    assert r["R2_float"] is None
    assert "Infinity" not in out


def test_invariant_failure_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = certify

    def overclaiming(ds: Dataset, **kw: Any) -> SeparableCertificate:
        cert = real(ds, **kw)
        assert isinstance(cert, SeparableCertificate)
        return dataclasses.replace(cert, gamma2=cert.gamma2 * 2)

    monkeypatch.setattr(certify_command, "certify", overclaiming)
    code, _, err = run_cli(capsys, "certify", "example:t1:4")
    assert code == 1 and "INVARIANT FAILED" in err and ("N1" in err or "N3" in err)


def test_plot_writes_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "squeeze.png"
    code, _out, _ = run_cli(capsys, "certify", "example:seed-6.6:3", "--plot", str(png))
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_console_entry_point_runs_without_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "certify", str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "no such file" in proc.stderr and "Traceback" not in proc.stderr


def test_textbook_tables_reproduce_the_textbook(capsys: pytest.CaptureFixture[str]) -> None:
    _code, out, _ = run_cli(capsys, "textbook-tables", "--json")
    t = json.loads(out)
    rows = {r["separation"]: r for r in t["section_6_6"]}
    assert rows[2.0]["separable"] is False  # the row the textbook dropped is not separable at all
    for sep, printed in {3.0: 161.4, 4.0: 19.6, 5.0: 8.9, 6.0: 5.7}.items():
        r = rows[sep]
        assert round(r["mean_difference_bound_float"], 1) == printed  # the textbook's own numbers
        assert Fraction(r["exact_bound"]) <= Fraction(r["mean_difference_bound_float"])
        assert r["mistakes"] <= r["exact_bound_float"]
    assert [r["mistakes"] for r in t["exercise_6_3"]] == [2, 3, 5, 10, 20, 50]


def test_seed_tables_is_a_hidden_deprecated_alias(capsys: pytest.CaptureFixture[str]) -> None:
    code_new, out_new, err_new = run_cli(capsys, "textbook-tables", "--json")
    code_old, out_old, err_old = run_cli(capsys, "seed-tables", "--json")
    assert code_new == code_old == 0 and out_old == out_new
    assert "deprecated" not in err_new and "'seed-tables' is deprecated, use 'textbook-tables'" in err_old
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    out, _ = capsys.readouterr()
    assert exit_info.value.code == 0 and "textbook-tables" in out and "seed-tables" not in out
    # only the command word is renamed: the same word as an argument is left alone
    code, _, err = run_cli(capsys, "certify", "seed-tables")
    assert code == 2 and "deprecated" not in err and "seed-tables" in err


@pytest.mark.parametrize(("old", "new"), [("seed-6.6:3", "textbook-6.6:3"), ("seed-6.9", "textbook-6.9")])
def test_deprecated_example_names_load_the_same_data(old: str, new: str) -> None:
    from novikoff.data.examples import EXAMPLES, load_example

    a, b = load_example(old), load_example(new)
    assert (a.name, b.name) == (old, new)  # each keeps the name it was asked by
    assert (a.numerators, a.denominator, a.labels, a.bias) == (b.numerators, b.denominator, b.labels, b.bias)
    assert not any(name.startswith("seed-") for name in EXAMPLES)  # only the new names are listed


def test_huge_exponent_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "big.csv"
    f.write_text("1,2,1\n1e99999,4,-1\n")
    code, _, err = run_cli(capsys, "certify", str(f))
    assert code == 2 and "big.csv:2:1: exponent out of range" in err


def test_results_with_more_than_4300_digits_print(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "big.csv"
    f.write_text("1,2,1\n" + "9" * 5000 + ",4,-1\n")
    code, out, _ = run_cli(capsys, "certify", str(f), "--json", "--max-epochs", "3")
    assert code == 0 and '"R2": ' in out and len(out) > 10_000


def test_malformed_baseline_is_refused_before_any_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import verify

    def no_checks(*args: object, **kwargs: object) -> list[object]:
        raise AssertionError("checks were collected before the baseline was read")

    monkeypatch.setattr(verify, "collect_checks", no_checks)
    bad = tmp_path / "baseline.json"
    bad.write_text('{"checks": "not a list"}')
    code, _, err = run_cli(capsys, "verify", "--baseline", str(bad))
    assert code == 2 and "--baseline" in err and "not a novikoff verify --json file" in err


def test_diff_and_falsify_offer_exactly_the_registered_algorithms() -> None:
    """The parser lists the names as literals (importing the registry would load sympy and
    scipy for every command); this holds them to the registry."""
    from novikoff.fuzz.registry import ALGORITHMS

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("diff", "falsify"):
        option = next(a for a in sub.choices[command]._actions if a.dest == "algorithm")
        assert sorted(option.choices or []) == sorted(ALGORITHMS), command
