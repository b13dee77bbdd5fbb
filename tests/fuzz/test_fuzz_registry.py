"""The fuzzing registry (one object per algorithm, one registry per family), the named
checks (each fires on an implementation broken in that property alone, and on nothing
correct), novikoff.testing's test ids, shrinking on general float data, and the fuzz
package's import graph (no cycles, no function-local fuzz imports)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz import registry
from novikoff.fuzz.bounds import BoundSyntaxError, parse_bound
from novikoff.fuzz.checks import CHECKS, CheckContext, check_named, compare
from novikoff.fuzz.contract import binary_update, normalize
from novikoff.fuzz.harness import check_family, family_check
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.perceptron import run_perceptron
from novikoff.testing import check_ids, checks_markdown, parametrize_with_checks
from tests.impls import checks as planted
from tests.impls import perceptrons

REPO = Path(__file__).resolve().parents[2]
FUZZ = REPO / "novikoff" / "fuzz"

# --------------------------------------------------------------------------- the registry


def test_every_algorithm_is_in_exactly_one_family_registry() -> None:
    assert set(registry.BINARY) == {"perceptron", "pdm", "pfm", "averaged", "voted", "romma"}
    assert set(registry.MULTICLASS) == {"multiclass"}
    assert dict(registry.ALGORITHMS) == {**registry.BINARY, **registry.MULTICLASS}
    for family, reg in registry.FAMILIES.items():
        assert all(a.family == family and reg[name] is a for name, a in reg.items())


def test_lookup_finds_each_algorithm_and_refuses_others_listing_the_valid_names() -> None:
    for name, algo in registry.ALGORITHMS.items():
        assert registry.lookup(name) is algo
        assert registry.lookup(name, algo.family) is algo
    with pytest.raises(
        InputError,
        match=r"algorithm 'nope': expected one of perceptron, pdm, pfm, averaged, voted, multiclass",
    ):
        registry.lookup("nope")
    with pytest.raises(InputError, match=r"multiclass algorithm 'pdm': expected one of multiclass$"):
        registry.lookup("pdm", "multiclass")
    with pytest.raises(InputError, match=r"algorithm family 'ternary': expected one of binary, multiclass"):
        registry.lookup("perceptron", "ternary")
    with pytest.raises(InputError, match="expected one of"):
        registry.lookup(None)


def test_bound_symbols_come_from_the_registry() -> None:
    for name, algo in registry.ALGORITHMS.items():
        for symbol in algo.bound_symbols:
            parse_bound(symbol, name)  # accepted
    for name, symbol in [("perceptron", "eps"), ("pdm", "beta"), ("perceptron", "K"), ("multiclass", "eps")]:
        assert symbol not in registry.lookup(name).bound_symbols
        with pytest.raises(BoundSyntaxError, match=f"--algorithm {name}"):
            parse_bound(symbol, name)


def test_each_exact_run_is_its_reference_run() -> None:
    ds = Dataset.from_arrays(
        np.array([[2.0, 1.0], [-1.0, 0.5], [0.5, -2.0], [1.0, 1.0]]), np.array([1, -1, -1, 1])
    )
    order = [2, 0, 3, 1]
    pairs = [
        (registry.BINARY["perceptron"], None, run_perceptron(ds, order=order, max_epochs=50)),
        (registry.BINARY["pdm"], Fraction(1, 2), run_pdm(ds, Fraction(1, 2), order=order, max_epochs=50)),
        (registry.BINARY["pfm"], Fraction(1, 4), run_pfm(ds, Fraction(1, 4), order=order, max_epochs=50)),
    ]
    for algo, value, expected in pairs:
        got = algo.run(ds, value, order, 50)
        assert (got.updates, tuple(got.weights), got.epochs) == (
            expected.updates,
            tuple(expected.weights),
            expected.epochs,
        ), algo.name
        assert algo.reference in (run_perceptron, run_pdm, run_pfm)
    from novikoff.data.multiclass import MulticlassData

    data = MulticlassData.from_arrays([[1, 0], [0, 1], [-1, -1]], [0, 1, 2])
    mc = registry.MULTICLASS["multiclass"]
    assert mc.run(data, None, None, 20).updates == run_multiclass(data, max_epochs=20).updates


def test_data_family_lookup_by_name_or_id() -> None:
    algo = registry.lookup("perceptron")
    assert algo.data_family("general float").name == "general float data"
    assert algo.data_family("general float data").id == "general float"
    with pytest.raises(InputError, match=r"unknown data family 'x' for --algorithm perceptron; families: "):
        algo.data_family("x")


# --------------------------------------------------------------------------- the checks


def _example() -> tuple[Dataset, Any]:
    """A small dataset on which the exact perceptron makes several distinct updates, the
    bias weight ends nonzero and more than one epoch is needed (asserted)."""
    X = np.array([[2.0, 1.0], [-1.0, 0.5], [0.5, -2.0], [1.0, 1.0]])
    y = np.array([1, -1, -1, 1])
    ds = Dataset.from_arrays(X, y).with_bias(1)
    run = registry.lookup("perceptron").run(ds, None, None, 100)
    assert len(set(run.update_indices)) >= 2 and run.weights[-1] != 0 and run.epochs >= 2 and run.converged
    return ds, run


def _findings(fit: Any) -> list[str]:
    ds, run = _example()
    X, y = ds.to_numpy()
    impl = normalize(fit(X, y, max_epochs=100, order=None), ds.n_features)
    context = CheckContext(True, lambda k: binary_update(ds, run, k))
    return [d.check for d in compare(ds, run, impl, context)]


def test_a_correct_implementation_passes_every_check() -> None:
    assert _findings(perceptrons.correct) == []
    assert _findings(perceptrons.half_rate) == []  # a learning rate changes no decision


@pytest.mark.parametrize("name", [c.name for c in CHECKS])
def test_each_check_fires_alone_on_an_implementation_broken_in_its_property(name: str) -> None:
    assert _findings(planted.BROKEN_IN[name]) == [name]


def test_the_checks_say_why() -> None:
    ds, run = _example()
    X, y = ds.to_numpy()
    context = CheckContext(True, lambda k: binary_update(ds, run, k))

    def message(fit: Any, name: str) -> str:
        impl = normalize(fit(X, y, max_epochs=100), ds.n_features)
        (d,) = check_named(name)(run, impl, ds, context)
        return d.message

    assert "update #1 differs" in message(planted.updates_reversed, "check_updates_match_reference")
    assert "the update condition held" in message(planted.updates_reversed, "check_updates_match_reference")
    assert f"mistakes: implementation {run.mistakes + 1}, exact reference {run.mistakes}" == message(
        planted.mistakes_plus_one, "check_mistake_count"
    )
    assert f"epochs: implementation {run.epochs + 1}, exact reference {run.epochs}" == message(
        planted.epochs_plus_one, "check_epoch_count"
    )
    assert "converged: implementation False, exact reference True" == message(
        planted.converged_negated, "check_convergence_flag"
    )
    assert message(planted.weights_negated, "check_weight_direction").startswith(
        "final weights point elsewhere"
    )
    with pytest.raises(
        InputError, match=r"unknown check 'check_nope'; checks: check_updates_match_reference"
    ):
        check_named("check_nope")


def test_an_unreported_quantity_is_not_checked() -> None:
    ds, run = _example()
    X, y = ds.to_numpy()
    impl = normalize(planted.weights_only(X, y), ds.n_features)
    assert [c.name for c in CHECKS if c.applies(impl)] == ["check_weight_direction"]
    assert compare(ds, run, impl, CheckContext(True, lambda k: "")) == []


def test_a_scaled_direction_is_exact_on_float_exact_data_only() -> None:
    ds, run = _example()
    X, y = ds.to_numpy()
    out = perceptrons.correct(X, y)
    nudged = normalize({"weights": out["weights"] * (1 + 1e-12)}, ds.n_features)
    nudged.weights[0] *= 1 + 2**-50  # no longer an exact multiple, still within 1e-9 in direction
    direction = check_named("check_weight_direction")
    assert direction(run, nudged, ds, CheckContext(True, lambda k: ""))
    assert not direction(run, nudged, ds, CheckContext(False, lambda k: ""))


@pytest.mark.parametrize("name", [c.name for c in CHECKS])
def test_each_check_as_a_hypothesis_test_fails_the_broken_and_passes_the_correct(name: str) -> None:
    check = (check_named(name),)
    family = "float-exact separable"
    with pytest.raises(
        AssertionError, match=rf"\[bug\] separable, exactly representable \(perceptron\) {name}:"
    ):
        family_check(planted.BROKEN_IN[name], family, examples=15, seed_value=0, checks=check)()
    outcome = family_check(perceptrons.correct, family, examples=15, seed_value=0, checks=check)()
    assert outcome.examples == 15 and outcome.reported[name] == 15


# --------------------------------------------------------------------------- novikoff.testing


def test_one_test_id_per_family_and_check() -> None:
    for name, algo in registry.ALGORITHMS.items():
        expected = [f"{fam.id}-{c.name}" for fam in algo.data_families for c in algo.checks]
        assert check_ids(name) == expected
        assert len(set(expected)) == len(algo.data_families) * len(algo.checks)
        mark = parametrize_with_checks(perceptrons.correct, name)
        assert [p.id for p in mark.args[1]] == expected
    assert "float-exact separable-check_weight_direction" in check_ids()
    assert "float-exact near ties-check_voted_predictions" in check_ids("voted")  # its own checks
    only = parametrize_with_checks(perceptrons.correct, checks=["check_mistake_count"])
    assert [p.id for p in only.args[1]] == [i for i in check_ids() if i.endswith("-check_mistake_count")]
    with pytest.raises(InputError, match="checks: unknown 'nope'"):
        parametrize_with_checks(perceptrons.correct, checks=["nope"])


def test_the_ids_are_the_collected_node_ids(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(
        "from novikoff.testing import parametrize_with_checks\n"
        "from tests.impls.perceptrons import correct\n\n"
        "@parametrize_with_checks(correct, examples=2)\n"
        "def test_mine(check):\n"
        "    check()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "test_mine.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    collected = [line.strip() for line in proc.stdout.splitlines() if "::test_mine[" in line]
    assert collected == [f"test_mine.py::test_mine[{i}]" for i in check_ids()], proc.stdout + proc.stderr
    assert "test_mine.py::test_mine[float-exact separable-check_weight_direction]" in collected


def test_a_check_of_a_quantity_never_reported_is_skipped_saying_so() -> None:
    mark = parametrize_with_checks(planted.weights_only, examples=3, seed=0)
    tests = {p.id: p.values[0] for p in mark.args[1]}
    with pytest.raises(pytest.skip.Exception, match="never reported 'updates'"):
        tests["float-exact separable-check_updates_match_reference"]()
    tests["float-exact separable-check_weight_direction"]()  # runs, passes


# --------------------------------------------------------------------------- shrinking


def test_a_bug_on_general_float_data_shrinks_to_a_small_example() -> None:
    """The planted bug can only show with more than CUTOFF samples; Hypothesis draws every
    float, so the failure shrinks to CUTOFF + 1 samples of one feature with short values."""
    report = check_family(planted.first_two_presented_only, "general float data", examples=40, seed_value=1)
    assert report.bugs, report.summary()
    minimal = report.bugs[0]
    assert minimal.message.startswith("(minimal example)")
    smallest_possible = planted.CUTOFF + 1
    first = report.bugs[1] if len(report.bugs) > 1 else None
    assert minimal.dataset.n_samples == smallest_possible, minimal.describe()
    assert minimal.dataset.n_features == 1, minimal.describe()
    if first is not None:  # the unshrunk examples were larger
        assert first.dataset.n_samples >= minimal.dataset.n_samples
    # short values: every number a float whose shortest repr has at most 5 significant characters
    values = [float(v) for i in range(minimal.dataset.n_samples) for v in minimal.dataset.features(i)]
    assert all(len(repr(abs(v)).replace(".", "").strip("0")) <= 5 for v in values), values


def test_the_float_data_are_drawn_by_hypothesis_and_not_by_a_numpy_seed() -> None:
    source = (FUZZ / "families.py").read_text()
    assert "default_rng" not in source and "np.random" not in source
    assert "hypothesis.extra.numpy" in source


# --------------------------------------------------------------------------- import graph


def _fuzz_imports(path: Path) -> tuple[set[str], list[str]]:
    """(fuzz modules imported at top level, fuzz modules imported inside functions)."""
    tree = ast.parse(path.read_text())
    top: set[str] = set()
    local: list[str] = []

    def names(node: ast.AST) -> list[str]:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "novikoff.fuzz":
                return [f"novikoff.fuzz.{a.name}" for a in node.names]
            return [node.module]
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        return []

    for stmt in tree.body:
        top.update(n for n in names(stmt) if n.startswith("novikoff.fuzz."))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                local.extend(n for n in names(inner) if n.startswith("novikoff.fuzz"))
    return {n for n in top if (FUZZ / f"{n.rsplit('.', 1)[1]}.py").exists()}, local


def test_the_fuzz_package_has_no_import_cycle_and_no_function_local_fuzz_import() -> None:
    graph = {}
    for path in FUZZ.glob("*.py"):
        if path.name == "__init__.py":
            continue
        top, local = _fuzz_imports(path)
        assert local == [], f"{path.name} imports {local} inside a function"
        graph[f"novikoff.fuzz.{path.stem}"] = top
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            assert state.get(nxt) != 1, f"import cycle: {' -> '.join([*stack, node, nxt])}"
            if nxt not in state:
                visit(nxt, [*stack, node])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])
    below = {
        "novikoff.fuzz.checks",  # the checks an algorithm runs (checks imports only the contract)
        "novikoff.fuzz.contract",
        "novikoff.fuzz.families",
        "novikoff.fuzz.rounding",
        "novikoff.fuzz.strategies",
    }
    assert graph["novikoff.fuzz.registry"] <= below
    assert graph["novikoff.fuzz.checks"] <= {"novikoff.fuzz.contract"}


def test_no_fuzz_module_branches_on_an_algorithm_name() -> None:
    for path in FUZZ.glob("*.py"):
        text = path.read_text()
        assert "algorithm ==" not in text and "algo ==" not in text, path.name


# --------------------------------------------------------------------------- the docs page


def test_the_how_to_page_lists_exactly_the_registered_checks() -> None:
    page = (REPO / "docs" / "howto" / "test-your-implementation.md").read_text()
    block = page.split("<!-- checks:begin -->\n")[1].split("\n<!-- checks:end -->")[0]
    assert block == checks_markdown()
    listed = re.findall(r"^- `(check_[a-z_]+)`:", block, re.MULTILINE)
    assert listed == [c.name for c in CHECKS]
    for fam in {f.id for a in registry.ALGORITHMS.values() for f in a.data_families}:
        assert f"`{fam}`" in page, fam
    for check in {c.name for a in registry.ALGORITHMS.values() for c in a.checks}:
        assert f"`{check}`" in page, check
