"""The compiled PFM/PDM/PDM-succ engine: the numpy engine's update sequence on every input
(dense and CSR, every algorithm and option, natural and shuffled order), the exact
reference's on float-exact data, D2 exactly on its final float weights, and the engine
switch (its errors, its size threshold, the switch after a slow start)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.errors import InputError
from novikoff.fuzz.strategies import float_exact_separable, separable_datasets
from novikoff.reference.large_margin import run_pdm, run_pdm_succ, run_pfm
from novikoff.runtime.runs import TwinEngine
from novikoff.spec import D2
from novikoff.spec.intervals import SquareRoot
from novikoff.twins import compiled_large_margin, large_margin
from novikoff.twins.large_margin import COMPILED_FROM, TwinRun, pdm_succ_twin, pdm_twin, pfm_twin

pytestmark = pytest.mark.skipif(not compiled_large_margin.available(), reason="numba is not installed")

ALGORITHMS = st.sampled_from(["pdm", "pfm", "pdm-succ"])


def run(
    algorithm: str,
    X: Any,
    y: np.ndarray,
    engine: TwinEngine,
    *,
    eps: Fraction = Fraction(1, 10),
    beta: Fraction = Fraction(1, 10),
    **options: Any,
) -> TwinRun:
    """PDM(eps), PFM(beta) or PDM-succ (1/2, 1/4, eps) with the engine and options."""
    if algorithm == "pdm":
        return pdm_twin(X, y, eps=eps, engine=engine, **options)
    if algorithm == "pfm":
        return pfm_twin(X, y, beta=beta, engine=engine, **options)
    return pdm_succ_twin(X, y, epsilons=[Fraction(1, 2), Fraction(1, 4), eps], engine=engine, **options)


def assert_same(a: TwinRun, b: TwinRun) -> None:
    assert a.engine == "numpy" and b.engine == "compiled"
    assert a.updates == b.updates
    assert np.array_equal(
        np.asarray(a.weights), np.asarray(b.weights)
    )  # bit for bit (no rounding allowed to differ)
    assert (a.epochs, a.mini_epochs, a.converged, a.stopped, a.stages) == (
        b.epochs,
        b.mini_epochs,
        b.converged,
        b.stopped,
        b.stages,
    )


@st.composite
def float_problems(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Arbitrary floats (inexact arithmetic) or small integers (exact ties, so the
    decisions within the rounding bound, which go back to the exact code, happen)."""
    m = draw(st.integers(2, 24))
    d = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        X = rng.integers(-3, 4, size=(m, d)).astype(float)
    else:
        X = rng.normal(size=(m, d)) * 10.0 ** draw(st.integers(-3, 3))
    X[rng.random(X.shape) < draw(st.sampled_from([0.0, 0.5]))] = 0.0
    w = rng.normal(size=d)
    y = np.where(X @ w + draw(st.sampled_from([0.0, 0.3])) > 0, 1.0, -1.0)
    return X, y


@settings(max_examples=40)
@given(
    problem=float_problems(),
    algorithm=ALGORITHMS,
    multiple=st.booleans(),
    active=st.booleans(),
    sparse=st.booleans(),
    eps=st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(1, 10)]),
    order=st.sampled_from([None, "shuffle:3"]),
)
def test_the_compiled_engine_makes_the_numpy_engines_updates(
    problem: tuple[np.ndarray, np.ndarray],
    algorithm: str,
    multiple: bool,
    active: bool,
    sparse: bool,
    eps: Fraction,
    order: str | None,
) -> None:
    X, y = problem
    data = sps.csr_matrix(X) if sparse else X
    options: dict[str, Any] = {
        "order": order,
        "multiple_updates": multiple,
        "active_sets": active,
        "max_epochs": 30,
        "max_updates": 3000,  # separable or not, a run ends; the stop must agree too
    }
    options["eps"] = min(eps, Fraction(1, 5)) if algorithm == "pdm-succ" else eps
    options["beta"] = beta = eps / 10
    if algorithm == "pfm":
        q = np.einsum("ij,ij->i", X, X) + 1.0  # ||z_i||^2 with the bias
        assume(not multiple or float(beta) ** 2 < q.min())
    a = run(algorithm, data, y, "numpy", **dict(options))
    b = run(algorithm, data, y, "compiled", **dict(options))
    assert_same(a, b)


def test_decisions_within_the_rounding_bound_go_back_to_the_exact_code() -> None:
    # integer data: PDM(1) (the perceptron) and PFM(0) meet exact ties w.z = 0, which floats
    # cannot decide; the compiled engine must hand them back and still make the numpy run
    rng = np.random.default_rng(2)
    X = rng.integers(-2, 3, size=(40, 3)).astype(float)
    y = np.where(X @ np.array([1.0, -1.0, 0.5]) + 0.25 > 0, 1.0, -1.0)
    for algorithm in ("pdm", "pfm"):
        for multiple in (False, True):
            options: dict[str, Any] = {"eps": Fraction(1), "beta": Fraction(0), "multiple_updates": multiple}
            a = run(algorithm, X, y, "numpy", **dict(options))
            b = run(algorithm, X, y, "compiled", **dict(options))
            assert b.exact_decisions > 0 and a.converged
            assert_same(a, b)


def test_a_huge_multiple_update_stops_at_max_updates_in_both_engines() -> None:
    # z = e_1, e_2, beta just below ||z|| = 1: about 707,000 repeats on e_2 (see test_large_margin)
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, 1.0])
    beta = 1 - Fraction(1, 10**12)
    runs = [
        pfm_twin(X, y, beta=beta, bias=0.0, multiple_updates=True, max_updates=10_000, engine=engine)
        for engine in ("numpy", "compiled")
    ]
    assert "max_updates = 10000" in runs[1].stopped and not runs[1].converged
    assert_same(*runs)


def test_active_sets_on_larger_sparse_data_give_the_same_levels() -> None:
    # many mini-epochs on inexact floats: the levels (c_i <= 1 + LEVEL) must be chosen alike
    rng = np.random.default_rng(11)
    X = sps.random(400, 40, density=0.2, format="csr", random_state=3)
    X.data = rng.normal(size=X.nnz)
    w = rng.normal(size=40)
    s = X @ (w / np.linalg.norm(w))
    X = X[np.abs(s) >= 0.1]  # a planted margin: PFM(1/50) converges
    y = np.where(s[np.abs(s) >= 0.1] > 0, 1.0, -1.0)
    for algorithm in ("pdm", "pfm"):
        options: dict[str, Any] = {"multiple_updates": True, "active_sets": True, "beta": Fraction(1, 50)}
        a = run(algorithm, X, y, "numpy", eps=Fraction(1, 50), **options)
        b = run(algorithm, X, y, "compiled", eps=Fraction(1, 50), **options)
        assert a.converged and a.mini_epochs > 20
        assert_same(a, b)


def test_a_full_event_buffer_hands_back_and_resumes(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel returns every 3 events; the caller records them and resumes at the same sample
    monkeypatch.setattr(compiled_large_margin.LargeMarginKernel, "EVENTS_CAPACITY", 3)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = np.where(X @ rng.normal(size=4) > 0, 1.0, -1.0)
    for algorithm in ("pdm", "pfm", "pdm-succ"):
        options: dict[str, Any] = {"multiple_updates": True, "active_sets": True, "max_updates": 20_000}
        a = run(algorithm, X, y, "numpy", **dict(options))
        b = run(algorithm, X, y, "compiled", **dict(options))
        assert b.mistakes > 10
        assert_same(a, b)


# --- the exact reference on float-exact data ------------------------------------------------------


@settings(max_examples=30)
@given(
    ds=float_exact_separable(max_samples=8),
    algorithm=ALGORITHMS,
    multiple=st.booleans(),
    sparse=st.booleans(),
)
def test_the_compiled_engine_reproduces_the_reference_on_exact_data(
    ds: Dataset, algorithm: str, multiple: bool, sparse: bool
) -> None:
    X, y = ds.to_numpy()
    data = sps.csr_matrix(X) if sparse else X
    options: dict[str, Any] = {"bias": float(ds.bias), "multiple_updates": multiple, "max_epochs": 60}
    if algorithm == "pdm":
        ref = run_pdm(ds, Fraction(1, 10), multiple_updates=multiple, max_epochs=60)
    elif algorithm == "pfm":
        Z, s = ds.scaled_patterns
        beta = Fraction(1, 3)
        assume(not multiple or all(beta * beta * s * s < sum(v * v for v in z) for z in Z))
        ref = run_pfm(ds, beta, multiple_updates=multiple, max_epochs=60, max_updates=50_000)
        options.update(beta=beta, max_updates=50_000)
    else:
        eps = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)]
        ref = run_pdm_succ(ds, eps, multiple_updates=multiple, max_epochs=300)
        options["max_epochs"] = 300
    twin = run(algorithm, data, y, "compiled", **options)
    assert twin.updates == ref.updates and twin.converged == ref.converged
    assert [Fraction(float(v)) for v in twin.weights] == list(ref.weights)


# --- D2 on the compiled engine's own float weights ------------------------------------------------


@settings(max_examples=30)
@given(
    ds=separable_datasets(values="rational", max_samples=9, max_dim=5),
    eps=st.sampled_from([Fraction(1, 2), Fraction(1, 5), Fraction(1, 20)]),
    multiple=st.booleans(),
    active=st.booleans(),
    sparse=st.booleans(),
)
def test_every_compiled_run_satisfies_d2_exactly(
    ds: Dataset, eps: Fraction, multiple: bool, active: bool, sparse: bool
) -> None:
    X, y = ds.to_numpy()  # rational data rounded to floats: the engine's problem is these floats
    floats = Dataset.from_arrays(X, y, bias=float(ds.bias))
    cert = certify(floats)
    assume(isinstance(cert, SeparableCertificate))
    assert isinstance(cert, SeparableCertificate)
    twin = pdm_twin(
        sps.csr_matrix(X) if sparse else X,
        y,
        eps=eps,
        bias=float(ds.bias),
        multiple_updates=multiple,
        active_sets=active,
        max_epochs=2000,
        engine="compiled",
    )
    assert twin.converged and twin.engine == "compiled"
    t = twin.mistakes
    w = [Fraction(float(v)) for v in twin.weights]
    w2 = sum((v * v for v in w), Fraction(0))
    decisions = [sum(a * b for a, b in zip(w, floats.pattern(i))) for i in range(floats.n_samples)]
    assert all(t * s > (1 - eps) * w2 for s in decisions)  # the clean final pass, exactly
    values = {
        "t": Fraction(t),
        "eps": eps,
        "s": min(decisions),
        "w_norm": SquareRoot(w2),
        "gamma": SquareRoot(cert.gamma2),
    }
    assert D2.check_rigorous(values)


# --- the engine switch ----------------------------------------------------------------------------


def test_auto_takes_the_compiled_engine_from_the_size_threshold() -> None:
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0])
    assert pdm_twin(X, y, eps=Fraction(1, 2)).engine == "numpy"  # 9 stored values
    rows = COMPILED_FROM // 3 + 1  # 3 stored values per row (2 features + bias)
    big = np.tile(X, (rows // 3 + 1, 1))
    yb = np.tile(y, rows // 3 + 1)
    assert pdm_twin(big, yb, eps=Fraction(1, 2)).engine == "compiled"


def test_auto_switches_a_slow_small_run_to_the_kernel_after_an_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(large_margin, "SWITCH_AFTER", 0.0)  # every run is "slow"
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 3))
    y = np.where(X @ rng.normal(size=3) > 0, 1.0, -1.0)
    for algorithm in ("pdm", "pfm", "pdm-succ"):
        a = run(algorithm, X, y, "numpy", active_sets=True, max_updates=20_000)
        b = run(algorithm, X, y, "auto", active_sets=True, max_updates=20_000)
        assert a.epochs > 1 and b.engine == "numpy+compiled"
        b.engine = "compiled"  # the rest of the run is the numpy engine's
        assert_same(a, b)


def test_the_engine_switch_refuses_unknown_names_and_missing_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    X = np.array([[1.0], [-1.0]])
    y = np.array([1.0, -1.0])
    with pytest.raises(InputError, match="engine must be 'auto', 'compiled' or 'numpy', got 'fast'"):
        pdm_twin(X, y, eps=Fraction(1, 2), engine="fast")  # type: ignore[arg-type]
    monkeypatch.setattr(compiled_large_margin, "available", lambda: False)
    with pytest.raises(InputError, match="engine='compiled' needs numba"):
        pfm_twin(X, y, beta=0, engine="compiled")
    big = np.ones((COMPILED_FROM, 1))
    assert pdm_twin(big, np.ones(COMPILED_FROM), eps=Fraction(1, 2)).engine == "numpy"  # auto falls back


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bias=st.sampled_from([1.0, 0.5, 3.0]), wide=st.booleans())
def test_the_compiled_set_up_passes_build_the_numpy_ways_patterns(seed: int, bias: float, wide: bool) -> None:
    # from COMPILED_CONVERSION_FROM non-zeros twin_sparse_patterns and the squared norms take one
    # compiled pass each: the same CSR arrays (dtypes included) as the numpy way, and the same
    # ||z_i||^2 as a sum in order, on rows with duplicate and unsorted columns, empty rows and
    # 32- or 64-bit indices
    rng = np.random.default_rng(seed)
    m, d = int(rng.integers(1, 30)), int(rng.integers(1, 8))
    counts = rng.integers(0, 6, m)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    dtype = np.int64 if wide else np.int32
    X = sps.csr_matrix(
        (
            rng.normal(size=indptr[-1]) * 10.0 ** rng.integers(-3, 4, indptr[-1]),
            rng.integers(0, d, indptr[-1]).astype(dtype),
            indptr.astype(dtype),
        ),
        shape=(m, d),
    )
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    built = {}
    for way, start in (("numpy", 10**12), ("compiled", 0)):
        old = large_margin.COMPILED_CONVERSION_FROM
        large_margin.COMPILED_CONVERSION_FROM = start
        try:
            built[way] = large_margin.twin_sparse_patterns(X.copy(), y, bias)
        finally:
            large_margin.COMPILED_CONVERSION_FROM = old
    A, B = built["numpy"], built["compiled"]
    for name in ("data", "indices", "indptr"):
        a, b = getattr(A, name), getattr(B, name)
        assert a.dtype == b.dtype and np.array_equal(a, b)
    in_order = [float(sum(v * v for v in B.data[B.indptr[i] : B.indptr[i + 1]].tolist())) for i in range(m)]
    assert compiled_large_margin.row_squares(B.indptr, B.data).tolist() == in_order


def test_the_kernel_reads_32_and_64_bit_column_indices_alike() -> None:
    # the kernel views the column indices as unsigned, without a copy: scipy gives int32 up to
    # 2^31 non-zeros and int64 beyond; both give the same epoch, events and weights
    rng = np.random.default_rng(8)
    Z = large_margin.twin_sparse_patterns(
        sps.random(150, 12, density=0.4, format="csr", random_state=2),
        np.where(rng.random(150) < 0.5, 1.0, -1.0),
        1.0,
    )
    wide = Z.copy()
    wide.indices, wide.indptr = Z.indices.astype(np.int64), Z.indptr.astype(np.int64)
    q = np.asarray(Z.multiply(Z).sum(axis=1)).ravel()
    results = []
    for patterns in (Z, wide):
        K = compiled_large_margin.LargeMarginKernel(patterns, q, np.sqrt(q) * 1.01, 20 * 2.0**-53)
        assert K.indices.dtype == (np.uint32 if patterns is Z else np.uint64)
        K.configure(
            rule="pdm",
            fparam=0.1,
            gap=0.0,
            multiple=True,
            active_sets=True,
            levels=(2.0, 1.1),
            rounds=10,
            mini_epochs=20,
        )
        K.st[compiled_large_margin.MAXU] = 10**6
        w = np.zeros(Z.shape[1])
        status = K.epoch(np.arange(150, dtype=np.int64), w)
        events = K.st[compiled_large_margin.EVENTS]
        results.append((status, w, K.ev_row[:events].tolist(), K.ev_n[:events].tolist()))
    (s32, w32, r32, n32), (s64, w64, r64, n64) = results
    assert s32 == s64 and r32 == r64 and n32 == n64 and len(r32) > 10 and np.array_equal(w32, w64)


def test_row_products_count_the_kernels_dot_products() -> None:
    # without active sets every epoch presents each of the m samples once, one product each;
    # with them the level selections and mini-epochs add products on top of the full passes
    rng = np.random.default_rng(4)
    X = rng.normal(size=(80, 5))
    y = np.where(X @ rng.normal(size=5) > 0, 1.0, -1.0)
    plain = run("pdm", X, y, "compiled", multiple_updates=True)
    assert plain.converged and plain.row_products == plain.epochs * 80
    active = run("pdm", X, y, "compiled", multiple_updates=True, active_sets=True)
    assert active.mini_epochs > 0 and active.row_products > active.epochs * 80
    assert run("pdm", X, y, "numpy", multiple_updates=True).row_products == 0
