"""Definedness: the side conditions of an expression (each denominator nonzero, each base
of a real power positive, ...), :func:`holds` deciding one from the hypotheses and the
symbols' domains, and :func:`require_defined`, the one definedness check. Also what a
rule quantifying over a range may assume of its variable (:func:`canonical`,
:func:`domain_fits`) and of an image (:func:`established`).
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core.context import Context
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.language import screen as _screen
from novikoff.proofs.core.language import screen_formula as _screen_formula

__all__ = [
    "NEEDS",
    "canonical",
    "domain_fits",
    "established",
    "holds",
    "require_defined",
    "side_conditions",
]


def side_conditions(expr: sp.Basic) -> list[tuple[str, sp.Expr, str]]:
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


def holds(need: str, b: sp.Expr, ctx: Context, depth: int = 0) -> bool:
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
                if (q.is_Number and q != 0) or (q != b and holds("nonzero", q, ctx, depth + 1)):
                    return True
    if isinstance(b, sp.Mul):
        coeff, rest = b.as_coeff_Mul()
        if coeff < 0:
            flipped = {"nonzero": "nonzero", "positive": None, "nonnegative": None}[need]
            return flipped is not None and holds(flipped, -b, ctx, depth + 1)
        return all(holds(need, f, ctx, depth + 1) for f in sp.Mul.make_args(rest))
    if isinstance(b, sp.Pow):
        base, e = b.args
        if e.is_integer:
            if e.is_even and need != "nonzero":
                return holds("nonzero", base, ctx, depth + 1) or (
                    need == "nonnegative" and e.is_nonnegative is True
                )
            return holds(
                need if need != "nonnegative" or e.is_nonnegative else "positive", base, ctx, depth + 1
            )
        return holds("positive", base, ctx, depth + 1)
    if isinstance(b, sp.exp):
        return True
    return False


NEEDS = {"nonzero": "nonzero", "positive": "> 0", "nonnegative": ">= 0"}


def require_defined(expr: sp.Basic, ctx: Context, what: str = "") -> None:
    """The one definedness check: every node of ``expr`` (an expression or a formula) is
    in the language and every side condition follows from ``ctx`` and the domains."""
    if isinstance(expr, sp.Expr):
        _screen(expr, what)
    else:
        _screen_formula(expr, what, matrices=True)
    for need, b, why in side_conditions(expr):
        if not holds(need, b, ctx):
            raise ProofFailure(
                f"{what}{why} must be {NEEDS[need]}, and neither the hypotheses nor the symbols' "
                f"domains say so",
                FailureKind.UNDEFINED,
            )


def established(image: sp.Expr, ctx: Context) -> sp.Symbol:
    """A symbol carrying the facts known of the real number ``image`` under ``ctx``."""
    facts: dict[str, bool] = {"real": True}
    if image.is_integer:
        facts["integer"] = True
    if holds("positive", image, ctx):
        facts["positive"] = True
    elif holds("nonnegative", image, ctx):
        facts["nonnegative"] = True
    elif holds("nonzero", image, ctx):
        facts["nonzero"] = True
    return sp.Symbol("_image", **facts)


def domain_fits(symbol: sp.Symbol, canonical: sp.Symbol) -> str | None:
    """None if every fact ``symbol`` declares also holds for ``canonical`` (the range a
    rule quantifies over), else the first fact that does not."""
    facts = canonical.assumptions0
    for fact, value in symbol.assumptions0.items():
        if value is not None and facts.get(fact) != value:
            return fact
    return None


def canonical(nonneg: bool, positive: bool, integer: bool = False) -> sp.Symbol:
    if positive:
        return sp.Symbol("_range", positive=True, integer=integer or None)
    if nonneg:
        return sp.Symbol("_range", nonnegative=True, integer=integer or None)
    return sp.Symbol("_range", real=True, integer=integer or None)
