"""Certificates for "bound >= c * known bound on the domain", their search and their exact checker.

A goal ``E >= c K`` (E a piece of the proposed bound, K the kernel-checked bound, c >= 1 a
rational) is reduced, through the domain's parametrisation by nonnegative variables
(:func:`novikoff.prove.inequality.substitution`), to the identity

    (E - c K) * Q = N

where N and Q are polynomials in the variables with nonnegative integer coefficients and Q has a
positive term in the strictly positive variables alone (so Q > 0): then E - c K = N/Q >= 0
everywhere. This is a Positivstellensatz certificate of Polya type (a nonnegative combination of
products of the domain's constraints g > 0, R - gamma >= 0, m - 1 >= 0, ...), with exact rational
arithmetic throughout. A top-level ``min`` is proved argument by argument; a top-level ``max`` by
one argument (:class:`ProofTree`).

:func:`check_proof` verifies a proof tree from scratch against the proposed bound: the tree
follows the bound's min/max structure, each piece is a rational function of the variables whose
denominators are positive on the domain, the coefficients are nonnegative integers, Q has a
strictly positive term, and the identity holds exactly. The search (:func:`search_proof`) is
trusted for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import sympy as sp

from novikoff.prove.inequality import D1, K1, M1, RR, STRICT, G, Problem, S, known_bound, substitution

__all__ = ["Certificate", "ProofTree", "check_proof", "domain_variables", "search_proof"]

Terms = tuple[tuple[int, tuple[int, ...]], ...]


def domain_variables(algorithm: str) -> tuple[sp.Symbol, ...]:
    """The nonnegative variables of ``algorithm``'s domain, in the certificates' order."""
    return (RR, G, M1, D1, K1) if algorithm == "multiclass" else (G, S, M1, D1)


@dataclass(frozen=True)
class Certificate:
    """``leaf >= scale * known``: (leaf - scale * known) * Q = N over ``variables`` (names);
    ``numerator`` and ``denominator`` are (coefficient, exponents) terms."""

    leaf: sp.Expr
    scale: Fraction
    variables: tuple[str, ...]
    numerator: Terms
    denominator: Terms

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready form (coefficients and exponents as integers, the leaf as text)."""
        return {
            "leaf": sp.sstr(self.leaf),
            "scale": str(self.scale),
            "variables": list(self.variables),
            "numerator": [[c, list(e)] for c, e in self.numerator],
            "denominator": [[c, list(e)] for c, e in self.denominator],
        }


@dataclass(frozen=True)
class ProofTree:
    """How the bound is proved: ``kind`` "leaf" (its certificate), "min" (every part proves an
    argument, in order) or "max" (``parts[0]`` proves argument ``index``)."""

    kind: str
    certificate: Certificate | None = None
    parts: tuple[ProofTree, ...] = ()
    index: int = 0

    def certificates(self) -> list[Certificate]:
        """Every certificate of the tree, depth first."""
        if self.certificate is not None:
            return [self.certificate]
        return [c for p in self.parts for c in p.certificates()]


def _is_rational_function(e: sp.Expr) -> bool:
    """True iff ``e`` is built from numbers and symbols by + * and integer powers only."""
    if e.is_Symbol or e.is_Rational:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_is_rational_function(a) for a in e.args)
    if isinstance(e, sp.Pow):
        return bool(e.exp.is_Integer) and _is_rational_function(e.base)
    return False


def _denominators(e: sp.Expr) -> list[sp.Expr]:
    """The bases of the negative powers in ``e`` (a rational function)."""
    out = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Pow) and node.exp.is_Integer and node.exp < 0:
            out.append(node.base)
    return out


def _terms(poly: sp.Poly) -> list[tuple[Fraction, tuple[int, ...]]]:
    return [(Fraction(int(c.p), int(c.q)), tuple(int(k) for k in m)) for m, c in poly.terms()]


def _positive_form(e: sp.Expr, variables: tuple[sp.Symbol, ...]) -> str | None:
    """None if the polynomial ``e`` has nonnegative coefficients and a positive term in the
    strictly positive variables alone (so it is positive on the domain); else why not."""
    poly = sp.Poly(sp.expand(e), *variables)
    terms = _terms(poly)
    if any(c < 0 for c, _ in terms):
        return "a negative coefficient"
    strict = [i for i, v in enumerate(variables) if v in STRICT]
    if not any(c > 0 and all(k == 0 for i, k in enumerate(ex) if i not in strict) for c, ex in terms):
        return "no positive term in the strictly positive variables alone (it may vanish)"
    return None


def _integer_terms(num: sp.Poly, den: sp.Poly) -> tuple[Terms, Terms]:
    n, q = _terms(num), _terms(den)
    scale = lcm(*(c.denominator for c, _ in (*n, *q)))
    return (
        tuple((int(c * scale), e) for c, e in n),
        tuple((int(c * scale), e) for c, e in q),
    )


def _goal(leaf: sp.Expr, problem: Problem, scale: Fraction) -> tuple[sp.Expr | None, str | None]:
    """leaf - scale * known in the variables, or (None, why it is not a rational goal)."""
    sub = substitution(problem.algorithm, problem.eps)
    known, _, unsupported = known_bound(problem.algorithm, problem.eps)
    if unsupported is not None:
        return None, unsupported
    e = leaf.xreplace(sub)
    if not _is_rational_function(e):
        return None, f"{sp.sstr(leaf)} is not a rational function of R, gamma, m, d (after R2 = R^2 ...)"
    for base in _denominators(e):
        why = _positive_form(base, domain_variables(problem.algorithm))
        if why is not None:
            return None, f"the denominator {sp.sstr(base)} of {sp.sstr(leaf)} is not shown positive ({why})"
    return e - sp.Rational(scale.numerator, scale.denominator) * known.xreplace(sub), None


def _leaf_certificate(leaf: sp.Expr, problem: Problem, scale: Fraction) -> tuple[Certificate | None, str]:
    goal, why = _goal(leaf, problem, scale)
    if goal is None:
        return None, why or ""
    variables = domain_variables(problem.algorithm)
    num, den = sp.fraction(sp.together(goal))
    num_p, den_p = sp.Poly(sp.expand(num), *variables), sp.Poly(sp.expand(den), *variables)
    if all(c <= 0 for c in den_p.coeffs()):
        num_p, den_p = -num_p, -den_p
    why_den = _positive_form(den_p.as_expr(), variables)
    if why_den is not None:
        return None, f"{sp.sstr(leaf)} >= {scale} * known: the cleared denominator has {why_den}"
    if num_p.is_zero:
        num_terms: Terms = ()
        _, den_terms = _integer_terms(sp.Poly(1, *variables), den_p)
    else:
        if any(c < 0 for c, _ in _terms(num_p)):
            return None, (
                f"{sp.sstr(leaf)} >= {scale} * known: no certificate (the numerator "
                f"{sp.sstr(num_p.as_expr())} has a negative coefficient in {', '.join(map(str, variables))})"
            )
        num_terms, den_terms = _integer_terms(num_p, den_p)
    return Certificate(leaf, scale, tuple(str(v) for v in variables), num_terms, den_terms), ""


def search_proof(problem: Problem, scale: Fraction = Fraction(1)) -> tuple[ProofTree | None, list[str]]:
    """A proof tree of ``problem.expr >= scale * known`` over the domain, or (None, the reasons
    the search failed). Not trusted: :func:`check_proof` verifies what it returns."""
    return _search(problem.expr, problem, scale)


def _search(e: sp.Expr, problem: Problem, scale: Fraction) -> tuple[ProofTree | None, list[str]]:
    if isinstance(e, sp.Min):
        parts = []
        for a in e.args:
            tree, reasons = _search(a, problem, scale)
            if tree is None:
                return None, reasons
            parts.append(tree)
        return ProofTree("min", parts=tuple(parts)), []
    if isinstance(e, sp.Max):
        reasons = []
        for i, a in enumerate(e.args):
            tree, why = _search(a, problem, scale)
            if tree is not None:
                return ProofTree("max", parts=(tree,), index=i), []
            reasons.extend(why)
        return None, reasons
    cert, reason = _leaf_certificate(e, problem, scale)
    return (ProofTree("leaf", certificate=cert), []) if cert is not None else (None, [reason])


def _poly(terms: Terms, variables: tuple[sp.Symbol, ...]) -> sp.Expr:
    return sp.Add(*(sp.Integer(c) * sp.Mul(*(v**k for v, k in zip(variables, ex))) for c, ex in terms))


def check_proof(tree: ProofTree, problem: Problem, scale: Fraction = Fraction(1)) -> list[str]:
    """Why ``tree`` does not prove ``problem.expr >= scale * known`` on the domain (empty: it does).

    Everything is recomputed exactly from the proposed bound, the algorithm's known bound and the
    domain's parametrisation; nothing the search computed is trusted but the certificate's
    integers."""
    if scale < 1:
        return [f"scale {scale} < 1 would not bound the run"]
    return _check(tree, problem.expr, problem, scale, "the bound")


def _check(tree: ProofTree, e: sp.Expr, problem: Problem, scale: Fraction, where: str) -> list[str]:
    if isinstance(e, sp.Min):
        if tree.kind != "min" or len(tree.parts) != len(e.args):
            return [f"{where}: a min of {len(e.args)} arguments needs a 'min' node with as many parts"]
        return [
            err
            for i, (p, a) in enumerate(zip(tree.parts, e.args))
            for err in _check(p, a, problem, scale, f"{where}, min argument {i}")
        ]
    if isinstance(e, sp.Max):
        if tree.kind != "max" or len(tree.parts) != 1 or not 0 <= tree.index < len(e.args):
            return [f"{where}: a max needs a 'max' node naming one of its {len(e.args)} arguments"]
        return _check(
            tree.parts[0], e.args[tree.index], problem, scale, f"{where}, max argument {tree.index}"
        )
    cert = tree.certificate
    if tree.kind != "leaf" or cert is None:
        return [f"{where}: expected a certificate"]
    return [f"{where}: {err}" for err in _check_leaf(cert, e, problem, scale)]


def _check_leaf(cert: Certificate, e: sp.Expr, problem: Problem, scale: Fraction) -> list[str]:
    variables = domain_variables(problem.algorithm)
    if cert.variables != tuple(str(v) for v in variables):
        return [f"variables {cert.variables} are not the domain's {tuple(map(str, variables))}"]
    if cert.leaf != e:
        return ["the certificate is about another expression"]
    if cert.scale != scale:
        return [f"the certificate proves the scale {cert.scale}, not {scale}"]
    errors = []
    for name, terms in (("numerator", cert.numerator), ("denominator", cert.denominator)):
        for c, ex in terms:
            if isinstance(c, bool) or not isinstance(c, int) or c < 0:
                errors.append(f"{name} coefficient {c!r} is not a nonnegative integer")
            if len(ex) != len(variables) or any(
                isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in ex
            ):
                errors.append(f"{name} exponents {ex!r} are not {len(variables)} natural numbers")
    if errors:
        return errors
    q = _poly(cert.denominator, variables)
    why = _positive_form(q, variables) if cert.denominator else "no terms"
    if why is not None:
        return [f"the denominator is not shown positive: {why}"]
    goal, why_goal = _goal(e, problem, scale)
    if goal is None:
        return [why_goal or "not a rational goal"]
    residue = sp.fraction(sp.together(goal * q - _poly(cert.numerator, variables)))[0]
    if sp.expand(residue) != 0:
        return ["the identity (bound - scale * known) * Q = N does not hold"]
    return []
