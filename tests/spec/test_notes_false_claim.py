"""The notes' convergence theorem as written is false: R = max ||x|| over the
features and a separately chosen bias. Its counterexample, checked three ways, and the
falsifier finding one; the correct form (N3 on (x, 1)) holds on the same data."""

from __future__ import annotations

from fractions import Fraction

import pytest

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.falsify_multiclass import notes_free_bias_values, search_notes_free_bias
from novikoff.spec import N3, THEOREMS
from novikoff.spec.multiclass import FALSE_CLAIMS, NOTES_FREE_BIAS


def notes_perceptron(rows: list[list[Fraction]], labels: list[int], max_epochs: int = 100_000) -> int:
    """The notes' algorithm verbatim, in exact arithmetic: w = 0, b = 0; on y (w.x + b) <= 0,
    w <- w + y x and b <- b + y; until a clean pass. Returns the number of mistakes."""
    w = [Fraction(0)] * len(rows[0])
    b = Fraction(0)
    mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x, y in zip(rows, labels):
            if y * (sum(a * v for a, v in zip(w, x)) + b) <= 0:
                w = [a + y * v for a, v in zip(w, x)]
                b += y
                mistakes += 1
                clean = False
        if clean:
            return mistakes
    raise AssertionError("the notes' perceptron did not converge")


def one_d_free_bias_margin2(rows: list[list[Fraction]], labels: list[int]) -> Fraction | None:
    """In one dimension the best unit w = +-1 with a free b has margin half the gap between
    the classes (None if they overlap)."""
    pos = [r[0] for r, y in zip(rows, labels) if y == 1]
    neg = [r[0] for r, y in zip(rows, labels) if y == -1]
    gap = max(min(pos) - max(neg), min(neg) - max(pos))
    return (gap / 2) ** 2 if gap > 0 else None


def test_the_false_claim_is_kept_out_of_the_theorem_registry() -> None:
    assert all(NOTES_FREE_BIAS not in stmts for stmts in THEOREMS.values())
    assert NOTES_FREE_BIAS.id not in THEOREMS
    assert "FALSE" in NOTES_FREE_BIAS.note


def test_the_recorded_counterexample_refutes_the_notes_form_three_ways() -> None:
    statement, (raw_rows, labels) = FALSE_CLAIMS["NOTES_FREE_BIAS"]
    rows = [[Fraction(v) for v in r] for r in raw_rows]
    ds = Dataset.from_arrays(rows, list(labels), bias=1)
    got = notes_free_bias_values(ds)
    assert got is not None
    updates, values = got
    # the library's run and margin against the notes' loop and the 1-D closed form
    assert updates == notes_perceptron(rows, list(labels))
    assert values["gamma_b2"] == one_d_free_bias_margin2(rows, list(labels))
    assert values["Rx2"] == max(sum(v * v for v in r) for r in rows)
    assert not statement.check(values)  # k gamma^2 <= R^2 is false
    assert updates > values["Rx2"] / values["gamma_b2"]


def test_the_correct_augmented_form_holds_on_the_same_data() -> None:
    _, (raw_rows, labels) = FALSE_CLAIMS["NOTES_FREE_BIAS"]
    rows = [[Fraction(v) for v in r] for r in raw_rows]
    ds = Dataset.from_arrays(rows, list(labels), bias=1)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    updates = notes_perceptron(rows, list(labels))
    # R and gamma of z = y (x, 1): the bias coordinate counted in both
    assert cert.R2 == max(sum(v * v for v in r) + 1 for r in rows)
    assert N3.check({"k": updates, "gamma2": cert.gamma2, "R2": cert.R2})
    assert updates * cert.gamma2 <= cert.R2


def test_the_falsifier_finds_a_counterexample_with_a_separate_bias() -> None:
    found = search_notes_free_bias(examples=300, seed=0)
    assert found is not None
    rows = [[Fraction(v, found.data.denominator) for v in r] for r in found.data.numerators]
    labels = list(found.data.labels)
    assert found.updates == notes_perceptron(rows, labels)  # re-run independently
    if len(rows[0]) == 1:
        assert found.gamma_b2 == one_d_free_bias_margin2(rows, labels)
    assert found.updates * found.gamma_b2 > found.Rx2


@pytest.mark.parametrize("bias", [0, 2])
def test_the_notes_perceptron_needs_bias_one(bias: int) -> None:
    ds = Dataset.from_arrays([[40], [20]], [1, -1], bias=bias)
    with pytest.raises(InputError, match="the bias must be 1"):
        notes_free_bias_values(ds)
