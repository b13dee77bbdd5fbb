"""The voted and averaged perceptrons extracted from Coq against the Python reference.

``ZVoted.zvoted_correct`` proves the extracted voters equal to ``VotedRun.voted`` and
``ZAveraged.zaveraged_correct`` the extracted sum equal to ``AveragedRun.averaged_sum``
(Freund and Schapire 1999, section 3), both over the epochs the extracted perceptron ran;
here ``novikoff.reference.averaged`` must give the same voters (vectors and survival
counts, in order), the same averaged weights and the same run. A reference with its
survival counts shifted by one presentation must be caught, with the minimal dataset.
Skipped, with the reason, when coqc, ocamlfind or Zarith is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.extracted import compare_runs, run_extracted, unavailable
from novikoff.extracted.build import build
from novikoff.extracted.runner import format_request
from novikoff.reference import averaged as reference_averaged
from novikoff.runtime.runs import Order

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")

CAMPAIGN = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ALGORITHMS = ("voted", "averaged")


@pytest.fixture(scope="module")
def binary() -> Path:
    return build().binary


small = st.integers(-3, 3).map(Fraction) | st.fractions(min_value=-2, max_value=2, max_denominator=6)


@st.composite
def runs(draw: st.DrawFn) -> tuple[Dataset, Order, int]:
    """Small exact datasets (ties frequent), every order kind, runs cut by the epoch limit."""
    m, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    rows = [[draw(small) for _ in range(d)] for _ in range(m)]
    labels = [draw(st.sampled_from([-1, 1])) for _ in range(m)]
    bias = draw(st.sampled_from([Fraction(1), Fraction(0), Fraction(1, 2), Fraction(3)]))
    ds = Dataset.from_fraction_rows(rows, labels, bias=bias)
    perm = st.permutations(list(range(m)))
    order: Order = draw(
        st.one_of(
            st.none(),
            perm,
            st.lists(perm, min_size=1, max_size=3),
            st.integers(0, 2**31).map(lambda s: f"shuffle:{s}"),
        )
    )
    return ds, order, draw(st.integers(1, 30))


def _report(case: tuple[Dataset, Order, int], algorithm: str, diff: Sequence[str]) -> str:
    ds, order, max_epochs = case
    return "\n".join([*diff, format_request(ds, order=order, max_epochs=max_epochs, algorithm=algorithm)])


@CAMPAIGN
@given(runs())
def test_campaign_voted(binary: Path, case: tuple[Dataset, Order, int]) -> None:
    ds, order, max_epochs = case
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="voted")
    assert not diff, _report(case, "voted", diff)


@CAMPAIGN
@given(runs())
def test_campaign_averaged(binary: Path, case: tuple[Dataset, Order, int]) -> None:
    ds, order, max_epochs = case
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="averaged")
    assert not diff, _report(case, "averaged", diff)


@CAMPAIGN
@given(runs())
def test_extracted_average_is_the_voters_average(binary: Path, case: tuple[Dataset, Order, int]) -> None:
    """The two extracted programs agree with each other (AveragedRun.averaged_sum_voted):
    w_avg = sum_j c_j w_j / sum_j c_j, sum_j c_j = epochs m, the last voter the final
    weights, and voter j + 1 is voter j plus the pattern of update j."""
    ds, order, max_epochs = case
    voted = run_extracted(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="voted")
    averaged = run_extracted(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm="averaged")
    plain = run_extracted(ds, order=order, max_epochs=max_epochs, binary=binary)
    assert voted.voters is not None and averaged.voters is None
    n = sum(c for _, c in voted.voters)
    assert n == plain.epochs * ds.n_samples and len(voted.voters) == plain.mistakes + 1
    assert voted.voters[-1][0] == plain.weights == voted.weights
    assert all(v == 0 for v in voted.voters[0][0]) and voted.voters[0][1] == 0
    total = [sum((c * w[t] for w, c in voted.voters), Fraction(0)) for t in range(len(plain.weights))]
    assert averaged.weights == tuple(v / n for v in total)
    assert (averaged.update_indices, averaged.epochs) == (plain.update_indices, plain.epochs)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("name", ["exercise-6.1", "seed-6.6:3", "seed-6.9", "xor", "t1:12"])
def test_shipped_examples(binary: Path, name: str, algorithm: str) -> None:
    diff = compare_runs(load_example(name), max_epochs=200, binary=binary, algorithm=algorithm)
    assert diff == [], diff


def test_one_sample_by_hand(binary: Path) -> None:
    """x = 1, y = +1, rho = 1: the first presentation ties and updates to w = (1, 1); the
    second epoch is clean. Voters (0, 0) and (w, 2); w_avg = (2 w) / 2 = w."""
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1], bias=1)
    voted = run_extracted(ds, binary=binary, algorithm="voted")
    assert voted.voters == (((0, 0), 0), ((1, 1), 2)) and voted.epochs == 2
    assert run_extracted(ds, binary=binary, algorithm="averaged").weights == (1, 1)


# ------------------------------------------------------------------ a planted bug


def _shifted_counts(
    updates: Sequence[tuple[int, int]], m: int, epochs: int, order: Order = None
) -> tuple[int, ...]:
    """The bug: the presentation that updates is counted for the OLD vector."""
    real = _REAL_COUNTS(updates, m, epochs, order)
    return (real[0] + 1, *real[1:-1], real[-1] - 1) if len(real) > 1 else real


_REAL_COUNTS = reference_averaged.survival_counts


@pytest.mark.parametrize(("algorithm", "first"), [("voted", "voter #0 differs"), ("averaged", "weights:")])
def test_planted_count_bug_is_caught(
    binary: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str, first: str
) -> None:
    """With the survival counts shifted by one presentation the reference disagrees; Hypothesis
    shrinks the dataset to one sample, one epoch (where the counts are (0, 1))."""
    monkeypatch.setattr(reference_averaged, "survival_counts", _shifted_counts)

    def differs(case: tuple[Dataset, Order, int]) -> bool:
        ds, order, max_epochs = case
        return bool(compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm=algorithm))

    case = find(runs(), differs, settings=settings(database=None, max_examples=500))
    ds, order, max_epochs = case
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm=algorithm)
    print("minimal dataset:\n" + _report(case, algorithm, diff))
    assert diff[0].startswith(first), diff
    assert ds.n_samples == 1 and max_epochs == 1, _report(case, algorithm, diff)


def test_campaign_catches_the_planted_bug(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from novikoff.extracted.campaign import run_campaign

    monkeypatch.setattr(reference_averaged, "survival_counts", _shifted_counts)
    report = run_campaign(examples=10, seed=1, algorithms=ALGORITHMS, binary=binary)
    assert len(report.mismatches) == 2, report.summary()
    voted, averaged = report.mismatches
    assert voted.differences[0].startswith("voter #0") and averaged.differences[0].startswith("weights:")
    assert all("samples 1\n" in m.request and "max_epochs 1\n" in m.request for m in report.mismatches)


def test_campaign_agrees(binary: Path) -> None:
    from novikoff.extracted.campaign import run_campaign

    report = run_campaign(examples=15, seed=5, algorithms=ALGORITHMS, binary=binary)
    assert report.agrees and set(report.runs) == set(ALGORITHMS), [m.request for m in report.mismatches]


# ------------------------------------------------------------------ protocol version 2


def test_diff_command_voted_speaks_protocol_v2(binary: Path) -> None:
    """``algorithm voted`` is a version-2 request; the driver answers it in version 2 with
    its voter lines, and novikoff diff finds no bug."""
    novikoff = shutil.which("novikoff") or str(Path(sys.executable).parent / "novikoff")
    command = [novikoff, "diff", "--command", str(binary), "--algorithm", "voted", "--examples", "3"]
    proc = subprocess.run([*command, "--seed", "0"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 bugs" in proc.stdout and " 0 unsupported" in proc.stdout, proc.stdout


def test_version_2_with_other_semantics_is_unsupported(binary: Path) -> None:
    ds = Dataset.from_fraction_rows([[Fraction(1)]], [1], bias=1)
    text = format_request(ds, algorithm="voted").replace("novikoff-perceptron 1", "novikoff-perceptron 2")
    text = text.replace("precision exact\n", "precision exact\nl2 1/2\nschedule constant\n")
    proc = subprocess.run([str(binary)], input=text, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("novikoff-perceptron 2\nunsupported")
    assert "l2 1/2" in proc.stdout, proc.stdout
