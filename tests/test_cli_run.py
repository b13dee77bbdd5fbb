"""``novikoff run``: every algorithm, exact and fast, JSON fields, bad input exits 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from novikoff import cli


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = cli.main(["run", *argv, "--json"])
    out = capsys.readouterr().out
    return code, (json.loads(out) if code == 0 else {})


@pytest.mark.parametrize(
    "options",
    [
        ["--algorithm", "perceptron"],
        ["--algorithm", "pdm", "--epsilon", "0.1"],
        ["--algorithm", "pdm", "--epsilon", "1/2", "--multiple-updates"],
        ["--algorithm", "pfm", "--beta", "1/10"],
        ["--algorithm", "pdm-succ", "--epsilons", "0.5,0.25,0.1"],
    ],
)
@pytest.mark.parametrize("mode", ["--exact", "--fast"])
def test_run_reports_a_certified_margin_and_its_checks(
    capsys: pytest.CaptureFixture[str], options: list[str], mode: str
) -> None:
    code, report = _run(capsys, "example:exercise-6.1", *options, mode)
    assert code == 0 and report["separable"] and report["run"]["converged"]
    margin = report["margin"]
    lo, hi = (Fraction(v) for v in margin["ratio_interval"])
    assert 0 < lo <= hi <= 1 and lo * lo <= Fraction(margin["ratio2"]) <= hi * hi
    if "pdm" in options[1] and mode == "--exact":
        assert report["checks"]["D3"].startswith("held at all")
        assert any(k.startswith("D2") and v == "held" for k, v in report["checks"].items())
    if options[1] == "pdm" and mode == "--fast":
        assert report["checks"]["D2"].startswith("held")
    if options[1] == "pdm":
        eps = Fraction(options[3])
        assert Fraction(margin["ratio2"]) >= (1 - eps) ** 2  # D2's guarantee, squared


def test_run_on_sonar_with_soft_margin_prints_a_certified_ratio(
    coq_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        [
            "run",
            str(coq_dir / "rocks_and_mines.csv"),
            "--algorithm",
            "pdm",
            "--epsilon",
            "0.5",
            "--soft-margin",
            "1",
            "--fast",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "achieved margin gamma'/gamma in [" in out and "D2: held" in out


def test_non_separable_data_without_soft_margin_stops_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xor = tmp_path / "xor.csv"
    xor.write_text("0,0,1\n1,1,1\n0,1,-1\n1,0,-1\n")
    assert cli.main(["run", str(xor), "--algorithm", "pdm", "--epsilon", "0.5", "--max-epochs", "7"]) == 0
    out = capsys.readouterr().out
    assert "NOT converged (stopped by --max-epochs 7)" in out and "not separable: Gordan certificate" in out
    assert cli.main(["run", str(xor), "--soft-margin", "1", "--epsilon", "0.5"]) == 0
    assert "converged" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algorithm", "pdm", "--epsilon", "0"], "in (0, 1]"),
        (["--algorithm", "pdm", "--epsilon", "1.01"], "in (0, 1]"),
        (["--algorithm", "pfm", "--beta", "-1"], "beta must be >= 0"),
        (["--algorithm", "pfm"], "needs --beta"),
        (["--algorithm", "pdm-succ", "--epsilons", "0.1,0.2"], "decrease strictly"),
        (["--algorithm", "pdm-succ", "--epsilons", ","], "empty"),
        (["--algorithm", "pdm", "--beta", "1"], "does not apply"),
        (["--soft-margin", "0"], "Delta must be > 0"),
        (["--soft-margin", "abc"], "--soft-margin"),
    ],
)
def test_bad_run_parameters_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert cli.main(["run", "example:exercise-6.1", *argv]) == 2
    assert message in capsys.readouterr().err
