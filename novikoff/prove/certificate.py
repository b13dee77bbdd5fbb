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

:func:`proof_errors` verifies a proof tree from scratch against the proposed bound: the tree
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

__all__ = ["Certificate", "ProofTree", "domain_variables", "proof_errors", "search_proof"]

Terms = tuple[tuple[int, tuple[int, ...]], ...]


def domain_variables(algorithm: str) -> tuple[sp.Symbol, ...]:
    """The nonnegative variables of ``algorithm``'s domain, in the certificates' order."""
    return (RR, G, M1, D1, K1) if algorithm == "multiclass" else (G, S, M1, D1)


@dataclass(frozen=True)
class Certificate:
    """``leaf >= scale * known``: (leaf - scale * known) * Q = N over ``variables`` (names);
    ``numerator`` and ``denominator`` are (coefficient, exponents) terms. The i-th logarithm of
    the leaf (:func:`log_atoms`) is the variable ``l{i}`` after the domain's, and ``logs[i]`` is
    the certificate (N_i, Q_i) of its argument X_i: (X_i - 1) * Q_i = N_i, so l_i = ln X_i >= 0."""

    leaf: sp.Expr
    scale: Fraction
    variables: tuple[str, ...]
    numerator: Terms
    denominator: Terms
    logs: tuple[tuple[Terms, Terms], ...] = ()

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready form (coefficients and exponents as integers, the leaf as text)."""
        return {
            "leaf": sp.sstr(self.leaf),
            "scale": str(self.scale),
            "variables": list(self.variables),
            "numerator": [[c, list(e)] for c, e in self.numerator],
            "denominator": [[c, list(e)] for c, e in self.denominator],
            "logs": [
                {"numerator": [[c, list(e)] for c, e in n], "denominator": [[c, list(e)] for c, e in q]}
                for n, q in self.logs
            ],
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


def log_atoms(leaf: sp.Expr) -> list[sp.Expr]:
    """The ``log(...)`` subterms of ``leaf``, in a fixed order (the certificates' l0, l1, ...)."""
    return sorted(leaf.atoms(sp.log), key=sp.sstr)


def _log_variable(i: int) -> sp.Symbol:
    return sp.Symbol(f"l{i}", nonnegative=True)


def _rational_goal(e: sp.Expr, variables: tuple[sp.Symbol, ...], what: str) -> str | None:
    """None if ``e`` is a rational function of ``variables`` whose denominators are positive on
    the domain; else why not."""
    if not _is_rational_function(e) or not e.free_symbols <= set(variables):
        return f"{what} is not a rational function of R, gamma, m, d and logarithms of them (R2 = R^2 ...)"
    for base in _denominators(e):
        why = _positive_form(base, variables)
        if why is not None:
            return f"the denominator {sp.sstr(base)} of {what} is not shown positive ({why})"
    return None


def _nonnegative(goal: sp.Expr, variables: tuple[sp.Symbol, ...], what: str) -> tuple[Terms, Terms] | str:
    """(N, Q) with ``goal`` * Q = N, both with nonnegative integer coefficients and Q with a
    positive term in the strict variables, or why there is none."""
    num, den = sp.fraction(sp.together(goal))
    num_p, den_p = sp.Poly(sp.expand(num), *variables), sp.Poly(sp.expand(den), *variables)
    if all(c <= 0 for c in den_p.coeffs()):
        num_p, den_p = -num_p, -den_p
    why_den = _positive_form(den_p.as_expr(), variables)
    if why_den is not None:
        return f"{what}: the cleared denominator has {why_den}"
    if num_p.is_zero:
        return (), _integer_terms(sp.Poly(1, *variables), den_p)[1]
    if any(c < 0 for c, _ in _terms(num_p)):
        return (
            f"{what}: no certificate (the numerator {sp.sstr(num_p.as_expr())} has a negative "
            f"coefficient in {', '.join(map(str, variables))})"
        )
    return _integer_terms(num_p, den_p)


@dataclass(frozen=True)
class _Goal:
    expr: sp.Expr  # leaf - scale * known in the variables, each log(X_i) replaced by l_i
    variables: tuple[sp.Symbol, ...]
    log_goals: tuple[sp.Expr, ...]  # X_i - 1 in the domain's variables


#: The certificate search refuses larger pieces (expanding them could take unbounded time):
#: an integer exponent above MAX_DEGREE, or more than MAX_OPERATIONS operations.
MAX_DEGREE = 40
MAX_OPERATIONS = 300


def _too_large(leaf: sp.Expr) -> str | None:
    exponents = [abs(int(p.exp)) for p in leaf.atoms(sp.Pow) if p.exp.is_Integer]
    if exponents and max(exponents) > MAX_DEGREE:
        return f"{sp.sstr(leaf)[:60]}: an exponent above {MAX_DEGREE}, beyond the certificate search"
    if sp.count_ops(leaf) > MAX_OPERATIONS:
        return (
            f"{sp.sstr(leaf)[:60]}...: more than {MAX_OPERATIONS} operations, beyond the certificate search"
        )
    return None


def _goal(leaf: sp.Expr, problem: Problem, scale: Fraction) -> _Goal | str:
    """The goal of ``leaf >= scale * known`` (see :class:`_Goal`), or why it is not one the
    certificates cover. A logarithm log(X) is replaced by a nonnegative variable, which needs
    X >= 1 (its own certificate)."""
    sub = substitution(problem.algorithm, problem.eps)
    known, _, unsupported = known_bound(problem.algorithm, problem.eps)
    if unsupported is not None:
        return unsupported
    large = _too_large(leaf)
    if large is not None:
        return large
    domain = domain_variables(problem.algorithm)
    logs = log_atoms(leaf)
    log_goals = []
    for atom in logs:
        x = atom.args[0].xreplace(sub)
        why = _rational_goal(x, domain, f"the argument of {sp.sstr(atom)}")
        if why is not None:
            return why
        log_goals.append(x - 1)
    ls = tuple(_log_variable(i) for i in range(len(logs)))
    variables = (*domain, *ls)
    e = leaf.xreplace(dict(zip(logs, ls))).xreplace(sub)
    why = _rational_goal(e, variables, sp.sstr(leaf))
    if why is not None:
        return why
    goal = e - sp.Rational(scale.numerator, scale.denominator) * known.xreplace(sub)
    return _Goal(goal, variables, tuple(log_goals))


def _leaf_certificate(leaf: sp.Expr, problem: Problem, scale: Fraction) -> tuple[Certificate | None, str]:
    goal = _goal(leaf, problem, scale)
    if isinstance(goal, str):
        return None, goal
    domain = domain_variables(problem.algorithm)
    log_certs = []
    for atom, x1 in zip(log_atoms(leaf), goal.log_goals):
        found = _nonnegative(x1, domain, f"{sp.sstr(atom.args[0])} >= 1 (for {sp.sstr(atom)} >= 0)")
        if isinstance(found, str):
            return None, found
        log_certs.append(found)
    main = _nonnegative(goal.expr, goal.variables, f"{sp.sstr(leaf)} >= {scale} * known")
    if isinstance(main, str):
        return None, main
    names = tuple(str(v) for v in goal.variables)
    return Certificate(leaf, scale, names, main[0], main[1], tuple(log_certs)), ""


def search_proof(problem: Problem, scale: Fraction = Fraction(1)) -> tuple[ProofTree | None, list[str]]:
    """A proof tree of ``problem.expr >= scale * known`` over the domain, or (None, the reasons
    the search failed). Not trusted: :func:`proof_errors` verifies what it returns."""
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


def proof_errors(tree: ProofTree, problem: Problem, scale: Fraction = Fraction(1)) -> list[str]:
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


def _check_terms(name: str, terms: Terms, width: int) -> list[str]:
    errors = []
    for c, ex in terms:
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            errors.append(f"{name} coefficient {c!r} is not a nonnegative integer")
        if len(ex) != width or any(isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in ex):
            errors.append(f"{name} exponents {ex!r} are not {width} natural numbers")
    return errors


def _check_identity(
    goal: sp.Expr, num: Terms, den: Terms, variables: tuple[sp.Symbol, ...], what: str
) -> list[str]:
    errors = _check_terms(f"{what} numerator", num, len(variables))
    errors += _check_terms(f"{what} denominator", den, len(variables))
    if errors:
        return errors
    q = _poly(den, variables)
    why = _positive_form(q, variables) if den else "no terms"
    if why is not None:
        return [f"{what}: the denominator is not shown positive: {why}"]
    residue = sp.fraction(sp.together(goal * q - _poly(num, variables)))[0]
    if sp.expand(residue) != 0:
        return [f"{what}: the identity (goal) * Q = N does not hold"]
    return []


def _check_leaf(cert: Certificate, e: sp.Expr, problem: Problem, scale: Fraction) -> list[str]:
    if cert.leaf != e:
        return ["the certificate is about another expression"]
    if cert.scale != scale:
        return [f"the certificate proves the scale {cert.scale}, not {scale}"]
    goal = _goal(e, problem, scale)
    if isinstance(goal, str):
        return [goal]
    if cert.variables != tuple(str(v) for v in goal.variables):
        return [f"variables {cert.variables} are not the domain's {tuple(map(str, goal.variables))}"]
    if len(cert.logs) != len(goal.log_goals):
        return [f"{len(cert.logs)} logarithm certificates for {len(goal.log_goals)} logarithms"]
    domain = domain_variables(problem.algorithm)
    errors = []
    for i, ((n, q), x1) in enumerate(zip(cert.logs, goal.log_goals)):
        errors += _check_identity(x1, n, q, domain, f"logarithm l{i}")
    return errors + _check_identity(goal.expr, cert.numerator, cert.denominator, goal.variables, "bound")


#: Deprecated name of :func:`proof_errors` (it returns the errors; a ``check_*`` raises).
check_proof = proof_errors
