"""Coq, the large-margin part: LargeMargin.v, Lemma1.v, MarginDistribution.v, SmallEps.v and
PfmBound.v build, their main theorems assume only the standard reals' axioms, every wrong
variant under novikoff/coq/theories/wrong/ (the true theorem's proof script against a statement
with a constant 1 % too good) FAILS to compile with a tactic error, and for each one
wrong/counterexamples/<name>_is_false.v (a concrete counterexample: the wrong statement is
false, not merely unproved) compiles. Skipped when coqc is absent."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

COQ_DIR = Path(__file__).resolve().parents[2] / "novikoff" / "coq" / "theories"
# Theorems.v (with its imports) is needed by SmallEps.v (Theorems.D1_below_half).
DEPS = ("Vectors.v", "Perceptron.v", "Invariance.v", "Statements.v", "Theorems.v")
FILES = (*DEPS, "LargeMargin.v", "Lemma1.v", "MarginDistribution.v", "SmallEps.v", "PfmBound.v")
OURS = ("LargeMargin.v", "Lemma1.v", "MarginDistribution.v", "SmallEps.v", "PfmBound.v")
WRONG = sorted((COQ_DIR / "wrong").glob("*_wrong.v"))
COUNTER = COQ_DIR / "wrong" / "counterexamples"

coqc = shutil.which("coqc")
pytestmark = [pytest.mark.skipif(coqc is None, reason="coqc not found"), pytest.mark.xdist_group("coq")]

# Coq's classical reals; Classical_Prop.classic enters through the standard library's exp/ln
# lemmas (exp_ineq1_le, ln_increasing), so only the theorems about ln/exp may use it.
REALS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
}
REALS_LN = REALS | {"Classical_Prop.classic"}
LN_MODULES = {"Lemma1", "SmallEps", "PfmBound"}

MAIN = {
    "LargeMargin": [
        "D3_scalar",
        "D3_additive",
        "D3_pdm",
        "D3_pfm",
        "D3_pdm_succ",
        "D3_perceptron",
        "D2_scalar",
        "D2_converged",
        "D2_converged_norms",
        "pdm_recursion",
        "pdm_step_recursion",
        "pdm_energy_above_half",
        "D1_above_half_scalar",
        "D1_above_half_pdm",
        "D1_above_half_pdm_succ",
        "MU_scalar",
        "mu_condition",
        "mu_quad_pos_iff",
        "mu_count_spec",
        "mu_repeated_run",
        "pdm_run_example",
        "pdm_succ_example",
        "pfm_run_example",
        "D1_D2_D3_example",
        "mu_repeated_example",
    ],
    "Lemma1": [
        "L1_core",
        "L1_weak",
        "L1_spec",
        "harm_le_1_plus_ln",
        "pdm_energy_half",
        "pdm_succ_energy_half",
        "D1_half_spec",
        "D1_half_pdm",
        "D1_half_pdm_succ",
        "small_x_bound",
        "P1_spec",
        "L1_spec_example",
        "D1_half_spec_example",
        "P1_spec_example",
    ],
    "MarginDistribution": [
        "S1_spec",
        "S1_mean",
        "S2_spec",
        "sherman_morrison",
        "sherman_morrison_add",
        "sherman_morrison_remove",
        "S2_example_2x2",
        "S2_example_3x3",
    ],
    "SmallEps": [
        "bernoulli",
        "tangent_gap",
        "power_sum_bound",
        "power_sum_le",
        "pdm_energy_small",
        "pdm_succ_energy_small",
        "D1_below_half_state",
        "D1_below_half_p_form",
        "D1_below_half_pdm",
        "D1_below_half_pdm_succ",
        "pdm_quarter_run_example",
        "D1_below_half_run_example",
    ],
    "PfmBound": [
        "pfm_test_bound",
        "pfm_energy",
        "pfm_norm_step",
        "pfm_telescoping",
        "p1_lemma_form",
        "P1_delta_form",
        "P1_state",
        "P1_pfm_beta",
        "P1_pfm",
        "pfm_run_example2",
        "P1_run_example",
    ],
}
# the theorems the issue names: their assumptions must be exactly these four
EXACT = {
    ("SmallEps", "D1_below_half_pdm"),
    ("SmallEps", "D1_below_half_pdm_succ"),
    ("PfmBound", "P1_pfm"),
    ("PfmBound", "P1_pfm_beta"),
}


def _coqc(path: Path, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    assert coqc is not None
    return subprocess.run(
        [coqc, "-R", ".", "Novikoff", str(path)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def built(coq_development: Path) -> Path:
    """The whole development (these files, wrong/ and its counterexamples included) built
    once for the session (tests/conftest.py); every file of FILES compiled there."""
    for name in FILES:
        assert (coq_development / name).with_suffix(".vo").exists(), f"{name} was not built"
    return coq_development


def test_sources_have_no_escape_hatches() -> None:
    for name in OURS:
        text = re.sub(r"\(\*.*?\*\)", " ", (COQ_DIR / name).read_text(), flags=re.S)
        for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Hypothesis", "Abort"):
            assert not re.search(rf"\b{word}\b", text), f"{name} uses {word}"


def test_every_wrong_variant_fails(built: Path) -> None:
    assert len(WRONG) >= 11
    for f in WRONG:
        r = _coqc(Path("wrong") / f.name, built)
        out = r.stdout + r.stderr
        assert r.returncode != 0, f"{f.name} compiled, but it states a wrong constant"
        assert "Error" in out, out
        # the failure is the proof script's, not a broken file
        assert "Syntax error" not in out and "was not found" not in out, out
        assert "Theorem" in f.read_text() and "_wrong" in f.read_text()


def _strip(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\(\*.*?\*\)", " ", text, flags=re.S))


def test_every_wrong_variant_is_false(built: Path) -> None:
    """Each wrong statement is refuted by a concrete counterexample, so its proof failing is
    not just the script's weakness; the counterexample states the same (1 % too good) claim."""
    for f in WRONG:
        name = f.stem
        ce = COUNTER / f"{name}_is_false.v"
        assert ce.exists(), f"no counterexample for {name}"
        text = _strip(ce.read_text())
        assert f"Lemma {name}_is_false : ~ (" in text, ce.name
        for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Hypothesis"):
            assert not re.search(rf"\b{word}\b", text), f"{ce.name} uses {word}"
        # the wrong conclusion (the line with the 1 % constant) appears verbatim
        wrong = _strip(f.read_text())
        concl = wrong.split(". Proof")[0].rsplit("->", 1)[1].strip()
        assert re.search(r"\b(99|101) / 100\b", concl), f.name
        assert concl in text, f"{ce.name} does not state {name}'s conclusion"
        r = _coqc(Path("wrong") / "counterexamples" / ce.name, built)
        assert r.returncode == 0, f"{ce.name} does not compile:\n{r.stdout}\n{r.stderr}"


def test_main_theorems_assume_only_the_reals(built: Path) -> None:
    lines = ["From Novikoff Require Import LargeMargin Lemma1 MarginDistribution SmallEps PfmBound."]
    for mod, names in MAIN.items():
        lines += [f"Print Assumptions Novikoff.{mod}.{n}." for n in names]
    check = built / "CheckLargeMargin.v"
    check.write_text("\n".join(lines) + "\n")
    r = _coqc(Path(check.name), built)
    assert r.returncode == 0, r.stderr
    # one block per Print Assumptions, in order
    blocks = re.split(r"^(?=Axioms:|Closed under the global context)", r.stdout, flags=re.M)
    blocks = [b for b in blocks if b.strip()]
    theorems = [(m, n) for m, ns in MAIN.items() for n in ns]
    assert len(blocks) == len(theorems), r.stdout
    for (mod, name), block in zip(theorems, blocks):
        axioms = set(re.findall(r"^([A-Za-z_][\w.]*) *(?::|$)", block, flags=re.M)) - {"Axioms"}
        allowed = REALS_LN if mod in LN_MODULES else REALS
        assert axioms <= allowed, f"{mod}.{name} assumes {axioms - allowed}"
        if (mod, name) in EXACT:
            assert axioms == REALS_LN, f"{mod}.{name}: {axioms}"
