"""Print the spec's sympy statements as Coq propositions (``Statements.v``).

Each :class:`~novikoff.spec.core.Statement` becomes

    Definition <NAME>_statement : Prop :=
      forall (symbols...) (functions : nat -> R),
      domain hypotheses -> named hypotheses and premises -> conclusion.

where the named hypotheses are exactly :meth:`Statement.theorem_hypotheses` (the
statement's hypotheses, then its premises about the run), so ``Theorem <NAME> :
<NAME>_statement`` in Coq proves the spec's theorem and nothing else.

The printed statement asserts what sympy's does, never less. An obligation claims that its
conclusion holds AND is defined (every subterm a real number); Coq's ``/``, ``ln``,
``sqrt`` and ``Rpower`` are total (``x / 0 = 0``, ``ln x = 0`` for ``x <= 0``, ``sqrt x =
0`` for ``x < 0``, ``Rpower x y = exp (y * ln x)``), so a Coq conclusion using them could
hold where sympy's is undefined (``x < 0 -> Rpower x n > 0`` is ``exp_pos``). Hence:

* the conclusion is printed as ``(* defined *) (side conditions) /\\ conclusion``: one
  conjunct per partial operation in it, whatever its position (under ``~``, ``->``,
  ``\\/`` too: sympy's value of the whole conclusion needs every subterm), quantified like
  the body under a ``Forall``. The Coq proof must establish them from the hypotheses; they
  are never added as hypotheses (that would weaken the statement);
* in a hypothesis no side condition is printed: sympy's hypothesis holds only where it is
  defined, and there the printed one has the same value, so the Coq hypothesis is implied
  by sympy's (the Coq statement covers every case sympy's covers). This needs the side
  condition to be exactly sympy's domain, which holds for every row below but ``Rpower``'s
  (``0 < x`` is stricter: sympy also defines ``0**y``, ``y > 0``, and ``(-1)**2``); a
  real power in a hypothesis is refused unless sympy knows its base is positive from the
  symbols' domains (printed as the first hypotheses).

Translation table (anything not listed raises :class:`CoqTranslationError` naming the
construct; the printer never approximates):

==============================  ==================================  ====================
sympy                           Coq (``R_scope``)                   side condition
==============================  ==================================  ====================
real symbol                     ``(x : R)``
positive / nonnegative / ...    hypothesis ``0 < x`` / ``0 <= x``
                                / ``x < 0`` / ...
integer symbol, nonnegative     ``(k : nat)``, used as ``INR k``
                                in real contexts (a positive one
                                adds ``(0 < k)%nat``)
other integer symbol            ``(k : Z)``, used as ``IZR k``
undefined function ``f(j)``     ``(f : nat -> R)``; its argument
                                is a ``nat`` expression (``+``,
                                ``*``, naturals; no ``-``)
``Forall(j, body, start)``      ``forall j : nat, (start <= j)%nat  body's, under the
                                -> body``                           same ``forall``
integer / rational constant     ``3``, ``(- 3)``, ``(1 / 2)``
``+``, ``*``, ``-x``            ``+``, ``*``, ``-``
``x**n``, n integer >= 0        ``x ^ n`` (``pow`` on a nat)
``x**n``, n nat expression      ``x ^ n`` (``pow``; 0 ^ 0 = 1 as
                                in sympy)
``x**(-n)``, ``a / x``          ``/ x ^ n``, ``a / x``              ``x <> 0``
``x**(1/2)``                    ``sqrt x``                          ``0 <= x``
``x**y`` (other)                ``Rpower x y``                      ``0 < x``
``exp``, ``E``                  ``exp``, ``exp 1``
``log``                         ``ln``                              ``0 < x``
``Max``, ``Min``, ``Abs``       ``Rmax``, ``Rmin``, ``Rabs``
                                (nested for > 2 args)
``=``, ``!=``, ``<``, ``<=`` .. ``=``, ``<>``, ``<``, ``<=``, ``>``,
                                ``>=`` (on R)
``And``, ``Or``, ``Not``        ``/\\``, ``\\/``, ``~``
``Implies``, ``Equivalent``     ``->``, ``<->``
==============================  ==================================  ====================

A side condition on a positive (or, for ``/``, nonzero) integer or rational literal is not
printed: it holds by arithmetic.

Choices and caveats (the printer is part of the trusted base):

* Integer symbols that sympy knows to be nonnegative become ``nat`` (Coq's induction and
  the colleague's run lemmas are over ``nat``); every arithmetic and relation is stated on
  ``R`` through ``INR``, so no truncated ``nat`` subtraction or division ever appears.
* Names that clash with Coq identifiers get a trailing underscore (``R`` -> ``R_``).

Run ``python -m novikoff.coq.printer`` to regenerate ``novikoff/coq/theories/Statements.v``;
``--check`` exits 1 when the committed file is stale.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

from novikoff.spec.core import Forall, Statement

__all__ = [
    "COQ_DIR",
    "STATEMENTS_FILE",
    "CoqTranslationError",
    "Layout",
    "all_statements",
    "coq_name",
    "generate",
    "layout",
    "print_proposition",
    "print_statement",
]

COQ_DIR = Path(__file__).resolve().parent / "theories"
STATEMENTS_FILE = COQ_DIR / "Statements.v"

HEADER = """\
(** generated by novikoff.coq.printer; do not edit.
    Regenerate with [python -m novikoff.coq.printer]; [--check] tells when stale.

    One [Definition <NAME>_statement : Prop] per spec statement (novikoff.spec.THEOREMS):
    the statement's symbols with their domains, its named hypotheses and premises
    (Statement.theorem_hypotheses), then its conclusion; and [<NAME>_hypotheses], the
    same hypotheses as a predicate of the symbols (for the non-vacuity Examples). *)

From Coq Require Import Reals.
Local Open Scope R_scope.
"""


class CoqTranslationError(ValueError):
    """A sympy construct the printer cannot translate to Coq faithfully."""


#: Coq names of the statements of multi-statement ids, by the statement's ``name``.
MULTI_NAMES: dict[str, str] = {
    "scaling_patterns_preserves_mistake_decisions": "G1_scale",
    "cayley_rotation_preserves_inner_products": "G1_rotate",
    "zero_features_preserve_inner_products": "G1_pad",
    "point_along_pstar_keeps_gamma_raises_radius": "G1_add_point",
    "pdm_updates_le_radius_sq_div_two_eps_minus_one_gamma_sq": "D1_above_half",
    "pdm_half_updates_le_log_bound": "D1_half",
    "pdm_updates_le_power_bound": "D1_below_half",
    "mistakes_mul_gamma_sq_le_radius_plus_slack_sq": "FS1_one_pass",
    "passes_mistakes_mul_gamma_sq_le_radius_plus_slack_sq": "FS1_passes",
    "erring_prefixes_eq_mistakes_le_fs_bound": "V1_prefixes",
    "wrong_vote_erring_weight_ge_half": "V1_vote",
    "vote_errors_le_twice_randomized_errors": "V1_sample",
}

#: Identifiers a symbol may not take in Coq (types, constants and keywords in scope).
_RESERVED = frozenset(
    """R Z nat Prop Set Type True False forall fun exists match with end let in if then else
    as return fix cofix exp ln sqrt Rpower Rmax Rmin Rabs INR IZR PI R0 R1 Rplus Rmult Rminus
    Rdiv Rinv Ropp Rle Rlt Rge Rgt pow S O and or not iff eq Definition Theorem Lemma Proof
    Qed""".split()
)


def coq_name(statement: Statement) -> str:
    """The Coq name of a statement: its id, or ``MULTI_NAMES[name]`` for ids with several."""
    from novikoff.spec import THEOREMS

    group = THEOREMS.get(statement.id, (statement,))
    if len(group) == 1:
        return statement.id
    try:
        return MULTI_NAMES[statement.name]
    except KeyError:
        raise CoqTranslationError(
            f"{statement.id} statement {statement.name!r} has no Coq name: add it to MULTI_NAMES"
        ) from None


def all_statements() -> list[tuple[str, Statement]]:
    """``(coq name, statement)`` for every statement of the spec, in THEOREMS order."""
    from novikoff.spec import THEOREMS

    return [(coq_name(s), s) for group in THEOREMS.values() for s in group]


def _ident(name: str) -> str:
    if not name.isidentifier() or not name.isascii():
        raise CoqTranslationError(f"symbol name {name!r} is not a Coq identifier")
    return f"{name}_" if name in _RESERVED else name


def _kind(sym: sp.Symbol) -> str:
    """'nat', 'Z' or 'R' for a symbol; refuses symbols that are not known to be real."""
    flags = ("even", "odd", "prime", "composite") if sym.is_integer else ("rational", "irrational")
    for flag in flags:
        if sym.assumptions0.get(flag) is True:
            raise CoqTranslationError(f"symbol {sym} with assumption {flag}=True (no Coq type for it)")
    if sym.is_integer:
        return "nat" if sym.is_nonnegative else "Z"
    if sym.is_real is not True:
        raise CoqTranslationError(f"symbol {sym} is not declared real (sympy Symbol without real=True)")
    return "R"


def _domain(sym: sp.Symbol, kind: str) -> list[str]:
    x = _ident(sym.name)
    if kind == "nat":
        return [f"(0 < {x})%nat"] if sym.is_positive else []
    scope = "%Z" if kind == "Z" else ""
    if sym.is_positive:
        return [f"(0 < {x}){scope}"]
    if sym.is_negative:
        return [f"({x} < 0){scope}"]
    if sym.is_nonnegative:
        return [f"(0 <= {x}){scope}"]
    if sym.is_nonpositive:
        return [f"({x} <= 0){scope}"]
    if sym.is_nonzero:
        return [f"({x} <> 0){scope}"]
    return []


def _is_literal(e: sp.Basic, positive: bool) -> bool:
    """``e`` is an integer or rational literal that is positive (or, with ``positive`` False,
    nonzero): its side condition holds by arithmetic and is not printed."""
    return isinstance(e, sp.Rational) and (e > 0 if positive else e != 0)


def _conj(props: Sequence[str]) -> str:
    return props[0] if len(props) == 1 else "(" + " /\\ ".join(props) + ")"


class _Printer:
    """Prints expressions and propositions, collecting the side conditions of the partial
    operations it emits.

    ``sides`` (in printing order, inner operations first, without repetitions) holds, for
    every Coq ``/`` and ``/ x``, ``ln``, ``sqrt`` and ``Rpower`` printed, the condition under
    which that total Coq function equals sympy's partial one: ``d <> 0``, ``0 < x``,
    ``0 <= x``, ``0 < base``. Under a ``Forall`` they are quantified like the body.
    ``real_powers`` lists the sympy bases printed through ``Rpower``, whose side condition
    ``0 < base`` is stricter than sympy's domain (sympy also defines ``0**y`` for ``y > 0``
    and ``(-1)**y`` for integer ``y``).
    """

    def __init__(self, kinds: Mapping[sp.Symbol, str], functions: Iterable[str]) -> None:
        self.kinds = dict(kinds)
        self.functions = set(functions)
        self.sides: list[str] = []
        self.real_powers: list[sp.Basic] = []

    def _side(self, condition: str) -> None:
        if condition not in self.sides:
            self.sides.append(condition)

    def _nonzero(self, e: sp.Basic) -> None:
        """Side condition of a Coq division by ``e`` (``x / 0 = / 0 = 0`` in Coq)."""
        if not _is_literal(e, positive=False):
            self._side(f"({self.real(e)} <> 0)")

    # ----- expressions -----
    def expr(self, e: sp.Basic, ty: str = "R") -> str:
        if ty == "nat":
            return self.nat(e)
        return self.real(e)

    def nat(self, e: sp.Basic) -> str:
        """A natural-number expression (function arguments)."""
        if isinstance(e, sp.Symbol):
            if self.kinds.get(e) != "nat":
                raise CoqTranslationError(
                    f"{e} used as a function argument but it is not a nonnegative integer"
                )
            return _ident(e.name)
        if isinstance(e, sp.Integer):
            if e < 0:
                raise CoqTranslationError(f"negative integer {e} as a function argument")
            return str(e)
        if isinstance(e, sp.Add):
            for t in e.args:
                if t.could_extract_minus_sign():
                    raise CoqTranslationError(
                        f"subtraction in a function argument {e} (nat subtraction truncates)"
                    )
            return "(" + " + ".join(self.nat(t) for t in e.as_ordered_terms()) + ")"
        if isinstance(e, sp.Mul):
            return "(" + " * ".join(self.nat(t) for t in e.as_ordered_factors()) + ")"
        raise CoqTranslationError(f"function argument {e} ({type(e).__name__}) is not a nat expression")

    def real(self, e: sp.Basic) -> str:
        if isinstance(e, sp.Float):
            raise CoqTranslationError(f"Float {e} (floats are not exact; use Rational)")
        if isinstance(e, sp.Symbol):
            k = self.kinds.get(e)
            if k is None:
                raise CoqTranslationError(f"unbound symbol {e}")
            x = _ident(e.name)
            return {"R": x, "nat": f"(INR {x})", "Z": f"(IZR {x})"}[k]
        if e is sp.E:
            return "(exp 1)"
        if isinstance(e, sp.Integer):
            return f"(- {-e})" if e < 0 else str(e)
        if isinstance(e, sp.Rational):
            p, q = e.p, e.q
            return f"(- ({-p} / {q}))" if p < 0 else f"({p} / {q})"
        if isinstance(e, sp.Add):
            terms = e.as_ordered_terms()
            out = self.real(terms[0])
            for t in terms[1:]:
                if t.could_extract_minus_sign():
                    out += " - " + self._factor(-t)
                else:
                    out += " + " + self.real(t)
            return f"({out})"
        if isinstance(e, sp.Mul):
            return self._mul(e)
        if isinstance(e, sp.Pow):
            return self._pow(e)
        if isinstance(e, sp.exp):
            return f"(exp {self.real(e.args[0])})"
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise CoqTranslationError(f"log with a base {e}")
            arg = self.real(e.args[0])
            if not _is_literal(e.args[0], positive=True):
                self._side(f"(0 < {arg})")  # Coq's ln x is 0 for x <= 0
            return f"(ln {arg})"
        if isinstance(e, (sp.Max, sp.Min)):
            fn = "Rmax" if isinstance(e, sp.Max) else "Rmin"
            args = [self.real(a) for a in sorted(e.args, key=sp.default_sort_key)]
            out = args[-1]
            for a in reversed(args[:-1]):
                out = f"({fn} {a} {out})"
            return out
        if isinstance(e, sp.Abs):
            return f"(Rabs {self.real(e.args[0])})"
        if isinstance(e, AppliedUndef):
            name = type(e).__name__
            if name not in self.functions or len(e.args) != 1:
                raise CoqTranslationError(f"undefined function {e} (one nat argument expected)")
            return f"({_ident(name)} {self.nat(e.args[0])}%nat)"
        raise CoqTranslationError(f"cannot translate {type(e).__name__}: {e}")

    def _factor(self, e: sp.Basic) -> str:
        s = self.real(e)
        return s if s.startswith("(") or " " not in s else f"({s})"

    def _mul(self, e: sp.Mul) -> str:
        coeff, rest = e.as_coeff_Mul()
        if coeff == -1:
            return f"(- {self._factor(rest)})"
        if coeff < 0:
            return f"(- {self.real(-e)})"
        num: list[str] = []
        den: list[str] = []
        for f in e.as_ordered_factors():
            if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp < 0:
                self._nonzero(f.base)
                den.append(
                    self.real(sp.Pow(f.base, -f.exp, evaluate=False)) if f.exp != -1 else self.real(f.base)
                )
            elif isinstance(f, sp.Rational) and not isinstance(f, sp.Integer) and f.p in (1, -1):
                if f.p == -1:
                    num.append("(- 1)")
                den.append(str(f.q))
            else:
                num.append(self.real(f))
        top = " * ".join(num) if num else "1"
        if not den:
            return f"({top})"
        bottom = den[0] if len(den) == 1 else "(" + " * ".join(den) + ")"
        return f"({top} / {bottom})"

    def _pow(self, e: sp.Pow) -> str:
        base, ex = e.base, e.exp
        if base is sp.E:
            return f"(exp {self.real(ex)})"
        if ex.is_Integer:
            n = int(ex)
            if n >= 0:
                return f"({self._factor(base)} ^ {n})"
            self._nonzero(base)
            if n == -1:
                return f"(/ {self._factor(base)})"
            return f"(/ ({self._factor(base)} ^ {-n}))"
        if ex == sp.Rational(1, 2):
            arg = self.real(base)
            if not _is_literal(base, positive=True):
                self._side(f"(0 <= {arg})")  # Coq's sqrt x is 0 for x < 0
            return f"(sqrt {arg})"
        if ex.is_integer and ex.is_nonnegative:
            try:  # pow on a nat exponent: total, and sympy's x**n for every real x
                return f"({self._factor(base)} ^ {self.nat(ex)})"
            except CoqTranslationError:
                pass  # not a nat expression (a subtraction, a Z symbol): a real power
        arg = self.real(base)
        power = f"(Rpower {arg} {self.real(ex)})"
        self.real_powers.append(base)
        if not _is_literal(base, positive=True):
            self._side(f"(0 < {arg})")  # Rpower x y = exp (y * ln x), ln x = 0 for x <= 0
        return power

    # ----- propositions -----
    def prop(self, p: sp.Basic | Forall) -> str:
        if isinstance(p, Forall):
            if p.start < 0:
                raise CoqTranslationError(f"Forall from a negative start {p.start}")
            inner = _Printer({**self.kinds, p.var: "nat"}, self.functions)
            j = _ident(p.var.name)
            body = inner.prop(p.body)
            self.real_powers += inner.real_powers
            if inner.sides:  # defined for every j, like the body
                self._side(f"(forall {j} : nat, ({p.start} <= {j})%nat -> {_conj(inner.sides)})")
            return f"(forall {j} : nat, ({p.start} <= {j})%nat -> {body})"
        if p is sp.true:
            return "True"
        if p is sp.false:
            return "False"
        if isinstance(p, Relational):
            op = {
                sp.Eq: "=",
                sp.Ne: "<>",
                sp.Lt: "<",
                sp.Le: "<=",
                sp.Gt: ">",
                sp.Ge: ">=",
            }.get(type(p))
            if op is None:
                raise CoqTranslationError(f"relation {type(p).__name__}: {p}")
            return f"({self.real(p.lhs)} {op} {self.real(p.rhs)})"
        if isinstance(p, sp.And):
            return "(" + " /\\ ".join(self.prop(a) for a in p.args) + ")"
        if isinstance(p, sp.Or):
            return "(" + " \\/ ".join(self.prop(a) for a in p.args) + ")"
        if isinstance(p, sp.Not):
            return f"(~ {self.prop(p.args[0])})"
        if isinstance(p, sp.Implies):
            return f"({self.prop(p.args[0])} -> {self.prop(p.args[1])})"
        if isinstance(p, sp.Equivalent):
            if len(p.args) != 2:
                raise CoqTranslationError(f"Equivalent with {len(p.args)} arguments: {p}")
            a, b = sorted(p.args, key=sp.default_sort_key)
            return f"({self.prop(a)} <-> {self.prop(b)})"
        raise CoqTranslationError(f"cannot translate {type(p).__name__} as a proposition: {p}")


def _free(items: Iterable[sp.Basic | Forall]) -> tuple[set[sp.Symbol], dict[str, sp.Basic]]:
    syms: set[sp.Symbol] = set()
    fns: dict[str, sp.Basic] = {}
    for item in items:
        body = item.body if isinstance(item, Forall) else item
        if isinstance(body, sp.MatrixBase) or not isinstance(body, sp.Basic):
            raise CoqTranslationError(f"cannot translate {type(body).__name__}: {body}")
        free = {s for s in body.free_symbols if isinstance(s, sp.Symbol)}
        if isinstance(item, Forall):
            free.discard(item.var)
        syms |= free
        for f in body.atoms(AppliedUndef):
            fns.setdefault(type(f).__name__, f)
    return syms, fns


@dataclass(frozen=True)
class Layout:
    """A statement as the printer lays it out: the binders ``(name, Coq type)`` in order,
    the hypotheses ``(label, Coq proposition)`` (the symbols' domains, then the named
    hypotheses and premises), the conclusion, and ``defined``: the side conditions of the
    conclusion's partial operations, which the printed conclusion asserts with it."""

    binders: tuple[tuple[str, str], ...]
    hypotheses: tuple[tuple[str, str], ...]
    conclusion: str
    defined: tuple[str, ...]


def layout(
    name: str,
    symbols: Sequence[sp.Symbol],
    hypotheses: Mapping[str, sp.Basic | Forall],
    conclusion: sp.Basic | Forall,
) -> Layout:
    """The binders, hypotheses, conclusion and side conditions of "hypotheses imply
    conclusion" (see :func:`print_proposition`).

    Raises :class:`CoqTranslationError` for an untranslatable construct, and for a real
    power (``Rpower``) in a hypothesis whose base sympy does not know to be positive from
    the symbols' domains: there ``Rpower`` may differ from sympy's value (at a zero or
    negative base) where sympy's hypothesis holds, and the Coq statement would say less.
    """
    items = [*hypotheses.values(), conclusion]
    free, fns = _free(items)
    ordered = list(dict.fromkeys(symbols)) + sorted(free - set(symbols), key=lambda s: s.name)
    kinds = {s: _kind(s) for s in ordered}
    names = [_ident(s.name) for s in ordered] + [_ident(f) for f in fns]
    if len(set(names)) != len(names):
        raise CoqTranslationError(f"{name}: two symbols print to the same Coq name ({names})")
    binders = [(_ident(s.name), kinds[s]) for s in ordered]
    binders += [(_ident(f), "nat -> R") for f in sorted(fns)]
    hyps = [(f"domain of {s.name}", d) for s in ordered for d in _domain(s, kinds[s])]
    for hname, h in hypotheses.items():
        pr = _Printer(kinds, fns)
        hyps.append((hname, pr.prop(h)))
        for base in pr.real_powers:
            if base.is_positive is not True:
                raise CoqTranslationError(
                    f"{name}: hypothesis {hname}: a real power of {base}, which the symbols' "
                    "domains do not make positive (Coq's Rpower is exp (y * ln x), not sympy's "
                    "x**y, at x <= 0)"
                )
    pr = _Printer(kinds, fns)
    concl = pr.prop(conclusion)
    return Layout(tuple(binders), tuple(hyps), concl, tuple(pr.sides))


def print_proposition(
    name: str,
    symbols: Sequence[sp.Symbol],
    hypotheses: Mapping[str, sp.Basic | Forall],
    conclusion: sp.Basic | Forall,
    comment: str = "",
    with_hypotheses: bool = True,
) -> str:
    """``Definition <name>_statement : Prop := ...`` for "hypotheses imply conclusion".

    ``symbols`` fixes the order of the first binders; free symbols of the hypotheses not in
    it follow by name, then the undefined functions by name. With ``with_hypotheses``
    also ``Definition <name>_hypotheses <binders> : Prop`` (the hypotheses' conjunction).

    When the conclusion has partial operations, the printed conclusion is
    ``(side conditions) /\\ conclusion``: the Coq statement asserts, as sympy's does, that
    the conclusion is defined and holds (see the module doc).
    """
    lay = layout(name, symbols, hypotheses, conclusion)
    binders = " ".join(f"({x} : {ty})" for x, ty in lay.binders)
    lines = [f"(** {comment} *)"] if comment else []
    lines.append(f"Definition {name}_statement : Prop :=")
    lines.append(f"  forall {binders},")
    lines += [f"  (* {hname} *) {h} ->" for hname, h in lay.hypotheses]
    if lay.defined:
        lines.append(f"  (* defined *) {_conj(lay.defined)} /\\")
    lines.append(f"  {lay.conclusion}.")
    if with_hypotheses:
        # The same hypotheses as a predicate of the binders: the non-vacuity Examples
        # instantiate it with concrete numbers and functions.
        hyps = lay.hypotheses
        lines.append("")
        lines.append(f"Definition {name}_hypotheses {binders} : Prop :=")
        if hyps:
            lines += [f"  (* {hname} *) {h} /\\" for hname, h in hyps[:-1]]
            lines.append(f"  (* {hyps[-1][0]} *) {hyps[-1][1]}.")
        else:
            lines.append("  True.")
    return "\n".join(lines) + "\n"


def print_statement(statement: Statement, name: str | None = None, with_hypotheses: bool = True) -> str:
    """The Coq definition of one spec statement (``theorem_hypotheses() => conclusion``)."""
    name = name or coq_name(statement)
    return print_proposition(
        name,
        statement.symbols,
        statement.theorem_hypotheses(),
        statement.conclusion,
        comment=f"{statement.id} {statement.name} ({statement.source})",
        with_hypotheses=with_hypotheses,
    )


def generate() -> str:
    """The full text of ``Statements.v``."""
    parts = [HEADER]
    for name, st in all_statements():
        parts.append("\n" + print_statement(st, name))
    return "".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m novikoff.coq.printer", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if Statements.v is stale")
    ap.add_argument("--output", type=Path, default=STATEMENTS_FILE)
    args = ap.parse_args(argv)
    text = generate()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale: run python -m novikoff.coq.printer", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
