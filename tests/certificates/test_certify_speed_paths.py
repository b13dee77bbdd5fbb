"""The fast paths of ``novikoff certify`` give exactly the slow paths' results.

- :func:`novikoff.certificates.minnorm.solve_ones` (numeric refinement, checked exactly) against FLINT's
  exact solve, on Hypothesis matrices; refused inputs return None, never a wrong answer;
- :func:`novikoff.certificates.minnorm.min_norm_point` and the whole certificate (p*, gamma^2, lambda,
  the geometric margin) and the exact run with the fast solve and with it switched off;
- the CSV fast path against the field-by-field reader (forced by a comment line) and
  against Fractions built independently; errors still name the line and the column;
- :func:`novikoff.certificates.minnorm.nnls` against scipy's NNLS (optimality conditions and residual);
- the scaled patterns' C-level path against y_i (x_i, rho) computed with Fractions.
"""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
from fractions import Fraction
from pathlib import Path

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import novikoff.certificates.minnorm
import novikoff.certificates.solver
from novikoff.certificates import SeparableCertificate, certify
from novikoff.certificates.checker import (
    CERTIFICATE_PARTS,
    REASON_CODES,
    certificate_rejection,
    check_certificate,
    earliest_rejection,
    prepare_checker,
    release_checker,
)
from novikoff.certificates.minnorm import PatternAtoms, best_denominator, min_norm_point, nnls, solve_ones
from novikoff.certificates.solver import (
    GeometricMarginStarted,
    check_on_two_cores,
    geometric_margin,
    start_certify,
)
from novikoff.data.dataset import Dataset
from novikoff.data.readers import read_csv
from novikoff.errors import CertificateError, DataFormatError
from novikoff.exact.bigdot import big_dot, big_scale, one_blas_thread
from novikoff.exact.rational import RationalVector
from novikoff.twins.exact import exact_perceptron


def flint_solution(G: np.ndarray) -> tuple[list[int], int]:
    """G^-1 1 by FLINT: numerators over the least common denominator."""
    k = G.shape[0]
    y = flint.fmpz_mat(G.tolist()).solve(flint.fmpz_mat(k, 1, [1] * k))
    nums, den = y.numer_denom()  # type: ignore[attr-defined]
    return [int(nums[i, 0]) for i in range(k)], int(den)


@st.composite
def integer_rows(draw: st.DrawFn, max_rows: int = 12, max_cols: int = 16, bound: int = 300) -> np.ndarray:
    m = draw(st.integers(1, max_rows))
    d = draw(st.integers(1, max_cols))
    values = draw(st.lists(st.integers(-bound, bound), min_size=m * d, max_size=m * d))
    return np.array(values, dtype=np.int64).reshape(m, d)


@settings(max_examples=40)
@given(integer_rows())
def test_solve_ones_equals_flint_on_gram_matrices(rows: np.ndarray) -> None:
    G = rows @ rows.T
    fast = solve_ones(G)
    if np.linalg.matrix_rank(rows) < rows.shape[0]:
        assert fast is None  # singular: refused, never a made-up answer
        return
    if fast is not None:
        assert fast == flint_solution(G)


@settings(max_examples=40)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_solve_ones_takes_the_fast_path_on_well_conditioned_matrices(k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    A = rng.integers(-5000, 5000, size=(k, k))
    G = A + A.T + np.diag(np.abs(A).sum(axis=1) * 2 + 1)  # diagonally dominant: far from singular
    fast = solve_ones(G.astype(np.int64))
    assert fast is not None
    assert fast == flint_solution(G)


def test_solve_ones_nonsymmetric_and_refusals() -> None:
    G = np.array([[2, 1], [0, 3]], dtype=np.int64)
    assert solve_ones(G) == ([1, 1], 3)  # y = (1/3, 1/3): 2/3 + 1/3 = 1, 3/3 = 1
    assert solve_ones(np.array([[1, 2], [2, 4]], dtype=np.int64)) is None  # singular
    assert solve_ones(np.array([[2**45]], dtype=np.int64)) is None  # beyond the int64 residual budget
    assert solve_ones(np.array([[2.0]])) is None  # not an integer matrix
    hilbert_like = np.array([[10**12 // (i + j + 1) for j in range(9)] for i in range(9)], dtype=np.int64)
    found = solve_ones(hilbert_like)  # badly conditioned: refused or exact, never wrong
    assert found is None or found == flint_solution(hilbert_like)


@st.composite
def separable_data(draw: st.DrawFn) -> Dataset:
    m = draw(st.integers(4, 24))
    d = draw(st.integers(2, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(-9, 10, size=(m, d))
    w = rng.integers(-3, 4, size=d)
    w[0] = 5
    score = X @ w
    X[score == 0, 0] += 1
    y = np.where(X @ w > 0, 1, -1)
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]  # may make it non-separable: both outcomes are compared below
    return Dataset.from_arrays(X.tolist(), y.tolist(), bias=draw(st.sampled_from([0, 1, 3])))


def assert_same_point(
    a: novikoff.certificates.minnorm.MinNormPoint, b: novikoff.certificates.minnorm.MinNormPoint
) -> None:
    assert [Fraction(v, a.denominator) for v in a.numerator] == [
        Fraction(v, b.denominator) for v in b.numerator
    ]
    assert dict(zip(a.atoms, a.weights)) == dict(zip(b.atoms, b.weights))


@settings(max_examples=25)
@given(separable_data())
def test_min_norm_point_and_certificate_same_without_the_fast_solve(ds: Dataset) -> None:
    Z, _ = ds.scaled_patterns
    guess = [(i, 1.0 / len(Z)) for i in range(len(Z))]  # a warm corral: the solve is used
    fast_point = min_norm_point(PatternAtoms(Z), 0, guess)
    fast_cert = certify(ds)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(novikoff.certificates.minnorm, "solve_ones", lambda G: None)  # FLINT only
        slow_point = min_norm_point(PatternAtoms(Z), 0, guess)
        slow_cert = certify(ds)
    assert_same_point(fast_point, slow_point)
    assert fast_cert == slow_cert


def certificate_and_run(ds: Dataset) -> tuple[object, ...]:
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    run = exact_perceptron(ds, certificate=cert)
    return cert.lambdas, cert.pstar, cert.gamma2, cert.geometric, run.updates, tuple(run.weights)


def test_vec50_certificate_and_run_same_through_the_slow_paths(coq_dir: Path, tmp_path: Path) -> None:
    source = coq_dir / "vec50_1.csv"
    commented = tmp_path / "vec50_commented.csv"
    shutil.copy(source, tmp_path / "plain.csv")
    commented.write_text("# a comment line sends the reader field by field\n" + source.read_text())
    fast_ds = read_csv(tmp_path / "plain.csv")
    slow_ds = read_csv(commented)
    assert (fast_ds.numerators, fast_ds.denominator, fast_ds.labels) == (
        slow_ds.numerators,
        slow_ds.denominator,
        slow_ds.labels,
    )
    fast = certificate_and_run(fast_ds)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(novikoff.certificates.minnorm, "solve_ones", lambda G: None)
        slow = certificate_and_run(slow_ds)
    assert fast == slow


spellings = st.sampled_from(["int", "ratio", "decimal", "spaced"])


def spell(value: Fraction, how: str) -> str:
    if how == "int" and value.denominator == 1:
        return str(value.numerator)
    if how == "decimal" and 10**6 % value.denominator == 0:
        scaled = value * 10**6
        sign = "-" if scaled < 0 else ""
        whole, frac = divmod(abs(int(scaled)), 10**6)
        return f"{sign}{whole}.{frac:06d}"
    if how == "spaced":
        return f" {value.numerator}/{value.denominator} "
    return f"{value.numerator}/{value.denominator}"


@st.composite
def csv_texts(draw: st.DrawFn) -> tuple[str, list[list[Fraction]], list[int]]:
    m = draw(st.integers(2, 8))
    d = draw(st.integers(1, 5))
    dens = st.sampled_from([1, 2, 3, 4, 5, 8, 25, 250, 7])
    values = [[Fraction(draw(st.integers(-999, 999)), draw(dens)) for _ in range(d)] for _ in range(m)]
    labels = [draw(st.sampled_from([-1, 1])) for _ in range(m)]
    lines = [",".join([*(spell(v, draw(spellings)) for v in row), str(y)]) for row, y in zip(values, labels)]
    return "\n".join(lines) + "\n", values, labels


@settings(max_examples=40)
@given(csv_texts())
def test_csv_fast_path_equals_field_by_field_and_fractions(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, list[list[Fraction]], list[int]]
) -> None:
    text, values, labels = case
    folder = tmp_path_factory.mktemp("csv")
    (folder / "fast.csv").write_text(text)
    (folder / "slow.csv").write_text("# comment\n" + text)
    fast = read_csv(folder / "fast.csv")
    slow = read_csv(folder / "slow.csv")
    expected = Dataset.from_fraction_rows(values, labels)
    for ds in (fast, slow):
        assert ds.numerators == expected.numerators
        assert ds.denominator == expected.denominator
        assert ds.labels == expected.labels
    Z, s = fast.scaled_patterns
    assert [[Fraction(v, s) for v in row] for row in Z] == [
        [y * v for v in (*row, Fraction(1))] for row, y in zip(values, labels)
    ]


def test_csv_errors_still_name_the_place(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("1,2,1\n3,4,-1\n5,x,1\n")
    with pytest.raises(DataFormatError) as err:
        read_csv(p)
    assert (err.value.line, err.value.column) == (3, 2)
    p.write_text("a,b,label\n1,2,1\n3,4,-1\n")  # a header: read by the careful reader
    ds = read_csv(p)
    assert ds.numerators == ((1, 2), (3, 4))
    p.write_text("1,2,1\n3,4\n")
    with pytest.raises(DataFormatError) as err:
        read_csv(p)
    assert err.value.line == 2 and "ragged" in str(err.value)


@settings(max_examples=30)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_nnls_meets_the_optimality_conditions_and_scipys_residual(rows: int, cols: int, seed: int) -> None:
    from scipy.optimize import nnls as scipy_nnls

    rng = np.random.default_rng(seed)
    A = rng.standard_normal((rows, cols))
    b = rng.standard_normal(rows)
    reference = scipy_nnls(A, b, maxiter=50 * cols)[1]
    for warm in (True, False):  # started from the unconstrained solution's signs, or from 0
        x, residual = nnls(A, b, warm=warm)
        assert (x >= 0).all()
        assert residual == pytest.approx(float(np.linalg.norm(A @ x - b)), rel=1e-12, abs=1e-12)
        assert residual <= reference * (1 + 1e-7) + 1e-9
        gradient = A.T @ (b - A @ x)  # KKT: <= 0 off the support, = 0 on it
        scale = 1e-7 * (1 + float(np.abs(A).max()) * float(np.abs(b).max()))
        assert (gradient[x == 0] <= scale).all()
        assert np.abs(gradient[x > 0]).max(initial=0.0) <= scale


def test_nnls_warm_start_on_a_badly_conditioned_penalty_problem_reaches_the_cold_optimum(
    coq_dir: Path,
) -> None:
    # the geometric margin's warm start on vec400: two class groups whose sums a 1e4-weighted
    # row keeps equal (A'A's condition number ~1e9); started from the unconstrained signs,
    # the bordering refused columns and stopped short (a 250x slower exact solve after it)
    ds = read_csv(coq_dir / "vec400_1.csv")
    X = np.array(ds.numerators, dtype=np.float64) * np.array(ds.labels)[:, None]
    X /= np.abs(X).max()
    g = np.array(ds.labels) == 1
    A = np.vstack([X.T, np.ones(len(g)), 1e4 * np.where(g, 1.0, -1.0)])
    b = np.zeros(A.shape[0])
    b[X.shape[1]] = 2.0
    _, r_cold = nnls(A, b, warm=False)
    _, r_warm = nnls(A, b)
    assert r_warm <= r_cold * (1 + 1e-9)


def test_scaled_patterns_with_another_scale_than_one() -> None:
    rows = [[Fraction(1, 2), Fraction(3)], [Fraction(-5, 4), Fraction(0)]]
    ds = Dataset.from_fraction_rows(rows, [1, -1], bias=Fraction(1, 3))
    Z, s = ds.scaled_patterns
    assert s == 12
    assert [[Fraction(v, s) for v in row] for row in Z] == [
        [Fraction(1, 2), 3, Fraction(1, 3)],
        [Fraction(5, 4), 0, Fraction(-1, 3)],
    ]


@settings(max_examples=30)
@given(
    st.lists(st.tuples(st.integers(-(2**9000), 2**9000), st.integers(-(2**70), 2**70)), max_size=12),
    st.integers(-(2**5000), 2**5000),
)
def test_big_dot_and_big_scale_equal_python_integers(pairs: list[tuple[int, int]], factor: int) -> None:
    u = [a for a, _ in pairs]
    v = [b for _, b in pairs]
    assert big_dot(u, v) == sum(a * b for a, b in pairs)
    assert big_dot(u, u) == sum(a * a for a in u)
    assert big_scale(u, factor) == [factor * a for a in u]
    with pytest.raises(ValueError, match="length mismatch"):
        big_dot(u, [*v, 1])


@settings(max_examples=20)
@given(separable_data())
def test_pattern_array_is_the_scaled_patterns_and_shared_rows_give_the_same_point(ds: Dataset) -> None:
    Z, _ = ds.scaled_patterns
    A = ds.pattern_array
    assert A is not None and A.tolist() == [list(row) for row in Z]
    assert ds.R2 == max(sum(Fraction(v) ** 2 for v in ds.pattern(i)) for i in range(ds.n_samples))
    with pytest.raises(ValueError):
        A[0, 0] = 1  # shared by the solvers: read-only
    guess = [(i, 1.0) for i in range(len(Z))]
    shared = min_norm_point(PatternAtoms(Z, array=A), 0, guess)
    assert_same_point(shared, min_norm_point(PatternAtoms(Z), 0, guess))
    with pytest.raises(ValueError, match="not the rows"):
        PatternAtoms(Z, array=A[:, :-1])


def test_pattern_array_is_none_beyond_int64() -> None:
    ds = Dataset.from_arrays([[2**70, 1], [-1, 2]], [1, -1])
    assert ds.pattern_array is None
    assert ds.R2 == 2**140 + 1 + 1


def _consistent(lambdas: RationalVector, ds: Dataset, R2: Fraction) -> SeparableCertificate:
    """A certificate whose p*, gamma^2, weights and bound all follow from ``lambdas`` (computed
    here with Fractions), so only minimality can be false."""
    p = [
        sum((w * z for w, z in zip(lambdas, col)), Fraction(0))
        for col in zip(*(ds.pattern(i) for i in range(ds.n_samples)))
    ]
    g2 = sum((v * v for v in p), Fraction(0))
    return SeparableCertificate(
        lambdas,
        RationalVector.from_values(p),
        g2,
        RationalVector.from_values([v / g2 for v in p]),
        R2,
        R2 / g2,
    )


def test_the_checkers_two_parts_name_the_same_first_false_fact_as_the_whole_check() -> None:
    # certify checks vec400-sized certificates in two processes, one part each; each part
    # checks its own facts only, and the earliest of their rejections is the one-core answer
    ds = Dataset.from_arrays([[2, 1], [1, 3], [-1, -2], [0, -3]], [1, 1, -1, -1])
    good = certify(ds)
    assert isinstance(good, SeparableCertificate)
    replace = dataclasses.replace
    off = Fraction(1, 7)
    vertex = RationalVector([1, 0, 0, 0], 1)  # lambda on z_1 alone: p* = z_1 is not minimal
    bad_pstar = RationalVector(
        [*good.pstar.numerators[:-1], good.pstar.numerators[-1] + 1], good.pstar.denominator
    )
    mutants = {
        "lambda-sum": replace(good, lambdas=RationalVector([1, 1, 1, 1], 1)),
        "radius": replace(good, R2=good.R2 + off),
        "pstar": replace(good, pstar=bad_pstar),
        "gamma2": replace(good, gamma2=good.gamma2 + off),
        "not-minimal": _consistent(vertex, ds, good.R2),
        "weights": replace(good, weights=good.pstar),
        "bound": replace(good, bound=good.bound + off),
    }
    mutants["radius and not-minimal"] = replace(mutants["not-minimal"], R2=good.R2 + off)
    mutants["pstar (too short) and radius"] = replace(good, pstar=RationalVector([1], 1), R2=good.R2 + off)
    mutants["gamma2 and weights"] = replace(good, gamma2=good.gamma2 + off, weights=good.pstar)
    own = {
        "combination": set(REASON_CODES) - {"radius", "not-minimal"},
        "minimality": {"radius", "not-minimal"},
    }
    for part in CERTIFICATE_PARTS:
        assert certificate_rejection(ds, good, part) is None
    for name, cert in mutants.items():
        with pytest.raises(CertificateError) as whole:
            check_certificate(ds, cert)
        code = getattr(whole.value, "code", None)
        expected = {"radius and not-minimal": "radius", "pstar (too short) and radius": "radius"}
        assert code == expected.get(name, name.split(" ")[0]), name
        parts = [certificate_rejection(ds, cert, part) for part in CERTIFICATE_PARTS]
        for part, found in zip(CERTIFICATE_PARTS, parts):
            assert found is None or found.code in own[part], (name, part)
        first = earliest_rejection(parts)
        assert first is not None and first.code == code, name
        with pytest.raises(CertificateError) as split:  # the parts in two processes (fork)
            check_on_two_cores(ds, cert)
        assert getattr(split.value, "code", None) == code, name
    check_on_two_cores(ds, good)
    with pytest.raises(ValueError, match="part must be one of"):
        certificate_rejection(ds, good, "everything")


@settings(max_examples=200)
@given(
    st.integers(-(2**300), 2**300),
    st.integers(1, 2**300),
    st.integers(1, 2**160),
)
def test_best_denominator_is_fractions_limit_denominator(num: int, den: int, bound: int) -> None:
    expected = Fraction(num, den).limit_denominator(bound).denominator
    assert best_denominator(num, den, bound) == expected


@pytest.mark.parametrize("bits", [64, 700, 8500])
def test_best_denominator_recovers_a_fraction_from_twice_its_bits(bits: int) -> None:
    # the exact solve's use: y = n/d known to 2 log2(d) + 40 bits, d <= 2^(bits + 1)
    rng = np.random.default_rng(bits)
    d = int.from_bytes(rng.bytes(bits // 8), "little") | 1
    n = int.from_bytes(rng.bytes(bits // 8), "little") - d // 3
    scale = 2 * bits + 40
    approximation = (n << scale) // d
    assert best_denominator(approximation, 1 << scale, 1 << (bits + 1)) == Fraction(n, d).denominator
    assert (
        Fraction(approximation, 1 << scale).limit_denominator(1 << (bits + 1)).denominator
        == Fraction(n, d).denominator
    )
    with pytest.raises(ValueError):
        best_denominator(1, 0, 5)


def test_the_checkers_prepared_matrix_belongs_to_its_dataset_only() -> None:
    # prepare_checker keeps one dataset's FLINT matrix for the processes forked after it;
    # a check on other data (same shape, other numbers) must use that data, not the matrix
    first = Dataset.from_arrays([[2, 1], [1, 3], [-1, -2], [0, -3]], [1, 1, -1, -1])
    second = Dataset.from_arrays([[2, 1], [1, 3], [-1, -2], [0, -4]], [1, 1, -1, -1])
    cert = certify(first)
    prepare_checker(first)
    assert certificate_rejection(first, cert) is None
    rejection = certificate_rejection(second, cert)
    assert rejection is not None and rejection.code in {"radius", "pstar"}
    assert certificate_rejection(first, cert) is None  # and back
    prepare_checker(second)
    assert certificate_rejection(second, certify(second)) is None
    assert certificate_rejection(first, cert) is None  # certify released the matrix
    release_checker()


def test_the_min_norm_points_squared_norm_is_the_stopping_tests() -> None:
    ds = Dataset.from_arrays([[2, 1], [1, 3], [-1, -2], [0, -3], [5, -7]], [1, 1, -1, -1, 1])
    Z, _ = ds.scaled_patterns
    point = min_norm_point(PatternAtoms(Z), 0)
    assert point.numerator_norm2 == sum(v * v for v in point.numerator) == point.norm2_numerator()
    bare = dataclasses.replace(point, numerator_norm2=None)
    assert bare.norm2_numerator() == point.numerator_norm2


@pytest.mark.parametrize("name", ["vec50_1", "vec100_1"])
def test_the_geometric_margin_is_the_same_from_every_float_guess(coq_dir: Path, name: str) -> None:
    # the guess only decides where the exact Wolfe iteration starts, never its answer: the
    # working-set guess, the same seeded with the main certificate's lambda, a seed that
    # points the wrong way (all weight on the samples the main certificate leaves out), and
    # no guess at all give the same certificate
    ds = read_csv(coq_dir / f"{name}.csv")
    main = certify(ds, geometric=False)
    assert isinstance(main, SeparableCertificate)
    guessed = geometric_margin(ds)
    seeded = geometric_margin(ds, [float(v) for v in main.lambdas])
    wrong = geometric_margin(ds, [0.0 if v else 1.0 for v in main.lambdas.numerators])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(novikoff.certificates.solver, "_float_weights", lambda rows, groups=None, start=None: None)
        cold = geometric_margin(ds)
    assert guessed is not None and guessed == seeded == wrong == cold


def test_start_certify_gives_the_checked_main_certificate_then_the_whole(coq_dir: Path) -> None:
    # vec100 is large enough for the forked geometric margin and the two-core check
    ds = read_csv(coq_dir / "vec100_1.csv")
    main, complete = start_certify(ds)
    assert isinstance(main, SeparableCertificate) and main.geometric is None
    assert certificate_rejection(ds, main) is None
    whole = complete()
    assert isinstance(whole, SeparableCertificate) and whole.geometric is not None
    assert dataclasses.replace(whole, geometric=None) == main
    assert whole == certify(ds)


def test_start_certify_raises_the_rejection_of_a_wrong_main_certificate(coq_dir: Path) -> None:
    # a solver bug (here: weights off by one unit) is caught by the check that complete() joins
    ds = read_csv(coq_dir / "vec100_1.csv")
    real = novikoff.certificates.solver.big_scale
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(novikoff.certificates.solver, "big_scale", lambda v, f: [x + 1 for x in real(v, f)])
        main, complete = start_certify(ds)  # returned before its check is over
        assert isinstance(main, SeparableCertificate)
        with pytest.raises(CertificateError) as rejected:
            complete()
        assert getattr(rejected.value, "code", None) == "weights"
        with pytest.raises(CertificateError):
            certify(ds)


def test_geometric_margin_started_is_certifys_geometric_margin(coq_dir: Path) -> None:
    small = Dataset.from_arrays([[2, 1], [1, 3], [-1, -2], [0, -3]], [1, 1, -1, -1])
    large = read_csv(coq_dir / "vec100_1.csv")  # forked
    for ds in (small, large):
        whole = certify(ds)
        assert isinstance(whole, SeparableCertificate) and whole.geometric is not None
        started = GeometricMarginStarted(ds)
        assert started.result() == whole.geometric == started.result()
    calls: list[Dataset] = []
    with pytest.MonkeyPatch.context() as mp:  # cancel computes nothing where nothing was forked
        mp.setattr(novikoff.certificates.solver, "geometric_margin", lambda ds: calls.append(ds))
        GeometricMarginStarted(small).cancel()
    assert calls == []
    assert GeometricMarginStarted(small.with_bias(0)).result() is None  # rho = 0: no margin


def test_one_blas_thread_nests_without_a_second_limit() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads() -> list[int]:
        return [int(i["num_threads"]) for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    with one_blas_thread():
        assert set(blas_threads()) <= {1}
        inner = one_blas_thread()
        assert isinstance(inner, contextlib.nullcontext)  # nested: no second limit (no library scan)
        with inner:
            assert set(blas_threads()) <= {1}
        assert set(blas_threads()) <= {1}  # the inner exit restored nothing
    assert blas_threads() == before
