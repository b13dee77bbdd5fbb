"""``Statement.algorithms`` names algorithms ``novikoff run --algorithm`` takes, and a statement
about an algorithm's run names it."""

from __future__ import annotations

import argparse

from novikoff.cli import build_parser
from novikoff.spec import THEOREMS


def _run_algorithms() -> set[str]:
    """The choices of ``novikoff run --algorithm``, read from the parser."""
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            run = action.choices["run"]
            (algorithm,) = [a for a in run._actions if a.dest == "algorithm"]
            return set(algorithm.choices or ())
    raise AssertionError("no subcommands")


def test_every_algorithm_named_by_a_statement_is_one_novikoff_runs() -> None:
    named = {a for statements in THEOREMS.values() for st in statements for a in st.algorithms}
    assert named, "no statement names an algorithm"
    known = _run_algorithms()
    assert "perceptron" in known
    assert named <= known, sorted(named - known)


def test_only_the_lemmas_about_no_algorithm_name_none() -> None:
    # L1 is a real-analysis lemma (used by P1 and D1), RC1 a bound on a function class
    bare = {st.id for statements in THEOREMS.values() for st in statements if not st.algorithms}
    assert bare == {"L1", "RC1"}


def test_substitute_keeps_the_algorithms() -> None:
    import sympy as sp

    (d2,) = THEOREMS["D2"]
    eps = d2.symbols[1]
    beta = sp.Symbol("beta", positive=True)
    assert d2.substitute({eps: 1 - beta}, d2.symbols).algorithms == d2.algorithms == ("pdm",)
