"""The kernel perceptron: the XOR example, the exact reference's checks, the float twin, the CLI hook.

The XOR numbers are computed independently: the explicit degree-2 feature map (with sqrt(2)
coordinates, in sympy), its Gram matrix, the minimum-norm value by brute force over every
support, and the primal perceptron run on the explicit feature vectors.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.certificates import certify
from novikoff.certificates.kernel_checker import KernelCertificate
from novikoff.certificates.kernel_solver import certify_kernel
from novikoff.cli import main
from novikoff.commands.kernel import add_kernel_argument, kernel_arg, kernel_certify
from novikoff.data.dataset import Dataset
from novikoff.data.examples import load_example
from novikoff.data.kernels import parse_kernel
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.kernel_perceptron import run_kernel_perceptron
from novikoff.runtime.runs import epoch_order
from novikoff.twins.kernel_perceptron import KernelTwinRun, kernel_perceptron_twin

XOR_POINTS = [(0, 0), (0, 1), (1, 0), (1, 1)]
XOR_LABELS = [-1, 1, 1, -1]


def xor_features() -> list[sp.Matrix]:
    """z_i = y_i phi~(x_i) for (x.x' + 1)^2 + 1: phi = (x1^2, x2^2, r x1 x2, r x1, r x2, 1), r = sqrt 2,
    and the bias coordinate rho = 1."""
    r = sp.sqrt(2)
    return [
        y * sp.Matrix([a * a, b * b, r * a * b, r * a, r * b, 1, 1])
        for (a, b), y in zip(XOR_POINTS, XOR_LABELS)
    ]


def brute_min_norm(G: sp.Matrix) -> sp.Rational:
    """min over the simplex of l^T G l, by every support's affine minimizer with l >= 0."""
    n = G.shape[0]
    best = None
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            A = sp.zeros(size + 1, size + 1)
            for a, i in enumerate(S):
                for b, j in enumerate(S):
                    A[a, b] = G[i, j]
                A[a, size] = A[size, a] = 1
            if A.det() == 0:
                continue
            sol = A.LUsolve(sp.Matrix([0] * size + [1]))
            lam = sol[:size]
            if any(v < 0 for v in lam):
                continue
            value = sp.nsimplify(
                sum(lam[a] * G[i, j] * lam[b] for a, i in enumerate(S) for b, j in enumerate(S))
            )
            best = value if best is None or value < best else best
    assert best is not None
    return best


@dataclass(frozen=True)
class XorTruth:
    R2: Fraction
    gamma2: Fraction
    updates: tuple[tuple[int, int], ...]


@pytest.fixture(scope="module")
def xor_truth() -> XorTruth:
    Z = xor_features()
    G = sp.Matrix(4, 4, lambda i, j: sp.expand((Z[i].T * Z[j])[0]))
    R2 = max(G[i, i] for i in range(4))
    gamma2 = brute_min_norm(G)
    # the primal perceptron on the explicit feature vectors, natural order
    w = sp.zeros(7, 1)
    updates = []
    for epoch in range(100):
        clean = True
        for i in range(4):
            if sp.expand((w.T * Z[i])[0]) <= 0:
                w += Z[i]
                updates.append((epoch, i))
                clean = False
        if clean:
            break
    return XorTruth(Fraction(str(R2)), Fraction(str(gamma2)), tuple(updates))


def test_xor_linear_is_not_separable_and_poly2_is(xor_truth: XorTruth) -> None:
    ds = load_example("xor")
    assert not certify(ds).separable
    cert = certify_kernel(ds, parse_kernel("poly:2"))
    assert cert.separable
    assert cert.R2 == xor_truth.R2
    assert cert.gamma2 == xor_truth.gamma2
    run = run_kernel_perceptron(ds, parse_kernel("poly:2"), certificate=cert)
    assert run.converged
    assert run.updates == xor_truth.updates
    assert run.bound == cert.R2 / cert.gamma2 and run.mistakes <= run.bound
    assert run.invariants_checked == 3 * run.mistakes


def test_xor_in_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "example:xor", "--json", "--max-epochs", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["separable"] is False and report["n_samples"] == 4


def test_alphas_count_the_updates_in_any_order() -> None:
    ds = load_example("exercise-6.1")
    for order in (None, "shuffle:3"):
        run = run_kernel_perceptron(ds, parse_kernel("poly:3:1/2"), order=order)
        assert run.converged
        assert Counter(run.update_indices) == {i: a for i, a in enumerate(run.alphas) if a}
        # converged: every sample has y_i f(x_i) > 0 under the final alphas (exact, from the formula)
        X = [ds.features(i) for i in range(ds.n_samples)]
        for i in range(ds.n_samples):
            f = sum(
                a * ds.labels[j] * ((sum(p * q for p, q in zip(X[j], X[i])) + Fraction(1, 2)) ** 3 + 1)
                for j, a in enumerate(run.alphas)
            )
            assert ds.labels[i] * f > 0


def test_non_separable_runs_stop_at_max_epochs() -> None:
    run = run_kernel_perceptron(load_example("xor"), parse_kernel("poly:1"), max_epochs=7)
    assert (run.converged, run.epochs, run.mistakes) == (False, 7, 28)
    assert run.bound is None and run.invariants_checked == 28  # N2 only
    with pytest.raises(InputError, match="max_epochs"):
        run_kernel_perceptron(load_example("xor"), parse_kernel("poly:1"), max_epochs=0)


def test_the_checks_catch_a_wrong_certificate() -> None:
    """A certificate claiming too large a margin (or too small a radius) breaks N1/N3 (N2) on the run."""
    ds = load_example("xor")
    spec = parse_kernel("poly:2")
    true = certify_kernel(ds, spec)
    big_margin = KernelCertificate(true.kernel, true.lambdas, Fraction(1), true.R2)
    with pytest.raises(InvariantViolation) as info:
        run_kernel_perceptron(ds, spec, certificate=big_margin)
    assert info.value.theorem in {"N1", "N3"}
    small_radius = KernelCertificate(true.kernel, true.lambdas, true.gamma2, Fraction(1))
    with pytest.raises(InvariantViolation) as info:
        run_kernel_perceptron(ds, spec, certificate=small_radius)
    assert info.value.theorem == "N2"


# ------------------------------------------------------------------ the float twin


@settings(max_examples=20, deadline=None)
@given(
    rows=st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=2), min_size=2, max_size=6),
    labels=st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=6),
    kernel=st.sampled_from(["poly:1:0", "poly:2", "poly:2:0", "poly:3:1/2"]),
    rho=st.sampled_from([0, 1]),
    order=st.sampled_from([None, "shuffle:1"]),
)
def test_poly_twin_makes_the_references_updates(
    rows: list[list[int]], labels: list[int], kernel: str, rho: int, order: str | None
) -> None:
    ds = Dataset.from_arrays(np.array(rows) / 2, labels[: len(rows)], bias=rho)  # float-exact halves
    assert ds.is_float_exact()
    spec = parse_kernel(kernel)
    ref = run_kernel_perceptron(ds, spec, order=order, max_epochs=20, check=False)
    twin = kernel_perceptron_twin(ds, kernel=kernel, order=order, max_epochs=20)
    assert (twin.updates, twin.alphas, twin.epochs, twin.converged) == (
        ref.updates,
        ref.alphas,
        ref.epochs,
        ref.converged,
    )
    assert twin.retaken == len(twin.ambiguous)


@pytest.mark.parametrize("kernel", ["poly:2", "poly:3:1/3"])
def test_poly_twin_on_gaussian_floats(kernel: str) -> None:
    """Inexact float arithmetic (and C = 1/3, not a float): the unflagged float decisions and the
    re-taken ones together give the exact run on the same float data."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(12, 3))
    y = [1 if a * b > 0 else -1 for a, b in zip(X[:, 0], X[:, 1])]
    ds = Dataset.from_arrays(X, y)
    ref = run_kernel_perceptron(ds, parse_kernel(kernel), max_epochs=40, check=False)
    twin = kernel_perceptron_twin(X, y, kernel=kernel, max_epochs=40)
    assert ref.mistakes > 12
    assert (twin.updates, twin.converged) == (ref.updates, ref.converged)


def test_poly_twin_retakes_a_sum_that_floats_get_wrong() -> None:
    """z = (2^53, 0), (0, 1), (-2^53, 0), (1, 1) with poly:1:0 and no bias: after the first three
    updates the value at the last sample is 2^53 + 1 - 2^53 = 1 > 0 (no update), but float64
    sums it to 0 (an update). The bound must flag it and the exact re-take must get it right."""
    M = 2.0**53
    X = [[M, 0.0], [0.0, 1.0], [M, 0.0], [1.0, 1.0]]
    y = [1, 1, -1, 1]
    twin = kernel_perceptron_twin(X, y, kernel="poly:1:0", bias=0.0, max_epochs=5)
    ref = run_kernel_perceptron(Dataset.from_arrays(X, y, bias=0), parse_kernel("poly:1:0"), max_epochs=5)
    assert ref.updates[:3] == ((0, 0), (0, 1), (0, 2)) and (0, 3) not in ref.updates
    assert (0, 3) in twin.ambiguous and twin.retaken >= 1
    assert twin.updates == ref.updates


def test_twin_takes_arrays_and_refuses_bad_input() -> None:
    X = np.array(XOR_POINTS, dtype=float)
    run = kernel_perceptron_twin(X, [0, 1, 1, 0], kernel="poly:2", bias=1.0)
    assert run.updates == run_kernel_perceptron(load_example("xor"), parse_kernel("poly:2")).updates
    with pytest.raises(InputError, match="y is required"):
        kernel_perceptron_twin(X, kernel="poly:2")
    with pytest.raises(InputError, match="'poly:x'"):
        kernel_perceptron_twin(X, [0, 1, 1, 0], kernel="poly:x")
    with pytest.raises(InputError, match="bias"):
        kernel_perceptron_twin(X, [0, 1, 1, 0], kernel="rbf:1", bias=-1.0)


def test_rbf_flags_an_exact_tie() -> None:
    """x = 0 (+), 1 (-), 1/2 (+), no bias: after the first two updates the value at 1/2 is
    exp(-1/4) - exp(-1/4) = 0 exactly, a tie the float sign cannot settle: it must be flagged."""
    run = kernel_perceptron_twin([[0.0], [1.0], [0.5]], [1, -1, 1], kernel="rbf:1", bias=0.0, max_epochs=3)
    assert run.updates[:3] == ((0, 0), (0, 1), (0, 2))
    assert (0, 2) in run.ambiguous and (0, 0) not in run.ambiguous and run.retaken == 0


def _replay_signs(
    X: np.ndarray, y: list[int], gamma: float, rho: float, run: KernelTwinRun, order: str | None
) -> int:
    """Replay the twin's run at 60 digits; return how many unflagged decisions were checked.
    Each unflagged decision must have the sign of the high-precision value."""
    mpmath.mp.dps = 60
    m = len(y)
    K = [
        [
            mpmath.exp(
                -mpmath.mpf(gamma) * sum((mpmath.mpf(a) - mpmath.mpf(b)) ** 2 for a, b in zip(X[i], X[j]))
            )
            + mpmath.mpf(rho) ** 2
            for j in range(m)
        ]
        for i in range(m)
    ]
    updates = set(run.updates)
    flagged = set(run.ambiguous)
    alphas = [0] * m
    presentation = epoch_order(order, m)
    checked = 0
    for epoch in range(run.epochs):
        for i in presentation(epoch):
            value = sum(alphas[j] * y[i] * y[j] * K[i][j] for j in range(m) if alphas[j])
            took = (epoch, i) in updates
            if (epoch, i) not in flagged:
                assert took == (value <= 0), (epoch, i, value)
                checked += 1
            if took:
                alphas[i] += 1
    return checked


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    gamma=st.sampled_from(["1", "1/2", "3"]),
    rho=st.sampled_from([0.0, 1.0]),
)
def test_rbf_unflagged_decisions_are_exact(seed: int, gamma: str, rho: float) -> None:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(7, 2))
    y = [int(v) for v in rng.choice([-1, 1], size=7)]
    run = kernel_perceptron_twin(X, y, kernel=f"rbf:{gamma}", bias=rho, max_epochs=15)
    assert _replay_signs(X, y, float(Fraction(gamma)), rho, run, None) > 0


# ------------------------------------------------------------------ the CLI hook


def _args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_kernel_argument(p)
    p.add_argument("--order", default="natural")
    p.add_argument("--max-epochs", type=int, default=1000)
    p.add_argument("--max-updates", type=int, default=1_000_000)
    p.add_argument("--record", type=int, default=50)
    p.add_argument("--coq", default=None)
    return p.parse_args(argv)


def test_kernel_certify_report(xor_truth: XorTruth) -> None:
    status, report, text = kernel_certify(_args("--kernel", "poly:2"), load_example("xor"))
    assert status == 0
    assert report["separable"] is True and report["kernel"] == "poly:2:1"
    assert Fraction(report["gamma2"]) == xor_truth.gamma2 and Fraction(str(report["R2"])) == xor_truth.R2
    assert Fraction(report["bound"]) == xor_truth.R2 / xor_truth.gamma2
    assert report["perceptron"]["mistakes"] == len(xor_truth.updates)
    assert report["perceptron"]["within_bound"] is True and report["perceptron"]["converged"] is True
    assert sum(report["perceptron"]["alphas"]) == report["perceptron"]["mistakes"]
    assert "separable in feature space: yes" in text and "N1-N3 held" in text
    json.dumps(report)  # plain JSON


def test_kernel_certify_non_separable_and_bounds() -> None:
    status, report, text = kernel_certify(
        _args("--kernel", "poly:1", "--max-updates", "8", "--record", "2"), load_example("xor")
    )
    assert status == 0 and report["separable"] is False and report["bound"] is None
    run = report["perceptron"]
    assert run["stopped_by"] == "max_updates" and run["mistakes"] == 8
    assert run["updates_omitted"] == 4 and len(run["updates"]) == 2
    assert "separable in feature space: no" in text and "--max-updates" in text


def test_kernel_option_errors() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="float-only"):
        kernel_arg("rbf:1")
    # --coq has a kernel form now (tests/coq/test_coq_kernel_certificate.py); --certificate has none
    with pytest.raises(InputError, match="--certificate"):
        kernel_certify(argparse.Namespace(kernel="poly:2", certificate="c.json"), load_example("xor"))
