from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from novikoff.data.dataset import Dataset, map_labels
from novikoff.data.readers import load_dataset, read_csv, read_libsvm
from novikoff.errors import DataFormatError, InputError


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_bias_trick_reflection_and_radius() -> None:
    ds = Dataset.from_arrays([[1, 1], [2, 2], [-1, -1], [-2, 0]], [1, 1, -1, -1])
    assert ds.pattern(0) == [1, 1, 1]
    assert ds.pattern(3) == [2, 0, -1]  # y (x, rho) with y = -1
    assert ds.R2 == 9  # ||(2, 2, 1)||^2
    half = ds.with_bias(Fraction(1, 2))
    assert half.pattern(2) == [1, 1, Fraction(-1, 2)]
    assert ds.with_bias(0).dimension == 2


def test_float64_input_is_exact() -> None:
    ds = Dataset.from_arrays(np.array([[0.1, 2.0**-60], [1e300, -3.0]]), [0, 1])
    assert ds.features(0)[0] == Fraction(0.1) != Fraction(1, 10)
    assert ds.features(0)[1] == Fraction(1, 2**60)
    assert ds.features(1)[0] == Fraction(1e300)
    assert ds.labels == (-1, 1)


def test_huge_integers_stay_exact() -> None:
    big = 10**400 + 1
    ds = Dataset.from_arrays([[big, 1], [-big, 2]], [1, -1])
    assert ds.features(0)[0] == big
    assert ds.R2 == big * big + 4 + 1
    with pytest.raises(InputError, match="float64"):
        ds.to_numpy()


@pytest.mark.parametrize(
    ("labels", "positive", "expected"),
    [
        ([1, -1, 1], None, [1, -1, 1]),
        ([0, 1, 1], None, [-1, 1, 1]),
        (["0", "1.0", "1"], None, [-1, 1, 1]),
        (["M", "R", "M"], "M", [1, -1, 1]),
        ([2, 7, 7], 7, [-1, 1, 1]),
        ([1, 1], None, [1, 1]),
        ([0, 0], None, [-1, -1]),
    ],
)
def test_label_rules(labels: list[object], positive: object, expected: list[int]) -> None:
    assert map_labels(labels, positive) == expected


def test_label_errors() -> None:
    with pytest.raises(InputError, match="positive label"):
        map_labels(["a", "b"])
    with pytest.raises(InputError, match="3 labels"):
        map_labels([1, 2, 3])
    with pytest.raises(InputError, match="3 labels"):
        map_labels([1, 2, 3], positive=1)
    assert map_labels([1, 2, 3], positive=1, one_vs_rest=True) == [1, -1, -1]
    with pytest.raises(InputError, match="does not occur"):
        map_labels(["a", "b"], positive="c")


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([[1, 2], [3]], [1, 1], "ragged"),
        ([[1, float("nan")]], [1], "finite"),
        (np.array([[1.0, np.inf]]), [1], "finite"),
        ([[1, "x"]], [1], "not a number"),
        ([], [], "no samples"),
        ([[1], [2]], [1], "labels"),
    ],
)
def test_array_errors_name_the_place(X: object, y: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Dataset.from_arrays(X, y)


def test_sequences_of_int_fraction_and_str() -> None:
    ds = Dataset.from_arrays([[1, Fraction(1, 3), "0.25"], ["2/7", 0, -1]], [1, -1])
    assert ds.features(0) == [1, Fraction(1, 3), Fraction(1, 4)]
    assert ds.features(1) == [Fraction(2, 7), 0, -1]


def test_csv_exact_with_header_detection(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "a,b,label\n0.1,1/3,1\n-2,1e-3,0\n")
    ds = read_csv(p)
    assert ds.features(0) == [Fraction(1, 10), Fraction(1, 3)]
    assert ds.features(1) == [-2, Fraction(1, 1000)]
    assert ds.labels == (1, -1)
    with pytest.raises(DataFormatError, match=r"d\.csv:1:1: not a number"):
        read_csv(p, header=False)


def test_csv_label_column_and_positive(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "R,1,2\nM,3,4\nR,5,6\n")
    ds = read_csv(p, label_column=0, positive="M")
    assert ds.labels == (-1, 1, -1)
    assert ds.features(1) == [3, 4]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("1,2,1\n3,nan,-1\n", r":2:2: 'nan' is not a finite"),
        ("1,2,1\n3,4\n", r":2: 2 fields, expected 3"),
        ("1,2,1\n3,x4,-1\n", r":2:2: not a number"),
        ("1,2,1\n3,inf,-1\n", r":2:2:"),
        ("", "empty file"),
        ("1,2,1\n", "only one sample"),
        ("1,2,5\n3,4,6\n", "positive label"),
        ("1,2,1\n3,4,\n", r":2:3: empty label"),
    ],
)
def test_csv_errors_name_file_line_column(tmp_path: Path, text: str, where: str) -> None:
    p = write(tmp_path, "bad.csv", text)
    with pytest.raises(DataFormatError, match=where):
        read_csv(p)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="no such file"):
        load_dataset(tmp_path / "nope.csv")
    with pytest.raises(DataFormatError, match="directory"):
        load_dataset(tmp_path)


def test_libsvm_sparse_one_based(tmp_path: Path) -> None:
    p = write(tmp_path, "d.svm", "+1 1:0.5 3:2/3 # comment\n-1 2:7\n")
    ds = read_libsvm(p)
    assert ds.n_features == 3
    assert ds.features(0) == [Fraction(1, 2), 0, Fraction(2, 3)]
    assert ds.features(1) == [0, 7, 0]
    assert load_dataset(p).labels == (1, -1)
    assert read_libsvm(p, n_features=5).n_features == 5


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("1 -1:1\n-1 1:1\n", r":1:2: feature index -1 < 0"),
        ("1 2:1 1:3\n-1 1:1\n", r":1:3: feature index 1 is not increasing"),
        ("1 1:abc\n-1 1:1\n", r":1:2: not a number"),
        ("1 1\n-1 1:1\n", r":1:2: expected index:value"),
        ("1 1000000001:1\n-1 1:1\n", r":1:2: feature index 1000000001 > 1000000"),
    ],
)
def test_libsvm_errors(tmp_path: Path, text: str, where: str) -> None:
    p = write(tmp_path, "bad.svm", text)
    with pytest.raises(DataFormatError, match=where):
        read_libsvm(p)


def test_every_shared_benchmark_file_loads(coq_dir: Path) -> None:
    files = sorted(coq_dir.glob("*.csv"))
    assert len(files) >= 6
    shapes = {f.name: load_dataset(f) for f in files}
    assert (shapes["vec400_1.csv"].n_samples, shapes["vec400_1.csv"].n_features) == (400, 1000)
    assert (shapes["rocks_and_mines.csv"].n_samples, shapes["rocks_and_mines.csv"].n_features) == (208, 60)
    assert (shapes["iris_setosa.csv"].n_samples, shapes["iris_setosa.csv"].n_features) == (150, 4)
    # decimals are read exactly: the first sonar value is 0.02 = 1/50
    assert shapes["rocks_and_mines.csv"].features(0)[0] == Fraction(1, 50)
    assert shapes["vec50_1.csv"].features(0)[0] == Fraction(137, 250)
