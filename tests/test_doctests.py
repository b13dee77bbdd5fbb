"""The public entry points: Google-style docstrings with a doctested example each.

An entry point is a function a user calls first (the list on docs/reference/api.md). Each
has ``Args:``, ``Returns:`` and ``Raises:`` sections and at least one ``>>>`` example, and
the examples of their modules run here (``doctest``), so they cannot drift from the code.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
API_INDEX = ROOT / "docs" / "reference" / "api.md"

ENTRY_POINTS: tuple[str, ...] = (
    "novikoff.data.dataset.Dataset.from_arrays",
    "novikoff.data.dataset.Dataset.from_fraction_rows",
    "novikoff.data.dataset.Dataset.from_integer_rows",
    "novikoff.data.readers.load_dataset",
    "novikoff.certificates.solver.certify",
    "novikoff.certificates.checker.check_certificate",
    "novikoff.reference.perceptron.run_perceptron",
    "novikoff.reference.large_margin.run_pfm",
    "novikoff.reference.large_margin.run_pdm",
    "novikoff.reference.romma.run_romma",
    "novikoff.reference.multiclass.run_multiclass",
    "novikoff.reference.pocket.run_pocket",
    "novikoff.twins.perceptron.perceptron_twin",
    "novikoff.twins.large_margin.pfm_twin",
    "novikoff.twins.large_margin.pdm_twin",
    "novikoff.prove.api.prove_bound",
    "novikoff.fuzz.falsify.falsify",
    "novikoff.fuzz.harness.check_implementation",
    "novikoff.verify.collect.collect_checks",
    "novikoff.verify.collect.run_checks",
    "novikoff.testing.parametrize_with_checks",
    "novikoff.integrations.sklearn.Perceptron",
    "novikoff.integrations.sklearn.Perceptron.fit",
    "novikoff.integrations.sklearn.PDM",
    "novikoff.integrations.sklearn.PFM",
    "novikoff.integrations.sklearn.ROMMA",
    "novikoff.integrations.sklearn.MultiClassPerceptron",
)


def resolve(dotted: str) -> tuple[object, ModuleType]:
    """The object named ``dotted`` and the module it is defined in."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        obj: object = module
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj, module
    raise AssertionError(f"{dotted}: no such module")


@pytest.mark.parametrize("dotted", ENTRY_POINTS)
def test_entry_point_has_google_sections_and_an_example(dotted: str) -> None:
    obj, _ = resolve(dotted)
    doc = inspect.getdoc(obj) or ""
    # a class documents its constructor's Args; what fit returns and raises is on fit
    sections = ("Args:", "Examples:\n    >>> ") if inspect.isclass(obj) else ("Args:", "Returns:", "Raises:")
    missing = [s for s in (*sections, "Examples:\n    >>> ") if s not in doc]
    assert not missing, f"{dotted}'s docstring lacks {missing}"


@pytest.mark.parametrize("module_name", sorted({resolve(d)[1].__name__ for d in ENTRY_POINTS}))
def test_doctests_pass(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0, f"{module_name}: no doctest ran"
    assert result.failed == 0, f"{module_name}: {result.failed} of {result.attempted} doctest lines failed"


def test_api_index_lists_every_entry_point() -> None:
    text = API_INDEX.read_text(encoding="utf-8")
    # an inherited method (the estimators' fit) is not rendered apart: its class is linked
    absent = [d for d in ENTRY_POINTS if f"][{d}]" not in text and f"][{d.rsplit('.', 1)[0]}]" not in text]
    assert not absent, f"docs/reference/api.md does not link these entry points: {absent}"


def test_a_failing_example_fails() -> None:
    """The harness above would see a wrong example: doctest reports it as a failure."""

    def wrong() -> None:
        """>>> 1 + 1
        3
        """

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(verbose=False)
    for test in finder.find(wrong, "wrong", globs={}):
        runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
