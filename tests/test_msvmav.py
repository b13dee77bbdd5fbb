"""MSVMAv: reference (exact M, S2 at every iteration) against the Sherman-Morrison twin."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import novikoff.reference.msvmav as ref_module
from novikoff import cli
from novikoff.data import Dataset
from novikoff.errors import InputError, InvariantViolation
from novikoff.reference.msvmav import run_msvmav
from novikoff.twins.msvmav import msvmav_twin

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

    def off_by_sign(M, z, nb, add):  # type: ignore[no-untyped-def]
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
