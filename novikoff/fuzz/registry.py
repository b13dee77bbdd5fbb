"""One object per algorithm that ``novikoff diff`` and ``novikoff falsify`` test, built from
the algorithm registry (:mod:`novikoff.runtime.algorithms`), one view per algorithm family.

An :class:`Algorithm` holds everything the fuzzing modules used to decide by its name:
the exact reference and the fast twin, the exact run they compare with, the symbols a
proposed bound may use, its parameter (the ``fit`` keyword, the values drawn, how
falsify derives it from eps), the float64 rounding test, the data families and how a
finding prints. It is built from the registry entry's :class:`~novikoff.runtime.algorithms.FuzzSpec`
(the first time it is asked for). :data:`BINARY` and :data:`MULTICLASS` map names to them,
:data:`ALGORITHMS` is both (live views: an entry registered later appears in them), and
:func:`lookup` finds one or raises :class:`~novikoff.errors.InputError` listing the valid names.
No algorithm is listed here: an entry with a ``fuzz`` spec is tested by diff and falsify.

This module imports no fuzz module above it (only the contract, the checks, the families
and the rounding tests below it; the entries' targets, such as
:mod:`novikoff.fuzz.algorithm_runs`, are resolved when asked for), so everything
in :mod:`novikoff.fuzz` may import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from novikoff.errors import InputError
from novikoff.fuzz import contract
from novikoff.fuzz.checks import CHECKS, DiffCheck
from novikoff.fuzz.families import DataFamily
from novikoff.runtime import algorithms as registry
from novikoff.runtime.runs import Order, RunRecord

__all__ = [
    "ALGORITHMS",
    "AVERAGED",
    "BINARY",
    "FAMILIES",
    "MULTICLASS",
    "ROMMA",
    "VOTED",
    "Algorithm",
    "Parameter",
    "build",
    "lookup",
]

COMMON_SYMBOLS = ("R", "gamma", "R2", "gamma2", "m", "d")

ExactRun = Callable[[Any, "Fraction | None", Order, int], RunRecord]
Ambiguity = Callable[[Any, Any, Order, "Fraction | None"], bool]


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
    checks: tuple[DiffCheck, ...] = CHECKS
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


_BUILT: dict[int, tuple[registry.AlgorithmEntry, Algorithm]] = {}


def _contract(family: str) -> tuple[Callable[..., Any], Callable[..., Any], Callable[[int], str]]:
    if family == "multiclass":
        return contract.multiclass_weight_shapes, contract.multiclass_update, contract.multiclass_label
    return contract.binary_weight_shapes, contract.binary_update, contract.binary_label


def build(entry: registry.AlgorithmEntry) -> Algorithm:
    """The :class:`Algorithm` of a registry entry with a ``fuzz`` spec (every target resolved;
    ValueError for an entry without one). The same entry object gives the same Algorithm."""
    cached = _BUILT.get(id(entry))
    if cached is not None and cached[0] is entry:
        return cached[1]
    spec = entry.fuzz
    if spec is None:
        raise ValueError(f"algorithm {entry.name!r} is not tested by diff/falsify: {entry.diff_note}")
    r = registry.resolve
    parameter = None
    if spec.parameter is not None:
        p = spec.parameter
        parameter = Parameter(
            p.symbol, p.option, p.diff_values, p.default_epsilons, r(p.from_eps), p.falsify_text
        )
    symbols = COMMON_SYMBOLS + spec.extra_symbols
    if parameter is not None:
        symbols += tuple(dict.fromkeys(("eps", parameter.symbol)))
    shapes, update, label = _contract(entry.family)
    algorithm = Algorithm(
        entry.name,
        entry.family,
        entry.title,
        r(entry.reference),
        r(entry.twin),
        r(spec.run),
        symbols,
        parameter,
        r(spec.ambiguous),
        tuple(r(spec.families)),
        shapes,
        update,
        label,
        tuple(r(spec.checks)),
        spec.weights_exact,
    )
    _BUILT[id(entry)] = (entry, algorithm)
    return algorithm


class _View(Mapping[str, Algorithm]):
    """The registry's entries with a fuzz spec (of one family, or all) as Algorithms, live."""

    def __init__(self, family: str | None) -> None:
        self._family = family

    def _names(self) -> tuple[str, ...]:
        return registry.names(lambda e: e.fuzz is not None and self._family in (None, e.family))

    def __getitem__(self, name: str) -> Algorithm:
        if name not in self._names():
            raise KeyError(name)
        return build(registry.ALGORITHMS[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


#: The binary algorithms by name.
BINARY: Mapping[str, Algorithm] = _View("binary")
#: The multiclass algorithms by name.
MULTICLASS: Mapping[str, Algorithm] = _View("multiclass")
#: Every registry, by family.
FAMILIES: Mapping[str, Mapping[str, Algorithm]] = {"binary": BINARY, "multiclass": MULTICLASS}
#: Every algorithm diff and falsify test, by name (in registry order).
ALGORITHMS: Mapping[str, Algorithm] = _View(None)

PERCEPTRON = ALGORITHMS["perceptron"]
PDM = ALGORITHMS["pdm"]
PFM = ALGORITHMS["pfm"]
AVERAGED = ALGORITHMS["averaged"]
VOTED = ALGORITHMS["voted"]
ROMMA = ALGORITHMS["romma"]
MULTICLASS_PERCEPTRON = ALGORITHMS["multiclass"]


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
