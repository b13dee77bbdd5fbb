"""The theorem of ``novikoff prove``'s Coq file is about the algorithm run on labelled data.

coqc itself shows it: a lemma written here, independently of the generator, states the run
statement's premises over ``Labelled`` data and the proposed bound with R^2 = radius2 rho D,
gamma^2 the certificate's, m = length D and d the feature count, and is proved by nothing but
``proposed_bound0``; ``Check``/``Print Assumptions`` are read from coqc's output. A file whose
bound was changed after generation, or whose theorem was weakened, is rejected (alone, or with
that lemma)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest

from novikoff.prove import coq as prove_coq
from novikoff.prove import prove_bound

pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")

#: "2*R**2/gamma**2 + m" for the perceptron, in the words of the run statement N3_run_statement
#: (RunStatements.v) and of Labelled.v, written here and not taken from the generated file.
PERCEPTRON_ON_LABELLED_DATA = """
Lemma stated_on_labelled_data :
  forall (D : Labelled.dataset) (rho : R) (order : list nat) (lam : list R) (p : vec) (gamma2 : R)
    (d : nat),
  Labelled.valid D order -> separable_certificate (Labelled.reflected rho D) lam p ->
  min_norm_sq (Labelled.reflected rho D) gamma2 ->
  Forall (fun s => length (Labelled.features s) = d) D -> (1 <= d)%nat ->
  INR (Labelled.perceptron_updates rho D order) <= 2 * Labelled.radius2 rho D / gamma2 + INR (length D).
Proof.
  intros D rho order lam p gamma2 d Hv Hc Hmin Hf Hd.
  pose proof (proposed_bound0 D rho order lam p gamma2 d Hv Hc Hmin Hf Hd) as H.
  pose proof (Bridges.gamma2_is_pp rho D lam p gamma2 Hc Hmin) as Hg. subst gamma2.
  pose proof Hc as [_ [_ [_ [_ Hpp]]]].
  pose proof (Labelled.radius2_nonneg rho D) as HR.
  unfold bound0 in H. rewrite ?pow2_sqrt in H by lra.
  replace (2 * Labelled.radius2 rho D / dot p p) with (2 * (Labelled.radius2 rho D / dot p p))
    by (field; lra).
  unfold Rdiv in *. lra.
Qed.
Check proposed_bound0.
Print Assumptions stated_on_labelled_data.
"""

PDM_ON_LABELLED_DATA = """
Lemma stated_on_labelled_data :
  forall (D : Labelled.dataset) (rho : R) (order : list nat) (lam : list R) (p : vec) (d : nat),
  Labelled.valid D order -> separable_certificate (Labelled.reflected rho D) lam p ->
  Forall (fun s => length (Labelled.features s) = d) D -> (1 <= d)%nat ->
  INR (RunStatements.pdm_updates (3 / 4) rho D order) <=
    bound0 (sqrt (Labelled.radius2 rho D)) (sqrt (dot p p)) (INR (length D)) (INR d).
Proof. exact proposed_bound0. Qed.
Check proposed_bound0.
"""

MULTICLASS_ON_LABELLED_DATA = """
Lemma stated_on_labelled_data :
  forall (K : nat) (rho : R) (data : list (vec * nat)) (U : mweights) (g : R) (order : list nat)
    (d : nat),
  (2 <= K)%nat -> (forall x c, In (x, c) data -> (c < K)%nat) ->
  kesler_margin K (RunStatements.maugment rho data) U g -> 0 < g -> frob2 K U = 1 ->
  0 < RunStatements.mradius2 rho data -> Forall (fun i => (i < length data)%nat) order ->
  Forall (fun s => length (fst s) = d) data -> (1 <= d)%nat ->
  INR (RunStatements.multiclass_mistakes K rho data order) <=
    bound0 (sqrt (RunStatements.mradius2 rho data)) g (INR (length data)) (INR d) (INR K).
Proof. exact proposed_bound0. Qed.
Check proposed_bound0.
"""


def _coqc(text: str) -> tuple[int, str]:
    """coqc's exit status and output on ``text`` as Proposed.v against the development."""
    built, why = prove_coq.built_development()
    assert built is not None, why
    with tempfile.TemporaryDirectory(prefix="novikoff-test-prove-") as tmp:
        (Path(tmp) / "Proposed.v").write_text(text, encoding="utf-8")
        proc = subprocess.run(
            ["coqc", "-q", "-R", str(built), "Novikoff", "Proposed.v"],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=600,
        )
    return proc.returncode, proc.stdout + proc.stderr


def _generated(text: str, algorithm: str = "perceptron", epsilons: list[Fraction] | None = None) -> str:
    v = prove_bound(text, algorithm, epsilons=epsilons, coq=False)
    assert v.verdict == "proved" and v.coq_text is not None, v.reasons
    return v.coq_text


def test_coqc_shows_the_theorem_is_about_the_run_on_labelled_data() -> None:
    rc, out = _coqc(_generated("2*R**2/gamma**2 + m") + PERCEPTRON_ON_LABELLED_DATA)
    assert rc == 0, out
    # coqc's own rendering of the theorem's type: the run on labelled data, R^2 from the data
    checked = out[out.index("proposed_bound0") :]
    for word in (
        "perceptron_updates rho D order",
        "radius2 rho D",
        "reflected rho D",
        "length D",
        "features s",
    ):
        assert word in checked, (word, out)
    assert "updates zs" not in checked  # not the pattern-level statement
    # the lemma rests on Coq's real-number axioms only: no Admitted, no axiom of the development
    assumptions = out[out.index("Axioms:") :]
    assert "Novikoff" not in assumptions and "proposed" not in assumptions, out
    rc, out = _coqc(_generated("2*R2/gamma2", "pdm", [Fraction(3, 4)]) + PDM_ON_LABELLED_DATA)
    assert rc == 0, out
    assert "pdm_updates (3 / 4) rho D order" in out[out.index("proposed_bound0") :], out
    rc, out = _coqc(_generated("2*R2/gamma2 + K", "multiclass") + MULTICLASS_ON_LABELLED_DATA)
    assert rc == 0, out
    assert "multiclass_mistakes K rho data order" in out[out.index("proposed_bound0") :], out


def _tampered(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def test_a_tampered_file_is_rejected_or_no_longer_states_the_theorem() -> None:
    text = _generated("2*R**2/gamma**2 + m")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("Definition bound0")) + 1
    # the bound changed after generation: a smaller one (R^2/gamma^2/2, false) in place of EXPR
    smaller = "".join(lines[:at]) + "  (R_ ^ 2 / gamma ^ 2 / 2).\n" + "".join(lines[at + 1 :])
    rc, out = _coqc(smaller)
    assert rc != 0, out
    # rejected inside the proof of bound0_real (the certificate's identity no longer holds)
    start = next(i for i, line in enumerate(lines) if line.startswith("Lemma bound0_real")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Qed.")) + 1
    line = int(re.search(r"line (\d+),", out).group(1))  # type: ignore[union-attr]
    assert start < line < end, (start, line, end, out)
    # the theorem weakened: its conclusion about an empty order, or an extra premise
    conclusion = "  INR (perceptron_updates rho D order) <= bound0"
    weakened = [
        _tampered(text, conclusion, "  INR (perceptron_updates rho D []) <= bound0"),
        _tampered(text, "(1 <= d)%nat ->\n" + conclusion, "(1 <= d)%nat -> (2 <= d)%nat ->\n" + conclusion),
        _tampered(
            text,
            "  min_norm_sq (reflected rho D) gamma2 ->",
            "  min_norm_sq (reflected rho D) gamma2 -> 1 < gamma2 ->",
        ),
    ]
    for w in weakened:
        alone, out_alone = _coqc(w)
        with_lemma, out = _coqc(w + PERCEPTRON_ON_LABELLED_DATA)
        assert alone != 0 or with_lemma != 0, (w, out_alone, out)
    # and the untampered file with the same lemma is accepted (the lemma can pass)
    rc, out = _coqc(text + PERCEPTRON_ON_LABELLED_DATA)
    assert rc == 0, out
