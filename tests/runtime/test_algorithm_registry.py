"""The algorithm registry (novikoff.runtime.algorithms): every registered algorithm is wired
everywhere (run, diff, falsify, verify's theorems, the estimators, the docs), its targets
resolve in a layer its readers may import, and a toy algorithm added by one entry (with its
reference and twin as tiny functions below) runs through ``novikoff run`` and ``novikoff diff``
with nothing else touched."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomllib

from novikoff import cli
from novikoff.runtime import algorithms as reg
from novikoff.runtime.algorithms import AlgorithmEntry, CliSpec, FuzzSpec
from novikoff.runtime.runs import Order, RunRecord, epoch_order

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NAMES = reg.names()

BINARY_CSV = "x1,x2,y\n0.25,0.5,1\n0.5,0.25,1\n0.75,0.75,1\n-0.25,-0.25,-1\n-0.5,-0.25,-1\n-0.25,-0.75,-1\n"
MULTICLASS_CSV = "x1,x2,y\n3,0,a\n4,1,a\n0,3,b\n1,4,b\n-3,-3,c\n-4,-2,c\n"


def _choices(command: str) -> list[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    option = next(a for a in sub.choices[command]._actions if a.dest == "algorithm")
    return list(option.choices or [])


def _run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------- the registry's own rules


def test_resolve_reads_module_attribute_targets_and_names_the_bad_ones() -> None:
    assert reg.resolve("novikoff.runtime.runs:epoch_order") is epoch_order
    assert reg.resolve(len) is len  # an object is its own target
    with pytest.raises(ValueError, match="is not 'module:attribute'"):
        reg.resolve("novikoff.runtime.runs.epoch_order")
    with pytest.raises(ValueError, match=r"cannot import novikoff\.nowhere"):
        reg.resolve("novikoff.nowhere:f")
    with pytest.raises(ValueError, match="has no attribute nothing_here"):
        reg.resolve("novikoff.runtime.runs:nothing_here")


def test_an_entry_must_say_why_it_lacks_a_theorem_a_fuzz_spec_or_an_estimator() -> None:
    base: dict[str, Any] = {
        "name": "x",
        "title": "x",
        "family": "binary",
        "source": "s",
        "reference": "m:f",
        "twin": "m:g",
        "theorems": ("N3",),
        "docs": "howto/run.md",
        "diff_note": "n",
        "sklearn_note": "n",
    }
    AlgorithmEntry(**base)
    for key, reason in (
        ("diff_note", "no fuzz spec and no diff_note"),
        ("sklearn_note", "no estimator and no sklearn_note"),
    ):
        with pytest.raises(ValueError, match=reason):
            AlgorithmEntry(**{**base, key: ""})
    with pytest.raises(ValueError, match="no theorems and no theorems_note"):
        AlgorithmEntry(**{**base, "theorems": ()})
    with pytest.raises(ValueError, match="family must be binary or multiclass"):
        AlgorithmEntry(**{**base, "family": "ternary"})
    with pytest.raises(ValueError, match="bad name"):
        AlgorithmEntry(**{**base, "name": "two words"})
    with pytest.raises(ValueError, match="unknown run option"):
        CliSpec(options=("--gamma",))
    with pytest.raises(ValueError, match="margin must be"):
        CliSpec(margin="some")


def test_register_refuses_a_second_entry_of_the_same_name_and_get_lists_the_names() -> None:
    with pytest.raises(ValueError, match="'pdm' is already registered"):
        reg.register(reg.get("pdm"))
    with pytest.raises(Exception, match="expected one of perceptron, pdm"):
        reg.get("nope")


def _targets(entry: AlgorithmEntry) -> Iterator[tuple[str, reg.Target]]:
    yield "reference", entry.reference
    yield "twin", entry.twin
    for engine in entry.engines:
        yield "engine", engine
    for field in ("parameters", "exact", "fast", "command", "checks", "report", "lines"):
        target = getattr(entry.cli, field)
        if target is not None:
            yield "cli", target
    if entry.fuzz is not None:
        yield from (("fuzz", t) for t in (entry.fuzz.run, entry.fuzz.ambiguous, entry.fuzz.families))
        yield "fuzz", entry.fuzz.checks
        if entry.fuzz.parameter is not None:
            yield "fuzz", entry.fuzz.parameter.from_eps
    if entry.sklearn is not None:
        yield "sklearn", entry.sklearn


def _layer_index() -> dict[str, int]:
    """Package or module -> its layer's position in pyproject's layers contract (0 the top)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return {m.strip(): k for k, layer in enumerate(contract["layers"]) for m in layer.split(":")}


def _layer(module: str, index: dict[str, int]) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in index:
            return index[".".join(parts[:n])]
    raise AssertionError(f"{module} is in no layer")


#: Who resolves each kind of target: the target's module must be in that reader's layer or below.
READERS = {
    "reference": "novikoff.fuzz",
    "twin": "novikoff.fuzz",
    "engine": "novikoff.fuzz",
    "cli": "novikoff.commands",
    "fuzz": "novikoff.fuzz",
    "sklearn": "novikoff.commands",
}


@pytest.mark.parametrize("name", NAMES)
def test_every_target_resolves_in_a_layer_its_reader_may_import(name: str) -> None:
    index = _layer_index()
    for kind, target in _targets(reg.get(name)):
        obj = reg.resolve(target)
        assert obj is not None
        module = reg.target_name(target).partition(":")[0]
        reader = READERS[kind]
        assert _layer(module, index) >= _layer(reader, index), f"{name}: {kind} {module} is above {reader}"
        if kind == "cli":
            assert module.startswith("novikoff.commands."), (name, module)


# -------------------------------------------------------------- every algorithm wired everywhere


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_algorithm_is_offered_by_run_diff_and_falsify(name: str) -> None:
    entry = reg.get(name)
    assert name in _choices("run")
    tested = entry.fuzz is not None
    assert (name in _choices("diff")) == tested and (name in _choices("falsify")) == tested
    if tested:
        from novikoff.fuzz.registry import lookup

        algo = lookup(name)
        assert algo.name == name and algo.family == entry.family
        assert algo.data_families and algo.checks
        assert algo.reference is reg.resolve(entry.reference) and algo.twin is reg.resolve(entry.twin)


def test_the_parsers_offer_nothing_the_registry_does_not_have() -> None:
    assert _choices("run") == list(NAMES)
    fuzzed = [n for n in NAMES if reg.get(n).fuzz is not None]
    assert _choices("diff") == fuzzed and _choices("falsify") == fuzzed
    from novikoff.fuzz.registry import ALGORITHMS

    assert list(ALGORITHMS) == fuzzed


@pytest.mark.parametrize("name", NAMES)
def test_every_theorem_of_an_algorithm_is_checked_by_verify(name: str) -> None:
    from novikoff.proofs.registry import SPEC_IDS
    from novikoff.verify import collect_checks

    entry = reg.get(name)
    assert entry.theorems or entry.theorems_note
    for spec_id in entry.theorems:
        assert spec_id in SPEC_IDS, (name, spec_id)
        assert collect_checks([spec_id]), f"verify has no check bearing on {spec_id} ({name})"


@pytest.mark.parametrize("name", NAMES)
def test_every_algorithm_runs_through_the_cli_exact_and_fast(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = reg.get(name)
    data = tmp_path / "data.csv"
    data.write_text(MULTICLASS_CSV if entry.family == "multiclass" else BINARY_CSV)
    for mode in ("--exact", "--fast"):
        code, out, err = _run_cli(
            capsys, "run", str(data), "--algorithm", name, mode, "--json", *entry.cli.example
        )
        assert code == 0, (name, mode, err)
        report = json.loads(out)
        assert report["algorithm"].startswith(name.split("-")[0]), (name, report["algorithm"])


@pytest.mark.parametrize("name", NAMES)
def test_an_option_the_algorithm_does_not_take_is_bad_input(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = reg.get(name)
    if entry.cli.command is not None:
        pytest.skip("its own command reads its options")
    foreign = next(o for o in ("--aggressive", "--alpha", "--epsilons") if o not in entry.cli.options)
    data = tmp_path / "data.csv"
    data.write_text(BINARY_CSV)
    args = [foreign] if foreign == "--aggressive" else [foreign, "1/2"]
    code, _, err = _run_cli(capsys, "run", str(data), "--algorithm", name, *entry.cli.example, *args)
    assert code == 2 and f"{foreign} does not apply to --algorithm {name}" in err


@pytest.mark.parametrize("name", NAMES)
def test_every_algorithm_has_its_estimator_or_says_why(name: str) -> None:
    from sklearn.base import BaseEstimator

    from novikoff.integrations.sklearn import estimators

    entry = reg.get(name)
    if entry.sklearn is None:
        assert entry.sklearn_note and name not in estimators()
        return
    cls = estimators()[name]
    assert issubclass(cls, BaseEstimator) and getattr(cls, "_algorithm", None) == name
    X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -1.0], [-2.0, -1.0]])
    y = np.array([1, 1, 0, 0]) if entry.family == "binary" else np.array([0, 0, 1, 2])
    if entry.family == "multiclass":
        X = np.array([[3.0, 0.0], [0.0, 3.0], [-3.0, -3.0], [4.0, 1.0]])
        y = np.array([0, 1, 2, 0])
    for exact in (False, True):
        clf = cls(exact=exact).fit(X, y)
        assert clf.converged_ and (clf.predict(X) == y).all(), (name, exact)


def _api_modules() -> set[str]:
    found: set[str] = set()
    for page in (DOCS / "reference").glob("api-*.md"):
        found |= set(re.findall(r"^::: (\S+)$", page.read_text(encoding="utf-8"), re.MULTILINE))
    return found


def _documented(target: reg.Target, modules: set[str]) -> bool:
    """The target's module has a ``:::`` line, or a package with one exports the target."""
    module, _, attribute = reg.target_name(target).partition(":")
    if module in modules:
        return True
    package = module.rpartition(".")[0]
    return package in modules and attribute in getattr(sys.modules.get(package), "__all__", ())


@pytest.mark.parametrize("name", NAMES)
def test_every_algorithm_has_its_page_and_its_api_entries(name: str) -> None:
    entry = reg.get(name)
    page = DOCS / entry.docs
    assert page.is_file(), entry.docs
    assert re.search(rf"\b{re.escape(name)}\b", page.read_text(encoding="utf-8")), (name, entry.docs)
    modules = _api_modules()
    for target in (entry.reference, entry.twin, *((entry.sklearn,) if entry.sklearn else ())):
        reg.resolve(target)
        assert _documented(target, modules), f"{name}: {reg.target_name(target)} is on no API page"


def test_the_docs_table_of_algorithms_is_the_generated_one() -> None:
    page = (DOCS / "contributing.md").read_text(encoding="utf-8")
    block = page.split("<!-- algorithms:start -->\n")[1].split("<!-- algorithms:end -->")[0]
    assert block == reg.algorithm_table()
    for name in NAMES:
        assert f"| `{name}` |" in block


# --------------------------------------------------- a toy algorithm added by one registry entry
#
# The toy is the perceptron with margin 1: update iff w.z <= 1, w <- w + z. Its reference decides
# on the integer patterns Z = s z (w.z <= 1 iff W.Z <= s^2 for W = s w), its twin in float64. The
# one entry below is all that is added: no file of novikoff changes.

TOY_CALLS: list[int] = []


def toy_reference(ds: Any, *, max_epochs: int = 1000, order: Order = None) -> RunRecord:
    """The toy exactly (integer arithmetic on the scaled patterns)."""
    TOY_CALLS.append(1)
    Z, s = ds.scaled_patterns
    W = [0] * ds.dimension
    updates: list[tuple[int, int]] = []
    present = epoch_order(order, ds.n_samples)
    for epoch in range(max_epochs):
        clean = True
        for i in present(epoch):
            if sum(a * b for a, b in zip(W, Z[i])) <= s * s:
                W = [a + b for a, b in zip(W, Z[i])]
                updates.append((epoch, i))
                clean = False
        if clean:
            return RunRecord(tuple(Fraction(v, s) for v in W), updates, epoch + 1, True, algorithm="toy")
    return RunRecord(tuple(Fraction(v, s) for v in W), updates, max_epochs, False, algorithm="toy")


def toy_twin(
    X: Any, y: Any = None, *, bias: float = 1.0, max_epochs: int = 1000, order: Order = None
) -> RunRecord:
    """The toy in float64 on a Dataset, or on arrays X, y (labels +-1) with the bias input."""
    if y is None:
        Zf = X.float_patterns()
    else:
        Xa = np.asarray(X, dtype=np.float64)
        Zf = np.hstack([Xa, np.full((len(Xa), 1), bias)]) * np.asarray(y, dtype=np.float64)[:, None]
    w = np.zeros(Zf.shape[1])
    updates: list[tuple[int, int]] = []
    present = epoch_order(order, len(Zf))
    for epoch in range(max_epochs):
        clean = True
        for i in present(epoch):
            if w @ Zf[i] <= 1.0:
                w = w + Zf[i]
                updates.append((epoch, i))
                clean = False
        if clean:
            return RunRecord(w, updates, epoch + 1, True, algorithm="toy")
    return RunRecord(w, updates, max_epochs, False, algorithm="toy")


def toy_fit(X: Any, y: Any, max_epochs: int = 1000, order: Order = None) -> dict[str, Any]:
    """The toy as ``novikoff diff`` calls an implementation (labels +-1, bias input 1 last)."""
    r = toy_twin(X, np.where(np.asarray(y) > 0, 1.0, -1.0), max_epochs=max_epochs, order=order)
    return {"weights": r.weights, "updates": r.update_indices, "epochs": r.epochs, "converged": r.converged}


def toy_fit_without_margin(X: Any, y: Any, max_epochs: int = 1000, order: Order = None) -> dict[str, Any]:
    """A wrong toy: the plain perceptron (update iff w.z <= 0)."""
    from tests.impls.perceptrons import correct

    return correct(X, y, max_epochs=max_epochs, order=order)


def toy_diff_run(ds: Any, value: Fraction | None, order: Order, max_epochs: int) -> RunRecord:
    return toy_reference(ds, max_epochs=max_epochs, order=order)


def never_ambiguous(ds: Any, run: Any, order: Order, value: Fraction | None) -> bool:
    return False  # only the float-exact family below is drawn, where no float decision rounds


def toy_entry() -> AlgorithmEntry:
    """The one registry entry of the toy (the float-exact separable data family only)."""
    from novikoff.fuzz.families import BINARY_FAMILIES

    return AlgorithmEntry(
        "toy",
        "the toy (the perceptron with margin 1)",
        "binary",
        "this test",
        toy_reference,
        toy_twin,
        ("N3",),
        "contributing.md",
        CliSpec(),
        fuzz=FuzzSpec(toy_diff_run, never_ambiguous, BINARY_FAMILIES[:1]),
        sklearn_note="a test's toy",
    )


@pytest.fixture()
def toy() -> Iterator[AlgorithmEntry]:
    with reg.registered(toy_entry()) as entry:
        yield entry
    assert "toy" not in reg.ALGORITHMS


def test_a_toy_algorithm_runs_through_novikoff_run_with_only_its_entry(
    toy: AlgorithmEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.csv"
    data.write_text(BINARY_CSV)
    code, out, err = _run_cli(capsys, "run", str(data), "--algorithm", "toy", "--json")
    assert code == 0, err
    report = json.loads(out)
    from novikoff.data.readers import read_csv
    from novikoff.reference.perceptron import run_perceptron

    ds = read_csv(str(data))
    mine = toy_reference(ds)
    assert report["algorithm"] == "toy" and report["run"]["updates"] == mine.mistakes
    assert report["run"]["converged"] and report["separable"]
    # the margin rule keeps updating where the perceptron stops: the run is the toy's own
    assert mine.mistakes > run_perceptron(ds).mistakes
    code, out, _ = _run_cli(capsys, "run", str(data), "--algorithm", "toy", "--fast", "--json")
    assert code == 0 and json.loads(out)["run"]["updates"] == mine.mistakes
    code, _, err = _run_cli(capsys, "run", str(data), "--algorithm", "toy", "--beta", "1")
    assert code == 2 and "--beta does not apply to --algorithm toy" in err


def test_a_toy_algorithm_runs_through_novikoff_diff_with_only_its_entry(
    toy: AlgorithmEntry, capsys: pytest.CaptureFixture[str]
) -> None:
    TOY_CALLS.clear()
    module = "tests.runtime.test_algorithm_registry"
    code, out, err = _run_cli(capsys, "diff", f"{module}:toy_fit", "--algorithm", "toy", "--examples", "8")
    assert code == 0, out + err
    assert "8 examples: 8 agreed, 0 bugs" in out
    assert TOY_CALLS, "diff did not run the toy's reference"
    code, out, _ = _run_cli(
        capsys, "diff", f"{module}:toy_fit_without_margin", "--algorithm", "toy", "--examples", "8"
    )
    assert code == 1 and "[bug]" in out and "(toy)" in out
