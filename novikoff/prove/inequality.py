"""The real inequality behind "EXPR bounds every run": EXPR >= the kernel-checked bound.

For each algorithm with a run theorem in the Coq development the known bound is (with R2 the
squared radius and gamma2 the squared margin of any certificate):

- perceptron, averaged, voted (the underlying perceptron's updates): R2/gamma2 (Novikoff's
  theorem, ``N3_run`` on labelled data);
- pdm with eps > 1/2: R2/((2 eps - 1) gamma2) (the PDM paper's Theorem 1, ``D1_above_half_run``);
  with eps < 1/2 and 1/(2 eps) = k an integer: (2 (1 - eps)/(1 - 2 eps) R2/gamma2)^k
  (``D1_below_half_run``);
- multiclass: 2 R2/gamma2, gamma the Kesler margin of a unit-norm W (``M1_run``);
- romma: R2/gamma2 on ROMMA's mistakes (Li and Long 2002, ``R1_run`` on labelled data), under
  the conservative rule and the aggressive rule at every eps >= 0 alike.

The admissible domain is parametrised by nonnegative variables (:data:`G`, :data:`S`, ...), so
that "EXPR - known >= 0 on the domain" becomes "a rational function of nonnegative variables is
nonnegative": for the binary algorithms R = g + s, gamma = g with g > 0, s >= 0 (a certificate's
margin never exceeds the radius), m = 1 + m1, d = 1 + d1; for the multiclass perceptron R = r,
gamma = g (r, g > 0) and K = 2 + k1. Every admissible value is the image of some nonnegative
variables, so a proof over the variables covers the whole domain.

PDM's eps: with ``epsilons`` the claim is made for each listed eps (the Coq theorem is stated
for each); without them eps ranges over (0, 1], where the bound has three regimes (eps > 1/2,
eps = 1/2 with a logarithm, eps < 1/2 with a real power) of which only the first is rational:
such a claim is reported open (so are eps = 1/2 and an eps < 1/2 with 1/(2 eps) not an
integer). PFM's bound (P1) has a logarithm: open unless refuted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from novikoff.errors import InputError
from novikoff.fuzz.bounds import BOUND_SYMBOLS
from novikoff.runtime.parameters import validate_epsilon

__all__ = [
    "BINARY_RUNS",
    "D1",
    "K1",
    "M1",
    "REFUSED",
    "RR",
    "STRICT",
    "SUPPORTED",
    "G",
    "Problem",
    "S",
    "known_bound",
    "problems",
    "substitution",
]

G = sp.Symbol("g", positive=True)
S = sp.Symbol("s", nonnegative=True)
RR = sp.Symbol("r", positive=True)
M1 = sp.Symbol("m1", nonnegative=True)
D1 = sp.Symbol("d1", nonnegative=True)
K1 = sp.Symbol("k1", nonnegative=True)
#: The variables that are strictly positive (the others are only nonnegative).
STRICT: frozenset[sp.Symbol] = frozenset({G, RR})

_R, _GAMMA = BOUND_SYMBOLS["R"], BOUND_SYMBOLS["gamma"]
_R2, _GAMMA2 = BOUND_SYMBOLS["R2"], BOUND_SYMBOLS["gamma2"]
_M, _D, _K, _EPS = BOUND_SYMBOLS["m"], BOUND_SYMBOLS["d"], BOUND_SYMBOLS["K"], BOUND_SYMBOLS["eps"]

#: The binary algorithms whose runs N3 bounds (averaged and voted: the underlying perceptron's).
BINARY_RUNS = ("perceptron", "averaged", "voted")
#: The algorithms ``prove`` accepts.
SUPPORTED = (*BINARY_RUNS, "pdm", "pfm", "multiclass", "romma")
#: Claims prove does not decide yet, and why.
REFUSED: dict[str, str] = {
    "nonseparable": "the Freund-Schapire bound FS1 has kernel-checked run theorems "
    "(FS1_one_pass_run and FS1_passes_run, Bridges.v), but prove does not state or certify "
    "claims on non-separable data (the deviation D, the passes T) yet",
}


@dataclass(frozen=True)
class Problem:
    """One claim to prove: ``expr >= known`` over the domain ``domain`` (text), with
    ``substitution`` mapping each bound symbol to its expression in the nonnegative variables.

    ``expr`` is the proposed bound with R2 written R**2, gamma2 written gamma**2 and PDM's eps
    replaced by ``eps`` when fixed; ``unsupported`` is why this claim cannot be certified (then
    the verdict is refuted or open), or None.
    """

    algorithm: str
    eps: Fraction | None
    expr: sp.Expr
    known: sp.Expr
    known_name: str
    domain: str
    substitution: dict[sp.Symbol, sp.Expr]
    unsupported: str | None = None

    def inequality(self) -> str:
        """The real inequality, as text."""
        if self.unsupported is not None and self.eps is None and self.algorithm == "pdm":
            return f"{sp.sstr(self.expr)} >= {self.known_name}"
        at = "" if self.eps is None else f" at eps = {self.eps}"
        known = self.known.xreplace({_R2: _R**2, _GAMMA2: _GAMMA**2})
        return f"{sp.sstr(self.expr)} >= {sp.sstr(known)}{at}"


def substitution(algorithm: str, eps: Fraction | None = None) -> dict[sp.Symbol, sp.Expr]:
    """Each bound symbol of ``algorithm`` as an expression in the nonnegative variables (see
    the module docstring); PDM's eps by its fixed value when given."""
    if algorithm == "multiclass":
        sub: dict[sp.Symbol, sp.Expr] = {_R: RR, _GAMMA: G, _R2: RR**2, _GAMMA2: G**2, _K: 2 + K1}
    else:
        sub = {_R: G + S, _GAMMA: G, _R2: (G + S) ** 2, _GAMMA2: G**2}
    sub.update({_M: 1 + M1, _D: 1 + D1})
    if eps is not None:
        sub[_EPS] = sp.Rational(eps.numerator, eps.denominator)
    return sub


def known_bound(algorithm: str, eps: Fraction | None = None) -> tuple[sp.Expr, str, str | None]:
    """(the kernel-checked bound in the bound symbols, its name, why it cannot be certified or
    None) for ``algorithm`` (PDM at ``eps`` when given)."""
    if algorithm in BINARY_RUNS:
        return _R2 / _GAMMA2, "Novikoff's R^2/gamma^2", None
    if algorithm == "romma":
        return _R2 / _GAMMA2, "ROMMA's R^2/gamma^2 (R1)", None
    if algorithm == "multiclass":
        return 2 * _R2 / _GAMMA2, "the multiclass 2 R^2/gamma^2", None
    if algorithm == "pdm":
        if eps is None:
            return (
                _R2 / ((2 * _EPS - 1) * _GAMMA2),
                "PDM's bound (three regimes in eps)",
                "eps ranges over (0, 1], where PDM's bound has a logarithm (eps = 1/2) and a real power "
                "(eps < 1/2); give --epsilons with values above 1/2 to decide those",
            )
        e = sp.Rational(eps.numerator, eps.denominator)
        if e > sp.Rational(1, 2):
            return _R2 / ((2 * e - 1) * _GAMMA2), f"PDM's R^2/((2 eps - 1) gamma^2) at eps = {eps}", None
        if e == sp.Rational(1, 2):
            known = _R2 * (sp.exp(-1) + 1) * sp.log(_R2 * (1 + sp.E) / _GAMMA2) / _GAMMA2
            return known, "PDM's bound at eps = 1/2", "PDM's bound at eps = 1/2 has a logarithm"
        known = (_R2 * (2 - 2 * e) / (_GAMMA2 * (1 - 2 * e))) ** (1 / (2 * e))
        name = f"PDM's (2 (1 - eps)/(1 - 2 eps) R^2/gamma^2)^(1/(2 eps)) at eps = {eps}"
        if (1 / (2 * e)).is_Integer:  # a polynomial in R^2/gamma^2 (D1_below_half_run)
            return known, name, None
        return known, name, f"PDM's bound at eps = {eps} < 1/2 is a real power (1/(2 eps) is not an integer)"
    if algorithm == "pfm":
        delta = _R2 / (2 * _EPS * _GAMMA2)
        known = (1 + sp.exp(-1)) * delta * (2 * _GAMMA / _R + sp.log((1 + sp.E) * delta))
        return known, "PFM's P1 bound", "PFM's bound P1 has a logarithm"
    raise InputError(f"--algorithm {algorithm}: {REFUSED.get(algorithm, 'not supported')}")


def _domain_text(algorithm: str, eps: Fraction | None) -> str:
    if algorithm == "multiclass":
        base = "R > 0, gamma > 0 (the Kesler margin), m >= 1, d >= 1, K >= 2"
    else:
        base = "R > 0, 0 < gamma <= R, m >= 1, d >= 1"
    if algorithm in ("pdm", "pfm") and eps is None:
        base += ", 0 < eps <= 1"
    return base + " (R2 = R^2, gamma2 = gamma^2; m, d, K taken real)"


def problems(bound: sp.Expr, algorithm: str, epsilons: Sequence[Fraction] | None = None) -> list[Problem]:
    """The claims that together make "``bound`` bounds every run of ``algorithm``": one, or
    for PDM with ``epsilons`` one per eps. An algorithm without a kernel-checked run theorem is
    an InputError naming what is missing."""
    if algorithm in REFUSED:
        raise InputError(f"--algorithm {algorithm}: {REFUSED[algorithm]}")
    if algorithm not in SUPPORTED:
        raise InputError(f"--algorithm {algorithm}: expected one of {', '.join(SUPPORTED)}")
    values: list[Fraction | None] = [None]
    if epsilons:
        if algorithm != "pdm":
            raise InputError("--epsilons: prove fixes eps for --algorithm pdm only")
        values = list(dict.fromkeys(validate_epsilon(e, "--epsilons") for e in epsilons))
    out = []
    for eps in values:
        known, name, unsupported = known_bound(algorithm, eps)
        normal: dict[sp.Symbol, sp.Expr] = {_R2: _R**2, _GAMMA2: _GAMMA**2}
        if eps is not None:
            normal[_EPS] = sp.Rational(eps.numerator, eps.denominator)
        out.append(
            Problem(
                algorithm,
                eps,
                bound.xreplace(normal),
                known,
                name,
                _domain_text(algorithm, eps),
                substitution(algorithm, eps),
                unsupported,
            )
        )
    return out
