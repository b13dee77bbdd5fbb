"""Proof obligations and their mechanical checker.

An :class:`Obligation` is a name, the spec id it proves, named hypotheses, a
claim and a proof. Every proof kind is checked exactly or rigorously:

- :class:`Identity`: ``lhs == rhs`` as rational functions (sympy ``cancel``/``expand``
  of the difference is 0);
- :class:`Certificate`: ``m (B - A) = sum_j c_j h_j + sum_k s_k^2`` (a
  Positivstellensatz-style certificate) for a claim ``A <= B`` (or ``<``), where
  every ``h_j`` is a hypothesis ``h_j >= 0`` (or ``> 0``), every ``c_j`` and the
  multiplier ``m > 0`` are products of hypotheses and positive rationals, and the
  equality is verified by ``expand(...) == 0``;
- :class:`IntervalBound`: ``f >= c`` (or ``> c``) on a box, by mpmath interval
  arithmetic with branch and bound (outward rounding: a box counts only when
  the interval lower bound of f already clears c);
- :class:`Monotone`: ``f(x) >= 0`` on ``[a, b]`` from ``f(a) >= 0`` exactly and a
  proof of ``f'(x) >= 0`` (sympy differentiates);
- :class:`Induction` over an integer symbol, :class:`Chain` (each step's claim
  becomes a hypothesis of the next), :class:`Cases` (a split on the sign of an
  expression).

A failed step reports the step and, for identities and certificates, the
residual polynomial. Nothing counts as proved because a float check passed.
"""

from __future__ import annotations

import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from mpmath import iv

__all__ = [
    "Apply",
    "Cases",
    "Certificate",
    "Chain",
    "Contradiction",
    "Identity",
    "Induction",
    "Interval",
    "IntervalBound",
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


class ProofFailure(Exception):
    """A proof step that does not check; the message names the step and the residual."""


Hyps = Mapping[str, sp.Basic]


class Proof(ABC):
    """Base class of proof kinds: ``verify(hyps, claim)`` raises ProofFailure or returns None."""

    @abstractmethod
    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        """Check that this proof establishes ``claim`` from ``hyps``."""


@dataclass(frozen=True)
class Obligation:
    """Prove ``claim`` under named ``hypotheses`` with ``proof``; ``spec_id`` names the theorem."""

    name: str
    spec_id: str
    hypotheses: Mapping[str, sp.Basic]
    claim: sp.Basic
    proof: Proof
    note: str = ""


@dataclass(frozen=True)
class ProofResult:
    """Outcome of checking one obligation."""

    obligation: Obligation
    ok: bool
    seconds: float
    message: str = ""


def check_obligation(ob: Obligation) -> ProofResult:
    """Check one obligation; never raises for a failed proof (the result says why)."""
    start = time.perf_counter()
    try:
        ob.proof.verify(ob.hypotheses, ob.claim)
    except ProofFailure as exc:
        return ProofResult(ob, False, time.perf_counter() - start, str(exc))
    except Exception as exc:  # a malformed proof is a failed proof, with its reason
        return ProofResult(ob, False, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
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
    raise ProofFailure(f"not an inequality: {claim}")


def _normal(expr: sp.Expr) -> sp.Expr:
    """A canonical form for comparing expressions: logs of quotients and products split
    (where the assumptions make that valid), then the rational function expanded."""
    expr = expr.replace(lambda e: isinstance(e, sp.log), lambda e: sp.log(sp.factor(sp.together(e.args[0]))))
    expr = sp.expand_log(expr, force=False)
    if not any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)):
        return sp.expand(sp.cancel(sp.together(expr)))
    # symbolic exponents: combine powers of one base, (x+y)^p/(x+y) -> (x+y)^(p-1)
    # (combine="exp", x^a x^b = x^(a+b), holds for every nonzero base)
    expr = sp.powsimp(expr, combine="exp")
    if expr == 0:
        return expr
    expr = sp.powsimp(sp.expand(expr), combine="exp")
    expr = sp.expand(sp.cancel(sp.together(expr)))
    return sp.expand(sp.powsimp(expr, combine="exp"))


def _is_zero(expr: sp.Expr) -> bool:
    return _normal(expr) == 0


# --------------------------------------------------------------------------- kinds


def _substitute(expr: sp.Expr, hyps: Hyps, names: Sequence[str]) -> sp.Expr:
    """Evaluate finite sums, resolve a ``Piecewise`` whose first condition is a
    hypothesis, then rewrite with equality hypotheses ``lhs = rhs`` (lhs -> rhs)."""
    expr = expr.doit()
    known = set(hyps.values())
    expr = expr.replace(
        lambda e: isinstance(e, sp.Piecewise) and e.args[0].cond in known,
        lambda e: e.args[0].expr,
    )
    for name in names:
        eq = hyps.get(name)
        if not isinstance(eq, sp.Equality):
            raise ProofFailure(f"substitution {name!r} is not an equality hypothesis")
        expr = expr.subs(eq.lhs, eq.rhs)
    return expr


@dataclass(frozen=True)
class Identity(Proof):
    """The claim is an equality that holds identically (as rational functions, after
    evaluating finite sums and rewriting with the equality hypotheses ``substitutions``)."""

    substitutions: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        if claim is sp.true:  # sympy's own evaluation already decided the equality
            return
        if not isinstance(claim, sp.Equality):
            raise ProofFailure(f"Identity proves equalities, got {claim}")
        if isinstance(claim.lhs, sp.MatrixBase):
            if claim.lhs.shape != claim.rhs.shape:
                raise ProofFailure(f"shapes differ: {claim.lhs.shape} vs {claim.rhs.shape}")
            for (i, j), left in zip(itertools.product(*map(range, claim.lhs.shape)), claim.lhs):
                entry = _substitute(left - claim.rhs[i, j], hyps, self.substitutions)
                residual = _normal(entry)
                if residual != 0:
                    raise ProofFailure(f"identity fails at entry ({i}, {j}): residual {residual}")
            return
        diff = _substitute(claim.lhs - claim.rhs, hyps, self.substitutions)
        residual = _normal(diff)
        if residual != 0:
            raise ProofFailure(f"identity fails: lhs - rhs = {residual}")


@dataclass(frozen=True)
class Term:
    """One term ``c * h`` of a certificate: ``factors`` multiply to c >= 0; ``hyp`` names
    h >= 0 (``None``: h = 1). A factor is a hypothesis name (its expression, >= 0),
    a nonnegative rational, ``("square", e)`` (e^2), ``("inverse", name)`` (1/h for a
    strict h > 0) or ``("power", name, e)`` (h^e for a strict h > 0, any real e)."""

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
        diff, strict = _difference(claim)
        positive = {name: _difference(h) for name, h in hyps.items() if not isinstance(h, sp.Equality)}

        def value(factor: object, need_strict: bool) -> tuple[sp.Expr, bool]:
            if isinstance(factor, str):
                if factor not in positive:
                    raise ProofFailure(f"unknown hypothesis {factor!r} (have {sorted(positive)})")
                expr, is_strict = positive[factor]
                if need_strict and not is_strict:
                    raise ProofFailure(f"hypothesis {factor!r} is not strict (> 0) but a multiplier must be")
                return expr, is_strict
            if isinstance(factor, tuple) and len(factor) == 2 and factor[0] == "square":
                if need_strict:
                    raise ProofFailure("a square is not a strictly positive multiplier")
                return sp.sympify(factor[1]) ** 2, False
            if isinstance(factor, tuple) and len(factor) == 3 and factor[0] == "power":
                base, base_strict = value(factor[1], False)
                if not base_strict:
                    raise ProofFailure(f"({base})^e needs the strict hypothesis {factor[1]!r} > 0")
                return base ** sp.sympify(factor[2]), True  # a real power of a positive number
            if isinstance(factor, tuple) and len(factor) == 2 and factor[0] == "inverse":
                expr, is_strict = value(factor[1], False)
                if not is_strict:
                    raise ProofFailure(f"1/({expr}) needs the strict hypothesis {factor[1]!r} > 0")
                return 1 / expr, True
            if not isinstance(factor, (int, Fraction)):
                raise ProofFailure(f"unknown factor {factor!r}")
            q = Fraction(factor)
            if q < 0 or (q == 0 and need_strict):
                raise ProofFailure(f"coefficient {q} is not {'positive' if need_strict else 'nonnegative'}")
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
            total += sp.sympify(s) ** 2
        residual = _normal(_substitute(m * diff - total, hyps, self.substitutions))
        if residual != 0:
            raise ProofFailure(f"certificate does not match: m (B - A) - sum = {residual}")
        if strict and not any_strict:
            raise ProofFailure("strict claim, but no strictly positive term in the certificate")


@dataclass(frozen=True)
class Interval(Proof):
    """Shorthand for an :class:`IntervalBound` of the claim's own difference."""

    box: Mapping[str, tuple[object, object]]
    covers: str
    max_depth: int = 18

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, _ = _difference(claim)
        IntervalBound(diff, self.box, self.covers, self.max_depth).verify(hyps, claim)


@dataclass(frozen=True)
class IntervalBound(Proof):
    """``expr >= bound`` (or ``> bound``) for every point of ``box`` (closed intervals),
    by interval arithmetic with bisection down to ``max_depth`` levels. The claim
    must be ``expr >= bound`` itself; ``covers`` states why the box is the domain."""

    expr: sp.Expr
    box: Mapping[str, tuple[object, object]]
    covers: str
    max_depth: int = 18

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, strict = _difference(claim)
        if not _is_zero(diff - self.expr):
            raise ProofFailure(f"the bounded expression {self.expr} is not the claim's difference {diff}")
        names = list(self.box)
        have = [_difference(h)[0] for h in hyps.values() if not isinstance(h, sp.Equality)]
        for name, (lo, hi) in self.box.items():
            var = next((s for s in diff.free_symbols if s.name == name), sp.Symbol(name, real=True))
            for bound in (var - sp.sympify(lo), sp.sympify(hi) - var):
                if not any(_is_zero(bound - h) for h in have):
                    raise ProofFailure(
                        f"no hypothesis states {bound} >= 0: the box does not cover the domain"
                    )
        expr = diff.subs({s: sp.Dummy(s.name) for s in diff.free_symbols})  # plain symbols for lambdify
        dummies = {d.name: d for d in expr.free_symbols}
        missing = set(dummies) - set(names)
        if missing:
            raise ProofFailure(f"the box does not bound {sorted(missing)}")
        args = [dummies.get(n, sp.Dummy(n)) for n in names]
        # every constant and function must be an interval one: a plain mpf constant
        # (how lambdify prints rationals) would be rounded once and then taken as exact
        f = sp.lambdify(
            args,
            expr,
            modules=[
                {"log": iv.log, "exp": iv.exp, "sqrt": iv.sqrt, "E": iv.e, "mpf": iv.mpf, "pi": iv.pi},
                "mpmath",
            ],
        )
        boxes: list[list] = [[iv.mpf([_mpf_text(lo), _mpf_text(hi)]) for lo, hi in self.box.values()]]
        for _ in range(self.max_depth + 1):
            undecided = []
            for b in boxes:
                value = f(*b)
                if not isinstance(value, type(iv.mpf(0))):  # a bare constant such as iv.e
                    value = iv.mpf(value)
                low = value.a
                if low > 0 or (not strict and low >= 0):
                    continue
                if value.b < 0 or (strict and value.b <= 0):
                    raise ProofFailure(f"counterexample box {b}: {diff} in {value}")
                undecided.append(b)
            if not undecided:
                return
            boxes = [half for b in undecided for half in _bisect(b)]
            if len(boxes) > 200_000:
                break
        raise ProofFailure(
            f"interval bound not decided after {self.max_depth} bisections ({len(boxes)} boxes left)"
        )


def _mpf_text(value: object) -> str:
    q = sp.Rational(value) if not isinstance(value, sp.Basic) else value
    return str(sp.N(q, 40))


def _bisect(box: list) -> list[list]:
    widths = [x.delta for x in box]
    k = max(range(len(box)), key=lambda i: widths[i])
    lo, hi = box[k].a, box[k].b
    mid = (lo + hi) / 2
    left, right = list(box), list(box)
    left[k] = iv.mpf([lo, mid])
    right[k] = iv.mpf([mid, hi])
    return [left, right]


@dataclass(frozen=True)
class Monotone(Proof):
    """``f(x) >= 0`` for ``x`` in ``[a, b]`` (b may be ``sp.oo``).

    Increasing (default): ``f(a) >= 0`` exactly and ``derivative_proof`` proves
    ``f'(x) >= 0``; decreasing: ``f(b) >= 0`` exactly and it proves ``-f'(x) >= 0``.
    The derivative proof may use the hypotheses ``x_ge_a`` and ``x_le_b``.
    """

    f: sp.Expr
    x: sp.Symbol
    a: sp.Expr
    derivative_proof: Proof
    b: sp.Expr = sp.oo
    decreasing: bool = False
    domain: tuple[str, ...] = ()

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, strict = _difference(claim)
        if strict:
            raise ProofFailure("Monotone proves non-strict claims")
        # the hypotheses must put x in [a, b]: named hypotheses x - a >= 0 and b - x >= 0
        needed = [self.x - self.a] + ([self.b - self.x] if self.b != sp.oo else [])
        have = [
            _difference(hyps[n])[0] for n in self.domain if n in hyps and not isinstance(hyps[n], sp.Equality)
        ]
        for bound in needed:
            if not any(_is_zero(bound - h) for h in have):
                raise ProofFailure(f"no hypothesis (among domain={self.domain}) states {bound} >= 0")
        if not _is_zero(diff - self.f):
            raise ProofFailure(f"the monotone function {self.f} is not the claim's difference {diff}")
        end = self.b if self.decreasing else self.a
        if end == sp.oo:
            raise ProofFailure("a decreasing function needs a finite right end b")
        start = sp.simplify(sp.expand(self.f.subs(self.x, end)))
        if not (start.is_Rational and start >= 0):
            raise ProofFailure(f"f({end}) = {start} is not an exact rational >= 0")
        derivative = sp.diff(self.f, self.x)
        extra = dict(hyps)
        extra["x_ge_a"] = sp.Ge(self.x, self.a, evaluate=False)
        if self.b != sp.oo:
            extra["x_le_b"] = sp.Le(self.x, self.b, evaluate=False)
        sign = -1 if self.decreasing else 1
        try:
            self.derivative_proof.verify(extra, sp.Ge(sign * derivative, 0, evaluate=False))
        except ProofFailure as exc:
            raise ProofFailure(f"derivative {derivative}: {exc}") from None


@dataclass(frozen=True)
class Contradiction(Proof):
    """Ex falso: ``proof`` proves ``0 > 0`` from the hypotheses, so they cannot all hold
    and any claim follows (used inside a case of :class:`Cases`)."""

    proof: Proof

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        try:
            self.proof.verify(hyps, sp.Gt(sp.Integer(0), 0, evaluate=False))
        except ProofFailure as exc:
            raise ProofFailure(f"no contradiction: {exc}") from None


@dataclass(frozen=True)
class Induction(Proof):
    """Induction on the integer symbol ``n`` from ``start``: ``base`` proves claim(start),
    ``step`` proves claim(n + 1) with claim(n) added as hypothesis ``"IH"`` and
    ``n >= start`` as ``"n_ge_start"``."""

    n: sp.Symbol
    base: Proof
    step: Proof
    start: int = 0

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        try:
            self.base.verify(hyps, claim.subs(self.n, self.start))
        except ProofFailure as exc:
            raise ProofFailure(f"base case {self.n} = {self.start}: {exc}") from None
        step_hyps = dict(hyps)
        step_hyps["IH"] = claim
        step_hyps["n_ge_start"] = sp.Ge(self.n, self.start, evaluate=False)
        try:
            self.step.verify(step_hyps, claim.subs(self.n, self.n + 1))
        except ProofFailure as exc:
            raise ProofFailure(f"induction step {self.n} -> {self.n} + 1: {exc}") from None


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

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        known = dict(hyps)
        for step in self.steps:
            try:
                step.proof.verify(known, step.claim)
            except ProofFailure as exc:
                raise ProofFailure(f"step {step.name!r} ({step.claim}): {exc}") from None
            known[step.name] = step.claim
        try:
            self.final.verify(known, claim)
        except ProofFailure as exc:
            raise ProofFailure(f"final step: {exc}") from None


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

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        for label, condition, proof, keep in (
            ("expr >= 0", sp.Ge(self.expr, 0, evaluate=False), self.nonneg, True),
            ("expr < 0", sp.Gt(-self.expr, 0, evaluate=False), self.neg, False),
        ):
            case_hyps = dict(hyps)
            case_hyps["case"] = condition
            rewritten = claim.replace(
                lambda e: isinstance(e, sp.Max) and len(e.args) == 2 and 0 in e.args,
                lambda e, keep=keep: self._branch(e, hyps, keep),
            )
            try:
                proof.verify(case_hyps, rewritten)
            except ProofFailure as exc:
                raise ProofFailure(f"case {label} ({self.expr}): {exc}") from None

    def _branch(self, positive_part: sp.Max, hyps: Hyps, keep: bool) -> sp.Expr:
        e = positive_part.args[1] if positive_part.args[0] == 0 else positive_part.args[0]
        ratio = sp.cancel(sp.together(e / self.expr))
        if not self._is_positive(ratio, hyps):
            raise ProofFailure(f"cannot decide the sign of {e} from the case {self.expr}: ratio {ratio}")
        return e if keep else sp.Integer(0)

    def _is_positive(self, ratio: sp.Expr, hyps: Hyps) -> bool:
        factors = sp.Mul.make_args(ratio)
        for f in factors:
            if f.is_Rational:
                if f <= 0:
                    return False
                continue
            base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer else f
            if not any(
                isinstance(hyps.get(n), sp.StrictGreaterThan) and hyps[n].rhs == 0 and hyps[n].lhs == base
                for n in self.positive
            ):
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
        # the lemma may rely on its symbols' declared domains: the images must share them
        # (every symbol in novikoff's proofs is real, so rational images of them are real)
        for symbol, image in self.mapping.items():
            for fact in ("positive", "nonnegative", "integer"):
                if symbol.assumptions0.get(fact) and getattr(sp.sympify(image), f"is_{fact}") is not True:
                    raise ProofFailure(f"lemma symbol {symbol} is {fact} but {image} is not known to be")
        try:
            self.lemma.proof.verify(self.lemma.hypotheses, self.lemma.claim)
        except ProofFailure as exc:
            raise ProofFailure(f"lemma {self.lemma.name!r}: {exc}") from None
        for name, h in self.lemma.hypotheses.items():
            if name not in self.premises:
                raise ProofFailure(f"lemma {self.lemma.name!r}: no proof for its hypothesis {name!r}")
            try:
                self.premises[name].verify(hyps, _map_relation(h, self.mapping))
            except ProofFailure as exc:
                raise ProofFailure(f"lemma hypothesis {name!r}: {exc}") from None
        mapped = _map_relation(self.lemma.claim, self.mapping)
        if isinstance(claim, sp.Equality) or isinstance(mapped, sp.Equality):
            same = type(claim) is type(mapped) and _is_zero(
                (claim.lhs - claim.rhs) - (mapped.lhs - mapped.rhs)
            )
        else:
            (d1, s1), (d2, s2) = _difference(claim), _difference(mapped)
            same = _is_zero(d1 - d2) and (s2 or not s1)
        if not same:
            raise ProofFailure(f"the lemma gives {mapped}, not {claim}")


@dataclass(frozen=True)
class SignByAssumptions(Proof):
    """The claim's difference is positive (or nonnegative) by sympy's assumption system
    alone, e.g. ``exp(x) > 0`` for real x: a fact of the symbols' declared domains, not of
    the hypotheses."""

    def verify(self, hyps: Hyps, claim: sp.Basic) -> None:
        diff, strict = _difference(claim)
        ok = diff.is_positive if strict else diff.is_nonnegative
        if ok is not True:
            raise ProofFailure(f"sympy cannot decide {diff} {'>' if strict else '>='} 0 from the assumptions")


def positive_in_induction(name: str, expr: sp.Expr, slack: int) -> Step:
    """A :class:`Step` inside an induction step proving ``expr > 0`` from the hypothesis
    ``n_ge_start`` (n - start >= 0): ``expr = (n - start) + slack`` with ``slack > 0``."""
    return Step(name, gt(expr, 0), Certificate(terms=(Term((), "n_ge_start"), Term((slack,), None))))
