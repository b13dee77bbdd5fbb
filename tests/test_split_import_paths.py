"""The modules split along their seams keep their import paths.

``novikoff.reference.large_margin``, ``novikoff.twins.large_margin``,
``novikoff.certificates.minnorm``, ``novikoff.data.readers`` and ``novikoff.verify`` were each
one module; their parts now live in sibling modules (or, for the readers and verify, a
package). Every name the old module offered (its ``__all__`` and the names other modules and
tests imported from it) is still importable from the old path and is the very object of its
new home, so a class patched in one place is patched in both; and the names that tests patch
on the old module are still looked up there.
"""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest

#: old module -> the names it offered -> the module that defines each now.
HOMES: dict[str, dict[str, str]] = {
    "novikoff.reference.large_margin": {
        **dict.fromkeys(
            ["PDMRule", "PFMRule", "Rule", "repeat_count", "repeat_count_near"],
            "novikoff.reference.large_margin_rules",
        ),
        "check_d2": "novikoff.reference.large_margin_checks",
        **dict.fromkeys(
            ["ENGINES", "LargeMarginRun", "run_pdm", "run_pdm_succ", "run_pfm"],
            "novikoff.reference.large_margin",
        ),
        **dict.fromkeys(
            ["parse_epsilons", "validate_beta", "validate_epsilon"], "novikoff.runtime.parameters"
        ),
    },
    "novikoff.twins.large_margin": {
        **dict.fromkeys(
            [
                "COMPILED_CONVERSION_FROM",
                "COMPILED_FROM",
                "ENGINES",
                "SWITCH_AFTER",
                "TwinRun",
                "pdm_succ_twin",
                "pdm_twin",
                "pfm_twin",
                "twin_sparse_patterns",
            ],
            "novikoff.twins.large_margin",
        ),
        **dict.fromkeys(
            ["LEVEL1", "LEVEL2", "LEVEL3", "MINI_EPOCHS", "ROUNDS"], "novikoff.twins.large_margin_state"
        ),
    },
    "novikoff.certificates.minnorm": {
        **dict.fromkeys(["Atom", "Atoms", "PatternAtoms"], "novikoff.certificates.atoms"),
        **dict.fromkeys(["best_denominator", "solve_ones"], "novikoff.certificates.exact_solve"),
        **dict.fromkeys(["nnls", "step_to_boundary"], "novikoff.certificates.lawson_hanson"),
        **dict.fromkeys(
            ["MinNormPoint", "affine_minimizer_weights", "independent_subset", "min_norm_point"],
            "novikoff.certificates.minnorm",
        ),
    },
    "novikoff.data.readers": {
        **dict.fromkeys(["read_csv", "read_csv_multiclass"], "novikoff.data.readers.csv_reader"),
        **dict.fromkeys(["MAX_FEATURES", "read_libsvm"], "novikoff.data.readers.libsvm_reader"),
        "read_parquet": "novikoff.data.readers.parquet_reader",
        **dict.fromkeys(
            [
                "DENSE_CELL_BYTES",
                "MAX_DATA_BYTES",
                "MIN_FILE_SAMPLES",
                "check_dense",
                "data_cap",
                "guess_format",
            ],
            "novikoff.data.readers.files",
        ),
        **dict.fromkeys(
            [
                "ShardPlan",
                "ShardSummary",
                "ShardText",
                "is_sharded",
                "plan_shards",
                "read_shard",
                "read_sharded",
                "shard_format",
                "shard_paths",
                "shard_samples",
            ],
            "novikoff.data.readers.shards",
        ),
        "load_dataset": "novikoff.data.readers",
    },
    "novikoff.verify": {
        **dict.fromkeys(["Check", "CheckResult", "Skip"], "novikoff.proofs.results"),
        **dict.fromkeys(["collect_checks", "run_checks"], "novikoff.verify.collect"),
        **dict.fromkeys(["CoqCheck", "coq_checks", "coq_section", "extracted_check"], "novikoff.verify.coq"),
        "theorem_summary": "novikoff.verify.proof_checks",
        # the report formats, then the verdict and the baseline's regressions
        **dict.fromkeys(["to_json", "to_junit", "to_markdown", "to_table"], "novikoff.verify.reports"),
        **dict.fromkeys(["md_cell", "summary_rows"], "novikoff.verify.reports"),
        **dict.fromkeys(["ok", "REGRESSION", "regression_results", "regressions"], "novikoff.verify.reports"),
    },
}

_PAIRS = [(old, name, home) for old, names in HOMES.items() for name, home in sorted(names.items())]


@pytest.mark.parametrize(("old", "name", "home"), _PAIRS, ids=[f"{o}.{n}" for o, n, _ in _PAIRS])
def test_the_old_path_gives_the_new_home_s_object(old: str, name: str, home: str) -> None:
    assert getattr(importlib.import_module(old), name) is getattr(importlib.import_module(home), name)


@pytest.mark.parametrize("old", sorted(HOMES))
def test_every_name_the_old_module_exports_is_listed(old: str) -> None:
    # a name dropped from __all__ (or added without a home here) is a change of the public API
    exported = set(importlib.import_module(old).__all__)
    assert exported <= set(HOMES[old]), sorted(exported - set(HOMES[old]))


def test_patching_solve_ones_on_minnorm_reaches_wolfe(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corral looks ``solve_ones`` up in ``novikoff.certificates.minnorm`` (tests patch it
    there to force the FLINT path): a spy patched there sees the call, and the FLINT path it
    forces gives the same point."""
    import novikoff.certificates.minnorm as minnorm

    rows = [(3, 1), (1, 3), (2, 2), (4, 1)]
    warm = [(0, 0.5), (1, 0.5)]
    expected = minnorm.min_norm_point(minnorm.PatternAtoms(rows), 0, warm)
    calls: list[np.ndarray] = []

    def spy(G: np.ndarray) -> None:
        calls.append(G)
        return None  # "does not apply": the caller solves with FLINT

    monkeypatch.setattr(minnorm, "solve_ones", spy)
    got = minnorm.min_norm_point(minnorm.PatternAtoms(rows), 0, warm)
    assert calls, "Wolfe's corral did not call minnorm.solve_ones"
    assert (got.numerator, got.denominator) == (expected.numerator, expected.denominator)
    # the point is (2, 2): the midpoint of (3, 1) and (1, 3), nearer the origin than any other
    assert Fraction(got.numerator[0], got.denominator) == Fraction(2)


def test_patching_pdm_rule_ints_on_large_margin_reaches_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A class patched through the old path is the class the run uses (the extracted program's
    planted-bug test patches ``PDMRule.ints`` there): a rule that never updates, a run without
    updates."""
    from novikoff.data.dataset import Dataset
    from novikoff.reference import large_margin

    ds = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, 1, -1], name="three")
    before = large_margin.run_pdm(ds, Fraction(1, 2), engine="plain")  # decides by rule.updates
    monkeypatch.setattr(large_margin.PDMRule, "updates", lambda self, t, p, w2, s: False)
    after = large_margin.run_pdm(ds, Fraction(1, 2), engine="plain")
    assert before.updates and after.updates == [] and after.converged
