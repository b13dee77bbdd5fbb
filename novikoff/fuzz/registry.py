"""One object per algorithm that ``novikoff diff`` and ``novikoff falsify`` test, one
registry per algorithm family.

An :class:`Algorithm` holds everything the fuzzing modules used to decide by its name:
the exact reference and the fast twin, the exact run they compare with, the symbols a
proposed bound may use, its parameter (the ``fit`` keyword, the values drawn, how
falsify derives it from eps), the float64 rounding test, the data families and how a
finding prints. :data:`BINARY` and :data:`MULTICLASS` map names to them,
:data:`ALGORITHMS` is both, and :func:`lookup` finds one or raises
:class:`~novikoff.errors.InputError` listing the valid names.

This module imports no fuzz module above it (only the contract, the checks, the families
and the rounding tests below it), so everything in :mod:`novikoff.fuzz` may import it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np
from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.fuzz import contract, rounding
from novikoff.fuzz.checks import CHECKS, VOTED_CHECKS, Check
from novikoff.fuzz.families import BINARY_FAMILIES, MULTICLASS_FAMILIES, PERCEPTRON_FAMILIES, DataFamily
from novikoff.reference.averaged import averaged_from_run, run_averaged, run_voted, voted_from_run
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.perceptron import run_perceptron
from novikoff.runtime.runs import Order, RunRecord
from novikoff.twins.averaged import averaged_twin, voted_twin
from novikoff.twins.exact import exact_perceptron
from novikoff.twins.large_margin import pdm_twin, pfm_twin
from novikoff.twins.multiclass import multiclass_twin
from novikoff.twins.perceptron import perceptron_twin

__all__ = [
    "ALGORITHMS",
    "AVERAGED",
    "BINARY",
    "FAMILIES",
    "MULTICLASS",
    "VOTED",
    "Algorithm",
    "Parameter",
    "averaged_ambiguous",
    "lookup",
    "voted_ambiguous",
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
      contract (:mod:`novikoff.fuzz.contract`);
    - ``checks``: what ``diff`` compares (:mod:`novikoff.fuzz.checks`), and
      ``weights_exact``: whether float-exact data make the implementation's weights exact
      (False for the averaged perceptron: its division by N rounds, so its direction is
      compared to 1e-9 everywhere).
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
    checks: tuple[Check, ...] = CHECKS
    weights_exact: bool = True

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


def _averaged_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return averaged_from_run(ds, exact_perceptron(ds, order=order, max_epochs=max_epochs), order)


def _voted_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return voted_from_run(ds, exact_perceptron(ds, order=order, max_epochs=max_epochs), order)


_U = 2.0**-53


def _gamma(n: int) -> float:
    return n * _U / (1 - n * _U)


def _float_voters(ds: Any, run: RunRecord) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(|w_j| as floats, the float64 error bound of w_j, the exact integer W_j = s w_j)
    for j = 0..k: w_j after j float additions errs by at most gamma_j sum |z_u| per coordinate."""
    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    W = [0] * ds.dimension
    acc = np.zeros(ds.dimension)
    out = [(np.zeros(ds.dimension), np.zeros(ds.dimension), np.array(W, dtype=object))]
    for k, (_, i) in enumerate(run.updates, start=1):
        W = [a + b for a, b in zip(W, Z[i])]
        acc = acc + Zf[i]
        out.append((np.abs(np.array([v / s for v in W])), _gamma(k) * acc, np.array(W, dtype=object)))
    return out


def averaged_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    """True iff the perceptron's run is ambiguous (:func:`rounding.perceptron_ambiguous`) or
    the float64 error bound of the average (each w_j's, plus gamma_(k+2) for summing
    c_j w_j and dividing by N) exceeds 1e-10 of the exact average's norm, so its direction
    may rightly differ by more than the 1e-9 compared."""
    if rounding.perceptron_ambiguous(ds, run, order, value):
        return True
    counts = getattr(run, "counts", ())
    voters = _float_voters(ds, run)
    g = _gamma(len(voters) + 1)
    err = sum((c * (e + g * a) for (a, e, _), c in zip(voters, counts)), np.zeros(ds.dimension))
    err = err / max(sum(counts), 1)
    norm = float(np.linalg.norm([float(v) for v in run.weights]))
    return bool(np.linalg.norm(err) > 1e-10 * norm)


def voted_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    """True iff the perceptron's run is ambiguous or some w_j.x~_i (a sign the vote counts)
    lies within the float64 error bound of evaluating it: gamma_n |w_j|.|z_i| plus the
    weights' own error, doubled."""
    if rounding.perceptron_ambiguous(ds, run, order, value):
        return True
    Z, s = ds.scaled_patterns
    Zf = np.abs(ds.float_patterns())
    g = _gamma(ds.dimension)
    for a, e, W in _float_voters(ds, run):
        for i, z in enumerate(Z):
            bound = 2 * (g * float(a @ Zf[i]) + float(e @ Zf[i]))
            p = sum(x * y for x, y in zip(W, z))
            if bound > 0 and abs(p) / (s * s) <= bound:
                return True
    return False


def _binary(
    name: str,
    title: str,
    reference: Callable[..., Any],
    twin: Callable[..., Any],
    run: ExactRun,
    parameter: Parameter | None,
    ambiguous: Ambiguity,
    families: tuple[DataFamily, ...] = BINARY_FAMILIES,
    checks: tuple[Check, ...] = CHECKS,
    weights_exact: bool = True,
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
        families,
        contract.binary_weight_shapes,
        contract.binary_update,
        contract.binary_label,
        checks,
        weights_exact,
    )


PERCEPTRON = _binary(
    "perceptron",
    "perceptron",
    run_perceptron,
    perceptron_twin,
    _perceptron_run,
    None,
    rounding.perceptron_ambiguous,
    PERCEPTRON_FAMILIES,
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
AVERAGED = _binary(
    "averaged",
    "the averaged perceptron",
    run_averaged,
    averaged_twin,
    _averaged_run,
    None,
    averaged_ambiguous,
    PERCEPTRON_FAMILIES,
    weights_exact=False,
)
VOTED = _binary(
    "voted",
    "the voted perceptron",
    run_voted,
    voted_twin,
    _voted_run,
    None,
    voted_ambiguous,
    PERCEPTRON_FAMILIES,
    CHECKS + VOTED_CHECKS,
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
BINARY: Mapping[str, Algorithm] = MappingProxyType(
    {a.name: a for a in (PERCEPTRON, PDM, PFM, AVERAGED, VOTED)}
)
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
