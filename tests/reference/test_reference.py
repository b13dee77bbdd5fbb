"""The exact reference perceptron: N1-N3 on every update, T1, G1, and checks that can fail."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.certificates.checker import check_run
from novikoff.data.dataset import Dataset
from novikoff.errors import CertificateError, InputError, InvariantViolation
from novikoff.fuzz import certified_nonseparable, certified_separable, orderings, t1_datasets
from novikoff.reference import run_perceptron
from novikoff.runtime.runs import RunRecord
from novikoff.spec import N3, T1
from novikoff.spec.invariance import (
    G1_ADD_POINT,
    add_point_along_pstar,
    pad_zero_features,
    rotate_patterns,
    scale_patterns,
)
from novikoff.spec.tightness import basis_dataset, cayley_orthogonal, rotated_basis_dataset


def dot(u: list[Fraction] | tuple[Fraction, ...], v: list[Fraction]) -> Fraction:
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def exact_weights(run: RunRecord) -> tuple[Fraction, ...]:
    """The reference's weights: a tuple of exact Fractions, never a float array."""
    assert isinstance(run.weights, tuple)
    return run.weights


@given(st.data())
def test_novikoff_invariants_hold_on_every_update(data: st.DataObject) -> None:
    ds, cert = data.draw(certified_separable())
    order = data.draw(orderings(ds.n_samples))
    run = run_perceptron(ds, order=order, certificate=cert, max_epochs=10_000)
    assert run.converged
    assert run.invariants_checked == 3 * run.mistakes
    assert run.mistakes * cert.gamma2 <= cert.R2  # N3 restated independently of the spec
    assert all(dot(exact_weights(run), ds.pattern(i)) > 0 for i in range(ds.n_samples))
    check_run(ds, run.updates, exact_weights(run), run.epochs, run.converged, order)


@given(certified_nonseparable(), st.integers(1, 6))
def test_nonseparable_runs_stop_at_max_epochs(pair: tuple[Dataset, object], epochs: int) -> None:
    ds, _ = pair
    run = run_perceptron(ds, max_epochs=epochs)
    assert not run.converged and run.epochs == epochs
    check_run(ds, run.updates, exact_weights(run), run.epochs, run.converged)


def test_an_overclaimed_margin_makes_an_invariant_fail() -> None:
    ds = basis_dataset(4)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    wrong = dataclasses.replace(cert, gamma2=cert.gamma2 * Fraction(101, 100))  # 1% too large
    with pytest.raises(InvariantViolation) as info:
        run_perceptron(ds, certificate=wrong)
    assert info.value.theorem in {"N1", "N3"}
    assert "after update" in str(info.value) and "gamma2" in str(info.value)
    small_R = dataclasses.replace(cert, R2=Fraction(1, 2))
    with pytest.raises(InvariantViolation, match="N2"):
        run_perceptron(ds, certificate=small_R)


@pytest.mark.parametrize("n", list(range(1, 51)))
def test_t1_bound_is_attained(n: int) -> None:
    for ds in (
        basis_dataset(n),
        rotated_basis_dataset(n, seed=7 * n),
        basis_dataset(n, scale=Fraction(5, 3)),
    ):
        cert = certify(ds)
        assert isinstance(cert, SeparableCertificate)
        run = run_perceptron(ds, certificate=cert)
        assert run.updates == [(0, i) for i in range(n)]
        assert T1.check({"n": n, "k": run.mistakes, "R2": cert.R2 / cert.R2, "gamma2": cert.gamma2 / cert.R2})
        assert N3.check({"k": run.mistakes, "gamma2": cert.gamma2, "R2": cert.R2})
        assert cert.bound == n == run.mistakes


@given(t1_datasets())
def test_t1_family_property(pair: tuple[int, Dataset]) -> None:
    n, ds = pair
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate) and cert.bound == n
    assert run_perceptron(ds, certificate=cert).mistakes == n


def test_t1_is_symbolically_true() -> None:
    import sympy as sp

    from novikoff.spec.perceptron import k
    from novikoff.spec.tightness import n as n_sym

    values = {h.lhs: h.rhs for h in T1.hypotheses}
    assert T1.conclusion.subs(values) is sp.true  # k = R2/gamma2 for symbolic n
    values[k] = n_sym + 1  # one update more than n would contradict the bound
    assert T1.conclusion.subs(values) is sp.false


def test_cayley_matrices_are_orthogonal() -> None:
    for size in (1, 2, 5, 9):
        Q = cayley_orthogonal(size, seed=size)
        for i in range(size):
            for j in range(size):
                assert sum((Q[a][i] * Q[a][j] for a in range(size)), Fraction(0)) == (1 if i == j else 0)


@given(certified_separable(max_dim=5, max_samples=8), st.data())
def test_g1_transforms_keep_the_update_sequence(
    pair: tuple[Dataset, SeparableCertificate], data: st.DataObject
) -> None:
    ds, _cert = pair
    order = data.draw(orderings(ds.n_samples))
    base = run_perceptron(ds, order=order).updates
    factor = data.draw(st.sampled_from([Fraction(1, 3), Fraction(2), Fraction(7, 5)]))
    assert run_perceptron(scale_patterns(ds, factor), order=order).updates == base
    Q = cayley_orthogonal(ds.dimension, seed=data.draw(st.integers(0, 100)))
    assert run_perceptron(rotate_patterns(ds, Q), order=order).updates == base
    assert run_perceptron(pad_zero_features(ds, data.draw(st.integers(1, 3))), order=order).updates == base


@given(certified_separable(max_dim=5, max_samples=8), st.sampled_from([1, Fraction(3, 2), 4]))
def test_g1_point_along_pstar_keeps_gamma(pair: tuple[Dataset, SeparableCertificate], c: Fraction) -> None:
    ds, cert = pair
    bigger = certify(add_point_along_pstar(ds, cert.pstar, c))
    assert isinstance(bigger, SeparableCertificate)
    assert G1_ADD_POINT.check(
        {"c": c, "gamma2": cert.gamma2, "R2": cert.R2, "gamma2_new": bigger.gamma2, "R2_new": bigger.R2}
    )


def test_orders_and_limits() -> None:
    ds = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, 1, -1])
    natural = run_perceptron(ds)
    assert run_perceptron(ds, order=[0, 1, 2]).updates == natural.updates
    reverse = run_perceptron(ds, order=[[2, 1, 0]])
    check_run(ds, reverse.updates, exact_weights(reverse), reverse.epochs, reverse.converged, [[2, 1, 0]])
    shuffled = run_perceptron(ds, order="shuffle:5")
    assert shuffled.updates == run_perceptron(ds, order="shuffle:5").updates  # seeded = reproducible
    for bad in (
        [0, 1],
        [0, 1, 1],
        "shuffle:x",
        "shuffle:-1",
        "random",
        [[0, 1, 2], [0, 0, 0]],
        [[0, "a", 2]],
        [0.0, 1.0, 2.0],
        5,
        [],
        [[0, 1, 2], 3],
    ):
        with pytest.raises(InputError):
            run_perceptron(ds, order=bad)  # type: ignore[arg-type]
    for bad_epochs in (0, -1, 1.5, True):
        with pytest.raises(InputError):
            run_perceptron(ds, max_epochs=bad_epochs)  # type: ignore[arg-type]


def test_run_replay_rejects_a_forged_run() -> None:
    ds = Dataset.from_arrays([[1, 0], [0, 1], [-1, -1]], [1, 1, -1])
    run = run_perceptron(ds)
    with pytest.raises(CertificateError):
        check_run(ds, run.updates[:-1], exact_weights(run), run.epochs, run.converged)
    with pytest.raises(CertificateError):
        check_run(ds, run.updates, exact_weights(run), run.epochs, not run.converged)
    with pytest.raises(CertificateError):
        check_run(ds, run.updates, [w + 1 for w in run.weights], run.epochs, run.converged)
    with pytest.raises(CertificateError):
        check_run(ds, run.updates, exact_weights(run), run.epochs + 1, run.converged)
