"""The algorithm registry: one typed record per algorithm, which everything else reads.

An :class:`AlgorithmEntry` names an algorithm's exact reference, its float64 twin and its
other engines, the theorems it is checked against (spec ids of :data:`novikoff.spec.THEOREMS`),
the ``novikoff run`` options it takes and how that command runs it (:class:`CliSpec`), what
``novikoff diff`` and ``novikoff falsify`` need to test it (:class:`FuzzSpec`: the exact run
compared with, the float64 rounding test, the data families, the checks, the parameter), its
scikit-learn estimator and its documentation page. :data:`ALGORITHMS` holds them by name, in
the order ``--algorithm`` lists them. The CLI's ``--algorithm`` choices (run, diff, falsify),
the fuzz registry (:mod:`novikoff.fuzz.registry`), the estimators of
:mod:`novikoff.integrations.sklearn` and the table of algorithms in ``docs/contributing.md``
(:func:`algorithm_table`) are all read from here; nothing else lists the algorithms.

**Layering.** Every field that names code is a :data:`Target`: a ``"module:attribute"``
string resolved by :func:`resolve` only when it is used (or, in tests, the object itself).
So this module imports nothing of novikoff but :mod:`novikoff.errors`: it sits in the
runtime layer, every layer may read it, and reading it (building the CLI parser) loads
neither sympy, scipy, hypothesis nor any solver. Import-linter does not follow the strings:
a target must name a module that the *caller's* layer may import (the CLI's targets are in
:mod:`novikoff.commands`, the fuzz targets in :mod:`novikoff.fuzz` and below), which
``tests/runtime/test_algorithm_registry.py`` checks for every entry.

**Adding an algorithm** (``docs/contributing.md``): its reference and twin in their own
modules, its spec and proofs, then one :class:`AlgorithmEntry` passed to :func:`register`
(at the end of this module for a built-in one). The CLI, diff, falsify and the docs table
follow from the entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from novikoff.errors import InputError

__all__ = [
    "ALGORITHMS",
    "AlgorithmEntry",
    "CliSpec",
    "FuzzParameter",
    "FuzzSpec",
    "Target",
    "algorithm_table",
    "get",
    "names",
    "register",
    "registered",
    "resolve",
    "target_name",
    "unregister",
]

#: Code named by a record: ``"package.module:attribute"`` (resolved lazily), or the object itself.
Target = str | Callable[..., Any] | tuple[Any, ...]

_RUN_OPTIONS = ("--epsilon", "--beta", "--alpha", "--iterations", "--epsilons", "--aggressive")


def resolve(target: Target) -> Any:
    """The object ``target`` names: for ``"module:attribute"`` (the attribute may be dotted)
    the module imported and the attribute read; any other value is returned as it is. A
    malformed string, a missing module or attribute raises ValueError naming the target."""
    if not isinstance(target, str):
        return target
    module, colon, attribute = target.partition(":")
    if not colon or not module or not attribute:
        raise ValueError(f"algorithm registry: {target!r} is not 'module:attribute'")
    try:
        obj: Any = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(f"algorithm registry: {target!r}: cannot import {module}: {exc}") from exc
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"algorithm registry: {target!r}: {module} has no attribute {attribute}")
        obj = getattr(obj, part)
    return obj


def target_name(target: Target) -> str:
    """``target`` as text: the string itself, else ``module:qualified name`` of the object."""
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", "?")
    return f"{module}:{getattr(target, '__qualname__', type(target).__name__)}"


@dataclass(frozen=True)
class CliSpec:
    """How ``novikoff run --algorithm NAME`` runs an algorithm.

    - ``options``: the run options it takes (of ``--epsilon --beta --alpha --iterations
      --epsilons --aggressive``); any other one given is bad input (exit 2);
    - ``parameters(args) -> dict``: its parameters read from the options (None: it has none);
    - ``exact(ds, params, args, certificate)`` and ``fast(ds, params, args)``: the runs of
      ``--exact`` and ``--fast``, each returning a :class:`~novikoff.runtime.runs.RunRecord`.
      None: the entry's reference (exact) or twin (fast) called as ``f(ds, max_epochs=N,
      **params)``, N the epoch cap that ``--max-epochs``/``--max-updates`` give;
    - ``command(args) -> int``: when set, the whole command (an algorithm with its own report,
      such as the multiclass perceptron and MSVMAv), and the fields above are not used;
    - ``one_update_per_presentation``: the run updates at most once per presentation (so
      ``--max-updates`` caps its epochs);
    - ``margin``: ``"estimate"`` (the achieved margin and the after-run estimate 1 - gamma'
      t/||w||), ``"no-estimate"`` (the margin only: the weights are not a sum of t updates)
      or ``"none"`` (no single linear classifier);
    - ``checks(ds, run, params, sep, margin, args) -> dict[str, str]``: its theorem checks
      after the run, beside those the run reports itself;
    - ``report(ds, run, args) -> dict``: extra fields of the JSON report (the ``"run"`` key
      merged into the run's fields) and ``lines(report, ds, run, args) -> list[str]``: extra
      lines of the text report;
    - ``example``: the options of a minimal run (a required parameter given), which the wiring
      test runs on a small dataset;
    - ``weights_note``: what ``--weights-out`` writes, when the weights are not the last ones;
    - ``name_from_run``: the report names the algorithm as the run record does (ROMMA's
      "romma (aggressive)") rather than by its registry name.
    """

    options: tuple[str, ...] = ()
    parameters: Target | None = None
    exact: Target | None = None
    fast: Target | None = None
    command: Target | None = None
    one_update_per_presentation: bool = False
    margin: str = "estimate"
    checks: Target | None = None
    report: Target | None = None
    lines: Target | None = None
    name_from_run: bool = False
    weights_note: str = ""
    example: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = [o for o in self.options if o not in _RUN_OPTIONS]
        if unknown:
            raise ValueError(f"CliSpec: unknown run option(s) {unknown}; known: {', '.join(_RUN_OPTIONS)}")
        if self.margin not in ("estimate", "no-estimate", "none"):
            raise ValueError(f"CliSpec: margin must be estimate, no-estimate or none, got {self.margin!r}")


@dataclass(frozen=True)
class FuzzParameter:
    """An algorithm's parameter as ``diff`` and ``falsify`` see it (the fields of
    :class:`novikoff.fuzz.registry.Parameter`): ``symbol`` (the ``fit`` keyword and bound
    symbol), ``option`` (its ``novikoff run`` option), ``diff_values`` (dyadic, exact in
    float64), ``default_epsilons`` (what falsify draws), ``from_eps(eps, gamma2)`` (the value
    a falsify setting runs) and ``falsify_text`` (``{name}``, ``{eps}``)."""

    symbol: str
    option: str
    diff_values: tuple[Fraction, ...]
    default_epsilons: tuple[Fraction, ...]
    from_eps: Target
    falsify_text: str


@dataclass(frozen=True)
class FuzzSpec:
    """What ``novikoff diff`` and ``novikoff falsify`` need: ``run(data, value, order,
    max_epochs)`` the exact run compared with; ``ambiguous(data, run, order, value)`` whether a
    decision of that run lies within float64 error; ``families`` the data families drawn (a
    tuple of :class:`~novikoff.fuzz.families.DataFamily`); ``checks`` the properties compared
    (a tuple of :mod:`novikoff.fuzz.checks` checks); ``parameter``; ``weights_exact`` (False:
    the implementation's weights round even on float-exact data, so their direction is
    compared to 1e-9); ``extra_symbols`` a bound may use beside R, gamma, m, d (and the
    parameter's)."""

    run: Target
    ambiguous: Target
    families: Target
    checks: Target = "novikoff.fuzz.checks:CHECKS"
    parameter: FuzzParameter | None = None
    weights_exact: bool = True
    extra_symbols: tuple[str, ...] = ()


@dataclass(frozen=True)
class AlgorithmEntry:
    """One algorithm, everything novikoff knows about it (the module docstring says who reads
    which field). ``family`` is ``"binary"`` or ``"multiclass"``; ``source`` cites where the
    algorithm is defined; ``docs`` is its documentation page (relative to ``docs/``);
    ``theorems`` may be empty only with ``theorems_note`` saying why;
    ``fuzz`` is None for an algorithm diff and falsify do not test (``diff_note`` says why),
    ``sklearn`` None for one without an estimator (``sklearn_note`` says why)."""

    name: str
    title: str
    family: str
    source: str
    reference: Target
    twin: Target
    theorems: tuple[str, ...]
    docs: str
    cli: CliSpec = field(default_factory=CliSpec)
    engines: tuple[Target, ...] = ()
    theorems_note: str = ""
    fuzz: FuzzSpec | None = None
    diff_note: str = ""
    sklearn: Target | None = None
    sklearn_note: str = ""

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip() or " " in self.name:
            raise ValueError(f"AlgorithmEntry: bad name {self.name!r}")
        if self.family not in ("binary", "multiclass"):
            raise ValueError(f"AlgorithmEntry {self.name}: family must be binary or multiclass")
        if not self.theorems and not self.theorems_note:
            raise ValueError(f"AlgorithmEntry {self.name}: no theorems and no theorems_note saying why")
        if self.fuzz is None and not self.diff_note:
            raise ValueError(f"AlgorithmEntry {self.name}: no fuzz spec and no diff_note saying why")
        if self.sklearn is None and not self.sklearn_note:
            raise ValueError(f"AlgorithmEntry {self.name}: no estimator and no sklearn_note saying why")


_ENTRIES: dict[str, AlgorithmEntry] = {}


class _Live(Mapping[str, AlgorithmEntry]):
    """A read-only view of the registry that follows :func:`register`."""

    def __getitem__(self, name: str) -> AlgorithmEntry:
        return _ENTRIES[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(_ENTRIES))

    def __len__(self) -> int:
        return len(_ENTRIES)

    def __repr__(self) -> str:
        return f"ALGORITHMS({', '.join(_ENTRIES)})"


#: Every registered algorithm by name, in registration order (a live read-only view).
ALGORITHMS: Mapping[str, AlgorithmEntry] = _Live()


def register(entry: AlgorithmEntry) -> AlgorithmEntry:
    """Add ``entry``; a name already registered raises ValueError. Returns ``entry``."""
    if entry.name in _ENTRIES:
        raise ValueError(f"algorithm registry: {entry.name!r} is already registered")
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove the algorithm ``name`` (KeyError if it is not registered)."""
    del _ENTRIES[name]


@contextmanager
def registered(entry: AlgorithmEntry) -> Iterator[AlgorithmEntry]:
    """``entry`` registered for the ``with`` block, removed after it (for tests)."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.name)


def names(predicate: Callable[[AlgorithmEntry], bool] | None = None) -> tuple[str, ...]:
    """The registered names (those satisfying ``predicate`` when given), in order."""
    return tuple(n for n, e in _ENTRIES.items() if predicate is None or predicate(e))


def get(name: object) -> AlgorithmEntry:
    """The entry called ``name``; an unknown name raises InputError listing the valid ones."""
    if not isinstance(name, str) or name not in _ENTRIES:
        raise InputError(f"algorithm {name!r}: expected one of {', '.join(_ENTRIES)}")
    return _ENTRIES[name]


def _short(target: Target | None) -> str:
    if target is None:
        return "-"
    text = target_name(target).replace("novikoff.", "")
    return f"`{text}`"


def algorithm_table() -> str:
    """The Markdown table of the registered algorithms (written into ``docs/contributing.md``
    between ``<!-- algorithms:start -->`` and ``<!-- algorithms:end -->`` by
    ``python benchmarks/algorithm_table.py``; a test holds the page to it)."""
    lines = [
        "| `--algorithm` | reference | twin | theorems | `run` options | diff/falsify | estimator | page |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in _ENTRIES.values():
        options = " ".join(f"`{o}`" for o in e.cli.options) or "-"
        fuzz = "yes" if e.fuzz is not None else f"no: {e.diff_note}"
        est = _short(e.sklearn) if e.sklearn is not None else f"no: {e.sklearn_note}"
        page = f"[{e.docs}]({e.docs})"
        theorems = ", ".join(e.theorems) or "-"
        lines.append(
            f"| `{e.name}` | {_short(e.reference)} | {_short(e.twin)} | {theorems} | {options} | "
            f"{fuzz} | {est} | {page} |"
        )
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- the algorithms

_F = Fraction
_CMD = "novikoff.commands.run_binary"
_FZ = "novikoff.fuzz.algorithm_runs"
_SK = "novikoff.integrations.sklearn"
_PERCEPTRON_FAMILIES = "novikoff.fuzz.families:PERCEPTRON_FAMILIES"
_BINARY_FAMILIES = "novikoff.fuzz.families:BINARY_FAMILIES"
_INTEGER_ENGINE = "novikoff.reference.large_margin_integer:DecisionValues"  # engine="integer"
_COMPILED_LARGE_MARGIN = "novikoff.twins.compiled_large_margin:LargeMarginKernel"

register(
    AlgorithmEntry(
        "perceptron",
        "the perceptron",
        "binary",
        "Rosenblatt's perceptron; Novikoff's bound (the textbook, Theorem 1)",
        "novikoff.reference.perceptron:run_perceptron",
        "novikoff.twins.perceptron:perceptron_twin",
        ("N1", "N2", "N3", "T1", "G1", "FS1"),
        "howto/run.md",
        CliSpec(
            exact=f"{_CMD}:perceptron_exact",
            fast=f"{_CMD}:perceptron_fast",
            one_update_per_presentation=True,
            checks=f"{_CMD}:perceptron_checks",
        ),
        engines=("novikoff.twins.exact:exact_perceptron", "novikoff.twins.compiled:CompiledEpochs"),
        fuzz=FuzzSpec(
            f"{_FZ}:perceptron_run", "novikoff.fuzz.rounding:perceptron_ambiguous", _PERCEPTRON_FAMILIES
        ),
        sklearn=f"{_SK}:Perceptron",
    )
)
register(
    AlgorithmEntry(
        "pdm",
        "PDM (the perceptron with dynamic margin)",
        "binary",
        "the PDM paper (Panagiotakopoulos and Tsampouka), PDM(eps)",
        "novikoff.reference.large_margin:run_pdm",
        "novikoff.twins.large_margin:pdm_twin",
        ("D1", "D2", "D3", "L1", "MU"),
        "howto/run.md",
        CliSpec(
            ("--epsilon",),
            f"{_CMD}:pdm_parameters",
            f"{_CMD}:large_margin_exact",
            f"{_CMD}:pdm_fast",
            checks=f"{_CMD}:d2_checks",
        ),
        engines=(_INTEGER_ENGINE, _COMPILED_LARGE_MARGIN),
        fuzz=FuzzSpec(
            f"{_FZ}:pdm_run",
            "novikoff.fuzz.rounding:pdm_ambiguous",
            _BINARY_FAMILIES,
            parameter=FuzzParameter(
                "eps",
                "--epsilon",
                (_F(1), _F(3, 4), _F(1, 2), _F(1, 4)),
                (_F(1), _F(3, 4), _F(1, 2), _F(1, 3), _F(1, 10)),
                f"{_FZ}:identity",
                "{name} eps = {eps}",
            ),
        ),
        sklearn=f"{_SK}:PDM",
    )
)
register(
    AlgorithmEntry(
        "pfm",
        "PFM (the perceptron with fixed margin)",
        "binary",
        "the PDM paper (Panagiotakopoulos and Tsampouka), the fixed-margin perceptron",
        "novikoff.reference.large_margin:run_pfm",
        "novikoff.twins.large_margin:pfm_twin",
        ("P1",),
        "howto/run.md",
        CliSpec(
            ("--beta",),
            f"{_CMD}:pfm_parameters",
            f"{_CMD}:large_margin_exact",
            f"{_CMD}:pfm_fast",
            example=("--beta", "1/10"),
        ),
        engines=(_INTEGER_ENGINE, _COMPILED_LARGE_MARGIN),
        fuzz=FuzzSpec(
            f"{_FZ}:pfm_run",
            "novikoff.fuzz.rounding:pfm_ambiguous",
            _BINARY_FAMILIES,
            parameter=FuzzParameter(
                "beta",
                "--beta",
                (_F(0), _F(1, 4), _F(1, 2), _F(1)),
                (_F(1), _F(3, 4), _F(1, 2), _F(1, 4), _F(1, 10)),
                f"{_FZ}:pfm_beta",
                "{name} with beta ~ (1 - {eps}) gamma",
            ),
        ),
        sklearn=f"{_SK}:PFM",
    )
)
register(
    AlgorithmEntry(
        "pdm-succ",
        "PDM-succ (successive PDM runs)",
        "binary",
        "the PDM paper (Panagiotakopoulos and Tsampouka), PDM-succ",
        "novikoff.reference.large_margin:run_pdm_succ",
        "novikoff.twins.large_margin:pdm_succ_twin",
        ("D1", "D2", "DS1"),
        "howto/run.md",
        CliSpec(
            ("--epsilons",),
            f"{_CMD}:pdm_succ_parameters",
            f"{_CMD}:large_margin_exact",
            f"{_CMD}:pdm_succ_fast",
            checks=f"{_CMD}:d2_checks",
            example=("--epsilons", "1/2,1/4"),
        ),
        engines=(_INTEGER_ENGINE,),
        diff_note="a list of eps values is not one fit parameter",
        sklearn_note="PDM(eps) with the last eps gives the same final rule",
    )
)
register(
    AlgorithmEntry(
        "pocket",
        "the pocket algorithm",
        "binary",
        "Gallant's pocket algorithm (the textbook)",
        "novikoff.reference.pocket:run_pocket",
        "novikoff.twins.pocket:pocket_twin",
        (),
        "howto/run.md",
        CliSpec(
            exact=f"{_CMD}:pocket_exact",
            fast=f"{_CMD}:pocket_fast",
            one_update_per_presentation=True,
            report=f"{_CMD}:pocket_report",
            lines=f"{_CMD}:pocket_lines",
        ),
        theorems_note="no bound of its own: its run is the perceptron's, its pocket the fewest errors seen",
        diff_note="the pocket weights are chosen by training error, not by an update rule",
        sklearn_note="not yet",
    )
)
register(
    AlgorithmEntry(
        "averaged",
        "the averaged perceptron",
        "binary",
        "Freund and Schapire 1999, the averaged perceptron",
        "novikoff.reference.averaged:run_averaged",
        "novikoff.twins.averaged:averaged_twin",
        ("N1", "N2", "N3", "V1"),
        "howto/run.md",
        CliSpec(
            parameters="novikoff.commands.run_averaged:averaged_parameters",
            exact="novikoff.commands.run_averaged:averaged_exact",
            fast="novikoff.commands.run_averaged:averaged_fast",
            one_update_per_presentation=True,
            margin="no-estimate",
            checks=f"{_CMD}:perceptron_checks",
            report="novikoff.commands.run_averaged:averaged_report",
            lines="novikoff.commands.run_averaged:averaged_report_lines",
            weights_note="the average of the weights after every presentation",
        ),
        fuzz=FuzzSpec(
            f"{_FZ}:averaged_run", f"{_FZ}:averaged_ambiguous", _PERCEPTRON_FAMILIES, weights_exact=False
        ),
        sklearn_note="not yet",
    )
)
register(
    AlgorithmEntry(
        "voted",
        "the voted perceptron",
        "binary",
        "Freund and Schapire 1999, the voted perceptron",
        "novikoff.reference.averaged:run_voted",
        "novikoff.twins.averaged:voted_twin",
        ("N1", "N2", "N3", "V1"),
        "howto/run.md",
        CliSpec(
            parameters="novikoff.commands.run_averaged:averaged_parameters",
            exact="novikoff.commands.run_averaged:averaged_exact",
            fast="novikoff.commands.run_averaged:averaged_fast",
            one_update_per_presentation=True,
            margin="none",
            checks=f"{_CMD}:perceptron_checks",
            report="novikoff.commands.run_averaged:averaged_report",
            lines="novikoff.commands.run_averaged:averaged_report_lines",
        ),
        fuzz=FuzzSpec(
            f"{_FZ}:voted_run",
            f"{_FZ}:voted_ambiguous",
            _PERCEPTRON_FAMILIES,
            checks=f"{_FZ}:VOTED_ALL_CHECKS",
        ),
        sklearn_note="a vote of many weight vectors is not one linear classifier (coef_)",
    )
)
register(
    AlgorithmEntry(
        "multiclass",
        "the multiclass perceptron",
        "multiclass",
        "the multiclass perceptron and Kesler's construction (the textbook)",
        "novikoff.reference.multiclass:run_multiclass",
        "novikoff.twins.multiclass:multiclass_twin",
        ("M1",),
        "howto/run.md",
        CliSpec(command="novikoff.commands.run_multiclass:multiclass_command"),
        fuzz=FuzzSpec(
            f"{_FZ}:multiclass_run",
            "novikoff.fuzz.rounding:multiclass_ambiguous",
            "novikoff.fuzz.families:MULTICLASS_FAMILIES",
            extra_symbols=("K",),
        ),
        sklearn=f"{_SK}:MultiClassPerceptron",
    )
)
register(
    AlgorithmEntry(
        "msvmav",
        "MSVMAv (the margin-distribution optimizer)",
        "binary",
        "the IJCAI paper, MSVMAv",
        "novikoff.reference.msvmav:run_msvmav",
        "novikoff.twins.msvmav:msvmav_twin",
        ("S1", "S2"),
        "replications-msvmav.md",
        CliSpec(
            ("--alpha", "--beta", "--iterations"),
            command="novikoff.commands.run_msvmav:msvmav_command",
            example=("--iterations", "3"),
        ),
        diff_note="an optimizer over T iterations, not a mistake-driven run with updates to compare",
        sklearn_note="not yet",
    )
)
register(
    AlgorithmEntry(
        "romma",
        "ROMMA (the relaxed online maximum margin algorithm)",
        "binary",
        "Li and Long 2002, ROMMA (conservative and aggressive)",
        "novikoff.reference.romma:run_romma",
        "novikoff.twins.romma:romma_twin",
        ("R1",),
        "replications-romma.md",
        CliSpec(
            ("--epsilon", "--aggressive"),
            f"{_CMD}:romma_parameters",
            f"{_CMD}:romma_exact",
            f"{_CMD}:romma_fast",
            margin="no-estimate",
            checks=f"{_CMD}:romma_checks",
            name_from_run=True,
        ),
        fuzz=FuzzSpec(
            f"{_FZ}:romma_run",
            f"{_FZ}:romma_ambiguous",
            f"{_FZ}:ROMMA_FAMILIES",
            weights_exact=False,
        ),
        sklearn=f"{_SK}:ROMMA",
    )
)
