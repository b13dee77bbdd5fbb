"""The command line on non-separable data: certify's Freund-Schapire bound (JSON, text,
certificate file) and falsify --nonseparable with its replays."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from novikoff import cli

if TYPE_CHECKING:
    pass

XOR_CSV = "0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n"
# a separable line with two labels flipped
NOISY_CSV = "1,0,1\n2,1,1\n0,1,1\n-1,-1,-1\n-2,0,-1\n1,1,-1\n"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------------------------ certify


@pytest.mark.parametrize(("text", "epochs"), [(XOR_CSV, 7), (NOISY_CSV, 12)])
def test_certify_json_carries_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, epochs: int
) -> None:
    data = _file(tmp_path, "d.csv", text)
    status, out, _ = run_cli(capsys, "certify", data, "--json", "--max-epochs", str(epochs))
    assert status == 0
    r = json.loads(out)
    assert r["separable"] is False
    fs = r["nonseparable_bound"]
    for key in ("gamma", "gamma2", "deviation2", "R2"):
        assert isinstance(fs[key], str)
    assert all(isinstance(v, str) for v in fs["u"]) and len(fs["u"]) == 3  # two features and the bias
    assert isinstance(fs["bound_float"], float) and isinstance(fs["gamma_float"], float)
    assert fs["passes"] == r["perceptron"]["epochs"] == epochs
    assert fs["mistakes"] == r["perceptron"]["mistakes"]
    assert fs["order"] == "natural"
    # recompute R2, gamma2, deviation2 from the data, u and gamma alone
    rows = [[F(v) for v in line.split(",")] for line in text.split()]
    z = [[r_[-1] * r_[0], r_[-1] * r_[1], r_[-1]] for r_ in rows]
    u = [F(v) for v in fs["u"]]
    gamma = F(fs["gamma"])
    N = sum((v * v for v in u), F(0))
    slack = sum((max(F(0), gamma - sum((a * b for a, b in zip(u, p)), F(0))) ** 2 for p in z), F(0))
    assert F(fs["R2"]) == max(sum((v * v for v in p), F(0)) for p in z)
    assert F(fs["gamma2"]) == gamma * gamma / N
    assert F(fs["deviation2"]) == epochs * slack / N
    bound = (math.sqrt(F(fs["R2"])) + math.sqrt(F(fs["deviation2"]))) ** 2 / F(fs["gamma2"])
    assert fs["bound_float"] == pytest.approx(bound, rel=1e-12)
    assert fs["mistakes"] <= fs["bound_float"]


def test_certify_text_and_unchanged_behaviour(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "xor.csv", XOR_CSV)
    status, out, _ = run_cli(capsys, "certify", data, "--max-epochs", "5")
    assert status == 0
    assert "separable: no (Gordan certificate" in out
    assert "Freund-Schapire bound over 5 passes: 20 mistakes <= ((R + D)/gamma)^2 = " in out
    # separable data: no bound block; bad input still exits 2
    status, out, _ = run_cli(capsys, "certify", "example:exercise-6.1", "--json")
    assert status == 0 and "nonseparable_bound" not in json.loads(out)
    status, out, _ = run_cli(capsys, "certify", "example:exercise-6.1")
    assert status == 0 and "Freund-Schapire" not in out
    assert run_cli(capsys, "certify", str(tmp_path / "missing.csv"))[0] == 2


def test_certify_writes_a_checkable_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "noisy.csv", NOISY_CSV)
    cert = tmp_path / "c.json"
    status, _, _ = run_cli(
        capsys, "certify", data, "--max-epochs", "6", "--order", "shuffle:2", "--certificate", str(cert)
    )
    assert status == 0
    doc = json.loads(cert.read_text())
    assert doc["version"] == 3 and doc["nonseparable_bound"]["order"] == "shuffle:2"
    status, out, _ = run_cli(capsys, "check", data, str(cert))
    assert status == 0 and "Freund-Schapire bound holds" in out
    # a claim of more mistakes than the run made, still within the bound, is caught by the replay;
    # a claim beyond the bound is caught by the inequality
    for mistakes, reason in ((doc["nonseparable_bound"]["mistakes"] + 1, "fs-mistakes"), (10**6, "fs-bound")):
        doc["nonseparable_bound"]["mistakes"] = mistakes
        cert.write_text(json.dumps(doc))
        status, out, _ = run_cli(capsys, "check", data, str(cert), "--json")
        assert status == 1 and json.loads(out)["reason"] == reason


# ------------------------------------------------------------------------------ falsify


@pytest.mark.parametrize("bound", ["(R/gamma)**2", "((R + D)/gamma)**2 / 2", "0.99*((R + D)/gamma)**2"])
def test_too_strong_bounds_are_falsified_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bound: str
) -> None:
    out_file = str(tmp_path / "ce.csv")
    status, out, _ = run_cli(
        capsys, "falsify", bound, "--nonseparable", "--database", "none", "--out", out_file, "--json"
    )
    assert status == 1
    r = json.loads(out)
    assert r["source"].startswith("extremal family") and set(r["nonseparable"]) == {"passes", "u", "gamma"}
    assert set(r["values"]) == {"R2", "gamma2", "deviation2", "m", "d", "T"}
    status, out, _ = run_cli(capsys, "replay", out_file, "--json")
    replay = json.loads(out)
    assert status == 1 and replay["violated"] is True
    assert replay["updates"] == replay["recorded_updates"] == r["updates"]
    # the replay recomputes the values from the data, u and gamma: the same numbers
    assert replay["values"] == r["values"]


def test_the_true_bound_survives_a_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        capsys, "falsify", "((R + D)/gamma)**2", "--nonseparable", "--database", "none", "--examples", "12"
    )
    assert status == 0 and out.startswith("no counterexample in ")


def test_the_search_finds_and_shrinks_a_counterexample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # T*m/2 is exceeded by any pass that errs on more than half the samples (XOR errs on all);
    # without the extremal pre-check the Hypothesis search must find such data itself
    from novikoff.fuzz.falsify import certify_check, falsify

    result = falsify("T*m/2", nonseparable=True, database=None, examples=40, precheck=False)
    ce = result.counterexample
    assert ce is not None and ce.source.startswith("Hypothesis search")
    assert certify_check(ce)
    path = tmp_path / "ce.csv"
    ce.write_csv(path)
    status, out, _ = run_cli(capsys, "replay", str(path))
    assert status == 1 and "VIOLATED" in out and "passes = " in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["falsify", "D*2"], "add --nonseparable"),
        (["falsify", "T", "--nonseparable", "--algorithm", "pdm"], "--nonseparable"),
        (["falsify", "T*m", "--nonseparable", "--workers", "2"], "--workers"),
        (["falsify", "E + D", "--nonseparable"], "unknown name 'E'"),
    ],
)
def test_falsify_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, _, err = run_cli(capsys, *args, "--database", "none")
    assert status == 2 and message in err


def test_a_tampered_replay_header_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "ce.csv"
    assert (
        run_cli(
            capsys, "falsify", "(R/gamma)**2", "--nonseparable", "--database", "none", "--out", str(out_file)
        )[0]
        == 1
    )
    lines = out_file.read_text().splitlines()
    header = json.loads(lines[0][len("# novikoff-replay ") :])
    for bad, message in (
        ({"passes": 0, "u": ["1"], "gamma": "1"}, "passes"),
        ({"passes": 1, "u": ["1"]}, "gamma"),
    ):
        header["nonseparable"] = bad
        bad_file = tmp_path / "bad.csv"
        bad_file.write_text("\n".join(["# novikoff-replay " + json.dumps(header), *lines[1:]]) + "\n")
        status, _, err = run_cli(capsys, "replay", str(bad_file))
        assert status == 2 and message in err and str(bad_file) in err
