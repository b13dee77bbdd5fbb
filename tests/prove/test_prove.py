"""``novikoff prove``: the certificate checker rejects bad certificates (each for its reason),
false bounds are never proved, the Coq file is what decides exit 0, and the CLI's exit codes."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import novikoff
from novikoff import cli
from novikoff.errors import InputError
from novikoff.fuzz.bounds import parse_bound
from novikoff.fuzz.falsify import replay_file
from novikoff.prove import assert_verdict, prove_bound
from novikoff.prove import coq as prove_coq
from novikoff.prove.certificate import ProofTree, proof_errors, search_proof
from novikoff.prove.coq import CoqPrintError, coq_term
from novikoff.prove.inequality import Problem, problems

HAS_COQ = shutil.which("coqc") is not None


def _proof(text: str, algorithm: str = "perceptron") -> tuple[ProofTree, Problem]:
    (claim,) = problems(parse_bound(text, algorithm), algorithm)
    tree, reasons = search_proof(claim)
    assert tree is not None, reasons
    assert proof_errors(tree, claim) == []
    return tree, claim


def _with_leaf(tree: ProofTree, **changes: Any) -> ProofTree:
    assert tree.certificate is not None
    return replace(tree, certificate=replace(tree.certificate, **changes))


# --------------------------------------------------------------------------- the checker


def test_checker_rejects_a_negative_coefficient() -> None:
    tree, claim = _proof("2*R**2/gamma**2 + m")
    c = tree.certificate
    assert c is not None
    bad = ((-c.numerator[0][0], c.numerator[0][1]), *c.numerator[1:])
    errors = proof_errors(_with_leaf(tree, numerator=bad), claim)
    assert any("is not a nonnegative integer" in e for e in errors), errors


def test_checker_rejects_a_wrong_identity() -> None:
    tree, claim = _proof("2*R**2/gamma**2 + m")
    c = tree.certificate
    assert c is not None
    bad = ((c.numerator[0][0] + 1, c.numerator[0][1]), *c.numerator[1:])
    errors = proof_errors(_with_leaf(tree, numerator=bad), claim)
    assert errors == ["the bound: bound: the identity (goal) * Q = N does not hold"]


def test_checker_rejects_a_denominator_that_may_vanish() -> None:
    tree, claim = _proof("2*R**2/gamma**2")
    # Q = s only: zero at R = gamma
    errors = proof_errors(_with_leaf(tree, denominator=((1, (0, 1, 0, 0)),)), claim)
    assert any("no positive term in the strictly positive variables" in e for e in errors), errors


def test_checker_rejects_a_boolean_coefficient_and_bad_exponents() -> None:
    tree, claim = _proof("2*R**2/gamma**2")
    errors = proof_errors(_with_leaf(tree, numerator=((True, (2, 0, 0, 0)),)), claim)
    assert any("coefficient True" in e for e in errors), errors
    errors = proof_errors(_with_leaf(tree, numerator=((1, (2, 0)),)), claim)
    assert any("are not 4 natural numbers" in e for e in errors), errors


def test_checker_rejects_other_variables_expression_and_scale() -> None:
    tree, claim = _proof("2*R**2/gamma**2")
    assert any(
        "are not the domain's" in e
        for e in proof_errors(_with_leaf(tree, variables=("s", "g", "m1", "d1")), claim)
    )
    other = parse_bound("3*R**2/gamma**2").xreplace({})
    assert any("about another expression" in e for e in proof_errors(_with_leaf(tree, leaf=other), claim))
    assert any("proves the scale 2" in e for e in proof_errors(_with_leaf(tree, scale=Fraction(2)), claim))
    assert proof_errors(tree, claim, Fraction(1, 2)) == ["scale 1/2 < 1 would not bound the run"]


def test_checker_follows_the_min_max_structure() -> None:
    tree, claim = _proof("min(2*R2/gamma2, R2/gamma2 + d)")
    assert tree.kind == "min" and len(tree.parts) == 2
    errors = proof_errors(replace(tree, parts=tree.parts[:1]), claim)
    assert any("a min of 2 arguments" in e for e in errors), errors
    errors = proof_errors(tree.parts[0], claim)  # a leaf where a min is
    assert any("a min of 2 arguments" in e for e in errors), errors
    mtree, mclaim = _proof("max(m, R2/gamma2)")
    assert mtree.kind == "max"
    errors = proof_errors(replace(mtree, index=5), mclaim)
    assert any("a max needs" in e for e in errors), errors
    # the other argument of the max (m) does not bound R^2/gamma^2: its certificate is refused
    errors = proof_errors(replace(mtree, index=1 - mtree.index), mclaim)
    assert errors, "a certificate for the wrong argument of a max was accepted"


def test_a_false_certificate_for_a_false_bound_is_refused() -> None:
    # 4 >= R^2/gamma^2 holds only for gamma >= R/2; claim 4 - R^2/gamma^2 = 3 g^2 / g^2
    tree, _ = _proof("2*R**2/gamma**2")
    (claim4,) = problems(parse_bound("4"), "perceptron")
    forged = _with_leaf(
        tree, leaf=claim4.expr, numerator=((3, (2, 0, 0, 0)),), denominator=((1, (2, 0, 0, 0)),)
    )
    assert proof_errors(forged, claim4) == ["the bound: bound: the identity (goal) * Q = N does not hold"]


# --------------------------------------------------------------------------- soundness


@pytest.mark.parametrize(
    "text",
    [
        "4",  # true for gamma >= R/2 only
        "min(R2/gamma2, 1000)",  # true for R^2/gamma^2 <= 1000 only
        "R2/gamma2*(2 - m)",  # true at m = 1 only
        "R2/gamma2 + 1/(R - gamma)",  # a denominator that vanishes at R = gamma (Coq: x/0 = 0)
        "R2/gamma2 - (R - gamma)**2/gamma2 + 1/1000",  # true near R = gamma only
        "R2/gamma2 + log(gamma/R)",  # log(gamma/R) <= 0: true at R = gamma only
        "R2/gamma2*(1 + log(m/2))",  # log(m/2) < 0 at m = 1
    ],
)
def test_bounds_true_on_part_of_the_domain_only_are_never_proved(text: str) -> None:
    v = prove_bound(text, examples=20)
    assert v.verdict != "proved", v.summary()
    assert v.coq_text is None and v.certificates == []


def test_huge_pieces_are_refused_by_the_search_not_expanded() -> None:
    v = prove_bound("(R + gamma)**5000/gamma**5000", examples=5)
    assert v.verdict != "proved" and "an exponent above 40" in " ".join(v.reasons), v.summary()


def test_a_tighter_bound_that_holds_is_open_not_proved() -> None:
    v = prove_bound("min(R2/gamma2, 1 + (m - 1)*R2/gamma2)", examples=20)
    assert v.verdict == "open" and v.exit_code == 3
    assert "negative coefficient" in " ".join(v.reasons)
    assert v.best_ratio is not None and v.best_ratio <= 1


def test_a_looser_bound_reports_its_proved_ratio() -> None:
    v = prove_bound("2*R**2/gamma**2 + m", coq=False)
    assert v.verdict == "proved" and v.ratio == 2
    assert "at least 2x" in v.summary()
    v = prove_bound("R2/gamma2 + 1", coq=False)
    assert v.ratio == 1  # never twice the known bound: R^2/gamma^2 + 1 < 2 R^2/gamma^2 for R^2/gamma^2 > 1


def test_a_certified_bound_that_the_falsifier_refutes_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import novikoff.prove.api as api
    from novikoff.errors import InvariantViolation
    from novikoff.prove.certificate import search_proof as real_search

    forged = _proof("2*R**2/gamma**2")[0]
    (claim4,) = problems(parse_bound("4"), "perceptron")
    forged = _with_leaf(forged, leaf=claim4.expr)

    def lying_search(problem: Problem, scale: Fraction = Fraction(1)) -> tuple[ProofTree | None, list[str]]:
        return (forged, []) if problem.expr == claim4.expr else real_search(problem, scale)

    monkeypatch.setattr(api, "search_proof", lying_search)
    monkeypatch.setattr(api, "proof_errors", lambda tree, claim, scale=Fraction(1): [])  # broken checker too
    with pytest.raises(InvariantViolation, match="T1 with n = 5"):
        prove_bound("4", coq=False)


# --------------------------------------------------------------------------- Coq


def test_without_coq_the_verdict_says_python_checker_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prove_coq.shutil, "which", lambda name: None)
    monkeypatch.setattr(prove_coq, "_BUILT", {})
    v = prove_bound("2*R2/gamma2")
    assert v.verdict == "proved" and v.coq_checked is None
    assert "proved by the Python checker only" in v.summary()
    assert v.exit_code == 4  # exit 0 needs coqc's acceptance


@pytest.mark.skipif(not HAS_COQ, reason="coqc not installed")
def test_a_coq_file_coqc_rejects_is_not_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.prove.api as api

    monkeypatch.setattr(
        api, "coq_file", lambda claims, trees: "Theorem wrong : 1 = 2.\nProof. reflexivity. Qed.\n"
    )
    v = prove_bound("2*R2/gamma2", examples=10)
    assert v.verdict == "open" and v.coq_checked is False
    assert "coqc rejected" in v.reasons[0]


@pytest.mark.skipif(not HAS_COQ, reason="coqc not installed")
def test_the_coq_file_applies_the_run_theorem() -> None:
    v = prove_bound("max(m, R2/gamma2)")
    assert v.coq_checked is True, v.coq_log
    text = v.coq_text or ""
    assert "N3_run D rho order" in text and "INR (perceptron_updates rho D order) <= bound0" in text
    assert "Admitted" not in text and "admit" not in text
    v = prove_bound("2*R2/gamma2", "pdm", epsilons=[Fraction(3, 4), Fraction(1)])
    assert v.coq_checked is True, v.coq_log
    assert (v.coq_text or "").count("D1_above_half_run D rho") == 2
    v = prove_bound("9*R2**2/gamma2**2", "pdm", epsilons=[Fraction(1, 4)])
    assert v.coq_checked is True, v.coq_log
    assert "D1_below_half_run D rho" in (v.coq_text or "") and "Rpower_pow" in (v.coq_text or "")
    v = prove_bound("2*R2/gamma2 + K", "multiclass")
    assert v.coq_checked is True and "M1_run K rho data" in (v.coq_text or "")


def test_the_printer_refuses_what_it_cannot_translate() -> None:
    with pytest.raises(CoqPrintError, match="floor"):
        coq_term(parse_bound("floor(R2/gamma2)"), {})


# --------------------------------------------------------------------------- the API and the CLI


def test_refused_algorithms_name_what_is_missing() -> None:
    with pytest.raises(InputError, match=r"FS1_passes_run"):
        prove_bound("deviation2/gamma2", nonseparable=True)
    with pytest.raises(InputError, match="--epsilons"):
        prove_bound("R2/gamma2", "perceptron", epsilons=[Fraction(1, 2)])
    for eps in (Fraction(0), Fraction(2)):  # outside (0, 1]: no run theorem, no claim
        with pytest.raises(InputError, match=r"--epsilons must be in \(0, 1\]"):
            prove_bound("R2/gamma2", "pdm", epsilons=[eps], coq=False)


def test_the_package_exports_prove_bound_and_the_helper_fails_with_the_summary() -> None:
    assert novikoff.prove_bound is prove_bound
    assert assert_verdict("2*R2/gamma2", "proved", coq=False).verdict == "proved"
    with pytest.raises(AssertionError, match="expected proved, got REFUTED"):
        assert_verdict("4", "proved")


def test_cli_exit_codes_and_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    coq_out, ce = tmp_path / "p.v", tmp_path / "ce.csv"
    assert cli.main(["prove", "2*R**2/gamma**2", "--coq-out", str(coq_out), "--json"]) == (
        0 if HAS_COQ else 4
    )
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "proved" and out["ratio"] == "2" and coq_out.read_text().startswith("(**")
    assert out["coq_checked"] is (True if HAS_COQ else None)
    assert cli.main(["prove", "R/gamma", "--out", str(ce)]) == 1
    assert "REFUTED" in capsys.readouterr().out
    assert replay_file(ce).violated
    assert cli.main(["prove", "ceil(R2/gamma2)", "--examples", "10", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "open" and "rational function" in out["reasons"][0]
    assert cli.main(["prove", "R2/gamma2", "--nonseparable"]) == 2
    assert "FS1_passes_run" in capsys.readouterr().err
    assert cli.main(["prove", "R2/gamma2 +"]) == 2
    assert cli.main(["prove", "R2/gamma2", "--algorithm", "pdm", "--epsilons", "x"]) == 2
    assert "column" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "2*R**2/gamma**2 + m",
        "R2/(2*gamma2) - 3/2*d",
        "min(2*R2/gamma2, R2/gamma2 + d, m)",
        "max(m, R2/gamma2, d**2)",
        "R2/gamma2*(1 + log(m*d))**2",
        "(R + gamma)**3/(gamma**2*(R - gamma/3)) + 1/m",
        "sqrt(m)*R/gamma",
    ],
)
def test_the_printed_coq_term_has_the_bound_s_value(text: str) -> None:
    """The Coq file states the user's bound: its printed term, read back by a reader of Coq's
    notation, is the same real function as sympy's (compared exactly at rational points)."""
    import sympy as sp

    (claim,) = problems(parse_bound(text), "perceptron")
    symbols = {s.name: s for s in claim.expr.free_symbols}
    printed = coq_term(claim.expr, {s: ("R_" if s.name == "R" else s.name) for s in symbols.values()})
    back = _CoqReader(printed, {("R_" if k == "R" else k): v for k, v in symbols.items()}).read()
    for k in range(3):
        point = {s: sp.Rational(k + 2 + i, i + 1) for i, s in enumerate(sorted(symbols.values(), key=str))}
        assert sp.simplify(back.xreplace(point) - claim.expr.xreplace(point)) == 0, printed
    if "^ 2" in printed:  # the comparison can fail: a misprinted power is caught
        wrong = _CoqReader(
            printed.replace("^ 2", "^ 3", 1), {("R_" if k == "R" else k): v for k, v in symbols.items()}
        )
        point = {s: sp.Rational(7 + i, 3) for i, s in enumerate(sorted(symbols.values(), key=str))}
        assert sp.simplify(wrong.read().xreplace(point) - claim.expr.xreplace(point)) != 0


_COQ_FUNCTIONS = {"Rmin": "Min", "Rmax": "Max", "ln": "log", "sqrt": "sqrt"}


class _CoqReader:
    """Coq's real-term notation as the printer writes it: + - (left), * / (left), ^ nat,
    ``(- x)``, applications ``(f a b)`` of Rmin, Rmax, ln, sqrt; numbers and names."""

    def __init__(self, text: str, names: dict[str, Any]) -> None:
        import re

        self.tokens = re.findall(r"\d+|[A-Za-z_][A-Za-z_0-9]*|[-+*/^()]", text)
        self.names = names
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        self.pos += 1
        return self.tokens[self.pos - 1]

    def read(self) -> Any:
        value = self.sum()
        assert self.peek() is None, self.tokens[self.pos :]
        return value

    def sum(self) -> Any:
        value = self.product()
        while self.peek() in ("+", "-"):
            op, rhs = self.take(), self.product()
            value = value + rhs if op == "+" else value - rhs
        return value

    def product(self) -> Any:
        value = self.power()
        while self.peek() in ("*", "/"):
            op, rhs = self.take(), self.power()
            value = value * rhs if op == "*" else value / rhs
        return value

    def power(self) -> Any:
        value = self.atom()
        if self.peek() == "^":
            self.take()
            value = value ** int(self.take())
        return value

    def atom(self) -> Any:
        import sympy as sp

        token = self.take()
        if token.isdigit():
            return sp.Integer(token)
        if token in self.names:
            return self.names[token]
        assert token == "(", token
        if self.peek() == "-":
            self.take()
            value = -self.sum()
        elif self.peek() in _COQ_FUNCTIONS:
            fn = getattr(sp, _COQ_FUNCTIONS[self.take()])
            args = []
            while self.peek() != ")":
                args.append(self.atom())
            value = fn(*args)
        else:
            value = self.sum()
        assert self.take() == ")"
        return value


def test_the_needed_files_are_the_imports_closure_in_project_order(tmp_path: Path) -> None:
    (tmp_path / "_CoqProject").write_text("-R . Novikoff\nA.v\nC.v\nB.v\nD.v\n")
    (tmp_path / "A.v").write_text("From Coq Require Import Reals.\n")
    (tmp_path / "B.v").write_text("From Novikoff Require Import A.\nFrom Novikoff Require C.\n")
    (tmp_path / "C.v").write_text("(* no imports *)\n")
    (tmp_path / "D.v").write_text("From Novikoff Require Import B.\n")
    assert prove_coq.needed(tmp_path, ("B",)) == ("A.v", "C.v", "B.v")
    assert prove_coq.needed(tmp_path, ("A",)) == ("A.v",)
    # the live development: the generated file's imports, Bridges.v last of them
    files = prove_coq.needed()
    assert {f"{m}.v" for m in prove_coq.IMPORTS} <= set(files) and files[-1] == "Bridges.v"
