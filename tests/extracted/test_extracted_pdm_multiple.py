"""PDM with multiple updates extracted from Coq against the Python reference.

``ZPdmMultiple.zpdm_mu_correct`` proves the extracted loop equal to ``pdm_mu_run``, PDM(eps)
whose every mistake adds the pattern ``LargeMargin.mu_count`` times (the PDM paper's
multiple updates; the count floor(root) + 1 of a real root, ``zmu_count_R``: computed by an
integer square root). Here ``run_pdm(..., multiple_updates=True)`` must make the same run:
the same weights, the same updated indices (each repeated as often as it was added), the
same count, epochs and convergence. A reference whose count is one too large must be
caught, with the minimal dataset. Skipped when coqc, ocamlfind or Zarith is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import groupby, pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.extracted import ExtractedError, compare_runs, run_extracted, unavailable
from novikoff.extracted.build import build
from novikoff.extracted.runner import format_request
from novikoff.reference import large_margin_rules
from novikoff.runtime.runs import Order

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"extracted program not buildable: {REASON}")

CAMPAIGN = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ALGORITHM = "pdm-multiple"


@pytest.fixture(scope="module")
def binary() -> Path:
    return build().binary


small = st.integers(-3, 3).map(Fraction) | st.fractions(min_value=-2, max_value=2, max_denominator=6)
epsilons = st.fractions(min_value=0, max_value=1, max_denominator=6).filter(lambda e: e > 0)


@st.composite
def runs(draw: st.DrawFn) -> tuple[Dataset, Order, int, Fraction]:
    """Small exact datasets with a nonzero bias (so every pattern z_i = y_i (x_i, rho) is
    nonzero), every order kind, runs cut by the epoch limit, eps in (0, 1]."""
    m, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    rows = [[draw(small) for _ in range(d)] for _ in range(m)]
    labels = [draw(st.sampled_from([-1, 1])) for _ in range(m)]
    bias = draw(st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(3)]))
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
    return ds, order, draw(st.integers(1, 30)), draw(epsilons)


def _diff(case: tuple[Dataset, Order, int, Fraction], binary: Path) -> list[str]:
    ds, order, max_epochs, eps = case
    return compare_runs(
        ds, order=order, max_epochs=max_epochs, binary=binary, algorithm=ALGORITHM, parameter=eps
    )


def _request(case: tuple[Dataset, Order, int, Fraction]) -> str:
    ds, order, max_epochs, eps = case
    return format_request(ds, order=order, max_epochs=max_epochs, algorithm=ALGORITHM, parameter=eps)


@CAMPAIGN
@given(runs())
def test_campaign(binary: Path, case: tuple[Dataset, Order, int, Fraction]) -> None:
    diff = _diff(case, binary)
    assert not diff, "\n".join([*diff, _request(case)])


@pytest.mark.parametrize("eps", [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2), Fraction(1)])
@pytest.mark.parametrize("name", ["exercise-6.1", "seed-6.6:3", "seed-6.9", "xor", "t1:12"])
def test_shipped_examples(binary: Path, name: str, eps: Fraction) -> None:
    diff = compare_runs(load_example(name), max_epochs=200, binary=binary, algorithm=ALGORITHM, parameter=eps)
    assert diff == [], diff


def _first_epoch(trace: tuple[int, ...]) -> tuple[int, ...]:
    """The updates of the first epoch of a natural-order run: the trace up to its first
    decrease (the epoch presents 0, 1, ..., m - 1)."""
    j = next((j for j in range(1, len(trace)) if trace[j] < trace[j - 1]), len(trace))
    return trace[:j]


def test_multiple_updates_happen(binary: Path) -> None:
    """In its first (natural-order) epoch plain PDM updates on increasing indices, once per
    presentation; with multiple updates seed-6.6:3 at eps = 1/6 repeats one there, and its
    count differs from plain PDM's."""
    ds = load_example("seed-6.6:3")
    multi = run_extracted(ds, binary=binary, algorithm=ALGORITHM, parameter=Fraction(1, 6))
    plain = run_extracted(ds, binary=binary, algorithm="pdm", parameter=Fraction(1, 6))
    first, once = _first_epoch(multi.update_indices), _first_epoch(plain.update_indices)
    assert all(a < b for a, b in pairwise(once)), once
    assert max(len(list(g)) for _, g in groupby(first)) >= 2, first
    assert multi.mistakes == len(multi.update_indices) != plain.mistakes


def test_a_zero_pattern_is_unsupported(binary: Path) -> None:
    """x = 0 with rho = 0: z = 0, no count exists (the condition never fails)."""
    ds = Dataset.from_fraction_rows([[Fraction(0)], [Fraction(1)]], [1, -1], bias=0)
    with pytest.raises(ExtractedError, match="zero pattern"):
        run_extracted(ds, binary=binary, algorithm=ALGORITHM, parameter=Fraction(1, 2))


# ------------------------------------------------------------------ a planted bug


def _one_too_many(
    real: Callable[[large_margin_rules.PDMRule, int], Callable[[int, int, int, int], int | None]],
) -> Callable[[large_margin_rules.PDMRule, int], Callable[[int, int, int, int], int | None]]:
    def planted(rule: large_margin_rules.PDMRule, s: int) -> Callable[[int, int, int, int], int | None]:
        count = real(rule, s)

        def wrong(t: int, p: int, q: int, w2: int) -> int | None:
            n = count(t, p, q, w2)
            return None if n is None else n + (n >= 2)  # a multiple update one too long

        return wrong

    return planted


def test_planted_count_bug_is_caught(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = large_margin_rules.PDMRule.repeat_count_function
    monkeypatch.setattr(large_margin_rules.PDMRule, "repeat_count_function", _one_too_many(real))
    # derandomized: the same search and shrink on every machine (CI profile or not)
    case = find(
        runs(),
        lambda c: bool(_diff(c, binary)),
        settings=settings(database=None, max_examples=1000, derandomize=True),
    )
    diff = _diff(case, binary)
    print("minimal dataset:\n" + _request(case))
    assert diff[0].startswith("update #"), diff
    assert case[0].n_samples <= 2, _request(case)


def test_campaign_catches_the_planted_bug(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from novikoff.extracted.campaign import run_campaign

    real = large_margin_rules.PDMRule.repeat_count_function
    monkeypatch.setattr(large_margin_rules.PDMRule, "repeat_count_function", _one_too_many(real))
    report = run_campaign(examples=30, seed=2, algorithms=(ALGORITHM,), binary=binary)
    (mismatch,) = report.mismatches
    assert mismatch.differences[0].startswith("update #"), mismatch.differences
    assert "algorithm pdm-multiple" in mismatch.request and "order natural" in mismatch.request


# ------------------------------------------------------------------ PDM-succ with multiple updates

SUCC = "pdm-succ-multiple"


@CAMPAIGN
@given(runs(), st.lists(epsilons, min_size=1, max_size=3, unique=True))
def test_campaign_succ(binary: Path, case: tuple[Dataset, Order, int, Fraction], eps: list[Fraction]) -> None:
    """Stages eps_1 > ... > eps_final with multiple updates, max_epochs per stage:
    ``run_pdm_succ(..., multiple_updates=True)`` (ZPdmMultiple.zmu_succ_correct)."""
    ds, order, max_epochs, _ = case
    epss = sorted(eps, reverse=True)
    diff = compare_runs(ds, order=order, max_epochs=max_epochs, binary=binary, algorithm=SUCC, parameter=epss)
    request = format_request(ds, order=order, max_epochs=max_epochs, algorithm=SUCC, parameter=epss)
    assert not diff, "\n".join([*diff, request])


def test_succ_of_one_stage_is_pdm_multiple(binary: Path) -> None:
    ds = load_example("seed-6.6:3")
    one = run_extracted(ds, binary=binary, algorithm=SUCC, parameter=[Fraction(1, 6)])
    assert one == run_extracted(ds, binary=binary, algorithm=ALGORITHM, parameter=Fraction(1, 6))
    single = run_extracted(
        ds, binary=binary, algorithm="pdm-succ", parameter=[Fraction(1, 2), Fraction(1, 6)]
    )
    multi = run_extracted(ds, binary=binary, algorithm=SUCC, parameter=[Fraction(1, 2), Fraction(1, 6)])
    assert multi.update_indices != single.update_indices and multi.converged


def test_planted_count_bug_is_caught_in_succ(binary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = large_margin_rules.PDMRule.repeat_count_function
    monkeypatch.setattr(large_margin_rules.PDMRule, "repeat_count_function", _one_too_many(real))
    diff = compare_runs(
        load_example("seed-6.6:3"), binary=binary, algorithm=SUCC, parameter=[Fraction(1, 2), Fraction(1, 6)]
    )
    assert diff and diff[0].startswith("update #"), diff
