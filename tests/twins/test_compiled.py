"""The compiled (numba) scan: the same runs as the numpy scan and the exact reference."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz import float_exact_separable, nonseparable_datasets
from novikoff.reference import run_perceptron
from novikoff.twins import perceptron_twin
from novikoff.twins.exact import exact_perceptron

compiled = pytest.importorskip("novikoff.twins.compiled")
if not compiled.available():  # pragma: no cover
    pytest.skip("numba is not installed", allow_module_level=True)


@pytest.fixture(params=["screened", "batched"])
def kernel_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The kernel both ways: screening even the tiny data sets (production skips it
    below 1024 rows), and without screening, where whole epochs run in batches (what
    production does on small data)."""
    rows = 0 if request.param == "screened" else 10**9
    monkeypatch.setattr(compiled.CompiledEpochs, "MIN_ROWS", rows)
    return str(request.param)


def _planted(m: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Separable integer data with a small margin: hundreds of epochs, screening engages."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d)
    X = rng.integers(-8, 9, size=(4 * m, d))
    s = X @ w
    keep = np.abs(s) >= 2
    return X[keep][:m].astype(float), np.where(s[keep][:m] > 0, 1.0, -1.0)


@pytest.mark.usefixtures("kernel_mode")
@settings(max_examples=60, deadline=None)
@given(float_exact_separable())
def test_compiled_twin_equals_the_reference(ds: Dataset) -> None:
    ref = run_perceptron(ds, max_epochs=10_000)
    for engine in ("compiled", "numpy"):
        run = perceptron_twin(ds, max_epochs=10_000, engine=engine)
        assert run.updates == ref.updates and run.converged == ref.converged
        assert isinstance(run.weights, np.ndarray)  # a float twin's weights are a float64 array
        assert [float(v) for v in ref.weights] == run.weights.tolist()


@pytest.mark.usefixtures("kernel_mode")
@settings(max_examples=30, deadline=None)
@given(nonseparable_datasets(), st.integers(1, 8))
def test_compiled_exact_path_equals_the_reference_on_nonseparable_data(ds: Dataset, epochs: int) -> None:
    ref = run_perceptron(ds, max_epochs=epochs)
    fast = exact_perceptron(ds, max_epochs=epochs, engine="compiled")
    assert (fast.updates, fast.weights, fast.epochs) == (ref.updates, ref.weights, ref.epochs)


def test_screening_engages_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled.CompiledEpochs, "MIN_ROWS", 0)
    X, y = _planted(3000, 12, seed=1)
    Z = np.hstack([X, np.ones((len(X), 1))]) * y[:, None]
    runs = {}
    for screening in (True, False):
        w = np.zeros(Z.shape[1])
        kernel = compiled.CompiledEpochs(Z, w, exact=False, screening=screening)
        updates = []
        for e in range(5000):
            indices, _, stop = kernel.epoch(e)
            assert stop == -1
            updates += [(e, int(i)) for i in indices]
            if indices.size == 0:
                break
        runs[screening] = (updates, w.tolist(), kernel.references)
    assert runs[True][2] > 5, "screening never engaged: the test data are too easy"
    assert runs[False][2] == 0
    assert runs[True][:2] == runs[False][:2]
    numpy_run = perceptron_twin(X, y, max_epochs=5000, engine="numpy")
    assert numpy_run.updates == runs[True][0]  # integer data: every order of summation is exact


def test_screening_changes_nothing_on_inexact_floats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled.CompiledEpochs, "MIN_ROWS", 0)
    # Gaussian data, not separable: rounding everywhere, many updates per epoch late on;
    # the screened and unscreened kernels use the same dot product, so they must agree bit for bit
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((2000, 9))
    Z[:, 0] += 1.5
    runs = []
    for screening in (True, False):
        w = np.zeros(9)
        kernel = compiled.CompiledEpochs(Z, w, exact=False, screening=screening)
        updates = [(e, int(i)) for e in range(60) for i in kernel.epoch(e)[0]]
        runs.append((updates, w.tolist(), kernel.references))
    assert runs[0][2] > 0
    assert runs[0][:2] == runs[1][:2]


@pytest.mark.usefixtures("kernel_mode")
def test_exact_kernel_hands_over_at_the_float_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.twins.exact as exact

    X, y = _planted(400, 6, seed=3)
    ds = Dataset.from_arrays(X, y, bias=1)
    ref = run_perceptron(ds, max_epochs=2000)
    final = max(abs(int(v)) for v in ref.weights)
    L = int(np.abs(X).sum(axis=1).max()) + 1
    monkeypatch.setattr(exact, "LIMITS", {"float64": final // 2 * L, "int64": 2**63 - 1, "python-int": None})
    fast = exact.exact_perceptron(ds, max_epochs=2000, engine="compiled")
    assert (fast.updates, fast.weights) == (ref.updates, ref.weights)
    assert fast.arithmetic == ("float64", "int64")


def test_narrowest_exact_storage_keeps_every_value() -> None:
    ints = np.array([[1.0, -128.0], [127.0, 3.0]])
    assert compiled.narrowest_exact(ints).dtype == np.int16  # -128 needs more than int8's 127 bound
    assert compiled.narrowest_exact(ints[:, :1]).dtype == np.int8
    halves = np.array([[0.5, 1e6 + 0.5]])
    assert compiled.narrowest_exact(halves).dtype == np.float32  # 21 significant bits
    wide = np.array([[2.0**24 + 1, 1.0]])
    assert compiled.narrowest_exact(wide).dtype == np.float64  # 25 bits: not a float32
    tiny = np.array([[0.1, 0.2]])
    assert compiled.narrowest_exact(tiny).dtype == np.float64  # 0.1 is not a float32
    for A in (ints, halves, wide, tiny):
        assert np.array_equal(compiled.narrowest_exact(A).astype(np.float64), A)


def test_engine_errors() -> None:
    X, y = _planted(20, 3, seed=0)
    with pytest.raises(InputError, match="engine"):
        perceptron_twin(X, y, engine="gpu")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="natural order"):
        perceptron_twin(X, y, engine="compiled", order="shuffle:1")


@pytest.mark.usefixtures("kernel_mode")
def test_a_rebuilt_active_set_is_the_one_scanned() -> None:
    # found by Hypothesis: a cache keyed on id() of the level objects handed back a
    # freed level's rows after a rebuild (ids are reused), so a mistake was skipped
    from fractions import Fraction

    ds = Dataset(
        numerators=((-8, 0, 5), (-3, -2, 3), (2, -7, 3), (-8, 0, 2), (-8, 0, 2)),
        denominator=1,
        labels=(1, 1, -1, 1, -1),
        bias=Fraction(2),
    )
    ref = run_perceptron(ds, max_epochs=8)
    fast = exact_perceptron(ds, max_epochs=8, engine="compiled")
    assert (fast.updates, fast.weights) == (ref.updates, ref.weights)


def test_batches_cross_the_buffer_and_stop_at_max_epochs() -> None:
    # a nonseparable run on 50 rows (no screening: batches) long enough to fill the
    # batch buffer more than twice
    from fractions import Fraction

    rng = np.random.default_rng(11)
    X = rng.integers(-8, 9, size=(50, 4)).astype(float)
    y = rng.choice([-1.0, 1.0], size=50)
    ds = Dataset.from_arrays(X, y, bias=1)
    ref = run_perceptron(ds, max_epochs=6000)
    assert not ref.converged and ref.mistakes > 2 * (1 << 16)
    for run in (
        perceptron_twin(X, y, max_epochs=6000, engine="compiled"),
        exact_perceptron(X, y, max_epochs=6000, engine="compiled"),
    ):
        assert run.updates == ref.updates and run.epochs == 6000 and not run.converged
        assert tuple(Fraction(v) for v in run.weights) == ref.weights


_VALUES = {  # value kinds and the narrow dtype of patterns made of them (with a bias of 1)
    "int8": (st.integers(-8, 8).map(float), np.int8),
    "int16": (st.integers(-300, 300).map(float), np.int16),
    "halves": (st.integers(-16, 16).map(lambda n: n / 2), np.float32),
    "floats": (st.floats(-1e6, 1e6, allow_subnormal=False), None),  # mostly float64, inexact
}


@st.composite
def _arrays(draw: st.DrawFn, kinds: tuple[str, ...] = tuple(_VALUES)) -> tuple[np.ndarray, np.ndarray, float]:
    kind = draw(st.sampled_from(kinds))
    m, d = draw(st.integers(1, 30)), draw(st.integers(0, 4))
    values = draw(st.lists(_VALUES[kind][0], min_size=m * d, max_size=m * d))
    X = np.array(values, dtype=np.float64).reshape(m, d)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=m, max_size=m)))
    exact = kind != "floats"  # dyadic values: float64 arithmetic on them is exact here
    bias = draw(st.sampled_from([0.0, 1.0, 0.5, 200.0] + ([] if exact else [1e-3])))
    return X, y, bias


@settings(max_examples=200, deadline=None)
@given(_arrays())
def test_narrow_patterns_are_the_narrowed_float64_patterns(
    arrays: tuple[np.ndarray, np.ndarray, float],
) -> None:
    from novikoff.twins import twin_patterns

    X, y, bias = arrays
    expected = compiled.narrowest_exact(twin_patterns(X, y, bias))
    rows = compiled.narrow_patterns(X, y, bias)
    assert rows is not None and rows.dtype == expected.dtype and rows.shape == expected.shape
    assert np.array_equal(rows, expected)
    assert rows.astype(np.float64).tobytes() == expected.astype(np.float64).tobytes()  # signed zeros too
    assert compiled.narrow_patterns(np.asfortranarray(X), y, bias).tobytes() == rows.tobytes()


def test_narrow_patterns_refuse_nan_and_infinity() -> None:
    y = np.array([1.0, -1.0])
    for bad in (np.nan, np.inf, -np.inf):
        assert compiled.narrow_patterns(np.array([[1.0, 2.0], [3.0, bad]]), y, 1.0) is None
    assert compiled.value_counts(np.array([[np.nan, np.inf, 128.0, 0.1, -0.0]])) == (4, 3, 2, 2)


@settings(max_examples=120, deadline=None)
@given(_arrays(kinds=("int8", "int16", "halves")), st.integers(1, 6), st.integers(1, 10), st.booleans())
def test_short_and_long_runs_are_the_reference_at_every_screening_start(
    arrays: tuple[np.ndarray, np.ndarray, float], first_try: int, epochs: int, screen_small: bool
) -> None:
    # the twin on arrays builds the narrow rows directly and runs the kernel from epoch 0;
    # capped at every epoch before, at and after the one where screening is first tried
    # (FIRST_TRY - 1), its updates and weights are the exact reference's
    X, y, bias = arrays
    ref = run_perceptron(Dataset.from_arrays(X, y, bias=Fraction(bias)), max_epochs=epochs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled.CompiledEpochs, "FIRST_TRY", first_try)
        if screen_small:  # screening on tiny data, and kept even when most rows are active
            mp.setattr(compiled.CompiledEpochs, "MIN_ROWS", 0)
            mp.setattr(compiled.CompiledEpochs, "MAX_ACTIVE", 1.0)
        run = perceptron_twin(X, y, bias=bias, max_epochs=epochs, engine="compiled")
    assert (run.updates, run.epochs, run.converged) == (ref.updates, ref.epochs, ref.converged)
    assert isinstance(run.weights, np.ndarray)
    assert [Fraction(v) for v in run.weights.tolist()] == list(ref.weights)


@settings(max_examples=60, deadline=None)
@given(_arrays(), st.integers(1, 6), st.integers(1, 12))
def test_the_direct_run_is_the_float64_patterns_run_bit_for_bit(
    arrays: tuple[np.ndarray, np.ndarray, float], first_try: int, epochs: int
) -> None:
    # inexact floats included: the narrow rows built from X are the narrowed float64
    # patterns, so the kernel makes the same float operations; screening never changes them
    from novikoff.twins import twin_patterns
    from novikoff.twins.perceptron import perceptron_on_patterns

    X, y, bias = arrays
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled.CompiledEpochs, "FIRST_TRY", first_try)
        mp.setattr(compiled.CompiledEpochs, "MIN_ROWS", 0)
        mp.setattr(compiled.CompiledEpochs, "MAX_ACTIVE", 1.0)
        direct = perceptron_twin(X, y, bias=bias, max_epochs=epochs, engine="compiled")
        mp.setattr(compiled.CompiledEpochs, "MIN_ROWS", 10**9)  # no screening: whole-epoch batches
        plain = perceptron_on_patterns(twin_patterns(X, y, bias), max_epochs=epochs, engine="compiled")
    assert (direct.updates, direct.epochs, direct.converged) == (plain.updates, plain.epochs, plain.converged)
    assert isinstance(direct.weights, np.ndarray) and isinstance(plain.weights, np.ndarray)
    assert direct.weights.tobytes() == plain.weights.tobytes()


def test_loaded_kernels_start_at_once_on_small_data() -> None:
    from novikoff.twins.perceptron import EngineSwitch, starts_compiled

    X, y = _planted(20, 3, seed=0)
    perceptron_twin(X, y, engine="compiled")  # loads the kernels
    assert compiled.loaded() and starts_compiled("auto", None, 80) and EngineSwitch("auto", True, 80).at_once
    for engine, order in (("numpy", None), ("gpu", None), ("auto", "shuffle:1"), ("compiled", "shuffle:1")):
        assert not starts_compiled(engine, order, 10**7)  # type: ignore[arg-type]
    assert not EngineSwitch("numpy", True, 10**7).at_once


@pytest.mark.parametrize(
    ("X", "bias", "message"),
    [
        (np.array([[np.nan, 1.0]]), 1.0, "NaN"),
        (np.array([[np.inf, 1.0]]), -1.0, "NaN"),  # X is checked before the bias, as on the float64 path
        (np.array([[1.0, 1.0]]), -1.0, "bias"),
        (np.array([[1.0, 1.0]]), np.nan, "bias"),
    ],
)
def test_the_direct_run_raises_the_float64_paths_errors(X: np.ndarray, bias: float, message: str) -> None:
    from novikoff.twins import twin_patterns
    from novikoff.twins.perceptron import starts_compiled

    perceptron_twin(np.ones((1, 2)), np.array([1.0]), engine="compiled")  # loaded: the direct path
    assert starts_compiled("auto", None, X.size + 1)
    for run in (
        lambda: perceptron_twin(X, np.array([1.0]), bias=bias),
        lambda: twin_patterns(X, np.array([1.0]), bias),
    ):
        with pytest.raises(InputError, match=message):
            run()
