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

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from novikoff.errors import InputError
from novikoff.fuzz.checks import CHECKS, DiffCheck
from novikoff.fuzz.contract import DEFAULT_CALL_TIMEOUT, FitFunction
from novikoff.fuzz.harness import family_check, require_callable, select_families
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.fuzz.worker import Runner

if sys.version_info < (3, 11):  # pragma: no cover - Hypothesis depends on the backport there
    from exceptiongroup import BaseExceptionGroup

__all__ = ["as_assertion", "checks_markdown", "parametrize_with_checks", "parametrized_ids"]


def parametrized_ids(algorithm: str = "perceptron", checks: Sequence[DiffCheck] | None = None) -> list[str]:
    """The test ids :func:`parametrize_with_checks` yields for ``algorithm``, in order:
    ``"<family id>-<check name>"`` for every data family and check (by default the
    algorithm's own checks, :attr:`novikoff.fuzz.registry.Algorithm.checks`)."""
    algo = lookup(algorithm)
    chosen = algo.checks if checks is None else checks
    return [f"{fam.id}-{c.name}" for fam in algo.data_families for c in chosen]


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out += _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return out


def as_assertion(group: BaseExceptionGroup) -> AssertionError | None:
    """The AssertionError that stands for a Hypothesis ExceptionGroup whose every leaf is an
    AssertionError (several findings of one test: their texts joined), or None when some
    leaf is another exception (then the group is a failure of its own, never expected)."""
    leaves = _leaves(group)
    if not leaves or not all(isinstance(e, AssertionError) for e in leaves):
        return None
    texts = [str(e) for e in leaves]
    return AssertionError(f"{len(texts)} findings:\n\n" + "\n\n".join(texts))


def _one_check(
    fit: FitFunction | Runner,
    family: str,
    check: DiffCheck,
    examples: int | None,
    seed: int | None,
    algorithm: str,
    semantics: Semantics,
    call_timeout: float | None,
    isolate: bool,
) -> Callable[[], None]:
    run = family_check(
        fit,
        family,
        examples,
        seed,
        algorithm,
        checks=(check,),
        semantics=semantics,
        call_timeout=call_timeout,
        isolate=isolate,
    )

    def test() -> None:
        import pytest

        try:
            outcome = run()
        except BaseExceptionGroup as group:  # several findings: one AssertionError, as xfail expects
            single = as_assertion(group)
            if single is None:
                raise
            raise single from group
        if outcome.examples and not outcome.reported.get(check.name):
            pytest.skip(f"{check.name}: the implementation never reported {check.reports!r}")

    test.__name__ = check.name
    test.__doc__ = check.function.__doc__
    return test


def parametrize_with_checks(
    implementation: FitFunction | Runner,
    algorithm: str = "perceptron",
    *,
    examples: int | None = None,
    seed: int | None = None,
    xfail: Mapping[str, str] | None = None,
    checks: Sequence[str] | None = None,
    semantics: Semantics = DEFAULT,
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
    isolate: bool = True,
    families: Sequence[str] | None = None,
) -> Any:
    """A ``pytest.mark.parametrize`` decorator over the parameter ``check``: one test per
    (data family of ``algorithm``, check), with id ``"<family id>-<check name>"``
    (:func:`parametrized_ids`).

    ``implementation`` is a callable (called in a forked worker process unless
    ``isolate`` is False) or a :class:`novikoff.fuzz.worker.Runner` (a CommandRunner tests
    an executable). Each test is a Hypothesis test run under the active settings profile,
    with defaults that suit slow implementations: ``examples`` examples (default: the
    profile's ``max_examples`` when the profile changed it, else
    :data:`novikoff.fuzz.harness.DEFAULT_EXAMPLES` = 20), no deadline (unless the profile
    sets one), and at most ``call_timeout`` seconds per call (a call that hangs is one
    failure: its worker is killed and nothing else is called in that test). ``seed`` fixes
    the seed. ``semantics`` declares what the implementation does differently by design
    (:mod:`novikoff.fuzz.semantics`). A check whose quantity the implementation never
    reported (say ``updates``) is skipped, saying so. The checks are the algorithm's own
    (the voted perceptron adds its vote's); ``checks`` restricts them by name, and
    ``families`` the data families by id or name.

    ``xfail`` maps to the reason a failure is expected: a check name (all its families), a
    data family id (all its checks) or a full test id. Each is a strict xfail: the test
    must fail with an AssertionError, and a Hypothesis ExceptionGroup of AssertionErrors
    (a run that found a bug and an error) counts as one (:func:`as_assertion`); any other
    exception fails the test. An unknown algorithm, check name or xfail key is an
    InputError listing the valid ones; a non-callable ``implementation`` (e.g. a list of
    them) is a TypeError.

    Args:
        implementation: ``fit(X, y, max_epochs=..., order=...)`` returning the weights
            (bias last), or a Runner for an executable.
        algorithm: The algorithm it implements (:data:`novikoff.fuzz.registry.ALGORITHMS`).
        examples: Hypothesis examples per test.
        seed: The seed of every test (default: Hypothesis's).
        xfail: Expected failures: check name, family id or test id -> reason.
        checks: The checks to run, by name (default: all of ``algorithm``'s).
        semantics: The declared semantics of the implementation.
        call_timeout: Seconds one call may take (None: no limit).
        isolate: Call the implementation in a forked worker process.
        families: The data families, by id or name (default: all).

    Returns:
        The ``pytest.mark.parametrize("check", ...)`` decorator; each parameter is a test
        function that raises AssertionError describing the minimal failing example.

    Raises:
        InputError: An unknown algorithm, check name, family or xfail key.
        TypeError: ``implementation`` is not callable.

    Examples:
        >>> from novikoff.twins.perceptron import perceptron_twin
        >>> def fit(X, y, max_epochs=1000, order=None):
        ...     return perceptron_twin(X, y, max_epochs=max_epochs, order=order).weights
        >>> mark = parametrize_with_checks(fit, examples=5, isolate=False, checks=["check_weight_direction"])
        >>> [param.id for param in mark.args[1]][:2]
        ['float-exact separable-check_weight_direction', 'float-exact non-separable-check_weight_direction']
        >>> first_test = mark.args[1][0].values[0]
        >>> first_test()  # what pytest runs: passes silently, or raises AssertionError
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
    ids = parametrized_ids(algo.name, chosen)
    family_ids = [fam.id for fam in algo.data_families]
    expected = dict(xfail or {})
    bad = [k for k in expected if k not in ids and k not in registered and k not in family_ids]
    if bad:
        raise InputError(
            f"xfail: unknown check(s) {', '.join(map(repr, bad))}; checks: {', '.join(registered)}; "
            f"families: {', '.join(family_ids)} (or a test id such as {ids[0]!r})"
        )
    params = []
    for fam in select_families(algo.name, families):
        for check in chosen:
            test_id = f"{fam.id}-{check.name}"
            reason = expected.get(test_id, expected.get(check.name, expected.get(fam.id)))
            marks = [pytest.mark.xfail(reason=reason, strict=True, raises=AssertionError)] if reason else []
            test = _one_check(
                implementation, fam.name, check, examples, seed, algo.name, semantics, call_timeout, isolate
            )
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


#: Deprecated name of :func:`parametrized_ids` (it lists test ids; it checks nothing).
check_ids = parametrized_ids
