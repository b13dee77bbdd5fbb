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


def _min_margin2(data: Path, weights: list[Fraction]) -> Fraction:
    """min_i (y_i w.(x_i, 1))^2 / ||w||^2, computed here from the CSV (bias 1), exactly."""
    norm2 = sum(v * v for v in weights)
    best = None
    for line in data.read_text().splitlines():
        *xs, label = (Fraction(t) for t in line.split(","))
        dot = label * sum(w * x for w, x in zip(weights, [*xs, Fraction(1)]))
        assert dot > 0  # a converged run separates the data
        value = dot * dot / norm2
        best = value if best is None else min(best, value)
    assert best is not None
    return best


@pytest.mark.parametrize("mode", ["--exact", "--fast"])
@pytest.mark.parametrize(
    "algorithm", [["perceptron"], ["pdm", "--epsilon", "1/10"], ["pfm", "--beta", "1/4"]]
)
def test_run_json_carries_the_final_weights_and_weights_out_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, algorithm: list[str]
) -> None:
    data = tmp_path / "d.csv"
    data.write_text("0.5,2,1\n1.25,0.75,1\n-1,-0.5,-1\n-0.25,-2,-1\n3,0.1,1\n")
    out = tmp_path / "w.txt"
    code, report = _run(
        capsys, str(data), "--algorithm", *algorithm, mode, "--weights-out", str(out), "--header", "no"
    )
    assert code == 0 and report["run"]["converged"]
    run = report["run"]
    exact = [Fraction(v) for v in (run["weights_exact"] if mode == "--fast" else run["weights"])]
    assert len(exact) == 3
    if mode == "--fast":  # the floats, and beside them their exact dyadic values
        assert all(isinstance(v, float) for v in run["weights"])
        assert [Fraction(v) for v in run["weights"]] == exact
    else:
        assert all(isinstance(v, str) for v in run["weights"])
    # the achieved margin the report certifies is the one of these very weights
    assert Fraction(report["margin"]["gamma_prime2"]) == _min_margin2(data, exact)
    # --weights-out: the same exact values, read back by `novikoff margins --weights`
    assert [Fraction(t) for t in out.read_text().splitlines() if not t.startswith("#")] == exact
    code = cli.main(["margins", str(data), "--header", "no", "--weights", str(out), "--json"])
    margins = json.loads(capsys.readouterr().out)
    assert code == 0 and margins["training_errors"] == 0


def test_weights_out_to_an_unwritable_place_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["run", "example:exercise-6.1", "--weights-out", str(tmp_path / "no" / "such" / "w.txt")])
    assert code == 2 and "--weights-out" in capsys.readouterr().err


def test_multiclass_run_records_one_weight_row_per_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "three.csv"
    data.write_text("0,0,a\n4,0,b\n0,4,c\n1,0,a\n5,1,b\n1,5,c\n")
    out = tmp_path / "w.txt"
    code, report = _run(
        capsys, str(data), "--algorithm", "multiclass", "--header", "no", "--weights-out", str(out)
    )
    rows = report["run"]["weights"]
    assert code == 0 and report["run"]["converged"] and len(rows) == 3
    assert all(len(row) == 3 for row in rows)  # two features and the bias, per class
    written = [line.split(", ") for line in out.read_text().splitlines() if not line.startswith("#")]
    assert [[Fraction(v) for v in row] for row in written] == [[Fraction(v) for v in row] for row in rows]
    assert report["training_errors"] == 0


def test_msvmav_weights_out_is_read_back_by_margins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.txt"
    code, report = _run(capsys, "example:exercise-6.1", "--algorithm", "msvmav", "--weights-out", str(out))
    assert code == 0
    written = [Fraction(t) for t in out.read_text().splitlines() if not t.startswith("#")]
    assert written == [Fraction(v) for v in report["weights"]]  # the floats' exact values
    code = cli.main(["margins", "example:exercise-6.1", "--weights", str(out), "--json"])
    margins = json.loads(capsys.readouterr().out)
    assert code == 0 and margins["training_errors"] == report["training_errors"]
