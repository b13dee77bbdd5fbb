"""The Coq file of a proved bound: the real inequality from the certificates, then the run theorem.

The file (``Proposed.v``) ``Require``s the development (a copy compiled once per process in a
temporary directory, :func:`built_development`) and states, for the perceptron (and the averaged
and voted perceptrons, whose updates are the underlying perceptron's), over the development's
labelled data (``Labelled.v``: samples with features and a label, the bias rho):

    for every labelled dataset D, rho, valid order, separating certificate (lam, p) of the
    reflected patterns y_i (x_i, rho) with gamma2 their hull's squared distance to 0, and d with
    every sample of D having d >= 1 features:
    INR (perceptron_updates rho D order) <= bound (sqrt (radius2 rho D)) (sqrt gamma2)
                                                 (INR (length D)) (INR d)

proved from the run theorem ``Bridges.N3_run`` (the premises are those of
``RunStatements.N3_run_statement``) and the lemma ``bound_real`` (the known bound is at most the
proposed one on the domain), itself proved by ``field`` (the certificate's identity) and the
positivity of the certificate's polynomials. PDM at a fixed eps uses ``D1_above_half_run`` or
``D1_below_half_run`` (``pdm_updates eps rho D order``, gamma^2 = ||p||^2), the multiclass
perceptron ``M1_run`` (``multiclass_mistakes K rho data order``, ||U||_F = 1, gamma the Kesler
margin), ROMMA ``R1_run`` (``romma_mistakes rho rule D order`` for every rule with
``rule_ok rule``: the conservative one and the aggressive one at every eps >= 0; RommaRun.v,
RommaBridge.v). m is ``length D`` and d the feature count of every sample, so a bound in m or d
speaks of the dataset itself. :func:`compile_file` runs ``coqc`` on it; only its acceptance makes
``novikoff prove`` exit 0.
"""

from __future__ import annotations

import atexit
import re
import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path

import sympy as sp

from novikoff.coq.printer import COQ_DIR
from novikoff.fuzz.bounds import BOUND_SYMBOLS
from novikoff.prove.certificate import Certificate, ProofTree, Terms, log_atoms
from novikoff.prove.inequality import BINARY_RUNS, Problem
from novikoff.runtime.bounded import run_completed

__all__ = [
    "IMPORTS",
    "ROMMA_IMPORTS",
    "CoqPrintError",
    "built_development",
    "compile_file",
    "coq_file",
    "coq_term",
    "imports",
    "needed",
]

#: The development's modules the generated file imports (the run theorems are in Bridges.v).
IMPORTS = ("Vectors", "Perceptron", "Multiclass", "Lemma1", "Labelled", "RunStatements", "Bridges")
#: ROMMA's file imports these too (its run theorem ``R1_run`` is in RommaBridge.v).
ROMMA_IMPORTS = (*IMPORTS, "RommaRun", "RommaBridge")
_REQUIRE = re.compile(r"From\s+Novikoff\s+Require\s+(?:Import\s+|Export\s+)?([^.]*)\.")


def imports(algorithm: str) -> tuple[str, ...]:
    """The modules the generated file for ``algorithm`` imports."""
    return ROMMA_IMPORTS if algorithm == "romma" else IMPORTS


def _required(text: str) -> tuple[str, ...]:
    """The development's modules ``text`` (a Coq file) ``Require``s."""
    return tuple(name for group in _REQUIRE.findall(text) for name in group.split())


def needed(coq_dir: Path = COQ_DIR, roots: tuple[str, ...] = IMPORTS) -> tuple[str, ...]:
    """The files of ``coq_dir`` that ``roots`` need (themselves and what they ``Require``,
    transitively), in the order of its ``_CoqProject`` (a dependency order)."""
    project = (Path(coq_dir) / "_CoqProject").read_text(encoding="utf-8").split()
    order = [f for f in project if f.endswith(".v")]
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (Path(coq_dir) / f"{name}.v").read_text(encoding="utf-8")
        todo += _required(text)
    return tuple(f for f in order if f[:-2] in seen)


# per development: the build directory, the files compiled there, the first error
_BUILT: dict[Path, tuple[Path, list[str], str]] = {}


class CoqPrintError(ValueError):
    """An expression outside the fragment this printer translates."""


def _number(q: sp.Rational) -> str:
    if q.q == 1:
        return str(q.p) if q.p >= 0 else f"(- {-q.p})"
    return f"({q.p} / {q.q})" if q.p >= 0 else f"(- ({-q.p} / {q.q}))"


def coq_term(e: sp.Expr, names: dict[sp.Symbol, str]) -> str:
    """``e`` as a Coq real term: numbers, the symbols of ``names``, + * integer powers, sqrt,
    ln, min and max (nested Rmin/Rmax, the first argument outside); anything else raises
    :class:`CoqPrintError`."""
    if e.is_Rational:
        return _number(sp.Rational(e))
    if e.is_Symbol:
        if e not in names:
            raise CoqPrintError(f"symbol {e} has no Coq name")
        return names[e]
    if isinstance(e, sp.Add):
        return "(" + " + ".join(coq_term(a, names) for a in e.args) + ")"
    if isinstance(e, sp.Mul):
        num: list[str] = []
        den: list[str] = []
        for f in e.args:
            if f.is_Rational and f.q != 1:
                if f.p != 1:
                    num.append(_number(sp.Integer(f.p)))
                den.append(str(f.q))
            elif isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp < 0:
                den.append(coq_term(f.base**-f.exp, names))
            else:
                num.append(coq_term(f, names))
        top = " * ".join(num) if num else "1"
        return f"({top} / ({' * '.join(den)}))" if den else f"({top})"
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer and e.exp > 0:
            return f"({coq_term(e.base, names)} ^ {int(e.exp)})"
        if e.exp.is_Integer:
            return f"(1 / {coq_term(e.base**-e.exp, names)})"
        if e.exp == sp.Rational(1, 2):
            return f"(sqrt {coq_term(e.base, names)})"
        raise CoqPrintError(f"the power {e} is not printed")
    if isinstance(e, sp.log) and len(e.args) == 1:
        return f"(ln {coq_term(e.args[0], names)})"
    if isinstance(e, (sp.Min, sp.Max)):
        fn = "Rmin" if isinstance(e, sp.Min) else "Rmax"
        args = list(e.args)
        text = coq_term(args[-1], names)
        for a in reversed(args[:-1]):
            text = f"({fn} {coq_term(a, names)} {text})"
        return text
    raise CoqPrintError(f"{type(e).__name__} ({e}) is not printed")


_TACTICS = """Ltac nonneg := match goal with
  | |- 0 <= _ + _ => apply Rplus_le_le_0_compat; nonneg
  | |- 0 <= _ * _ => apply Rmult_le_pos; nonneg
  | |- 0 <= _ ^ _ => apply pow_le; nonneg
  | _ => lra
  end.
Ltac strictpos := match goal with
  | |- 0 < _ + _ => first [apply Rplus_lt_le_0_compat; [strictpos | nonneg]
                          | apply Rplus_le_lt_0_compat; [nonneg | strictpos]]
  | |- 0 < _ * _ => apply Rmult_lt_0_compat; strictpos
  | |- 0 < _ ^ _ => apply pow_lt; strictpos
  | _ => lra
  end.
Ltac nonzero := apply Rgt_not_eq; unfold Rgt; strictpos.
"""


def _poly_text(
    terms: tuple[tuple[int, tuple[int, ...]], ...],
    variables: tuple[str, ...],
    strict: set[str],
    rename: dict[str, str] | None = None,
) -> str:
    """The polynomial, the terms in the strictly positive variables alone first (so that
    ``strictpos`` meets a positive term first)."""
    if not terms:
        return "0"

    def is_strict(ex: tuple[int, ...]) -> bool:
        return all(k == 0 or variables[i] in strict for i, k in enumerate(ex))

    ordered = sorted(terms, key=lambda t: (not is_strict(t[1]),))
    out = []
    for c, ex in ordered:
        shown = [(rename or {}).get(v, v) for v in variables]
        factors = [str(c)] + [v if k == 1 else f"{v} ^ {k}" for v, k in zip(shown, ex) if k]
        out.append(" * ".join(factors))
    return "(" + " + ".join(out) + ")"


def _identity_script(
    num: Terms, den: Terms, variables: tuple[str, ...], indent: str, rename: dict[str, str] | None = None
) -> list[str]:
    """Proves the goal ``K <= E`` from E - K = N/Q (by ``field``), N >= 0 and Q > 0."""
    strict = {"g", "r"}
    n = _poly_text(num, variables, strict, rename)
    q = _poly_text(den, variables, strict, rename)
    return [
        f"{indent}match goal with |- ?K <= ?E =>",
        f"{indent}  assert (Hid : E - K = {n} / {q}) by (field; repeat split; nonzero) end.",
        f"{indent}assert (HN : 0 <= {n}) by nonneg.",
        f"{indent}assert (HQ : 0 < {q}) by strictpos.",
        f"{indent}assert (HNQ : 0 <= {n} / {q}).",
        f"{indent}{{ unfold Rdiv. apply Rmult_le_pos;",
        f"{indent}  [exact HN | left; apply Rinv_0_lt_compat; exact HQ]. }}",
        f"{indent}lra.",
    ]


def _leaf_script(cert: Certificate, leaf: sp.Expr, subst: dict[sp.Symbol, str], indent: str) -> list[str]:
    """The proof of ``known <= leaf``: first ln X_i >= 0 for each logarithm (from X_i >= 1),
    then the certificate's identity with l_i shown as ln X_i."""
    domain = cert.variables[: len(cert.variables) - len(cert.logs)]
    lines: list[str] = []
    rename = {}
    for i, (atom, (n, q)) in enumerate(zip(log_atoms(leaf), cert.logs)):
        x = coq_term(atom.args[0], subst)
        rename[f"l{i}"] = f"(ln {x})"
        lines += [f"{indent}assert (HX{i} : 1 <= {x}).", f"{indent}{{"]
        lines += _identity_script(n, q, domain, indent + "  ")
        lines += [
            f"{indent}}}",
            f"{indent}assert (HL{i} : 0 <= ln {x}).",
            f"{indent}{{ pose proof (ln_le_mono 1 {x} ltac:(lra) HX{i}) as H. rewrite ln_1 in H. exact H. }}",
        ]
    return lines + _identity_script(cert.numerator, cert.denominator, cert.variables, indent, rename)


def _tree_script(tree: ProofTree, e: sp.Expr, subst: dict[sp.Symbol, str], indent: str = "  ") -> list[str]:
    """The proof of ``known <= e`` (``e`` as printed by :func:`coq_term`, its symbols shown as
    ``subst`` after the lemma's substitutions) following ``tree``."""
    if tree.kind == "leaf":
        assert tree.certificate is not None
        return _leaf_script(tree.certificate, e, subst, indent)
    args = list(e.args)
    if tree.kind == "min":  # Rmin a1 (Rmin a2 (... an)): Rmin_glb, a1, then the rest
        lines: list[str] = []
        for p, a in zip(tree.parts[:-1], args[:-1]):
            lines += [f"{indent}apply Rmin_glb.", f"{indent}{{"]
            lines += _tree_script(p, a, subst, indent + "  ")
            lines += [f"{indent}}}"]
        return lines + _tree_script(tree.parts[-1], args[-1], subst, indent)
    # Rmax a1 (Rmax a2 (... an)): argument i is i steps right, then one left unless it is an
    lines = [f"{indent}eapply Rle_trans; [| apply Rmax_r]." for _ in range(tree.index)]
    if tree.index < len(args) - 1:
        lines.append(f"{indent}eapply Rle_trans; [| apply Rmax_l].")
    return lines + _tree_script(tree.parts[0], args[tree.index], subst, indent)


def _names(algorithm: str) -> tuple[dict[sp.Symbol, str], list[str]]:
    b = BOUND_SYMBOLS
    names = {b["R"]: "R_", b["gamma"]: "gamma", b["m"]: "m", b["d"]: "d"}
    params = ["R_", "gamma", "m", "d"]
    if algorithm == "multiclass":
        names[b["K"]] = "K_"
        params.append("K_")
    return names, params


def coq_file(problems: list[Problem], trees: list[ProofTree]) -> str:
    """The text of ``Proposed.v`` proving the bound for every claim of ``problems`` (one proof
    tree each, accepted by :func:`novikoff.prove.certificate.proof_errors`)."""
    algorithm = problems[0].algorithm
    names, params = _names(algorithm)
    lines = [
        "(** Generated by novikoff prove: the proposed bound bounds the run on every labelled dataset. *)",
        "From Coq Require Import Reals List Lra Psatz Arith Lia.",
        f"From Novikoff Require Import {' '.join(imports(algorithm))}.",
        "Import ListNotations.",
        "Open Scope R_scope.",
        "",
        _TACTICS,
    ]
    for i, (problem, tree) in enumerate(zip(problems, trees)):
        lines += _claim(i, problem, tree, names, params)
    return "\n".join(lines) + "\n"


def _claim(
    i: int, problem: Problem, tree: ProofTree, names: dict[sp.Symbol, str], params: list[str]
) -> list[str]:
    b = BOUND_SYMBOLS
    algorithm = problem.algorithm
    sig = " ".join(params)
    body = coq_term(problem.expr, names)
    real = {b["R"]: "r", b["gamma"]: "g"}
    # the known bound over R2 and gamma2, so that sqrt R2 ^ 2 rewrites to R2 in the run theorem
    known_real = coq_term(problem.known, {**names, **real, b["R2"]: "(r ^ 2)", b["gamma2"]: "(g ^ 2)"})
    lines = [f"Definition bound{i} ({sig} : R) : R :=", f"  {body}.", ""]
    if algorithm == "multiclass":
        lines += [
            f"Lemma bound{i}_real (r g m d K_ : R) :",
            "  0 < r -> 0 < g -> 1 <= m -> 1 <= d -> 2 <= K_ ->",
            f"  {known_real} <= bound{i} r g m d K_.",
            "Proof.",
            f"  intros Hr Hg Hm Hd HK. unfold bound{i}.",
        ]
    else:
        lines += [
            f"Lemma bound{i}_real (r g m d : R) :",
            "  0 < g -> g <= r -> 1 <= m -> 1 <= d ->",
            f"  {known_real} <= bound{i} r g m d.",
            "Proof.",
            f"  intros Hg Hgr Hm Hd. unfold bound{i}.",
            "  pose (s := r - g). assert (Hs : 0 <= s) by (unfold s; lra).",
            "  assert (Er : r = g + s) by (unfold s; ring). clearbody s. subst r.",
        ]
    lines += [
        "  pose (m1 := m - 1). assert (Hm1 : 0 <= m1) by (unfold m1; lra).",
        "  assert (Em : m = 1 + m1) by (unfold m1; ring). clearbody m1. subst m.",
        "  pose (d1 := d - 1). assert (Hd1 : 0 <= d1) by (unfold d1; lra).",
        "  assert (Ed : d = 1 + d1) by (unfold d1; ring). clearbody d1. subst d.",
    ]
    if algorithm == "multiclass":
        lines += [
            "  pose (k1 := K_ - 2). assert (Hk1 : 0 <= k1) by (unfold k1; lra).",
            "  assert (Ek : K_ = 2 + k1) by (unfold k1; ring). clearbody k1. subst K_.",
        ]
    b_ = BOUND_SYMBOLS
    subst = {b_["gamma"]: "g", b_["m"]: "(1 + m1)", b_["d"]: "(1 + d1)"}
    if algorithm == "multiclass":
        subst.update({b_["R"]: "r", b_["K"]: "(2 + k1)"})
    else:
        subst[b_["R"]] = "(g + s)"
    lines += _tree_script(tree, problem.expr, subst)
    lines += ["Qed.", ""]
    lines += _run_theorem(i, problem)
    return lines


def _eps_text(eps: Fraction) -> str:
    return _number(sp.Rational(eps.numerator, eps.denominator))


def _m_ge_1(empty: str, length: str, rest: str) -> list[str]:
    """Proves ``Hm : 1 <= INR (length D)`` from ``HR : 0 < r2 D`` (``r2`` is 0 on no data)."""
    return [
        f"  assert (Hm : 1 <= INR (length {length})).",
        f"  {{ destruct {length} as [|s0 {rest}]; [{empty}|]. simpl length. rewrite S_INR.",
        f"    pose proof (pos_INR (length {rest})). lra. }}",
        "  assert (HdR : 1 <= INR d) by (apply (le_INR 1) in Hd; simpl in Hd; lra).",
    ]


def _multiclass_theorem(i: int, problem: Problem) -> list[str]:
    b = BOUND_SYMBOLS
    known = coq_term(problem.known, {b["R2"]: "(mradius2 rho data)", b["gamma2"]: "(g ^ 2)"})
    return [
        "(** For every multiclass labelled dataset [data] (samples (x_i, c_i): d features x_i and a",
        "    class c_i < K), bias rho, order and K weight vectors U with ||U||_F = 1 and Kesler",
        "    margin g > 0 on (x_i, rho), with R^2 = [mradius2 rho data] > 0 (the premises of",
        "    [RunStatements.M1_run_statement] at ||U||_F = 1): the multiclass perceptron's mistakes",
        "    on the data are at most the proposed bound at R = sqrt R^2, gamma = g, m = length data,",
        "    d the feature count, K. *)",
        f"Theorem proposed_bound{i} (K : nat) (rho : R) (data : list (vec * nat)) (U : mweights) (g : R)",
        "  (order : list nat) (d : nat) :",
        "  (2 <= K)%nat -> (forall x c, In (x, c) data -> (c < K)%nat) ->",
        "  kesler_margin K (maugment rho data) U g -> 0 < g -> frob2 K U = 1 ->",
        "  0 < mradius2 rho data -> Forall (fun i => (i < length data)%nat) order ->",
        "  Forall (fun s => length (fst s) = d) data -> (1 <= d)%nat ->",
        "  INR (multiclass_mistakes K rho data order) <=",
        f"    bound{i} (sqrt (mradius2 rho data)) g (INR (length data)) (INR d) (INR K).",
        "Proof.",
        "  intros HK Hclass Hmargin Hg HU HR Ho Hfeat Hd.",
        f"  assert (HN : INR (multiclass_mistakes K rho data order) <= {known}).",
        "  { pose proof (M1_run K rho data U g order ltac:(lia) Hclass Hmargin Hg",
        "      ltac:(rewrite HU; lra) HR Ho) as H. rewrite HU in H.",
        "    assert (Hg2 : 0 < g ^ 2) by (apply pow_lt; exact Hg).",
        f"    replace {known} with (2 * mradius2 rho data * 1 / g ^ 2) by (field; lra). exact H. }}",
        *_m_ge_1("unfold mradius2 in HR; simpl in HR; lra", "data", "data'"),
        "  assert (HKR : 2 <= INR K) by (apply (le_INR 2) in HK; simpl in HK; lra).",
        f"  pose proof (bound{i}_real (sqrt (mradius2 rho data)) g (INR (length data)) (INR d) (INR K)",
        "    (sqrt_lt_R0 _ HR) Hg Hm HdR HKR) as HB.",
        "  rewrite ?pow2_sqrt in HB by lra.",
        "  lra.",
        "Qed.",
        "",
    ]


def _romma_theorem(i: int, problem: Problem) -> list[str]:
    """``proposed_bound<i>`` for ROMMA: for every labelled dataset, rule (``rule_ok``), valid
    order and separating certificate, ROMMA's mistakes are at most ``bound<i>``; from
    ``R1_run`` (mistakes * gamma^2 <= R^2, the run never stops) and ``bound<i>_real``."""
    b = BOUND_SYMBOLS
    R2 = "(radius2 rho D)"
    known = coq_term(problem.known, {b["R2"]: R2, b["gamma2"]: "(dot p p)"})
    count = "INR (romma_mistakes rho rule D order)"
    return [
        "(** For every labelled dataset D (samples with d features and a label in {-1, +1}), bias",
        "    rho, update rule (conservative: update iff y (w . (x, rho)) <= 0; aggressive with",
        "    eps >= 0: iff y (w . (x, rho)) < 1 - eps), valid order and separating certificate",
        "    (lam, p) of the reflected patterns y_i (x_i, rho) (the premises of",
        "    [RunStatements.R1_run_statement]): ROMMA's mistakes ([RommaRun.romma], updates on",
        "    y (w . (x, rho)) <= 0) on D are at most the proposed bound at R = sqrt (radius2 rho D)",
        "    (R^2 = max_i ||(x_i, rho)||^2), gamma = the certificate's margin, m = length D and d. *)",
        f"Theorem proposed_bound{i} (D : dataset) (rho : R) (rule : romma_rule) (order : list nat)",
        "  (lam : list R) (p : vec) (gamma2 : R) (d : nat) :",
        "  rule_ok rule -> valid D order -> separable_certificate (reflected rho D) lam p ->",
        "  min_norm_sq (reflected rho D) gamma2 ->",
        "  Forall (fun s => length (features s) = d) D -> (1 <= d)%nat ->",
        f"  {count} <= bound{i} (sqrt {R2}) (sqrt gamma2) (INR (length D)) (INR d).",
        "Proof.",
        "  intros Hr Hv Hc Hmin Hfeat Hd.",
        "  pose proof (proj2 (R1_run D rho rule order lam p gamma2 Hr Hv Hc Hmin)) as H.",
        "  pose proof (gamma2_is_pp rho D lam p gamma2 Hc Hmin) as Hgp. subst gamma2.",
        "  pose proof Hc as [_ [_ [_ [_ Hpp]]]].",
        "  pose proof (pp_le_radius2 rho D lam p Hc) as Hg.",
        "  pose proof (radius2_pos rho D lam p Hc) as HR.",
        f"  assert (HN : {count} <= {known}).",
        f"  {{ replace {known} with (radius2 rho D / dot p p) by (field; lra).",
        "    apply Rmult_le_reg_r with (dot p p); [exact Hpp|].",
        "    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }",
        *_m_ge_1("unfold radius2 in HR; simpl in HR; lra", "D", "D'"),
        f"  pose proof (bound{i}_real (sqrt {R2}) (sqrt (dot p p)) (INR (length D)) (INR d)",
        "    (sqrt_lt_R0 _ Hpp) (sqrt_le_1_alt _ _ Hg) Hm HdR) as HB.",
        "  rewrite ?pow2_sqrt in HB by lra.",
        "  lra.",
        "Qed.",
        "",
    ]


def _run_theorem(i: int, problem: Problem) -> list[str]:
    """``proposed_bound<i>``: for every labelled dataset (and the run statement's premises),
    the run's updates are at most ``bound<i>`` at R^2 = radius2 rho D, gamma^2 from the
    certificate, m = length D and d the samples' feature count; proved from the run theorem
    (``Bridges.N3_run``, ``M1_run``, ``D1_above_half_run``, ``D1_below_half_run``,
    ``RommaBridge.R1_run``) and ``bound<i>_real``."""
    if problem.algorithm == "multiclass":
        return _multiclass_theorem(i, problem)
    if problem.algorithm == "romma":
        return _romma_theorem(i, problem)
    b = BOUND_SYMBOLS
    R2 = "(radius2 rho D)"
    known = coq_term(problem.known, {b["R2"]: R2, b["gamma2"]: "(dot p p)"})
    if problem.algorithm in BINARY_RUNS:
        count = "INR (perceptron_updates rho D order)"
        binders = "(lam : list R) (p : vec) (gamma2 : R) (d : nat)"
        premises = [
            "  valid D order -> separable_certificate (reflected rho D) lam p ->",
            "  min_norm_sq (reflected rho D) gamma2 ->",
        ]
        gamma = "(sqrt gamma2)"
        intro = [
            "  intros Hv Hc Hmin Hfeat Hd.",
            "  pose proof (N3_run D rho order lam p gamma2 Hv Hc Hmin) as H.",
            "  pose proof (gamma2_is_pp rho D lam p gamma2 Hc Hmin) as Hgp. subst gamma2.",
        ]
        base = [f"  {{ replace {known} with (radius2 rho D / dot p p) by (field; lra). exact H. }}"]
        what = "the perceptron's updates" + (
            ""
            if problem.algorithm == "perceptron"
            else f" (the {problem.algorithm} perceptron's underlying run)"
        )
        statement = "N3_run_statement"
    else:
        assert problem.eps is not None
        e = _eps_text(problem.eps)
        count = f"INR (pdm_updates {e} rho D order)"
        binders = "(lam : list R) (p : vec) (d : nat)"
        premises = ["  valid D order -> separable_certificate (reflected rho D) lam p ->"]
        gamma = "(sqrt (dot p p))"
        intro = ["  intros Hv Hc Hfeat Hd."]
        what = f"PDM's updates at eps = {problem.eps}"
        if problem.eps > Fraction(1, 2):
            x = f"(radius2 rho D / (dot p p * (2 * {e} - 1)))"
            base = [
                f"  {{ replace {known} with {x} by (field; lra).",
                f"    destruct (pdm_updates {e} rho D order) as [|t] eqn:Et.",
                "    - change (INR 0) with 0. apply Rlt_le, Rdiv_lt_0_compat; nra.",
                f"    - pose proof (D1_above_half_run D rho {e} order lam p Hv Hc",
                "        ltac:(lra) ltac:(lra) ltac:(rewrite Et; lia)) as H.",
                "      rewrite Et in H. exact H. }",
            ]
            statement = "D1_above_half_run_statement"
        else:  # D1 below 1/2 with 1/(2 eps) = k a natural number: the real power is x^k
            k = Fraction(1) / (2 * problem.eps)
            assert k.denominator == 1
            x = f"(radius2 rho D * (2 - 2 * {e}) / (dot p p * (1 - 2 * {e})))"
            base = [
                f"  {{ assert (HX : 0 < {x}).",
                "    { unfold Rdiv. apply Rmult_lt_0_compat; [nra | apply Rinv_0_lt_compat; nra]. }",
                f"    replace {known} with ({x} ^ {k.numerator})",
                "      by (field; repeat split; apply Rgt_not_eq; lra).",
                f"    destruct (pdm_updates {e} rho D order) as [|t] eqn:Et.",
                "    - change (INR 0) with 0. apply pow_le. lra.",
                f"    - pose proof (D1_below_half_run D rho {e} order lam p Hv Hc",
                "        ltac:(lra) ltac:(lra) ltac:(rewrite Et; lia)) as H.",
                f"      rewrite Et in H. replace (1 / (2 * {e})) with (INR {k.numerator}) in H",
                "        by (simpl; lra).",
                "      rewrite Rpower_pow in H by exact HX. exact H. }",
            ]
            statement = "D1_below_half_run_statement"
    return [
        "(** For every labelled dataset D (samples with d features and a label in {-1, +1}), bias",
        "    rho, valid order and separating certificate (lam, p) of the reflected patterns",
        f"    y_i (x_i, rho) (the premises of [RunStatements.{statement}]): {what}",
        "    on D are at most the proposed bound at R = sqrt (radius2 rho D) (R^2 = max_i",
        "    ||(x_i, rho)||^2), gamma = the certificate's margin, m = length D and d. *)",
        f"Theorem proposed_bound{i} (D : dataset) (rho : R) (order : list nat) {binders} :",
        *premises,
        "  Forall (fun s => length (features s) = d) D -> (1 <= d)%nat ->",
        f"  {count} <= bound{i} (sqrt {R2}) {gamma} (INR (length D)) (INR d).",
        "Proof.",
        *intro,
        "  pose proof Hc as [_ [_ [_ [_ Hpp]]]].",
        "  pose proof (pp_le_radius2 rho D lam p Hc) as Hg.",
        "  pose proof (radius2_pos rho D lam p Hc) as HR.",
        f"  assert (HN : {count} <= {known}).",
        *base,
        *_m_ge_1("unfold radius2 in HR; simpl in HR; lra", "D", "D'"),
        f"  pose proof (bound{i}_real (sqrt {R2}) (sqrt (dot p p)) (INR (length D)) (INR d)",
        "    (sqrt_lt_R0 _ Hpp) (sqrt_le_1_alt _ _ Hg) Hm HdR) as HB.",
        "  rewrite ?pow2_sqrt in HB by lra.",
        "  lra.",
        "Qed.",
        "",
    ]


def built_development(
    coq_dir: Path = COQ_DIR, timeout: float = 300.0, files: tuple[str, ...] | None = None
) -> tuple[Path | None, str]:
    """(a temporary directory holding the compiled ``files`` of ``coq_dir`` (by default
    :func:`needed`), "") or (None, why not: coqc missing or a file rejected). Each file is
    compiled once per process."""
    key = Path(coq_dir).resolve()
    coqc = shutil.which("coqc")
    if coqc is None:
        return None, "coqc not found"
    if files is None:
        files = needed(key)
    if key not in _BUILT:
        work = Path(tempfile.mkdtemp(prefix="novikoff-prove-coq-"))
        atexit.register(shutil.rmtree, work, True)
        _BUILT[key] = (work, [], "")
    work, done, error = _BUILT[key]
    if error:
        return None, error
    for f in files:
        if f in done:
            continue
        shutil.copy(key / f, work / f)
        try:
            proc = run_completed([coqc, "-q", "-R", ".", "Novikoff", f], timeout, cwd=work)
        except subprocess.TimeoutExpired:
            error = f"{f}: coqc timed out"
        else:
            if proc.returncode != 0:
                error = f"{f} does not compile: {(proc.stderr or proc.stdout).strip()[-1500:]}"
        if error:
            _BUILT[key] = (work, done, error)
            return None, error
        done.append(f)
    return work, ""


def compile_file(
    text: str, coq_dir: Path = COQ_DIR, timeout: float = 300.0, files: tuple[str, ...] | None = None
) -> tuple[bool | None, str]:
    """Compile ``text`` as ``Proposed.v`` against the development (its ``files``; by default
    those the modules ``text`` requires need): (True, "") when coqc accepted it, (False,
    coqc's output) when it did not, (None, why) without Coq."""
    if files is None:  # a module the development lacks is left to coqc to reject
        roots = tuple(m for m in _required(text) if (Path(coq_dir) / f"{m}.v").is_file())
        files = needed(coq_dir, roots or IMPORTS)
    built, why = built_development(coq_dir, timeout, files)
    if built is None:
        return (None, why) if why == "coqc not found" else (False, why)
    coqc = shutil.which("coqc") or "coqc"
    with tempfile.TemporaryDirectory(prefix="novikoff-prove-") as tmp:
        path = Path(tmp) / "Proposed.v"
        path.write_text(text, encoding="utf-8")
        try:
            proc = run_completed([coqc, "-q", "-R", str(built), "Novikoff", "Proposed.v"], timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            return False, f"coqc timed out after {timeout:.0f} s"
    if proc.returncode != 0:
        return False, (proc.stderr or proc.stdout).strip()[-3000:]
    return True, ""
