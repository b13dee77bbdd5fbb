"""certify at real sizes: the float warm start that scales, the geometric margin started only on
separable data, the run's epochs on separable data, and outputs unchanged on the shipped data."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import novikoff.certificates.solver as solver
from novikoff import cli
from novikoff.certificates import GordanCertificate, SeparableCertificate, certify
from novikoff.certificates.solver import GeometricMarginStarted, geometric_margin
from novikoff.certificates.warm_start import simplex_min_norm
from novikoff.commands.certify import run_epochs
from novikoff.data.dataset import Dataset
from novikoff.runtime.runlog import RunBounds, stop_text

# SHA-256 of `novikoff certify NAME.csv --json` and of the `--certificate` file, run in the
# shared folder, as written by this project before the scalable warm start (commit 3fca3a0):
# the new guesses must not change a byte of what users get on these files
GOLDEN = {
    "vec100_1": (
        "2172cf2220026c98c0c2672224a500e852050ca8d832980db3c973cda40bff64",
        "26159e44bfbee68ecefada40cf41fb13464886e82b7fd7f6d206d8c45b27bf4b",
    ),
    "vec200_1": (
        "b490b1bf2bd82ca36f2b6b5a034ef7c795afd61eb174a23e5c9084263bb81d80",
        "34f330a233ff7e690efd529c6dd4e0ce02b4c82249d69e60a5b01a2b92a20b56",
    ),
    "vec400_1": (
        "ea97e79907d6bf83671ecd1c4d3fce43c94b925527f8986fc90cc304e87a26e1",
        "46fa9e16417657f9328e2779a2c4c66ee272d6532b982d478f87f70c410c1d6e",
    ),
    "rocks_and_mines": (
        "b94cc71877d752014b77db7cb28bde7ffc412233faa65817a0220fb902c9d6f6",
        "2555dae72dfcf9677e48fe366c22471961bf7fd5b5fad37f581c9e303a265cd3",
    ),
    "iris_setosa": (
        "8b11674691bce7bfa3842130c3dc968151d1ec48a9a33f111c710d9c00137e27",
        "04a980fbbf4375e4d8271b38a657bc3236e3dc75c8f4231671f397c290c109e8",
    ),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_json_and_certificate_files_are_unchanged_on_the_shipped_data(
    coq_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
) -> None:
    monkeypatch.chdir(coq_dir)  # the report names the file as given
    assert cli.main(["certify", f"{name}.csv", "--json"]) == 0
    out = capsys.readouterr().out
    target = tmp_path / "c.json"
    assert cli.main(["certify", f"{name}.csv", "--certificate", str(target)]) == 0
    capsys.readouterr()
    assert hashlib.sha256(out.encode()).hexdigest() == GOLDEN[name][0]
    assert hashlib.sha256(target.read_bytes()).hexdigest() == GOLDEN[name][1]


def _planted(m: int, d: int, seed: int, noise: float = 0.0) -> Dataset:
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d)
    w[0] = 7
    X = rng.integers(-30, 31, size=(4 * m, d))
    s = np.abs(X @ w)
    X = X[s >= 0.05 * s.max()][:m]
    y = np.where(X @ w > 0, 1, -1)
    if noise:
        y[rng.random(len(y)) < noise] *= -1
    return Dataset.from_arrays(X, y)


def _kkt_gap(Z: np.ndarray, groups: np.ndarray, lam: np.ndarray) -> float:
    """The worst violation of the min-norm point's optimality (each group's scores at least
    its multiplier), relative to max ||z||^2 (the scale of every score)."""
    v = Z.T @ lam
    scores = Z @ v
    worst = 0.0
    for k in np.unique(groups):
        rows = groups == k
        mu = float(lam[rows] @ scores[rows])
        worst = max(worst, float(mu - scores[rows].min()))
    return worst / float((Z * Z).sum(axis=1).max())


@settings(max_examples=30, deadline=None)
@given(st.integers(5, 400), st.integers(1, 12), st.integers(0, 2**32 - 1), st.booleans())
def test_the_float_guess_meets_the_constraints_and_optimality(m: int, d: int, seed: int, two: bool) -> None:
    rng = np.random.default_rng(seed)
    Z = rng.integers(-9, 10, size=(m, d)).astype(float) + np.r_[3.0, np.zeros(d - 1)]
    groups = (rng.random(m) < 0.5).astype(int) if two else np.zeros(m, dtype=int)
    if two and len(set(groups.tolist())) < 2:
        groups[0] = 1 - groups[0]
    lam = simplex_min_norm(Z, groups if two else None)
    assert lam is not None and lam.shape == (m,) and (lam >= 0).all()
    for k in np.unique(groups):
        assert lam[groups == k].sum() == pytest.approx(1.0, abs=1e-9)
    assert _kkt_gap(Z, groups, lam) <= 1e-9


def test_the_guess_refuses_non_finite_data_and_ignores_a_bad_seed() -> None:
    Z = np.array([[1.0, 2.0], [np.inf, 0.0]])
    assert simplex_min_norm(Z) is None
    Z = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]])
    plain = simplex_min_norm(Z)
    for seed in (np.array([-1.0, 1.0, 1.0]), np.array([1.0, 1.0]), np.array([np.nan, 1.0, 1.0])):
        assert np.array_equal(simplex_min_norm(Z, start=seed), plain)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_certificates_do_not_depend_on_the_guess(seed: int) -> None:
    # the guess only decides where the exact Wolfe iteration starts: with it and without it
    # (a cold start) the same checked certificate, separable or not
    ds = _planted(300, 6, seed, noise=0.03 if seed % 2 else 0.0)
    guessed = certify(ds)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solver, "_float_weights", lambda rows, groups=None, start=None: None)
        cold = certify(ds)
    if isinstance(guessed, SeparableCertificate):
        assert guessed == cold  # the min-norm points and, generically, their weights are unique
    else:
        assert isinstance(cold, GordanCertificate)  # both prove it: the weights may differ


def test_the_geometric_margin_starts_only_on_separable_data() -> None:
    noisy = _planted(200, 4, 7, noise=0.1)
    main = certify(noisy, geometric=False)
    assert isinstance(main, GordanCertificate)
    calls: list[object] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solver, "geometric_margin", lambda *a: calls.append(a))
        started = GeometricMarginStarted(noisy, seed=main)
        assert started.result() is None
    assert calls == []  # the hulls meet: nothing computed, nothing forked
    clean = _planted(200, 4, 7)
    sep = certify(clean, geometric=False)
    assert isinstance(sep, SeparableCertificate)
    seeded = GeometricMarginStarted(clean, seed=sep).result()
    assert seeded is not None and seeded == geometric_margin(clean)


def test_a_separable_run_gets_its_epochs_when_the_bound_allows_the_updates() -> None:
    ds = _planted(1500, 3, 1)
    sep = certify(ds, geometric=False)
    assert isinstance(sep, SeparableCertificate)
    few = int(sep.bound) + 1  # fewer presentations allowed than samples: N // m = 0 epochs
    assert few < ds.n_samples
    epochs, proven = run_epochs(RunBounds(1000, few), ds.n_samples, sep)
    assert proven and epochs == min(1000, int(sep.bound) + 1)
    epochs, proven = run_epochs(RunBounds(1000, few), ds.n_samples, None)
    assert not proven and epochs == 1


def test_the_cli_run_on_separable_data_is_not_cut_by_max_updates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ds = _planted(1500, 3, 1)
    path = tmp_path / "p.csv"
    path.write_text("".join(",".join(map(str, [*r, y])) + "\n" for r, y in zip(ds.numerators, ds.labels)))
    sep = certify(ds, geometric=False)
    assert isinstance(sep, SeparableCertificate)
    assert cli.main(["certify", str(path), "--json", "--max-updates", str(int(sep.bound) + 1)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["perceptron"]["converged"] and report["perceptron"]["stopped_by"] is None
    assert report["perceptron"]["epochs"] > 1


def test_the_stop_text_says_what_max_updates_allowed() -> None:
    bounds = RunBounds(1000, 1_000_000)
    assert stop_text("max_updates", bounds, 100_000) == (
        "--max-updates 1000000: at most 10 epochs of 100000 presentations"
    )
    assert (
        stop_text("max_updates", RunBounds(1000, 5), 100)
        == "--max-updates 5: at most 1 epoch of 100 presentations"
    )
    assert stop_text("max_epochs", bounds, 10) == "--max-epochs 1000"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the geometric margin forks on large data")
def test_large_data_fork_gives_the_same_certificate_as_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    ds = _planted(6000, 20, 3)  # 6000 x 21 patterns: above the size that forks helpers
    forked = certify(ds)
    monkeypatch.setenv("NOVIKOFF_NO_FORK", "1")
    alone = certify(ds)
    assert isinstance(forked, SeparableCertificate) and forked.geometric is not None
    assert forked == alone


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_cancelled_geometric_margin_kills_its_child_at_once() -> None:
    from novikoff.runtime.parallel import live_children

    noisy = _planted(6000, 20, 5, noise=0.1)  # large enough to fork; not separable
    started = GeometricMarginStarted(noisy)  # unseeded: it would search the whole hull pair
    assert live_children(), "expected a forked child"
    started.cancel()
    assert live_children() == [] and started.result() is None


def test_certify_calls_on_guess_once_before_its_exact_work() -> None:
    ds = _planted(300, 5, 2)
    seen: list[object] = []
    cert = certify(ds, geometric=False, on_guess=seen.append)
    assert len(seen) == 1 and isinstance(seen[0], list) and len(seen[0]) == ds.n_samples
    assert isinstance(cert, SeparableCertificate)
    support = {i for i, v in enumerate(cert.lambdas.numerators) if v}
    assert support <= {i for i, w in enumerate(seen[0]) if w > 0}  # the guess held the support
