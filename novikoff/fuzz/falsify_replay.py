"""What a counterexample of ``novikoff falsify`` is made of, re-derived from scratch: the
bound's symbols on the data (:func:`symbol_values`), the campaign of each algorithm family
(:data:`CAMPAIGNS`: its search, its exact numbers, how its files are read),
:func:`certify_check` (the certificate and the exact run give the recorded numbers again)
and :func:`replay_file`, the rerun of a counterexample file against its recorded bound.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.exact.rational import format_rational
from novikoff.fuzz.bounds import BoundLimits, parse_bound
from novikoff.fuzz.campaign import (
    MAX_EPOCHS,
    REPLAY_HEADER,
    Counterexample,
    FalsifyResult,
    bound_exceeded,
    bound_value,
    order_to_json,
)
from novikoff.fuzz.falsify_multiclass import multiclass_numbers, multiclass_replay_data, search_multiclass
from novikoff.fuzz.falsify_nonseparable import (
    NonseparableCounterexample,
    evaluable,
    nonseparable_numbers,
    replay_nonseparable,
)
from novikoff.fuzz.registry import lookup
from novikoff.fuzz.settings_space import RunSetting, validate_epsilon
from novikoff.runtime.runs import Order

__all__ = [
    "CAMPAIGNS",
    "FamilyCampaign",
    "Replay",
    "certify_check",
    "replay_file",
    "symbol_values",
]


def symbol_values(ds: Dataset, cert: SeparableCertificate, setting: RunSetting) -> dict[str, Fraction]:
    """The bound's symbols on ``ds``: R2 and gamma2 of the certificate, m and d, and the
    setting's parameter symbols (:meth:`RunSetting.values`) at that gamma2."""
    common = {"R2": cert.R2, "gamma2": cert.gamma2, "m": Fraction(ds.n_samples), "d": Fraction(ds.n_features)}
    return {**common, **setting.values(cert.gamma2)}


def _binary_numbers(ds: Dataset, setting: RunSetting, order: Order) -> tuple[int, dict[str, Fraction]] | None:
    cert = certify(ds)
    if not isinstance(cert, SeparableCertificate):
        return None
    return setting.run(ds, cert, order, MAX_EPOCHS), symbol_values(ds, cert, setting)


def _binary_replay_data(
    rows: list[list[Fraction]], labels: list[int], bias: Fraction, header: dict[str, Any], name: str
) -> Dataset:
    return Dataset.from_fraction_rows(rows, labels, bias=bias, name=name)


@dataclass(frozen=True)
class FamilyCampaign:
    """How falsify runs the algorithms of one family (:attr:`Algorithm.family`).

    ``search(bound, examples, seed, database, progress, campaign)`` is the family's own
    one-process search, or None for the binary flow (the T1 pre-check, then
    :func:`~novikoff.fuzz.falsify.falsify`'s Hypothesis search, in ``workers`` processes);
    ``numbers(data, setting, order)`` re-derives (updates, bound values) exactly, None when
    the data are not separable;
    ``replay_data(rows, labels, bias, header, name)`` reads a counterexample file's data.
    """

    search: Callable[..., FalsifyResult] | None
    numbers: Callable[[Any, RunSetting, Order], tuple[int, dict[str, Fraction]] | None]
    replay_data: Callable[[list[list[Fraction]], list[int], Fraction, dict[str, Any], str], Any]


#: The campaign of each algorithm family.
CAMPAIGNS: dict[str, FamilyCampaign] = {
    "binary": FamilyCampaign(None, _binary_numbers, _binary_replay_data),
    "multiclass": FamilyCampaign(search_multiclass, multiclass_numbers, multiclass_replay_data),
}


def certify_check(ce: Counterexample) -> bool:
    """Re-derive the counterexample's numbers from scratch (certificate and exact run):
    True iff the data are separable and give the recorded update count and values (for a
    non-separable campaign's: the recorded mistakes and values at its T, u and gamma)."""
    if isinstance(ce, NonseparableCounterexample):
        if not isinstance(ce.dataset, Dataset):
            return False
        direction = [int(v) for v in ce.direction]
        mistakes, values, _ = nonseparable_numbers(ce.dataset, ce.passes, ce.order, direction, ce.gamma)
        return (mistakes, values) == (ce.updates, ce.values)
    numbers = CAMPAIGNS[ce.setting.spec.family].numbers(ce.dataset, ce.setting, ce.order)
    return numbers is not None and numbers == (ce.updates, ce.values)


@dataclass
class Replay:
    """A counterexample file rerun: the exact update count against the recorded bound."""

    algorithm: str
    parameters: dict[str, str]
    order: Any
    bound: str
    updates: int
    bound_value: str
    violated: bool
    values: dict[str, Fraction]
    recorded_updates: int | None

    def summary(self) -> str:
        params = "".join(f", {k} = {v}" for k, v in self.parameters.items())
        values = ", ".join(f"{k} = {format_rational(v)}" for k, v in self.values.items())
        verdict = "VIOLATED" if self.violated else "holds"
        return (
            f"{self.algorithm}{params}, order {self.order}: {self.updates} updates "
            f"(recorded {self.recorded_updates})\n"
            f"bound {self.bound} = {self.bound_value} at {values}\n"
            f"{self.updates} <= bound: {verdict}"
        )


def _read_counterexample(path: str | Path) -> tuple[dict[str, Any], list[list[Fraction]], list[int]]:
    from novikoff.exact.rational import parse_rational

    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if not lines or not lines[0].startswith(REPLAY_HEADER):
        raise InputError(
            f"{path}, line 1: not a novikoff falsify counterexample (no '{REPLAY_HEADER.strip()}' header)"
        )
    try:
        header = json.loads(lines[0][len(REPLAY_HEADER) :])
        if not isinstance(header, dict) or header.get("novikoff_counterexample") != 1:
            raise ValueError("unknown header version")
    except ValueError as exc:
        raise InputError(f"{path}, line 1: bad replay header ({exc})") from None
    rows, labels = [], []
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split(",")
        try:
            rows.append([parse_rational(c.strip()) for c in cells[:-1]])
            labels.append(int(cells[-1].strip()))
        except (InputError, ValueError) as exc:
            raise InputError(f"{path}, line {n}: {exc}") from None
    if not rows or len({len(r) for r in rows}) != 1:
        raise InputError(f"{path}: expected data rows of equal length after the header")
    if header.get("samples") not in (None, len(rows)):
        raise InputError(f"{path}: the header records {header['samples']} samples, the file has {len(rows)}")
    return header, rows, labels


def _order_from_json(value: Any, path: str | Path) -> Order:
    if value == "natural":
        return None
    if isinstance(value, str) or (isinstance(value, list) and value):
        return value  # validated by the run (epoch_order)
    raise InputError(f"{path}, line 1: bad order {value!r}")


def replay_file(path: str | Path) -> Replay:
    """Rerun the counterexample in ``path`` (written by :meth:`Counterexample.write_csv`):
    the recorded algorithm and parameters in the recorded order, the exact update count and
    the recorded bound evaluated rigorously at the data's own R^2, gamma^2, m, d.

    A bad file is one :class:`InputError` line that names the file."""
    try:
        return _replay_file(path)
    except InputError as exc:
        first = (str(exc).splitlines() or ["bad file"])[0]
        raise InputError(first if first.startswith(str(path)) else f"{path}: {first}") from None


def _replay_file(path: str | Path) -> Replay:
    from novikoff.exact.rational import parse_rational

    header, rows, labels = _read_counterexample(path)
    try:
        algorithm = str(header["algorithm"])
        params = {str(k): str(v) for k, v in dict(header.get("parameters", {})).items()}
        bias = parse_rational(str(header["bias"]))
        limits = BoundLimits(*header.get("bound_limits", []))
        nonseparable = "nonseparable" in header
        bound = parse_bound(str(header["bound"]), algorithm, limits, nonseparable=nonseparable)
        eps = parse_rational(params["eps"]) if "eps" in params else None
        spec = lookup(algorithm)
        if spec.parameter is not None:
            eps = validate_epsilon(eps, "parameters.eps")
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{path}, line 1: bad replay header ({type(exc).__name__}: {exc})") from None
    order = _order_from_json(header.get("order", "natural"), path)
    if nonseparable:
        data = Dataset.from_fraction_rows(rows, labels, bias=bias, name=str(path))
        updates, values, params = replay_nonseparable(data, header, bound, order, str(path))
        bound = evaluable(bound)  # D, D2, T at the recorded direction and margin
    else:
        setting = RunSetting(algorithm, eps)
        family = CAMPAIGNS[spec.family]
        numbers = family.numbers(family.replay_data(rows, labels, bias, header, str(path)), setting, order)
        if numbers is None:
            raise InputError(f"{path}: the data are not separable, so no bound applies")
        updates, values = numbers
        keyword = spec.keyword
        if keyword is not None and keyword != "eps" and keyword in params:  # a value derived from eps
            recorded_value = parse_rational(params[keyword])
            if setting.parameter_value(values["gamma2"]) != recorded_value:
                raise InputError(
                    f"{path}: the recorded {keyword} {params[keyword]} is not the one eps gives on these data"
                )
    recorded = header.get("updates")
    return Replay(
        algorithm,
        params,
        order_to_json(order),
        str(header["bound"]),
        updates,
        bound_value(bound, values),
        bound_exceeded(bound, updates, values),
        values,
        recorded if isinstance(recorded, int) else None,
    )
