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
    One check, :func:`~novikoff.proofs.core.definedness.require_defined`: every node is in
    the language and every side condition (each denominator nonzero, each base of a real power positive, of a
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

The package's modules, in the order each builds on the last: :mod:`.failures` (why a proof
failed), :mod:`.algebra` (relations, the canonical form), :mod:`.context` (the hypotheses
a rule sees), :mod:`.language` (the screen), :mod:`.definedness` (side conditions),
:mod:`.admission` (sums, admitted claims), :mod:`.obligations` (the base rule and the
check); then one module a family of rules: :mod:`.identities` (Identity, Certificate),
:mod:`.intervals` (IntervalBound, Interval), :mod:`.monotone`, :mod:`.instances` (instances
of formulas), :mod:`.induction`, :mod:`.lemmas` (Apply) and :mod:`.logic` (Chain, Cases,
Contradiction, Iff, Both, ModusPonens, SignByAssumptions). A helper several modules share
is public in the module that defines it and imported elsewhere under a private name
(``holds as _holds``): a module's own public names are its rules.
"""

from __future__ import annotations

from novikoff.proofs.core.algebra import ge, gt, le, lt
from novikoff.proofs.core.context import Context
from novikoff.proofs.core.failures import FailureKind, ProofFailure
from novikoff.proofs.core.identities import Certificate, Identity, Term
from novikoff.proofs.core.induction import Induction
from novikoff.proofs.core.intervals import Interval, IntervalBound
from novikoff.proofs.core.lemmas import Apply
from novikoff.proofs.core.logic import (
    Both,
    Cases,
    Chain,
    Contradiction,
    Iff,
    ModusPonens,
    SignByAssumptions,
    Step,
    positive_in_induction,
)
from novikoff.proofs.core.monotone import Monotone
from novikoff.proofs.core.obligations import Obligation, Proof, ProofResult, check_obligation
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

# Each class's public home is this package, where the checker defined them all before it
# had modules: their names, reprs and pickles say novikoff.proofs.core.<Name>.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) and _obj.__module__.startswith(__name__ + "."):
        _obj.__module__ = __name__
del _name, _obj
