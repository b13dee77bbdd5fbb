"""What every falsify campaign shares: the rigorous comparison of an update count with a
bound, the counterexample and result types, progress reports, and the seeded Hypothesis
search against an example database (:func:`campaign_search`).

Both the binary campaign (:mod:`novikoff.fuzz.falsify`) and the multiclass one
(:mod:`novikoff.fuzz.falsify_multiclass`) import this module; it imports neither.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.exact.rational import format_rational, unlimited_int_digits
from novikoff.fuzz.bounds import BOUND_SYMBOLS, DEFAULT_LIMITS, BoundLimits
from novikoff.fuzz.database import campaign_key, has_stored_examples, open_database
from novikoff.fuzz.settings_space import RunSetting
from novikoff.runtime.runs import Order
from novikoff.spec.intervals import SquareRoot, Value, interval_of

__all__ = [
    "MAX_EPOCHS",
    "REPLAY_HEADER",
    "Counterexample",
    "FalsifyResult",
    "Progress",
    "ProgressCallback",
    "Tally",
    "bound_exceeded",
    "bound_value",
    "campaign_search",
    "order_to_json",
]

#: The first line of a counterexample file starts with this, then the header's JSON.
REPLAY_HEADER = "# novikoff-replay "

#: The epochs every exact run of a falsify campaign may take.
MAX_EPOCHS = 10_000

_iv = mpmath.iv


def _evaluate(bound: sp.Expr, values: dict[str, Fraction]) -> Any:
    """An interval containing the bound's value (200-bit interval arithmetic).

    R and gamma are the square roots of R2 and gamma2; for PFM (``beta`` given, no
    ``eps``) eps means 1 - beta/gamma and is substituted before evaluating.
    """
    env: dict[str, Value] = dict(values)
    env["R"] = SquareRoot(values["R2"])
    env["gamma"] = SquareRoot(values["gamma2"])
    expr = bound
    if "beta" in values and "eps" not in values:
        S = BOUND_SYMBOLS
        expr = bound.xreplace({S["eps"]: 1 - S["beta"] / S["gamma"]})
    saved = _iv.prec
    _iv.prec = 200
    try:
        return interval_of(expr, env)
    finally:
        _iv.prec = saved


def _finite_value(bound: sp.Expr, values: dict[str, Fraction]) -> Any | None:
    """The bound's interval, or None where it is undefined or infinite (e.g. log(0), or a
    symbol this run has no value for; or too large for interval arithmetic, such as
    exp(exp(exp(1000))), where it exceeds any update count we can make): there the bound
    says nothing."""
    try:
        value = _evaluate(bound, values)
    except (ZeroDivisionError, ValueError, TypeError, KeyError, OverflowError):
        return None
    if not (mpmath.isfinite(value.a) and mpmath.isfinite(value.b)):
        return None
    return value


def _exceeds(value: Any | None, updates: int) -> bool:
    return value is not None and bool(value.b < updates)


def bound_exceeded(bound: sp.Expr, updates: int, values: dict[str, Fraction]) -> bool:
    """True iff ``updates`` > the bound's value, decided rigorously (False when unsure)."""
    return _exceeds(_finite_value(bound, values), updates)


@dataclass
class Counterexample:
    """A dataset, an order and its exact update count above the bound."""

    dataset: Dataset | MulticlassData  # MulticlassData for the multiclass campaign
    order: Order
    updates: int
    values: dict[str, Fraction]
    bound_value: str
    source: str
    setting: RunSetting = field(default_factory=lambda: RunSetting("perceptron"))

    bound_text: str = ""  # the bound expression as the user wrote it (set by falsify)
    limits: BoundLimits = DEFAULT_LIMITS

    def replay_command(self, path: str | Path) -> str:
        """The command that re-runs the counterexample from the written file alone."""
        return f"novikoff replay {path}"

    def header(self) -> dict[str, Any]:
        """Everything a replay needs besides the data rows: the algorithm and its parameters,
        the bias, the order, the bound (text and parser limits) and what the search saw."""
        params: dict[str, str] = {}
        if self.setting.value is not None:
            params["eps"] = str(format_rational(self.setting.value))
        run_value = self.setting.parameter_value(self.values["gamma2"])
        if run_value is not None and run_value != self.setting.value:  # derived from eps (PFM's beta)
            params[self.setting.spec.keyword or "value"] = str(format_rational(run_value))
        lim = self.limits
        return {
            "novikoff_counterexample": 1,
            "algorithm": self.setting.algorithm,
            "parameters": params,
            "bias": str(format_rational(self.dataset.bias)),
            "order": order_to_json(self.order),
            "bound": self.bound_text,
            "bound_limits": [lim.length, lim.depth, lim.exponent, lim.power_digits],
            "samples": self.dataset.n_samples,
            "updates": self.updates,
            "bound_value": self.bound_value,
            "values": {k: str(format_rational(v)) for k, v in self.values.items()},
            "source": self.source,
            **({"classes": self.dataset.n_classes} if isinstance(self.dataset, MulticlassData) else {}),
        }

    def write_csv(self, path: str | Path) -> None:
        """Write the counterexample so that ``novikoff replay FILE`` replays it: a first line
        ``# novikoff-replay {JSON}`` (:meth:`header`), a readable comment, then one data row
        per sample (features, then the label), each exactly once."""
        with unlimited_int_digits():
            lines = [
                REPLAY_HEADER + json.dumps(self.header(), sort_keys=True),
                f"# novikoff falsify counterexample ({self.source}): {self.updates} updates of "
                f"{self.setting.describe(self.values['gamma2'])}, bias {self.dataset.bias}, "
                f"order {order_to_json(self.order)}, bound {self.bound_text}",
            ]
            for i in range(self.dataset.n_samples):
                xs = [str(format_rational(v)) for v in self.dataset.features(i)]
                lines.append(",".join([*xs, str(self.dataset.labels[i])]))
        Path(path).write_text("\n".join(lines) + "\n")


def order_to_json(order: Order) -> Any:
    """``"natural"``, ``"shuffle:SEED"``, a permutation, or a list of per-epoch permutations."""
    if order is None:
        return "natural"
    if isinstance(order, str):
        return order
    seq: list[Any] = list(order)
    if seq and not isinstance(seq[0], (int, np.integer)):
        return [[int(i) for i in p] for p in seq]
    return [int(i) for i in seq]


@dataclass
class FalsifyResult:
    """What a search saw: the bound, how many examples it tried, the counterexample or None.

    ``replayed`` is True when the counterexample was the first example the search
    ran, i.e. it came from the example database (a rerun, another worker or shard);
    ``best_ratio`` is the largest updates/bound seen (a float, for display only).
    """

    bound: sp.Expr
    examples: int
    counterexample: Counterexample | None
    replayed: bool = False
    best_ratio: float | None = None


@dataclass(frozen=True)
class Progress:
    """One progress report: examples tried so far and the best updates/bound ratio."""

    examples: int
    best_ratio: float | None
    worker: int | None = None


ProgressCallback = Callable[[Progress], None]


def bound_value(bound: sp.Expr, values: dict[str, Fraction]) -> str:
    try:
        v = _evaluate(bound, values)
        return f"in {_iv.nstr(v, 15)}"
    except (ZeroDivisionError, ValueError, TypeError, KeyError):
        return "undefined"


def campaign_search(
    strategy: st.SearchStrategy[Any],
    violates: Callable[[Any], bool],
    bound: sp.Expr,
    campaign: str,
    database: str | None,
    examples: int,
    seed: int,
    *,
    hypothesis_shrinks: bool,
) -> tuple[Any | None, bool]:
    """The seeded Hypothesis search of one campaign against its example database, which
    is replayed first. Returns the failing example (None if none was found) and whether
    the database already held examples for this campaign and bound (so that a hit on the
    first example was a replay)."""
    db, key = open_database(database), campaign_key(campaign, sp.srepr(bound))
    stored = has_stored_examples(db, key)
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    found = _seeded_find(
        strategy,
        violates,
        settings(
            max_examples=examples,
            derandomize=False,  # the seed decides; a test profile's derandomize must not drop the database
            database=db,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
            phases=[*phases, Phase.shrink] if hypothesis_shrinks else phases,
        ),
        seed=seed,
        key=key,
    )
    return found, stored


class Tally:
    """What a search has seen: examples tried, the first hit, the best updates/bound.

    :meth:`observe` steers Hypothesis with ``target()`` (updates, and updates/bound),
    reports progress and decides the example rigorously (:func:`bound_exceeded`).
    """

    def __init__(self, bound: sp.Expr, progress: ProgressCallback | None, worker: int | None = None) -> None:
        self.bound = bound
        self.progress = progress
        self.worker = worker
        self.tried = 0
        self.first_hit: int | None = None
        self.best_ratio: float | None = None

    def provenance(self, stored: bool) -> tuple[bool, str]:
        """(replayed, how the counterexample was found): a hit on the first example, with
        examples stored for the campaign, is the database's replay."""
        replayed = self.first_hit == 1 and stored
        return replayed, (
            "replayed from the example database" if replayed else "Hypothesis search"
        ) + ", shrunk"

    def observe(self, updates: int, values: dict[str, Fraction]) -> bool:
        """True iff ``updates`` > the bound at ``values`` (a counterexample)."""
        self.tried += 1
        target(float(updates), label="updates")
        interval = _finite_value(self.bound, values)  # evaluated once, for steering and deciding
        if interval is not None and float(interval.mid) > 0:
            ratio = updates / float(interval.mid)
            target(ratio, label="updates/bound")
            self.best_ratio = ratio if self.best_ratio is None else max(self.best_ratio, ratio)
        hit = _exceeds(interval, updates)
        if hit and self.first_hit is None:
            self.first_hit = self.tried
        if self.progress is not None:
            self.progress(Progress(self.tried, self.best_ratio, self.worker))
        return hit


class _Found(Exception):
    pass


def _seeded_find(
    strategy: st.SearchStrategy[Any],
    condition: Callable[[Any], bool],
    config: settings,
    seed: int,
    key: bytes,
) -> Any | None:
    """``hypothesis.find`` with both a seed and an example database.

    Hypothesis's public ``seed()`` switches the database off, and ``find(random=...)``
    uses it; a campaign needs both (reproducible search, shared counterexamples). So
    this sets the two attributes ``find`` and ``seed`` set themselves
    (``_hypothesis_internal_use_seed``, ``_hypothesis_internal_database_key``).
    ``tests/fuzz/test_falsify.py`` checks that a seed still reproduces a search and that
    a stored counterexample is still replayed, so a Hypothesis release that stops
    reading them fails those tests rather than this code silently.
    Returns the minimal (shrunk) value satisfying ``condition``, or None.
    """
    last: list[Any] = []

    @config
    @given(strategy)
    def search(value: Any) -> None:
        if condition(value):
            last[:] = [value]
            raise _Found

    search._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    search._hypothesis_internal_database_key = key  # type: ignore[attr-defined]
    try:
        search()
    except _Found:
        return last[0]
    return None
