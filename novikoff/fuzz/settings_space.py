"""The algorithm a falsification campaign runs, and its parameter: one :class:`RunSetting`.

- ``perceptron``: no parameter;
- ``pdm``: eps, drawn from :data:`PDM_EPSILONS`; the bound may use ``eps``;
- ``pfm``: beta = (1 - eps) gamma rounded down to a rational (denominator 10^6),
  eps drawn from :data:`PFM_EPSILONS`; the bound may use ``beta`` and ``eps``,
  where eps means 1 - beta/gamma for the beta actually run (irrational in general;
  the falsifier evaluates it as an interval).

Every run is exact (:mod:`novikoff.reference`), single updates, from w = 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from novikoff.certify import SeparableCertificate
from novikoff.data import Dataset
from novikoff.errors import InputError
from novikoff.parameters import validate_epsilon
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.runs import Order
from novikoff.twins.exact import exact_perceptron

__all__ = ["ALGORITHMS", "PDM_EPSILONS", "PFM_EPSILONS", "RunSetting", "parameter_values", "settings_for"]

ALGORITHMS = ("perceptron", "pdm", "pfm", "multiclass")
PDM_EPSILONS = (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 3), Fraction(1, 10))
PFM_EPSILONS = (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10))


@dataclass(frozen=True)
class RunSetting:
    """An algorithm with its parameter (``value``: eps for pdm, the eps giving beta for pfm)."""

    algorithm: str
    value: Fraction | None = None

    def beta(self, gamma2: Fraction) -> Fraction:
        """PFM's beta: the largest k/10^6 with (k/10^6)^2 <= (1 - eps)^2 gamma^2."""
        assert self.value is not None
        target = (1 - self.value) ** 2 * gamma2 * 10**12
        return Fraction(math.isqrt(target.numerator // target.denominator), 10**6)

    def values(self, gamma2: Fraction) -> dict[str, Fraction]:
        """The bound's algorithm symbols (eps for pdm, beta for pfm) at this setting."""
        if self.algorithm == "pdm":
            assert self.value is not None
            return {"eps": self.value}
        if self.algorithm == "pfm":
            return {"beta": self.beta(gamma2)}
        return {}

    def run(self, ds: Dataset, cert: SeparableCertificate, order: Order, max_epochs: int) -> int:
        """The exact number of updates."""
        if self.algorithm == "pdm":
            return run_pdm(ds, self.value, order=order, max_epochs=max_epochs).mistakes
        if self.algorithm == "pfm":
            return run_pfm(ds, self.beta(cert.gamma2), order=order, max_epochs=max_epochs).mistakes
        return exact_perceptron(ds, order=order, max_epochs=max_epochs).mistakes  # = the reference's

    def describe(self, gamma2: Fraction | None = None) -> str:
        if self.algorithm == "pdm":
            return f"pdm eps = {self.value}"
        if self.algorithm == "pfm":
            beta = "" if gamma2 is None else f", beta = {self.beta(gamma2)}"
            return f"pfm with beta ~ (1 - {self.value}) gamma{beta}"
        return "the multiclass perceptron" if self.algorithm == "multiclass" else "perceptron"

    def replay_options(self, gamma2: Fraction) -> str:
        """The ``novikoff run`` options that replay this setting."""
        if self.algorithm == "pdm":
            return f"--algorithm pdm --epsilon {self.value}"
        if self.algorithm == "pfm":
            return f"--algorithm pfm --beta {self.beta(gamma2)}"
        return f"--algorithm {self.algorithm}"


def parameter_values(algorithm: str, epsilons: Sequence[Fraction] | None = None) -> list[Fraction | None]:
    """The eps values a campaign uses: ``epsilons`` if given (each in (0, 1]), else the defaults."""
    if algorithm in ("perceptron", "multiclass"):
        if epsilons:
            raise InputError("--epsilons applies to --algorithm pdm and pfm only")
        return [None]
    if epsilons:
        return [validate_epsilon(e, "--epsilons") for e in epsilons]
    return list(PDM_EPSILONS if algorithm == "pdm" else PFM_EPSILONS)


def settings_for(algorithm: str, epsilons: Sequence[Fraction] | None = None) -> st.SearchStrategy[RunSetting]:
    """The settings a campaign for ``algorithm`` draws from."""
    return st.sampled_from([RunSetting(algorithm, v) for v in parameter_values(algorithm, epsilons)])
