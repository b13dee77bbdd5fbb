"""V1 (the voted perceptron's bound, its deterministic core) on real exact runs.

The perceptron and the voted perceptron are written here (independent of
novikoff.reference): prefixes are trained from scratch, the vote is counted by hand, and
every premise of the V1 statements is evaluated exactly on the result.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from sympy.core.function import AppliedUndef

from novikoff.proofs.wrong_variants import wrong_variants
from novikoff.spec import V1_PREFIXES, V1_SAMPLE, V1_VOTE
from novikoff.spec.core import Forall

Vec = tuple[Fraction, ...]
Tables = dict[str, list[Fraction]]


def _vec(*xs: int | Fraction) -> Vec:
    return tuple(Fraction(x) for x in xs)


def _dot(a: Vec, b: Vec) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _train(patterns: list[Vec], dim: int) -> Vec:
    """One online pass of the perceptron from w = 0 (update iff w.z <= 0)."""
    w: Vec = tuple(Fraction(0) for _ in range(dim))
    for z in patterns:
        if _dot(w, z) <= 0:
            w = tuple(a + b for a, b in zip(w, z))
    return w


def _value(e: sp.Basic, tables: Tables) -> sp.Rational:
    q = tables[type(e).__name__][int(e.args[0])]
    return sp.Rational(q.numerator, q.denominator)


def _holds(premise: sp.Basic | Forall, count: int, values: dict[str, Fraction | int], tables: Tables) -> bool:
    """The premise, exactly: symbols by name, functions from ``tables``; a Forall over its
    first ``count`` indices."""

    def at(rel: sp.Basic) -> bool:
        rel = rel.xreplace({s: sp.Rational(str(Fraction(values[s.name]))) for s in rel.free_symbols})
        rel = rel.replace(lambda e: isinstance(e, AppliedUndef), lambda e: _value(e, tables))
        return bool(rel)

    if isinstance(premise, Forall):
        return all(at(premise.instance(sp.Integer(j))) for j in range(count))
    return at(premise)


#: labelled points x~ (bias folded in) with labels; z = y x~; not separable (3 and 4 clash)
EXAMPLES: list[tuple[Vec, int]] = [
    (_vec(1, 2, 1), 1),
    (_vec(2, -1, 1), -1),
    (_vec(-1, 1, 1), 1),
    (_vec(1, 1, 1), 1),
    (_vec(1, 1, 1), -1),
    (_vec(0, -2, 1), -1),
    (_vec(3, 1, 1), 1),
]


def _z(x: Vec, y: int) -> Vec:
    return tuple(y * a for a in x)


def test_erring_prefixes_are_the_runs_mistakes() -> None:
    zs = [_z(x, y) for x, y in EXAMPLES]
    n = len(zs)
    # pv(r): a perceptron trained from scratch on the first r examples, on example r + 1
    pv = [_dot(_train(zs[:r], len(zs[0])), zs[r]) for r in range(n)]
    # rv(r): the single online run's decision value at presentation r + 1
    rv, w = [], tuple(Fraction(0) for _ in zs[0])
    for z in zs:
        rv.append(_dot(w, z))
        if rv[-1] <= 0:
            w = tuple(a + b for a, b in zip(w, z))
    e = [Fraction(int(v <= 0)) for v in pv]
    u = [Fraction(int(v <= 0)) for v in rv]
    ecount, kcount = [Fraction(0)], [Fraction(0)]
    for a, b in zip(e, u):
        ecount.append(ecount[-1] + a)
        kcount.append(kcount[-1] + b)
    errs, k = int(ecount[n]), int(kcount[n])
    assert 0 < k < n
    tables: Tables = {"pv": pv, "rv": rv, "e": e, "u": u, "ecount": ecount, "kcount": kcount}
    # gamma, R, D: any values meeting the FS1 premise (R = sqrt(max ||z||^2) is irrational here)
    values: dict[str, Fraction | int] = {"n": n, "k": k, "errs": errs, "gamma": 1, "R": 4, "D": 2}
    for name, premise in V1_PREFIXES.premises:
        assert _holds(premise, n, values, tables), name
    assert V1_PREFIXES.check(values)
    assert errs == k


def _voters(train: list[Vec]) -> list[tuple[Vec, int]]:
    """The voted perceptron's voters (Freund and Schapire 1999): the distinct weights
    w_0..w_k of one pass, each counted once per presentation it ends (the presentation that
    creates it included), so the counts sum to the number of presentations."""
    w: Vec = tuple(Fraction(0) for _ in train[0])
    out = [(w, 0)]
    for z in train:
        if _dot(w, z) <= 0:
            w = tuple(a + b for a, b in zip(w, z))
            out.append((w, 1))
        else:
            out[-1] = (out[-1][0], out[-1][1] + 1)
    return out


def _sign(v: Fraction) -> int:
    return 1 if v > 0 else -1  # sign(0) = -1: ties predict -1


def _vote_tables(voters: list[tuple[Vec, int]], x: Vec, y: int) -> tuple[bool, Fraction, Fraction, Tables]:
    """Whether the vote is wrong on (x, y), W, the erring weight and V1_VOTE's functions."""
    c = [Fraction(cj) for _w, cj in voters]
    s = [Fraction(y * _sign(_dot(w, x))) for w, _c in voters]
    er = [Fraction(int(sj < 0)) for sj in s]
    cw, ew, vs = [Fraction(0)], [Fraction(0)], [Fraction(0)]
    for cj, sj, ej in zip(c, s, er):
        cw.append(cw[-1] + cj)
        ew.append(ew[-1] + cj * ej)
        vs.append(vs[-1] + cj * sj)
    prediction = _sign(sum((cj * _sign(_dot(w, x)) for (w, _c), cj in zip(voters, c)), Fraction(0)))
    return prediction != y, cw[-1], ew[-1], {"c": c, "s": s, "er": er, "cw": cw, "ew": ew, "vs": vs}


def test_a_wrong_vote_has_half_the_weight_erring_and_the_sample_bound_holds() -> None:
    train = [_z(x, y) for x, y in EXAMPLES[:5]]
    voters = _voters(train)
    J = len(voters)
    test = [(x, y) for x, y in EXAMPLES] + [(_vec(-1, -1, 1), 1), (_vec(2, 2, 1), -1), (_vec(0, 0, 1), 1)]
    wv, ewp, W = [], [], Fraction(0)
    for x, y in test:
        wrong, W, Ew, tables = _vote_tables(voters, x, y)
        assert W == len(train)  # one count per presentation
        values: dict[str, Fraction | int] = {"J": J, "W": W, "Ew": Ew}
        premises = dict(V1_VOTE.premises)
        for name, premise in premises.items():
            if name != "wrong":
                assert _holds(premise, J, values, tables), name
        if wrong:  # a wrong vote meets the premise, and then the conclusion holds
            assert _holds(premises["wrong"], J, values, tables)
            assert V1_VOTE.check(values)
        wv.append(Fraction(int(wrong)))
        ewp.append(Ew)
    assert 0 < sum(wv) < len(test)  # the vote is wrong on some test points, right on others
    nvc, ewc = [Fraction(0)], [Fraction(0)]
    for a, b in zip(wv, ewp):
        nvc.append(nvc[-1] + a)
        ewc.append(ewc[-1] + b)
    N = len(test)
    values = {"N": N, "W": W, "nv": nvc[N], "ewt": ewc[N]}
    tables = {"wv": wv, "ewp": ewp, "nvc": nvc, "ewc": ewc}
    for name, premise in V1_SAMPLE.premises:
        assert _holds(premise, N, values, tables), name
    assert V1_SAMPLE.check(values)


def test_the_factor_two_is_needed_a_tie_against_the_label() -> None:
    # two voters of weight 1 disagree on a positive point: the sum is 0, the vote predicts -1
    voters = [(_vec(1, 0), 1), (_vec(-1, 0), 1)]
    wrong, W, Ew, _tables = _vote_tables(voters, _vec(1, 0), 1)
    assert wrong and W == 2 and Ew == 1
    assert V1_VOTE.check({"J": 2, "W": W, "Ew": Ew})  # W <= 2 Ew, with equality
    assert not W <= Ew  # the statement without the factor 2 is false here
    names = [w.obligation.name for w in wrong_variants() if w.spec_id == "V1"]
    assert any("[2*Ew -> Ew]" in n for n in names)
