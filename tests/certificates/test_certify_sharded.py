"""``novikoff certify DATA --executor dask://HOST:PORT``: shards read and kept by the workers, the
same certificate and run as on one machine.

In this process (no Dask): the shard readers against the one-file readers, the sharded float
guess against :func:`simplex_min_norm` bit for bit (ties at the cut, one coordinate, empty
shards), the certificates, the relayed exact run and the Freund-Schapire bound against the
single-machine ones, the checks against the checker's verdict on the concatenated data (false
certificates rejected with the same reason code). On a 2-worker LocalCluster (loopback): the
``--certificate`` file and ``--json`` output byte for byte against the local runs, and the
errors (one line naming the shard, exit 2).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from novikoff import cli
from novikoff.certificates import Certificate, GordanCertificate, SeparableCertificate, certify
from novikoff.certificates.checker import CertificateRejected, check_certificate, check_geometric_margin
from novikoff.certificates.format import DatasetBinding
from novikoff.certificates.sharded import (
    LocalShards,
    ReadOptions,
    ShardedData,
    open_local,
    sharded_certify,
    sharded_check,
    sharded_check_geometric,
    sharded_geometric_margin,
)
from novikoff.certificates.sharded.data import load_text, open_shards
from novikoff.certificates.sharded.rows import ShardedRows
from novikoff.certificates.sharded.solve import float_guess, warm_pairs
from novikoff.certificates.solver import geometric_margin
from novikoff.certificates.warm_start import simplex_min_norm
from novikoff.commands.sharded_runs import sharded_nonseparable_bound, sharded_perceptron
from novikoff.data.dataset import Dataset
from novikoff.data.readers import ShardText, load_dataset, read_csv, read_libsvm, read_sharded
from novikoff.errors import InputError
from novikoff.exact.rational import RationalVector
from novikoff.reference.nonseparable import nonseparable_bound
from novikoff.twins.exact import exact_perceptron

pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning")

# ------------------------------------------------------------------------------ data


def planted(m: int, d: int, seed: int, noise: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Integer features in [-100, 100], labels the sign of a planted integer direction, the rows
    within 3% of the largest |x.w| of the boundary left out; ``noise``: that share of labels flipped."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, d)
    w[0] = w[0] or 1
    X = rng.integers(-100, 101, (m, d))
    s = X @ w
    keep = np.abs(s) >= 0.03 * np.abs(s).max()
    X, y = X[keep], np.sign(s[keep]).astype(np.int64)
    if noise:
        y[rng.random(y.size) < noise] *= -1
    return X, y


def csv_text(X: np.ndarray, y: np.ndarray) -> str:
    return "".join(",".join(map(str, row)) + f",{label}\n" for row, label in zip(X.tolist(), y.tolist()))


def write_shards(
    folder: Path, X: np.ndarray, y: np.ndarray, cuts: list[int], header_only: int | None = None
) -> Path:
    """The rows cut at ``cuts`` into ``part-NNN.csv`` files (shard ``header_only``: a header line
    and no sample), and their concatenation beside as ``folder.csv``; returns the folder."""
    folder.mkdir()
    bounds = [0, *cuts, len(y)]
    for k, (a, b) in enumerate(itertools.pairwise(bounds)):
        text = csv_text(X[a:b], y[a:b])
        if k == header_only:
            assert a == b
            text = ",".join(f"x{j}" for j in range(X.shape[1])) + ",label\n"
        (folder / f"part-{k:03d}.csv").write_text(text)
    Path(f"{folder}.csv").write_text(csv_text(X, y))
    return folder


def in_process(ds: Dataset, cuts: list[int]) -> ShardedData:
    """``ds`` cut at ``cuts`` into blocks of this process (as if read from shard files)."""
    bounds = [0, *cuts, ds.n_samples]
    texts = [
        ShardText(
            f"s{k}",
            "csv",
            [str(v) for v in ds.labels[a:b]],
            ds.denominator,
            list(ds.numerators[a:b]),
            ds.n_features if b > a else None,
        )
        for k, (a, b) in enumerate(itertools.pairwise(bounds))
    ]
    return open_shards(LocalShards(texts), "blocks", ReadOptions(bias=ds.bias))


def dataset(X: np.ndarray, y: np.ndarray, bias: object = 1) -> Dataset:
    return Dataset.from_arrays(X, y, bias=bias, name="planted")


def cuts_of(m: int, k: int, seed: int, empty: bool = False) -> list[int]:
    rng = np.random.default_rng(seed)
    cuts = sorted(rng.choice(np.arange(1, m), k - 1, replace=False).tolist())
    return sorted([*cuts, cuts[len(cuts) // 2]]) if empty else cuts


# ------------------------------------------------------------------------------ reading


def test_shards_read_as_their_concatenation(tmp_path: Path) -> None:
    X, y = planted(300, 4, 1)
    m = y.size
    folder = write_shards(tmp_path / "d", X, y, [7, 150, 150, m - 1], header_only=2)
    whole, parts = read_csv(f"{folder}.csv"), read_sharded(str(folder))
    assert (parts.numerators, parts.labels, parts.denominator) == (
        whole.numerators,
        whole.labels,
        whole.denominator,
    )
    assert read_sharded(str(folder / "part-*.csv")).numerators == whole.numerators  # a glob
    data = open_local(str(folder), ReadOptions())
    assert data.sizes == [7, 143, 0, m - 151, 1] and data.R2 == whole.R2
    assert data.binding() == DatasetBinding.of(whole)


def test_shards_share_one_denominator_labels_and_libsvm_base(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.csv").write_text("1/2,3,1\n0.25,-1,1\n")
    (folder / "b.csv").write_text("2,1/3,0\n")  # one sample; labels {0, 1} only across the shards
    whole = tmp_path / "whole.csv"
    whole.write_text("1/2,3,1\n0.25,-1,1\n2,1/3,0\n")
    a, b = read_sharded(str(folder)), read_csv(whole)
    assert (a.numerators, a.denominator, a.labels) == (b.numerators, b.denominator, b.labels)
    svm = tmp_path / "svm"
    svm.mkdir()
    (svm / "1.svm").write_text("+1 1:2 3:1/2\n-1 2:4\n")
    (svm / "2.svm").write_text("-1 0:1\n")  # an index 0 somewhere: every shard is 0-based
    joined = tmp_path / "joined.svm"
    joined.write_text("+1 1:2 3:1/2\n-1 2:4\n-1 0:1\n")
    s, t = read_sharded(str(svm)), read_libsvm(joined)
    assert (s.numerators, s.denominator, s.labels, s.n_features) == (
        t.numerators,
        t.denominator,
        t.labels,
        t.n_features,
    )


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, r"no shard files in this directory"),
        (
            {"a.csv": "1,2,1\n3,4,-1\n", "b.csv": "1,2,3,1\n"},
            r"shard .*b\.csv has 3 features, shard .*a\.csv has 2",
        ),
        (
            {"a.csv": "1,2,1\n3,4,-1\n", "b.csv": "1,2,1\n3,-1\n"},
            r"b\.csv:2: 2 fields, expected 3 \(ragged rows\)",
        ),
        (
            {"a.csv": "1,2,1\n3,4,-1\n", "b.svm": "1 1:2\n"},
            r"mixed formats: .*a\.csv is csv, .*b\.svm is libsvm",
        ),
        ({"a.csv": "x,y,label\n", "b.csv": "1,2,1\n"}, r"only one sample; a dataset needs at least two"),
        ({"a.csv": "1,2,1\n3,4,-1\n", "b.csv": "1,2,2\n"}, r"3 labels .* for a binary algorithm"),
    ],
)
def test_bad_shards_are_one_line_input_errors(tmp_path: Path, files: dict[str, str], message: str) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    with pytest.raises(InputError, match=message) as err:
        read_sharded(str(folder))
    assert "\n" not in str(err.value)
    with pytest.raises(InputError, match=message):
        open_local(str(folder), ReadOptions())


def write_parquet(folder: Path, X: np.ndarray, y: np.ndarray, cuts: list[int]) -> Path:
    """The rows cut at ``cuts`` into Parquet files (one int64 column per feature, the label last)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    folder.mkdir()
    bounds = [0, *cuts, len(y)]
    for k, (a, b) in enumerate(itertools.pairwise(bounds)):
        columns = {f"x{j}": X[a:b, j] for j in range(X.shape[1])}
        pq.write_table(pa.table({**columns, "label": y[a:b]}), folder / f"part-{k:03d}.parquet")
    return folder


def test_parquet_shards_are_read_exactly(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    folder = tmp_path / "pq"
    folder.mkdir()
    pq.write_table(pa.table({"a": [1, 3], "b": [0.5, 0.1], "y": [True, False]}), folder / "0.parquet")
    pq.write_table(
        pa.table({"a": [5], "b": pa.array([Decimal("-1.25")], pa.decimal128(5, 2)), "y": [True]}),
        folder / "1.parquet",
    )
    whole = tmp_path / "whole.csv"
    whole.write_text(f"1,0.5,1\n3,{Fraction(0.1)},0\n5,-1.25,1\n")  # 0.1 as the double it is
    a, b = read_sharded(str(folder)), read_csv(whole)
    assert (a.numerators, a.denominator, a.labels) == (b.numerators, b.denominator, b.labels)
    assert load_dataset(folder / "0.parquet").n_samples == 2
    pq.write_table(pa.table({"a": [1.0, float("nan")], "y": [1, -1]}), folder / "2.parquet")
    with pytest.raises(InputError, match=r"2\.parquet:2:1: column 'a': nan is not a finite number"):
        read_sharded(str(folder))


def test_an_empty_glob_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no file matches this pattern"):
        read_sharded(str(tmp_path / "*.csv"))
    assert load_text(str(tmp_path / "none.csv"), "csv", ReadOptions()).message.endswith("no such file")  # type: ignore[union-attr]


# ------------------------------------------------------------------------------ the float guess


def _guess_dense(data: ShardedData, m: int) -> np.ndarray | None:
    found = float_guess(data, "patterns")
    if found is None:
        return None
    out = np.zeros(m)
    out[found[0]] = found[1]
    return out


CASES = [  # (m, d, seed, noise, bias, shards, an empty shard, rows repeated)
    (2000, 20, 1, 0.0, 1, 5, False, False),
    (1500, 20, 2, 0.05, 1, 7, True, False),
    (1200, 1, 3, 0.0, 0, 4, False, False),
    (900, 3, 4, 0.05, 1, 3, True, True),
    (700, 5, 5, 0.0, 1, 6, False, True),
]


@pytest.mark.parametrize(("m", "d", "seed", "noise", "bias", "k", "empty", "repeat"), CASES)
def test_the_sharded_guess_is_the_in_memory_one_bit_for_bit(
    m: int, d: int, seed: int, noise: float, bias: int, k: int, empty: bool, repeat: bool
) -> None:
    X, y = planted(m, d, seed, noise)
    if repeat:  # repeated rows: ties where the passes cut the lowest rows
        X, y = np.vstack([X, X[::3]]), np.concatenate([y, y[::3]])
    ds = dataset(X, y, bias)
    data = in_process(ds, cuts_of(ds.n_samples, k, seed, empty))
    local = simplex_min_norm(ds.pattern_array)  # type: ignore[arg-type]
    got = _guess_dense(data, ds.n_samples)
    assert local is not None and got is not None and np.array_equal(local, got)


def test_ties_at_the_cut_bring_the_whole_candidate_list(monkeypatch: pytest.MonkeyPatch) -> None:
    X, y = planted(400, 4, 7, 0.05)
    X, y = np.vstack([X] * 3), np.concatenate([y] * 3)  # every row three times
    ds = dataset(X, y)
    data = in_process(ds, [100, 500, 900])
    calls: list[int] = []
    original = ShardedRows._lowest_of_all

    def counted(self: ShardedRows, *args: Any) -> np.ndarray:
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(ShardedRows, "_lowest_of_all", counted)
    local = simplex_min_norm(ds.pattern_array)  # type: ignore[arg-type]
    got = _guess_dense(data, ds.n_samples)
    assert calls and local is not None and got is not None and np.array_equal(local, got)


def test_the_guess_of_the_shipped_vectors(coq_dir: Path) -> None:
    for name in ("vec50_1", "vec100_1"):
        ds = read_csv(coq_dir / f"{name}.csv")
        data = in_process(ds, [7, ds.n_samples // 2, ds.n_samples - 3])
        local = simplex_min_norm(ds.pattern_array)  # type: ignore[arg-type]
        got = _guess_dense(data, ds.n_samples)
        assert local is not None and got is not None and np.array_equal(local, got), name


def test_warm_pairs_order_the_guess_as_certify_does() -> None:
    assert warm_pairs(np.array([2, 5, 9]), np.array([0.25, 0.5, 0.25])) == [(5, 0.5), (2, 0.25), (9, 0.25)]
    assert warm_pairs(np.array([1]), np.array([0.0])) == []


# ------------------------------------------------------------------------------ certificates


@pytest.mark.parametrize(("m", "d", "seed", "noise", "bias", "k", "empty", "repeat"), CASES)
def test_the_sharded_certificates_are_the_single_machine_ones(
    m: int, d: int, seed: int, noise: float, bias: int, k: int, empty: bool, repeat: bool
) -> None:
    X, y = planted(m, d, seed, noise)
    if repeat:
        X, y = np.vstack([X, X[::3]]), np.concatenate([y, y[::3]])
    ds = dataset(X, y, bias)
    data = in_process(ds, cuts_of(ds.n_samples, k, seed, empty))
    main, got = certify(ds, geometric=False), sharded_certify(data)
    assert type(got) is type(main) and got == main and got.lambdas.texts() == main.lambdas.texts()
    if isinstance(main, SeparableCertificate) and ds.bias > 0 and len(ds.classes) == 2:
        geo, sgeo = geometric_margin(ds), sharded_geometric_margin(data, got)  # type: ignore[arg-type]
        assert sgeo == geo
        assert sgeo is not None
        sharded_check_geometric(data, sgeo)


def _separable_case() -> tuple[Dataset, SeparableCertificate]:
    X, y = planted(800, 6, 11)
    ds = dataset(X, y)
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate) and cert.geometric is not None
    return ds, cert


def _codes(ds: Dataset, cut: list[int], cert: Certificate) -> tuple[str | None, str | None]:
    """The checker's first false fact on the whole data, and the sharded check's."""
    try:
        check_certificate(ds, cert)
        whole = None
    except CertificateRejected as exc:
        whole = exc.code
    try:
        sharded_check(in_process(ds, cut), cert)
        parts = None
    except CertificateRejected as exc:
        parts = exc.code
    return whole, parts


def _with_sample(ds: Dataset, x: tuple[int, ...], y: int) -> Dataset:
    return Dataset((*ds.numerators, x), ds.denominator, (*ds.labels, y), ds.bias, ds.name)


def _padded(cert: SeparableCertificate, extra: int = 1) -> SeparableCertificate:
    """``cert`` with zero weights for samples appended to the data (a claim about them)."""
    lam = cert.lambdas
    return dataclasses.replace(cert, lambdas=RationalVector([*lam.numerators, *[0] * extra], lam.denominator))


def test_false_certificates_are_rejected_for_the_checker_s_reason() -> None:
    ds, cert = _separable_case()
    cut = [200, 500]
    assert _codes(ds, cut, cert) == (None, None)
    support = next(i for i, v in enumerate(cert.lambdas.numerators) if v)
    # a row below the margin in the last shard: a support sample with the other label
    low = _with_sample(ds, ds.numerators[support], -ds.labels[support])
    assert _codes(low, cut, _padded(cert)) == ("not-minimal", "not-minimal")
    # a wrong R^2 (the bound claimed with it, so that R^2 is the first false fact)
    wrong = dataclasses.replace(cert, R2=cert.R2 + 1, bound=(cert.R2 + 1) / cert.gamma2)
    assert _codes(ds, cut, wrong) == ("radius", "radius")
    # a weight off by one unit, where it is not 0 and where it is
    lam = list(cert.lambdas.numerators)
    for i in (support, lam.index(0)):
        off = lam.copy()
        off[i] += 1
        bad = dataclasses.replace(cert, lambdas=RationalVector(off, cert.lambdas.denominator))
        assert _codes(ds, cut, bad) == ("lambda-sum", "lambda-sum")
    neg = lam.copy()
    neg[lam.index(0)] = -1
    assert _codes(
        ds, cut, dataclasses.replace(cert, lambdas=RationalVector(neg, cert.lambdas.denominator))
    ) == (
        "lambda-negative",
        "lambda-negative",
    )
    short = dataclasses.replace(cert, lambdas=RationalVector(lam[:-1], cert.lambdas.denominator))
    assert _codes(ds, cut, short) == ("lambda-length", "lambda-length")


def test_a_false_gordan_certificate_is_rejected() -> None:
    X, y = planted(600, 5, 12, 0.05)
    ds = dataset(X, y)
    cert = certify(ds)
    assert isinstance(cert, GordanCertificate)
    lam = list(cert.lambdas.numerators)
    i = next(j for j, v in enumerate(lam) if v)
    lam[i], lam[lam.index(0)] = lam[i] - 1, 1  # still convex, no longer summing to zero
    bad = dataclasses.replace(cert, lambdas=RationalVector(lam, cert.lambdas.denominator))
    assert _codes(ds, [100, 400], bad) == ("gordan-nonzero", "gordan-nonzero")


def _geometric_codes(ds: Dataset, cut: list[int], geo: Any) -> tuple[str | None, str | None]:
    found: list[str | None] = []
    for check in (
        lambda: check_geometric_margin(ds, geo),
        lambda: sharded_check_geometric(in_process(ds, cut), geo),
    ):
        try:
            check()
            found.append(None)
        except CertificateRejected as exc:
            found.append(exc.code)
    return found[0], found[1]


def test_false_geometric_margins_are_rejected_for_the_checker_s_reason() -> None:
    ds, cert = _separable_case()
    geo = cert.geometric
    assert geo is not None
    cut = [300, 600]
    assert _geometric_codes(ds, cut, geo) == (None, None)
    # a negative sample scoring above the threshold, in the last shard: a positive support row
    p = next(r for r, v in enumerate(geo.alpha.numerators) if v)
    x = [row for row, y in zip(ds.numerators, ds.labels) if y == 1][p]
    more = _with_sample(ds, x, -1)
    beta = RationalVector([*geo.beta.numerators, 0], geo.beta.denominator)
    assert _geometric_codes(more, cut, dataclasses.replace(geo, beta=beta)) == (
        "geometric-not-closest",
        "geometric-not-closest",
    )
    alpha = list(geo.alpha.numerators)
    alpha[p] += 1
    off = dataclasses.replace(geo, alpha=RationalVector(alpha, geo.alpha.denominator))
    assert _geometric_codes(ds, cut, off) == ("geometric-sum", "geometric-sum")
    far = dataclasses.replace(geo, distance2=geo.distance2 + 1)
    assert _geometric_codes(ds, cut, far) == ("geometric-distance", "geometric-distance")


# ------------------------------------------------------------------------------ the run and the bound


@pytest.mark.parametrize(("noise", "epochs"), [(0.0, 1000), (0.0, 2), (0.05, 6)])
def test_the_relayed_run_is_the_twin_s(noise: float, epochs: int) -> None:
    X, y = planted(1500, 8, 21, noise)
    ds = dataset(X, y)
    cert = certify(ds, geometric=False)
    sep = cert if isinstance(cert, SeparableCertificate) else None
    data = in_process(ds, [1, 400, 400, 1100])
    want = exact_perceptron(ds, max_epochs=epochs, certificate=sep, track_norms=True)
    got = sharded_perceptron(data, max_epochs=epochs, certificate=sep, track_norms=True)
    assert got.updates == want.updates and got.weights == want.weights
    assert (got.epochs, got.converged, got.invariants_checked) == (
        want.epochs,
        want.converged,
        want.invariants_checked,
    )
    assert got.norm2_history == want.norm2_history
    plain = sharded_perceptron(data, max_epochs=epochs)  # the updated samples alone come back
    assert plain.updates == want.updates and plain.weights == want.weights and plain.epochs == want.epochs
    if sep is None:  # the Freund-Schapire bound: identical on these data (module docstring of sharded_runs)
        fs, sfs = nonseparable_bound(ds, run=want), sharded_nonseparable_bound(data, got)
        assert sfs.claim() == fs.claim() and sfs.bound == fs.bound and sfs.checks == fs.checks


def test_the_relayed_run_moves_up_the_integer_tiers() -> None:
    X, y = planted(300, 3, 22, 0.1)
    rows = [[v * 2**24 + 1 for v in row] for row in X.tolist()]  # float64, then int64, then Python ints
    big = Dataset.from_integer_rows(rows, 1, y.tolist())
    want = exact_perceptron(big, max_epochs=60)
    assert want.arithmetic == ("float64", "int64", "python-int")
    got = sharded_perceptron(in_process(big, [100, 200]), max_epochs=60)
    assert got.updates == want.updates and got.weights == want.weights and got.epochs == want.epochs


# ------------------------------------------------------------------------------ the command on Dask


@pytest.fixture(scope="module")
def executor() -> Iterator[str]:
    """``dask://...`` of a LocalCluster of 2 worker processes (1 thread each) on loopback;
    without the distributed package skipped, but on CI (which installs it) a failure."""
    if os.environ.get("CI"):
        import distributed
    else:
        distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield "dask://" + str(cluster.scheduler_address).removeprefix("tcp://")
    finally:
        cluster.close()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "m", "d", "noise", "cuts", "header_only", "options"),
    [
        ("separable", 1500, 10, 0.0, [1, 333, 700, 701, 1200], None, ()),
        ("noisy", 1200, 8, 0.05, [400, 400, 777], 1, ("--max-updates", "9000")),
    ],
)
def test_certificate_and_json_are_the_single_machine_ones_byte_for_byte(
    executor: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    m: int,
    d: int,
    noise: float,
    cuts: list[int],
    header_only: int | None,
    options: tuple[str, ...],
) -> None:
    X, y = planted(m, d, 31, noise)
    assert y.size % (len(cuts) + 1)  # the shards do not share the samples evenly
    folder = write_shards(tmp_path / name, X, y, cuts, header_only)
    runs = {
        "file": (f"{folder}.csv",),
        "here": (str(folder),),  # the shards read here as their concatenation
        "dask": (str(folder), "--executor", executor),
    }
    out = {}
    for how, head in runs.items():
        code, text, err = run_cli(
            capsys, "certify", *head, *options, "--json", "--certificate", str(tmp_path / how)
        )
        assert code == 0, err
        out[how] = json.loads(text)
        assert out[how].pop("certificate_file") == str(tmp_path / how)
    files = {how: (tmp_path / how).read_bytes() for how in runs}
    assert files["dask"] == files["file"] == files["here"]
    assert json.dumps(out["dask"]) == json.dumps(out["here"])
    assert out["dask"].pop("dataset") == str(folder)
    assert out["file"].pop("dataset") == f"{folder}.csv"
    assert json.dumps(out["dask"]) == json.dumps(out["file"])
    assert ("nonseparable_bound" in out["dask"]) == bool(noise)
    code, text, _ = run_cli(capsys, "check", f"{folder}.csv", str(tmp_path / "dask"))
    assert code == 0 and "valid" in text.lower()


def test_parquet_shards_give_the_csv_file_s_certificate(
    executor: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    X, y = planted(900, 7, 34)
    folder = write_parquet(tmp_path / "pq", X, y, [100, 500])
    (tmp_path / "all.csv").write_text(csv_text(X, y))
    for head, name in (
        ((str(tmp_path / "all.csv"),), "file"),
        ((str(folder), "--executor", executor), "dask"),
    ):
        code, _, err = run_cli(capsys, "certify", *head, "--certificate", str(tmp_path / name))
        assert code == 0, err
    assert (tmp_path / "file").read_bytes() == (tmp_path / "dask").read_bytes()


def test_the_summary_says_where_and_what_may_differ(
    executor: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    X, y = planted(600, 6, 32, 0.05)
    folder = write_shards(tmp_path / "d", X, y, [250])
    code, text, _ = run_cli(capsys, "certify", str(folder), "--executor", executor, "--max-updates", "3000")
    assert code == 0
    assert "in 2 shards on dask://127.0.0.1:" in text and "separable: no" in text
    assert "Freund-Schapire bound" in text and "in rare cases another u" in text


def test_sharded_input_errors_name_the_shard(
    executor: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.csv").write_text("1,2,1\n3,4,-1\n")
    (folder / "b.csv").write_text("1,2,1\n3,-1\n")
    code, _, err = run_cli(capsys, "certify", str(folder), "--executor", executor)
    assert code == 2 and err.count("\n") == 1 and "b.csv:2: 2 fields, expected 3 (ragged rows)" in err
    code, _, err = run_cli(capsys, "certify", str(tmp_path / "none-*.csv"), "--executor", executor)
    assert code == 2 and "no file matches this pattern" in err
    (folder / "b.csv").write_text("5,6,1\n")
    code, _, err = run_cli(capsys, "certify", str(folder), "--executor", executor, "--order", "shuffle:1")
    assert code == 2 and "natural order" in err


def test_the_workers_read_the_shards_and_the_driver_holds_no_row(
    executor: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the Python API: the blocks are futures on the workers; the driver's copy of rows
    is the support and the rows the solver asked for."""
    import distributed

    from novikoff.certificates.sharded import open_dask

    X, y = planted(1000, 6, 33)
    folder = write_shards(tmp_path / "d", X, y, [300, 650])
    with distributed.Client(executor.replace("dask://", "tcp://"), set_as_default=False) as client:
        data = open_dask(client, str(folder), ReadOptions())
        assert all(isinstance(b, distributed.Future) for b in data.shards.blocks)  # type: ignore[attr-defined]
        cert = sharded_certify(data)
        assert isinstance(cert, SeparableCertificate)
        held = data.held()
        assert held < data.n_samples // 10, held
        assert cert == certify(read_csv(f"{folder}.csv"), geometric=False)
    assert Fraction(cert.R2) == data.R2
