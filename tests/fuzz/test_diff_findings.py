"""Findings a developer can act on: every failing check listed, the reference's trace around
the first divergence, minimal examples without all-zero columns, crashing examples shrunk,
counts per data family (text and JSON), ``--families``, and a family that is not separable
even with the bias (every example Gordan-certified)."""

from __future__ import annotations

import ctypes
import json
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from novikoff import cli
from novikoff.certificates import GordanCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.fuzz.families import GORDAN_FAMILY
from novikoff.fuzz.harness import check_family, check_implementation
from novikoff.fuzz.shrinking import drop_zero_columns
from tests.impls import perceptrons

SEPARABLE = "float-exact separable"


def test_every_failing_check_is_listed_and_the_trace_shows_the_divergence() -> None:
    report = check_family(perceptrons.BROKEN["last sample skipped"], SEPARABLE, examples=20, seed_value=1)
    bug = report.bugs[0]
    names = [bug.check] + [name for name, _ in bug.others]
    assert names[0] == "check_updates_match_reference" and "check_weight_direction" in names
    text = bug.describe()
    assert "\n  also failing: check_weight_direction: final weights point elsewhere" in text
    # the implementation never presents the last sample: the trace shows the reference updating on it
    last = bug.dataset.n_samples - 1
    assert any(f"sample {last}: y w.x~ = " in t and "-> update" in t for t in bug.trace), text
    assert all(t.startswith("epoch ") or t.startswith("...") for t in bug.trace)


def test_minimal_examples_keep_no_all_zero_column() -> None:
    for name in ("strict <", "bias never updated", "label ignored", "last sample skipped"):
        report = check_implementation(perceptrons.BROKEN[name], examples=10, seed=3, families=[SEPARABLE])
        ds = report.bugs[0].dataset
        columns = list(zip(*ds.numerators))
        assert ds.n_features == 1 or all(any(c) for c in columns), (name, report.bugs[0].describe())


def test_zero_columns_are_dropped_with_their_initial_weights() -> None:
    ds = Dataset.from_fraction_rows([[F(0), F(1), F(0)], [F(0), F(-2), F(0)]], [1, -1], bias=1)
    narrow, w0 = drop_zero_columns(ds, (F(5), F(6), F(7), F(8)))
    assert narrow.numerators == ((1,), (-2,)) and narrow.labels == ds.labels and w0 == (F(6), F(8))
    zeros = Dataset.from_fraction_rows([[F(0), F(0)]], [1], bias=1)
    assert drop_zero_columns(zeros)[0].n_features == 1  # one column is always kept
    assert drop_zero_columns(narrow) == (narrow, None)


def segfaults_on_a_zero_row(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    """Correct, except that a sample of zeros crashes it (a null pointer read in C)."""
    if (X == 0).all(axis=1).any():
        ctypes.string_at(0)
    return perceptrons.correct(X, y, max_epochs, order)


def test_a_crashing_example_is_shrunk_to_its_cause() -> None:
    report = check_family(segfaults_on_a_zero_row, SEPARABLE, examples=30, seed_value=2)
    assert not report.bugs and report.errors
    crash = report.errors[0]
    assert crash.status == "crash" and crash.message.startswith("(minimal example) fit crashed: ")
    assert "SIGSEGV" in crash.message and "Fatal Python error: Segmentation fault" in crash.stderr
    assert crash.dataset.n_samples == 1 and crash.dataset.features(0) == [0] * crash.dataset.n_features
    assert report.families[0].errors == len(report.errors)


def test_counts_per_family_in_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    families = "gordan non-separable,float-exact copies,general float"
    code = cli.main(
        ["diff", "tests.impls.perceptrons:raises", "--examples", "3", "--families", families, "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    ids = [f["id"] for f in out["families"]]
    assert ids == ["general float", "float-exact copies", "gordan non-separable"]  # the algorithm's order
    keys = {"agreed", "bugs", "ambiguous", "errors", "unsupported", "timeouts", "not_run", "examples"}
    assert all(keys <= set(f) and f["errors"] == f["examples"] == 3 for f in out["families"])
    assert out["error_findings"][0]["status"] == "raised"
    assert out["reproduce"].endswith("--families 'general float'")
    cli.main(["diff", "tests.impls.perceptrons:raises", "--examples", "2", "--families", "general float"])
    text = capsys.readouterr().out
    assert "  family         agreed  bugs  ambiguous  errors  unsupported  timeouts  not run\n" in text
    assert "  general float       0     0          0       2            0         0        0\n" in text


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(GORDAN_FAMILY.data)
def test_the_gordan_family_is_not_separable_even_with_the_bias(ds: Dataset) -> None:
    assert ds.bias == 1 and isinstance(certify(ds), GordanCertificate)


def test_the_gordan_family_passes_the_correct_and_catches_an_early_stop() -> None:
    assert check_family(perceptrons.correct, "gordan non-separable", examples=10).ok
    report = check_family(perceptrons.BROKEN["one epoch only"], "gordan non-separable", examples=10)
    assert report.bugs and report.bugs[0].family_id == "gordan non-separable"
