"""``novikoff run --algorithm averaged|voted``: JSON fields, exact and fast, weights file, exit codes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.reference.averaged import predict_averaged, predict_voted, run_averaged, run_voted
from novikoff.twins import averaged as twin

EPOCHS = 12  # seed-6.9 is not separable: a short run


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["run", *argv, "--json"])
    out = capsys.readouterr().out
    return code, (json.loads(out) if code == 0 else {})


def _x_tilde(ds: Dataset, i: int) -> list[Fraction]:
    return [*ds.features(i), ds.bias]


def _errors_averaged(ds: Dataset, w: list[Fraction]) -> int:
    return sum(1 for i, y in enumerate(ds.labels) if predict_averaged(w, _x_tilde(ds, i)) != y)


def _errors_voted(ds: Dataset, ws: list[Any], cs: list[int]) -> int:
    return sum(1 for i, y in enumerate(ds.labels) if predict_voted(ws, cs, _x_tilde(ds, i)) != y)


def test_averaged_exact_json_is_the_reference_average(capsys: pytest.CaptureFixture[str]) -> None:
    ds = load_example("seed-6.9")
    code, report = _run(capsys, "example:seed-6.9", "--algorithm", "averaged", "--max-epochs", str(EPOCHS))
    assert code == 0 and report["algorithm"] == "averaged" and report["mode"] == "exact"
    ref = run_averaged(ds, max_epochs=EPOCHS)
    run = report["run"]
    assert [Fraction(v) for v in run["weights"]] == list(ref.weights)
    assert [Fraction(v) for v in run["perceptron_weights"]] == list(ref.final_weights)
    assert run["updates"] == ref.mistakes and run["epochs"] == EPOCHS and not run["converged"]
    assert run["presentations"] == EPOCHS * ds.n_samples
    assert run["training_errors"] == _errors_averaged(ds, list(ref.weights))
    margin = report["margin"]  # of the average; not separable: no w has every w.z_i > 0
    assert margin["sign"] <= 0 and margin["ratio2"] is None


def test_averaged_fast_json_holds_floats_and_their_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    ds = load_example("seed-6.9")
    code, report = _run(
        capsys, "example:seed-6.9", "--algorithm", "averaged", "--fast", "--max-epochs", str(EPOCHS)
    )
    assert code == 0 and report["mode"] == "fast"
    fast = twin.run_averaged(ds, max_epochs=EPOCHS)
    run = report["run"]
    assert run["weights"] == fast.weights.tolist()
    exact = [Fraction(v) for v in run["weights_exact"]]
    assert exact == [Fraction(float(v)) for v in fast.weights]
    assert run["training_errors"] == _errors_averaged(ds, exact)


@pytest.mark.parametrize("mode", ["--exact", "--fast"])
def test_voted_json_lists_the_voters_like_the_updates(capsys: pytest.CaptureFixture[str], mode: str) -> None:
    ds = load_example("seed-6.9")
    argv = ["example:seed-6.9", "--algorithm", "voted", "--max-epochs", str(EPOCHS), "--record", "2", mode]
    code, report = _run(capsys, *argv)
    assert code == 0
    run = report["run"]
    if mode == "--exact":
        voters = [(list(w), c) for w, c in run_voted(ds, max_epochs=EPOCHS).voters]
    else:
        voters = [
            ([Fraction(float(v)) for v in w], c) for w, c in twin.run_voted(ds, max_epochs=EPOCHS).voters
        ]
    listed = run["voters"]
    assert listed["total"] == len(voters) == run["updates"] + 1 > 4
    assert listed["omitted"] == len(voters) - 4 and len(listed["first"]) == len(listed["last"]) == 2
    key = "weights" if mode == "--exact" else "weights_exact"
    shown = [([Fraction(v) for v in p[key]], p["count"]) for p in listed["first"] + listed["last"]]
    assert shown == voters[:2] + voters[-2:]
    assert sum(c for _, c in voters) == run["presentations"] == EPOCHS * ds.n_samples
    assert run["training_errors"] == _errors_voted(ds, [w for w, _ in voters], [c for _, c in voters])
    assert [Fraction(v) for v in run[key]] == voters[-1][0]  # run.weights: the last voter
    assert report["margin"] is None


def test_separable_data_check_n1_n3_and_report_the_average_margin(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run(capsys, "example:exercise-6.1", "--algorithm", "averaged")
    assert code == 0 and report["run"]["converged"]
    assert report["checks"]["N1-N3"].startswith("held at all")
    assert report["margin"] is not None and report["margin"]["after_run_estimate"] is None
    assert report["run"]["training_errors"] == 0
    code, report = _run(capsys, "example:exercise-6.1", "--algorithm", "voted")
    assert code == 0 and report["checks"]["N1-N3"].startswith("held at all")
    assert report["margin"] is None and report["run"]["voters"]["omitted"] == 0


def test_weights_out_writes_the_average_for_margins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "avg.txt"
    argv = ["example:seed-6.9", "--algorithm", "averaged", "--max-epochs", str(EPOCHS)]
    code, report = _run(capsys, *argv, "--weights-out", str(out))
    assert code == 0
    lines = [ln for ln in out.read_text().splitlines() if not ln.startswith("#")]
    assert lines == report["run"]["weights"]
    assert "average of the weights after every presentation" in out.read_text()
    assert cli.main(["margins", "example:seed-6.9", "--weights", str(out)]) == 0
    ds, w = load_example("seed-6.9"), [Fraction(v) for v in lines]
    # margins counts w.z_i <= 0 (a tie is an error whatever the label), from the file it read
    margin_errors = sum(1 for i in range(ds.n_samples) if sum(a * b for a, b in zip(w, ds.pattern(i))) <= 0)
    assert f"training errors (margin <= 0): {margin_errors}" in capsys.readouterr().out


def test_text_report_says_what_the_weights_are(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "example:seed-6.9", "--algorithm", "voted", "--max-epochs", "3"]) == 0
    out = capsys.readouterr().out
    assert "voters (w_j, c_j) over 240 presentations" in out and "ties predict -1" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--algorithm", "voted", "--weights-out", "w.txt"], "the voted perceptron is not one weight vector"),
        (["--algorithm", "averaged", "--multiple-updates"], "--multiple-updates does not apply"),
        (["--algorithm", "voted", "--epsilon", "1/2"], "--epsilon does not apply to --algorithm voted"),
        (["--algorithm", "averaged", "--beta", "1"], "--beta does not apply to --algorithm averaged"),
        (["--algorithm", "averaged", "--aggressive"], "--aggressive does not apply"),
    ],
)
def test_bad_combinations_exit_2_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    extra = [str(tmp_path / v) if v == "w.txt" else v for v in extra]
    assert cli.main(["run", "example:exercise-6.1", *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "w.txt").exists()
