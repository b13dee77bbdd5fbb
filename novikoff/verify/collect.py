"""Collecting the checks of ``novikoff verify`` (every group, or those bearing on ``--only``'s ids)
and running them."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence

from novikoff.errors import InputError
from novikoff.proofs.results import Check, CheckResult, Skip
from novikoff.verify.campaigns import campaign_checks, crosshair_checks
from novikoff.verify.certificate_checks import certificate_checks
from novikoff.verify.coq import coq_checks, extracted_check
from novikoff.verify.proof_checks import proof_checks, registry_checks, spec_checks

__all__ = ["collect_checks", "run_checks"]


def collect_checks(
    only: Sequence[str] = (), full: bool = False, crosshair: bool = False, coq: bool = False
) -> list[Check]:
    """All checks; with ``only``, exactly those whose ``ids`` contain one of its spec ids
    (InputError lists the valid ids).

    Args:
        only: Spec ids (``"N3"``, ``"D1"``, ...): keep the checks that bear on one of them.
        full: The full campaigns and certificate checks (slower) instead of the quick ones.
        crosshair: Add the CrossHair contracts of the reference's integer kernels.
        coq: Add the Coq kernel's checks and the extracted program's campaign.

    Returns:
        The checks, not yet run (:func:`run_checks` runs them).

    Raises:
        InputError: An id of ``only`` is not a spec id (the message lists them).

    Examples:
        >>> checks = collect_checks(only=["L1"])
        >>> sorted({check.group for check in checks})
        ['proof', 'registry', 'spec']
        >>> all(result.ok for result in run_checks(checks))
        True
    """
    from novikoff.proofs.registry import SPEC_IDS

    unknown = [i for i in only if i not in SPEC_IDS]
    if unknown:
        raise InputError(f"--only: unknown id(s) {', '.join(unknown)}; valid ids: {', '.join(SPEC_IDS)}")
    checks = spec_checks() + registry_checks() + proof_checks()
    checks += certificate_checks(full) + campaign_checks(full)
    if crosshair:
        checks += crosshair_checks()
    if coq:
        checks += [*coq_checks(), extracted_check()]
    if only:
        checks = [c for c in checks if c.bears_on(only)]
    return checks


def run_checks(
    checks: Iterable[Check], progress: Callable[[CheckResult], None] | None = None
) -> list[CheckResult]:
    """Run every check; a check that raises fails with its message (never aborts the run).

    Args:
        checks: The checks (:func:`collect_checks`, or any :class:`Check`).
        progress: Called with each result as soon as its check has run.

    Returns:
        One result per check, in order: ``ok`` (a skip counts as ok), the seconds it took
        and, for a failure, the exception's message.

    Raises:
        KeyboardInterrupt: Only that, or another BaseException, escapes: every Exception
            a check raises is its failed result.

    Examples:
        >>> def planted() -> None:
        ...     raise AssertionError("planted")
        >>> (result,) = run_checks([Check("demo", "L1", "a check that fails", planted)])
        >>> result.ok, result.message
        (False, 'AssertionError: planted')
    """
    results = []
    for check in checks:
        start = time.perf_counter()
        try:
            check.run()
            result = CheckResult(check, True, time.perf_counter() - start)
        except Skip as exc:
            result = CheckResult(check, True, time.perf_counter() - start, str(exc), skipped=True)
        except Exception as exc:  # report, keep going
            message = f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, AssertionError):
                message += "\n" + "".join(traceback.format_exception(exc)[-3:])
            result = CheckResult(check, False, time.perf_counter() - start, message)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
