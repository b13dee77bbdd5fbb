"""The certificate format: round trips, a tampering test per field, strict schema errors, and
the checker's isolation from the solver.

Every tampering test changes one field of a certificate file's JSON and asserts the reason
code of the first failing fact; the untouched document beside it must check valid.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import (
    FORMAT,
    VERSION,
    CertificateDocument,
    CertificateFormatError,
    GordanCertificate,
    NonseparableBoundClaim,
    SeparableCertificate,
    certificate_document,
    certify,
    dataset_digest,
    from_json,
    to_json,
)
from novikoff.certificates.checker import REASON_CODES, check_document
from novikoff.certificates.format import FORMAT_ERROR_CODES, from_data, to_data
from novikoff.data.dataset import Dataset
from novikoff.exact.rational import RationalVector
from novikoff.reference import run_perceptron

# z_1 = (1, 0, 1), z_2 = (0, 1, 1), z_3 = (1, 1, -1) with rho = 1: lambda = 1/3 each, p* = (2/3, 2/3, 1/3),
# gamma^2 = 1, R^2 = 3. Natural order: updates on z_1 and z_3, weights (2, 1, 0), 2 epochs, converged.
TRIANGLE = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, 1, -1])
THIRDS = Dataset.from_fraction_rows(
    [[F(1, 3), F(2, 3)], [F(-1, 3), F(0)], [F(2, 3), F(-1, 3)]], [1, -1, 1], bias=F(1, 2)
)
# not separable without a bias: z = (1), (-1); with a bias: the conflicting duplicate (1, 2)
OPPOSITE = Dataset.from_arrays([[1], [1]], [1, -1], bias=0)
CONFLICT = Dataset.from_arrays([[1, 2], [1, 2], [5, 5]], [1, -1, 1])


def document(ds: Dataset, order: str = "natural", max_epochs: int = 50) -> CertificateDocument:
    """certify + the reference perceptron run, as a certificate file's document."""
    cert = certify(ds)
    run = run_perceptron(ds, order=None if order == "natural" else order, max_epochs=max_epochs)
    return certificate_document(ds, cert, run, order)


def tampered(doc: CertificateDocument, edit: Callable[[dict[str, Any]], object]) -> CertificateDocument:
    """``doc`` with its JSON value changed by ``edit`` and read back strictly."""
    data = copy.deepcopy(to_data(doc))
    edit(data)
    return from_json(json.dumps(data))


def code(ds: Dataset, doc: CertificateDocument) -> str | None:
    verdict = check_document(ds, doc)
    assert verdict.valid == (verdict.code is None)
    assert verdict.message
    return verdict.code


# ------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize(
    ("ds", "order", "separable"),
    [
        (TRIANGLE, "natural", True),
        (TRIANGLE, "shuffle:5", True),
        (THIRDS, "natural", True),
        (TRIANGLE.with_bias(0), "natural", True),
        (OPPOSITE, "natural", False),
        (CONFLICT, "shuffle:2", False),
    ],
)
def test_round_trip_and_check(ds: Dataset, order: str, separable: bool) -> None:
    doc = document(ds, order, max_epochs=7)
    assert doc.certificate.separable is separable
    text = to_json(doc)
    back = from_json(text)
    assert back == doc
    assert to_json(back) == text  # the written form is canonical
    verdict = check_document(ds, back)
    assert verdict.valid and verdict.code is None
    assert verdict.message.startswith("separable" if separable else "not separable")
    run = back.perceptron
    assert run is not None and run.converged is separable
    if not separable:
        assert run.epochs == 7 and run.mistakes >= 7  # every epoch of a non-converged run errs


def test_the_written_json_by_hand() -> None:
    data = json.loads(to_json(document(TRIANGLE)))
    assert data["format"] == FORMAT == "novikoff-certificate" and data["version"] == 1 and VERSION == 3
    assert data["dataset"]["n_samples"] == 3 and data["dataset"]["n_features"] == 2
    assert data["dataset"]["bias"] == "1"
    cert = data["certificate"]
    assert cert["kind"] == "separable"
    assert cert["lambda"] == ["1/3", "1/3", "1/3"]
    assert cert["pstar"] == ["2/3", "2/3", "1/3"]
    assert (cert["gamma2"], cert["R2"], cert["bound"]) == ("1", "3", "3")
    # hulls: (1/2, 1/2) and (-1, -1), v = (3/2, 3/2), ||v||^2 = 9/2
    assert cert["geometric"] == {
        "alpha": ["1/2", "1/2"],
        "beta": ["1"],
        "v": ["3/2", "3/2"],
        "distance2": "9/2",
    }
    assert data["perceptron"] == {
        "order": "natural",
        "epochs": 2,
        "converged": True,
        "mistakes": 2,
        "weights": ["2", "1", "0"],
    }
    gordan = json.loads(to_json(document(OPPOSITE, max_epochs=3)))["certificate"]
    assert gordan == {"kind": "gordan", "lambda": ["1/2", "1/2"], "R2": "1"}


def test_one_multiplier_and_no_features() -> None:
    # two samples without features or bias: z = () twice, lambda = (1, 0) sums to the zero vector
    ds = Dataset.from_integer_rows([[], []], 1, [1, -1], bias=0)
    doc = certificate_document(ds, certify(ds))
    verdict = check_document(ds, from_json(to_json(doc)))
    assert verdict.valid and verdict.message == "not separable (Gordan certificate, 1 multiplier > 0)"


def test_a_document_without_a_run_checks_the_certificate_alone() -> None:
    doc = certificate_document(THIRDS, certify(THIRDS))
    assert doc.perceptron is None and json.loads(to_json(doc))["perceptron"] is None
    assert from_json(to_json(doc)) == doc
    assert code(THIRDS, doc) is None


small_int = st.integers(-4, 4)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda m: st.tuples(
            st.lists(st.lists(small_int, min_size=2, max_size=2), min_size=m, max_size=m),
            st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m),
            st.sampled_from([F(0), F(1), F(1, 2), F(3)]),
        )
    )
)
def test_round_trip_on_random_data(case: tuple[list[list[int]], list[int], F]) -> None:
    rows, labels, bias = case
    ds = Dataset.from_arrays(rows, labels, bias=bias)
    doc = document(ds, max_epochs=4)
    back = from_json(to_json(doc))
    assert back == doc
    assert code(ds, back) is None


def test_the_digest_is_of_the_exact_numbers() -> None:
    # the same numbers given as integers, decimals and fractions: one digest
    a = Dataset.from_arrays([[1, 2], [3, 4]], [1, -1])
    b = Dataset.from_arrays([["1.0", "2"], ["3", "8/2"]], [1, -1], bias=F(1, 2), name="other")
    assert dataset_digest(a) == dataset_digest(b)
    # a non-reduced direct construction is the same data
    c = Dataset(((2, 4), (6, 8)), 2, (1, -1))
    assert dataset_digest(c) == dataset_digest(a)
    for other in (
        Dataset.from_arrays([[1, 2], [3, 5]], [1, -1]),
        Dataset.from_arrays([[1, 2], [3, 4]], [-1, -1]),
        Dataset.from_arrays([[F(1, 2), 1], [F(3, 2), 2]], [1, -1]),
        Dataset.from_arrays([[1, 2, 0], [3, 4, 0]], [1, -1]),
    ):
        assert dataset_digest(other) != dataset_digest(a)
    assert len(dataset_digest(a)) == 64


# ------------------------------------------------------------------------------ tampering


def _set(path: str, value: object) -> Callable[[dict[str, Any]], object]:
    """An edit that sets the field at ``path`` (dots and [i]) to ``value``."""

    def edit(data: dict[str, Any]) -> None:
        keys: list[Any] = []
        for part in path.split("."):
            name, _, index = part.partition("[")
            keys.append(name)
            if index:
                keys.append(int(index.rstrip("]")))
        target: Any = data
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value

    return edit


# (field, new value, reason code) on TRIANGLE's document: lambda = (1/3, 1/3, 1/3), p* = (2/3, 2/3, 1/3),
# weights (2/3, 2/3, 1/3), geometric alpha = (1/2, 1/2), beta = (1), v = (3/2, 3/2); run as above
TRIANGLE_TAMPERING = [
    ("dataset.n_samples", 4, "dataset-samples"),
    ("dataset.n_features", 3, "dataset-features"),
    ("dataset.bias", "2", "dataset-bias"),
    ("dataset.sha256", "0" * 64, "dataset-digest"),
    ("certificate.lambda[0]", "1/2", "lambda-sum"),
    ("certificate.lambda[2]", "-1/3", "lambda-negative"),
    ("certificate.lambda", ["1/2", "1/2"], "lambda-length"),
    ("certificate.lambda", ["1/2", "1/2", "0"], "pstar"),  # convex, but p* is another point
    ("certificate.R2", "4", "radius"),
    ("certificate.pstar[1]", "1/3", "pstar"),
    ("certificate.pstar", ["2/3", "2/3"], "pstar"),
    ("certificate.gamma2", "2", "gamma2"),
    ("certificate.weights[0]", "1", "weights"),
    ("certificate.weights", ["2/3", "2/3", "1/3", "0"], "weights"),
    ("certificate.bound", "4", "bound"),
    ("certificate.geometric.alpha", ["1"], "geometric-length"),
    ("certificate.geometric.beta", ["1", "0"], "geometric-length"),
    ("certificate.geometric.alpha[0]", "1", "geometric-sum"),
    ("certificate.geometric.beta[0]", "-1", "geometric-negative"),
    ("certificate.geometric.v[0]", "1", "geometric-v"),
    ("certificate.geometric.distance2", "5/2", "geometric-distance"),
    ("perceptron.mistakes", 3, "run-mistakes"),
    ("perceptron.mistakes", 1, "run-mistakes"),
    ("perceptron.epochs", 3, "run-epochs"),
    ("perceptron.epochs", 1, "run-converged"),
    ("perceptron.converged", False, "run-converged"),
    ("perceptron.weights[1]", "2", "run-weights"),
    ("perceptron.weights", ["2", "1"], "run-weights"),
]


@pytest.mark.parametrize(("path", "value", "reason"), TRIANGLE_TAMPERING)
def test_tampering_with_a_field_is_rejected_for_its_reason(path: str, value: object, reason: str) -> None:
    doc = document(TRIANGLE)
    assert code(TRIANGLE, doc) is None
    bad = tampered(doc, _set(path, value))
    assert bad != doc
    assert code(TRIANGLE, bad) == reason


def test_every_reason_code_is_exercised() -> None:
    """The tables in this file reach every reason code the checker has."""
    reached = {r for _, _, r in TRIANGLE_TAMPERING} | {r for _, r in HAND_MADE_REASONS}
    reached |= {r for _, _, r in XOR_BOUND_TAMPERING}
    reached.add("run-updates")  # a listed update replays wrongly: test_run_updates_code_comes_from_check_run
    assert reached == set(REASON_CODES)


def test_the_order_of_the_run_is_checked() -> None:
    # shuffle seed 3 presents z_3, z_2, z_1 in epoch 0 (numpy's permutation, computed here):
    # updates on z_3 (w = (1, 1, -1)) and z_2 (w.z_2 = 0; w = (1, 2, 0)); then every score > 0.
    # Same count, other weights: the replay under the claimed order gives run-weights.
    assert np.random.default_rng([3, 0]).permutation(3).tolist() == [2, 1, 0]
    doc = document(TRIANGLE)
    assert code(TRIANGLE, tampered(doc, _set("perceptron.order", "shuffle:3"))) == "run-weights"
    honest = document(TRIANGLE, "shuffle:3")
    assert honest.perceptron is not None and list(honest.perceptron.weights) == [1, 2, 0]
    assert code(TRIANGLE, honest) is None


def test_tampered_data_is_another_dataset() -> None:
    doc = document(TRIANGLE)
    moved = Dataset.from_arrays([[1, 0], [0, 1], [-1, -2]], [1, 1, -1])
    assert code(moved, doc) == "dataset-digest"
    flipped = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, -1, -1])
    assert code(flipped, doc) == "dataset-digest"
    assert code(TRIANGLE.with_bias(2), doc) == "dataset-bias"
    # the digest rebound to the moved data: now the mathematics fails (R^2 = ||(1, 2, 1)||^2 = 6)
    rebound = tampered(doc, _set("dataset.sha256", dataset_digest(moved)))
    assert code(moved, rebound) == "radius"


def _gordan_multiplier(data: dict[str, Any]) -> None:
    data["certificate"]["lambda"] = ["1/4", "3/4"]


def _separable_as_gordan(data: dict[str, Any]) -> None:
    cert = data["certificate"]
    data["certificate"] = {"kind": "gordan", "lambda": cert["lambda"], "R2": cert["R2"]}


def _gordan_as_separable(data: dict[str, Any]) -> None:
    data["certificate"].update(
        kind="separable", pstar=["0"], gamma2="0", weights=["0"], bound="0", geometric=None
    )


def _corner(data: dict[str, Any]) -> None:
    # on TRIANGLE: p* = z_1 = (1, 0, 1), ||p*||^2 = 2, but z_2.p* = 1 < 2
    data["certificate"].update(
        {"lambda": ["1", "0", "0"], "pstar": ["1", "0", "1"], "gamma2": "2", "weights": ["1/2", "0", "1/2"]},
        bound="3/2",
    )


def _geometric_corner(data: dict[str, Any]) -> None:
    # alpha = (1, 0): the hull point x_1 = (1, 0), v = (2, 1), ||v||^2 = 5, but x_2.v - x_3.v = 1 + 3 < 5
    data["certificate"]["geometric"] = {"alpha": ["1", "0"], "beta": ["1"], "v": ["2", "1"], "distance2": "5"}


def _unconverged_run_replayed_wrongly(data: dict[str, Any]) -> None:
    data["perceptron"]["mistakes"] = 0  # the first presentation is already a mistake


# (edit, reason) on OPPOSITE's (Gordan) or TRIANGLE's document, for facts a one-field change cannot break
HAND_MADE_REASONS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_gordan_multiplier, "gordan-nonzero"),
    (_gordan_as_separable, "pstar-zero"),
    (_separable_as_gordan, "gordan-nonzero"),
    (_corner, "not-minimal"),
    (_geometric_corner, "geometric-not-closest"),
    (_unconverged_run_replayed_wrongly, "run-mistakes"),
]


@pytest.mark.parametrize(("edit", "reason"), HAND_MADE_REASONS)
def test_hand_made_false_facts(edit: Callable[[dict[str, Any]], None], reason: str) -> None:
    ds = (
        OPPOSITE
        if edit in (_gordan_multiplier, _gordan_as_separable, _unconverged_run_replayed_wrongly)
        else TRIANGLE
    )
    doc = document(ds, max_epochs=3)
    assert code(ds, doc) is None
    assert code(ds, tampered(doc, edit)) == reason


# ------------------------------------------------------------------------------ the Freund-Schapire bound

# XOR with rho = 1: z = (0, 0, -1), (0, 1, 1), (1, 0, 1), (-1, -1, -1); every presentation of the
# natural order is a mistake (4 per pass). With u = (1, 0, 0): margins 0, 0, 1, -1; at gamma = 1
# d = 1, 1, 0, 2, so over T = 5 passes D^2 = 5 * 6 = 30, R^2 = 3, and the bound is
# (sqrt(3) + sqrt(30))^2 = 33 + 2 sqrt(90), between 51 and 52 (18^2 = 324 <= 360 < 19^2 = 361).
XOR = Dataset.from_arrays([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1])


def xor_document(with_run: bool = True) -> CertificateDocument:
    """XOR's certificate, its natural-order run of 5 epochs and the bound above, by hand."""
    run = run_perceptron(XOR, max_epochs=5)
    claim = NonseparableBoundClaim(RationalVector([1, 0, 0], 1), F(1), F(30), F(3), "natural", 5, 20)
    return certificate_document(XOR, certify(XOR), run if with_run else None, "natural", claim)


def test_the_library_bound_checks_valid() -> None:
    from novikoff.reference.nonseparable import nonseparable_bound

    for order in ("natural", "shuffle:3"):
        run = run_perceptron(XOR, order=None if order == "natural" else order, max_epochs=4)
        fs = nonseparable_bound(XOR, run=run, order=None if order == "natural" else order)
        doc = certificate_document(XOR, certify(XOR), run, order, fs.claim())
        assert code(XOR, from_json(to_json(doc))) is None


def test_the_bound_block_by_hand() -> None:
    data = json.loads(to_json(xor_document()))
    assert data["version"] == 3
    assert data["nonseparable_bound"] == {
        "u": ["1", "0", "0"],
        "gamma": "1",
        "deviation2": "30",
        "R2": "3",
        "order": "natural",
        "passes": 5,
        "mistakes": 20,
    }
    assert data["perceptron"]["mistakes"] == 20
    doc = from_json(to_json(xor_document()))
    verdict = check_document(XOR, doc)
    assert verdict.valid and "Freund-Schapire bound holds: 20 mistakes in 5 passes" in verdict.message
    # without the run, the checker replays the passes itself
    alone = xor_document(with_run=False)
    assert alone.perceptron is None and code(XOR, from_json(to_json(alone))) is None


def test_a_version_2_file_names_the_squared_deviation_d2_and_still_reads() -> None:
    data = json.loads(to_json(xor_document()))
    old = copy.deepcopy(data)
    old["version"] = 2
    old["nonseparable_bound"] = {
        ("D2" if k == "deviation2" else k): v for k, v in old["nonseparable_bound"].items()
    }
    assert from_data(old) == from_data(data)
    assert code(XOR, from_data(old)) is None
    # each version under its own name only: a version 3 with D2, a version 2 with deviation2
    mixed = copy.deepcopy(old)
    mixed["version"] = 3
    with pytest.raises(CertificateFormatError, match=r"nonseparable_bound\.deviation2: missing") as e:
        from_data(mixed)
    assert e.value.code == "missing-field"
    mixed["nonseparable_bound"]["deviation2"] = mixed["nonseparable_bound"]["D2"]
    with pytest.raises(CertificateFormatError, match=r"nonseparable_bound\.D2: unexpected field") as e:
        from_data(mixed)
    assert e.value.code == "extra-field"
    mixed["version"], mixed["nonseparable_bound"] = 2, data["nonseparable_bound"]
    with pytest.raises(CertificateFormatError, match=r"nonseparable_bound\.D2: missing") as e:
        from_data(mixed)
    assert e.value.code == "missing-field"


def test_the_bound_does_not_depend_on_the_scale_of_u() -> None:
    # u = (2, 0, 0) with gamma = 2: the same normalized margins, the same deviation2
    scaled = tampered(xor_document(), _set("nonseparable_bound.u", ["2", "0", "0"]))
    assert code(XOR, tampered(scaled, _set("nonseparable_bound.gamma", "2"))) is None
    assert code(XOR, scaled) == "fs-deviation"  # u scaled alone: other d_i


# (field, new value, reason) on XOR's document (T = 5, u = (1, 0, 0), gamma = 1, deviation2 = 30, 20 mistakes)
XOR_BOUND_TAMPERING = [
    ("nonseparable_bound.u", ["1", "0"], "fs-length"),
    ("nonseparable_bound.u", ["1", "0", "0", "0"], "fs-length"),
    ("nonseparable_bound.u", ["0", "0", "0"], "fs-zero"),
    ("nonseparable_bound.gamma", "0", "fs-gamma"),
    ("nonseparable_bound.gamma", "-1", "fs-gamma"),
    ("nonseparable_bound.R2", "4", "fs-radius"),
    ("nonseparable_bound.deviation2", "31", "fs-deviation"),
    ("nonseparable_bound.gamma", "2", "fs-deviation"),
    ("nonseparable_bound.u[1]", "1", "fs-deviation"),
    ("nonseparable_bound.passes", 6, "fs-deviation"),
    ("nonseparable_bound.mistakes", 52, "fs-bound"),
    ("nonseparable_bound.mistakes", 10**6, "fs-bound"),
    ("nonseparable_bound.mistakes", 51, "fs-mistakes"),
    ("nonseparable_bound.mistakes", 19, "fs-mistakes"),
    ("nonseparable_bound.mistakes", 0, "fs-mistakes"),
]


@pytest.mark.parametrize(("path", "value", "reason"), XOR_BOUND_TAMPERING)
def test_tampering_with_the_bound_is_rejected_for_its_reason(path: str, value: object, reason: str) -> None:
    doc = xor_document()
    assert code(XOR, doc) is None
    bad = tampered(doc, _set(path, value))
    assert bad != doc
    assert code(XOR, bad) == reason


def test_more_passes_are_replayed() -> None:
    # 6 passes with the matching deviation2 = 36: the run in the file has 5 epochs, so the checker
    # replays 6 passes (24 mistakes) and rejects the 20 claimed
    doc = tampered(xor_document(), _set("nonseparable_bound.passes", 6))
    doc = tampered(doc, _set("nonseparable_bound.deviation2", "36"))
    assert code(XOR, doc) == "fs-mistakes"
    assert code(XOR, tampered(doc, _set("nonseparable_bound.mistakes", 24))) is None


def test_the_run_is_checked_before_the_bound() -> None:
    doc = xor_document()
    assert code(XOR, tampered(doc, _set("perceptron.mistakes", 21))) == "run-mistakes"
    # a false run and a false bound that agree with each other: the run is caught first
    both = tampered(tampered(doc, _set("perceptron.mistakes", 21)), _set("nonseparable_bound.mistakes", 21))
    assert code(XOR, both) == "run-mistakes"


@pytest.mark.parametrize(
    ("edit", "error_code", "path"),
    [
        (_set("nonseparable_bound.order", "Natural"), "bad-value", "nonseparable_bound.order"),
        (_set("nonseparable_bound.order", 1), "wrong-type", "nonseparable_bound.order"),
        (_set("nonseparable_bound.passes", 0), "bad-value", "nonseparable_bound.passes"),
        (_set("nonseparable_bound.mistakes", -1), "bad-value", "nonseparable_bound.mistakes"),
        (_set("nonseparable_bound.gamma", 1), "wrong-type", "nonseparable_bound.gamma"),
        (_set("nonseparable_bound.deviation2", "60/2"), "bad-value", "nonseparable_bound.deviation2"),
        (_set("nonseparable_bound.u", "1"), "wrong-type", "nonseparable_bound.u"),
        (_set("nonseparable_bound.extra", 1), "extra-field", "nonseparable_bound.extra"),
        (_set("nonseparable_bound", None), "wrong-type", "nonseparable_bound"),
        (_set("version", 1), "extra-field", "nonseparable_bound"),  # version 1 has no such field
    ],
)
def test_bound_schema_errors(edit: Callable[[dict[str, Any]], None], error_code: str, path: str) -> None:
    data = to_data(xor_document())
    edit(data)
    err = _format_error(data)
    assert (err.code, err.path) == (error_code, path)


def test_a_version_2_file_needs_the_bound() -> None:
    data = to_data(xor_document())
    del data["nonseparable_bound"]
    err = _format_error(data)
    assert (err.code, err.path) == ("missing-field", "nonseparable_bound")


def test_run_updates_code_comes_from_check_run() -> None:
    from novikoff.certificates.checker import CertificateRejected, check_run

    with pytest.raises(CertificateRejected) as info:
        check_run(TRIANGLE, [(0, 0)], [2, 1, 0], 2, True)
    assert info.value.code == "run-updates"
    assert "missed a mistake" in str(info.value)


# ------------------------------------------------------------------------------ schema errors


def _format_error(data: object) -> CertificateFormatError:
    with pytest.raises(CertificateFormatError) as info:
        from_json(json.dumps(data))
    assert info.value.code in FORMAT_ERROR_CODES
    return info.value


def _good() -> dict[str, Any]:
    return to_data(document(TRIANGLE))


@pytest.mark.parametrize(
    ("path", "value", "error_code", "message"),
    [
        ("certificate.lambda[1]", "1/0", "bad-value", "certificate.lambda[1]: not a rational: '1/0'"),
        ("certificate.lambda[1]", "2/6", "bad-value", "certificate.lambda[1]: not in lowest terms: '2/6'"),
        ("certificate.R2", "3/1", "bad-value", "certificate.R2: not in lowest terms: '3/1'"),
        ("certificate.R2", "-0", "bad-value", "certificate.R2: not a rational: '-0'"),
        ("certificate.R2", "+3", "bad-value", "certificate.R2: not a rational: '+3'"),
        ("certificate.R2", " 3", "bad-value", "certificate.R2: not a rational: ' 3'"),
        ("certificate.R2", "3.0", "bad-value", "certificate.R2: not a rational: '3.0'"),
        ("certificate.R2", "1/-3", "bad-value", "certificate.R2: not a rational: '1/-3'"),
        ("certificate.R2", "03", "bad-value", "certificate.R2: not a rational: '03'"),
        ("certificate.R2", "٣", "bad-value", "certificate.R2: not a rational: '٣'"),
        ("certificate.R2", 3, "wrong-type", "certificate.R2: expected a rational as a string, got a number"),
        (
            "certificate.pstar",
            "2/3",
            "wrong-type",
            "certificate.pstar: expected an array of rationals, got a string",
        ),
        (
            "certificate.pstar[2]",
            None,
            "wrong-type",
            "certificate.pstar[2]: expected a rational as a string, got null",
        ),
        (
            "certificate.geometric",
            [],
            "wrong-type",
            "certificate.geometric: expected an object, got an array",
        ),
        ("certificate.geometric.v[0]", "x", "bad-value", "certificate.geometric.v[0]: not a rational: 'x'"),
        (
            "certificate.kind",
            "margin",
            "kind",
            "certificate.kind: unknown kind 'margin' (expected 'separable' or 'gordan')",
        ),
        (
            "certificate.kind",
            None,
            "kind",
            "certificate.kind: unknown kind None (expected 'separable' or 'gordan')",
        ),
        ("certificate", None, "wrong-type", "certificate: expected an object, got null"),
        ("dataset.n_samples", "3", "wrong-type", "dataset.n_samples: expected an integer, got a string"),
        ("dataset.n_samples", True, "wrong-type", "dataset.n_samples: expected an integer, got a boolean"),
        ("dataset.n_samples", 3.0, "wrong-type", "dataset.n_samples: expected an integer, got a number"),
        ("dataset.n_samples", 0, "bad-value", "dataset.n_samples: must be at least 1, got 0"),
        ("dataset.n_features", -1, "bad-value", "dataset.n_features: must be at least 0, got -1"),
        ("dataset.bias", "-1", "bad-value", "dataset.bias: bias must be >= 0, got -1"),
        ("dataset.sha256", "AB" * 32, "bad-value", "dataset.sha256: not 64 lowercase hexadecimal digits"),
        ("dataset.sha256", 5, "wrong-type", "dataset.sha256: expected a string, got a number"),
        (
            "perceptron.order",
            "shuffle:-1",
            "bad-value",
            "perceptron.order: expected 'natural' or 'shuffle:SEED', got 'shuffle:-1'",
        ),
        (
            "perceptron.order",
            "Natural",
            "bad-value",
            "perceptron.order: expected 'natural' or 'shuffle:SEED', got 'Natural'",
        ),
        ("perceptron.order", 0, "wrong-type", "perceptron.order: expected a string, got a number"),
        (
            "perceptron.converged",
            1,
            "wrong-type",
            "perceptron.converged: expected true or false, got a number",
        ),
        ("perceptron.epochs", -1, "bad-value", "perceptron.epochs: must be at least 0, got -1"),
        ("perceptron.mistakes", "2", "wrong-type", "perceptron.mistakes: expected an integer, got a string"),
        ("perceptron.weights[0]", "2/1", "bad-value", "perceptron.weights[0]: not in lowest terms: '2/1'"),
        ("perceptron", [], "wrong-type", "perceptron: expected an object, got an array"),
        ("dataset", "x", "wrong-type", "dataset: expected an object, got a string"),
    ],
)
def test_schema_errors_name_the_path(path: str, value: object, error_code: str, message: str) -> None:
    data = _good()
    _set(path, value)(data)
    err = _format_error(data)
    assert (err.code, err.path, str(err)) == (error_code, path, message)


@pytest.mark.parametrize(
    ("where", "key", "error_code", "path"),
    [
        ("certificate", "gamma2", "missing-field", "certificate.gamma2"),
        ("certificate", "geometric", "missing-field", "certificate.geometric"),
        ("certificate", "kind", "missing-field", "certificate.kind"),
        ("dataset", "sha256", "missing-field", "dataset.sha256"),
        ("perceptron", "order", "missing-field", "perceptron.order"),
        ("certificate.geometric", "distance2", "missing-field", "certificate.geometric.distance2"),
        ("", "perceptron", "missing-field", "perceptron"),
        ("", "dataset", "missing-field", "dataset"),
    ],
)
def test_missing_fields(where: str, key: str, error_code: str, path: str) -> None:
    data = _good()
    target = data
    for part in filter(None, where.split(".")):
        target = target[part]
    del target[key]
    err = _format_error(data)
    assert (err.code, err.path, str(err)) == (error_code, path, f"{path}: missing")


@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("", "comment"),
        ("dataset", "dataset.name"),
        ("certificate", "certificate.margin"),
        ("certificate.geometric", "certificate.geometric.w"),
        ("perceptron", "perceptron.updates"),
    ],
)
def test_extra_fields(where: str, path: str) -> None:
    data = _good()
    target = data
    for part in filter(None, where.split(".")):
        target = target[part]
    target[path.rpartition(".")[2]] = 1
    err = _format_error(data)
    assert (err.code, err.path, str(err)) == ("extra-field", path, f"{path}: unexpected field")


def test_gordan_fields_on_a_gordan_certificate_only() -> None:
    data = to_data(document(OPPOSITE, max_epochs=2))
    data["certificate"]["pstar"] = ["0"]
    err = _format_error(data)
    assert (err.code, err.path) == ("extra-field", "certificate.pstar")


def test_wrong_format_and_version_are_refused_with_the_reason() -> None:
    data = _good()
    data["version"] = 4
    err = _format_error(data)
    assert (err.code, err.path) == ("version", "version")
    assert str(err) == "version: unsupported version 4 (this novikoff reads versions 1, 2 and 3)"
    for version in ("1", True, 1.0, None):
        data["version"] = version
        assert _format_error(data).code == "version"
    data = _good()
    data["format"] = "drat"
    err = _format_error(data)
    assert (err.code, str(err)) == ("format", "format: not a novikoff certificate: format is 'drat'")
    del data["format"]
    assert _format_error(data).code == "format"
    err = _format_error([1, 2])
    assert (err.code, err.path, str(err)) == (
        "wrong-type",
        "",
        "certificate file: expected a JSON object, got an array",
    )


@pytest.mark.parametrize(
    "text",
    ["", "{", "not json", '{"format": NaN}', '{"a": Infinity}', '{"format": "x", "format": "y"}', "[1,]"],
)
def test_text_that_is_not_standard_json(text: str) -> None:
    with pytest.raises(CertificateFormatError) as info:
        from_json(text)
    assert info.value.code == "not-json"


def test_huge_numbers_are_read_exactly() -> None:
    big = 10**5000 + 1
    doc = certificate_document(
        Dataset.from_arrays([[big]], [1], bias=0), certify(Dataset.from_arrays([[big]], [1], bias=0))
    )
    back = from_json(to_json(doc))
    assert back == doc
    assert back.certificate.R2 == big * big


def test_the_kind_decides_the_type() -> None:
    assert isinstance(from_json(to_json(document(TRIANGLE))).certificate, SeparableCertificate)
    assert isinstance(from_json(to_json(document(OPPOSITE, max_epochs=2))).certificate, GordanCertificate)
    assert from_data(to_data(document(THIRDS))) == document(THIRDS)


# ------------------------------------------------------------------------------ isolation

_ALLOWED = {
    "novikoff",
    "novikoff.certificates",
    "novikoff.certificates.checker",
    "novikoff.certificates.format",
    # the layer packages themselves (their __init__ imports only novikoff.data.dataset)
    "novikoff.data",
    "novikoff.exact",
    "novikoff.runtime",
    "novikoff.data.dataset",
    "novikoff.exact.dyadic",
    "novikoff.errors",
    "novikoff.exact.rational",
    "novikoff.runtime.runs",
}


def _modules_after(statement: str) -> set[str]:
    code_text = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code_text], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(out.stdout))


def test_the_checker_imports_no_solver() -> None:
    loaded = _modules_after("import novikoff.certificates.checker")
    ours = {m for m in loaded if m == "novikoff" or m.startswith("novikoff.")}
    assert ours <= _ALLOWED, sorted(ours - _ALLOWED)
    for banned in (
        "novikoff.certificates.minnorm",
        "novikoff.certificates.solver",
        "novikoff.runtime.parallel",
        "sympy",
        "scipy",
        "hypothesis",
    ):
        assert banned not in loaded
    assert not any(
        m.startswith(("novikoff.twins", "novikoff.reference", "novikoff.spec", "novikoff.proofs"))
        for m in loaded
    )


def test_the_package_loads_the_solver_only_when_asked() -> None:
    loaded = _modules_after("import novikoff.certificates")
    assert "novikoff.certificates.format" in loaded
    assert "novikoff.certificates.solver" not in loaded and "novikoff.certificates.checker" not in loaded
    loaded = _modules_after("from novikoff.certificates import certify")
    assert "novikoff.certificates.solver" in loaded and "novikoff.certificates.minnorm" in loaded


def test_unknown_package_attributes_raise() -> None:
    import novikoff.certificates as pkg

    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        pkg.nonexistent  # noqa: B018


# ------------------------------------------------------------------------------ the command line


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from novikoff import cli

    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _csv(path: Path, rows: list[str]) -> str:
    path.write_text("".join(r + "\n" for r in rows))
    return str(path)


def test_certify_writes_a_file_that_check_accepts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _csv(tmp_path / "d.csv", ["1,0,1", "0,1,1", "-1,-1,-1"])  # TRIANGLE
    cert = str(tmp_path / "c.json")
    status, out, _ = run_cli(capsys, "certify", data, "--certificate", cert)
    assert status == 0 and f"certificate written to {cert}" in out
    doc = from_json(Path(cert).read_text())
    assert doc == document(TRIANGLE)  # the file holds the library's document of the same data
    status, out, err = run_cli(capsys, "check", data, cert)
    assert (status, err) == (0, "")
    assert out.startswith("valid: separable, gamma^2 = 1, R^2 = 3, bound = 3")
    status, out, _ = run_cli(capsys, "check", data, cert, "--json")
    assert status == 0
    assert json.loads(out) == {
        "file": cert,
        "dataset": data,
        "valid": True,
        "reason": None,
        "message": check_document(TRIANGLE, doc).message,
    }
    status, out, _ = run_cli(capsys, "certify", data, "--certificate", cert, "--json")
    assert status == 0 and json.loads(out)["certificate_file"] == cert


def test_check_uses_the_certificates_bias_and_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _csv(tmp_path / "t.csv", ["1/3,2/3,1", "-1/3,0,-1", "2/3,-1/3,1"])  # THIRDS
    cert = str(tmp_path / "c.json")
    status, _, _ = run_cli(
        capsys, "certify", data, "--bias", "1/2", "--order", "shuffle:4", "--certificate", cert
    )
    assert status == 0
    doc = from_json(Path(cert).read_text())
    assert doc.dataset.bias == F(1, 2) and doc.perceptron is not None and doc.perceptron.order == "shuffle:4"
    assert doc == document(THIRDS, "shuffle:4")
    assert run_cli(capsys, "check", data, cert)[0] == 0


def test_non_separable_data_round_trip_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _csv(tmp_path / "xor.csv", ["1,1,1", "-1,-1,1", "1,-1,-1", "-1,1,-1"])
    cert = str(tmp_path / "c.json")
    assert run_cli(capsys, "certify", data, "--max-epochs", "5", "--certificate", cert)[0] == 0
    doc = from_json(Path(cert).read_text())
    assert isinstance(doc.certificate, GordanCertificate)
    assert list(doc.certificate.lambdas) == [F(1, 4)] * 4
    assert doc.perceptron is not None and (doc.perceptron.epochs, doc.perceptron.converged) == (5, False)
    status, out, _ = run_cli(capsys, "check", data, cert)
    assert status == 0 and out.startswith("valid: not separable (Gordan certificate, 4 multipliers > 0)")


def test_check_exits_1_at_the_first_false_fact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _csv(tmp_path / "d.csv", ["1,0,1", "0,1,1", "-1,-1,-1"])
    cert = tmp_path / "c.json"
    cert.write_text(to_json(tampered(document(TRIANGLE), _set("certificate.gamma2", "2"))))
    status, out, _ = run_cli(capsys, "check", data, str(cert))
    assert status == 1
    assert out == "invalid: gamma2: gamma^2 claimed 2, ||p*||^2 = 1\n"
    status, out, _ = run_cli(capsys, "check", data, str(cert), "--json")
    assert status == 1
    r = json.loads(out)
    assert (r["valid"], r["reason"], r["message"]) == (False, "gamma2", "gamma^2 claimed 2, ||p*||^2 = 1")
    # the honest file against changed data: another dataset
    cert.write_text(to_json(document(TRIANGLE)))
    moved = _csv(tmp_path / "m.csv", ["1,0,1", "0,1,1", "-1,-2,-1"])
    status, out, _ = run_cli(capsys, "check", moved, str(cert))
    assert status == 1 and out.startswith("invalid: dataset-digest: ")


def test_check_exits_2_on_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _csv(tmp_path / "d.csv", ["1,0,1", "0,1,1", "-1,-1,-1"])
    good = tmp_path / "c.json"
    good.write_text(to_json(document(TRIANGLE)))
    bad = tmp_path / "bad.json"
    bad_data = to_data(document(TRIANGLE))
    bad_data["certificate"]["lambda"][1] = "1/0"
    bad.write_text(json.dumps(bad_data))
    status, out, err = run_cli(capsys, "check", data, str(bad))
    assert (status, out) == (2, "")
    assert err == f"novikoff: error: {bad}: certificate.lambda[1]: not a rational: '1/0'\n"
    status, out, _ = run_cli(capsys, "check", data, str(bad), "--json")
    r = json.loads(out)
    assert (status, r["exit_code"], r["reason"], r["path"]) == (2, 2, "bad-value", "certificate.lambda[1]")
    bad.write_text("{not json")
    status, out, _ = run_cli(capsys, "check", data, str(bad), "--json")
    assert status == 2 and json.loads(out)["reason"] == "not-json"
    status, _, err = run_cli(capsys, "check", data, str(tmp_path / "missing.json"))
    assert status == 2 and "missing.json" in err
    status, _, err = run_cli(capsys, "check", str(tmp_path / "nodata.csv"), str(good))
    assert status == 2 and "nodata.csv" in err
    broken = _csv(tmp_path / "broken.csv", ["1,0,1", "0,x,1"])
    status, _, err = run_cli(capsys, "check", broken, str(good))
    assert status == 2 and "broken.csv:2" in err
    status, _, err = run_cli(capsys, "certify", data, "--certificate", str(tmp_path / "no" / "c.json"))
    assert status == 2 and "--certificate" in err


# ------------------------------------------------------------------------------ the documentation

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "certificate-format.md"


def _markdown(text: str) -> str:
    """``text`` as the page writes it in a table cell (``*`` and ``_`` escaped)."""
    return text.replace("*", "\\*").replace("_", "\\_")


def test_the_doc_lists_exactly_the_reason_codes() -> None:
    from novikoff.certificates.checker import REASONS

    text = DOC.read_text()
    reasons = text.split("\n## Reason codes\n", 1)[1]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \|", reasons, flags=re.MULTILINE)
    assert rows == [*REASONS, *FORMAT_ERROR_CODES]
    for code_name, meaning in REASONS.items():
        assert f"| `{code_name}` | {_markdown(meaning)} |" in reasons


def test_the_docs_example_checks_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = re.search(r'```json title="cert.json"\n(.*?)```', DOC.read_text(), flags=re.DOTALL)
    assert example is not None
    cert = tmp_path / "example.json"
    cert.write_text(example.group(1))
    status, out, _ = run_cli(capsys, "check", "example:exercise-6.1", str(cert))
    assert status == 0 and out.startswith("valid: ")
    # and it is what the tool writes today
    made = tmp_path / "made.json"
    assert run_cli(capsys, "certify", "example:exercise-6.1", "--certificate", str(made))[0] == 0
    assert made.read_text() == example.group(1)
