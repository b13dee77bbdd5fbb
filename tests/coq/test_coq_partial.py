"""The printer keeps sympy's meaning for partial operations.

Coq's ``/``, ``ln``, ``sqrt`` and ``Rpower`` are total (``/ 0 = 0``, ``ln x = 0`` and
``sqrt x = 0`` off their domains, ``Rpower x y = exp (y * ln x)``). Each case below is a
statement that is FALSE in sympy's meaning (its conclusion is undefined, or false, at a
point satisfying its hypotheses) but TRUE in Coq when printed without side conditions, only
because of a total operation; the test proves that in Coq (the unguarded statement, with the
lemma that makes it true). The printer either refuses the statement, or prints a Coq
statement whose negation Coq proves at that point: the ``(* defined *)`` conjunct (or the
conclusion, for ``pow`` on a nat) fails there.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import sympy as sp

from novikoff.coq.printer import CoqTranslationError, print_proposition
from novikoff.spec.core import Forall

pytestmark = pytest.mark.xdist_group("coq")

coqc = shutil.which("coqc")
needs_coq = pytest.mark.skipif(coqc is None, reason="coqc not found")

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
n = sp.Symbol("n", integer=True, positive=True)
z = sp.Symbol("z", integer=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
f = sp.Function("f")
g = sp.Function("g")

_INTROS = "repeat match type of H with ?A -> _ => let h := fresh in assert (h : A) by "
_INTROS += "(intros; simpl; lra || lia); specialize (H h) end."


@dataclass(frozen=True)
class FalseCase:
    """``hypotheses => conclusion`` false in sympy at ``point`` (Coq arguments of the
    binders); ``unguarded`` is the Coq statement without side conditions (the old printing)
    and ``total_proof`` proves it, through the total operation named in ``total``."""

    name: str
    hypotheses: dict[str, sp.Basic | Forall]
    conclusion: sp.Basic | Forall
    point: str
    total: str
    unguarded: str
    total_proof: str
    defined: str  # the side condition the printed conclusion must assert


CASES = [
    # item 8 of the review: x < 0, n >= 1 integer => x**n > 0 (false at x = -1, n = 1),
    # once printed Rpower x (INR n) and proved by exp_pos
    FalseCase(
        "pow_nat",
        {"neg": x < 0},
        x**n > 0,
        "1%nat (-1)",
        "Rpower x y = exp (y * ln x)",
        "forall (n : nat) (x : R), (0 < n)%nat -> x < 0 -> Rpower x (INR n) > 0",
        "intros n x _ _. unfold Rgt, Rpower. apply exp_pos.",
        "",
    ),
    FalseCase(
        "pow_int",
        {"neg": x < 0, "one": z >= 1},
        x**z > 0,
        "(-1) 1%Z",
        "Rpower x y = exp (y * ln x)",
        "forall (x : R) (z : Z), x < 0 -> IZR z >= 1 -> Rpower x (IZR z) > 0",
        "intros x z _ _. unfold Rgt, Rpower. apply exp_pos.",
        "(0 < x)",
    ),
    FalseCase(
        "pow_real",
        {"neg": x < 0, "one": y >= 1},
        x**y > 0,
        "(-1) 1",
        "Rpower x y = exp (y * ln x)",
        "forall (x y : R), x < 0 -> y >= 1 -> Rpower x y > 0",
        "intros x y _ _. unfold Rgt, Rpower. apply exp_pos.",
        "(0 < x)",
    ),
    FalseCase(
        "div_zero",
        {"zero": sp.Eq(x, 0)},
        sp.Eq(1 / x, 0, evaluate=False),
        "0",
        "/ 0 = 0",
        "forall x : R, x = 0 -> / x = 0",
        "intros x Hx. subst x. exact Rinv_0.",
        "(x <> 0)",
    ),
    FalseCase(
        "div_in_quotient",
        {"zero": sp.Eq(x, 0)},
        sp.Eq(y / x, 0, evaluate=False),
        "0 1",
        "y / 0 = 0",
        "forall x y : R, x = 0 -> y / x = 0",
        "intros x y Hx. subst x. unfold Rdiv. rewrite Rinv_0. ring.",
        "(x <> 0)",
    ),
    FalseCase(
        "neg_power",
        {"zero": sp.Eq(x, 0)},
        sp.Eq(x**-2, 0, evaluate=False),
        "0",
        "/ 0 = 0",
        "forall x : R, x = 0 -> / (x ^ 2) = 0",
        "intros x Hx. subst x. replace (0 ^ 2) with 0 by ring. exact Rinv_0.",
        "(x <> 0)",
    ),
    FalseCase(
        "ln_nonpositive",
        {"nonpos": x <= 0},
        sp.Eq(sp.log(x), 0, evaluate=False),
        "(-1)",
        "ln x = 0 for x <= 0",
        "forall x : R, x <= 0 -> ln x = 0",
        "intros x Hx. unfold ln. destruct (Rlt_dec 0 x); [exfalso; lra | reflexivity].",
        "(0 < x)",
    ),
    FalseCase(
        "sqrt_negative",
        {"neg": x < 0},
        sp.Eq(sp.sqrt(x), 0, evaluate=False),
        "(-1)",
        "sqrt x = 0 for x < 0",
        "forall x : R, x < 0 -> sqrt x = 0",
        "intros x Hx. apply sqrt_neg_0. lra.",
        "(0 <= x)",
    ),
    # under a negation and an implication the side condition stays outside: sympy's Ne is
    # even True at 1/0 = zoo, but zoo is not a real number
    FalseCase(
        "under_not",
        {"zero": sp.Eq(x, 0)},
        sp.Not(sp.Eq(1 / x, 1, evaluate=False)),
        "0",
        "/ 0 = 0",
        "forall x : R, x = 0 -> / x <> 1",
        "intros x Hx. subst x. rewrite Rinv_0. lra.",
        "(x <> 0)",
    ),
    FalseCase(
        "under_implies",
        {},
        sp.Implies(1 / x > 1, x < 1),
        "0",
        "/ 0 = 0",
        "forall x : R, / x > 1 -> x < 1",
        "intros x H. destruct (Req_dec x 0) as [E|E]; [subst x; rewrite Rinv_0 in H; lra|]. "
        "destruct (Rlt_le_dec 0 x) as [P|P]. "
        "- assert (x * / x = 1) by (field; exact E). nra. "
        "- assert (/ x < 0) by (apply Rinv_lt_0_compat; lra). lra.",
        "(x <> 0)",
    ),
    # under a Forall the side condition is quantified like the body
    FalseCase(
        "under_forall",
        {"g0": Forall(j, sp.Eq(g(j), 0))},
        Forall(j, sp.Eq(f(j) / g(j), 0, evaluate=False)),
        "(fun _ => 1) (fun _ => 0)",
        "f j / 0 = 0",
        "forall f g : nat -> R, (forall j : nat, (0 <= j)%nat -> g j = 0) -> "
        "forall j : nat, (0 <= j)%nat -> f j / g j = 0",
        "intros f g Hg j Hj. rewrite (Hg j Hj). unfold Rdiv. rewrite Rinv_0. ring.",
        "(forall j : nat, (0 <= j)%nat -> ((g j%nat) <> 0))",
    ),
]


def _printed(case: FalseCase) -> str:
    return print_proposition(case.name, (), case.hypotheses, case.conclusion, with_hypotheses=False)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_printed_conclusion_asserts_the_side_condition(case: FalseCase) -> None:
    text = _printed(case)
    print(text)
    if case.defined:
        assert f"(* defined *) {case.defined} /\\" in text, text
    else:  # pow on a nat: total and sympy's power for every real base
        assert "(* defined *)" not in text and "Rpower" not in text and "(x ^ n)" in text, text


def _refutation(case: FalseCase) -> str:
    finish = "destruct H as [Hd _]; simpl in Hd; first [lra | now apply Hd]."
    if not case.defined:
        finish = "simpl in H; lra."
    elif case.name == "under_forall":
        finish = "destruct H as [Hd _]. specialize (Hd 0%nat (le_n 0)). simpl in Hd. now apply Hd."
    return (
        f"{_printed(case)}\n"
        f"Lemma {case.name}_is_false : ~ {case.name}_statement.\n"
        f"Proof.\n  unfold {case.name}_statement. intro H. specialize (H {case.point}).\n"
        f"  {_INTROS}\n  {finish}\nQed.\n\n"
        f"(* true in Coq without the side condition, because {case.total} *)\n"
        f"Lemma {case.name}_unguarded : {case.unguarded}.\nProof. {case.total_proof} Qed.\n\n"
    )


@needs_coq
def test_false_statements_are_refuted_in_coq(tmp_path: Path) -> None:
    """One file: for every case, Coq proves the printed statement FALSE and the unguarded
    statement TRUE (so each case is true in Coq only through a total operation)."""
    text = "From Coq Require Import Reals Lra Lia.\nLocal Open Scope R_scope.\n\n"
    text += "".join(_refutation(c) for c in CASES)
    (tmp_path / "PartialOps.v").write_text(text, encoding="utf-8")
    assert coqc is not None
    proc = subprocess.run(
        [coqc, "-q", "PartialOps.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout + text
    assert not any(w in text for w in ("Admitted", "Axiom", "Parameter")), text


@pytest.mark.parametrize(
    ("hypotheses", "message"),
    [
        # x = 0 and 0**(1/3) = 0 (true in sympy); Coq's Rpower 0 (1/3) = exp 0 = 1, so the
        # printed hypotheses would be contradictory and "=> False" provable
        (
            {"zero": sp.Eq(x, 0), "cube": sp.Eq(x ** sp.Rational(1, 3), 0, evaluate=False)},
            "hypothesis cube: a real power of x",
        ),
        # (-1)**y with y = 2 is 1 in sympy; a symbolic exponent of an unsigned base
        ({"pow": sp.Eq(x**y, 1, evaluate=False)}, "hypothesis pow: a real power of x"),
        ({"pow": sp.Eq(x**z, 1, evaluate=False)}, "hypothesis pow: a real power of x"),
        # under a Forall, a base of unknown sign
        ({"all": Forall(j, f(j) ** y >= 0)}, r"hypothesis all: a real power of f\(j\)"),
    ],
)
def test_real_powers_in_hypotheses_need_a_positive_base(
    hypotheses: dict[str, sp.Basic | Forall], message: str
) -> None:
    with pytest.raises(CoqTranslationError, match=message) as info:
        print_proposition("Bad", (), hypotheses, sp.false)
    assert "Rpower" in str(info.value) and "domains do not make" in str(info.value)


def test_real_powers_in_hypotheses_of_positive_bases_print() -> None:
    t = sp.Symbol("t", positive=True)
    text = print_proposition("Ok", (t, y), {"energy": x <= t ** (2 - y)}, x <= 1)
    assert "(* energy *) (x <= (Rpower t (2 - y))) ->" in text
    assert "(* defined *)" not in text  # no partial operation in the conclusion
