"""What a differential campaign reports: each :class:`Finding` (a bug, an ambiguous
difference or an error, its dataset printed exactly), the counts of each data family
(:class:`FamilyCounts`) and the campaign's :class:`Report`, which :func:`merge_reports`
joins from its families'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from novikoff.exact.rational import format_rational
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.fuzz.worker import CallOutcome, describe_outputs

__all__ = [
    "FamilyCounts",
    "Finding",
    "Report",
    "family_table",
    "float_with_exact",
    "merge_reports",
]


@dataclass
class Finding:
    """One disagreement (``kind`` is 'bug', 'ambiguous' or 'error'); ``check`` names the
    first property that failed (empty for an error) and ``others`` the further failing
    checks as (name, message); ``status`` says what an error was (``raised``, ``exit``,
    ``timeout``, ``crash``, ``protocol``, ``contract``); ``stdout``/``stderr`` are what the
    implementation printed in that call; ``hint`` names a declared semantics that explains
    the difference; ``trace`` is the reference's run around the first divergence."""

    kind: str
    family: str
    message: str
    dataset: Any  # Dataset, or MulticlassData for --algorithm multiclass
    order: Any
    max_epochs: int
    algorithm: str = "perceptron"
    value: Fraction | None = None
    check: str = ""
    status: str = ""
    stdout: str = ""
    stderr: str = ""
    others: tuple[tuple[str, str], ...] = ()
    hint: str = ""
    trace: tuple[str, ...] = ()
    initial_weights: tuple[Fraction, ...] | None = None
    semantics: Semantics = DEFAULT
    family_id: str = ""

    def describe(self) -> str:
        """The finding with its dataset printed exactly, one sample a line, every failing
        check, the hint, the reference's trace and the call's output."""
        algo = lookup(self.algorithm)
        rows = []
        for i in range(self.dataset.n_samples):
            xs = ", ".join(float_with_exact(v) for v in self.dataset.features(i))
            rows.append(f"    x_{i} = ({xs}), y = {algo.format_label(self.dataset.labels[i])}")
        order = "natural" if self.order is None else list(self.order)
        if self.semantics.order != "given":
            order = self.semantics.order
        param = "" if self.value is None else f", {algo.keyword} = {self.value}"
        bias = getattr(self.dataset, "bias", 1)
        check = f" {self.check}:" if self.check else ":"
        w0 = ""
        if self.initial_weights is not None:
            w0 = (
                ", initial weights (" + ", ".join(str(format_rational(v)) for v in self.initial_weights) + ")"
            )
        lines = [f"[{self.kind}] {self.family} ({self.algorithm}{param}){check} {self.message}"]
        lines += [f"  also failing: {name}: {message}" for name, message in self.others]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        lines.append(f"  dataset (exact, bias {bias}), order {order}, max_epochs {self.max_epochs}{w0}:")
        lines += rows
        if self.trace:
            lines.append(f"  the exact reference's run ({self.semantics.describe()}):")
            lines += ["    " + t for t in self.trace]
        lines += describe_outputs(CallOutcome(self.status or "ok", stdout=self.stdout, stderr=self.stderr))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The finding as JSON values (exact numbers as ints or "p/q" strings)."""
        return {
            "kind": self.kind,
            "family": self.family,
            "family_id": self.family_id,
            "check": self.check,
            "message": self.message,
            "status": self.status,
            "checks": [
                {"check": name, "message": message}
                for name, message in ((self.check, self.message), *self.others)
                if name
            ],
            "hint": self.hint,
            "trace": list(self.trace),
            "stdout": self.stdout,
            "stderr": self.stderr,
            "bias": format_rational(getattr(self.dataset, "bias", 1)),
            "order": None if self.order is None else list(self.order),
            "max_epochs": self.max_epochs,
            "algorithm": self.algorithm,
            "parameter": None if self.value is None else format_rational(self.value),
            "initial_weights": None
            if self.initial_weights is None
            else [format_rational(v) for v in self.initial_weights],
            "X": [
                [format_rational(v) for v in self.dataset.features(i)] for i in range(self.dataset.n_samples)
            ],
            "y": list(self.dataset.labels),
        }


def float_with_exact(value: Fraction) -> str:
    """``value`` as the float it is closest to, with the exact value beside when that float's
    shortest decimal is not exactly ``value`` (``0.1 (exact 3602879701896397/36028797018963968)``;
    ``0.5``, ``3.0`` and ``1e-300``-style exact values alone)."""
    try:
        f = float(value)
    except OverflowError:
        return str(format_rational(value))
    text = repr(f)
    if not np.isfinite(f) or Fraction(text) != value:
        return f"{text} (exact {format_rational(value)})"
    return text


@dataclass
class FamilyCounts:
    """What one data family saw: examples run (``examples``) and how they ended, plus the
    examples drawn but ``not_run`` (after a hang in that family)."""

    family: str
    id: str
    examples: int = 0
    agreed: int = 0
    bugs: int = 0
    ambiguous: int = 0
    errors: int = 0
    unsupported: int = 0
    timeouts: int = 0
    not_run: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class Report:
    """The outcome of :func:`check_implementation` (or of one family: :func:`check_family`).
    ``errors`` holds the error findings (a hang once per campaign: ``timeouts`` counts them
    all); ``families`` the per-family counts."""

    examples: int
    agreed: int
    bugs: list[Finding]
    ambiguous: list[Finding]
    errors: list[Finding]
    repro: str = ""
    unsupported: int = 0
    first_bug: int | None = None
    families: list[FamilyCounts] = field(default_factory=list)
    timeouts: int = 0
    not_run: int = 0

    @property
    def ok(self) -> bool:
        return not self.bugs and not self.errors

    def summary(self) -> str:
        """The counts (per family too), the first bug and the first error described, and
        the reproducing command when something was found."""
        extra = ""
        if self.timeouts or self.not_run:
            extra = f", {self.timeouts} timeouts, {self.not_run} not run"
        lines = [
            f"{self.examples} examples: {self.agreed} agreed, {len(self.bugs)} bugs, "
            f"{len(self.ambiguous)} ambiguous (rounding), {len(self.errors)} errors, "
            f"{self.unsupported} unsupported by the implementation{extra}"
        ]
        if len(self.families) > 1 or not self.ok:
            lines += family_table(self.families)
        for f in self.bugs[:1] + self.errors[:1]:
            lines.append(f.describe())
        if not self.ok and self.repro:
            lines.append(f"reproduce: {self.repro}")
        return "\n".join(lines)


def family_table(families: Sequence[FamilyCounts]) -> list[str]:
    """The per-family counts as aligned text lines."""
    if not families:
        return []
    width = max(len(f.id) for f in families)
    head = ("agreed", "bugs", "ambiguous", "errors", "unsupported", "timeouts", "not run")
    lines = [f"  {'family':<{width}}  " + "  ".join(head)]
    for f in families:
        values = (f.agreed, f.bugs, f.ambiguous, f.errors, f.unsupported, f.timeouts, f.not_run)
        lines.append(f"  {f.id:<{width}}  " + "  ".join(f"{v:>{len(h)}}" for v, h in zip(values, head)))
    return lines


def merge_reports(reports: Sequence[Report], repro: str = "") -> Report:
    """One campaign's report from its families' (in order): counts summed, findings joined
    (a hang reported once: the first; ``timeouts`` counts them all), ``first_bug`` counted
    over the families before the first one that saw a bug."""
    first_bug, before = None, 0
    for r in reports:
        if r.first_bug is not None:
            first_bug = before + r.first_bug
            break
        before += r.examples
    errors: list[Finding] = []
    hang_seen = False
    for f in (f for r in reports for f in r.errors):
        if f.status == "timeout":
            if hang_seen:
                continue
            hang_seen = True
        errors.append(f)
    return Report(
        sum(r.examples for r in reports),
        sum(r.agreed for r in reports),
        [f for r in reports for f in r.bugs],
        [f for r in reports for f in r.ambiguous],
        errors,
        repro,
        sum(r.unsupported for r in reports),
        first_bug,
        [c for r in reports for c in r.families],
        sum(r.timeouts for r in reports),
        sum(r.not_run for r in reports),
    )
