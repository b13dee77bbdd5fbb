"""``prove_bound(text)``: decide whether a proposed bound bounds every run.

1. Parse the bound with ``falsify``'s grammar, symbols and limits
   (:func:`novikoff.fuzz.bounds.parse_bound`) and build the claims "bound >= known bound on the
   domain" (:func:`novikoff.prove.inequality.problems`).
2. Search certificates (:func:`novikoff.prove.certificate.search_proof`) and check them exactly
   (:func:`novikoff.prove.certificate.proof_errors`). If every claim is certified, write the Coq
   file and compile it (:mod:`novikoff.prove.coq`): "proved" when coqc accepts it (or, without
   Coq, "proved by the Python checker only"); a file coqc rejects makes the verdict "open".
   A proved bound also gets the largest ratio c in a few candidates with bound >= c * known
   everywhere (each proved by its own certificate).
   A proved bound is also run through the falsifier's T1 pre-check: a counterexample there
   would be a bug, raised as :class:`novikoff.errors.InvariantViolation`, never reported.
3. Otherwise run the falsifier (:func:`novikoff.fuzz.falsify.falsify`: the T1 pre-check, then
   the seeded search): a counterexample makes the verdict "refuted", none "open".

A bound tighter than the known one somewhere is never "proved" (its claim has no certificate),
even when it holds on every run; it is "open" unless the falsifier refutes it.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import sympy as sp

from novikoff.coq.printer import COQ_DIR
from novikoff.errors import InputError, InvariantViolation
from novikoff.fuzz.bounds import DEFAULT_LIMITS, BoundLimits, parse_bound
from novikoff.prove.certificate import ProofTree, proof_errors, search_proof
from novikoff.prove.coq import compile_file, coq_file
from novikoff.prove.inequality import REFUSED, Problem, problems
from novikoff.prove.verdict import ProveVerdict

__all__ = ["assert_verdict", "prove_bound"]


def _cpu() -> float:
    """CPU seconds of this process and its finished children (coqc)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def prove_bound(
    text: str,
    algorithm: str = "perceptron",
    *,
    nonseparable: bool = False,
    epsilons: Sequence[Fraction] | None = None,
    examples: int = 100,
    seed: int = 0,
    limits: BoundLimits = DEFAULT_LIMITS,
    coq: bool = True,
    coq_dir: Path = COQ_DIR,
) -> ProveVerdict:
    """The verdict on "every run of ``algorithm`` makes at most ``text`` updates".

    ``epsilons`` (PDM only) fixes the eps values the claim is made for; ``examples`` and
    ``seed`` are the falsifier's budget and seed (no example database is used); ``coq=False``
    skips the Coq file (the verdict is then "proved by the Python checker only").
    ``nonseparable`` (claims on non-separable data, not decided yet) raises InputError
    naming what is missing; a malformed bound raises :class:`novikoff.fuzz.bounds.BoundSyntaxError`.

    Args:
        text: The proposed bound, in the whitelisted syntax of :mod:`novikoff.fuzz.bounds`
            (symbols such as ``R``, ``gamma``, ``m``, ``d``; e.g. ``"R**2/gamma**2 + 1"``).
        algorithm: The algorithm the claim is about (``"perceptron"``, ``"pdm"``, ...;
            ``"romma"``: ROMMA's mistakes, under the conservative and the aggressive rule).
        nonseparable: Claims about non-separable data (refused: no kernel-checked theorem).
        epsilons: PDM only: the eps values the claim is made for.
        examples: The falsifier's budget of examples.
        seed: The falsifier's seed.
        limits: How large the bound expression may be.
        coq: Write and check the Coq file of a proved bound.
        coq_dir: The Coq development the file is checked against.

    Returns:
        The verdict (``"proved"``, ``"refuted"`` or ``"open"``) with its evidence: the
        certificates of a proof, or the counterexample of a refutation.

    Raises:
        InputError: ``nonseparable``, or an unknown algorithm.
        BoundSyntaxError: ``text`` is not a bound of the accepted syntax (an InputError).

    Examples:
        >>> prove_bound("R**2/gamma**2 + 1", examples=5, coq=False).verdict
        'proved'
        >>> refuted = prove_bound("R/gamma", examples=20, coq=False)
        >>> refuted.verdict, refuted.counterexample is not None
        ('refuted', True)
    """
    start = _cpu()
    if nonseparable:
        raise InputError(f"--nonseparable: {REFUSED['nonseparable']}")
    if algorithm in REFUSED:
        raise InputError(f"--algorithm {algorithm}: {REFUSED[algorithm]}")
    bound = parse_bound(text, algorithm, limits)
    claims = problems(bound, algorithm, epsilons)
    inequality = "; ".join(c.inequality() for c in claims)
    domain = "; ".join(dict.fromkeys(c.domain for c in claims))
    known_text = "; ".join(c.known_name for c in claims)
    verdict = ProveVerdict("open", algorithm, text, known_text, inequality, domain)
    trees, reasons = _certify(claims, Fraction(1))
    if trees is not None:
        verdict.certificates = [c for t in trees for c in t.certificates()]
        verdict.coq_text = coq_file(claims, trees)
        if coq:
            verdict.coq_checked, verdict.coq_log = compile_file(verdict.coq_text, coq_dir)
        if verdict.coq_checked is False:
            reasons = [f"the certificates were checked but coqc rejected the Coq file: {verdict.coq_log}"]
        else:
            _cross_check(text, algorithm, epsilons, seed, limits)
            verdict.verdict = "proved"
            verdict.ratio = _ratio(claims)
            verdict.seconds = _cpu() - start
            return verdict
    verdict.reasons = reasons
    _falsify(verdict, text, algorithm, epsilons, examples, seed, limits)
    verdict.seconds = _cpu() - start
    return verdict


def _cross_check(
    text: str, algorithm: str, epsilons: Sequence[Fraction] | None, seed: int, limits: BoundLimits
) -> None:
    """Defence in depth for a proved bound: the falsifier's T1 pre-check (and one example) must
    find nothing; a counterexample to a proved bound is a bug in novikoff, never a verdict."""
    from novikoff.fuzz.falsify import falsify

    result = falsify(
        text, examples=1, seed=seed, database=None, algorithm=algorithm, epsilons=epsilons, limits=limits
    )
    if result.counterexample is not None:
        ce = result.counterexample
        raise InvariantViolation(
            "prove",
            f"updates <= {text} (certified; {ce.updates} updates)",
            dict(ce.values),
            f"on {ce.source}",
        )


def _certify(claims: list[Problem], scale: Fraction) -> tuple[list[ProofTree] | None, list[str]]:
    """A checked proof tree per claim, or (None, why not)."""
    trees = []
    for claim in claims:
        if claim.unsupported is not None:
            return None, [claim.unsupported]
        tree, reasons = search_proof(claim, scale)
        if tree is None:
            return None, reasons
        errors = proof_errors(tree, claim, scale)
        if errors:  # the search and the checker disagree: never trust the search
            return None, [f"the checker rejected the certificate: {e}" for e in errors]
        trees.append(tree)
    return trees, []


def _sample_ratio(claims: list[Problem]) -> float | None:
    """The least bound/known over a grid of the domain (floats; only a candidate for
    :func:`_ratio`, which proves what it reports)."""
    from novikoff.prove.inequality import substitution

    best: float | None = None
    grid = (0.0, 0.5, 1.0, 3.0, 30.0, 1000.0)
    for claim in claims:
        sub = substitution(claim.algorithm, claim.eps)
        f = sp.lambdify(
            sorted((claim.expr.xreplace(sub) / claim.known.xreplace(sub)).free_symbols, key=str),
            claim.expr.xreplace(sub) / claim.known.xreplace(sub),
            "math",
        )
        names = sorted((claim.expr.xreplace(sub) / claim.known.xreplace(sub)).free_symbols, key=str)
        for combo in itertools.product(grid, repeat=min(len(names), 4)):
            args = [(0.01 + v if s.is_positive else v) for s, v in zip(names, combo)]
            args += [1.0] * (len(names) - len(args))
            try:
                value = float(f(*args))
            except (ZeroDivisionError, OverflowError, ValueError):
                continue
            if math.isfinite(value):
                best = value if best is None else min(best, value)
    return best


def _ratio(claims: list[Problem]) -> Fraction | None:
    """The largest c among a few candidates (from a sampled minimum of bound/known) with
    bound >= c * known proved by a checked certificate; 1 when only c = 1 is."""
    sampled = _sample_ratio(claims)
    candidates: list[Fraction] = []
    if sampled is not None and sampled > 1:
        digits = 10 ** max(0, 1 - math.floor(math.log10(sampled)))
        c = Fraction(math.floor(sampled * digits), digits)
        candidates += [c, Fraction(math.floor(sampled))]
    for c in sorted({c for c in candidates if c > 1}, reverse=True):
        trees, _ = _certify(claims, c)
        if trees is not None:
            return c
    return Fraction(1)


def _falsify(
    verdict: ProveVerdict,
    text: str,
    algorithm: str,
    epsilons: Sequence[Fraction] | None,
    examples: int,
    seed: int,
    limits: BoundLimits,
) -> None:
    from novikoff.fuzz.falsify import falsify

    result = falsify(
        text,
        examples=examples,
        seed=seed,
        database=None,
        algorithm=algorithm,
        epsilons=epsilons,
        limits=limits,
    )
    verdict.examples = result.examples
    verdict.best_ratio = result.best_ratio
    if result.counterexample is not None:
        verdict.verdict = "refuted"
        verdict.counterexample = result.counterexample


def assert_verdict(
    text: str, expected: str, algorithm: str = "perceptron", **options: object
) -> ProveVerdict:
    """For bound regression suites: ``prove_bound(text, algorithm, **options)`` and an
    AssertionError carrying its summary unless the verdict is ``expected`` ("proved",
    "refuted" or "open"); a "proved" whose Coq file coqc rejected never passes. Returns the
    verdict."""
    if expected not in ("proved", "refuted", "open"):
        raise ValueError(f"expected must be proved, refuted or open, not {expected!r}")
    verdict = prove_bound(text, algorithm, **options)  # type: ignore[arg-type]
    if verdict.verdict != expected:
        raise AssertionError(f"{text} ({algorithm}): expected {expected}, got {verdict.summary()}")
    return verdict
