"""``novikoff verify``: re-check every theorem novikoff states, as a CI regression suite.

Groups of checks, each check named, reported under one spec id and carrying ``ids``,
the set of every spec id it bears on (``--only N1`` runs every check whose ids contain
N1; the JSON lists them per check):

- ``spec``: per statement, its headline proof proves exactly that statement (ids: the
  statement's id);
- ``registry``: every spec statement has exactly one headline proof (ids: all);
- ``proof``: every proof obligation (:mod:`novikoff.proofs.registry`; ids: the theorem it
  serves and every theorem whose proof applies it as a lemma);
- ``certificate``: exact certificates and checked exact runs on built-in
  datasets (T1 for n = 1..50 plain and rotated, the seed's section 6.6 data and
  exercise 6.1, iris setosa-vs-rest, breast cancer when scikit-learn is installed);
- ``campaign``: a derandomized Hypothesis campaign of N1-N3 on exact runs;
- ``crosshair`` (only with ``--crosshair``): CrossHair on the integer kernels;
- ``coq`` (only with ``--coq``): one check per spec id, Coq's kernel
  (:func:`novikoff.coq.kernel.coq_report`: ``Statements.v`` re-printed from the spec and
  compared byte for byte, the development built in a temporary copy, an audit file typing
  each theorem as its statement and each Example as an instance of its hypotheses, and
  ``Print Assumptions`` equal to the axioms expected). An id passes only if all of that
  holds for every statement of it; an id without a Coq theorem (and none expected) is
  skipped ("not proved in Coq"), never passed; all are skipped without ``coqc``; anything
  else fails, with Coq's reason. The JSON gets a ``"coq"`` section (with the audit file)
  and the table and Markdown a kernel column.

Reports: a table (theorem, check, status, seconds), JSON, JUnit XML and
Markdown. With a baseline (a previous ``--json`` output), a check that passed
before and now fails or is missing is a regression.
"""

from __future__ import annotations

import importlib
import json
import math
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from novikoff.errors import InputError
from novikoff.proofs.results import Check, CheckResult, Skip

if TYPE_CHECKING:
    from novikoff.data.dataset import Dataset
    from novikoff.proofs.core import Obligation

__all__ = [
    "Check",
    "CheckResult",
    "Skip",
    "collect_checks",
    "coq_checks",
    "coq_section",
    "extracted_check",
    "run_checks",
    "theorem_summary",
    "to_json",
    "to_junit",
    "to_markdown",
]


@dataclass(frozen=True)
class CoqCheck(Check):
    """A ``coq`` check; ``state["report"]`` holds the shared :class:`CoqReport` once built."""

    state: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


# --------------------------------------------------------------------------- the checks


def _proof_checks() -> list[Check]:
    """One check per proof obligation; ids: the theorem it serves and every theorem whose
    proof applies it (:func:`~novikoff.proofs.registry.obligation_ids`)."""
    from novikoff.proofs.core import check_obligation
    from novikoff.proofs.registry import all_obligations, obligation_ids

    def make(ob: Obligation) -> Callable[[], None]:
        def run() -> None:
            result = check_obligation(ob)
            if not result.ok:
                raise AssertionError(result.message)

        return run

    obligations = all_obligations()
    ids = obligation_ids(obligations)
    return [Check("proof", ob.spec_id, ob.name, make(ob), ids[ob.name]) for ob in obligations]


def _spec_checks() -> list[Check]:
    """One check per spec statement: its headline obligation proves exactly that statement
    (same hypotheses and premises, conclusion and symbol domains) and checks."""
    from novikoff.proofs.core import check_obligation
    from novikoff.proofs.registry import headline_proofs
    from novikoff.proofs.statements import matches_statement

    def make(statement: Any, ob: Obligation) -> Callable[[], None]:
        def run() -> None:
            reason = matches_statement(ob, statement)
            if reason is not None:
                raise AssertionError(f"the headline proof does not prove the spec statement: {reason}")
            result = check_obligation(ob)
            if not result.ok:
                raise AssertionError(result.message)

        return run

    return [
        Check(
            "spec",
            r.spec_id,
            f"{r.spec_id} {r.statement.name}: the headline proof proves the spec statement",
            make(r.statement, r.obligation()),
        )
        for r in headline_proofs()
    ]


def _registry_checks() -> list[Check]:
    """A whole-spec check (ids: every spec id): every statement of ``THEOREMS`` has exactly
    one headline proof, from the proof module that mirrors the statement's spec module."""

    def run() -> None:
        from novikoff.proofs.registry import PROOF_MODULES, headline_proofs

        headline_proofs()  # raises unless every statement has exactly one
        for name, module in PROOF_MODULES.items():
            spec_module = importlib.import_module(f"novikoff.spec.{name}")
            own = {id(v) for v in vars(spec_module).values()}
            for r in module.headline_proofs():
                if id(r.statement) not in own:
                    raise AssertionError(
                        f"{module.__name__} proves {r.spec_id} {r.statement.name}, "
                        f"which novikoff.spec.{name} does not state"
                    )

    from novikoff.proofs.registry import SPEC_IDS

    return [
        Check(
            "registry",
            SPEC_IDS[0],
            "every spec statement has exactly one headline proof, in the mirrored proof module",
            run,
            frozenset(SPEC_IDS),
        )
    ]


def theorem_summary(results: Sequence[CheckResult]) -> dict[str, dict[str, object]]:
    """Per spec id that had ``spec`` checks: ``matches_spec`` (every statement of the id has
    a headline proof that proves exactly it and checks) and the ``scope`` of the Python
    proof where it is limited (None where it is not)."""
    from novikoff.proofs.registry import headline_proofs

    scope: dict[str, str] = {}
    for rec in headline_proofs():
        if rec.scope:
            scope.setdefault(rec.spec_id, rec.scope)
    out: dict[str, dict[str, object]] = {}
    for r in results:
        if r.check.group != "spec":
            continue
        entry = out.setdefault(r.check.spec_id, {"matches_spec": True, "statements": 0})
        entry["statements"] = int(str(entry["statements"])) + 1
        entry["matches_spec"] = bool(entry["matches_spec"]) and r.ok
        entry["scope"] = scope.get(r.check.spec_id)
    return out


def _certified_run(
    ds: Dataset, expect_separable: bool | None = None, t1_n: int | None = None, max_epochs: int = 200
) -> None:
    """Certify exactly, re-check the certificate, run the exact perceptron with N1-N3 at
    every update (up to ``max_epochs``) and replay the run with the checker."""
    from novikoff.certificates import SeparableCertificate, certify
    from novikoff.certificates.checker import check_certificate, check_run
    from novikoff.reference import run_perceptron
    from novikoff.spec import N3, T1

    cert = certify(ds)
    check_certificate(ds, cert)
    separable = isinstance(cert, SeparableCertificate)
    if expect_separable is not None and separable != expect_separable:
        raise AssertionError(f"{ds.name}: expected separable={expect_separable}")
    sep = cert if isinstance(cert, SeparableCertificate) else None
    run = run_perceptron(ds, certificate=sep, max_epochs=max_epochs)
    check_run(ds, run.updates, list(run.weights), run.epochs, run.converged)
    if sep is not None and not N3.check({"k": run.mistakes, "gamma2": sep.gamma2, "R2": sep.R2}):
        raise AssertionError(f"{ds.name}: {run.mistakes} updates exceed R^2/gamma^2")
    if t1_n is not None:
        assert sep is not None
        values: dict[str, Fraction | int] = {
            "n": t1_n,
            "k": run.mistakes,
            "R2": sep.R2 / sep.R2,
            "gamma2": sep.gamma2 / sep.R2,
        }
        if not T1.check(values) or run.mistakes != t1_n:
            raise AssertionError(f"T1 fails for n = {t1_n}: {run.mistakes} updates")


#: What a certified run checks: N1-N3 at every update (with a separating certificate).
_NOVIKOFF = frozenset({"N1", "N2", "N3"})


def _dataset_check(
    spec_id: str, name: str, load: Callable[[], Dataset], ids: frozenset[str] = _NOVIKOFF, **expect: Any
) -> Check:
    """A certificate check on the dataset ``load()`` builds when the check runs."""
    return Check("certificate", spec_id, name, lambda: _certified_run(load(), **expect), ids)


def _certificate_checks(full: bool) -> list[Check]:
    from novikoff.data.examples import exercise_6_1, seed_6_6
    from novikoff.spec.tightness import basis_dataset, rotated_basis_dataset

    checks: list[Check] = []
    tight = _NOVIKOFF | {"T1"}
    for n in range(1, 51):
        checks.append(
            _dataset_check(
                "T1", f"T1 basis n={n}", partial(basis_dataset, n), tight, expect_separable=True, t1_n=n
            )
        )
        checks.append(
            _dataset_check(
                "T1",
                f"T1 rotated n={n}",
                partial(rotated_basis_dataset, n, seed=n),
                tight,
                expect_separable=True,
                t1_n=n,
            )
        )
    for sep in (2.0, 3.0, 4.0, 5.0, 6.0):
        separable = sep != 2.0  # not separable: only the certificate of infeasibility is checked
        checks.append(
            _dataset_check(
                "N3",
                f"seed 6.6 separation {sep:g}",
                partial(seed_6_6, sep),
                _NOVIKOFF if separable else frozenset({"N3"}),
                expect_separable=separable,
            )
        )
    checks.append(_dataset_check("N3", "exercise 6.1", exercise_6_1, expect_separable=True))
    checks.append(
        _dataset_check("N3", "iris setosa vs rest", partial(_sklearn, "iris"), expect_separable=True)
    )
    wdbc_epochs = 200 if full else 3  # its margin is tiny: a long exact run, N1-N3 checked throughout
    checks.append(
        _dataset_check(
            "N3",
            f"breast cancer (wdbc), {wdbc_epochs} exact epochs",
            partial(_sklearn, "wdbc"),
            max_epochs=wdbc_epochs,
        )
    )
    return checks


def _sklearn(name: str) -> Dataset:
    try:
        from sklearn import datasets
    except ImportError:
        raise Skip("scikit-learn is not installed (pip install 'novikoff[datasets]')") from None
    from novikoff.data.dataset import Dataset

    if name == "iris":
        X, y = datasets.load_iris(return_X_y=True)
        return Dataset.from_arrays(X, y, positive=0, one_vs_rest=True, name="iris setosa-vs-rest")
    X, y = datasets.load_breast_cancer(return_X_y=True)
    return Dataset.from_arrays(X, y, name="breast cancer (wdbc)")


def _campaign_checks(full: bool) -> list[Check]:
    def run() -> None:
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        from novikoff.fuzz import certified_separable, orderings
        from novikoff.reference import run_perceptron
        from novikoff.twins.exact import exact_perceptron

        @settings(
            max_examples=300 if full else 60,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.data())
        def campaign(data: st.DataObject) -> None:
            ds, cert = data.draw(certified_separable())
            order = data.draw(orderings(ds.n_samples))
            run = run_perceptron(ds, order=order, certificate=cert, max_epochs=10_000)  # N1-N3 every update
            if not run.converged:  # N3 bounds the mistakes, hence the epochs
                raise AssertionError(f"no convergence on separable data: {ds!r}")
            fast = exact_perceptron(ds, order=order, certificate=cert, max_epochs=10_000)
            if (fast.updates, tuple(fast.weights)) != (run.updates, tuple(run.weights)):
                raise AssertionError(f"the exact fast path's run differs from the reference's: {ds!r}")

        campaign()

    return [
        Check(
            "campaign",
            "N3",
            "Hypothesis campaign: N1-N3 on exact runs, and the exact fast path equal to them (derandomized)",
            run,
            _NOVIKOFF,
        ),
        *_large_margin_campaigns(full),
    ]


def _derandomized(full: bool, examples: int) -> Any:
    from hypothesis import HealthCheck, settings

    return settings(
        max_examples=examples * (5 if full else 1),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def _large_margin_campaigns(full: bool) -> list[Check]:
    """Exact PDM/PFM runs (D3 per update, D1/D2/P1 at convergence), multiclass runs (M1 and
    the Kesler progress per update) and MSVMAv runs (S2 per iteration), derandomized."""
    from hypothesis import given
    from hypothesis import strategies as st

    def pdm() -> None:
        from novikoff.fuzz import certified_separable
        from novikoff.reference.large_margin import run_pdm

        eps = st.sampled_from([Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)])

        @_derandomized(full, 25)
        @given(certified_separable(max_samples=7, max_dim=4), eps, st.booleans())
        def campaign(pair: Any, e: Fraction, multiple: bool) -> None:
            ds, cert = pair
            run = run_pdm(ds, e, certificate=cert, multiple_updates=multiple, max_epochs=10_000)
            if not run.converged:
                raise AssertionError(f"PDM({e}) did not converge on separable data: {ds!r}")
            bad = {k: v for k, v in run.checks.items() if not v.startswith(("held", "not applicable"))}
            if bad:
                raise AssertionError(f"undecided checks {bad} on {ds!r}")

        campaign()

    def pfm() -> None:
        from novikoff.fuzz import certified_separable
        from novikoff.reference.large_margin import run_pfm

        @_derandomized(full, 20)
        @given(
            certified_separable(max_samples=6, max_dim=3), st.sampled_from([Fraction(1, 4), Fraction(3, 4)])
        )
        def campaign(pair: Any, ratio: Fraction) -> None:
            ds, cert = pair
            target = ratio * ratio * cert.gamma2 * 10**12  # beta = ratio gamma, rounded down
            beta = Fraction(math.isqrt(target.numerator // target.denominator), 10**6)
            run = run_pfm(ds, beta, certificate=cert, max_epochs=10_000)
            if not run.converged or not run.checks.get("P1", "held").startswith(("held", "not applicable")):
                raise AssertionError(f"PFM({beta}): {run.checks} on {ds!r}")

        campaign()

    def multiclass() -> None:
        from novikoff.certificates import SeparableCertificate, certify
        from novikoff.data.multiclass import MulticlassData, kesler
        from novikoff.reference.multiclass import run_multiclass

        @_derandomized(full, 20)
        @given(
            st.integers(2, 4),
            st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=8),
        )
        def campaign(K: int, points: list[tuple[int, int]]) -> None:
            labels = [(3 * x + 5 * y) % K for x, y in points]
            if len(set(labels)) < 2:
                return
            data = MulticlassData.from_arrays([list(p) for p in points], labels)
            cert = certify(kesler(data))
            run = run_multiclass(
                data, certificate=cert if isinstance(cert, SeparableCertificate) else None, max_epochs=200
            )
            if isinstance(cert, SeparableCertificate) and not run.converged:
                raise AssertionError(f"multiclass run did not converge on Kesler-separable data {points}")

        campaign()

    def msvmav() -> None:
        from novikoff.data.dataset import Dataset
        from novikoff.reference.msvmav import run_msvmav

        @_derandomized(full, 10)
        @given(
            st.lists(
                st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from([-1, 1])),
                min_size=3,
                max_size=8,
            )
        )
        def campaign(rows: list[tuple[int, int, int]]) -> None:
            ds = Dataset.from_arrays([[a, b] for a, b, _ in rows], [y for _, _, y in rows])
            try:
                run_msvmav(ds, 1, Fraction(1, 4), iterations=10)  # InvariantViolation if S2 fails
            except InputError:  # sum_i z_i = 0: w_0 undefined, nothing to check
                return

        campaign()

    return [
        Check(
            "campaign",
            "D2",
            "Hypothesis campaign: exact PDM runs, D3 per update, D1/D2 at convergence",
            pdm,
            frozenset({"D1", "D2", "D3", "MU"}),  # MU: the repeated-update count, with multiple updates
        ),
        Check(
            "campaign",
            "P1",
            "Hypothesis campaign: exact PFM runs, D3 per update, P1 at convergence",
            pfm,
            frozenset({"P1", "D3"}),
        ),
        Check(
            "campaign",
            "M1",
            "Hypothesis campaign: exact multiclass runs, M1 per update",
            multiclass,
            frozenset({"M1", "N1"}),  # N1 in the Kesler space, per update
        ),
        Check("campaign", "S2", "Hypothesis campaign: MSVMAv, Sherman-Morrison = direct inverse", msvmav),
    ]


def _crosshair_checks() -> list[Check]:
    from novikoff.proofs.contracts import KERNELS, crosshair_check

    return [
        Check("crosshair", sid, f"CrossHair: {fn}", partial(crosshair_check, fn))
        for fn, sid in KERNELS.items()
    ]


def coq_checks(timeout: float = 600.0, coq_dir: Path | None = None) -> list[Check]:
    """One ``coq`` check per spec id; the first one to run builds the development once
    (``coq_dir``: another copy of it than the package's, e.g. a tampered one in a test)."""
    from novikoff.proofs.registry import SPEC_IDS

    state: dict[str, Any] = {}

    def report() -> Any:
        if "report" not in state:
            from novikoff.coq.kernel import coq_report

            state["report"] = coq_report(timeout=timeout) if coq_dir is None else coq_report(timeout, coq_dir)
        return state["report"]

    def make(sid: str) -> Callable[[], None]:
        def run() -> None:
            rep = report()
            entry = rep.theorems.get(sid, {})
            status = str(entry.get("status", "not proved in Coq"))
            if not rep.available:
                raise Skip(status)
            if entry.get("kernel_checked"):
                return
            failed = [
                f"{n}: {e['status']}"
                for n, e in entry.get("statements", {}).items()
                if str(e["status"]).startswith("failed")
            ]
            if failed or (rep.errors and entry.get("theorem")):
                raise AssertionError("; ".join(failed or rep.errors))
            raise Skip(status)

        return run

    return [CoqCheck("coq", sid, f"{sid}: Coq kernel", make(sid), state=state) for sid in SPEC_IDS]


def extracted_check(examples: int = 10, seed: int = 0) -> Check:
    """The program extracted from Coq (``novikoff.extracted``: integer runs proved equal to the
    development's runs) against the Python reference on a seeded campaign of every algorithm it
    covers and the shipped examples; a skip, saying why, where it cannot be built. A failure
    names the first mismatch, shrunk, with its request."""

    def run() -> None:
        from novikoff.extracted import ExtractedError, unavailable
        from novikoff.extracted.campaign import run_campaign

        why = unavailable()
        if why is not None:
            raise Skip(f"the extracted program cannot be built here: {why}")
        try:
            report = run_campaign(examples=examples, seed=seed)
        except ExtractedError as exc:
            raise AssertionError(str(exc)) from None
        if not report.agrees:
            first = report.mismatches[0]
            raise AssertionError(
                f"{report.summary()}; first: {'; '.join(first.differences)}\nrequest:\n{first.request}"
            )

    from novikoff.extracted.campaign import DEFAULT_ALGORITHMS

    algorithms = ", ".join(DEFAULT_ALGORITHMS)
    name = f"the program extracted from Coq makes the Python reference's runs ({algorithms})"
    return Check("extracted", "N3", name, run, frozenset({"N3", "P1", "D1", "M1"}))


def coq_section(results: Sequence[CheckResult]) -> dict[str, object] | None:
    """The ``"coq"`` JSON section when the results include the ``coq`` checks."""
    for r in results:
        if isinstance(r.check, CoqCheck) and "report" in r.check.state:
            section: dict[str, object] = r.check.state["report"].to_json()
            return section
    return None


def _kernel_column(results: Sequence[CheckResult]) -> dict[str, str]:
    """Per id with a ``coq`` check: kernel-checked, FAILED, or why not (skip message)."""
    out = {}
    for r in results:
        if r.check.group == "coq":
            out[r.check.spec_id] = "FAILED" if not r.ok else (r.message if r.skipped else "kernel-checked")
    return out


def collect_checks(
    only: Sequence[str] = (), full: bool = False, crosshair: bool = False, coq: bool = False
) -> list[Check]:
    """All checks; with ``only``, exactly those whose ``ids`` contain one of its spec ids
    (InputError lists the valid ids)."""
    from novikoff.proofs.registry import SPEC_IDS

    unknown = [i for i in only if i not in SPEC_IDS]
    if unknown:
        raise InputError(f"--only: unknown id(s) {', '.join(unknown)}; valid ids: {', '.join(SPEC_IDS)}")
    checks = _spec_checks() + _registry_checks() + _proof_checks()
    checks += _certificate_checks(full) + _campaign_checks(full)
    if crosshair:
        checks += _crosshair_checks()
    if coq:
        checks += [*coq_checks(), extracted_check()]
    if only:
        checks = [c for c in checks if c.bears_on(only)]
    return checks


def run_checks(
    checks: Iterable[Check], progress: Callable[[CheckResult], None] | None = None
) -> list[CheckResult]:
    """Run every check; a check that raises fails with its message (never aborts the run)."""
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


# --------------------------------------------------------------------------- reports


def _status(r: CheckResult) -> str:
    return "skipped" if r.skipped else ("passed" if r.ok else "FAILED")


def ok(results: Sequence[CheckResult]) -> bool:
    """The one verdict: every check (regressions included) passed or was skipped."""
    return all(r.ok for r in results)


def _verdict(results: Sequence[CheckResult]) -> str:
    return "all checks hold" if ok(results) else "SOME CHECKS FAILED"


def to_json(results: Sequence[CheckResult]) -> dict[str, object]:
    out = _to_json(results)
    coq = coq_section(results)
    if coq is not None:
        out["coq"] = coq
    return out


def _to_json(results: Sequence[CheckResult]) -> dict[str, object]:
    return {
        "ok": ok(results),
        "regressions": [r.check.name for r in results if r.check.group == REGRESSION],
        "theorems": theorem_summary(results),
        "checks": [
            {
                "group": r.check.group,
                "id": r.check.spec_id,
                "ids": sorted(r.check.ids),
                "name": r.check.name,
                "status": _status(r),
                "seconds": round(r.seconds, 4),
                "message": r.message,
            }
            for r in results
        ],
    }


def to_junit(results: Sequence[CheckResult]) -> str:
    """JUnit XML: one testsuite per group, one testcase per check."""
    root = ET.Element(
        "testsuites",
        name="novikoff verify",
        tests=str(len(results)),
        failures=str(sum(not r.ok for r in results)),
        skipped=str(sum(r.skipped for r in results)),
    )
    for group in dict.fromkeys(r.check.group for r in results):
        rs = [r for r in results if r.check.group == group]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(rs)),
            failures=str(sum(not r.ok for r in rs)),
            skipped=str(sum(r.skipped for r in rs)),
            time=f"{sum(r.seconds for r in rs):.3f}",
        )
        for r in rs:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"novikoff.{group}.{r.check.spec_id}",
                name=r.check.name,
                time=f"{r.seconds:.3f}",
            )
            if r.skipped:
                ET.SubElement(case, "skipped", message=r.message)
            elif not r.ok:
                failure = ET.SubElement(
                    case, "failure", message=(r.message.splitlines() or ["failed"])[0][:500]
                )
                failure.text = r.message
    return ET.tostring(root, encoding="unicode")


def summary_rows(results: Sequence[CheckResult]) -> list[tuple[str, str, int, int, int, float]]:
    """Per spec id that some check bears on: (id, status, passed, failed, skipped, seconds)
    over the checks whose ``ids`` contain it (a check bearing on several ids counts in
    each of their rows). Ids in order of first appearance, a check's own ``spec_id`` first."""
    order = dict.fromkeys(r.check.spec_id for r in results)
    order.update(dict.fromkeys(sorted(i for r in results for i in r.check.ids)))
    rows = []
    for sid in order:
        rs = [r for r in results if sid in r.check.ids]
        failed = sum(not r.ok for r in rs)
        skipped = sum(r.skipped for r in rs)
        rows.append(
            (
                sid,
                "FAILED" if failed else "passed",
                len(rs) - failed - skipped,
                failed,
                skipped,
                sum(r.seconds for r in rs),
            )
        )
    return rows


def to_table(results: Sequence[CheckResult]) -> str:
    kernel = _kernel_column(results)
    col = f" {'kernel':<20}" if kernel else ""
    lines = [f"{'theorem':<8} {'status':<8} {'passed':>6} {'failed':>6} {'skipped':>7} {'seconds':>8}{col}"]
    for sid, status, ok, bad, skip, secs in summary_rows(results):
        k = f" {kernel.get(sid, '-'):<20}" if kernel else ""
        lines.append(f"{sid:<8} {status:<8} {ok:>6} {bad:>6} {skip:>7} {secs:>8.2f}{k}")
    for r in results:
        if not r.ok:
            lines.append(f"\nFAILED [{r.check.spec_id}] {r.check.name}\n  {r.message.strip()}")
    total = sum(r.seconds for r in results)
    verdict = _verdict(results)
    lines.append(
        f"\n{len(results)} checks, {sum(not r.ok for r in results)} failed, "
        f"{sum(r.skipped for r in results)} skipped, {total:.1f} s: {verdict}"
    )
    return "\n".join(lines)


_MD_SPECIAL = frozenset("\\`*_[]<>|~&")


def md_cell(text: object) -> str:
    """``text`` as one Markdown table cell that renders as exactly that text: pipes and the
    other inline-markup characters backslash-escaped, newlines as spaces."""
    flat = " ".join(str(text).split())
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in flat)


def _fence(message: str) -> str:
    """A code fence longer than any run of backticks in ``message``."""
    run = best = 0
    for ch in message:
        run = run + 1 if ch == "`" else 0
        best = max(best, run)
    return "`" * max(3, best + 1)


def to_markdown(results: Sequence[CheckResult]) -> str:
    kernel = _kernel_column(results)
    lines = [
        "# novikoff verify",
        "",
        f"**{_verdict(results)}**",
        "",
        "| theorem | status | passed | failed | skipped | seconds |" + (" kernel |" if kernel else ""),
        "|---|---|---|---|---|---|" + ("---|" if kernel else ""),
    ]
    for sid, status, ok, bad, skip, secs in summary_rows(results):
        k = f" {md_cell(kernel.get(sid, '-'))} |" if kernel else ""
        lines.append(f"| {md_cell(sid)} | {status} | {ok} | {bad} | {skip} | {secs:.2f} |{k}")
    lines += ["", "## Checks", "", "| group | theorem | check | status | seconds |", "|---|---|---|---|---|"]
    for r in results:
        lines.append(
            f"| {md_cell(r.check.group)} | {md_cell(r.check.spec_id)} | {md_cell(r.check.name)} "
            f"| {_status(r)} | {r.seconds:.3f} |"
        )
    failures = [r for r in results if not r.ok]
    if failures:
        lines += ["", "## Failures", ""]
        for r in failures:
            fence = _fence(r.message)
            title = md_cell(f"[{r.check.spec_id}] {r.check.name}")
            lines += [f"### {title}", "", fence, r.message.strip(), fence, ""]
    return "\n".join(lines) + "\n"


REGRESSION = "regression"


def regression_results(
    results: Sequence[CheckResult], baseline_path: str | Path, only: Sequence[str] = ()
) -> list[CheckResult]:
    """One failed ``regression`` result per check that passed in the baseline and now fails
    or is missing: append them to ``results`` so that every report and the exit status agree."""
    try:
        baseline = json.loads(Path(baseline_path).read_text())
        before = {
            (str(c["group"]), str(c["name"])): (str(c["id"]), frozenset(map(str, c.get("ids", [c["id"]]))))
            for c in baseline["checks"]
            if c["status"] == "passed" and (not only or not set(c.get("ids", [c["id"]])).isdisjoint(only))
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(f"--baseline {baseline_path}: not a novikoff verify --json file ({exc})") from None
    now = {(r.check.group, r.check.name): r for r in results}
    out = []
    for (group, name), (sid, ids) in sorted(before.items()):
        r = now.get((group, name))
        if r is not None and r.ok:
            continue
        what = "missing" if r is None else "now failing"
        message = f"{what}: [{group}] {name} (passed in the baseline {baseline_path})"
        check = Check(REGRESSION, sid, f"{what}: [{group}] {name}", _noop, ids)
        out.append(CheckResult(check, False, 0.0, message))
    return out


def _noop() -> None:
    return None


def regressions(
    results: Sequence[CheckResult], baseline_path: str | Path, only: Sequence[str] = ()
) -> list[str]:
    """Checks that passed in the baseline and now fail or are missing (within ``only``, if given)."""
    return [r.check.name for r in regression_results(results, baseline_path, only)]
