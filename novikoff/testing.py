"""Test your own perceptron against novikoff's exact reference, inside your pytest suite.

::

    from novikoff.testing import parametrize_with_checks

    @parametrize_with_checks(my_fit)
    def test_my_perceptron(check):
        check()

yields one test per (data family, check), e.g.
``test_my_perceptron[float-exact separable-check_weight_direction]``: each is a
Hypothesis test that draws examples of that family, runs ``my_fit`` and the exact
reference, and asserts that one property (:data:`novikoff.fuzz.checks.CHECKS`). A
failure is shrunk by Hypothesis and printed exactly, with every number of the dataset.
The implementation contract is :mod:`novikoff.fuzz.contract`'s (the same as
``novikoff diff``'s).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from novikoff.errors import InputError
from novikoff.fuzz.checks import CHECKS, Check
from novikoff.fuzz.contract import FitFunction
from novikoff.fuzz.harness import family_check, require_callable
from novikoff.fuzz.registry import lookup

__all__ = ["check_ids", "checks_markdown", "parametrize_with_checks"]


def check_ids(algorithm: str = "perceptron", checks: Sequence[Check] | None = None) -> list[str]:
    """The test ids :func:`parametrize_with_checks` yields for ``algorithm``, in order:
    ``"<family id>-<check name>"`` for every data family and check (by default the
    algorithm's own checks, :attr:`novikoff.fuzz.registry.Algorithm.checks`)."""
    algo = lookup(algorithm)
    chosen = algo.checks if checks is None else checks
    return [f"{fam.id}-{c.name}" for fam in algo.data_families for c in chosen]


def _one_check(
    fit: FitFunction,
    family: str,
    check: Check,
    examples: int | None,
    seed: int | None,
    algorithm: str,
) -> Callable[[], None]:
    run = family_check(fit, family, examples, seed, algorithm, checks=(check,))

    def test() -> None:
        import pytest

        outcome = run()
        if outcome.examples and not outcome.reported.get(check.name):
            pytest.skip(f"{check.name}: the implementation never reported {check.reports!r}")

    test.__name__ = check.name
    test.__doc__ = check.function.__doc__
    return test


def parametrize_with_checks(
    implementation: FitFunction,
    algorithm: str = "perceptron",
    *,
    examples: int | None = None,
    seed: int | None = None,
    xfail: Mapping[str, str] | None = None,
    checks: Sequence[str] | None = None,
) -> Any:
    """A ``pytest.mark.parametrize`` decorator over the parameter ``check``: one test per
    (data family of ``algorithm``, check), with id ``"<family id>-<check name>"``
    (:func:`check_ids`).

    Each test is a Hypothesis test run under the active settings profile (its
    ``max_examples`` unless ``examples`` is given, its database, deadline and seeding;
    ``seed`` fixes the seed). A check whose quantity the implementation never reported
    (say ``updates``) is skipped, saying so. The checks are the algorithm's own (the voted
    perceptron adds its vote's); ``checks`` restricts them by name.
    ``xfail`` maps a check name (all its families) or a full test id to the reason it is
    expected to fail: a strict xfail, so it must fail. An unknown algorithm, check name or
    xfail key is an InputError listing the valid ones; a non-callable ``implementation``
    (e.g. a list of them) is a TypeError.
    """
    import pytest

    require_callable(implementation, "parametrize_with_checks")
    algo = lookup(algorithm)
    registered = {c.name: c for c in algo.checks}  # e.g. the voted perceptron's vote checks too
    if checks is not None:
        unknown = [n for n in checks if n not in registered]
        if unknown:
            raise InputError(
                f"checks: unknown {', '.join(map(repr, unknown))}; checks: {', '.join(registered)}"
            )
    chosen = algo.checks if checks is None else tuple(registered[n] for n in checks)
    ids = check_ids(algo.name, chosen)
    expected = dict(xfail or {})
    bad = [k for k in expected if k not in ids and k not in registered]
    if bad:
        raise InputError(
            f"xfail: unknown check(s) {', '.join(map(repr, bad))}; checks: {', '.join(registered)} "
            f"(or a test id such as {ids[0]!r})"
        )
    params = []
    for fam in algo.data_families:
        for check in chosen:
            test_id = f"{fam.id}-{check.name}"
            reason = expected.get(test_id, expected.get(check.name))
            marks = [pytest.mark.xfail(reason=reason, strict=True, raises=AssertionError)] if reason else []
            test = _one_check(implementation, fam.name, check, examples, seed, algo.name)
            params.append(pytest.param(test, marks=marks, id=test_id))
    return pytest.mark.parametrize("check", params)


def checks_markdown() -> str:
    """The registered checks as a Markdown list, ``- `name`: first docstring line``, in
    :data:`~novikoff.fuzz.checks.CHECKS` order (the docs page embeds it)."""
    lines = []
    for c in CHECKS:
        doc = " ".join((c.function.__doc__ or "").split())
        first = doc.split(". ")[0].rstrip(".") + "."
        lines.append(f"- `{c.name}`: {first}")
    return "\n".join(lines)
