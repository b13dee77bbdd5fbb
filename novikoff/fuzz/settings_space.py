"""The algorithm a falsification campaign runs, and its parameter: one :class:`RunSetting`.

What each algorithm takes is data on its :class:`~novikoff.fuzz.registry.Algorithm`:

- ``perceptron`` and ``multiclass``: no parameter;
- ``pdm``: eps, drawn from its default epsilons (:data:`PDM_EPSILONS`); the bound may use ``eps``;
- ``pfm``: beta = (1 - eps) gamma rounded down to a rational (denominator 10^6),
  eps drawn from :data:`PFM_EPSILONS`; the bound may use ``beta`` and ``eps``,
  where eps means 1 - beta/gamma for the beta actually run (irrational in general;
  the falsifier evaluates it as an interval).

Every run is exact (:mod:`novikoff.reference`), single updates, from w = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.registry import ALGORITHMS as _REGISTERED
from novikoff.fuzz.registry import PDM, PFM, Algorithm, lookup
from novikoff.runtime.parameters import validate_epsilon
from novikoff.runtime.runs import Order

__all__ = [
    "ALGORITHMS",
    "PDM_EPSILONS",
    "PFM_EPSILONS",
    "RunSetting",
    "parameter_values",
    "settings_for",
    "validate_epsilon",
]

ALGORITHMS = tuple(_REGISTERED)
assert PDM.parameter is not None and PFM.parameter is not None
PDM_EPSILONS = PDM.parameter.default_epsilons
PFM_EPSILONS = PFM.parameter.default_epsilons


@dataclass(frozen=True)
class RunSetting:
    """An algorithm with its parameter (``value``: the eps a falsify campaign drew; the
    value run is ``parameter.from_eps(eps, gamma^2)``, e.g. PFM's beta)."""

    algorithm: str
    value: Fraction | None = None

    @property
    def spec(self) -> Algorithm:
        """The registered algorithm."""
        return lookup(self.algorithm)

    def parameter_value(self, gamma2: Fraction) -> Fraction | None:
        """The parameter actually run on data with margin^2 ``gamma2`` (None without one)."""
        param = self.spec.parameter
        if param is None or self.value is None:
            return None
        return param.from_eps(self.value, gamma2)

    def values(self, gamma2: Fraction) -> dict[str, Fraction]:
        """The bound's algorithm symbols (eps for pdm, beta for pfm) at this setting."""
        param, value = self.spec.parameter, self.parameter_value(gamma2)
        return {} if param is None or value is None else {param.symbol: value}

    def run(self, ds: Dataset, cert: SeparableCertificate, order: Order, max_epochs: int) -> int:
        """The exact number of updates."""
        return self.spec.run(ds, self.parameter_value(cert.gamma2), order, max_epochs).mistakes

    def describe(self, gamma2: Fraction | None = None) -> str:
        """The setting in words, with the value run when ``gamma2`` is given."""
        algo = self.spec
        if algo.parameter is None or self.value is None:
            return algo.title
        text = algo.parameter.falsify_text.format(name=algo.name, eps=self.value)
        if gamma2 is None or algo.parameter.symbol == "eps":
            return text
        return f"{text}, {algo.parameter.symbol} = {self.parameter_value(gamma2)}"

    def replay_options(self, gamma2: Fraction) -> str:
        """The ``novikoff run`` options that replay this setting."""
        param = self.spec.parameter
        value = self.parameter_value(gamma2)
        extra = "" if param is None or value is None else f" {param.option} {value}"
        return f"--algorithm {self.algorithm}{extra}"


def parameter_values(algorithm: str, epsilons: Sequence[Fraction] | None = None) -> list[Fraction | None]:
    """The eps values a campaign uses: ``epsilons`` if given (each in (0, 1]), else the
    algorithm's defaults; ``[None]`` for an algorithm without a parameter (which refuses
    ``epsilons``). An unknown algorithm is an InputError listing the valid ones."""
    param = lookup(algorithm).parameter
    if param is None:
        if epsilons:
            with_eps = [a.name for a in _REGISTERED.values() if a.parameter is not None]
            raise InputError(f"--epsilons applies to --algorithm {' and '.join(with_eps)} only")
        return [None]
    if epsilons:
        return [validate_epsilon(e, "--epsilons") for e in epsilons]
    return list(param.default_epsilons)


def settings_for(algorithm: str, epsilons: Sequence[Fraction] | None = None) -> st.SearchStrategy[RunSetting]:
    """The settings a campaign for ``algorithm`` draws from."""
    return st.sampled_from([RunSetting(algorithm, v) for v in parameter_values(algorithm, epsilons)])
