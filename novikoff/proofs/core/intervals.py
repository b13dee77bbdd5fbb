"""IntervalBound and Interval: interval arithmetic with outward rounding, by bisection of a
box the hypotheses place the point in; the claim's side conditions decided on each box.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import sympy as sp
from mpmath import iv
from mpmath.libmp import from_rational, round_ceiling, round_floor
from sympy.core.sympify import _sympify as _strict  # numbers and sympy objects only: never parses text

from novikoff.proofs.core.algebra import difference as _difference
from novikoff.proofs.core.algebra import is_zero as _is_zero
from novikoff.proofs.core.context import Hyps
from novikoff.proofs.core.context import as_context as _context
from novikoff.proofs.core.definedness import NEEDS as _NEEDS
from novikoff.proofs.core.definedness import side_conditions as _side_conditions
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen as _screen
from novikoff.proofs.core.obligations import Proof

__all__ = ["Interval", "IntervalBound"]


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
