"""The differential tester's teeth: the tie families put the perceptron's
decision values where wrong update rules differ, they stay float-exact (so a difference is a
bug), a FAST subset of the mutation benchmark (the blind-spot mutant, w.z <= 1e-6, caught;
correct variants passed), and ``diff``/``falsify`` for the averaged and voted perceptrons.
The full detection table is ``benchmarks/bench_mutants.py``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings

from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.fuzz.checks import CheckContext, check_named, reported_voters
from novikoff.fuzz.contract import ImplementationResult
from novikoff.fuzz.families import TIE_FAMILIES, float_exact_run, near_tie_data, perceptron_float_exact
from novikoff.fuzz.harness import Report, check_family, check_implementation, merge_reports
from novikoff.fuzz.registry import lookup
from novikoff.reference.perceptron import run_perceptron
from tests.impls import mutants

FAST = settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck))


def _probe_margin(ds: Dataset) -> Fraction:
    """The exact w.z of sample 1 at its first presentation (w = z_0 then), computed here
    from the patterns, independently of the family's construction."""
    z0, z1 = ds.pattern(0), ds.pattern(1)
    return sum((a * b for a, b in zip(z0, z1)), Fraction(0))


def test_near_tie_data_puts_decision_values_at_and_just_above_zero() -> None:
    margins: list[Fraction] = []

    @seed(0)
    @FAST
    @given(near_tie_data())
    def draw(ds: Dataset) -> None:
        margins.append(_probe_margin(ds))

    draw()
    ties = [m for m in margins if m == 0]
    tiny = [m for m in margins if 0 < m <= Fraction(1, 10**12)]
    small = [m for m in margins if Fraction(1, 10**12) < m <= Fraction(1, 10**6)]
    below = [m for m in margins if -Fraction(1, 10**6) <= m < 0]
    assert ties and tiny and small and below, (len(ties), len(tiny), len(small), len(below))


def test_integer_boundary_data_reach_2_to_the_50_in_the_decision_terms() -> None:
    largest: list[Fraction] = []

    @seed(0)
    @FAST
    @given(near_tie_data(huge=True))
    def draw(ds: Dataset) -> None:
        z0, z1 = ds.pattern(0), ds.pattern(1)
        largest.append(max(abs(a * b) for a, b in zip(z0, z1)))

    draw()
    assert max(largest) >= 2**50


def test_float_exact_run_accepts_exact_runs_and_rejects_inexact_ones() -> None:
    def verdict(rows: list[list[Fraction]], labels: list[int]) -> bool:
        ds = Dataset.from_fraction_rows(rows, labels, bias=1)
        return float_exact_run(ds, run_perceptron(ds, max_epochs=20), None)

    F = Fraction
    assert verdict([[F(1), F(2)], [F(-3, 4), F(1)]], [1, -1])
    assert verdict([[F(2**26)], [F(-(2**26))]], [1, 1])  # w.z_1 = -2^52 + 1: 52 bits, exact
    assert not verdict([[F(1, 10)], [F(-1)]], [1, -1])  # 1/10 is no float
    assert not verdict([[F(2**53 + 1)], [F(1)]], [1, -1])  # a coordinate with 54 bits
    assert not verdict([[F(2**27)], [F(-(2**27) + 1)]], [1, -1])  # w.z_1 = 2^54 - 2^27 - 1: 54 bits


def test_the_exact_float_check_sees_a_sum_that_rounds() -> None:
    # w = z_0 = (2^27, 1); z_1 = (-2^27 - 2, 1): w.z_1 = -2^54 - 2^28 + 1, 55 significant bits
    ds = Dataset.from_fraction_rows([[Fraction(2**27)], [Fraction(-(2**27) - 2)]], [1, 1], bias=1)
    run = run_perceptron(ds, max_epochs=5)
    assert run.update_indices[:2] == [0, 1]
    assert not float_exact_run(ds, run, None)
    assert perceptron_float_exact(ds, None, 5) is False


def test_the_blind_spot_mutant_is_caught_on_near_ties_and_the_decision_was_in_0_to_1e6() -> None:
    report = check_family(mutants.tolerance_1e6, "float-exact near ties", examples=20, seed_value=0)
    assert not report.ok and report.first_bug is not None
    bug = report.bugs[0]
    assert bug.message.startswith("(minimal example)")
    # the reference and the mutant part where the reference skipped a sample with 0 < w.z <= 1e-6
    ds, order = bug.dataset, bug.order
    run = run_perceptron(ds, order=order, max_epochs=bug.max_epochs)
    Z = [ds.pattern(i) for i in range(ds.n_samples)]
    w = [Fraction(0)] * ds.dimension
    pending = list(run.updates)
    skipped_near = False
    for epoch in range(run.epochs):
        for i in range(ds.n_samples) if order is None else order:
            p = sum((a * b for a, b in zip(w, Z[i])), Fraction(0))
            if pending and pending[0] == (epoch, i):
                w = [a + b for a, b in zip(w, Z[i])]
                pending.pop(0)
            elif 0 < p <= Fraction(1, 10**6):
                skipped_near = True
    assert skipped_near, bug.describe()


@pytest.mark.parametrize("name", ["integer_arithmetic", "half_rate"])
def test_correct_variants_pass_the_tie_families(name: str) -> None:
    for fam in TIE_FAMILIES:
        report = check_family(getattr(mutants, name), fam.name, examples=15, seed_value=0)
        assert report.ok and report.agreed == report.examples > 0, report.summary()


def test_first_bug_counts_examples_over_the_families_before_it() -> None:
    def rep(examples: int, first: int | None) -> Report:
        return Report(examples, examples, [], [], [], first_bug=first)

    assert merge_reports([rep(50, None), rep(50, None), rep(50, 7)]).first_bug == 107
    assert merge_reports([rep(50, 3), rep(50, 9)]).first_bug == 3
    assert merge_reports([rep(50, None)]).first_bug is None


# --------------------------------------------------------------------------- averaged and voted


def test_averaged_and_voted_diff_pass_correct_and_catch_broken_implementations() -> None:
    for name, algorithm in [("averaged_lazy", "averaged"), ("voted", "voted")]:
        report = check_implementation(getattr(mutants, name), algorithm, examples=4, seed=0)
        assert report.ok and report.agreed > 0, (name, report.summary())
    for name, algorithm, check in [
        ("averaged_returns_last", "averaged", "check_weight_direction"),
        ("voted_count_from_zero", "voted", "check_vote_counts"),
    ]:
        fit = getattr(mutants, name)
        report = check_family(fit, "float-exact separable", examples=20, shrink=False, algorithm=algorithm)
        assert not report.ok and report.bugs[0].check == check, (name, report.summary())
    assert lookup("voted").checks[-2:] == (
        check_named("check_vote_counts"),
        check_named("check_voted_predictions"),
    )


def _voted_example() -> tuple[Dataset, Any]:
    ds = Dataset.from_fraction_rows([[Fraction(2)], [Fraction(-1)], [Fraction(1, 2)]], [1, -1, -1], bias=1)
    return ds, lookup("voted").run(ds, None, None, 20)


def test_vote_checks_read_the_voters_and_name_what_is_wrong() -> None:
    ds, run = _voted_example()
    X, y = ds.to_numpy()
    good = mutants.voted(X, y, max_epochs=20)
    impl = ImplementationResult(np.asarray(good["weights"]))
    counts, votes = check_named("check_vote_counts"), check_named("check_voted_predictions")

    def ctx(output: Any) -> CheckContext:
        return CheckContext(True, lambda k: "", output)

    assert counts(run, impl, ds, ctx(good)) == [] and votes(run, impl, ds, ctx(good)) == []
    assert counts(run, impl, ds, ctx({"weights": good["weights"]})) == []  # not reported: nothing to compare
    shifted = {"voters": [(w, c + 1) for w, c in good["voters"]]}
    (d,) = counts(run, impl, ds, ctx(shifted))
    assert d.check == "check_vote_counts" and "survival counts" in d.message
    flipped = {"voters": [(-np.asarray(w), c) for w, c in good["voters"]]}
    (d,) = votes(run, impl, ds, ctx(flipped))
    assert d.message.startswith("the vote on sample 0: implementation -1, exact reference +1")
    for bad, words in [
        ({"voters": [([1.0, np.nan], 1)]}, "NaN"),
        ({"voters": [([1.0, 0.0], -1)]}, "not a nonnegative integer"),
        ({"voters": [([1.0, 0.0], 1.5)]}, "not a nonnegative integer"),
        ({"voters": [1, 2]}, "expected (weights, count) pairs"),
    ]:
        (d,) = counts(run, impl, ds, ctx(bad))
        assert "malformed" in d.message and words in d.message, d.message
    (d,) = votes(run, impl, ds, ctx({"voters": [([1.0, 0.0, 0.0], 1)]}))
    assert "a vector of 3 weights, expected 2" in d.message
    assert reported_voters(object()) is None


def test_diff_and_falsify_take_averaged_and_voted(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["diff", "tests.impls.mutants:voted", "--algorithm", "voted", "--examples", "2"])
    assert code == 0, capsys.readouterr().out
    from novikoff.fuzz.falsify import falsify

    for algorithm in ("averaged", "voted"):
        assert "R2" in lookup(algorithm).bound_symbols and "eps" not in lookup(algorithm).bound_symbols
        result = falsify("R2/gamma2/2", examples=20, seed=0, database=None, algorithm=algorithm)
        assert result.counterexample is not None  # T1: n updates against n/2
