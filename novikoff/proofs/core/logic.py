"""The structural and logical rules: Chain (steps feeding later steps), Cases (a split on a
sign), Contradiction, Iff, Both, ModusPonens and SignByAssumptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import sympy as sp

from novikoff.proofs.core.admission import admit_expr as _admit_expr
from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.algebra import gt
from novikoff.proofs.core.context import Context, Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.definedness import require_defined as _require_defined
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.identities import Certificate, Term
from novikoff.proofs.core.instances import same_claim as _same_claim
from novikoff.proofs.core.obligations import Proof

__all__ = [
    "Both",
    "Cases",
    "Chain",
    "Contradiction",
    "Iff",
    "ModusPonens",
    "SignByAssumptions",
    "Step",
    "positive_in_induction",
]


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
