"""The text protocol of ``novikoff diff --command`` (version 1): requests carry the data
exactly and read back to the same values, responses are parsed strictly (a line outside the
protocol is a finding naming it), and a Python implementation written from the
specification alone (tests/impls/protocol_perceptron.py) passes, or is caught, end to end."""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.fuzz.harness import check_implementation, verdict
from novikoff.fuzz.protocol import (
    HEADER,
    ProtocolError,
    format_request,
    format_response,
    parse_number,
    parse_request,
    parse_response,
)
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.semantics import Semantics, shuffle_v1
from novikoff.fuzz.strategies import separable_datasets
from novikoff.fuzz.worker import Call, CommandRunner

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tests" / "impls" / "protocol_perceptron.py"


@settings(max_examples=25, deadline=None, database=None)
@given(
    separable_datasets(values="rational", max_dim=3, max_samples=5, bias=1),
    st.sampled_from(["natural", "given", "shuffle-v1:5"]),
    st.sampled_from([Semantics(), Semantics(tie_rule="strict", margin=F(1, 3), learning_rate=F(2))]),
)
def test_a_request_reads_back_to_the_exact_data(ds: Dataset, order: str, sem: Semantics) -> None:
    given_order = list(reversed(range(ds.n_samples))) if order == "given" else order
    w0 = tuple(F(j, 3) for j in range(ds.dimension))
    text = format_request(ds, max_epochs=9, order=given_order, semantics=sem, initial_weights=w0)
    assert text.startswith(HEADER + "\n") and text.endswith("end\n")
    req = parse_request(text)
    assert req.X == tuple(tuple(ds.features(i)) for i in range(ds.n_samples))
    assert req.y == ds.labels and req.bias == ds.bias and req.max_epochs == 9
    assert req.order == given_order and req.initial_weights == w0
    assert (req.semantics.tie_rule, req.semantics.margin, req.semantics.learning_rate) == (
        sem.tie_rule,
        sem.margin,
        sem.learning_rate,
    )


def test_numbers_exact_or_as_the_nearest_float64() -> None:
    assert parse_number("-3", "w") == (F(-3), True)
    assert parse_number("6/4", "w") == (F(3, 2), True)
    assert parse_number("0.1", "w") == (F(0.1), False)  # what strtod reads, not 1/10
    assert parse_number("0x1.8p+1", "w") == (F(3), False)
    assert parse_number("1e-3", "w") == (F(1e-3), False)
    for bad, words in [
        ("1/0", "zero denominator"),
        ("inf", "not a number"),
        ("1e999", "not finite"),
        ("x", "not a number"),
    ]:
        with pytest.raises(ProtocolError, match=words):
            parse_number(bad, "response line 2 (weights)")


def test_a_response_round_trips_exactly() -> None:
    text = format_response(
        [F(1, 3), 0.1, -2], updates=[0, 2], mistakes=2, epochs=3, converged=False, notes=["hi there"]
    )
    r = parse_response(text, 3)
    assert r.weights == (F(1, 3), F(0.1), F(-2)) and not r.exact  # 0.1 was written as a float
    assert (r.updates, r.mistakes, r.epochs, r.converged, r.notes) == ([0, 2], 2, 3, False, ["hi there"])
    exact = parse_response(format_response([F(1, 3), 2]), 2)
    assert exact.exact and exact.payload()["exact_weights"] == (F(1, 3), F(2))
    assert parse_response(f"{HEADER}\nunsupported not for me\nend\n", 2).unsupported == "not for me"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("novikoff-perceptron 2\nweights 1 2\nend\n", "protocol version '2'; expected version 1"),
        ("perceptron 1\nweights 1 2\nend\n", "line 1: expected 'novikoff-perceptron 1'"),
        (f"{HEADER}\nweights 1 2\n", "no final 'end' line"),
        (f"{HEADER}\nweights 1\nend\n", "line 2 (weights): 1 weights, expected 2"),
        (f"{HEADER}\nweights 1 2\nweights 1 2\nend\n", "line 3 (weights): given twice"),
        (f"{HEADER}\nweight 1 2\nend\n", "line 2 (weight): unknown key 'weight'"),
        (f"{HEADER}\nweights 1 nan\nend\n", "not a number: 'nan'"),
        (f"{HEADER}\nweights 1 2\nconverged maybe\nend\n", "expected yes or no"),
        (f"{HEADER}\nweights 1 2\nupdates 0 x\nend\n", "not an integer: 'x'"),
        (f"{HEADER}\nepochs 2\nend\n", "no 'weights' line"),
    ],
)
def test_a_response_outside_the_protocol_names_its_line(text: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_response(text, 2)


def test_the_shuffle_protocol_is_pinned() -> None:
    # golden values (examples/perceptron-cpp computes the same: tests/commands/test_diff_command.py)
    assert shuffle_v1(0, 0, 5) == [2, 3, 1, 4, 0]
    assert shuffle_v1(7, 3, 8) == [1, 7, 4, 5, 3, 2, 6, 0]
    assert all(sorted(shuffle_v1(s, e, 9)) == list(range(9)) for s in range(5) for e in range(5))
    assert shuffle_v1(1, 0, 6) != shuffle_v1(1, 1, 6)  # a new order each epoch


def script(*args: str) -> CommandRunner:
    return CommandRunner(" ".join([sys.executable, str(SCRIPT), *args]), timeout=60)


FAMILIES = ["float-exact separable", "float-exact near ties"]


def test_an_implementation_written_from_the_specification_passes() -> None:
    for args in ([], ["--float"]):  # exact p/q weights, and hexadecimal floats
        report = check_implementation(script(*args), examples=4, families=FAMILIES)
        assert report.ok and report.agreed == report.examples == 8, report.summary()


def test_placeholders_pass_the_declared_semantics_to_the_command() -> None:
    sem = Semantics(tie_rule="strict", initial_weights="drawn")
    runner = CommandRunner(f"{sys.executable} {SCRIPT} --tie-rule {{tie_rule}}", sem, timeout=60)
    assert runner.argv_for("perceptron")[-2:] == ["--tie-rule", "strict"]
    report = check_implementation(runner, examples=4, families=FAMILIES, semantics=sem)
    assert report.ok and report.agreed > 0, report.summary()


@pytest.mark.parametrize(
    ("bug", "status", "words"),
    [
        ("garbage", "protocol", "protocol error: response line 7 (weight): unknown key 'weight'"),
        ("no-end", "protocol", "no final 'end' line (truncated output?)"),
        ("print", "protocol", "line 1: expected 'novikoff-perceptron 1', got 'debugging: starting'"),
        ("exit", "crash", "the command exited with status 3"),
    ],
)
def test_a_broken_protocol_implementation_is_an_error_finding(bug: str, status: str, words: str) -> None:
    with script("--bug", bug) as runner:
        outcome = runner.call(Call(_two_points(), None, 10))
    assert outcome.status == status and words in outcome.message, outcome
    assert outcome.stdout  # what it printed is kept for the finding


def _two_points() -> Dataset:
    return Dataset.from_fraction_rows([[F(1)], [F(-2)]], [1, -1], bias=1)


def test_unsupported_answers_are_counted_not_failed() -> None:
    report = check_implementation(script("--bug", "unsupported"), examples=3, families=FAMILIES[:1])
    assert report.ok and report.unsupported == report.examples == 3


def test_a_planted_tie_bug_is_a_bug_with_the_hint_and_the_trace() -> None:
    algo = lookup("perceptron")
    one_point = Dataset.from_fraction_rows([[F(1)]], [1], bias=1)  # w.z = 0 at the first presentation
    with script("--bug", "tie") as runner:
        v = verdict(
            algo, runner, algo.data_family("float-exact separable"), one_point, None, None, explain=True
        )
    assert v.kind == "bug" and v.check == "check_updates_match_reference"
    assert [name for name, _ in v.failing] == [
        "check_updates_match_reference",
        "check_mistake_count",
        "check_epoch_count",
        "check_weight_direction",
    ]
    assert v.hint == "the implementation does not update on ties (y w.x~ = b): try --tie-rule strict"
    assert v.trace[0] == (
        "epoch 0, sample 0: y w.x~ = 0 -> update (a tie: y w.x~ = 0; the rule updates iff y w.x~ <= 0)"
    )
