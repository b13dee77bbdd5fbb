"""The falsifier: finds counterexamples to wrong bounds at once, none for Novikoff's,
decides 'updates > bound' rigorously, and writes a file certify replays."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.fuzz.bounds import parse_bound
from novikoff.fuzz.falsify import bound_exceeded, certify_check, falsify


def test_one_percent_below_novikoff_is_falsified_by_t1() -> None:
    result = falsify("0.99*R**2/gamma**2", examples=50)
    ce = result.counterexample
    assert ce is not None and ce.source.startswith("T1")
    assert certify_check(ce)  # the certificate and the exact run give the same numbers again


def test_novikoffs_bound_has_no_counterexample() -> None:
    result = falsify("R**2/gamma**2", examples=100)
    assert result.counterexample is None and result.examples >= 100


def test_a_constant_bound_is_beaten_by_the_smallest_t1_instance_that_exceeds_it() -> None:
    result = falsify("R2/gamma2 - R2/gamma2 + 1", examples=50)  # the constant 1, written the long way
    ce = result.counterexample
    assert ce is not None and ce.source == "T1 with n = 2, scale 1" and ce.updates == 2
    assert certify_check(ce)


def test_comparison_is_rigorous_at_the_boundary() -> None:
    bound = parse_bound("sqrt(R2)*sqrt(R2)/gamma2")  # equals R2/gamma2 exactly
    values = {"R2": Fraction(2), "gamma2": Fraction(2, 3), "m": Fraction(3), "d": Fraction(3)}
    assert not bound_exceeded(bound, 3, values)  # 3 updates == bound 3: not a counterexample
    assert bound_exceeded(bound, 4, values)
    assert not bound_exceeded(parse_bound("log(m - 3)"), 5, values)  # undefined: never a counterexample


def test_falsify_cli_writes_a_replayable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ce.csv"
    code = cli.main(["falsify", "0.99*R**2/gamma**2", "--out", str(out), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["updates"] == 1 and out.exists()
    code = cli.main(["certify", str(out), "--bias", "0", "--json"])
    replay = json.loads(capsys.readouterr().out)
    assert code == 0 and replay["perceptron"]["mistakes"] == report["updates"]
    assert cli.main(["falsify", "R**2/gamma**2", "--examples", "20"]) == 0
    assert "not a proof" in capsys.readouterr().out
    assert cli.main(["falsify", "R ** foo"]) == 2
    assert "column 6" in capsys.readouterr().err
