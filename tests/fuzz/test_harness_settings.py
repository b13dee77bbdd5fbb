"""The harness under the user's Hypothesis settings: profile (max_examples, database,
deadline), seed, a non-callable refused, expected failures per check, floats printed as
floats with the exact value beside."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, settings
from hypothesis.database import InMemoryExampleDatabase

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.checks import CHECKS
from novikoff.fuzz.harness import DEFAULT_EXAMPLES, Finding, check_settings, family_check, float_with_exact
from novikoff.fuzz.registry import lookup
from novikoff.testing import as_assertion, check_ids, parametrize_with_checks
from tests.impls import perceptrons
from tests.impls import semantics as semantics_impls

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

FAMILY = "separable, exactly representable"
FAMILY_ID = "float-exact separable"


@pytest.fixture
def profile() -> Iterator[Any]:
    """Load a profile for one test and restore the previous one after it."""
    previous = settings.get_current_profile_name()
    names: list[str] = []

    def load(**kwargs: Any) -> None:
        name = f"novikoff-test-{len(names)}-{id(kwargs)}"
        settings.register_profile(name, **kwargs)
        settings.load_profile(name)
        names.append(name)

    yield load
    settings.load_profile(previous)


class Seen:
    """The inputs ``fit`` was called with, recorded in a file: the calls run in a worker
    process, whose memory the test does not see."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.write_text("")

    def __len__(self) -> int:
        return len(self.inputs())

    def inputs(self) -> list[str]:
        return self.path.read_text().splitlines()


_counter = itertools.count()


def counting(fit: Any, tmp_path: Path) -> tuple[Any, Seen]:
    seen = Seen(tmp_path / f"calls-{next(_counter)}.txt")

    def wrapped(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
        with open(seen.path, "a") as out:
            out.write(np.asarray(X).tobytes().hex() + "\n")
        return fit(X, y, max_epochs=max_epochs, order=order)

    return wrapped, seen


def test_the_profile_sets_examples_deadline_and_database(profile: Any, tmp_path: Path) -> None:
    db = InMemoryExampleDatabase()
    profile(max_examples=4, deadline=12_345, database=db, derandomize=False)
    current = check_settings()
    assert current.max_examples == 4 and current.database is db
    assert current.deadline is not None and current.deadline.total_seconds() == 12.345
    assert check_settings(examples=7).max_examples == 7  # an explicit budget wins
    fit, seen = counting(perceptrons.correct, tmp_path)
    family_check(fit, FAMILY)()
    assert len(seen) == 4


def test_failures_are_stored_in_the_profiles_database_and_replayed(profile: Any, tmp_path: Path) -> None:
    db = InMemoryExampleDatabase()
    profile(max_examples=20, database=db, deadline=None)
    with pytest.raises(AssertionError, match=r"\[error\]"):
        family_check(perceptrons.raises, FAMILY)()
    assert any(db.data.values())  # the shrunk failure is saved where the user's profile says
    fit, seen = counting(perceptrons.raises, tmp_path)
    with pytest.raises(AssertionError):
        family_check(fit, FAMILY)()
    assert len(seen) >= 1


def test_a_seed_or_a_derandomized_profile_repeats_the_examples(profile: Any, tmp_path: Path) -> None:
    profile(max_examples=5, database=None, deadline=None, derandomize=True)
    runs = []
    for _ in range(2):
        fit, seen = counting(perceptrons.correct, tmp_path)
        family_check(fit, FAMILY)()
        runs.append(seen.inputs())
    assert runs[0] == runs[1]
    profile(max_examples=5, database=None, deadline=None, derandomize=False)
    seeded = []
    for _ in range(2):
        fit, seen = counting(perceptrons.correct, tmp_path)
        family_check(fit, FAMILY, seed_value=1234)()
        seeded.append(seen.inputs())
    assert seeded[0] == seeded[1]


def test_a_non_callable_is_refused_clearly() -> None:
    with pytest.raises(TypeError, match=r"expected one callable .* got list"):
        parametrize_with_checks([perceptrons.correct, perceptrons.twin])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got str"):
        family_check("mymodule:fit", FAMILY)  # type: ignore[arg-type]


def test_expected_failures_per_check() -> None:
    mark = parametrize_with_checks(
        perceptrons.raises,
        examples=3,
        xfail={
            "check_weight_direction": "raises on purpose",
            "general float-check_epoch_count": "only this one",
        },
    )
    params = {p.id: p for p in mark.args[1]}
    assert list(params) == check_ids()
    xfailed = {name: p.marks[0].kwargs for name, p in params.items() if p.marks}
    families = [f.id for f in lookup("perceptron").data_families]
    assert families[:3] == ["float-exact separable", "float-exact non-separable", "general float"]
    assert set(xfailed) == {f"{f}-check_weight_direction" for f in families} | {
        "general float-check_epoch_count"
    }
    assert all(kw["strict"] for kw in xfailed.values())
    assert xfailed["general float-check_epoch_count"]["reason"] == "only this one"
    assert xfailed["float-exact separable-check_weight_direction"]["reason"] == "raises on purpose"
    with pytest.raises(InputError, match=r"unknown check.*'nope'.*checks: check_"):
        parametrize_with_checks(perceptrons.correct, xfail={"nope": "why"})
    with pytest.raises(
        InputError,
        match=r"algorithm 'nope': expected one of perceptron, pdm, pfm, averaged, voted, multiclass",
    ):
        parametrize_with_checks(perceptrons.correct, "nope")


@parametrize_with_checks(
    perceptrons.raises,
    "pdm",  # the mechanism on PDM's three families (the perceptron's six cost twice the CI time)
    examples=3,
    xfail={c.name: "raises on every call" for c in CHECKS},
)
def test_xfail_checks_run_as_strict_expected_failures(check: Callable[[], None]) -> None:
    check()


def test_floats_print_as_floats_with_the_exact_value_beside() -> None:
    assert float_with_exact(Fraction(1, 2)) == "0.5"
    assert float_with_exact(Fraction(3)) == "3.0"
    assert float_with_exact(Fraction(0.1)) == "0.1 (exact 3602879701896397/36028797018963968)"
    assert float_with_exact(Fraction(1, 3)).startswith("0.3333333333333333 (exact 1/3)")
    assert "inf" not in float_with_exact(Fraction(10**400))  # beyond float64: the exact value only
    ds = Dataset.from_fraction_rows([[Fraction(0.1), Fraction(2)]], [1], bias=1)
    text = Finding("bug", FAMILY, "differs", ds, None, 10).describe()
    assert "x_0 = (0.1 (exact 3602879701896397/36028797018963968), 2.0)" in text


# --- defaults for slow implementations, grouped exceptions, expectations per family ------------


def test_the_default_profile_gets_no_deadline_and_a_stated_budget(profile: Any) -> None:
    # Hypothesis' own defaults (100 examples, a 200 ms deadline, every phase), not those of the
    # profile the suite runs under (CI's sets 60 examples)
    profile(parent=settings.get_profile("default"))
    current = check_settings()
    assert current.max_examples == DEFAULT_EXAMPLES == 20 and current.deadline is None
    assert Phase.explain not in current.phases and Phase.shrink in current.phases
    profile(max_examples=7, deadline=None)
    assert check_settings().max_examples == 7  # a profile that sets a budget keeps it


def wrong_or_raising(X: np.ndarray, y: np.ndarray, max_epochs: int = 1000, order: Any = None) -> Any:
    """Raises on more than two samples, returns wrong weights otherwise: a bug and an error."""
    if len(y) > 2:
        raise RuntimeError("too many samples")
    return -np.asarray(perceptrons.correct(X, y, max_epochs, order)["weights"]) - 1


def test_a_bug_and_an_error_together_are_one_expected_failure(profile: Any) -> None:
    profile(max_examples=30, database=None, deadline=None)
    mark = parametrize_with_checks(
        wrong_or_raising, seed=5, checks=["check_weight_direction"], xfail={FAMILY_ID: "two kinds of failure"}
    )
    param = next(p for p in mark.args[1] if p.id == f"{FAMILY_ID}-check_weight_direction")
    assert param.marks[0].kwargs == {
        "reason": "two kinds of failure",
        "strict": True,
        "raises": AssertionError,
    }
    with pytest.raises(BaseExceptionGroup) as raw:  # what Hypothesis raises: both findings
        family_check(wrong_or_raising, FAMILY, seed_value=5)()
    assert [type(e) for e in raw.value.exceptions] == [AssertionError, AssertionError]
    with pytest.raises(AssertionError, match=r"^2 findings:") as caught:  # what the xfail sees
        param.values[0]()
    text = str(caught.value)
    assert "[bug]" in text and "[error]" in text and "fit raised RuntimeError: too many samples" in text
    mixed = BaseExceptionGroup("two", [AssertionError("a finding"), TypeError("a harness bug")])
    assert as_assertion(mixed) is None  # not an expected failure: the test fails
    nested = BaseExceptionGroup("two", [AssertionError("a"), BaseExceptionGroup("b", [AssertionError("c")])])
    assert str(as_assertion(nested)) == "2 findings:\n\na\n\nc"


def test_expected_failures_per_family() -> None:
    mark = parametrize_with_checks(perceptrons.correct, xfail={"float-exact copies": "why"})
    xfailed = {p.id for p in mark.args[1] if p.marks}
    assert xfailed == {f"float-exact copies-{c.name}" for c in CHECKS}
    with pytest.raises(InputError, match=r"families: float-exact separable, "):
        parametrize_with_checks(perceptrons.correct, xfail={"float-exact cop": "typo"})


#: An implementation that ignores the order it is given fails exactly where orders are drawn:
#: the tie families present the natural order, and there it passes.
DRAWN_ORDERS = ("float-exact separable", "float-exact non-separable", "general float", "gordan non-separable")


@parametrize_with_checks(
    semantics_impls.ignores_order,
    examples=10,
    seed=0,
    checks=["check_updates_match_reference"],
    families=["float-exact separable", "float-exact copies", "gordan non-separable"],
    xfail={family: "it ignores the order it is given" for family in DRAWN_ORDERS},
)
def test_per_family_expectations_in_a_real_run(check: Callable[[], None]) -> None:
    check()
