"""Declared semantics: each has an exact reference (the textbook one is exactly the exact
twin's run), a difference inside what was declared is no finding and one outside it is a
bug, and a bug's hint names the declared difference that explains it. mlxtend's tie rule
(emulated: tests/impls/semantics.py says why) and scikit-learn's SGDClassifier with the
hinge loss are expressible: they pass when declared and are caught when not."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.families import near_tie_data, perceptron_float_exact
from novikoff.fuzz.harness import Report, check_implementation, sklearn_fit
from novikoff.fuzz.semantics import DEFAULT, Semantics, declared_run, float_exact
from novikoff.fuzz.strategies import nonseparable_datasets, separable_datasets
from novikoff.twins.exact import exact_perceptron
from tests.impls import perceptrons
from tests.impls import semantics as impls

SOME = ["float-exact separable", "float-exact near ties", "general float", "gordan non-separable"]


def campaign(fit: Any, examples: int = 8, families: list[str] | None = None, **declared: Any) -> Report:
    return check_implementation(
        fit, examples=examples, seed=1, semantics=Semantics(**declared), families=families or SOME
    )


@settings(max_examples=60, deadline=None, database=None)
@given(
    st.one_of(
        separable_datasets(values="dyadic", max_dim=3, max_samples=6),
        nonseparable_datasets(values="rational", max_dim=3, max_samples=6),
    ),
    st.data(),
)
def test_the_textbook_semantics_is_the_exact_twins_run(ds: Dataset, data: st.DataObject) -> None:
    order = data.draw(st.one_of(st.none(), st.permutations(range(ds.n_samples))))
    ours = declared_run(ds, DEFAULT, order, 12)
    twin = exact_perceptron(ds, order=order, max_epochs=12)
    assert (ours.weights, ours.updates, ours.epochs, ours.converged) == (
        tuple(twin.weights),
        twin.updates,
        twin.epochs,
        twin.converged,
    )


@settings(max_examples=40, deadline=None, database=None)
@given(near_tie_data())
def test_float_exactness_of_a_declared_run_is_the_families_test_for_the_textbook_rule(ds: Dataset) -> None:
    assert float_exact(ds, DEFAULT, None, 50) == perceptron_float_exact(ds, None, 50)


def test_each_declared_rule_on_a_tie() -> None:
    # x_0 = 1 (y = +1) starts at w.z = 0; x_1 = -1 (y = -1) then sees a tie w.x~ = 0
    tie = Dataset.from_fraction_rows([[F(1)], [F(-1)]], [1, -1], bias=0)
    updates = {rule: declared_run(tie, Semantics(tie_rule=rule), None, 5).update_indices for rule in
               ("nonstrict", "strict", "sign-positive", "sign-negative")}  # fmt: skip
    assert updates == {"nonstrict": [0], "strict": [], "sign-positive": [1], "sign-negative": [0]}
    everything = declared_run(tie, Semantics(stop="all-epochs"), None, 5)
    assert everything.epochs == 5 and everything.converged and everything.weights == (F(1),)
    halves = declared_run(tie, Semantics(margin=F(1), learning_rate=F(1, 2)), None, 9)
    assert halves.weights == (F(3, 2),)  # 1/2, 1, 3/2: updates until y w.x~ > 1
    start = declared_run(tie, Semantics(initial_weights="drawn"), None, 5, [F(-2)])
    assert start.update_indices == [0, 1, 0] and start.weights == (F(1),)


MLXTEND = {"tie_rule": "sign-positive", "stop": "all-epochs", "learning_rate": F(1, 5)}


@pytest.mark.parametrize(
    ("fit", "declared", "undeclared", "hint"),
    [
        (perceptrons.BROKEN["strict <"], {"tie_rule": "strict"}, {}, "try --tie-rule strict"),
        (impls.mlxtend_rule, MLXTEND, {**MLXTEND, "tie_rule": "nonstrict"}, "try --tie-rule sign-positive"),
        (perceptrons.BROKEN["float32 accumulation"], {"precision": "float32"}, {}, "try --precision float32"),
        (impls.ignores_order, {"order": "natural"}, {}, "try --order natural"),
        (impls.shuffles, {"order": "shuffle-v1:3"}, {}, ""),
        (
            impls.margin_half_rate,
            {"margin": F(1), "learning_rate": F(1, 2), "initial_weights": "drawn"},
            {"initial_weights": "drawn"},
            "",
        ),
    ],
    ids=["strict", "mlxtend", "float32", "natural order", "shuffle-v1", "margin and rate"],
)
def test_a_declared_difference_passes_and_an_undeclared_one_is_caught_with_its_hint(
    fit: Any, declared: dict[str, Any], undeclared: dict[str, Any], hint: str
) -> None:
    passing = campaign(fit, **declared)
    assert passing.ok and passing.agreed > 0, passing.summary()
    caught = campaign(fit, **undeclared)
    assert caught.bugs, caught.summary()
    assert hint in caught.bugs[0].hint, caught.bugs[0].describe()


def test_mlxtend_needs_each_of_its_differences_declared() -> None:
    every_epoch = {**MLXTEND, "stop": "converged"}
    caught = campaign(impls.mlxtend_rule, examples=10, families=SOME[:2], **every_epoch)
    assert caught.bugs and caught.bugs[0].check == "check_epoch_count", caught.summary()
    assert "try --stop all-epochs" in caught.bugs[0].hint


def test_a_learning_rate_that_is_no_float_is_declared_and_its_hint_guesses_it() -> None:
    caught = campaign(impls.tenth_rate, families=SOME[:1])
    assert caught.bugs and "try --learning-rate 1/10" in caught.bugs[0].hint, caught.summary()
    assert campaign(impls.tenth_rate, learning_rate=F(1, 10)).ok


def test_the_learning_rate_matters_with_initial_weights_and_a_margin() -> None:
    wrong_rate = campaign(impls.margin_half_rate, margin=F(1), initial_weights="drawn")
    assert wrong_rate.bugs, wrong_rate.summary()  # the rate 1 declared, 1/2 implemented
    assert "--learning-rate 1/2" in wrong_rate.bugs[0].hint
    assert campaign(impls.strict_from, tie_rule="strict", initial_weights="drawn").ok


def test_sklearn_sgdclassifier_with_the_hinge_loss_is_a_perceptron_with_margin_1() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    hinge = sklearn_fit(
        sklearn.SGDClassifier,
        loss="hinge",
        penalty=None,
        learning_rate="constant",
        eta0=1.0,
        shuffle=False,
        tol=None,
    )
    declared = campaign(hinge, margin=F(1))
    assert declared.ok and declared.agreed > 0, declared.summary()
    caught = campaign(hinge, families=SOME[:1])
    assert caught.bugs and "try --margin 1" in caught.bugs[0].hint, caught.summary()
    defaults = campaign(sklearn_fit(sklearn.SGDClassifier), families=SOME[:1], margin=F(1))
    assert defaults.bugs  # penalty="l2", learning_rate="optimal": their semantics in test_diff_sgd.py


def test_invalid_declarations_name_the_option() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"tie_rule": "maybe"}, "--tie-rule: expected one of nonstrict, strict"),
        ({"margin": F(-1)}, "--margin: expected a rational >= 0"),
        ({"learning_rate": F(0)}, "--learning-rate: expected a rational > 0"),
        ({"tie_rule": "sign-positive", "margin": F(1)}, "takes no --margin"),
        ({"order": "shuffle-v1:-1"}, "--order: expected given, natural, shuffle-v1:SEED or sklearn:SEED"),
        ({"order": f"shuffle-v1:{2**32}"}, "SEED in 0..2^32-1"),
        ({"stop": "never"}, "--stop: expected one of converged, all-epochs, tol:TOL:N"),
        ({"precision": "float16"}, "--precision: expected one of float64, float32"),
        ({"initial_weights": "random"}, "--initial-weights: expected zero or drawn"),
    ]
    for kwargs, words in cases:
        with pytest.raises(InputError, match=words.replace(".", r"\.").replace("^", r"\^")):
            Semantics(**kwargs)
    with pytest.raises(InputError, match="are for --algorithm perceptron, not pdm"):
        check_implementation(perceptrons.correct, "pdm", examples=1, semantics=Semantics(margin=F(1)))
    assert Semantics(margin=F(1, 2), order="shuffle-v1:3").options() == [
        "--margin",
        "1/2",
        "--order",
        "shuffle-v1:3",
    ]
