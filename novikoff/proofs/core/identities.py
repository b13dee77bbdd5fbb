"""Identity and Certificate: a claim that reduces to zero as a rational function, and an
inequality with a certificate ``m (B - A) = sum_j c_j h_j + sum_k s_k^2``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from novikoff.proofs.core.admission import admit_expr as _admit_expr
from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.algebra import normal as _normal
from novikoff.proofs.core.context import Context, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen as _screen
from novikoff.proofs.core.obligations import Proof
from novikoff.spec.core import Forall

__all__ = ["Certificate", "Identity", "Term"]


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
