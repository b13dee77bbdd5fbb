"""``novikoff prove --algorithm romma``: ROMMA's mistakes under both rules, from ``R1_run``.

A proved bound's Coq file states, for every labelled dataset, bias, rule (conservative, or
aggressive at any eps >= 0), valid order and separating certificate, that ROMMA's mistakes are
at most the bound; a lemma written here (not by the generator) instantiates it at both rules
and is proved by ``proposed_bound0`` alone. A file edited to claim a smaller bound, to speak of
the updates instead of the mistakes, or to drop the rule's premise is rejected by coqc. A false
bound is refuted by a counterexample that replays.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from novikoff import cli
from novikoff.fuzz.falsify import certify_check, replay_file
from novikoff.prove import coq as prove_coq
from novikoff.prove import prove_bound
from novikoff.prove.inequality import REFUSED, SUPPORTED

HAS_COQ = shutil.which("coqc") is not None
needs_coq = pytest.mark.skipif(not HAS_COQ, reason="coqc not installed")

#: "2*R**2/gamma**2 + m" for ROMMA at both rules, in the words of R1_run_statement
#: (RunStatements.v), RommaRun.v and Labelled.v, written here and not taken from the generated file.
ROMMA_ON_LABELLED_DATA = """
Lemma stated_for_a_rule :
  forall (D : Labelled.dataset) (rho : R) (rule : RommaRun.romma_rule) (order : list nat)
    (lam : list R) (p : vec) (gamma2 : R) (d : nat),
  RommaRun.rule_ok rule ->
  Labelled.valid D order -> separable_certificate (Labelled.reflected rho D) lam p ->
  min_norm_sq (Labelled.reflected rho D) gamma2 ->
  Forall (fun s => length (Labelled.features s) = d) D -> (1 <= d)%nat ->
  INR (RommaRun.romma_mistakes rho rule D order) <=
    2 * Labelled.radius2 rho D / gamma2 + INR (length D).
Proof.
  intros D rho rule order lam p gamma2 d Hr Hv Hc Hmin Hf Hd.
  pose proof (proposed_bound0 D rho rule order lam p gamma2 d Hr Hv Hc Hmin Hf Hd) as H.
  pose proof (Bridges.gamma2_is_pp rho D lam p gamma2 Hc Hmin) as Hg. subst gamma2.
  pose proof Hc as [_ [_ [_ [_ Hpp]]]].
  pose proof (Labelled.radius2_nonneg rho D) as HR.
  unfold bound0 in H. rewrite ?pow2_sqrt in H by lra.
  replace (2 * Labelled.radius2 rho D / dot p p) with (2 * (Labelled.radius2 rho D / dot p p))
    by (field; lra).
  unfold Rdiv in *. lra.
Qed.

Lemma stated_on_labelled_data :
  forall (D : Labelled.dataset) (rho eps : R) (order : list nat) (lam : list R) (p : vec)
    (gamma2 : R) (d : nat),
  0 <= eps ->
  Labelled.valid D order -> separable_certificate (Labelled.reflected rho D) lam p ->
  min_norm_sq (Labelled.reflected rho D) gamma2 ->
  Forall (fun s => length (Labelled.features s) = d) D -> (1 <= d)%nat ->
  INR (RommaRun.romma_mistakes rho RommaRun.conservative D order) <=
    2 * Labelled.radius2 rho D / gamma2 + INR (length D) /\\
  INR (RommaRun.romma_mistakes rho (RommaRun.aggressive eps) D order) <=
    2 * Labelled.radius2 rho D / gamma2 + INR (length D).
Proof.
  intros D rho eps order lam p gamma2 d He Hv Hc Hmin Hf Hd. split.
  - exact (stated_for_a_rule D rho RommaRun.conservative order lam p gamma2 d I Hv Hc Hmin Hf Hd).
  - exact (stated_for_a_rule D rho (RommaRun.aggressive eps) order lam p gamma2 d He Hv Hc Hmin Hf Hd).
Qed.
Check proposed_bound0.
Print Assumptions stated_on_labelled_data.
"""


def _coqc(text: str) -> tuple[int, str]:
    """coqc's exit status and output on ``text`` as Proposed.v against the development (the
    files ROMMA's imports need)."""
    built, why = prove_coq.built_development(files=prove_coq.needed(roots=prove_coq.ROMMA_IMPORTS))
    assert built is not None, why
    with tempfile.TemporaryDirectory(prefix="novikoff-test-prove-romma-") as tmp:
        (Path(tmp) / "Proposed.v").write_text(text, encoding="utf-8")
        proc = subprocess.run(
            ["coqc", "-q", "-R", str(built), "Novikoff", "Proposed.v"],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=600,
        )
    return proc.returncode, proc.stdout + proc.stderr


def _generated(text: str) -> str:
    v = prove_bound(text, "romma", coq=False)
    assert v.verdict == "proved" and v.coq_text is not None, v.reasons
    return v.coq_text


def test_romma_is_supported_and_no_longer_refused() -> None:
    assert "romma" in SUPPORTED and "romma" not in REFUSED
    files = prove_coq.needed(roots=prove_coq.imports("romma"))
    assert {"RommaRun.v", "RommaBridge.v", "Bridges.v"} <= set(files)
    assert "RommaBridge.v" not in prove_coq.needed(roots=prove_coq.imports("perceptron"))


def test_a_bound_below_r1_is_never_proved_without_coq() -> None:
    # R1 is R^2/gamma^2 on the mistakes: half of it has no certificate (and T1 refutes it)
    v = prove_bound("R2/(2*gamma2)", "romma", examples=20, coq=False)
    assert v.verdict == "refuted" and v.certificates == [] and v.coq_text is None
    assert certify_check(v.counterexample)  # its numbers re-derived from scratch


@needs_coq
def test_a_proved_bound_compiles_and_speaks_of_romma_at_both_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coq_out = tmp_path / "p.v"
    rc = cli.main(["prove", "2*R**2/gamma**2 + m", "--algorithm", "romma", "--coq-out", str(coq_out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.out + captured.err
    assert "Romma.v" not in captured.err and "no kernel-checked" not in captured.err
    assert "PROVED: mistakes <= 2*R**2/gamma**2 + m" in captured.out
    text = coq_out.read_text(encoding="utf-8")
    assert "R1_run D rho rule order" in text and "romma_mistakes rho rule D order" in text
    # the independent lemma: both rules, proved from proposed_bound0 alone
    rc, out = _coqc(text + ROMMA_ON_LABELLED_DATA)
    assert rc == 0, out
    checked = out[out.index("proposed_bound0") :]
    for word in ("romma_mistakes rho rule D order", "rule_ok rule", "radius2 rho D", "reflected rho D"):
        assert word in checked, (word, out)
    assumptions = out[out.index("Axioms:") :]
    assert "Novikoff" not in assumptions and "proposed" not in assumptions, out


def _tampered(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new, 1)


@needs_coq
def test_a_file_edited_to_claim_less_is_rejected() -> None:
    text = _generated("2*R**2/gamma**2 + m")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("Definition bound0")) + 1
    # a smaller bound (R^2/gamma^2/2, false: T1) in place of EXPR
    smaller = "".join(lines[:at]) + "  (R_ ^ 2 / gamma ^ 2 / 2).\n" + "".join(lines[at + 1 :])
    rc, out = _coqc(smaller)
    assert rc != 0, out
    start = next(i for i, line in enumerate(lines) if line.startswith("Lemma bound0_real")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Qed.")) + 1
    line = int(re.search(r"line (\d+),", out).group(1))  # type: ignore[union-attr]
    assert start < line < end, (start, line, end, out)  # rejected where the identity fails
    # the updates (more than the mistakes under the aggressive rule) in place of the mistakes
    updates = _tampered(
        text,
        "  INR (romma_mistakes rho rule D order) <= bound0",
        "  INR (romma_updates rho rule D order) <= bound0",
    )
    # the rule's premise dropped: eps < 0 would be allowed
    no_rule = _tampered(text, "  rule_ok rule -> valid D order", "  valid D order")
    for bad in (updates, no_rule):
        rc, out = _coqc(bad)
        assert rc != 0, out
    rc, out = _coqc(text)  # the untampered file passes (the edits are what fail)
    assert rc == 0, out


def test_a_false_bound_is_refuted_with_a_counterexample_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ce = tmp_path / "ce.csv"
    assert cli.main(["prove", "R/gamma", "--algorithm", "romma", "--out", str(ce), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "refuted" and out["algorithm"] == "romma"
    replayed = replay_file(ce)
    assert replayed.violated
    assert '"algorithm": "romma"' in ce.read_text(encoding="utf-8").splitlines()[0]
