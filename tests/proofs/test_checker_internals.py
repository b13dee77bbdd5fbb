"""The checker's normal form, its result records and small builders, pinned down exactly.

``_normal`` decides every identity and certificate residual: it must identify what is
equal (powers with symbolic exponents, logs of products of positive factors) and must
NOT identify what is only equal under assumptions that do not hold (log(xy) = log x +
log y for arbitrary reals). The result record must say which obligation failed, why,
and how long it took.
"""

from __future__ import annotations

import sympy as sp

from novikoff.proofs.core import (
    Certificate,
    FailureKind,
    Identity,
    Obligation,
    Proof,
    ProofFailure,
    Step,
    Term,
    check_obligation,
    ge,
    gt,
    le,
    lt,
    positive_in_induction,
)
from novikoff.proofs.core.algebra import is_zero as _is_zero
from novikoff.proofs.core.algebra import normal as _normal

x, y = sp.symbols("x y", real=True)
a, b = sp.symbols("a b", positive=True)
p = sp.Symbol("p", real=True)


def test_normal_form_identifies_equal_expressions() -> None:
    assert _is_zero((a + b) ** p / (a + b) - (a + b) ** (p - 1))
    assert _is_zero(a**p * a**2 - a ** (p + 2))
    assert _is_zero(sp.log(a * b) - sp.log(a) - sp.log(b))
    assert _is_zero(sp.log(a / b) - sp.log(a) + sp.log(b))
    assert _is_zero(sp.log((a**2 + a) / a) - sp.log(a + 1))
    assert _is_zero((x + y) ** 2 - x**2 - 2 * x * y - y**2)
    assert _is_zero(x / (x * y) - 1 / y)
    assert _normal(a**p - a**p) == 0


def test_normal_form_does_not_identify_what_only_holds_for_positive_reals() -> None:
    assert not _is_zero(sp.log(x * y) - sp.log(x) - sp.log(y))  # false at x = y = -1
    assert not _is_zero((a + b) ** p - (a + b) ** (p - 1))
    assert not _is_zero(a**p * b**p - a**p)
    assert _normal(x**2 + 1) == x**2 + 1


class _Raises(Proof):
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def verify(self, hyps: object, claim: sp.Basic) -> None:
        raise self.exc


def _ob(proof: Proof, hyps: dict | None = None) -> Obligation:
    return Obligation("o", "X", hyps or {}, ge(x**2, 0), proof)


def test_results_name_the_obligation_the_kind_and_a_sane_time() -> None:
    ok = _ob(Certificate(squares=(x,)))
    result = check_obligation(ok)
    assert result.ok is True and result.obligation is ok and result.kind is None and result.message == ""
    assert 0 <= result.seconds < 60
    cases = [
        (ProofFailure("no", FailureKind.SIGN), FailureKind.SIGN, "no"),
        (ValueError("bad value"), FailureKind.MALFORMED, "ValueError: bad value"),
        (RecursionError("deep"), FailureKind.MALFORMED, "proof too deep"),
    ]
    for exc, kind, message in cases:
        ob = _ob(_Raises(exc))
        result = check_obligation(ob)
        assert result.ok is False and result.obligation is ob and result.kind is kind
        assert result.message == message and 0 <= result.seconds < 60


def test_a_hypothesis_that_is_not_a_relation_is_malformed() -> None:
    result = check_obligation(_ob(Certificate(squares=(x,)), {"h": "x > 0"}))
    assert result.kind is FailureKind.MALFORMED
    assert result.message == "hypothesis 'h' is not a sympy relation: 'x > 0'"


def test_relation_builders_keep_the_relation() -> None:
    assert ge(x, 0) == sp.GreaterThan(x, 0, evaluate=False) and isinstance(ge(a, 0), sp.GreaterThan)
    assert gt(a, 0) == sp.StrictGreaterThan(a, 0, evaluate=False) and isinstance(
        gt(a, 0), sp.StrictGreaterThan
    )
    assert le(x, 1) == sp.LessThan(x, 1, evaluate=False) and isinstance(le(a, -1), sp.LessThan)
    assert lt(x, 1) == sp.StrictLessThan(x, 1, evaluate=False) and isinstance(lt(a, -1), sp.StrictLessThan)
    assert (ge(x, y).lhs, ge(x, y).rhs, lt(x, y).lhs, lt(x, y).rhs) == (x, y, x, y)


def test_positive_in_induction_is_the_certificate_it_documents() -> None:
    t = sp.Symbol("t", integer=True)
    step = positive_in_induction("t_pos", t + 1, 2)
    assert step == Step("t_pos", gt(t + 1, 0), Certificate(terms=(Term((), "n_ge_start"), Term((2,), None))))
    # it proves t + 1 > 0 from t - 1 >= 0 (start 1, slack 2) and nothing weaker
    ctx = {"n_ge_start": ge(t, 1)}
    assert check_obligation(Obligation("s", "X", ctx, step.claim, step.proof)).ok
    wrong = positive_in_induction("t_pos", t + 1, 3)
    result = check_obligation(Obligation("s", "X", ctx, wrong.claim, wrong.proof))
    assert result.kind is FailureKind.RESIDUAL


def test_identity_of_true_claims_and_of_matrices() -> None:
    assert check_obligation(Obligation("t", "X", {}, sp.true, Identity())).ok
    m = sp.Matrix([[x, 1], [0, y]])
    good = Obligation("m", "X", {}, sp.Eq(m * sp.eye(2), m, evaluate=False), Identity())
    assert check_obligation(good).ok
    bad = Obligation("m", "X", {}, sp.Eq(m, m.T, evaluate=False), Identity())
    result = check_obligation(bad)
    assert result.kind is FailureKind.RESIDUAL and result.message.startswith("identity fails at entry (0, 1)")
    shapes = Obligation("m", "X", {}, sp.Eq(m, sp.Matrix([[x, 1]]), evaluate=False), Identity())
    assert check_obligation(shapes).kind is FailureKind.MISMATCH


def test_proof_fields_are_never_parsed_from_text() -> None:
    """A square or exponent written as a string is refused, not handed to sympy's parser."""
    result = check_obligation(_ob(Certificate(squares=("x",))))
    assert not result.ok and result.kind is FailureKind.MALFORMED and "SympifyError" in result.message
