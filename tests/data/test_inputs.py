"""Inputs people have: pandas, scipy.sparse, {0,1} labels, LIBSVM zero_based."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sps

from novikoff.data.dataset import Dataset, map_labels, sign_labels
from novikoff.data.multiclass import MulticlassData
from novikoff.data.readers import read_libsvm
from novikoff.errors import DataFormatError, InputError
from novikoff.reference.large_margin import run_pdm
from novikoff.reference.perceptron import run_perceptron
from novikoff.twins.exact import exact_perceptron
from novikoff.twins.large_margin import pdm_twin, pfm_twin
from novikoff.twins.multiclass import multiclass_twin
from novikoff.twins.perceptron import perceptron_twin

pd = pytest.importorskip("pandas")

X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.0], [-2.0, 0.25], [0.5, -3.0]])
Y01 = np.array([1, 1, 0, 0, 0])
YPM = 2 * Y01 - 1
SPARSE = [sps.csr_matrix, sps.csc_matrix, sps.coo_matrix, sps.csr_array, sps.coo_array, sps.lil_array]


def reference_updates() -> list[tuple[int, int]]:
    return run_perceptron(Dataset.from_arrays(X, YPM)).updates


# ----------------------------------------------------------------------------- pandas
def test_dataframe_keeps_column_names_and_values() -> None:
    df = pd.DataFrame(X, columns=["height", "weight"])
    ds = Dataset.from_arrays(df, pd.Series(Y01))
    assert ds.feature_names == ("height", "weight")
    assert ds.features(1) == [2, Fraction(1, 2)]
    assert ds.labels == tuple(YPM)
    assert ds.with_bias(0).feature_names == ("height", "weight")


def test_dataframe_mixed_columns_are_exact() -> None:
    df = pd.DataFrame({"big": [2**70, -1], "third": [Fraction(1, 3), 0.1], "flag": [True, False]})
    ds = Dataset.from_arrays(df, ["a", "b"], positive="a")
    assert ds.features(0) == [2**70, Fraction(1, 3), 1]
    assert ds.features(1) == [-1, Fraction(0.1), 0]  # the float 0.1, exactly


def test_dataframe_bad_cell_names_row_and_column() -> None:
    df = pd.DataFrame({"a": [1, 2], "colour": ["red", "blue"]})
    with pytest.raises(InputError, match=r"row 0, column 1 \('colour'\): not a number: 'red'"):
        Dataset.from_arrays(df, [0, 1])


def test_series_as_features_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="Series"):
        Dataset.from_arrays(pd.Series([1.0, 2.0]), [0, 1])


def test_dataframe_labels_one_column_only() -> None:
    assert Dataset.from_arrays(X, pd.DataFrame({"y": Y01})).labels == tuple(YPM)
    with pytest.raises(InputError, match="one column"):
        Dataset.from_arrays(X, pd.DataFrame({"y": Y01, "z": Y01}))


def test_pandas_in_every_path() -> None:
    df, ys = pd.DataFrame(X, columns=["a", "b"]), pd.Series(Y01)
    expected = reference_updates()
    assert perceptron_twin(df, ys).updates == expected
    assert exact_perceptron(df, ys).updates == expected
    assert pdm_twin(df, ys, eps=1).updates == expected  # PDM(1) is the perceptron
    assert pfm_twin(df, ys, beta=0).updates == expected  # PFM(0) too
    mc = MulticlassData.from_arrays(df, pd.Series(["x", "y", "z", "x", "y"]))
    assert mc.features(0) == [1, 2] and mc.class_names == ("x", "y", "z")


# ----------------------------------------------------------------------------- sparse
@pytest.mark.parametrize("kind", SPARSE, ids=lambda k: k.__name__)
def test_sparse_in_every_path(kind: type) -> None:
    S = kind(X)
    expected = reference_updates()
    assert Dataset.from_arrays(S, Y01).features(3) == [-2, Fraction(1, 4)]
    assert perceptron_twin(S, Y01).updates == expected
    exact = exact_perceptron(S, Y01)
    assert exact.updates == expected
    assert exact.weights == run_perceptron(Dataset.from_arrays(X, YPM)).weights
    assert pdm_twin(S, Y01, eps=1).updates == expected
    assert pdm_twin(S, Y01, eps=Fraction(1, 2)).updates == run_pdm(Dataset.from_arrays(X, Y01), "1/2").updates
    assert MulticlassData.from_arrays(S, [0, 1, 2, 0, 1]).features(2) == [-1, -1]


def test_sparse_integers_beyond_float64_stay_exact() -> None:
    big = np.array([[2**60 + 1, 0], [0, -(2**61) - 3]], dtype=np.int64)
    S = sps.csr_matrix(big)
    ds = Dataset.from_arrays(S, [1, 0])
    assert ds.features(0) == [2**60 + 1, 0]
    run = exact_perceptron(S, [1, 0])
    assert run.weights == run_perceptron(ds).weights
    assert run.weights[0] == 2**60 + 1  # float64 would have rounded it


def test_sparse_too_large_to_densify_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import novikoff.data.dataset

    monkeypatch.setattr(novikoff.data.dataset, "MAX_DENSE_ENTRIES", 5)
    with pytest.raises(InputError, match="too large to densify"):
        exact_perceptron(sps.csr_matrix(X), Y01)
    assert pdm_twin(sps.csr_matrix(X), Y01, eps=1).updates == reference_updates()  # CSR kept as is


def test_sparse_labels_are_refused() -> None:
    with pytest.raises(InputError, match="labels must be a dense"):
        Dataset.from_arrays(X, sps.csr_matrix(Y01.reshape(-1, 1)))


# ----------------------------------------------------------------------------- labels
@pytest.mark.parametrize(
    "labels", [Y01, YPM, Y01.astype(bool), Y01.astype(float), list(Y01), [str(v) for v in Y01]]
)
def test_one_label_rule_everywhere(labels: object) -> None:
    expected = reference_updates()
    assert Dataset.from_arrays(X, labels).labels == tuple(YPM)
    assert list(sign_labels(labels)) == list(YPM)
    assert perceptron_twin(X, labels).updates == expected
    assert exact_perceptron(X, labels).updates == expected
    assert pdm_twin(X, labels, eps=1).updates == expected
    assert pdm_twin(sps.csr_matrix(X), labels, eps=1).updates == expected


@pytest.mark.parametrize("labels", [[0, 2, 2, 0, 0], ["a", "b", "a", "a", "b"], [1, 1, 1, 1, 3]])
def test_other_labels_need_a_positive_label(labels: list[object]) -> None:
    for run in (perceptron_twin, exact_perceptron):
        with pytest.raises(InputError, match="positive label"):
            run(X, labels)
    with pytest.raises(InputError, match="positive label"):
        pdm_twin(sps.csr_matrix(X), labels, eps=1)
    assert map_labels(labels, positive=labels[1])[1] == 1


def test_multiclass_twin_takes_pandas_and_sparse() -> None:
    y = np.array([0, 1, 2, 0, 1])
    dense = multiclass_twin(X, y)
    assert multiclass_twin(pd.DataFrame(X), pd.Series(y)).updates == dense.updates
    assert multiclass_twin(sps.csr_matrix(X), y).updates == dense.updates


# ----------------------------------------------------------------------------- LIBSVM
def _dump(tmp_path: Path, zero_based: bool, X: np.ndarray, y: np.ndarray) -> Path:
    from sklearn.datasets import dump_svmlight_file

    path = tmp_path / f"d{int(zero_based)}.svm"
    dump_svmlight_file(X, y, str(path), zero_based=zero_based)
    return path


@pytest.mark.parametrize("zero_based", [True, False])
def test_libsvm_auto_reads_what_sklearn_dumps(tmp_path: Path, zero_based: bool) -> None:
    from sklearn.datasets import load_svmlight_file

    data = np.array([[0.5, 0.0, 2.0], [0.0, 1.25, 0.0], [3.0, 0.0, 0.0]])
    path = _dump(tmp_path, zero_based, data, np.array([1, 0, 1]))
    ds = read_libsvm(path)
    assert [ds.features(i) for i in range(3)] == [[Fraction(v) for v in row] for row in data]
    assert ds.labels == (1, -1, 1)
    loaded, _ = load_svmlight_file(str(path))  # the same rule as sklearn's loader
    assert np.array_equal(loaded.toarray(), data)


def test_libsvm_zero_based_explicit(tmp_path: Path) -> None:
    path = tmp_path / "z.svm"
    path.write_text("+1 0:1 2:1/3\n-1 1:2\n")
    assert read_libsvm(path, zero_based=True).features(0) == [1, 0, Fraction(1, 3)]
    assert read_libsvm(path, zero_based=True, n_features=5).n_features == 5
    with pytest.raises(DataFormatError, match=r"z.svm:1:2: feature index 0 < 1 \(indices are 1-based"):
        read_libsvm(path, zero_based=False)
    with pytest.raises(DataFormatError, match=r"z.svm:1:3: feature index 2 > n_features=2"):
        read_libsvm(path, n_features=2)
    with pytest.raises(InputError, match="zero_based"):
        read_libsvm(path, zero_based="yes")
    one = tmp_path / "one.svm"
    one.write_text("+1 1:1 3:1/3\n-1 2:2\n")
    assert read_libsvm(one).features(0) == [1, 0, Fraction(1, 3)]  # auto: no 0 index, 1-based
    assert read_libsvm(one, zero_based=True).features(0) == [0, 1, 0, Fraction(1, 3)]


def test_libsvm_cli_reads_a_zero_based_file(tmp_path: Path) -> None:
    from novikoff.cli import main

    path = _dump(tmp_path, True, X, Y01)
    assert main(["certify", str(path)]) == 0
