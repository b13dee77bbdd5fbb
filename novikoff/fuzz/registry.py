"""One object per algorithm that ``novikoff diff`` and ``novikoff falsify`` test, one
registry per algorithm family.

An :class:`Algorithm` holds everything the fuzzing modules used to decide by its name:
the exact reference and the fast twin, the exact run they compare with, the symbols a
proposed bound may use, its parameter (the ``fit`` keyword, the values drawn, how
falsify derives it from eps), the float64 rounding test, the data families and how a
finding prints. :data:`BINARY` and :data:`MULTICLASS` map names to them,
:data:`ALGORITHMS` is both, and :func:`lookup` finds one or raises
:class:`~novikoff.errors.InputError` listing the valid names.

This module imports no fuzz module above it (only the contract, families and rounding
tests below it), so everything in :mod:`novikoff.fuzz` may import it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.fuzz import contract, rounding
from novikoff.fuzz.families import BINARY_FAMILIES, MULTICLASS_FAMILIES, DataFamily
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.perceptron import run_perceptron
from novikoff.runs import Order, RunRecord
from novikoff.twins.exact import exact_perceptron
from novikoff.twins.large_margin import pdm_twin, pfm_twin
from novikoff.twins.multiclass import multiclass_twin
from novikoff.twins.perceptron import perceptron_twin

__all__ = [
    "ALGORITHMS",
    "BINARY",
    "FAMILIES",
    "MULTICLASS",
    "Algorithm",
    "Parameter",
    "lookup",
]

COMMON_SYMBOLS = ("R", "gamma", "R2", "gamma2", "m", "d")

ExactRun = Callable[[Any, "Fraction | None", Order, int], RunRecord]
Ambiguity = Callable[[Any, Any, Order, "Fraction | None"], bool]


def _identity(eps: Fraction, gamma2: Fraction) -> Fraction:
    return eps


def pfm_beta(eps: Fraction, gamma2: Fraction) -> Fraction:
    """PFM's beta for eps on data with margin^2 ``gamma2``: the largest k/10^6 with
    (k/10^6)^2 <= (1 - eps)^2 gamma^2 (rational, so the run stays exact)."""
    target = (1 - eps) ** 2 * gamma2 * 10**12
    return Fraction(math.isqrt(target.numerator // target.denominator), 10**6)


@dataclass(frozen=True)
class Parameter:
    """An algorithm's parameter.

    ``symbol`` is its name everywhere: the keyword ``fit`` gets in ``novikoff diff``, the
    bound symbol of ``novikoff falsify`` and the header field of a counterexample;
    ``option`` is the ``novikoff run`` option that sets it. ``diff_values`` are the values
    diff calls ``fit`` with (dyadic, so exact in float64). A falsify campaign draws eps
    from ``default_epsilons`` (or the user's list) and runs ``from_eps(eps, gamma2)``;
    ``falsify_text`` describes such a setting (``{name}``, ``{eps}``).
    """

    symbol: str
    option: str
    diff_values: tuple[Fraction, ...]
    default_epsilons: tuple[Fraction, ...]
    from_eps: Callable[[Fraction, Fraction], Fraction]
    falsify_text: str

    def diff_strategy(self) -> st.SearchStrategy[Fraction]:
        """The values ``novikoff diff`` draws (shrinking towards the first)."""
        return st.sampled_from(self.diff_values)


@dataclass(frozen=True)
class Algorithm:
    """Everything the fuzzing modules know about one algorithm.

    - ``name``, ``family`` ("binary" or "multiclass") and ``title`` (as printed);
    - ``reference``: the exact reference (:mod:`novikoff.reference`); ``twin``: the fast
      float64 twin (:mod:`novikoff.twins`);
    - ``run(data, value, order, max_epochs)``: the exact run diff and falsify compare
      with (the reference's run; for the perceptron the exact twin, which makes the same
      run faster), ``value`` the parameter or None;
    - ``bound_symbols``: the symbols a bound given to ``falsify`` may use;
    - ``parameter``: None, or its :class:`Parameter`;
    - ``ambiguous(data, run, order, value)``: whether some decision of the exact run
      lies within float64 error (:mod:`novikoff.fuzz.rounding`);
    - ``data_families``: what ``diff`` draws; ``weight_shapes(data)``,
      ``describe_update(data, run, k)`` and ``format_label(label)``: the family's
      contract (:mod:`novikoff.fuzz.contract`).
    """

    name: str
    family: str
    title: str
    reference: Callable[..., Any]
    twin: Callable[..., Any]
    run: ExactRun
    bound_symbols: tuple[str, ...]
    parameter: Parameter | None
    ambiguous: Ambiguity
    data_families: tuple[DataFamily, ...]
    weight_shapes: Callable[[Any], Any]
    describe_update: Callable[[Any, Any, int], str]
    format_label: Callable[[int], str]

    @property
    def keyword(self) -> str | None:
        """The keyword ``fit`` gets the parameter by, or None."""
        return None if self.parameter is None else self.parameter.symbol

    def diff_values(self) -> st.SearchStrategy[Fraction | None]:
        """The parameter values ``novikoff diff`` draws (None when there is none)."""
        return st.just(None) if self.parameter is None else self.parameter.diff_strategy()

    def data_family(self, name: str) -> DataFamily:
        """The data family called ``name`` (its name or test id); InputError lists them."""
        for fam in self.data_families:
            if name in (fam.name, fam.id):
                return fam
        names = ", ".join(repr(f.name) for f in self.data_families)
        raise InputError(f"unknown data family {name!r} for --algorithm {self.name}; families: {names}")


def _perceptron_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return exact_perceptron(ds, order=order, max_epochs=max_epochs)  # = run_perceptron's run, faster


def _pdm_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return run_pdm(ds, value, order=order, max_epochs=max_epochs)


def _pfm_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return run_pfm(ds, value, order=order, max_epochs=max_epochs)


def _multiclass_run(data: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return run_multiclass(data, order=order, max_epochs=max_epochs)


def _binary(
    name: str,
    title: str,
    reference: Callable[..., Any],
    twin: Callable[..., Any],
    run: ExactRun,
    parameter: Parameter | None,
    ambiguous: Ambiguity,
) -> Algorithm:
    symbols = COMMON_SYMBOLS + (() if parameter is None else tuple(dict.fromkeys(("eps", parameter.symbol))))
    return Algorithm(
        name,
        "binary",
        title,
        reference,
        twin,
        run,
        symbols,
        parameter,
        ambiguous,
        BINARY_FAMILIES,
        contract.binary_weight_shapes,
        contract.binary_update,
        contract.binary_label,
    )


PERCEPTRON = _binary(
    "perceptron",
    "perceptron",
    run_perceptron,
    perceptron_twin,
    _perceptron_run,
    None,
    rounding.perceptron_ambiguous,
)
PDM = _binary(
    "pdm",
    "pdm",
    run_pdm,
    pdm_twin,
    _pdm_run,
    Parameter(
        "eps",
        "--epsilon",
        (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4)),
        (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 3), Fraction(1, 10)),
        _identity,
        "{name} eps = {eps}",
    ),
    rounding.pdm_ambiguous,
)
PFM = _binary(
    "pfm",
    "pfm",
    run_pfm,
    pfm_twin,
    _pfm_run,
    Parameter(
        "beta",
        "--beta",
        (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)),
        (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)),
        pfm_beta,
        "{name} with beta ~ (1 - {eps}) gamma",
    ),
    rounding.pfm_ambiguous,
)
MULTICLASS_PERCEPTRON = Algorithm(
    "multiclass",
    "multiclass",
    "the multiclass perceptron",
    run_multiclass,
    multiclass_twin,
    _multiclass_run,
    (*COMMON_SYMBOLS, "K"),
    None,
    rounding.multiclass_ambiguous,
    MULTICLASS_FAMILIES,
    contract.multiclass_weight_shapes,
    contract.multiclass_update,
    contract.multiclass_label,
)

#: The binary algorithms by name.
BINARY: Mapping[str, Algorithm] = MappingProxyType({a.name: a for a in (PERCEPTRON, PDM, PFM)})
#: The multiclass algorithms by name.
MULTICLASS: Mapping[str, Algorithm] = MappingProxyType({a.name: a for a in (MULTICLASS_PERCEPTRON,)})
#: Every registry, by family.
FAMILIES: Mapping[str, Mapping[str, Algorithm]] = MappingProxyType(
    {"binary": BINARY, "multiclass": MULTICLASS}
)
#: Every algorithm by name (binary first).
ALGORITHMS: Mapping[str, Algorithm] = MappingProxyType({**BINARY, **MULTICLASS})


def lookup(name: object, family: str | None = None) -> Algorithm:
    """The algorithm called ``name`` (in ``family``'s registry when given); an unknown name
    or family raises InputError listing the valid ones."""
    if family is not None and family not in FAMILIES:
        raise InputError(f"algorithm family {family!r}: expected one of {', '.join(FAMILIES)}")
    registry = ALGORITHMS if family is None else FAMILIES[family]
    if not isinstance(name, str) or name not in registry:
        kind = "algorithm" if family is None else f"{family} algorithm"
        raise InputError(f"{kind} {name!r}: expected one of {', '.join(registry)}")
    return registry[name]
