"""The multiclass perceptron: exact reference (M1 at every update), float twin, the Kesler
construction, and the precise equivalence with a binary perceptron on Kesler vectors."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from novikoff import cli
from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.multiclass import MulticlassData, kesler, kesler_index
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.multiclass import run_multiclass
from novikoff.twins.multiclass import multiclass_twin


@st.composite
def small_multiclass(draw: Any, planted: bool = False) -> MulticlassData:
    K = draw(st.integers(2, 4))
    d = draw(st.integers(1, 3))
    m = draw(st.integers(2, 9))
    X = draw(st.lists(st.lists(st.integers(-4, 4), min_size=d, max_size=d), min_size=m, max_size=m))
    if planted:  # labels from a planted W*: the first argmax, kept only when it is strict
        Wstar = draw(
            st.lists(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1), min_size=K, max_size=K)
        )
        y = []
        for x in X:
            scores = [sum(a * b for a, b in zip(w, [*x, 1])) for w in Wstar]
            assume(scores.count(max(scores)) == 1)
            y.append(scores.index(max(scores)))
    else:
        y = draw(st.lists(st.integers(0, K - 1), min_size=m, max_size=m))
    assume(len(set(y)) >= 2)
    return MulticlassData.from_arrays(X, y, name="generated")


def test_kesler_vectors_have_squared_norm_twice_the_pattern() -> None:
    data = MulticlassData.from_arrays([[1, 2], [0, -1], [3, 0]], ["a", "b", "c"], bias=1)
    K = kesler(data)
    assert K.n_samples == 3 * 2 and K.dimension == 3 * 3 and kesler_index(data)[:2] == [(0, 1), (0, 2)]
    X, s = data.scaled_rows
    for row, (i, _) in zip(range(K.n_samples), kesler_index(data)):
        assert sum(v * v for v in K.pattern(row)) == 2 * Fraction(sum(v * v for v in X[i]), s * s)


@given(data=small_multiclass(planted=True))
def test_m1_holds_at_every_update_on_separable_data(data: MulticlassData) -> None:
    cert = certify(kesler(data))
    assert isinstance(cert, SeparableCertificate)  # a planted W* with strict argmax separates
    run = run_multiclass(data, certificate=cert, max_epochs=10_000)
    assert run.converged and run.invariants_checked == 2 * run.mistakes
    assert run.mistakes * cert.gamma2 <= 2 * data.R2


def test_a_false_kesler_certificate_is_caught() -> None:
    data = MulticlassData.from_arrays([[1, 0], [0, 1], [-1, -1]], [0, 1, 2], bias=1)
    cert = certify(kesler(data))
    assert isinstance(cert, SeparableCertificate)
    lie = SeparableCertificate(cert.lambdas, cert.pstar, cert.gamma2 * 100, cert.weights, cert.R2, cert.bound)
    with pytest.raises(InvariantViolation):
        run_multiclass(data, certificate=lie)


@given(data=small_multiclass(), order=st.one_of(st.none(), st.integers(0, 100).map(lambda s: f"shuffle:{s}")))
def test_the_twin_reproduces_the_reference(data: MulticlassData, order: Any) -> None:
    ref = run_multiclass(data, order=order, max_epochs=40)
    twin = multiclass_twin(data, order=order, max_epochs=40)
    assert twin.updates == ref.updates and twin.converged == ref.converged and twin.epochs == ref.epochs
    assert isinstance(twin.weights, np.ndarray)  # a float twin's weights are a float64 array
    assert [Fraction(float(v)) for v in np.ravel(twin.weights)] == list(ref.weights)


def _kesler_binary_perceptron(
    data: MulticlassData, max_epochs: int, lexicographic_ties: bool
) -> list[list[int]]:
    """A binary perceptron on the Kesler vectors (flattened W), written from the Kesler
    dataset alone: at sample i it presents v_{i,j*}, j* the first j != y minimizing W.v_{i,j}
    (the most violated Kesler vector), and updates iff W.v < 0, or W.v = 0 and (without the
    lexicographic rule: always) (with it: only when j* < y). Returns W after every update."""
    K = kesler(data)
    Z, _ = K.scaled_patterns
    rows: dict[int, list[tuple[int, int]]] = {}
    for row, (i, j) in enumerate(kesler_index(data)):
        rows.setdefault(i, []).append((j, row))
    W = [0] * K.dimension
    history = []
    for _ in range(max_epochs):
        clean = True
        for i in range(data.n_samples):
            values = [(sum(a * b for a, b in zip(W, Z[row])), j, row) for j, row in rows[i]]
            value, j, row = min(values)  # smallest W.v, then smallest j
            y = data.labels[i]
            if value < 0 or (value == 0 and (not lexicographic_ties or j < y)):
                W = [a + b for a, b in zip(W, Z[row])]
                history.append(list(W))
                clean = False
        if clean:
            break
    return history


@given(data=small_multiclass())
def test_multiclass_equals_the_kesler_perceptron_with_lexicographic_ties(data: MulticlassData) -> None:
    """The precise equivalence: the multiclass perceptron (first argmax, natural order) makes
    exactly the updates of a binary perceptron on the Kesler vectors that, at sample i, presents
    the most violated v_{i,j} (smallest W.v, then smallest j) and updates iff W.v < 0, or
    W.v = 0 with j < y_i. The update is on v_{i,p}, p the multiclass prediction."""
    run = run_multiclass(data, max_epochs=30)
    X, _ = data.scaled_rows
    W = [[0] * data.dimension for _ in range(data.n_classes)]
    trajectory = []
    for (_, i), p in zip(run.updates, run.predictions):
        y = data.labels[i]
        W[y] = [a + b for a, b in zip(W[y], X[i])]
        W[p] = [a - b for a, b in zip(W[p], X[i])]
        trajectory.append([v for w in W for v in w])
    assert _kesler_binary_perceptron(data, 30, lexicographic_ties=True) == trajectory


def test_without_the_tie_rule_the_equivalence_fails() -> None:
    # W = 0 at the first sample (class 0): both scores tie, the first argmax is class 0 (no
    # mistake), while a plain Kesler perceptron updates on W.v_{0,1} = 0
    data = MulticlassData.from_arrays([[1], [2]], [0, 1], bias=0)
    plain = _kesler_binary_perceptron(data, 30, lexicographic_ties=False)
    lexicographic = _kesler_binary_perceptron(data, 30, lexicographic_ties=True)
    assert plain != lexicographic


def test_bad_multiclass_input() -> None:
    with pytest.raises(InputError, match="fewer than two classes"):
        MulticlassData.from_arrays([[1], [2]], [3, 3])
    with pytest.raises(InputError, match="no samples"):
        MulticlassData.from_arrays([], [])


def test_sklearn_datasets_and_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    assert cli.main(["run", "sklearn:wine", "--algorithm", "multiclass", "--max-epochs", "20", "--json"]) == 0
    wine = json.loads(capsys.readouterr().out)
    assert wine["kesler"] == "separable" and wine["checks"]["M1 and Kesler N1"].startswith("held at all")
    assert cli.main(["run", "sklearn:iris", "--algorithm", "multiclass", "--max-epochs", "20", "--json"]) == 0
    iris = json.loads(capsys.readouterr().out)
    assert iris["kesler"] == "not separable" and not iris["run"]["converged"]
    assert (
        cli.main(
            ["run", "sklearn:digits", "--algorithm", "multiclass", "--fast", "--max-epochs", "5", "--json"]
        )
        == 0
    )
    digits = json.loads(capsys.readouterr().out)
    assert digits["kesler"] == "not computed (too large)" and len(digits["classes"]) == 10
    assert cli.main(["run", "sklearn:nope", "--algorithm", "multiclass"]) == 2
    assert cli.main(["run", "sklearn:iris", "--algorithm", "multiclass", "--epsilon", "0.1"]) == 2


def test_numeric_class_labels_in_a_csv_keep_their_numeric_order(tmp_path: Any) -> None:
    from novikoff.data.readers import read_csv_multiclass

    path = tmp_path / "k.csv"
    path.write_text("".join(f"{i},{label}\n" for i, label in enumerate([2, 10, 1, 2, 10, 1])))
    data = read_csv_multiclass(path, header=False)
    assert data.class_names == ("1", "2", "10") and data.labels == (1, 2, 0, 1, 2, 0)
