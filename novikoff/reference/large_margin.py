"""Exact references for the large-margin perceptrons PFM(beta), PDM(eps) and PDM-succ.

The rules of the PDM paper (PFM, PDM and its successive runs) in exact arithmetic, as in
:mod:`novikoff.reference.perceptron`: integer patterns Z_i = s z_i and integer weights
W = s w; the rules' integer decisions, why they are the rational ones, and the multiple
updates' count are in :mod:`novikoff.reference.large_margin_rules` (re-exported here).

**Engines.** ``engine="integer"`` (the default) runs the same loop on the exact
decision values of all samples at once
(:class:`~novikoff.reference.large_margin_integer.DecisionValues`: p = Z W kept
as integers and updated by n G_k, G_k = Z Z_k the k-th Gram column, when the run
adds n Z_k), with ||W||^2 updated as ||W + n Z_k||^2 = l + 2 n p + n^2 q
(l = ||W||^2, q = ||Z_k||^2) and each decision made as the integer comparison
p <= T against the rule's integer threshold T (``threshold_function`` on the rules,
whose docstring proves it equivalent to ``updates``); a multiple update's count is the closed form
``repeat_count_function`` (the floor of the larger root of the rule's quadratic, by
integer square root: proved equal to :func:`repeat_count`'s n where it applies), or,
in natural order, the sample's previous count accepted by evaluating the test at the
two counts around it, or else :func:`repeat_count_near`, which evaluates the
condition itself and so finds :func:`repeat_count`'s n from any start.
``engine="plain"`` is the definition itself: one exact dot product W.Z_i per
presentation. Both make the same decisions in the same order (the equivalences are
proved in the docstrings and tested on generated data for every rule and option),
hence the same run.

Checks with a certificate (:mod:`novikoff.reference.large_margin_checks`): D3 exactly
after every single update; at convergence D2 (PDM), D1 for a PDM run from w = 0 and P1
for PFM when beta < gamma. A failure raises InvariantViolation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import get_args

import numpy as np

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.reference.kernels import dot
from novikoff.reference.large_margin_checks import RunChecker, check_d2, end_checks
from novikoff.reference.large_margin_integer import DecisionValues
from novikoff.reference.large_margin_rules import (
    PDMRule,
    PFMRule,
    Rule,
    repeat_count,
    repeat_count_near,
)
from novikoff.reference.pdm_succ_ratio import check_pdm_succ_ratio
from novikoff.runtime.parameters import parse_epsilons, validate_beta, validate_epsilon
from novikoff.runtime.runs import Order, ReferenceEngine, RunRecord, check_max_epochs, epoch_order

__all__ = [
    "ENGINES",
    "LargeMarginRun",
    "PDMRule",
    "PFMRule",
    "Rule",
    "check_d2",
    "parse_epsilons",
    "run_pdm",
    "run_pdm_succ",
    "run_pfm",
    "validate_beta",
    "validate_epsilon",
]

ENGINES: tuple[ReferenceEngine, ...] = get_args(ReferenceEngine)  # ("integer", "plain")


@dataclass
class LargeMarginRun(RunRecord):
    """A PFM/PDM/PDM-succ run: the run record plus the rule's parameters and the theorem checks."""

    parameters: dict[str, Fraction] = field(default_factory=dict)
    stages: list[tuple[Fraction, int, int]] = field(default_factory=list)  # (eps, updates, epochs)
    checks: dict[str, str] = field(default_factory=dict)
    integer_state: tuple[tuple[int, ...], int] = ((), 1)  # (W, s) with weights = W / s
    stopped: str = ""  # why the run stopped before converging, when not max_epochs


def _run(
    dataset: Dataset,
    rule: Rule,
    *,
    order: Order,
    max_epochs: int,
    checker: RunChecker,
    multiple_updates: bool,
    W: list[int],
    t: int,
    first_epoch: int,
    updates: list[tuple[int, int]],
    max_updates: int = 10**7,
) -> tuple[list[int], int, int, bool, str]:
    """One run of ``rule`` until a clean epoch, ``max_epochs`` or more than ``max_updates``
    updates; returns (W, t, epochs, converged, why it stopped early or "")."""
    Z, s = dataset.scaled_patterns
    Q = [dot(z, z) for z in Z]
    presentation = epoch_order(order, dataset.n_samples)
    w2 = dot(W, W)
    for e in range(max_epochs):
        clean = True
        for i in presentation(first_epoch + e):
            p = dot(W, Z[i])
            if not rule.updates(t, p, w2, s):
                continue
            n = repeat_count(rule, t, p, Q[i], w2, s, max_updates - t + 1) if multiple_updates else 1
            if t + n > max_updates:
                return (
                    W,
                    t,
                    e + 1,
                    False,
                    f"stopped before update {t + 1}: more than max_updates = {max_updates}",
                )
            checker.after_updates(t, p, Q[i], w2, n, f"(sample {i}, epoch {first_epoch + e})")
            W = [a + n * b for a, b in zip(W, Z[i])]
            w2 = w2 + 2 * n * p + n * n * Q[i]
            t += n
            updates.extend([(first_epoch + e, i)] * n)
            clean = False
        if clean:
            return W, t, e + 1, True, ""
    return W, t, max_epochs, False, ""


def _run_integer(
    dataset: Dataset,
    rule: Rule,
    *,
    order: Order,
    max_epochs: int,
    checker: RunChecker,
    multiple_updates: bool,
    values: DecisionValues,
    t: int,
    w2: int,
    first_epoch: int,
    updates: list[tuple[int, int]],
    max_updates: int = 10**7,
) -> tuple[int, int, int, bool, str]:
    """:func:`_run` on the kept decision values (module docstring, "Engines"):
    :meth:`~novikoff.reference.large_margin_integer.DecisionValues.run` makes the same
    presentations in the same order, the same test at each (``p <= rule.threshold``),
    the same update counts (``rule.repeat_count_function``, the closed form proved equal
    to :func:`repeat_count`'s, or :func:`repeat_count_near` where it does not apply) and
    the same stops. ``values`` holds W (updated in place); ``w2`` is ||W||^2. Returns
    (t, ||W||^2, epochs, converged, why it stopped early or "")."""
    _, s = dataset.scaled_patterns
    natural = order is None or order == "natural"
    presentation = epoch_order(order, dataset.n_samples)

    def search(t: int, p: int, q: int, w2: int, limit: int) -> int:
        return repeat_count_near(rule, t, p, q, w2, s, limit, rule.repeat_guess(t, p, q, w2, s))

    def check(t: int, p: int, q: int, w2: int, n: int, i: int, epoch: int) -> None:
        checker.after_updates(t, p, q, w2, n, f"(sample {i}, epoch {epoch})")

    epochs = (
        (epoch, None if natural else np.asarray(presentation(epoch), dtype=np.intp))
        for epoch in range(first_epoch, first_epoch + max_epochs)
    )
    t, w2, ran, converged, limited = values.run(
        epochs,
        rule.threshold_function(s),
        t=t,
        w2=w2,
        updates=updates,
        max_updates=max_updates,
        count=rule.repeat_count_function(s) if multiple_updates else None,
        search=search,
        before_update=check if checker.cert is not None else None,
    )
    stopped = f"stopped before update {t + 1}: more than max_updates = {max_updates}" if limited else ""
    return t, w2, ran, converged, stopped


class _Engine:
    """The run's state across stages for either engine: W (and the kept values for "integer")."""

    def __init__(self, dataset: Dataset, engine: ReferenceEngine) -> None:
        if engine not in ENGINES:
            raise InputError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        Z, _ = dataset.scaled_patterns
        self.dataset = dataset
        self.W = [0] * dataset.dimension
        self.w2 = 0
        self.values = DecisionValues(Z, self.W, dataset.pattern_array) if engine == "integer" else None

    def stage(
        self,
        rule: Rule,
        *,
        order: Order,
        max_epochs: int,
        checker: RunChecker,
        multiple_updates: bool,
        t: int,
        first_epoch: int,
        updates: list[tuple[int, int]],
        max_updates: int,
    ) -> tuple[int, int, bool, str]:
        """One stage from the current W; returns (t, epochs, converged, stopped)."""
        if self.values is None:
            self.W, t, epochs, converged, stopped = _run(
                self.dataset,
                rule,
                order=order,
                max_epochs=max_epochs,
                checker=checker,
                multiple_updates=multiple_updates,
                W=self.W,
                t=t,
                first_epoch=first_epoch,
                updates=updates,
                max_updates=max_updates,
            )
            return t, epochs, converged, stopped
        t, self.w2, epochs, converged, stopped = _run_integer(
            self.dataset,
            rule,
            order=order,
            max_epochs=max_epochs,
            checker=checker,
            multiple_updates=multiple_updates,
            values=self.values,
            t=t,
            w2=self.w2,
            first_epoch=first_epoch,
            updates=updates,
            max_updates=max_updates,
        )
        self.W = self.values.weights()
        return t, epochs, converged, stopped

    def min_decision(self) -> int | None:
        """min_i W.Z_i when the engine keeps the values, else None."""
        return None if self.values is None else self.values.minimum()

    @property
    def arithmetic(self) -> tuple[str, ...]:
        """The storages of the kept values, in order ("integer" engine), else ()."""
        return () if self.values is None else tuple(self.values.used)


def _result(
    dataset: Dataset,
    W: list[int],
    t_updates: list[tuple[int, int]],
    epochs: int,
    converged: bool,
    algorithm: str,
    parameters: dict[str, Fraction],
    checks: dict[str, str],
    checker: RunChecker,
    stages: list[tuple[Fraction, int, int]] | None = None,
    arithmetic: tuple[str, ...] = (),
) -> LargeMarginRun:
    _, s = dataset.scaled_patterns
    if checker.cert is not None:
        checks = {"D3": f"held at all {checker.d3} updates", **checks}
    return LargeMarginRun(
        weights=tuple(Fraction(v, s) for v in W),
        updates=t_updates,
        epochs=epochs,
        converged=converged,
        invariants_checked=checker.d3 + len(checks),
        algorithm=algorithm,
        parameters=parameters,
        stages=stages or [],
        checks=checks,
        integer_state=(tuple(W), s),
        arithmetic=arithmetic,
    )


def run_pfm(
    dataset: Dataset,
    beta: object,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    max_updates: int = 10**7,
    engine: ReferenceEngine = "integer",
) -> LargeMarginRun:
    """Run PFM(beta) exactly from w = 0 (see the module docstring for what is checked).

    The run also stops (converged = False, ``stopped`` says why) before it would pass
    ``max_updates`` updates: a multiple update can be astronomically large when beta
    is close to some ||z_i||.

    With ``multiple_updates`` beta must be below min_i ||z_i|| (else a repeated update
    on some z would never stop: PFM cannot converge then anyway).

    ``engine`` ("integer" or "plain", module docstring) does not change the run.

    Args:
        dataset: The exact data.
        beta: The fixed margin, exact, >= 0 (the PDM paper's beta = (1 - eps) gamma).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_epochs: The number of passes after which a run that has not converged stops.
        certificate: A certificate of ``dataset``: D3 is checked at every update and P1 at
            convergence (``checks``).
        multiple_updates: Repeat each update while the condition holds (one count, exact).
        max_updates: The update budget; the run stops (``stopped``) before passing it.
        engine: How decisions are computed (:data:`novikoff.runtime.runs.ReferenceEngine`).

    Returns:
        The run record: exact weights, the updates, the epochs, whether it converged,
        why it stopped, and the theorems checked with their status.

    Raises:
        InputError: ``beta`` negative or not a number, ``multiple_updates`` with beta not
            below min ||z_i||, an unknown ``engine``, or a malformed ``order`` or ``max_epochs``.
        InvariantViolation: With ``certificate``, a theorem check failed.

    Examples:
        >>> from novikoff.certificates.solver import certify
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> run = run_pfm(ds, Fraction(1, 10), certificate=certify(ds))
        >>> run.converged, len(run.updates), run.checks["P1"]
        (True, 7, 'held')
    """
    b = validate_beta(beta)
    max_epochs = check_max_epochs(max_epochs)
    Z, s = dataset.scaled_patterns
    if multiple_updates and any(b * b * s * s >= dot(z, z) for z in Z):
        raise InputError(
            f"pfm: beta = {b} is not below min ||z_i||; multiple updates would never end "
            "(and PFM cannot converge: every w.z_i <= ||w|| ||z_i|| <= beta ||w||)"
        )
    rule = PFMRule(b)
    state = _Engine(dataset, engine)
    checker = RunChecker(certificate, s)
    updates: list[tuple[int, int]] = []
    t, epochs, converged, stopped = state.stage(
        rule,
        order=order,
        max_epochs=max_epochs,
        checker=checker,
        multiple_updates=multiple_updates,
        t=0,
        first_epoch=0,
        updates=updates,
        max_updates=max_updates,
    )
    W = state.W
    checks = end_checks(dataset, rule, W, t, certificate, True, state.min_decision()) if converged else {}
    result = _result(
        dataset,
        W,
        updates,
        epochs,
        converged,
        "pfm",
        {"beta": b},
        checks,
        checker,
        arithmetic=state.arithmetic,
    )
    result.stopped = stopped
    return result


def run_pdm(
    dataset: Dataset,
    eps: object,
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    max_updates: int = 10**7,
    engine: ReferenceEngine = "integer",
) -> LargeMarginRun:
    """Run PDM(eps) exactly from w = 0, t = 0 (eps = 1 is the perceptron).

    Args:
        dataset: The exact data.
        eps: The dynamic margin's parameter, exact, in (0, 1]: update when
            ``t w.z <= (1 - eps) ||w||^2`` (the PDM paper).
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_epochs: The number of passes after which a run that has not converged stops.
        certificate: A certificate of ``dataset``: D3 is checked at every update, D1 and D2
            at convergence (``checks``).
        multiple_updates: Repeat each update while the condition holds (one count, exact).
        max_updates: The update budget; the run stops (``stopped``) before passing it.
        engine: How decisions are computed (:data:`novikoff.runtime.runs.ReferenceEngine`).

    Returns:
        The run record, as :func:`run_pfm`'s, with ``eps`` among its parameters.

    Raises:
        InputError: ``eps`` outside (0, 1], an unknown ``engine``, or a malformed
            ``order`` or ``max_epochs``.
        InvariantViolation: With ``certificate``, a theorem check failed.

    Examples:
        >>> from novikoff.certificates.solver import certify
        >>> ds = Dataset.from_arrays([[0, 1], [2, 1], [-1, 1], [-2, -1]], [1, 1, -1, -1])
        >>> run = run_pdm(ds, Fraction(1, 2), certificate=certify(ds))
        >>> run.converged, run.weights, run.checks["D1"], run.checks["D2"]
        (True, (Fraction(3, 1), Fraction(1, 1), Fraction(1, 1)), 'held', 'held')
    """
    return run_pdm_succ(
        dataset,
        [eps],
        order=order,
        max_epochs=max_epochs,
        certificate=certificate,
        multiple_updates=multiple_updates,
        algorithm="pdm",
        max_updates=max_updates,
        engine=engine,
    )


def run_pdm_succ(
    dataset: Dataset,
    epsilons: Sequence[object],
    *,
    order: Order = None,
    max_epochs: int = 1000,
    certificate: SeparableCertificate | None = None,
    multiple_updates: bool = False,
    algorithm: str = "pdm-succ",
    max_updates: int = 10**7,
    engine: ReferenceEngine = "integer",
) -> LargeMarginRun:
    """PDM with eps_1 > ... > eps_final, each stage continuing from the previous (w, t).

    ``max_epochs`` bounds each stage; a stage that does not converge ends the run
    (converged = False). Epochs are numbered across stages, so an explicit
    per-epoch order continues where the previous stage stopped. D2 is checked at
    the end of every stage, D1 only for the first (its derivation starts at w = 0).
    ``engine`` ("integer" or "plain", module docstring) does not change the run. With a
    certificate, DS1 (PDM-succ's stage ratio bound) is checked on every pair of consecutive
    converged stages it applies to (``checks["DS1 (eps = e)"]``).
    """
    eps_list = parse_epsilons(epsilons)
    max_epochs = check_max_epochs(max_epochs)
    _, s = dataset.scaled_patterns
    state = _Engine(dataset, engine)
    checker = RunChecker(certificate, s)
    updates: list[tuple[int, int]] = []
    t, epochs_total = 0, 0
    stages: list[tuple[Fraction, int, int]] = []
    checks: dict[str, str] = {}
    converged, stopped = False, ""
    for k, eps in enumerate(eps_list):
        rule = PDMRule(eps)
        t, epochs, converged, stopped = state.stage(
            rule,
            order=order,
            max_epochs=max_epochs,
            checker=checker,
            multiple_updates=multiple_updates,
            t=t,
            first_epoch=epochs_total,
            updates=updates,
            max_updates=max_updates,
        )
        epochs_total += epochs
        stages.append((eps, t, epochs))
        if not converged:
            break
        stage_checks = end_checks(dataset, rule, state.W, t, certificate, k == 0, state.min_decision())
        suffix = "" if len(eps_list) == 1 else f" (eps = {eps})"
        checks.update({f"{key}{suffix}": v for key, v in stage_checks.items()})
    if certificate is not None and len(stages) > 1:  # DS1 between consecutive converged stages
        checks.update(check_pdm_succ_ratio(stages, certificate.R2, certificate.gamma2, converged=converged))
    parameters = (
        {"eps": eps_list[-1]} if len(eps_list) == 1 else {f"eps_{i + 1}": e for i, e in enumerate(eps_list)}
    )
    result = _result(
        dataset,
        state.W,
        updates,
        epochs_total,
        converged,
        algorithm,
        parameters,
        checks,
        checker,
        stages,
        state.arithmetic,
    )
    result.stopped = stopped
    return result
