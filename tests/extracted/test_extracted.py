"""The perceptron extracted from Coq against the Python reference (``novikoff.reference``).

The extracted program's run is proved equal to ``Perceptron.run`` of the Coq development
(``novikoff/coq/extraction/ZPerceptron.v``); here the Python reference must make the same
run: the same updated indices, weights, mistake count, epochs and convergence, on
Hypothesis campaigns (separable, non-separable, ties, every order kind) and on the shipped
examples and benchmark files. A reference with one decision changed must be caught, with
the minimal dataset. Skipped, with the reason, when coqc, ocamlfind or Zarith is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.data.multiclass import MulticlassData
from novikoff.extracted import ExtractedError, compare_runs, run_extracted, unavailable
from novikoff.extracted.build import THEOREMS, build
from novikoff.extracted.runner import format_request
from novikoff.reference import perceptron as reference_module
from novikoff.reference.perceptron import run_perceptron
from novikoff.runtime.runs import Order

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")

ROOT = Path(__file__).resolve().parents[2]
#: the peer project's exact-rational data (the benchmarks' shared directory)
COQ_DATA = Path(os.environ.get("NOVIKOFF_SHARED", ROOT.parent / "shared")) / "benchmarks" / "coq-perceptron"


@pytest.fixture(scope="module")
def binary() -> Path:
    return build().binary


# ------------------------------------------------------------------ strategies

small = st.integers(-3, 3).map(Fraction) | st.fractions(min_value=-2, max_value=2, max_denominator=6)


@st.composite
def datasets(draw: st.DrawFn, separable: bool | None = None) -> Dataset:
    """Small exact datasets: zeros and small integers make ties (w.z = 0) frequent; with
    ``separable`` the labels come from a rational hyperplane through a margin."""
    m = draw(st.integers(1, 7))
    d = draw(st.integers(1, 3))
    rows = [[draw(small) for _ in range(d)] for _ in range(m)]
    bias = draw(st.sampled_from([Fraction(1), Fraction(0), Fraction(1, 2), Fraction(3)]))
    if separable:
        u = [draw(st.integers(-2, 2)) for _ in range(d)]
        b = draw(st.integers(-1, 1))
        scores = [sum(Fraction(a) * x for a, x in zip(u, r)) + b for r in rows]
        keep = [(r, s) for r, s in zip(rows, scores) if s != 0]
        if not keep:
            keep = [([Fraction(1)] * d, Fraction(1))]
        rows, labels = [r for r, _ in keep], [1 if s > 0 else -1 for _, s in keep]
        bias = Fraction(1)
    else:
        labels = [draw(st.sampled_from([-1, 1])) for _ in range(m)]
    return Dataset.from_fraction_rows(rows, labels, bias=bias)


@st.composite
def orders(draw: st.DrawFn, m: int) -> Order:
    """Every order kind of ``epoch_order``: natural, one permutation, a cycle of
    permutations, a seeded shuffle."""
    kind = draw(st.sampled_from(["natural", "one", "cycle", "shuffle"]))
    if kind == "natural":
        return draw(st.sampled_from([None, "natural"]))
    if kind == "shuffle":
        return f"shuffle:{draw(st.integers(0, 2**31))}"
    perm = st.permutations(list(range(m)))
    if kind == "one":
        return draw(perm)
    return draw(st.lists(perm, min_size=1, max_size=3))


@st.composite
def runs(draw: st.DrawFn, separable: bool | None = None) -> tuple[Dataset, Order, int]:
    ds = draw(datasets(separable))
    return ds, draw(orders(ds.n_samples)), draw(st.integers(1, 40))


def _agree(case: tuple[Dataset, Order, int], binary: Path) -> None:
    ds, order, max_epochs = case
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary)
    assert not diff, "\n".join(
        [
            *diff,
            "the request (a minimal dataset after shrinking):",
            format_request(ds, order=order, max_epochs=max_epochs),
        ]
    )


CAMPAIGN = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------ the build


def test_build_is_axiom_free_beyond_the_reals(binary: Path) -> None:
    """No theorem of the integer runs rests on an admitted lemma: Print Assumptions names
    only the axioms of the standard library's real numbers."""
    text = build().assumptions
    assert text.count("Axioms:") + text.count("Closed under the global context") == len(THEOREMS), text
    assert "Admitted" not in text and "admit" not in text
    heads = [line for line in text.splitlines() if line and not line[0].isspace()]
    names = {line.split()[0] for line in heads if line != "Axioms:" and not line.startswith("Closed under")}
    assert names <= {
        "ClassicalDedekindReals.sig_forall_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "ClassicalDedekindReals.sig_not_dec",
    }, names


# ------------------------------------------------------------------ campaigns


@CAMPAIGN
@given(runs())
def test_campaign_any_labels(binary: Path, case: tuple[Dataset, Order, int]) -> None:
    _agree(case, binary)


@CAMPAIGN
@given(runs(separable=True))
def test_campaign_separable(binary: Path, case: tuple[Dataset, Order, int]) -> None:
    _agree(case, binary)


def test_non_separable_runs_to_the_limit(binary: Path) -> None:
    """XOR never converges: both stop at max_epochs with converged = no."""
    ds = load_example("xor")
    run = run_extracted(ds, max_epochs=13, binary=binary)
    assert not run.converged and run.epochs == 13
    assert compare_runs(ds, max_epochs=13, binary=binary) == []


def test_a_tie_updates(binary: Path) -> None:
    """One sample: w_0.z = 0 is a tie, and the rule updates on it."""
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1], bias=1)
    run = run_extracted(ds, binary=binary)
    assert run.update_indices == (0,) and run.weights == (1, 1) and run.epochs == 2


@pytest.mark.parametrize("name", ["exercise-6.1", "seed-6.6:3", "seed-6.9", "xor", "t1:12", "t1-rotated:5"])
def test_shipped_examples(binary: Path, name: str) -> None:
    diff = compare_runs(load_example(name), max_epochs=200, binary=binary)
    assert diff == [], diff


@pytest.mark.parametrize("name", ["iris_setosa.csv", "vec50_1.csv"])
def test_benchmark_files(binary: Path, name: str) -> None:
    path = COQ_DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    from novikoff.data.readers import read_csv

    ds = read_csv(path)
    diff = compare_runs(ds, max_epochs=1000, binary=binary)
    assert diff == [], diff


# ------------------------------------------------------------------ a planted bug


def test_planted_reference_bug_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python reference with its decision made strict (no update on a tie) must differ
    from the extracted program; Hypothesis finds and shrinks the dataset that shows it."""
    monkeypatch.setattr(
        reference_module, "perceptron_mistake", lambda w, z: sum(a * b for a, b in zip(w, z)) < 0
    )

    def differs(case: tuple[Dataset, Order, int]) -> bool:
        ds, order, max_epochs = case
        return bool(compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary))

    ds, order, max_epochs = find(runs(), differs, settings=settings(database=None, max_examples=500))
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary)
    print("minimal dataset:\n" + format_request(ds, order=order, max_epochs=max_epochs))
    # at w_0 = 0 every sample is a tie: the strict reference never updates, the extracted does
    assert diff[0].startswith("update #1 differs"), diff
    assert run_perceptron(ds, order=order, max_epochs=max_epochs).mistakes == 0


def test_planted_bias_bug_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reference that updates only on strictly negative margins after the first update
    (a subtler planted decision) is caught too, and the message names the first update."""
    calls = {"n": 0}
    real = reference_module.perceptron_mistake

    def late(w: list[int], z: list[int]) -> bool:
        calls["n"] += 1
        return real(w, z) and (not any(w) or sum(a * b for a, b in zip(w, z)) < 0)

    monkeypatch.setattr(reference_module, "perceptron_mistake", late)

    def differs(case: tuple[Dataset, Order, int]) -> bool:
        ds, order, max_epochs = case
        return bool(compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary))

    ds, order, max_epochs = find(runs(), differs, settings=settings(database=None, max_examples=2000))
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary)
    assert any(line.startswith("update #") for line in diff), diff


# ------------------------------------------------------------------ the driver's input handling


def test_driver_rejects_bad_input(binary: Path) -> None:
    """The unverified driver names the place of bad input and exits 2."""
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1], bias=1)
    good = format_request(ds)
    for bad, reason in [
        (good.replace("sample +1 1", "sample +1 1/0"), "not an exact number"),
        (good.replace("sample +1 1", "sample +2 1"), "is not +1 or -1"),
        (good.replace("samples 1", "samples 2"), "but 1 sample lines"),
        (good.replace("novikoff-perceptron 1", "novikoff-perceptron 9"), "version"),
        (good.replace("order natural", "order given 3"), "not a sample index"),
    ]:
        proc = subprocess.run([str(binary)], input=bad, capture_output=True, text=True)
        assert proc.returncode == 2 and reason in proc.stderr, (bad, proc.stderr)


def test_driver_answers_unsupported_semantics(binary: Path) -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1], bias=1)
    text = format_request(ds).replace("tie_rule nonstrict", "tie_rule strict")
    proc = subprocess.run([str(binary)], input=text, capture_output=True, text=True)
    assert proc.returncode == 0 and "unsupported" in proc.stdout and "tie_rule strict" in proc.stdout
    with pytest.raises(ExtractedError, match="unsupported"):
        from novikoff.extracted.runner import parse_answer

        parse_answer(proc.stdout, 1, True)


@pytest.mark.parametrize("algorithm", ["perceptron", "pdm", "pfm"])
def test_diff_command_speaks_protocol_v1(binary: Path, algorithm: str) -> None:
    """The driver is a ``novikoff diff --command`` target with no wiring: it agrees."""
    novikoff = shutil.which("novikoff") or str(Path(sys.executable).parent / "novikoff")
    command = [
        novikoff,
        "diff",
        "--command",
        str(binary),
        "--algorithm",
        algorithm,
        "--examples",
        "3",
        "--seed",
        "0",
    ]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 bugs" in proc.stdout and " 0 unsupported" in proc.stdout, proc.stdout


def test_replay_for_certify(binary: Path) -> None:
    """``replay`` (what ``certify --verified`` calls) agrees on a true run and names the
    difference on a tampered one."""
    from dataclasses import replace

    from novikoff.extracted import replay
    from novikoff.twins.exact import exact_perceptron

    ds = load_example("seed-6.6:3")
    run = exact_perceptron(ds)
    good = replay(ds, run, binary=binary)
    assert good.agrees and "same run" in good.summary() and good.to_json()["agrees"] is True
    tampered = replace(run, weights=(run.weights[0] + 1, *run.weights[1:]))
    bad = replay(ds, tampered, binary=binary)
    assert not bad.agrees and bad.differences[0].startswith("weights:"), bad.differences
    assert "DISAGREES" in bad.summary()


# ------------------------------------------------------------------ PFM and PDM (ZLargeMargin.v)

betas = st.fractions(min_value=0, max_value=3, max_denominator=5)
epsilons = st.fractions(min_value=0, max_value=1, max_denominator=6).filter(lambda e: e > 0)


@CAMPAIGN
@given(runs(), betas)
def test_campaign_pfm(binary: Path, case: tuple[Dataset, Order, int], beta: Fraction) -> None:
    ds, order, max_epochs = case
    diff = compare_runs(
        ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="pfm", parameter=beta
    )
    assert not diff, "\n".join(
        [*diff, format_request(ds, order=order, max_epochs=max_epochs, algorithm="pfm", parameter=beta)]
    )


@CAMPAIGN
@given(runs(), epsilons)
def test_campaign_pdm(binary: Path, case: tuple[Dataset, Order, int], eps: Fraction) -> None:
    ds, order, max_epochs = case
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="pdm", parameter=eps)
    assert not diff, "\n".join(
        [*diff, format_request(ds, order=order, max_epochs=max_epochs, algorithm="pdm", parameter=eps)]
    )


@pytest.mark.parametrize(
    ("algorithm", "parameter"), [("pfm", Fraction(1, 2)), ("pdm", Fraction(1, 3)), ("pdm", 1)]
)
@pytest.mark.parametrize("name", ["exercise-6.1", "seed-6.6:3", "xor"])
def test_large_margin_examples(binary: Path, name: str, algorithm: str, parameter: Fraction) -> None:
    ds = load_example(name)
    diff = compare_runs(ds, max_epochs=300, binary=binary, algorithm=algorithm, parameter=parameter)
    assert diff == [], diff


def test_pdm_at_eps_1_is_the_perceptron(binary: Path) -> None:
    """PDM(1) updates iff t w.z <= 0, i.e. iff w.z <= 0 once t >= 1 (and always at t = 0,
    where w = 0 makes every presentation a tie): the perceptron's run, in the extracted program too."""
    ds = load_example("seed-6.6:3")
    a = run_extracted(ds, binary=binary, algorithm="pdm", parameter=1)
    b = run_extracted(ds, binary=binary)
    assert a == b


def test_planted_pdm_bug_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PDM's reference with the margin (1 - eps) replaced by (1 - eps/2) disagrees."""
    from novikoff.reference import large_margin

    real = large_margin.PDMRule.ints.func  # type: ignore[attr-defined]
    monkeypatch.setattr(
        large_margin.PDMRule, "ints", property(lambda self: (real(self)[0], 2 * real(self)[1]))
    )
    ds = load_example("seed-6.6:3")
    diff = compare_runs(ds, max_epochs=300, binary=binary, algorithm="pdm", parameter=Fraction(1, 3))
    assert diff and diff[0].startswith("update #"), diff


# ------------------------------------------------------------------ PDM-succ (ZPdmSucc.v)


@CAMPAIGN
@given(runs(), st.lists(epsilons, min_size=1, max_size=3, unique=True))
def test_campaign_pdm_succ(binary: Path, case: tuple[Dataset, Order, int], eps: list[Fraction]) -> None:
    """Stages eps_1 > ... > eps_final, max_epochs per stage, epochs numbered across stages."""
    ds, order, max_epochs = case
    epss = sorted(eps, reverse=True)
    diff = compare_runs(
        ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="pdm-succ", parameter=epss
    )
    request = format_request(ds, order=order, max_epochs=max_epochs, algorithm="pdm-succ", parameter=epss)
    assert not diff, "\n".join([*diff, request])


def test_pdm_succ_of_one_stage_is_pdm(binary: Path) -> None:
    ds = load_example("seed-6.6:3")
    one = run_extracted(ds, binary=binary, algorithm="pdm-succ", parameter=[Fraction(1, 4)])
    assert one == run_extracted(ds, binary=binary, algorithm="pdm", parameter=Fraction(1, 4))
    two = run_extracted(ds, binary=binary, algorithm="pdm-succ", parameter=[Fraction(1, 2), Fraction(1, 8)])
    assert two.mistakes > run_extracted(ds, binary=binary, algorithm="pdm", parameter=Fraction(1, 2)).mistakes


# ------------------------------------------------------------------ the campaign verify --coq runs


def test_campaign_agrees(binary: Path) -> None:
    from novikoff.extracted.campaign import run_campaign

    report = run_campaign(examples=20, seed=3, binary=binary)
    assert report.agrees, [m.request for m in report.mismatches]
    assert (
        set(report.runs)
        == {
            "perceptron",
            "pfm",
            "pdm",
            "pdm-multiple",
            "pdm-succ",
            "pdm-succ-multiple",
            "multiclass",
            "voted",
            "averaged",
        }
        and "identical" in report.summary()
    )


def test_campaign_catches_a_planted_bug_and_shrinks_it(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the reference's tie rule made strict, the campaign reports one mismatch, shrunk to
    a single sample presented once in the natural order."""
    from novikoff.extracted.campaign import run_campaign

    monkeypatch.setattr(
        reference_module, "perceptron_mistake", lambda w, z: sum(a * b for a, b in zip(w, z)) < 0
    )
    report = run_campaign(examples=20, seed=3, algorithms=("perceptron",), binary=binary)
    assert not report.agrees and "differ" in report.summary()
    (mismatch,) = report.mismatches
    assert mismatch.differences[0].startswith("update #1 differs"), mismatch.differences
    assert "samples 1\n" in mismatch.request and "order natural" in mismatch.request, mismatch.request
    assert "max_epochs 1\n" in mismatch.request, mismatch.request


# ------------------------------------------------------------------ multiclass (ZMulticlass.v)


@st.composite
def multiclass_runs(draw: st.DrawFn) -> tuple[MulticlassData, Order, int]:
    """Small K-class data (ties between class scores are frequent: small integers, zeros)."""
    m, d, k = draw(st.integers(2, 7)), draw(st.integers(1, 3)), draw(st.integers(2, 4))
    rows = [[draw(small) for _ in range(d)] for _ in range(m)]
    labels = [draw(st.integers(0, k - 1)) for _ in range(m)]
    labels[:2] = [0, 1]  # at least two classes
    bias = draw(st.sampled_from([Fraction(1), Fraction(0), Fraction(1, 2)]))
    data = MulticlassData.from_arrays(rows, labels, bias=bias)
    return data, draw(orders(m)), draw(st.integers(1, 30))


@CAMPAIGN
@given(multiclass_runs())
def test_campaign_multiclass(binary: Path, case: tuple[MulticlassData, Order, int]) -> None:
    data, order, max_epochs = case
    diff = compare_runs(data, order=order, max_epochs=max_epochs, binary=binary, algorithm="multiclass")
    request = format_request(data, order=order, max_epochs=max_epochs, algorithm="multiclass")
    assert not diff, "\n".join([*diff, request])


def test_planted_multiclass_bug_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reference that predicts the LAST maximiser (the rule is the first) disagrees."""
    from novikoff.reference import multiclass as reference_multiclass

    def last_max(W: list[list[int]], x: tuple[int, ...]) -> int:
        scores = [sum(a * b for a, b in zip(w, x)) for w in W]
        return len(scores) - 1 - scores[::-1].index(max(scores))

    monkeypatch.setattr(reference_multiclass, "predict_first_max", last_max)

    def differs(case: tuple[MulticlassData, Order, int]) -> bool:
        data, order, max_epochs = case
        return bool(
            compare_runs(data, order=order, max_epochs=max_epochs, binary=binary, algorithm="multiclass")
        )

    data, order, max_epochs = find(
        multiclass_runs(), differs, settings=settings(database=None, max_examples=500)
    )
    diff = compare_runs(data, order=order, max_epochs=max_epochs, binary=binary, algorithm="multiclass")
    assert diff[0].startswith("update #1 differs"), diff
