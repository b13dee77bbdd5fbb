"""MSVMAv: reference (exact M, S2 at every iteration) against the Sherman-Morrison twin, the
grid fast path against the twin, and the Table 1 benchmark's SVM solver and t-test markers."""

from __future__ import annotations

import importlib.util
import json
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from flint import fmpq, fmpq_mat
from hypothesis import assume, given
from hypothesis import strategies as st

import novikoff.reference.msvmav as ref_module
from novikoff import cli
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.msvmav import run_msvmav
from novikoff.twins.msvmav import msvmav_grid, msvmav_twin

GRID = [Fraction(2) ** k for k in range(-4, 5, 2)]


@st.composite
def small_problems(draw: st.DrawFn) -> Dataset:
    m, d = draw(st.integers(4, 12)), draw(st.integers(1, 4))
    X = draw(st.lists(st.lists(st.integers(0, 8), min_size=d, max_size=d), min_size=m, max_size=m))
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m))
    assume(len(set(y)) == 2)
    return Dataset.from_arrays(np.array(X) / 8, y)  # features in [0, 1], constant 1 appended


@given(ds=small_problems(), alpha=st.sampled_from(GRID), beta=st.sampled_from(GRID))
def test_the_twin_stays_within_1e9_of_the_reference(ds: Dataset, alpha: Fraction, beta: Fraction) -> None:
    try:
        ref = run_msvmav(ds, alpha, beta, iterations=25)
    except InputError:
        assume(False)  # s = 0: w_0 undefined
        return
    assert ref.s2_checks == 25 and ref.s1_checks == sum(t > 0 for t in ref.theta[1:])  # they raise otherwise
    assume(ref.min_gap > 1e-9)  # no set-A decision near a tie: float64 makes the same decisions
    twin = msvmav_twin(ds, alpha=float(alpha), beta=float(beta), iterations=25)
    w_ref = np.array(ref.float_weights())
    assert np.max(np.abs(twin.weights - w_ref)) <= 1e-9 * np.max(np.abs(w_ref))
    assert twin.active == ref.active


def test_a_wrong_sherman_morrison_step_is_caught_by_s2(monkeypatch: pytest.MonkeyPatch) -> None:
    ds = Dataset.from_arrays([[0, 1], [1, 0], [1, 1], [0, 0], [1, 2]], [1, -1, 1, -1, 1])
    original = ref_module._sm_update

    def off_by_sign(M: fmpq_mat, z: fmpq_mat, nb: fmpq, add: bool) -> fmpq_mat:
        return original(M, z, nb, not add)

    monkeypatch.setattr(ref_module, "_sm_update", off_by_sign)
    with pytest.raises(InvariantViolation, match="S2"):
        run_msvmav(ds, 1, 1, iterations=5)


def test_theta_is_nonnegative_and_bad_parameters_are_refused() -> None:
    ds = Dataset.from_arrays([[0, 1], [1, 0], [1, 1], [0, 0]], [1, -1, 1, -1])
    run = run_msvmav(ds, 1, Fraction(1, 2), iterations=10)
    assert all(t >= 0 for t in run.theta[1:])
    with pytest.raises(InputError, match="alpha must be > 0"):
        run_msvmav(ds, 0, 1)
    with pytest.raises(InputError, match="beta must be > 0"):
        run_msvmav(ds, 1, -1)
    with pytest.raises(InputError, match="alpha and beta"):
        msvmav_twin(ds, alpha=1.0, beta=0.0)


def test_run_cli_msvmav(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "run",
        "example:seed-6.6:3",
        "--algorithm",
        "msvmav",
        "--alpha",
        "1",
        "--beta",
        "1/4",
        "--iterations",
        "10",
    ]
    assert cli.main([*argv, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert cli.main([*argv, "--fast", "--json"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert np.allclose(exact["weights"], fast["weights"], rtol=1e-9, atol=0)
    assert exact["training_errors"] == 0
    assert cli.main(["run", "example:seed-6.6:3", "--algorithm", "msvmav", "--alpha", "0"]) == 2
    assert cli.main(["run", "example:seed-6.6:3", "--algorithm", "msvmav", "--epsilon", "0.1"]) == 2


# --- the grid fast path (msvmav_grid) against the twin -------------------------------------

FULL_GRID = [2.0**k for k in range(-10, 11, 2)]
EPS = float(np.finfo(float).eps)


def _generated(seed: int) -> np.ndarray:
    """z_i = y_i (x_i, 1) for features in [0, 1] and labels that depend on them, with noise."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 80)), int(rng.integers(2, 7))
    X = rng.random((n, d))
    y = np.where(
        X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > np.median(X @ rng.normal(size=d)), 1.0, -1.0
    )
    return np.hstack([X, np.ones((n, 1))]) * y[:, None]


def _tolerance(Z: np.ndarray, beta: float, iterations: int) -> float:
    """Where two float64 runs of the same iteration may differ, from the conditioning.

    Every M is (I + G_A/(n beta))^-1 with G_A <= Z^T Z, so its condition number is at most
    kappa = 1 + lambda_max(Z^T Z)/(n beta); a computed inverse (or a chain of Sherman-Morrison
    steps) applied to a vector is off by about D kappa eps relatively, and each of the T
    iterations adds its own: T D kappa eps, times 16 for the normalization, the sums and the
    margins. The weights are unit vectors, so this bounds the absolute difference.
    """
    n, D = Z.shape
    kappa = 1 + float(np.linalg.eigvalsh(Z.T @ Z)[-1]) / (n * beta)
    return 16 * iterations * D * kappa * EPS


@pytest.mark.parametrize("seed", range(6))
def test_the_grid_gives_the_twins_weights_within_the_conditioning_bound(seed: int) -> None:
    Z = _generated(seed)
    T = 30
    grid = msvmav_grid(Z, FULL_GRID, FULL_GRID, iterations=T, track_gaps=True)
    assert grid.weights.shape == (len(FULL_GRID) ** 2, Z.shape[1])
    compared = 0
    for g in range(len(grid.alpha)):
        a, b = float(grid.alpha[g]), float(grid.beta[g])
        assert (a, b) == (FULL_GRID[g // len(FULL_GRID)], FULL_GRID[g % len(FULL_GRID)])  # alpha-major
        tol = _tolerance(Z, b, T)
        if (
            grid.min_gap[g] <= 1e3 * tol
        ):  # a set-A decision near a tie: another run may decide it the other way
            continue
        twin = msvmav_twin(None, alpha=a, beta=b, iterations=T, patterns=Z)
        assert np.max(np.abs(grid.weights[g] - twin.weights)) <= tol, (a, b)
        compared += 1
    assert compared >= len(grid.alpha) // 2  # the gap filter leaves most of the grid to compare
    assert grid.refreshes > grid.factorizations  # iteration 1: one eigendecomposition for all 121


def test_the_conditioning_bound_is_tight_enough_to_see_a_wrong_beta() -> None:
    Z = _generated(0)
    T = 30
    right = msvmav_grid(Z, FULL_GRID, FULL_GRID, iterations=T)
    wrong = msvmav_grid(Z, FULL_GRID, [b * (1 + 1e-6) for b in FULL_GRID], iterations=T)
    off = [
        np.max(np.abs(right.weights[g] - wrong.weights[g])) > _tolerance(Z, float(right.beta[g]), T)
        for g in range(len(right.alpha))
    ]
    assert sum(off) >= len(off) // 2


@pytest.mark.parametrize("iterations", [0, 1, 2, 7, 100])
def test_the_grid_matches_the_twin_at_every_length_including_frozen_points(iterations: int) -> None:
    Z = _generated(3)
    alphas, betas = [2.0**-10, 1.0, 2.0**10], [2.0**-10, 1.0, 2.0**10]
    grid = msvmav_grid(Z, alphas, betas, iterations=iterations)
    for g in range(len(grid.alpha)):
        twin = msvmav_twin(
            None, alpha=float(grid.alpha[g]), beta=float(grid.beta[g]), iterations=iterations, patterns=Z
        )
        tol = _tolerance(Z, float(grid.beta[g]), max(iterations, 1))
        assert np.max(np.abs(grid.weights[g] - twin.weights)) <= tol
        assert float((Z @ grid.weights[g]).mean()) >= 0  # theta(w_T) >= 0, as the twin guarantees


def test_the_grid_refuses_bad_input_by_name() -> None:
    Z = _generated(1)
    with pytest.raises(InputError, match="alphas"):
        msvmav_grid(Z, [], [1.0])
    with pytest.raises(InputError, match="betas"):
        msvmav_grid(Z, [1.0], [1.0, -2.0])
    with pytest.raises(InputError, match="alphas"):
        msvmav_grid(Z, [float("nan")], [1.0])
    with pytest.raises(InputError, match="iterations"):
        msvmav_grid(Z, [1.0], [1.0], iterations=-1)
    with pytest.raises(InputError, match="finite 2-d"):
        msvmav_grid(np.ones(3), [1.0], [1.0])
    with pytest.raises(InputError, match="zero"):
        msvmav_grid(np.array([[1.0, 1.0], [-1.0, -1.0]]), [1.0], [1.0])


# --- the Table 1 benchmark's SVM solver and markers -------------------------------------------


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    root = Path(__file__).resolve().parents[2] / "benchmarks"
    sys.path.insert(0, str(root))
    try:
        spec = importlib.util.spec_from_file_location("bench_msvmav_table1", root / "bench_msvmav_table1.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(root))
    return module


def _hinge_objective(Z: np.ndarray, w: np.ndarray, C: float) -> float:
    return float(0.5 * w @ w + C * np.maximum(0, 1 - Z @ w).sum())


@pytest.mark.parametrize("C", [2.0**-6, 1.0, 2.0**6])
def test_the_svm_solver_reaches_the_linearsvc_objective(bench: ModuleType, C: float) -> None:
    from sklearn.svm import LinearSVC

    for seed in range(3):
        Z = _generated(seed)
        w = bench.svm_hinge(Z, C)
        X, y = np.abs(Z[:, :-1]), np.sign(Z[:, -1])  # features were in [0, 1]: |y x| = x
        model = LinearSVC(loss="hinge", C=C, tol=1e-10, max_iter=1_000_000, random_state=0).fit(X, y)
        theirs = np.append(model.coef_.ravel(), model.intercept_)  # intercept_scaling = 1: the same problem
        ours, ref = _hinge_objective(Z, w, C), _hinge_objective(Z, theirs, C)
        assert ours <= ref * (1 + 1e-7)  # LIBLINEAR's converged optimum is no better than ours
        assert ours >= ref * (1 - 1e-5)  # and ours is not better than the optimum by more than its tolerance


def test_the_markers_follow_the_paired_t_test(bench: ModuleType) -> None:
    from scipy.stats import ttest_rel

    rng = np.random.default_rng(0)
    svm = 0.8 + 0.01 * rng.random(30)
    better = svm + 0.005 + 0.001 * rng.random(30)
    noise = svm + 0.01 * rng.normal(size=30)
    assert bench.marker(better, svm) == ("•", float(ttest_rel(better, svm).pvalue))
    assert bench.marker(svm, better)[0] == "◦"
    mark, p = bench.marker(noise, svm)
    assert (mark == "") == (p >= 0.05)
    assert bench.marker(svm, svm) == ("", 1.0)  # identical: no test to run, a tie


def test_an_unfinished_svm_fit_falls_back_to_linearsvc_and_is_counted(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    Z = _generated(4)

    def stalls(Z: np.ndarray, C: float) -> np.ndarray:
        raise RuntimeError("svm_hinge: relative duality gap 1 > 1e-08 (C = 1.0)")

    before = bench.FALLBACKS[0]
    exact = bench.svm_fit(Z, 1.0)
    assert bench.FALLBACKS[0] == before  # svm_hinge finished: no fallback
    monkeypatch.setattr(bench, "svm_hinge", stalls)
    fallback = bench.svm_fit(Z, 1.0)
    assert bench.FALLBACKS[0] == before + 1
    ours, theirs = _hinge_objective(Z, exact, 1.0), _hinge_objective(Z, fallback, 1.0)
    assert ours <= theirs * (1 + 1e-7) and theirs <= ours * (1 + 1e-2)  # the same problem, solved
