"""The ``coq`` checks of ``novikoff verify`` (Coq's kernel, one check per spec id) and the
``extracted`` check (the program extracted from Coq against the Python reference), with what the
reports show of them (the JSON ``"coq"`` section, the kernel column)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from novikoff.proofs.results import Check, CheckResult, Skip

__all__ = ["CoqCheck", "coq_checks", "coq_section", "extracted_check", "kernel_column"]


@dataclass(frozen=True)
class CoqCheck(Check):
    """A ``coq`` check; ``state["report"]`` holds the shared :class:`CoqReport` once built."""

    state: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


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


def kernel_column(results: Sequence[CheckResult]) -> dict[str, str]:
    """Per id with a ``coq`` check: kernel-checked, FAILED, or why not (skip message)."""
    out = {}
    for r in results:
        if r.check.group == "coq":
            out[r.check.spec_id] = "FAILED" if not r.ok else (r.message if r.skipped else "kernel-checked")
    return out
