"""The PDM paper's protocol options of the float twins: multiple updates only from a given
full epoch on, and the first epoch's own level-1 parameter."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sps

from novikoff.errors import InputError
from novikoff.runtime.runs import TwinEngine
from novikoff.twins import compiled_large_margin
from novikoff.twins.large_margin import TwinRun, pdm_succ_twin, pdm_twin, pfm_twin

EPS = Fraction(1, 50)


def planted(seed: int = 11, m: int = 300, d: int = 30) -> tuple[sps.csr_matrix, np.ndarray]:
    """Sparse data with a planted margin of 0.1 (PDM and PFM(1/50) converge)."""
    rng = np.random.default_rng(seed)
    X = sps.random(m, d, density=0.3, format="csr", random_state=seed)
    X.data = rng.normal(size=X.nnz)
    w = rng.normal(size=d)
    s = X @ (w / np.linalg.norm(w))
    keep = np.abs(s) >= 0.1
    return X[keep], np.where(s[keep] > 0, 1.0, -1.0)


def epoch_updates(run: TwinRun, epoch: int) -> list[tuple[int, int]]:
    return [u for u in run.updates if u[0] == epoch]


def repeats(run: TwinRun, epoch: int) -> int:
    """How many updates of ``epoch`` repeat the one before (a multiple update's count > 1)."""
    ups = epoch_updates(run, epoch)
    return sum(a == b for a, b in itertools.pairwise(ups))


@pytest.mark.parametrize("active", [False, True])
def test_multiple_updates_from_epoch_one_make_single_updates_in_epoch_zero(active: bool) -> None:
    X, y = planted()
    kw: dict[str, Any] = {"active_sets": active, "engine": "numpy", "max_epochs": 5000}
    late = pdm_twin(X, y, eps=EPS, multiple_updates=True, multiple_from_epoch=1, **kw)
    single = pdm_twin(X, y, eps=EPS, multiple_updates=False, **kw)
    early = pdm_twin(X, y, eps=EPS, multiple_updates=True, **kw)
    assert late.converged and late.epochs > 1
    # epoch 0 is the single-update run's epoch 0, update for update
    assert epoch_updates(late, 0) == epoch_updates(single, 0)
    assert repeats(late, 0) == 0
    # and multiple updates do happen later, so the option is not "never"
    assert sum(repeats(late, e) for e in range(1, late.epochs)) > 0
    # from epoch 0 they happen at once: a different run
    assert repeats(early, 0) > 0 and early.updates != late.updates


def test_multiple_from_epoch_counts_epochs_over_pdm_succ_stages() -> None:
    X, y = planted()
    eps = [Fraction(1, 2), Fraction(1, 4), EPS]
    run = pdm_succ_twin(X, y, epsilons=eps, multiple_updates=True, multiple_from_epoch=3, engine="numpy")
    single = pdm_succ_twin(X, y, epsilons=eps, engine="numpy")
    assert run.converged
    first = [u for u in run.updates if u[0] < 3]
    assert first == [u for u in single.updates if u[0] < 3]


def test_first_level1_changes_only_the_first_epochs_level_and_keeps_d2() -> None:
    X, y = planted()
    kw: dict[str, Any] = {"multiple_updates": True, "active_sets": True, "engine": "numpy"}
    base = pdm_twin(X, y, eps=EPS, **kw)
    wide = pdm_twin(X, y, eps=EPS, first_level1=100.0, **kw)  # every sample in level 1 at first
    assert base.converged and wide.converged
    assert base.updates != wide.updates  # the option is seen
    # the schedule differs, the decisions do not: the final clean pass holds for the wide run
    Z = sps.diags(y) @ sps.hstack([X, np.ones((X.shape[0], 1))], format="csr")
    w = np.asarray(wide.weights)
    t = wide.mistakes
    assert float((t * (Z @ w)).min()) > (1 - float(EPS)) * float(w @ w)


@pytest.mark.skipif(not compiled_large_margin.available(), reason="numba is not installed")
@pytest.mark.parametrize("algorithm", ["pdm", "pfm", "pdm-succ"])
def test_both_engines_make_the_same_run_with_the_protocol_options(algorithm: str) -> None:
    X, y = planted(seed=5)
    opts: dict[str, Any] = {
        "multiple_updates": True,
        "active_sets": True,
        "multiple_from_epoch": 1,
        "first_level1": 3.0,
    }

    def go(engine: TwinEngine) -> TwinRun:
        if algorithm == "pdm":
            return pdm_twin(X, y, eps=EPS, engine=engine, **opts)
        if algorithm == "pfm":
            return pfm_twin(X, y, beta=Fraction(1, 50), engine=engine, **opts)
        return pdm_succ_twin(X, y, epsilons=[Fraction(1, 2), EPS], engine=engine, **opts)

    a, b = go("numpy"), go("compiled")
    assert a.converged and a.engine == "numpy" and b.engine == "compiled"
    assert a.updates == b.updates and np.array_equal(np.asarray(a.weights), np.asarray(b.weights))
    assert (a.epochs, a.mini_epochs) == (b.epochs, b.mini_epochs)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"multiple_from_epoch": -1}, "multiple_from_epoch must be an integer >= 0, got -1"),
        ({"multiple_from_epoch": 1.5}, "multiple_from_epoch must be an integer >= 0, got 1.5"),
        ({"multiple_from_epoch": True}, "multiple_from_epoch must be an integer >= 0, got True"),
        ({"first_level1": 0.0}, "first_level1 must be a positive finite number, got 0.0"),
        ({"first_level1": float("inf")}, "first_level1 must be a positive finite number, got inf"),
        ({"first_level1": "2"}, "first_level1 must be a positive number, got '2'"),
    ],
)
def test_bad_protocol_options_are_clear_errors(options: dict[str, Any], message: str) -> None:
    X, y = planted(m=40, d=5)
    with pytest.raises(InputError) as err:
        pdm_twin(X, y, eps=EPS, **options)
    assert str(err.value) == message


def test_three_level_active_sets_converge_to_an_exact_clean_pass() -> None:
    X, y = planted()
    two = pdm_twin(X, y, eps=EPS, multiple_updates=True, active_sets=True, engine="numpy")
    three = pdm_twin(
        X, y, eps=EPS, multiple_updates=True, active_sets=True, engine="numpy", three_levels=True
    )
    assert three.converged and three.engine == "numpy"
    assert three.updates != two.updates  # a different presentation schedule
    Z = sps.diags(y) @ sps.hstack([X, np.ones((X.shape[0], 1))], format="csr")
    w = np.asarray(three.weights)
    assert float((three.mistakes * (Z @ w)).min()) > (1 - float(EPS)) * float(w @ w)
    pfm = pfm_twin(X, y, beta=Fraction(1, 50), multiple_updates=True, active_sets=True, three_levels=True)
    assert pfm.converged and pfm.engine == "numpy"  # "auto" stays on numpy for three levels


def test_three_levels_without_active_sets_is_the_plain_run() -> None:
    X, y = planted(m=80, d=6)
    a = pdm_twin(X, y, eps=EPS, engine="numpy")
    b = pdm_twin(X, y, eps=EPS, engine="numpy", three_levels=True)
    assert a.updates == b.updates


def test_three_levels_refuse_the_compiled_engine_and_non_booleans() -> None:
    X, y = planted(m=40, d=5)
    with pytest.raises(InputError, match="numpy engine only"):
        pdm_twin(X, y, eps=EPS, active_sets=True, three_levels=True, engine="compiled")
    with pytest.raises(InputError, match="three_levels must be True or False, got 1"):
        pdm_twin(X, y, eps=EPS, three_levels=1)  # type: ignore[arg-type]
