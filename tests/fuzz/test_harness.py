"""The differential harness catches each broken perceptron with a minimal example and
passes correct and equivalent ones (decisions and directions, not raw scale)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.fuzz.harness import check_implementation, sklearn_fit
from novikoff.testing import parametrize_with_checks
from tests.impls import perceptrons

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["twin", "correct", "half_rate", "weights_only"])
def test_correct_and_equivalent_implementations_pass(name: str) -> None:
    report = check_implementation(getattr(perceptrons, name), examples=25, seed=3)
    assert report.ok, report.summary()
    assert report.agreed + len(report.ambiguous) == report.examples


@pytest.mark.parametrize("bug", sorted(perceptrons.BROKEN))
def test_each_broken_implementation_is_caught_minimally(bug: str) -> None:
    report = check_implementation(perceptrons.BROKEN[bug], examples=25, seed=3)
    assert not report.ok and report.bugs, report.summary()
    minimal = report.bugs[0]
    assert minimal.message.startswith("(minimal example)")
    assert minimal.dataset.n_samples <= 3, minimal.describe()  # shrunk, not the first random example


def test_implementation_errors_are_reported_per_example() -> None:
    for fit, words in [
        (perceptrons.raises, "fit raised RuntimeError"),
        (perceptrons.wrong_shape, "expected"),
        (perceptrons.returns_nan, "NaN"),
    ]:
        report = check_implementation(fit, examples=5, seed=0)
        assert not report.ok and len(report.errors) == report.examples
        assert words in report.errors[0].message


def test_sklearn_exact_mode_passes_and_default_mode_is_explained() -> None:
    pytest.importorskip("sklearn")
    from sklearn.linear_model import Perceptron

    exact = check_implementation(sklearn_fit(Perceptron, shuffle=False, tol=None), examples=20, seed=1)
    assert exact.ok, exact.summary()
    assert exact.unsupported > 0  # single-class sets, which scikit-learn refuses by design
    default = check_implementation(sklearn_fit(Perceptron), examples=20, seed=1)
    assert default.bugs and "--stop tol:0.001:5" in default.bugs[0].message


def test_diff_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO))
    code = cli.main(["diff", "tests.impls.perceptrons:correct", "--examples", "10", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] and out["bugs"] == []
    code = cli.main(["diff", "tests.impls.perceptrons:half_rate", "--examples", "10"])
    assert code == 0
    capsys.readouterr()
    code = cli.main(["diff", "tests.impls.perceptrons:raises", "--examples", "3"])
    assert code == 1 and "fit raised RuntimeError" in capsys.readouterr().out
    assert cli.main(["diff", "no.such.module:fit"]) == 2
    assert "cannot import" in capsys.readouterr().err
    assert cli.main(["diff", "nocolon"]) == 2


def test_diff_prints_a_reproducing_command(tmp_path: Path) -> None:
    (tmp_path / "mybug.py").write_text(
        "from tests.impls.perceptrons import BROKEN\nfit = BROKEN['strict <']\n"
    )
    env_path = f"{tmp_path}:{REPO}"
    proc = subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "diff", "mybug:fit", "--examples", "10"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 1, proc.stderr
    assert "reproduce: novikoff diff mybug:fit --examples 10 --seed 0" in proc.stdout
    assert "x_0 = (" in proc.stdout  # the minimal dataset, printed exactly


@parametrize_with_checks(perceptrons.correct, examples=10)
def test_parametrize_with_checks_on_a_correct_perceptron(check: Callable[[], None]) -> None:
    check()


# --- PDM and PFM ----------------------------------------------------------------------------------

from tests.impls import large_margin as lm  # noqa: E402


@pytest.mark.parametrize("algorithm", ["pdm", "pfm"])
def test_correct_and_equivalent_large_margin_implementations_pass(algorithm: str) -> None:
    for fit in lm.CORRECT[algorithm]:
        report = check_implementation(fit, algorithm, examples=25, seed=1)
        assert report.ok, f"{fit.__name__}: {report.summary()}"
        assert report.agreed > 0


@pytest.mark.parametrize(("algorithm", "fit"), [(a, f) for a, fs in lm.BROKEN.items() for f in fs])
def test_broken_large_margin_implementations_are_caught_with_a_minimal_example(
    algorithm: str, fit: object
) -> None:
    report = check_implementation(fit, algorithm, examples=25, seed=1)  # type: ignore[arg-type]
    assert not report.ok and report.bugs
    minimal = report.bugs[0]
    assert minimal.message.startswith("(minimal example)") and minimal.dataset.n_samples <= 4
    assert minimal.algorithm == algorithm and minimal.value is not None


def test_diff_cli_takes_the_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["diff", "tests.impls.large_margin:pdm_loop", "--algorithm", "pdm", "--examples", "10"]) == 0
    )
    code = cli.main(
        ["diff", "tests.impls.large_margin:pdm_strict", "--algorithm", "pdm", "--examples", "10", "--json"]
    )
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert code == 1 and report["bugs"][0]["algorithm"] == "pdm" and "--algorithm pdm" in report["reproduce"]
    assert cli.main(["diff", "sklearn.linear_model:Perceptron", "--sklearn", "", "--algorithm", "pdm"]) == 2


# --- multiclass -------------------------------------------------------------------------------------

from tests.impls import multiclass as mc  # noqa: E402


@pytest.mark.parametrize("fit", mc.CORRECT, ids=lambda f: f.__name__)
def test_correct_and_equivalent_multiclass_implementations_pass(fit: object) -> None:
    report = check_implementation(fit, "multiclass", examples=25, seed=1)  # type: ignore[arg-type]
    assert report.ok, report.summary()
    assert report.agreed > 0


@pytest.mark.parametrize("fit", mc.BROKEN, ids=lambda f: f.__name__)
def test_broken_multiclass_implementations_are_caught(fit: object) -> None:
    report = check_implementation(fit, "multiclass", examples=25, seed=1)  # type: ignore[arg-type]
    assert not report.ok and report.bugs
    assert report.bugs[0].message.startswith("(minimal example)")
    assert "y = " in report.bugs[0].describe()


def test_diff_cli_multiclass(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(
            ["diff", "tests.impls.multiclass:first_argmax", "--algorithm", "multiclass", "--examples", "10"]
        )
        == 0
    )
    assert (
        cli.main(
            ["diff", "tests.impls.multiclass:last_argmax", "--algorithm", "multiclass", "--examples", "10"]
        )
        == 1
    )
    assert (
        "reproduce: novikoff diff tests.impls.multiclass:last_argmax --algorithm multiclass"
        in capsys.readouterr().out
    )
