"""ROMMA extracted from Coq against the Python reference (``novikoff.reference.romma``).

``ZRomma.zromma_correct`` proves the extracted loop equal to ``RommaRun.romma`` (Li and
Long 2002, the closed-form update) on the rational dataset, in the order of the
presentations it made. Here ``run_romma`` (conservative, or aggressive with eps) must make
the same run: the same weights, updated indices, update count, mistakes among the updates,
epochs, convergence and stop (none, an empty constraint set, the update limit), on
Hypothesis campaigns and the shipped examples. A reference with a typo in the closed form
must be caught, with the minimal dataset. Skipped when coqc, ocamlfind or Zarith is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from novikoff.certificates import GordanCertificate
from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.extracted import compare_runs, run_extracted, unavailable
from novikoff.extracted.build import THEOREMS, build
from novikoff.extracted.campaign import ROMMA_EXAMPLES
from novikoff.extracted.runner import format_request
from novikoff.reference import romma as reference_module
from novikoff.reference.romma import DEFAULT_MAX_UPDATES, run_romma
from novikoff.runtime.runs import Order, RunRecord

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")

CAMPAIGN = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
#: (algorithm, parameter): the conservative rule, and the aggressive one with eps
Rule = tuple[str, Fraction | None]
Case = tuple[Dataset, Order, int, Rule]


@pytest.fixture(scope="module")
def binary() -> Path:
    return build().binary


small = st.integers(-3, 3).map(Fraction) | st.fractions(min_value=-2, max_value=2, max_denominator=6)
rules: st.SearchStrategy[Rule] = st.just(("romma", None)) | st.fractions(
    min_value=0, max_value=Fraction(5, 6), max_denominator=6
).map(lambda e: ("romma-aggressive", e))


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """Small exact datasets (zeros and small integers make ties and empty constraint sets
    frequent; half separable by a rational hyperplane), every order kind, runs cut by the
    epoch limit, either rule."""
    m, d = draw(st.integers(1, 5)), draw(st.integers(1, 3))
    rows = [[draw(small) for _ in range(d)] for _ in range(m)]
    if draw(st.booleans()):
        u, b = [draw(st.integers(-2, 2)) for _ in range(d)], draw(st.integers(-1, 1))
        scored = [(r, sum(Fraction(a) * x for a, x in zip(u, r)) + b) for r in rows]
        keep = [(r, s) for r, s in scored if s != 0] or [([Fraction(1)] * d, Fraction(1))]
        ds = Dataset.from_fraction_rows([r for r, _ in keep], [1 if s > 0 else -1 for _, s in keep], bias=1)
    else:
        labels = [draw(st.sampled_from([-1, 1])) for _ in range(m)]
        bias = draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3)]))
        ds = Dataset.from_fraction_rows(rows, labels, bias=bias)
    perm = st.permutations(list(range(ds.n_samples)))
    order: Order = draw(
        st.one_of(
            st.none(),
            perm,
            st.lists(perm, min_size=1, max_size=3),
            st.integers(0, 2**31).map(lambda s: f"shuffle:{s}"),
        )
    )
    return ds, order, draw(st.integers(1, 20)), draw(rules)


def _diff(case: Case, binary: Path, reference: Callable[..., RunRecord] | None = None) -> list[str]:
    ds, order, max_epochs, (algorithm, eps) = case
    return compare_runs(
        ds,
        order=order,
        max_epochs=max_epochs,
        binary=binary,
        algorithm=algorithm,
        parameter=eps,
        reference=reference,
    )


def _request(case: Case) -> str:
    ds, order, max_epochs, (algorithm, eps) = case
    return format_request(ds, order=order, max_epochs=max_epochs, algorithm=algorithm, parameter=eps)


@CAMPAIGN
@given(cases())
def test_campaign(binary: Path, case: Case) -> None:
    diff = _diff(case, binary)
    assert not diff, "\n".join([*diff, _request(case)])


@pytest.mark.parametrize(
    "rule", [("romma", None), ("romma-aggressive", Fraction(0)), ("romma-aggressive", Fraction(1, 2))]
)
@pytest.mark.parametrize("name", ROMMA_EXAMPLES)
def test_shipped_examples(binary: Path, name: str, rule: Rule) -> None:
    algorithm, eps = rule
    diff = compare_runs(load_example(name), max_epochs=100, binary=binary, algorithm=algorithm, parameter=eps)
    assert diff == [], diff


def test_the_three_stops(binary: Path) -> None:
    """Converged (exercise 6.1), the update limit (xor: never separable, never empty) and an
    empty constraint set (z_2 = -2 z_1 without a bias): each as the reference says."""
    ex = run_extracted(load_example("exercise-6.1"), binary=binary, algorithm="romma")
    assert ex.converged and ex.stopped == "none"
    xor = run_extracted(load_example("xor"), binary=binary, algorithm="romma", max_epochs=100)
    assert xor.stopped == "limit" and xor.mistakes == DEFAULT_MAX_UPDATES and not xor.converged
    opposite = Dataset.from_fraction_rows([[Fraction(1)], [Fraction(2)]], [1, -1], bias=0)
    run = run_extracted(opposite, binary=binary, algorithm="romma")
    ref = run_romma(opposite)
    assert run.stopped == "empty" and "no common point" in ref.stopped
    assert run.update_indices == (0,) == tuple(ref.update_indices) and run.weights == (Fraction(1),)


def test_mistakes_are_the_updates_on_nonpositive_margins(binary: Path) -> None:
    """The aggressive rule also updates on 0 < w.z < 1 - eps: fewer mistakes than updates."""
    ds = load_example("exercise-6.1")
    aggressive = run_extracted(ds, binary=binary, algorithm="romma-aggressive", parameter=Fraction(0))
    assert aggressive.romma_mistakes is not None and aggressive.romma_mistakes < aggressive.mistakes
    assert aggressive.romma_mistakes == run_romma(ds, aggressive=True).mistake_count


def test_correctness_theorem_is_printed() -> None:
    assert "zromma_correct" in THEOREMS
    text = build().assumptions
    assert "Admitted" not in text and "admit" not in text


# ------------------------------------------------------------------ a planted bug


def _typo_step(norm2: Fraction, p: Fraction, q: Fraction) -> tuple[str, Fraction, Fraction] | None:
    """The reference's closed form with a typo: a = q l - p where q l - p^2 is meant."""
    step = real_step(norm2, p, q)
    if step is None or step[0] != "both":
        return step
    a = q * norm2 - p
    return "both", (q * norm2 - p) / a, norm2 * (1 - p) / a


real_step = reference_module.romma_step


def test_planted_closed_form_typo_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference_module, "romma_step", _typo_step)
    # derandomized: the same search and shrink on every machine (CI profile or not)
    case = find(
        cases(),
        lambda c: bool(_diff(c, binary, typo)),
        settings=settings(database=None, max_examples=1000, derandomize=True),
    )
    diff = _diff(case, binary, typo)
    print("minimal dataset:\n" + _request(case))
    assert any(d.startswith("weights") or d.startswith("update #") for d in diff), diff
    assert case[0].n_samples <= 2, _request(case)


def test_campaign_catches_the_planted_typo(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from novikoff.extracted.campaign import run_campaign

    monkeypatch.setattr(reference_module, "romma_step", _typo_step)
    report = run_campaign(examples=30, seed=1, algorithms=("romma",), binary=binary, reference=typo)
    (mismatch,) = report.mismatches
    assert "algorithm romma" in mismatch.request, mismatch.request
    print("minimal dataset:\n" + mismatch.request)


def typo(ds: Dataset, *args: object, order: Order = None, max_epochs: int = 1000) -> RunRecord:
    """The reference (with the typo planted) without its invariant checks, which would
    reject the typo'd weights on separable data: a certificate that certifies nothing."""
    no_checks = object.__new__(GordanCertificate)
    eps = args[0] if args else 0
    return run_romma(
        ds, aggressive=bool(args), eps=eps, order=order, max_epochs=max_epochs, certificate=no_checks
    )
