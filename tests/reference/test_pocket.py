"""The pocket algorithm: exact reference, float twin, the textbook's non-separable example."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.fuzz.strategies import float_exact_separable, nonseparable_datasets
from novikoff.reference import run_perceptron
from novikoff.reference.pocket import run_pocket
from novikoff.twins.pocket import pocket_twin


def _errors(ds: Dataset, w: tuple[Fraction, ...]) -> int:
    return sum(1 for i in range(ds.n_samples) if sum(a * b for a, b in zip(w, ds.pattern(i))) <= 0)


@given(ds=float_exact_separable(max_samples=8))
def test_on_separable_data_the_pocket_is_the_converged_perceptron(ds: Dataset) -> None:
    run = run_pocket(ds)
    assert run.converged and run.pocket_errors == 0
    assert run.pocket_weights == tuple(run_perceptron(ds).weights)
    assert _errors(ds, run.pocket_weights) == 0


@given(ds=nonseparable_datasets(values="int", max_dim=3, max_samples=6))
def test_on_any_data_the_pocket_is_the_first_epoch_end_with_the_fewest_errors(ds: Dataset) -> None:
    run = run_pocket(ds, max_epochs=30)
    assert run.pocket_errors == min(run.errors_per_epoch)
    assert run.pocket_epoch == run.errors_per_epoch.index(run.pocket_errors)
    assert _errors(ds, run.pocket_weights) == run.pocket_errors  # recounted independently
    assert sum(run.mistakes_per_epoch) == run.mistakes
    twin = pocket_twin(ds, max_epochs=30)  # integer data: the float twin is exact here
    assert twin.errors_per_epoch == run.errors_per_epoch and twin.pocket_epoch == run.pocket_epoch
    assert [Fraction(float(v)) for v in twin.pocket_weights] == list(run.pocket_weights)


def test_the_textbooks_overlapping_gaussians() -> None:
    ds = load_example("seed-6.9")
    run = run_pocket(ds, max_epochs=200)
    # the seed prints "Epochs run: 200, Converged: False, Errors in last 5 epochs: [8, 8, 8, 8, 7]"
    assert run.epochs == 200 and not run.converged
    assert run.mistakes_per_epoch[-5:] == [8, 8, 8, 8, 7]
    assert run.pocket_errors == min(run.errors_per_epoch) < run.errors_per_epoch[-1]
    twin = pocket_twin(ds, max_epochs=200)
    assert twin.pocket_errors == run.pocket_errors and twin.pocket_epoch == run.pocket_epoch


def test_run_cli_pocket(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["run", "example:seed-6.9", "--algorithm", "pocket", "--max-epochs", "200", "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    pocket = report["pocket"]
    assert not report["separable"] and pocket["errors"] == min(pocket["errors_per_epoch"])
    assert len(pocket["weights"]) == 3
    assert cli.main(["run", "example:seed-6.9", "--algorithm", "pocket", "--epsilon", "0.1"]) == 2
