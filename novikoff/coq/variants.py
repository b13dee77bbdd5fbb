"""Wrong variants in Coq: broken statements the true theorems' proof scripts must NOT prove.

``wrong_statements()`` gives, for every statement with a Coq theorem:

* its conclusion with the constant 1 % off in the direction that makes it false
  (``<=``: the larger side times 99/100; ``>=``: times 101/100; ``=``: times 101/100; a
  zero side is moved by 1/100 instead; inside ``And`` the first conjunct, inside
  ``Equivalent`` the second);
* the headline-level wrong variants of :func:`novikoff.proofs.wrong_variants.wrong_variants`
  (obligations built from a statement: ``<id> <name> [constant x ...]`` and
  ``[without <hypothesis>]``), printed from the obligation's own hypotheses and claim.

``variant_file(name, definition)`` is a Coq file that redefines ``<name>_statement`` as the
broken one and replays the SAME proof script as ``Theorem <name>`` in ``Theorems.v``;
``control_file()`` replays every script against the true statements printed the same way
(it must compile, so a failing variant fails for the mathematics, not for the harness).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from novikoff.coq.kernel import find_theorems
from novikoff.coq.printer import COQ_DIR, all_statements, print_proposition
from novikoff.proofs.wrong_variants import wrong_variants

__all__ = ["WrongStatement", "control_file", "perturb", "proof_script", "variant_file", "wrong_statements"]

_LOW, _HIGH, _SHIFT = sp.Rational(99, 100), sp.Rational(101, 100), sp.Rational(1, 100)


@dataclass(frozen=True)
class WrongStatement:
    label: str
    name: str  # the Coq statement whose proof script is replayed
    definition: str  # Coq text defining <name>_statement (broken)


def perturb(c: sp.Basic) -> sp.Basic:
    """The conclusion with its constant 1 % off, in the direction that makes it false."""
    if isinstance(c, sp.And):
        first, *rest = c.args
        return sp.And(perturb(first), *rest, evaluate=False)
    if isinstance(c, sp.Equivalent):
        a, b = sorted(c.args, key=sp.default_sort_key)
        return sp.Equivalent(a, perturb(b), evaluate=False)
    if isinstance(c, (sp.LessThan, sp.StrictLessThan)):
        rhs = c.rhs - _SHIFT if c.rhs == 0 else _LOW * c.rhs
    elif isinstance(c, (sp.GreaterThan, sp.StrictGreaterThan, sp.Equality)):
        rhs = c.rhs + _SHIFT if c.rhs == 0 else _HIGH * c.rhs
    else:
        raise ValueError(f"no 1 % perturbation for {type(c).__name__}: {c}")
    return c.func(c.lhs, rhs, evaluate=False)


def wrong_statements() -> list[WrongStatement]:
    proved = find_theorems()
    out: list[WrongStatement] = []
    by_head = {}
    for name, st in all_statements():
        by_head[f"{st.id} {st.name}"] = (name, st)
        if name not in proved:
            continue
        text = print_proposition(
            name, st.symbols, st.theorem_hypotheses(), perturb(st.conclusion), with_hypotheses=False
        )
        out.append(WrongStatement(f"{name} [conclusion 1 % off]", name, text))
    for wv in wrong_variants():
        head, _, tag = wv.obligation.name.partition(" [")
        if head not in by_head or not tag:
            continue  # a step-level variant: not built from a statement
        name, st = by_head[head]
        if name not in proved:
            continue
        ob = wv.obligation
        text = print_proposition(name, st.symbols, dict(ob.hypotheses), ob.claim, with_hypotheses=False)
        out.append(WrongStatement(f"{name} [{tag} (registry)", name, text))
    return out


def proof_script(name: str, coq_dir: Path = COQ_DIR) -> str:
    """``Theorem <name> : <name>_statement. Proof. ... Qed.`` exactly as in the development."""
    for f in coq_dir.glob("*.v"):
        text = f.read_text(encoding="utf-8")
        m = re.search(
            rf"^Theorem {re.escape(name)} : {re.escape(name)}_statement\.\n.*?^Qed\.", text, re.M | re.S
        )
        if m:
            return m.group(0)
    raise KeyError(f"no Theorem {name} : {name}_statement in {coq_dir}")


def _imports(coq_dir: Path) -> str:
    mods = sorted({thm.rsplit(".", 1)[0] for thm, _ex in find_theorems(coq_dir).values()})
    return (
        "From Coq Require Import Reals Lra Psatz Arith Lia.\n"
        "From Novikoff Require Import Vectors Perceptron Invariance Statements.\n"
        + "".join(f"Require Import {m}.\n" for m in mods)
        + "Local Open Scope R_scope.\n\n"
    )


def variant_file(name: str, definition: str, coq_dir: Path = COQ_DIR) -> tuple[str, int]:
    """The Coq file replaying ``name``'s proof against ``definition``; and the line where the
    replayed theorem starts (a failure must be reported at or after it)."""
    head = _imports(coq_dir) + definition + "\n"
    return head + proof_script(name, coq_dir) + "\n", head.count("\n") + 1


def control_file(coq_dir: Path = COQ_DIR) -> str:
    """Every proof script replayed against its true statement printed by the same path."""
    parts = [_imports(coq_dir)]
    proved = find_theorems(coq_dir)
    for name, st in all_statements():
        if name in proved:
            parts.append(
                print_proposition(
                    name, st.symbols, st.theorem_hypotheses(), st.conclusion, with_hypotheses=False
                )
            )
            parts.append(proof_script(name, coq_dir) + "\n\n")
    return "".join(parts)
