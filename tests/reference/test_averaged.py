"""Averaged and voted perceptrons (Freund and Schapire 1999): exact reference, float twins,
prediction rules."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.strategies import float_exact_separable, nonseparable_datasets, orderings
from novikoff.reference import run_perceptron
from novikoff.reference.averaged import (
    averaged_errors,
    averaged_from_run,
    predict_averaged,
    predict_voted,
    run_averaged,
    run_voted,
    survival_counts,
    voted_errors,
)
from novikoff.runtime.runs import Order, RunRecord, epoch_order
from novikoff.twins import averaged as twin
from novikoff.twins.compiled import available as compiled_available

Vector = tuple[Fraction, ...]


def _naive(ds: Dataset, order: Order, max_epochs: int) -> tuple[list[Vector], list[bool]]:
    """The perceptron's weight after EVERY presentation, stored (the method the module avoids),
    and whether that presentation updated."""
    Z = [ds.pattern(i) for i in range(ds.n_samples)]
    presentation = epoch_order(order, ds.n_samples)
    w: Vector = (Fraction(0),) * ds.dimension
    after: list[Vector] = []
    updated: list[bool] = []
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            up = sum(a * b for a, b in zip(w, Z[i])) <= 0
            if up:
                w = tuple(a + b for a, b in zip(w, Z[i]))
                clean = False
            after.append(w)
            updated.append(up)
        if clean:
            break
    return after, updated


def _naive_average(after: list[Vector]) -> Vector:
    return tuple(sum(col, Fraction(0)) / len(after) for col in zip(*after))


def _naive_voters(after: list[Vector], updated: list[bool]) -> list[tuple[Vector, int]]:
    voters: list[tuple[Vector, int]] = [((Fraction(0),) * len(after[0]), 0)]
    for w, up in zip(after, updated):
        if up:
            voters.append((w, 1))
        else:
            voters[-1] = (voters[-1][0], voters[-1][1] + 1)
    return voters


def _x_tilde(ds: Dataset, i: int) -> list[Fraction]:
    return [*ds.features(i), *([ds.bias] if ds.bias != 0 else [])]


TINY = Dataset.from_integer_rows([[1, 0], [0, 1], [-1, -1]], 1, [1, 1, -1], name="tiny")


def test_tiny_example_by_hand() -> None:
    # z = (1,0,1), (0,1,1), (1,1,-1). Epoch 0: update at 0 (w = 0) -> (1,0,1); sample 1:
    # w.z = 1 > 0; sample 2: w.z = 0 -> (2,1,0). Epoch 1 is clean. N = 6 presentations:
    # weights after them (1,0,1) x 2 and (2,1,0) x 4, so w_avg = (10, 4, 2) / 6.
    run = run_averaged(TINY)
    assert run.updates == [(0, 0), (0, 2)] and run.epochs == 2 and run.converged
    assert run.presentations == 6 and run.counts == (0, 2, 4)
    assert run.weights == (Fraction(5, 3), Fraction(2, 3), Fraction(1, 3))
    assert run.weight_sum == (10, 4, 2) and run.final_weights == (2, 1, 0)
    voted = run_voted(TINY)
    assert voted.voters == (((0, 0, 0), 0), ((1, 0, 1), 2), ((2, 1, 0), 4))
    assert voted.weights == (2, 1, 0)
    after, _ = _naive(TINY, None, 1000)
    assert run.weights == _naive_average(after)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reference_equals_the_naive_stored_weights(data: st.DataObject) -> None:
    ds = data.draw(st.one_of(float_exact_separable(max_samples=6), nonseparable_datasets(max_samples=4)))
    order = data.draw(orderings(ds.n_samples))
    max_epochs = data.draw(st.integers(1, 6))
    after, updated = _naive(ds, order, max_epochs)
    run = run_averaged(ds, order=order, max_epochs=max_epochs)
    assert run.presentations == len(after)  # every presentation, the clean epoch included
    assert run.weights == _naive_average(after)
    assert run.updates == run_perceptron(ds, order=order, max_epochs=max_epochs).updates
    voted = run_voted(ds, order=order, max_epochs=max_epochs)
    naive_voters = _naive_voters(after, updated)
    assert [(list(w), c) for w, c in voted.voters] == [(list(w), c) for w, c in naive_voters]
    assert voted.weights == after[-1] and run.final_weights == after[-1]
    # the exact training errors against the prediction rules applied one sample at a time
    xs = [_x_tilde(ds, i) for i in range(ds.n_samples)]
    wrong_avg = sum(1 for x, y in zip(xs, ds.labels) if predict_averaged(run.weights, x) != y)
    assert averaged_errors(ds, run.weights) == wrong_avg
    ws, cs = [w for w, _ in voted.voters], [c for _, c in voted.voters]
    wrong_vote = sum(1 for x, y in zip(xs, ds.labels) if predict_voted(ws, cs, x) != y)
    assert voted_errors(ds, voted.voters) == wrong_vote


def test_prediction_ties_predict_minus_one() -> None:
    assert predict_averaged([1, 0], [0, 5]) == -1  # w.x~ = 0
    assert predict_averaged([1, 0], [Fraction(1, 10**30), 5]) == 1
    assert predict_averaged([1, 0], [-1, 5]) == -1
    # a tied vote: one +1 against one -1 with equal counts
    assert predict_voted([[1], [-1]], [1, 1], [1]) == -1
    assert predict_voted([[1], [-1]], [2, 1], [1]) == 1
    # a voter on its boundary votes -1 (sign(0) = -1 inside the vote too)
    assert predict_voted([[0], [1]], [2, 1], [1]) == -1
    assert predict_voted([[0], [1]], [1, 2], [1]) == 1
    # floats are taken at their exact value: 0.1 + 0.2 - 0.3 is not zero in float64, but
    # the exact decision (1/10 as a double, etc.) is what decides
    w = [0.1, 0.2, -0.3]
    exact = sum(Fraction(v) for v in w)
    assert predict_averaged(w, [1, 1, 1]) == (1 if exact > 0 else -1)


def test_ties_are_errors_only_on_positive_samples() -> None:
    # w = (1, 0, 0) (no bias weight): x~ = (0, 1, 1) decides 0 -> predicts -1
    ds = Dataset.from_integer_rows([[0, 1], [0, 1], [1, 0]], 1, [1, -1, 1])
    assert averaged_errors(ds, [1, 0, 0]) == 1  # the positive tie only
    assert voted_errors(ds, [([1, 0, 0], 3), ([0, 0, 0], 0)]) == 1
    # a voter with count 0 never counts, whatever its sign
    assert voted_errors(ds, [([1, 0, 0], 3), ([-5, 0, 0], 0)]) == 1


def test_bad_inputs_name_the_place() -> None:
    with pytest.raises(InputError, match="x_tilde: 2 values for 3 weights"):
        predict_averaged([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="counts: 1 counts for 2 weight vectors"):
        predict_voted([[1], [2]], [1], [1])
    with pytest.raises(InputError, match="nonnegative"):
        predict_voted([[1]], [-1], [1])
    with pytest.raises(InputError, match="weights: 2 values for patterns of dimension 3"):
        averaged_errors(TINY, [1, 2])
    with pytest.raises(InputError, match="weights: not a sequence of numbers"):
        predict_averaged(3, [1])  # type: ignore[arg-type]


def test_survival_counts_refuse_updates_outside_or_out_of_order() -> None:
    assert survival_counts([(0, 0), (0, 2)], 3, 2) == (0, 2, 4)
    assert survival_counts([(0, 2), (0, 0)], 3, 2, order=[2, 1, 0]) == (0, 2, 4)
    with pytest.raises(InputError, match="is not after the previous update"):
        survival_counts([(0, 2), (0, 0)], 3, 2)
    with pytest.raises(InputError, match="is not after the previous update"):
        survival_counts([(0, 1), (0, 1)], 3, 2)
    with pytest.raises(InputError, match=r"\(2, 0\) is outside a run of 2 epochs"):
        survival_counts([(2, 0)], 3, 2)
    with pytest.raises(InputError, match="not in presentation order"):
        twin.survival_counts([(0, 2), (0, 0)], 3, 2)
    with pytest.raises(InputError, match="outside a run"):
        twin.survival_counts([(0, 3)], 3, 2)


def test_a_run_of_other_data_is_refused() -> None:
    run = run_perceptron(TINY)
    forged = RunRecord(weights=(Fraction(1),) * 3, updates=run.updates, epochs=run.epochs, converged=True)
    with pytest.raises(InputError, match="do not add up to its weights"):
        averaged_from_run(TINY, forged)


def test_certificate_checks_n1_n3_on_the_underlying_run() -> None:
    cert = certify(TINY)
    assert isinstance(cert, SeparableCertificate)
    run = run_averaged(TINY, certificate=cert)
    assert run.invariants_checked == 3 * run.mistakes > 0


def _exact_sum(voters: Sequence[tuple[np.ndarray, int]]) -> list[Fraction]:
    total = [Fraction(0)] * len(voters[0][0])
    for w, c in voters:
        total = [t + c * Fraction(float(v)) for t, v in zip(total, w)]
    return total


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_twin_equals_reference_on_float_exact_data(data: st.DataObject) -> None:
    ds = data.draw(
        st.one_of(float_exact_separable(max_samples=6), nonseparable_datasets(values="int", max_samples=4))
    )
    order = data.draw(orderings(ds.n_samples))
    ref = run_averaged(ds, order=order, max_epochs=5)
    ref_voted = run_voted(ds, order=order, max_epochs=5)
    fast = twin.run_averaged(ds, order=order, max_epochs=5, engine="numpy")
    fast_voted = twin.run_voted(ds, order=order, max_epochs=5, engine="numpy")
    assert fast.updates == ref.updates and fast.epochs == ref.epochs and fast.converged == ref.converged
    assert fast.counts.tolist() == list(ref.counts) == fast_voted.counts.tolist()
    assert fast.presentations == ref.presentations
    # same voters, exactly (float-exact data: the twin's w_j are the reference's)
    assert [[Fraction(float(v)) for v in w] for w, _ in fast_voted.voters] == [
        list(w) for w, _ in ref_voted.voters
    ]
    # the exact sum of the twin's voters is the reference's sum, exactly
    assert _exact_sum(fast_voted.voters) == list(ref.weight_sum)
    # the float average within the module's bound, gamma_(k+2) (1/N) sum_j c_j |w_j|
    gamma = Fraction(twin.average_error_bound(ref.mistakes))
    for t, exact in enumerate(ref.weights):
        scale = sum((c * abs(w[t]) for w, c in ref_voted.voters), Fraction(0)) / ref.presentations
        assert abs(Fraction(float(fast.weights[t])) - exact) <= gamma * scale
    assert [Fraction(float(v)) for v in fast.final_weights] == list(ref.final_weights)
    # float predictions agree with the exact rules here (decisions of exact data are exact)
    X = np.array([[float(v) for v in _x_tilde(ds, i)] for i in range(ds.n_samples)])
    exact_avg = [predict_averaged(ref.weights, _x_tilde(ds, i)) for i in range(ds.n_samples)]
    ws, cs = [w for w, _ in ref_voted.voters], [c for _, c in ref_voted.voters]
    exact_vote = [predict_voted(ws, cs, _x_tilde(ds, i)) for i in range(ds.n_samples)]
    assert twin.predict_voted(fast_voted.voter_weights, fast_voted.counts, X).tolist() == exact_vote
    avg_exact_float = [float(v) for v in ref.weights]
    if all(Fraction(v) == e for v, e in zip(avg_exact_float, ref.weights)):
        assert twin.predict_averaged(avg_exact_float, X).tolist() == exact_avg


def test_twin_average_rounding_bound_on_a_long_run() -> None:
    # non-separable, thousands of updates and counts that are not powers of two: the
    # float average is not exact in general, the bound must still hold
    ds = Dataset.from_integer_rows([[3, 1], [1, 3], [2, 2], [3, 1]], 7, [1, -1, 1, -1], bias=Fraction(1, 3))
    assert ds.is_float_exact() is False  # sevenths: the float patterns are rounded
    ref = run_voted(ds, max_epochs=300)
    fast = twin.run_voted(ds, max_epochs=300, engine="numpy")
    avg = twin.run_averaged(ds, max_epochs=300, engine="numpy")
    assert fast.updates == ref.updates  # the rounding of sevenths decides nothing here
    gamma = Fraction(twin.average_error_bound(avg.mistakes))
    exact_own = _exact_sum(fast.voters)  # the exact sum of the twin's own w_j
    for t, v in enumerate(avg.weights):
        scale = sum((c * abs(Fraction(float(w[t]))) for w, c in fast.voters), Fraction(0))
        assert abs(Fraction(float(v)) - exact_own[t] / avg.presentations) <= gamma * scale / avg.presentations


def test_twin_bad_inputs() -> None:
    with pytest.raises(InputError, match="X_tilde: rows of 3 values"):
        twin.predict_averaged([1.0, 2.0, 3.0], [[1.0, 2.0]])
    with pytest.raises(InputError, match="counts: 1 counts for voter weights of shape"):
        twin.predict_voted([[1.0], [2.0]], [1], [[1.0]])
    with pytest.raises(InputError, match="nonnegative"):
        twin.predict_voted([[1.0]], [-1], [[1.0]])
    with pytest.raises(InputError, match="engine must be"):
        twin.run_averaged(TINY, engine="gpu")  # type: ignore[arg-type]
    assert twin.predict_voted([[1.0], [-1.0]], [1, 1], [[1.0]]).tolist() == [-1]  # tied vote
    assert twin.predict_averaged([1.0, 0.0], [[0.0, 5.0]]).tolist() == [-1]  # tie


@pytest.mark.skipif(not compiled_available(), reason="numba not installed")
def test_compiled_engine_gives_the_numpy_run() -> None:
    ds = Dataset.from_integer_rows([[3, 1], [1, 3], [2, 2], [3, 1], [0, 1]], 1, [1, -1, 1, -1, 1])
    for run in (twin.run_averaged, twin.run_voted):
        a = run(ds, max_epochs=50, engine="compiled")
        b = run(ds, max_epochs=50, engine="numpy")
        assert a.updates == b.updates and np.array_equal(a.weights, b.weights)
        assert np.array_equal(a.counts, b.counts)
    with pytest.raises(InputError, match="natural order only"):
        twin.run_voted(ds, order=[1, 0, 2, 3, 4], engine="compiled")
