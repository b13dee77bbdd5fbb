"""Protocol version 2 (voted and multiclass runs, the SGD semantics, the sklearn order), with
version 1 still spoken: each request is written in the lowest version that says it, a
response must carry its request's version, and a Python-free implementation of version 2
(tests/impls/protocol_v2.awk, POSIX awk) passes end to end and its planted bugs are caught."""

from __future__ import annotations

import shutil
from fractions import Fraction as F
from pathlib import Path

import pytest

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.fuzz.harness import Report, check_implementation
from novikoff.fuzz.protocol import (
    ProtocolError,
    format_request,
    format_response,
    parse_request,
    parse_response,
    request_version,
)
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.fuzz.worker import CommandRunner

REPO = Path(__file__).resolve().parents[2]
AWK = f"awk -f {REPO / 'tests' / 'impls' / 'protocol_v2.awk'}"
BINARY = Dataset.from_fraction_rows([[F(1, 2), F(-3)], [F(2), F(0)]], [1, -1], bias=1)
THREE = MulticlassData.from_arrays([[1, 0], [0, 1], [-1, -1], [F(1, 2), 2]], ["a", "b", "c", "b"])
SGD = Semantics(margin=F(1), l2=F(1, 10000), schedule="optimal", stop="tol:1/1000:5")


def test_the_lowest_version_that_says_the_call() -> None:
    assert request_version("perceptron", DEFAULT) == 1
    assert request_version("averaged", Semantics(tie_rule="strict"), "shuffle-v1:3") == 1
    assert request_version("voted", DEFAULT) == 2
    assert request_version("multiclass", DEFAULT) == 2
    assert request_version("perceptron", SGD) == 2
    assert request_version("perceptron", DEFAULT, "sklearn:4") == 2
    v1 = format_request(BINARY, max_epochs=5)
    assert v1.startswith("novikoff-perceptron 1\n") and "l2" not in v1 and "classes" not in v1


def test_a_multiclass_request_has_classes_and_class_index_labels() -> None:
    text = format_request(THREE, max_epochs=7, algorithm="multiclass")
    lines = text.splitlines()
    assert lines[0] == "novikoff-perceptron 2" and "classes 3" in lines
    assert [ln.split()[1] for ln in lines if ln.startswith("sample ")] == ["0", "1", "2", "1"]
    assert "initial_weights " + " ".join(["0"] * 9) in lines
    request = parse_request(text)
    assert (request.version, request.classes, request.y) == (2, 3, (0, 1, 2, 1))
    assert request.X[3] == (F(1, 2), F(2))


def test_the_sgd_semantics_and_the_sklearn_order_travel_in_version_2() -> None:
    text = format_request(BINARY, max_epochs=9, semantics=SGD, order="sklearn:5")
    assert text.startswith("novikoff-perceptron 2\n")
    assert "l2 1/10000\nschedule optimal\n" in text and "order sklearn 5\n" in text
    assert "stop tol:1/1000:5\n" in text
    request = parse_request(text)
    assert request.semantics == SGD.__class__(**{**vars(SGD), "order": "sklearn:5"})
    assert request.order == "sklearn:5"


def test_voter_lines_are_parsed_and_checked() -> None:
    text = format_response([F(1), 2, 0.5], version=2, voters=[([0, 0, 0], 1), ([F(1), 2, 0.5], 3)])
    response = parse_response(text, 3, 2, 3)
    assert response.voters == [((F(0), F(0), F(0)), 1), ((F(1), F(2), F(1, 2)), 3)]
    assert [c for _, c in response.payload()["voters"]] == [1, 3]
    bad = [
        ("novikoff-perceptron 2\nweights 1 2\nvoter 1 2\nend\n", "expected a count and 2 weights, got 2"),
        ("novikoff-perceptron 2\nweights 1 2\nvoter -1 2 3\nend\n", "a negative count -1"),
        ("novikoff-perceptron 2\nweights 1 2\nvoter 1 x 3\nend\n", "not a number: 'x'"),
    ]
    for text, reason in bad:
        with pytest.raises(ProtocolError, match=reason):
            parse_response(text, 2, 2, 2)
    with pytest.raises(ProtocolError, match="unknown key 'voter'"):  # not a voted request
        parse_response("novikoff-perceptron 2\nweights 1 2\nvoter 1 2 3\nend\n", 2, 2)


def test_a_response_must_carry_its_requests_version() -> None:
    with pytest.raises(ProtocolError, match="protocol version '1'; expected version 2"):
        parse_response("novikoff-perceptron 1\nweights 1 2\nend\n", 2, 2)
    with pytest.raises(ProtocolError, match="protocol version '2'; expected version 1"):
        parse_response("novikoff-perceptron 2\nweights 1 2\nend\n", 2, 1)
    with pytest.raises(ProtocolError, match="protocol version '3'"):
        parse_request("novikoff-perceptron 3\nend\n")


def awk_campaign(algorithm: str, bug: str = "", examples: int = 8) -> Report:
    if shutil.which("awk") is None:
        pytest.skip("POSIX awk is needed")
    command = AWK if not bug else f"awk -v bug={bug} -f {REPO / 'tests' / 'impls' / 'protocol_v2.awk'}"
    with CommandRunner(command, DEFAULT, 20.0) as runner:
        return check_implementation(runner, algorithm, examples=examples, seed=4)


@pytest.mark.parametrize("algorithm", ["perceptron", "voted", "multiclass"])
def test_the_awk_implementation_passes_end_to_end(algorithm: str) -> None:
    report = awk_campaign(algorithm)
    assert report.ok and report.agreed >= 8, report.summary()


def test_the_awk_implementations_planted_bugs_are_caught() -> None:
    counts = awk_campaign("voted", "count")
    assert counts.bugs and counts.bugs[0].check == "check_vote_counts", counts.summary()
    lastmax = awk_campaign("multiclass", "lastmax")
    assert lastmax.bugs, lastmax.summary()
    assert lastmax.bugs[0].check in (
        "check_updates_match_reference",
        "check_weight_direction",
        "check_mistake_count",
    )
    old = awk_campaign("voted", "v1", examples=2)
    assert old.errors and old.errors[0].status == "protocol", old.summary()
    assert "protocol version '1'; expected version 2" in old.errors[0].message
