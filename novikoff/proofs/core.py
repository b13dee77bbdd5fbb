"""Proof obligations and their mechanical checker.

An :class:`Obligation` is a name, the spec id it proves, named hypotheses, a claim
and a proof. The obligation asserts: *for every value of its free symbols that lies
in their declared sympy domains (real, positive, integer, ...) and satisfies every
hypothesis, the claim holds and every expression in it is defined*. Free symbols
must be real; an undefined function application such as ``pw(k)`` denotes a real
number. A hypothesis is a relation (``>=``, ``>``, ``<=``, ``<``, ``=``), a
:class:`~novikoff.spec.core.Forall` (a relation for every integer from a start), or
an :class:`~sympy.logic.boolalg.Implies` between relations.

The language
    Obligations are written in a closed expression language; the checker refuses
    everything else *before* any rule reasons about it, at the entry of every rule
    (claims, and hypotheses not yet screened) and after every rewrite (substitutions,
    instantiations, derivatives, case rewrites), together with every term a proof
    brings (squares, exponents, splits, images, monotone functions, interval ends):

    - *numbers*: rationals (never floats), ``E`` and ``pi``;
    - *atoms*: symbols declared real (a :class:`~sympy.Dummy` too), and applications
      ``f(t1, ...)`` of undefined functions that declare no assumptions (they denote
      real numbers) or are declared real; their arguments are expressions;
    - ``+``, ``*``, powers ``b^e`` (the side conditions below give the rules for the
      base), ``exp``, ``log``, ``Abs``, ``Max``, ``Min``, ``KroneckerDelta``;
    - ``Piecewise`` only with a default branch (a last condition ``True``), its
      conditions formulas of the language; Monotone refuses it in its variable, where
      sympy would differentiate it branch by branch;
    - *formulas*: truth values, the relations ``= != >= > <= <`` between expressions,
      ``&``, ``|``, ``~``, ``=>``, ``<=>``; a hypothesis may also be a :class:`Forall`;
      an equation between two explicit matrices (entrywise expressions) as a claim;
    - *sums* ``Sum(f, (i, a, b))`` in claims and proof terms only, replaced by their
      closed form on admission (summation convention below): no binder ever reaches
      a rule, so ``xreplace``/``subs``/``replace`` cannot rewrite a bound variable.

    No ``Derivative``, ``Integral``, ``Sum`` left without a closed form (or in a
    hypothesis), ``Product``, matrix symbol or entry, ``Indexed``, other function, or
    non-real number (``I``, ``oo``, ``zoo``, ``nan``). A float, a number that is not
    real, a symbol not declared real or a function declared non-real is ``undefined``;
    any other node outside the language is ``malformed``, the message naming the node.
The summation convention
    ``Sum(f, (i, a, b))`` is ``f(a) + f(a + 1) + ... + f(b)`` for integers ``a``, ``b``
    with ``b >= a - 1``; ``b = a - 1`` is the empty sum, 0. The checker admits a sum
    only where the hypotheses and the domains show ``b - a + 1 >= 0`` (else
    ``undefined``: the limits may be reversed), ``a`` and ``b`` are integers (else
    ``malformed``), and the bound symbol's declared domain holds on every integer
    from ``a`` (else ``domain``: sympy simplified the summand with it). Reversed
    limits are refused rather than read: sympy's ``doit`` follows Karr's convention
    (M. Karr, "Summation in finite terms", J. ACM 28(2), 1981), where
    ``Sum(f, (i, a, b)) = -Sum(f, (i, b + 1, a - 1))`` for ``b < a - 1``; the usual
    reading is 0; where ``b >= a - 1`` the two agree.
Definedness
    One check, :func:`_require_defined`: every node is in the language and every side
    condition (each denominator nonzero, each base of a real power positive, of a
    positive non-integer power nonnegative, each logarithm's argument positive) follows
    from the hypotheses and the domains. It runs on every claim a rule accepts, at the
    rule's entry (the wrapper of :meth:`Proof.verify`), except where a rule states
    where it runs instead: on every covering box (Interval, IntervalBound), in the
    final rule after the steps (Chain), in each case before the case rewrites the
    claim (Cases), nowhere (Contradiction: no point satisfies its hypotheses). An
    instance of a formula (an induction's base and step, a lemma's hypotheses at its
    images) has the side conditions of the formula checked at the images *before*
    sympy evaluates the instance (``Eq(1/n, 1/n)`` at ``n = 0`` would become
    ``Eq(zoo, zoo)``, then True). A rewritten expression is screened before its zero
    test. A hypothesis need not be defined: one that is undefined at a point does not
    hold there.

Every rule below is sound by the mathematical statement written beside it, and
sees only what that statement allows it to assume. A rule that proves a claim *for
every value* of a variable (over an interval, over the integers from a start) hides
every hypothesis that mentions the variable: those are facts about one point, not
about every value (asking for one is a ``scope`` failure). The justifications:

Identity (claim ``L = R``)
    ``L - R`` reduces to 0 as a rational function, after rewriting with named equality
    hypotheses (sums were expanded on admission). Sound where every denominator of
    the claim is nonzero, every real power has a positive base and every logarithm a
    positive argument: these *side conditions* are discharged from the hypotheses
    and the symbols' domains (else ``undefined``).
Certificate (claim ``A <= B`` or ``A < B``)
    ``m (B - A) = sum_j c_j h_j + sum_k s_k^2`` identically, with ``m > 0`` a product
    of strict hypotheses and positive rationals, each ``c_j >= 0`` a product of
    hypotheses, squares of real expressions and nonnegative rationals, ``h_j >= 0``
    hypotheses and ``s_k`` real. Then ``B - A >= 0``; it is ``> 0`` if one term is a
    product of strictly positive factors. The side conditions of the claim, of each
    ``s_k`` and of every factor are discharged.
IntervalBound / Interval (claim ``f >= c``)
    Interval arithmetic with outward rounding encloses ``f`` on every sub-box of a
    box that hypotheses place the point in (each end of the box rounded outward from
    its exact rational, never from a printed decimal); a box counts only when the enclosure
    clears the bound and every side condition is decided on it. Only +, *, powers,
    exp, log, sqrt, e, pi and rationals are evaluated (no floats in the claim).
Monotone (claim ``f(x) >= 0``)
    If ``f`` is continuously differentiable on ``[a, b]`` (``f`` is built from +, *,
    powers, exp and log in ``x``, and the side conditions of ``f`` and ``f'`` hold on
    the whole interval), ``f(a) >= 0`` and ``f' >= 0`` on
    ``[a, b]``, then ``f >= 0`` on ``[a, b]`` (mean value theorem); hypotheses put the
    point in ``[a, b]``. The derivative proof sees the hypotheses that do not mention
    ``x`` plus ``x_ge_a`` (and ``x_le_b``); ``x``'s declared domain must contain
    ``[a, b]``, and ``a``, ``b`` must not depend on ``x``. Decreasing: mirror image.
Induction (claim ``P(n)``, ``n`` an integer symbol)
    ``P(s)`` and ``P(n) => P(n + 1)`` for every integer ``n >= s`` give ``P(n)`` for
    every integer ``n >= s``; the hypotheses must give ``n >= s`` at the point. The
    base and the step see the hypotheses that do not mention ``n``, each
    :class:`Forall` hypothesis instantiated at ``s`` (base) or ``n`` (step), and in
    the step ``IH`` (``P(n)``) and ``n_ge_start``. ``n``'s declared domain must
    contain every integer ``>= s``.
Chain
    Each step's claim, once proved from the hypotheses and the earlier steps, is
    added as a hypothesis; a step cannot use a later one.
Cases (split on the real number ``e``)
    ``e >= 0`` or ``e < 0``; each case may rewrite ``Max(0, c e)`` (``c > 0``) to its
    value in that case. ``e`` must be real and defined, and the claim defined in each
    case before the rewrite (which drops the side conditions of ``c e`` for 0).
Contradiction
    A proof of ``0 > 0`` shows no point satisfies the hypotheses: any claim holds.
Apply (a checked lemma ``for all x: H(x) => C(x)``)
    Instantiated at ``x := t`` (simultaneously, symbols only) it gives ``H(t) =>
    C(t)``, provided each image has every assumption its symbol declares. Each
    ``H(t)`` is proved here; ``C(t)`` must be the claim (for inequalities: the same
    difference, no weaker strictness).
SignByAssumptions
    sympy's assumption system decides the sign of the claim's difference from the
    symbols' declared domains alone.
Iff (claim ``P <=> Q``)
    ``P => Q`` and ``Q => P``, each proved with the other side as hypothesis.
Both (claim ``P & Q & ...``)
    Each conjunct proved on its own.
ModusPonens (a hypothesis ``P => Q``)
    A proof of ``P`` gives ``Q``.

A failure carries a :class:`FailureKind` (why it failed, for tests that must fail
for the mathematics) and a message naming the step, and for identities and
certificates the residual. A malformed proof object is a ``malformed`` failure, never
an accepted proof. Nothing counts as proved because a float check passed.
"""

from __future__ import annotations

import functools
import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar, TypeAlias

import sympy as sp
from mpmath import iv
from mpmath.libmp import from_rational, round_ceiling, round_floor
from sympy.core.function import AppliedUndef
from sympy.core.sympify import _sympify as _strict  # numbers and sympy objects only: never parses text

from novikoff.spec.core import Forall

__all__ = [
    "Apply",
    "Both",
    "Cases",
    "Certificate",
    "Chain",
    "Context",
    "Contradiction",
    "FailureKind",
    "Forall",
    "Identity",
    "Iff",
    "Induction",
    "Interval",
    "IntervalBound",
    "ModusPonens",
    "Monotone",
    "Obligation",
    "Proof",
    "ProofFailure",
    "ProofResult",
    "SignByAssumptions",
    "Step",
    "Term",
    "check_obligation",
    "ge",
    "gt",
    "le",
    "lt",
    "positive_in_induction",
]


class FailureKind(str, Enum):
    """Why a proof was rejected."""

    RESIDUAL = "residual"  # an identity or certificate does not reduce to zero
    SIGN = "sign"  # a coefficient, multiplier or term lacks the sign or strictness it needs
    COUNTEREXAMPLE = "counterexample"  # interval arithmetic shows the claim false on a box
    UNDECIDED = "undecided"  # interval arithmetic could not separate the bound
    UNCOVERED = "uncovered"  # a box, interval or induction range the hypotheses do not give
    DOMAIN = "domain"  # a variable's declared domain is not what the rule quantifies over
    UNDEFINED = "undefined"  # a denominator may vanish, a log/real power base may be <= 0, not real
    SCOPE = "scope"  # a hypothesis about a bound variable, used where it does not hold
    UNKNOWN = "unknown"  # a hypothesis name that does not exist
    MISMATCH = "mismatch"  # the proof proves some other claim
    MALFORMED = "malformed"  # an ill-formed proof object or an unsupported construct


class ProofFailure(Exception):
    """A proof step that does not check; the message names the step and the residual."""

    def __init__(self, message: str, kind: FailureKind = FailureKind.MALFORMED) -> None:
        super().__init__(message)
        self.kind = kind

    def within(self, prefix: str) -> ProofFailure:
        """The same failure, its message prefixed by the enclosing step."""
        return ProofFailure(f"{prefix}: {self}", self.kind)


Hypothesis: TypeAlias = "sp.Basic | Forall"


class Context(dict[str, Hypothesis]):
    """Named hypotheses visible to a rule, and the names a binding rule hid (with why)."""

    def __init__(
        self, hyps: Mapping[str, Hypothesis] | None = None, hidden: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(hyps or {})
        self.hidden: dict[str, str] = dict(hidden or {})
        for name in self:
            self.hidden.pop(name, None)

    def extended(self, **new: Hypothesis) -> Context:
        """A copy with ``new`` hypotheses added (a name hidden before becomes visible)."""
        out = Context(self, self.hidden)
        for name, h in new.items():
            out[name] = h
            out.hidden.pop(name, None)
        return out

    def without(self, symbol: sp.Symbol, binder: str) -> Context:
        """A copy hiding every hypothesis that mentions ``symbol`` (bound by ``binder``)."""
        keep, hidden = {}, dict(self.hidden)
        for name, h in self.items():
            if symbol in _free(h):
                hidden[name] = f"it mentions {symbol}, which {binder} quantifies over"
            else:
                keep[name] = h
        return Context(keep, hidden)

    def lookup(self, name: str) -> Hypothesis:
        """The hypothesis ``name``; a ``scope`` failure if hidden, ``unknown`` if absent."""
        if name in self:
            return self[name]
        if name in self.hidden:
            raise ProofFailure(
                f"hypothesis {name!r} is not available here: {self.hidden[name]}", FailureKind.SCOPE
            )
        raise ProofFailure(f"unknown hypothesis {name!r} (have {sorted(self)})", FailureKind.UNKNOWN)

    def relations(self) -> Iterator[tuple[str, sp.Expr, bool]]:
        """Every visible inequality hypothesis as (name, D, strict) meaning D >= 0 or D > 0."""
        for name, h in self.items():
            if isinstance(h, sp.core.relational.Relational) and not isinstance(h, (sp.Equality, sp.Ne)):
                yield (name, *_difference(h))


Hyps = Mapping[str, Hypothesis]


def _free(h: Hypothesis) -> set[sp.Basic]:
    if isinstance(h, Forall):
        return h.body.free_symbols - {h.var}
    return set(h.free_symbols)


def _context(hyps: Hyps) -> Context:
    return hyps if isinstance(hyps, Context) else Context(hyps)


class Proof(ABC):
    """Base class of proof kinds: ``verify(hyps, claim)`` raises ProofFailure or returns None.

    Every subclass's ``verify`` is wrapped (:meth:`__init_subclass__`) so that its body
    only ever sees a :class:`Context` and an admitted claim: hypotheses passed as a plain
    mapping are screened, the claim's sums are expanded, every node is screened against
    the language, and the claim's side conditions are discharged. No rule can forget
    the definedness check. A rule with ``defined_at_entry = False`` discharges them
    where it has more facts, and says where in its docstring: the interval rules on
    every covering box, :class:`Chain` in its final rule (with the steps as hypotheses),
    :class:`Cases` in each case (before the case rewrites the claim),
    :class:`Contradiction` nowhere (no point satisfies its hypotheses).
    """

    defined_at_entry: ClassVar[bool] = True

    # runs when a class is created, at import: before mutmut can switch a mutant on, so
    # no mutant of it could ever be killed (docs/mutation.md); the tests check directly
    # that every rule's verify is wrapped. _admitted, which the wrapper calls, is mutated.
    def __init_subclass__(cls, **kwargs: Any) -> None:  # pragma: no mutate
        super().__init_subclass__(**kwargs)  # pragma: no mutate
        body = cls.__dict__.get("verify")  # pragma: no mutate
        if body is None or getattr(body, "admits_its_claim", False):  # pragma: no mutate
            return  # pragma: no mutate

        @functools.wraps(body)  # pragma: no mutate
        def verify(self: Proof, hyps: Hyps, claim: sp.Basic) -> None:  # pragma: no mutate
            _admitted(body, self, hyps, claim)  # pragma: no mutate

        verify.admits_its_claim = True  # type: ignore[attr-defined]  # pragma: no mutate
        cls.verify = verify  # type: ignore[method-assign]  # pragma: no mutate

    @abstractmethod
    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        """Check that this proof establishes ``claim`` from ``hyps``."""


def _admitted(body: Any, proof: Proof, hyps: Hyps, claim: sp.Basic) -> None:
    """Run a rule's ``body`` on a :class:`Context` and its admitted claim: hypotheses
    passed as a plain mapping (not yet screened) are screened first."""
    if not isinstance(hyps, Context):
        for name, h in hyps.items():
            _screen_hypothesis(name, h)
    ctx = _context(hyps)
    body(proof, ctx, _admit(claim, ctx, proof.defined_at_entry))


@dataclass(frozen=True)
class Obligation:
    """Prove ``claim`` under named ``hypotheses`` with ``proof``; ``spec_id`` names the theorem."""

    name: str
    spec_id: str
    hypotheses: Mapping[str, Hypothesis]
    claim: sp.Basic
    proof: Proof
    note: str = ""


@dataclass(frozen=True)
class ProofResult:
    """Outcome of checking one obligation; ``kind`` says why it failed (None when ok)."""

    obligation: Obligation
    ok: bool
    seconds: float
    message: str = ""
    kind: FailureKind | None = None


def check_obligation(ob: Obligation) -> ProofResult:
    """Check one obligation; never raises for a failed proof (the result says why).

    ``ok`` is True only if the proof establishes the claim for every point of the
    symbols' domains that satisfies the hypotheses (see the module docstring).
    """
    start = time.perf_counter()
    try:
        for name, h in ob.hypotheses.items():
            _screen_hypothesis(name, h)
        ob.proof.verify(Context(ob.hypotheses), ob.claim)
    except ProofFailure as exc:
        return ProofResult(ob, False, time.perf_counter() - start, str(exc), exc.kind)
    except RecursionError:
        return ProofResult(ob, False, time.perf_counter() - start, "proof too deep", FailureKind.MALFORMED)
    except Exception as exc:  # a malformed proof is a failed proof, with its reason
        return ProofResult(
            ob, False, time.perf_counter() - start, f"{type(exc).__name__}: {exc}", FailureKind.MALFORMED
        )
    return ProofResult(ob, True, time.perf_counter() - start)


# --------------------------------------------------------------------------- helpers


def ge(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a >= b`` kept as a relation (sympy would otherwise decide it from assumptions)."""
    return sp.Ge(a, b, evaluate=False)


def gt(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a > b`` kept as a relation."""
    return sp.Gt(a, b, evaluate=False)


def le(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a <= b`` kept as a relation."""
    return sp.Le(a, b, evaluate=False)


def lt(a: sp.Expr, b: sp.Expr) -> sp.Basic:
    """``a < b`` kept as a relation."""
    return sp.Lt(a, b, evaluate=False)


def _difference(claim: sp.Basic) -> tuple[sp.Expr, bool]:
    """``claim`` as ``D >= 0`` (False) or ``D > 0`` (True): returns (D, strict)."""
    if isinstance(claim, (sp.GreaterThan, sp.StrictGreaterThan)):
        return claim.lhs - claim.rhs, isinstance(claim, sp.StrictGreaterThan)
    if isinstance(claim, (sp.LessThan, sp.StrictLessThan)):
        return claim.rhs - claim.lhs, isinstance(claim, sp.StrictLessThan)
    raise ProofFailure(f"not an inequality: {claim}", FailureKind.MISMATCH)


def _normal(expr: sp.Expr) -> sp.Expr:
    """A canonical form for comparing expressions: logs of quotients and products split
    (where the assumptions make that valid), then the rational function expanded."""
    expr = expr.replace(lambda e: isinstance(e, sp.log), lambda e: sp.log(sp.factor(sp.together(e.args[0]))))
    expr = sp.expand_log(expr, force=False)
    if not any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)):
        return sp.expand(sp.cancel(sp.together(expr)))
    # symbolic exponents: combine powers of one base, (x+y)^p/(x+y) -> (x+y)^(p-1)
    # (combine="exp", x^a x^b = x^(a+b), holds for every positive base; the side
    # conditions make every base of a non-integer power positive)
    expr = sp.powsimp(expr, combine="exp")
    if expr == 0:
        return expr
    expr = sp.powsimp(sp.expand(expr), combine="exp")
    expr = sp.expand(sp.cancel(sp.together(expr)))
    return sp.expand(sp.powsimp(expr, combine="exp"))


def _is_zero(expr: sp.Expr) -> bool:
    return _normal(expr) == 0


# --------------------------------------------------------------------------- the language

# the functions of the language (``sqrt`` is a power); an undefined function such as
# ``pw(k)`` is allowed too when it declares no assumptions or is declared real
_FUNCTIONS = (sp.exp, sp.log, sp.Abs, sp.Max, sp.Min, sp.KroneckerDelta)
# the nodes Monotone may not find in x: no derivative, or one sympy takes branch by branch
_NOT_SMOOTH = (sp.Piecewise, sp.Abs, sp.Max, sp.Min, sp.KroneckerDelta, AppliedUndef)
_RELATIONS = sp.core.relational.Relational  # =, !=, >=, >, <=, <
_CONNECTIVES = (sp.And, sp.Or, sp.Not, sp.Implies, sp.Equivalent)
_NOT_REAL_NUMBERS = (sp.zoo, sp.nan, sp.oo, -sp.oo)


def _screen(expr: sp.Basic, where: str = "") -> None:
    """Refuse every node of the expression ``expr`` outside the language (module
    docstring): ``undefined`` for a float, a number that is not real, a symbol not
    declared real or a function declared non-real; ``malformed``, naming the node, for
    every other construct (a Sum, Derivative, Integral, matrix entry, Piecewise without
    a default branch, an unknown function). Guarantees nothing about side conditions."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, sp.Float):
            raise ProofFailure(
                f"{where}the float {node} is not exact: write a rational", FailureKind.UNDEFINED
            )
        if isinstance(node, sp.Rational) or node in (sp.E, sp.pi):
            continue
        if isinstance(node, sp.Symbol):  # a Dummy is a Symbol
            if node.is_real is not True:
                raise ProofFailure(f"{where}symbol {node} is not declared real", FailureKind.UNDEFINED)
            continue
        if isinstance(node, AppliedUndef):
            if node.is_real is not True and getattr(node.func, "_explicit_class_assumptions", {}):
                raise ProofFailure(
                    f"{where}the function {node.func} is declared, but not declared real: {node} "
                    "is not a real number",
                    FailureKind.UNDEFINED,
                )
            stack.extend(node.args)
        elif isinstance(node, (sp.Add, sp.Mul, sp.Pow, *_FUNCTIONS)):
            stack.extend(node.args)
        elif isinstance(node, sp.Piecewise):
            if node.args[-1].cond is not sp.true:
                raise ProofFailure(  # malformed
                    f"{where}Piecewise {node} has no default branch (a last condition True): it is "
                    "undefined where no condition holds"
                )
            for branch in node.args:
                stack.append(branch.expr)
                _screen_formula(branch.cond, where)
        elif node in _NOT_REAL_NUMBERS or (node.is_number and node.is_real is False):
            raise ProofFailure(f"{where}{node} is not a real number", FailureKind.UNDEFINED)
        elif isinstance(node, sp.Function):
            raise ProofFailure(f"{where}the checker does not reason about {node.func}")  # malformed
        else:
            raise ProofFailure(f"{where}the checker's language has no {type(node).__name__}: {node}")


def _screen_formula(formula: sp.Basic, where: str = "", matrices: bool = False) -> None:
    """Refuse a formula outside the language: truth values, relations between
    expressions of the language, ``&``, ``|``, ``~``, ``=>``, ``<=>``; with ``matrices``,
    also an equation between two explicit matrices (each entry an expression)."""
    if isinstance(formula, sp.logic.boolalg.BooleanAtom):
        return
    if matrices and isinstance(formula, sp.Equality) and isinstance(formula.lhs, sp.MatrixBase):
        for side in (formula.lhs, formula.rhs):
            if not isinstance(side, sp.MatrixBase):
                raise ProofFailure(f"{where}{side} is not a matrix")  # malformed
            for entry in side:
                _screen(entry, where)
        return
    if isinstance(formula, _RELATIONS):
        _screen(formula.lhs, where)
        _screen(formula.rhs, where)
    elif isinstance(formula, _CONNECTIVES):
        for arg in formula.args:
            _screen_formula(arg, where)
    else:
        if isinstance(formula, sp.Symbol):  # a propositional symbol is no relation
            _screen(formula, where)
        raise ProofFailure(  # malformed
            f"{where}the checker's language has no formula {type(formula).__name__}: {formula}"
        )


def _screen_hypothesis(name: str, h: object) -> None:
    """A hypothesis is a formula of the language or a :class:`Forall` of one."""
    if isinstance(h, Forall):
        _screen_formula(h.body, f"hypothesis {name!r}: ")
    elif isinstance(h, sp.Basic):
        _screen_formula(h, f"hypothesis {name!r}: ")
    else:
        raise ProofFailure(f"hypothesis {name!r} is not a sympy relation: {h!r}")  # malformed


def _expand_sums(expr: sp.Basic, ctx: Context) -> sp.Basic:
    """Every ``Sum`` of ``expr`` replaced by its closed form (inner sums first), so that
    no binder reaches a rule. The summation convention: ``Sum(f, (i, a, b))`` is
    ``f(a) + ... + f(b)`` for integers ``a``, ``b`` with ``b >= a - 1`` (``b = a - 1``:
    the empty sum, 0), which ``ctx`` and the symbols' domains must show; reversed limits
    are refused (``undefined``): there sympy uses Karr's convention, ``-Sum(f, (i, b + 1,
    a - 1))``, where the usual one reads 0. The bound symbol's declared domain must
    contain every integer of ``[a, b]`` (``domain``). A sum without a closed form, or
    whose limits are not integers, is ``malformed``."""
    if not expr.has(sp.Sum):
        return expr

    def closed(s: sp.Sum) -> sp.Expr:
        for i, lo, hi in s.limits:  # sympy's Sum has both limits
            for end in (lo, hi):
                _screen(end, f"a limit of {s}: ")
                if end.is_integer is not True:
                    raise ProofFailure(f"the sum {s} has a limit {end} not known to be an integer")
            if not _holds("nonnegative", sp.expand(hi - lo + 1), ctx):
                raise ProofFailure(
                    f"the sum {s} may have reversed limits ({hi} < {lo} - 1): its value would depend "
                    "on the summation convention, so the checker needs a proof that "
                    f"{hi} >= {lo} - 1",
                    FailureKind.UNDEFINED,
                )
            bad = _domain_fits(
                i, _canonical(_holds("nonnegative", lo, ctx), _holds("positive", lo, ctx), integer=True)
            )
            if bad is not None:
                raise ProofFailure(
                    f"the bound symbol {i} of {s} is declared {bad}, but it ranges over the integers "
                    f"from {lo}",
                    FailureKind.DOMAIN,
                )
        out = s.doit()
        if out.has(sp.Sum):
            raise ProofFailure(  # malformed
                f"the sum {s} has no closed form: the checker does not reason under binders"
            )
        return out

    def expand(e: sp.Basic) -> sp.Basic:
        # a relation is rebuilt unevaluated: Eq(closed, closed) must reach the
        # definedness check as an equation, not as True
        if isinstance(e, sp.core.relational.Relational):
            return e.func(expand(e.lhs), expand(e.rhs), evaluate=False)
        if isinstance(e, _CONNECTIVES):
            return e.func(*map(expand, e.args), evaluate=False)
        return e.replace(lambda node: isinstance(node, sp.Sum), closed)

    return expand(expr)


def _admit(claim: sp.Basic, ctx: Context, defined: bool) -> sp.Basic:
    """The claim a rule may reason about: sums expanded, every node screened, and (if
    ``defined``) every side condition discharged by :func:`_require_defined`."""
    claim = _expand_sums(claim, ctx)
    _screen_formula(claim, matrices=True)
    if defined:
        _require_defined(claim, ctx)
    return claim


def _admit_expr(expr: object, ctx: Context, what: str) -> sp.Expr:
    """A term of a proof (a square, an exponent, a split, an image, a function) admitted
    like a claim: sympy objects only (never parsed text), sums expanded, screened, defined."""
    out = _expand_sums(_strict(expr), ctx)
    _require_defined(out, ctx, what)
    return out


def _side_conditions(expr: sp.Basic) -> list[tuple[str, sp.Expr, str]]:
    """What must hold for the screened ``expr`` to be a defined real number: (need,
    base, why) with need in nonzero/positive/nonnegative, each pair once."""
    out: list[tuple[str, sp.Expr, str]] = []
    seen: set[tuple[str, sp.Expr]] = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow):
            b, e = node.args
            if e.is_integer:
                if not e.is_nonnegative:
                    out.append(("nonzero", b, f"the denominator {b}"))
            elif e.is_positive:
                out.append(("nonnegative", b, f"the base of {node}"))
            else:
                out.append(("positive", b, f"the base of the real power {node}"))
        elif isinstance(node, sp.log):
            out.append(("positive", node.args[0], f"the argument of {node}"))
    unique = []
    for need, b, why in out:
        if (need, b) not in seen:
            seen.add((need, b))
            unique.append((need, b, why))
    return unique


def _by_assumptions(need: str, b: sp.Expr) -> bool:
    return bool({"nonzero": b.is_nonzero, "positive": b.is_positive, "nonnegative": b.is_nonnegative}[need])


def _holds(need: str, b: sp.Expr, ctx: Context, depth: int = 0) -> bool:
    """``b`` is nonzero/positive/nonnegative at every point satisfying ``ctx``."""
    for h in ctx.values():  # the fast path: a hypothesis that states it as written
        if isinstance(h, sp.Ne) and need == "nonzero" and h.rhs == 0 and (h.lhs == b or h.lhs == -b):
            return True
        if isinstance(h, sp.StrictGreaterThan) and h.rhs == 0 and h.lhs == b:
            return True
    if _by_assumptions(need, b):
        return True
    for _name, d, strict in ctx.relations():
        # b = q d with a rational q > 0 (q < 0 for nonzero), or b = d + r with r >= 0 (> 0)
        if d != 0 and (strict or need == "nonnegative"):
            q = sp.cancel(b / d)
            if q.is_Rational and (q > 0 or (need == "nonzero" and q < 0)):
                return True
        r = sp.expand(b - d)
        if r.is_positive or ((strict or need == "nonnegative") and r.is_nonnegative):
            return True
        # a hypothesis v - a >= 0 (or a - v) on a symbol v: write v = a + s (a - s), s >= 0
        for v in d.free_symbols & b.free_symbols:
            if not isinstance(v, sp.Symbol):
                continue
            coeff = d.coeff(v)
            if coeff in (1, -1) and v not in (d - coeff * v).free_symbols:
                s = sp.Dummy("s", positive=True) if strict else sp.Dummy("s", nonnegative=True)
                moved = b.xreplace({v: coeff * ((coeff * v - d) + s)})
                if _by_assumptions(need, moved) or _by_assumptions(need, sp.expand(moved)):
                    return True
    if depth > 4:
        return False
    if need == "nonzero":  # b = q d with d != 0 a hypothesis and q nonzero
        for h in ctx.values():
            if isinstance(h, sp.Ne) and h.lhs - h.rhs != 0:
                q = sp.cancel(sp.together(b / (h.lhs - h.rhs)))
                if (q.is_Number and q != 0) or (q != b and _holds("nonzero", q, ctx, depth + 1)):
                    return True
    if isinstance(b, sp.Mul):
        coeff, rest = b.as_coeff_Mul()
        if coeff < 0:
            flipped = {"nonzero": "nonzero", "positive": None, "nonnegative": None}[need]
            return flipped is not None and _holds(flipped, -b, ctx, depth + 1)
        return all(_holds(need, f, ctx, depth + 1) for f in sp.Mul.make_args(rest))
    if isinstance(b, sp.Pow):
        base, e = b.args
        if e.is_integer:
            if e.is_even and need != "nonzero":
                return _holds("nonzero", base, ctx, depth + 1) or (
                    need == "nonnegative" and e.is_nonnegative is True
                )
            return _holds(
                need if need != "nonnegative" or e.is_nonnegative else "positive", base, ctx, depth + 1
            )
        return _holds("positive", base, ctx, depth + 1)
    if isinstance(b, sp.exp):
        return True
    return False


_NEEDS = {"nonzero": "nonzero", "positive": "> 0", "nonnegative": ">= 0"}


def _require_defined(expr: sp.Basic, ctx: Context, what: str = "") -> None:
    """The one definedness check: every node of ``expr`` (an expression or a formula) is
    in the language and every side condition follows from ``ctx`` and the domains."""
    if isinstance(expr, sp.Expr):
        _screen(expr, what)
    else:
        _screen_formula(expr, what, matrices=True)
    for need, b, why in _side_conditions(expr):
        if not _holds(need, b, ctx):
            raise ProofFailure(
                f"{what}{why} must be {_NEEDS[need]}, and neither the hypotheses nor the symbols' "
                f"domains say so",
                FailureKind.UNDEFINED,
            )


def _established(image: sp.Expr, ctx: Context) -> sp.Symbol:
    """A symbol carrying the facts known of the real number ``image`` under ``ctx``."""
    facts: dict[str, bool] = {"real": True}
    if image.is_integer:
        facts["integer"] = True
    if _holds("positive", image, ctx):
        facts["positive"] = True
    elif _holds("nonnegative", image, ctx):
        facts["nonnegative"] = True
    elif _holds("nonzero", image, ctx):
        facts["nonzero"] = True
    return sp.Symbol("_image", **facts)


def _domain_fits(symbol: sp.Symbol, canonical: sp.Symbol) -> str | None:
    """None if every fact ``symbol`` declares also holds for ``canonical`` (the range a
    rule quantifies over), else the first fact that does not."""
    facts = canonical.assumptions0
    for fact, value in symbol.assumptions0.items():
        if value is not None and facts.get(fact) != value:
            return fact
    return None


# --------------------------------------------------------------------------- kinds


def _substitute(expr: sp.Expr, ctx: Context, names: Sequence[str]) -> sp.Expr:
    """Evaluate what sympy left unevaluated, resolve a ``Piecewise`` whose first
    condition is a hypothesis, then rewrite with equality hypotheses ``lhs = rhs`` (lhs ->
    rhs). The claim reaching here has no binders (sums are expanded on admission), so the
    rewriting cannot reach a bound variable; the result is screened again."""
    expr = expr.doit()
    known = set(ctx.values())
    expr = expr.replace(
        lambda e: isinstance(e, sp.Piecewise) and e.args[0].cond in known,
        lambda e: e.args[0].expr,
    )
    for name in names:
        eq = ctx.lookup(name)
        if not isinstance(eq, sp.Equality):
            raise ProofFailure(f"substitution {name!r} is not an equality hypothesis", FailureKind.MISMATCH)
        expr = expr.subs(eq.lhs, eq.rhs)
    _screen(expr, "after the substitutions: ")  # no zoo or nan reaches _normal's zero test
    return expr


@dataclass(frozen=True)
class Identity(Proof):
    """The claim is an equality that holds identically (as rational functions, after
    evaluating finite sums and rewriting with the equality hypotheses ``substitutions``)."""

    substitutions: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        if claim is sp.true:  # sympy's own evaluation already decided the equality
            return
        if not isinstance(claim, sp.Equality):
            raise ProofFailure(f"Identity proves equalities, got {claim}", FailureKind.MISMATCH)
        if isinstance(claim.lhs, sp.MatrixBase):
            if claim.lhs.shape != claim.rhs.shape:
                raise ProofFailure(
                    f"shapes differ: {claim.lhs.shape} vs {claim.rhs.shape}", FailureKind.MISMATCH
                )
            for (i, j), left in zip(itertools.product(*map(range, claim.lhs.shape)), claim.lhs):
                entry = _substitute(left - claim.rhs[i, j], ctx, self.substitutions)
                residual = _normal(entry)
                if residual != 0:
                    raise ProofFailure(
                        f"identity fails at entry ({i}, {j}): residual {residual}", FailureKind.RESIDUAL
                    )
            return
        diff = _substitute(claim.lhs - claim.rhs, ctx, self.substitutions)
        residual = _normal(diff)
        if residual != 0:
            raise ProofFailure(f"identity fails: lhs - rhs = {residual}", FailureKind.RESIDUAL)


@dataclass(frozen=True)
class Term:
    """One term ``c * h`` of a certificate: ``factors`` multiply to c >= 0; ``hyp`` names
    h >= 0 (``None``: h = 1). A factor is a hypothesis name (its expression, >= 0),
    a nonnegative rational, ``("square", e)`` (e^2, e real), ``("inverse", name)`` (1/h
    for a strict h > 0) or ``("power", name, e)`` (h^e for a strict h > 0, e real)."""

    factors: tuple[object, ...]
    hyp: str | None


@dataclass(frozen=True)
class Certificate(Proof):
    """``multiplier * (B - A) = sum terms + sum squares`` proves ``A <= B``.

    ``multiplier`` is a tuple of factors like a term's, each strictly positive.
    A strict claim needs a term whose factors and hypothesis are all strict.
    """

    terms: tuple[Term, ...] = ()
    squares: tuple[sp.Expr, ...] = ()
    multiplier: tuple[object, ...] = ()
    substitutions: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        diff, strict = _difference(claim)

        def positive(name: str) -> tuple[sp.Expr, bool]:
            h = ctx.lookup(name)
            if (
                isinstance(h, Forall)
                or not isinstance(h, sp.core.relational.Relational)
                or isinstance(h, (sp.Equality, sp.Ne))
            ):
                raise ProofFailure(f"hypothesis {name!r} is not an inequality: {h}", FailureKind.MISMATCH)
            return _difference(h)

        def value(factor: object, need_strict: bool) -> tuple[sp.Expr, bool]:
            if isinstance(factor, str):
                expr, is_strict = positive(factor)
                if need_strict and not is_strict:
                    raise ProofFailure(
                        f"hypothesis {factor!r} is not strict (> 0) but a multiplier must be",
                        FailureKind.SIGN,
                    )
                return expr, is_strict
            if isinstance(factor, tuple) and len(factor) == 2 and factor[0] == "square":
                if need_strict:
                    raise ProofFailure("a square is not a strictly positive multiplier", FailureKind.SIGN)
                e = _admit_expr(factor[1], ctx, "a squared factor: ")
                return e**2, False
            if isinstance(factor, tuple) and len(factor) == 3 and factor[0] == "power":
                base, base_strict = value(factor[1], False)
                if not base_strict:
                    raise ProofFailure(
                        f"({base})^e needs the strict hypothesis {factor[1]!r} > 0", FailureKind.SIGN
                    )
                exponent = _admit_expr(factor[2], ctx, "an exponent: ")
                return base**exponent, True  # a real power of a positive number
            if isinstance(factor, tuple) and len(factor) == 2 and factor[0] == "inverse":
                expr, is_strict = value(factor[1], False)
                if not is_strict:
                    raise ProofFailure(
                        f"1/({expr}) needs the strict hypothesis {factor[1]!r} > 0", FailureKind.SIGN
                    )
                return 1 / expr, True
            if isinstance(factor, sp.Rational):
                factor = Fraction(int(factor.p), int(factor.q))
            if isinstance(factor, bool) or not isinstance(factor, (int, Fraction)):
                raise ProofFailure(f"unknown factor {factor!r}", FailureKind.MALFORMED)
            q = Fraction(factor)
            if q < 0 or (q == 0 and need_strict):
                raise ProofFailure(
                    f"coefficient {q} is not {'positive' if need_strict else 'nonnegative'}", FailureKind.SIGN
                )
            return sp.Rational(q.numerator, q.denominator), q > 0

        m = sp.Integer(1)
        for f in self.multiplier:
            m *= value(f, True)[0]
        total = sp.Integer(0)
        any_strict = False
        for term in self.terms:
            c, c_strict = sp.Integer(1), True
            for f in term.factors:
                v, s = value(f, False)
                c *= v
                c_strict = c_strict and s
            if term.hyp is None:
                h, h_strict = sp.Integer(1), True
            else:
                h, h_strict = value(term.hyp, False)
            total += c * h
            any_strict = any_strict or (c_strict and h_strict)
        for s in self.squares:
            total += _admit_expr(s, ctx, "a square: ") ** 2
        residual = _normal(_substitute(m * diff - total, ctx, self.substitutions))
        if residual != 0:
            raise ProofFailure(
                f"certificate does not match: m (B - A) - sum = {residual}", FailureKind.RESIDUAL
            )
        if strict and not any_strict:
            raise ProofFailure(
                "strict claim, but no strictly positive term in the certificate", FailureKind.SIGN
            )


@dataclass(frozen=True)
class Interval(Proof):
    """Shorthand for an :class:`IntervalBound` of the claim's own difference."""

    defined_at_entry: ClassVar[bool] = False
    box: Mapping[str, tuple[object, object]]
    covers: str
    max_depth: int = 18

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, _ = _difference(claim)
        IntervalBound(diff, self.box, self.covers, self.max_depth).verify(hyps, claim)


_INTERVAL_NODES = (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.Symbol, sp.Rational, sp.Dummy)
_MAX_BOXES = 200_000


def _exact_rational(value: object, where: str) -> sp.Rational:
    if isinstance(value, bool) or isinstance(value, float) or isinstance(value, sp.Float):
        raise ProofFailure(f"{where}: {value!r} is not an exact rational", FailureKind.MALFORMED)
    if isinstance(value, str):  # "1/3": read as a fraction, never parsed as an expression
        try:
            value = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ProofFailure(
                f"{where}: {value!r} is not a rational number", FailureKind.MALFORMED
            ) from None
    q = _strict(value)
    if not q.is_Rational:
        raise ProofFailure(f"{where}: {value!r} is not a rational number", FailureKind.MALFORMED)
    return q


@dataclass(frozen=True)
class IntervalBound(Proof):
    """``expr >= bound`` (or ``> bound``) for every point of ``box`` (closed intervals),
    by interval arithmetic with bisection down to ``max_depth`` levels. The claim
    must be ``expr >= bound`` itself; ``covers`` states why the box is the domain.
    The claim's side conditions are decided on the covering boxes."""

    defined_at_entry: ClassVar[bool] = False
    expr: sp.Expr
    box: Mapping[str, tuple[object, object]]
    covers: str
    max_depth: int = 18

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        diff, strict = _difference(claim)
        _screen(_strict(self.expr), "the bounded expression: ")
        if not _is_zero(diff - self.expr):
            raise ProofFailure(
                f"the bounded expression {self.expr} is not the claim's difference {diff}",
                FailureKind.MISMATCH,
            )
        for node in sp.preorder_traversal(diff):
            if not (isinstance(node, _INTERVAL_NODES) or node in (sp.E, sp.pi)):
                raise ProofFailure(f"interval arithmetic does not evaluate {node}", FailureKind.MALFORMED)
        names = list(self.box)
        bounds = {
            n: (_exact_rational(lo, f"box {n}"), _exact_rational(hi, f"box {n}"))
            for n, (lo, hi) in self.box.items()
        }
        for name, (lo, hi) in bounds.items():
            if lo > hi:
                raise ProofFailure(f"box {name}: empty interval [{lo}, {hi}]", FailureKind.MALFORMED)
        have = [d for _n, d, _s in ctx.relations()]
        symbols = {s.name: s for s in diff.free_symbols}
        if len(symbols) != len(diff.free_symbols):
            raise ProofFailure("two different symbols share a name", FailureKind.MALFORMED)
        for name, (lo, hi) in bounds.items():
            var = symbols.get(name, sp.Symbol(name, real=True))
            for bound in (var - lo, hi - var):
                if not any(_is_zero(bound - h) for h in have):
                    raise ProofFailure(
                        f"no hypothesis states {bound} >= 0: the box does not cover the domain",
                        FailureKind.UNCOVERED,
                    )
        missing = set(symbols) - set(names)
        if missing:
            raise ProofFailure(f"the box does not bound {sorted(missing)}", FailureKind.UNCOVERED)
        dummies = {name: sp.Dummy(name) for name in names}
        plain = {s: dummies[s.name] for s in diff.free_symbols}
        args = [dummies[n] for n in names]
        modules = [
            {"log": iv.log, "exp": iv.exp, "sqrt": iv.sqrt, "e": iv.e, "mpf": iv.mpf, "pi": iv.pi},
            "mpmath",
        ]
        # every constant and function must be an interval one: a plain mpf constant
        # (how lambdify prints rationals) would be rounded once and then taken as exact;
        # lambdify prints E as ``e`` (so the key is "e": with "E", E was a rounded point)
        f = sp.lambdify(args, diff.xreplace(plain), modules=modules)
        conditions = [
            (need, sp.lambdify(args, b.xreplace(plain), modules=modules), why)
            for need, b, why in _side_conditions(diff)
        ]
        boxes: list[list] = [[_enclose(lo, hi) for lo, hi in bounds.values()]]
        undefined = ""
        for _ in range(self.max_depth + 1):
            undecided = []
            undefined = ""
            for b in boxes:
                state = _conditions_on_box(conditions, b)
                if state is not None:
                    if state.startswith("never"):
                        raise ProofFailure(f"on box {b}: {state[6:]}", FailureKind.UNDEFINED)
                    undefined = f"on box {b}: {state}"
                    undecided.append(b)
                    continue
                value = _as_interval(f(*b))
                low = value.a
                if low > 0 or (not strict and low >= 0):
                    continue
                if value.b < 0 or (strict and value.b <= 0):
                    raise ProofFailure(
                        f"counterexample box {b}: {diff} in {value}", FailureKind.COUNTEREXAMPLE
                    )
                undecided.append(b)
            if not undecided:
                return
            boxes = [half for b in undecided for half in _bisect(b)]
            if len(boxes) > _MAX_BOXES:
                break
        if undefined:
            raise ProofFailure(
                f"the claim may be undefined in the box: {undefined} after {self.max_depth} bisections",
                FailureKind.UNDEFINED,
            )
        raise ProofFailure(
            f"interval bound not decided after {self.max_depth} bisections ({len(boxes)} boxes left)",
            FailureKind.UNDECIDED,
        )


def _as_interval(value: object) -> Any:
    if isinstance(value, type(iv.mpf(0))):
        return value
    try:
        return iv.mpf(value)  # a bare constant such as iv.e
    except Exception as exc:
        raise ProofFailure(f"not a real interval: {value}", FailureKind.UNDEFINED) from exc


def _conditions_on_box(conditions: list, box: list) -> str | None:
    """None when every side condition holds on the whole box; ``"never ..."`` when one
    fails on all of it; another string when undecided there."""
    for need, g, why in conditions:
        try:
            v = _as_interval(g(*box))
        except ProofFailure:
            return f"{why} is not real"
        ok = {"nonzero": v.a > 0 or v.b < 0, "positive": v.a > 0, "nonnegative": v.a >= 0}[need]
        if ok:
            continue
        never = {"nonzero": v.a == 0 and v.b == 0, "positive": v.b <= 0, "nonnegative": v.b < 0}[need]
        return f"never {why} must be {_NEEDS[need]}" if never else f"{why} may fail to be {_NEEDS[need]}"
    return None


def _enclose(lo: sp.Rational, hi: sp.Rational) -> Any:
    """The smallest interval of ``iv.prec``-bit floats containing ``[lo, hi]``: each end
    rounded outward from the exact rational (never from a printed decimal)."""
    return iv.make_mpf(
        (
            from_rational(int(lo.p), int(lo.q), iv.prec, round_floor),
            from_rational(int(hi.p), int(hi.q), iv.prec, round_ceiling),
        )
    )


def _bisect(box: list) -> list[list]:
    widths = [x.delta for x in box]
    k = max(range(len(box)), key=lambda i: widths[i])
    lo, hi = box[k].a, box[k].b
    mid = (lo + hi) / 2
    left, right = list(box), list(box)
    left[k] = iv.mpf([lo, mid])
    right[k] = iv.mpf([mid, hi])
    return [left, right]


def _canonical(nonneg: bool, positive: bool, integer: bool = False) -> sp.Symbol:
    if positive:
        return sp.Symbol("_range", positive=True, integer=integer or None)
    if nonneg:
        return sp.Symbol("_range", nonnegative=True, integer=integer or None)
    return sp.Symbol("_range", real=True, integer=integer or None)


@dataclass(frozen=True)
class Monotone(Proof):
    """``f(x) >= 0`` for ``x`` in ``[a, b]`` (b may be ``sp.oo``).

    Increasing (default): ``f(a) >= 0`` exactly and ``derivative_proof`` proves
    ``f'(x) >= 0``; decreasing: ``f(b) >= 0`` exactly and it proves ``-f'(x) >= 0``.
    The derivative proof sees the hypotheses that do not mention ``x``, plus
    ``x_ge_a`` and ``x_le_b``; ``domain`` names the hypotheses placing the point in
    ``[a, b]``.
    """

    f: sp.Expr
    x: sp.Symbol
    a: sp.Expr
    derivative_proof: Proof
    b: sp.Expr = sp.oo
    decreasing: bool = False
    domain: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        diff, strict = _difference(claim)
        if strict:
            raise ProofFailure("Monotone proves non-strict claims", FailureKind.MISMATCH)
        if not isinstance(self.x, sp.Symbol):
            raise ProofFailure(f"Monotone needs a symbol, got {self.x}", FailureKind.MALFORMED)
        a, b = _strict(self.a), _strict(self.b)
        _screen(a, "the interval's left end: ")
        if b != sp.oo:
            _screen(b, "the interval's right end: ")
        if self.x in a.free_symbols or self.x in b.free_symbols:
            raise ProofFailure(f"the interval [{a}, {b}] depends on {self.x}", FailureKind.MALFORMED)
        _screen(_strict(self.f), "the monotone function: ")
        _require_smooth(self.f, self.x)
        if not _is_zero(diff - self.f):
            raise ProofFailure(
                f"the monotone function {self.f} is not the claim's difference {diff}", FailureKind.MISMATCH
            )
        # the hypotheses must put x in [a, b]: named hypotheses x - a >= 0 and b - x >= 0
        needed = [self.x - a] + ([b - self.x] if b != sp.oo else [])
        have = []
        for n in self.domain:
            h = ctx.lookup(n)
            if isinstance(h, sp.core.relational.Relational) and not isinstance(h, (sp.Equality, sp.Ne)):
                have.append(_difference(h)[0])
        for bound in needed:
            if not any(_is_zero(bound - h) for h in have):
                raise ProofFailure(
                    f"no hypothesis (among domain={self.domain}) states {bound} >= 0", FailureKind.UNCOVERED
                )
        outer = ctx.without(self.x, "Monotone")
        # x's declared domain must contain [a, b]: sympy reasons about x with it
        canonical = _canonical(_holds("nonnegative", a, outer), _holds("positive", a, outer))
        if b != sp.oo and (self.x.is_negative or self.x.is_nonpositive):
            raise ProofFailure(f"{self.x} is declared nonpositive: not supported", FailureKind.DOMAIN)
        bad = _domain_fits(self.x, canonical)
        if bad is not None:
            raise ProofFailure(
                f"{self.x} is declared {bad} but ranges over [{a}, {b}] where that is not known",
                FailureKind.DOMAIN,
            )
        derivative = sp.diff(self.f, self.x)  # screened with its side conditions below
        for expr in (self.f, derivative):
            _require_defined_on_interval(expr, self.x, a, b, outer)
        end = b if self.decreasing else a
        if end == sp.oo:
            raise ProofFailure("a decreasing function needs a finite right end b", FailureKind.MALFORMED)
        start = sp.simplify(sp.expand(self.f.subs(self.x, end)))
        if not (start.is_Rational and start >= 0):
            raise ProofFailure(f"f({end}) = {start} is not an exact rational >= 0", FailureKind.SIGN)
        inner = outer.extended(x_ge_a=sp.Ge(self.x, a, evaluate=False))
        if b != sp.oo:
            inner = inner.extended(x_le_b=sp.Le(self.x, b, evaluate=False))
        sign = -1 if self.decreasing else 1
        try:
            self.derivative_proof.verify(inner, sp.Ge(sign * derivative, 0, evaluate=False))
        except ProofFailure as exc:
            raise exc.within(f"derivative {derivative}") from None


def _require_smooth(f: sp.Expr, x: sp.Symbol) -> None:
    """``f`` is built from +, *, powers, exp and log in ``x`` (its other functions do not
    mention ``x``): where its side conditions hold, it is continuously differentiable in
    ``x`` and ``sp.diff`` is its derivative. A Piecewise (differentiated branch by
    branch, blind to a jump), Abs, Max, Min, KroneckerDelta or an undefined function of
    ``x`` (whose derivative is a Derivative node) is ``malformed`` here."""
    for node in sp.preorder_traversal(f):
        if isinstance(node, _NOT_SMOOTH) and x in node.free_symbols:
            raise ProofFailure(  # malformed
                f"Monotone differentiates {f} in {x}, but {node} ({type(node).__name__}) may not be "
                f"differentiable in {x}"
            )


def _require_defined_on_interval(expr: sp.Expr, x: sp.Symbol, a: sp.Expr, b: sp.Expr, ctx: Context) -> None:
    """Every side condition of ``expr`` holds for every x in [a, b]: a condition on an
    expression of x is shown on [a, oo) (x = a + s) or on (-oo, b] (x = b - s), s >= 0."""
    _screen(expr)
    s = sp.Dummy("s", nonnegative=True)
    for need, base, why in _side_conditions(expr):
        if x not in base.free_symbols:
            ok = _holds(need, base, ctx)
        else:
            ok = _holds(need, sp.expand(base.xreplace({x: a + s})), ctx) or (
                b != sp.oo and _holds(need, sp.expand(base.xreplace({x: b - s})), ctx)
            )
            ok = (
                ok
                or _holds(need, base.xreplace({x: a + s}), ctx)
                or (b != sp.oo and _holds(need, base.xreplace({x: b - s}), ctx))
            )
        if not ok:
            raise ProofFailure(
                f"{why} must be {_NEEDS[need]} for every {x} in [{a}, {b}{')' if b == sp.oo else ']'}, "
                "which is not shown",
                FailureKind.UNDEFINED,
            )


@dataclass(frozen=True)
class Contradiction(Proof):
    """Ex falso: ``proof`` proves ``0 > 0`` from the hypotheses, so they cannot all hold
    and any claim follows (used inside a case of :class:`Cases`)."""

    proof: Proof
    defined_at_entry: ClassVar[bool] = False  # no point satisfies the hypotheses

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        try:
            self.proof.verify(_context(hyps), sp.Gt(sp.Integer(0), 0, evaluate=False))
        except ProofFailure as exc:
            raise exc.within("no contradiction") from None


def _instantiate(ctx: Context, at: sp.Expr, start: int) -> Context:
    """Each :class:`Forall` hypothesis whose range contains every integer >= ``start``
    (its start is no later, and its variable's declared domain admits them all),
    instantiated at ``at`` (an integer >= start there), under its own name. An instance
    outside the language (``zoo`` where the body divides by ``var - start``) is hidden:
    a Forall undefined at ``at`` does not hold, and a hidden fact is never used."""
    out = Context(ctx, ctx.hidden)
    everything_from_start = _canonical(start >= 0, start >= 1, integer=True)
    for name, h in ctx.items():
        if isinstance(h, Forall) and start >= h.start and _domain_fits(h.var, everything_from_start) is None:
            instance = _map_relation(h.body, {h.var: at})
            try:
                _screen_formula(instance)
            except ProofFailure as exc:
                del out[name]
                out.hidden[name] = f"its instance at {at} is not defined ({exc})"
                continue
            out[name] = instance
    return out


@dataclass(frozen=True)
class Induction(Proof):
    """Induction on the integer symbol ``n`` from ``start``: ``base`` proves claim(start),
    ``step`` proves claim(n + 1) with claim(n) added as hypothesis ``"IH"`` and
    ``n >= start`` as ``"n_ge_start"``. Hypotheses mentioning ``n`` are hidden from
    both; :class:`Forall` hypotheses are instantiated at ``start`` and at ``n``."""

    n: sp.Symbol
    base: Proof
    step: Proof
    start: int = 0

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        n, start = self.n, self.start
        if not isinstance(n, sp.Symbol) or n.is_integer is not True:
            raise ProofFailure(f"induction needs an integer symbol, got {n}", FailureKind.DOMAIN)
        if isinstance(start, bool) or not isinstance(start, int):
            raise ProofFailure(f"induction start must be an int, got {start!r}", FailureKind.MALFORMED)
        bad = _domain_fits(n, _canonical(start >= 0, start >= 1, integer=True))
        if bad is not None:
            raise ProofFailure(
                f"{n} is declared {bad}, but the induction ranges over the integers >= {start}",
                FailureKind.DOMAIN,
            )
        at_point = (start <= 0 and n.is_nonnegative) or (start <= 1 and n.is_positive)
        at_point = at_point or any(_is_zero(d - (n - start)) for _name, d, _s in ctx.relations())
        if not at_point:
            raise ProofFailure(
                f"no hypothesis or domain gives {n} >= {start}: the induction does not reach the point",
                FailureKind.UNCOVERED,
            )
        outer = ctx.without(n, "Induction")
        base_ctx = _instantiate(outer, sp.Integer(start), start)
        try:
            self.base.verify(base_ctx, _instance(claim, {n: sp.Integer(start)}, base_ctx, ""))
        except ProofFailure as exc:
            raise exc.within(f"base case {n} = {start}") from None
        step_ctx = _instantiate(outer, n, start).extended(
            IH=claim, n_ge_start=sp.Ge(n, start, evaluate=False)
        )
        try:
            self.step.verify(step_ctx, _instance(claim, {n: n + 1}, step_ctx, ""))
        except ProofFailure as exc:
            raise exc.within(f"induction step {n} -> {n} + 1") from None


@dataclass(frozen=True)
class Step:
    """One link of a :class:`Chain`: prove ``claim`` and add it as hypothesis ``name``."""

    name: str
    claim: sp.Basic
    proof: Proof


@dataclass(frozen=True)
class Chain(Proof):
    """Steps whose conclusions feed later steps; ``final`` proves the obligation's claim."""

    steps: tuple[Step, ...]
    final: Proof
    defined_at_entry: ClassVar[bool] = False  # the final rule checks it, after the steps

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        known = _context(hyps)
        for step in self.steps:
            try:
                step.proof.verify(known, step.claim)
            except ProofFailure as exc:
                raise exc.within(f"step {step.name!r} ({step.claim})") from None
            known = known.extended(**{step.name: step.claim})
        try:
            self.final.verify(known, claim)
        except ProofFailure as exc:
            raise exc.within("final step") from None


@dataclass(frozen=True)
class Cases(Proof):
    """Split on the sign of ``expr``: ``nonneg`` proves the claim with ``expr >= 0``
    added as hypothesis ``"case"``, ``neg`` with ``-expr > 0``; the two cover every
    real value. In each case every positive part ``Max(0, e)`` in the claim with
    ``e = c * expr`` for a positive ``c`` (a positive rational times powers of
    hypotheses ``h > 0`` named in ``positive``) is replaced by ``e`` or by ``0``."""

    expr: sp.Expr
    nonneg: Proof
    neg: Proof
    positive: tuple[str, ...] = ()
    defined_at_entry: ClassVar[bool] = False  # in each case, before the rewrite

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        split = _admit_expr(self.expr, ctx, "the case split: ")
        for label, condition, proof, keep in (
            ("expr >= 0", sp.Ge(split, 0, evaluate=False), self.nonneg, True),
            ("expr < 0", sp.Gt(-split, 0, evaluate=False), self.neg, False),
        ):
            try:  # the rewrite to 0 would drop the side conditions of e in Max(0, e)
                _require_defined(claim, ctx.extended(case=condition))
            except ProofFailure as exc:
                raise exc.within(f"case {label} ({self.expr})") from None
            rewritten = claim.replace(
                lambda e: isinstance(e, sp.Max) and len(e.args) == 2 and 0 in e.args,
                lambda e, keep=keep: self._branch(e, ctx, keep, split),
            )
            try:
                proof.verify(ctx.extended(case=condition), rewritten)
            except ProofFailure as exc:
                raise exc.within(f"case {label} ({self.expr})") from None

    def _branch(self, positive_part: sp.Max, ctx: Context, keep: bool, split: sp.Expr) -> sp.Expr:
        e = positive_part.args[1] if positive_part.args[0] == 0 else positive_part.args[0]
        ratio = sp.cancel(sp.together(e / split))
        if not self._is_positive(ratio, ctx):
            raise ProofFailure(
                f"cannot decide the sign of {e} from the case {split}: ratio {ratio}", FailureKind.SIGN
            )
        return e if keep else sp.Integer(0)

    def _is_positive(self, ratio: sp.Expr, ctx: Context) -> bool:
        for f in sp.Mul.make_args(ratio):
            if f.is_Rational:
                if f <= 0:
                    return False
                continue
            base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer else f
            strict = []
            for n in self.positive:
                h = ctx.lookup(n)
                if isinstance(h, sp.StrictGreaterThan) and h.rhs == 0:
                    strict.append(h.lhs)
            if not any(s == base for s in strict):
                return False
        return True


def _map_relation(rel: sp.Basic, mapping: Mapping[sp.Symbol, sp.Expr]) -> sp.Basic:
    """Substitute into a relation without letting sympy decide it (keeps ``x > 0`` a relation)."""
    m = dict(mapping)
    if isinstance(rel, sp.Equality):
        return sp.Eq(rel.lhs.xreplace(m), rel.rhs.xreplace(m), evaluate=False)
    if isinstance(rel, sp.core.relational.Relational):
        return rel.func(rel.lhs.xreplace(m), rel.rhs.xreplace(m), evaluate=False)
    return rel.xreplace(m)


def _instance(formula: sp.Basic, mapping: Mapping[sp.Symbol, sp.Expr], ctx: Context, what: str) -> sp.Basic:
    """``formula`` with ``mapping`` substituted (simultaneously), once each of its side
    conditions is shown (from ``ctx``) at the images: sympy evaluates while it
    substitutes (``Eq(1/n, 1/n)`` at ``n = 0`` becomes ``Eq(zoo, zoo)``, then True), so the
    conditions are checked on the images of the bases, before any evaluation can hide
    them; then every base of the instance is defined and none evaluates to ``zoo``. (No
    binder survives admission, so the substitution cannot reach a bound variable.)"""
    m = dict(mapping)
    for need, base, why in _side_conditions(formula):
        image = base.xreplace(m)
        _screen(image, f"{what}{why} at {m}: ")
        if not _holds(need, image, ctx):
            raise ProofFailure(
                f"{what}{why} becomes {image}, which must be {_NEEDS[need]}, and neither the "
                "hypotheses nor the symbols' domains say so",
                FailureKind.UNDEFINED,
            )
    return _map_relation(formula, m)


def _same_claim(claim: sp.Basic, given: sp.Basic) -> bool:
    """``given`` proves ``claim``: the same equation, or the same difference with no
    weaker strictness."""
    if isinstance(claim, sp.Equality) or isinstance(given, sp.Equality):
        return type(claim) is type(given) and _is_zero((claim.lhs - claim.rhs) - (given.lhs - given.rhs))
    (d1, s1), (d2, s2) = _difference(claim), _difference(given)
    return _is_zero(d1 - d2) and (s2 or not s1)


@dataclass(frozen=True)
class Apply(Proof):
    """Use a proved lemma: check ``lemma`` itself, prove each of its hypotheses after
    ``mapping`` (symbol -> expression) with the proof in ``premises`` (by hypothesis
    name), and require the mapped claim to be the claim (or, for inequalities, to
    have the same difference)."""

    lemma: Obligation
    mapping: Mapping[sp.Symbol, sp.Expr]
    premises: Mapping[str, Proof]

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        images: dict[sp.Symbol, sp.Expr] = {}
        for symbol, image in self.mapping.items():
            if not isinstance(symbol, sp.Symbol):
                raise ProofFailure(
                    f"a lemma is instantiated at symbols, not at {symbol}", FailureKind.MALFORMED
                )
            image = images[symbol] = _admit_expr(image, ctx, f"the image of {symbol}: ")
            # the lemma holds for every value in its symbols' declared domains only: the
            # image is a defined real number; its sign and integrality must be known here
            bad = _domain_fits(symbol, _established(image, ctx))
            if bad is not None:
                raise ProofFailure(
                    f"lemma symbol {symbol} is declared {bad} but that is not known of its image {image}",
                    FailureKind.DOMAIN,
                )
        result = check_obligation(self.lemma)
        if not result.ok:
            raise ProofFailure(
                f"lemma {self.lemma.name!r}: {result.message}", result.kind or FailureKind.MALFORMED
            )
        for name, h in self.lemma.hypotheses.items():
            if isinstance(h, Forall):
                raise ProofFailure(
                    f"lemma hypothesis {name!r} is a Forall: not applicable", FailureKind.MALFORMED
                )
            if name not in self.premises:
                raise ProofFailure(
                    f"lemma {self.lemma.name!r}: no proof for its hypothesis {name!r}", FailureKind.UNKNOWN
                )
            premise = _instance(h, images, ctx, f"lemma hypothesis {name!r}: ")
            try:
                self.premises[name].verify(ctx, premise)
            except ProofFailure as exc:
                raise exc.within(f"lemma hypothesis {name!r}") from None
        # the lemma's claim as its own check admitted it (sums expanded under its
        # hypotheses); the lemma makes it defined at the images, where its hypotheses
        # (just proved) hold and which lie in its symbols' domains (checked above)
        mapped = _map_relation(_expand_sums(self.lemma.claim, Context(self.lemma.hypotheses)), images)
        if not _same_claim(claim, mapped):
            raise ProofFailure(f"the lemma gives {mapped}, not {claim}", FailureKind.MISMATCH)


@dataclass(frozen=True)
class SignByAssumptions(Proof):
    """The claim's difference is positive (or nonnegative) by sympy's assumption system
    alone, e.g. ``exp(x) > 0`` for real x: a fact of the symbols' declared domains, not of
    the hypotheses."""

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, strict = _difference(claim)
        ok = diff.is_positive if strict else diff.is_nonnegative
        if ok is not True:
            raise ProofFailure(
                f"sympy cannot decide {diff} {'>' if strict else '>='} 0 from the assumptions",
                FailureKind.SIGN,
            )


def _relation(e: sp.Basic, where: str) -> sp.Basic:
    if not isinstance(e, sp.core.relational.Relational):
        raise ProofFailure(f"{where}: {e} is not a relation", FailureKind.MISMATCH)
    return e


@dataclass(frozen=True)
class Iff(Proof):
    """``P <=> Q``: ``forward`` proves Q with P as hypothesis ``"left"``, ``backward``
    proves P with Q as hypothesis ``"right"``. ``p`` names which side is P (sympy
    stores the two sides of an equivalence in its own order)."""

    p: sp.Basic
    forward: Proof
    backward: Proof

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        if not isinstance(claim, sp.Equivalent) or len(claim.args) != 2:
            raise ProofFailure(f"Iff proves P <=> Q, got {claim}", FailureKind.MISMATCH)
        if self.p not in claim.args:
            raise ProofFailure(f"{self.p} is not a side of {claim}", FailureKind.MISMATCH)
        p = _relation(self.p, "Iff")
        q = _relation(claim.args[1] if claim.args[0] == self.p else claim.args[0], "Iff")
        try:
            self.forward.verify(ctx.extended(left=p), q)
        except ProofFailure as exc:
            raise exc.within("=>") from None
        try:
            self.backward.verify(ctx.extended(right=q), p)
        except ProofFailure as exc:
            raise exc.within("<=") from None


@dataclass(frozen=True)
class Both(Proof):
    """``P1 & P2 & ...``: one proof per conjunct, in the order of ``claim.args``."""

    parts: tuple[Proof, ...]

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        if not isinstance(claim, sp.And) or len(claim.args) != len(self.parts):
            raise ProofFailure(f"Both needs one proof per conjunct of {claim}", FailureKind.MISMATCH)
        for i, (part, proof) in enumerate(zip(claim.args, self.parts)):
            try:
                proof.verify(ctx, part)
            except ProofFailure as exc:
                raise exc.within(f"conjunct {i} ({part})") from None


@dataclass(frozen=True)
class ModusPonens(Proof):
    """The hypothesis ``implication`` (``P => Q``) and ``premise`` (a proof of P) give Q;
    Q must be the claim (or, for inequalities, have the same difference)."""

    implication: str
    premise: Proof

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        ctx = _context(hyps)
        h = ctx.lookup(self.implication)
        if not isinstance(h, sp.Implies):
            raise ProofFailure(f"hypothesis {self.implication!r} is not an implication", FailureKind.MISMATCH)
        p, q = h.args
        if not _same_claim(claim, q):
            raise ProofFailure(f"the implication gives {q}, not {claim}", FailureKind.MISMATCH)
        try:
            self.premise.verify(ctx, p)
        except ProofFailure as exc:
            raise exc.within(f"premise of {self.implication!r}") from None


def positive_in_induction(name: str, expr: sp.Expr, slack: int) -> Step:
    """A :class:`Step` inside an induction step proving ``expr > 0`` from the hypothesis
    ``n_ge_start`` (n - start >= 0): ``expr = (n - start) + slack`` with ``slack > 0``."""
    return Step(name, gt(expr, 0), Certificate(terms=(Term((), "n_ge_start"), Term((slack,), None))))
