"""Margin statistics: exact values checked by hand, the CDF's ties, S1, and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.data.examples import exercise_6_1
from novikoff.errors import InputError
from novikoff.reference.margin_stats import margin_statistics


def test_exercise_6_1_by_hand() -> None:
    # w = (1, 1, -1/2), bias input 1: u = y w.x~ = 3/2, 7/2, 5/2, 5/2; mean 5/2; ||w||^2 = 9/4
    stats = margin_statistics(exercise_6_1(), [1, 1, Fraction(-1, 2)])
    assert stats.scaled_margins == (Fraction(3, 2), Fraction(7, 2), Fraction(5, 2), Fraction(5, 2))
    assert stats.mean_scaled == Fraction(5, 2) and stats.w_norm2 == Fraction(9, 4)
    # only u = 3/2 is below the mean: SV = (5/2 - 3/2)^2 / (4 * 9/4) = 1/9
    assert stats.semivariance == Fraction(1, 9)
    # S1: mean((1 - u/mean)_+^2) = (1 - 3/5)^2 / 4 = 1/25 = SV / theta^2 = (1/9) / ((5/2)^2 / (9/4))
    assert stats.margin_loss == Fraction(1, 25) == stats.semivariance / (stats.mean_scaled**2 / stats.w_norm2)
    assert stats.errors == 0
    # margins m = u / (3/2) = 1, 7/3, 5/3, 5/3: the CDF at the exact jump points includes them
    assert stats.cdf(1) == Fraction(1, 4) and stats.cdf(Fraction(5, 3)) == Fraction(3, 4)
    assert stats.cdf(Fraction(99, 100)) == 0 and stats.cdf(-1) == 0


def test_negative_margins_and_bad_weights() -> None:
    stats = margin_statistics(exercise_6_1(), [-1, -1, 0])
    assert stats.errors == 4 and stats.margin_loss is None and stats.cdf(0) == 1
    with pytest.raises(InputError, match="need 3"):
        margin_statistics(exercise_6_1(), [1, 1])
    with pytest.raises(InputError, match="all zero"):
        margin_statistics(exercise_6_1(), [0, 0, 0])


def test_margins_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "w.txt"
    weights.write_text("1, 1\n-0.5  # the bias weight last\n")
    plot = tmp_path / "cdf.png"
    code = cli.main(
        ["margins", "example:exercise-6.1", "--weights", str(weights), "--json", "--plot", str(plot)]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["semivariance"] == "1/9" and report["margin_loss"] == "1/25"
    assert report["S1"].startswith("held") and report["cdf"]["1.0"] == "1/4"
    assert plot.exists() or pytest.importorskip("matplotlib") is None
    weights.write_text("1, 2\n")
    assert cli.main(["margins", "example:exercise-6.1", "--weights", str(weights)]) == 2
    assert "need 3" in capsys.readouterr().err
    weights.write_text("1, x, 2\n")
    assert cli.main(["margins", "example:exercise-6.1", "--weights", str(weights)]) == 2
    assert ":1:" in capsys.readouterr().err
    assert cli.main(["margins", "example:exercise-6.1", "--weights", str(tmp_path / "missing")]) == 2
