"""scikit-learn estimators: check_estimator, exact runs, certificates, labels."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sps
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from novikoff.certificates import SeparableCertificate, certify
from novikoff.data.dataset import Dataset
from novikoff.data.multiclass import MulticlassData
from novikoff.integrations.sklearn import PDM, PFM, MultiClassPerceptron, Perceptron
from novikoff.reference.large_margin import run_pdm, run_pfm
from novikoff.reference.multiclass import run_multiclass
from novikoff.reference.perceptron import run_perceptron

# Every parameter at its default except max_epochs, lowered so that the checks' random
# (non-separable) data take seconds, not minutes; with the default 1000 the float
# estimators pass the same checks (measured; about 30-90 s each).
ESTIMATORS = [
    Perceptron(max_epochs=50),
    Perceptron(exact=True, max_epochs=50),
    PDM(max_epochs=50),
    PDM(exact=True, max_epochs=30),
    PFM(beta=0.1, max_epochs=50),
    PFM(beta=0.1, exact=True, max_epochs=30),
    MultiClassPerceptron(max_epochs=50),
    MultiClassPerceptron(exact=True, max_epochs=30),
]


# No expected failures: every applicable check passes (check_array_api_input skips
# itself unless SCIPY_ARRAY_API=1 is set).
@parametrize_with_checks(ESTIMATORS)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_check_estimator(estimator: object, check: object) -> None:
    check(estimator)  # type: ignore[operator]


# --------------------------------------------------------------------------- data
SEPARABLE_X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.0], [-2.0, 0.25], [0.5, -3.0], [3.0, 1.0]])
SEPARABLE_Y = np.where(SEPARABLE_X[:, 0] + SEPARABLE_X[:, 1] > 0, "yes", "no")


def dataset(bias: object = 1) -> Dataset:
    return Dataset.from_arrays(SEPARABLE_X, SEPARABLE_Y, positive="yes", bias=bias)


@pytest.mark.parametrize("exact", [False, True])
def test_perceptron_matches_the_reference_and_reports_the_certificate(exact: bool) -> None:
    est = Perceptron(exact=exact).fit(SEPARABLE_X, SEPARABLE_Y)
    ref = run_perceptron(dataset())
    cert = certify(dataset(), geometric=False)
    assert isinstance(cert, SeparableCertificate)
    assert list(est.classes_) == ["no", "yes"]
    assert est.converged_ and est.n_updates_ == ref.mistakes and est.n_iter_ == ref.epochs
    assert est.separable_ is True and est.certificate_.separable
    assert isinstance(est.margin2_, Fraction) and est.margin2_ == cert.gamma2
    assert est.margin_ == pytest.approx(float(cert.gamma2) ** 0.5)
    assert est.mistake_bound_ == cert.R2 / cert.gamma2 and est.n_updates_ <= est.mistake_bound_
    w = [float(v) for v in ref.weights]
    assert np.allclose(est.coef_, [w[:2]]) and np.allclose(est.intercept_, [w[2]])
    assert list(est.predict(SEPARABLE_X)) == list(SEPARABLE_Y)
    if exact:
        assert est.exact_weights_ == [tuple(ref.weights)]


def test_exact_runs_are_exact_on_float_inputs() -> None:
    # 0.1 and 0.2 are dyadic rationals near 1/10 and 1/5; the exact run sees exactly those
    X = np.array([[0.1, 0.2], [0.3, -0.1], [-0.2, -0.3], [-0.1, 0.05]])
    y = np.array([1, 1, 0, 0])
    est = Perceptron(exact=True, rho=Fraction(1, 3)).fit(X, y)
    ref = run_perceptron(Dataset.from_arrays(X, y, bias=Fraction(1, 3)))
    assert est.exact_weights_ == [tuple(ref.weights)]
    assert est.intercept_[0] == float(ref.weights[-1] / 3)
    # predictions decided exactly: a point exactly on the hyperplane predicts the first class
    w = ref.weights
    on_plane = np.array([[0.0, float(-(w[2] / 3) / w[1])]])
    if Fraction(on_plane[0, 1]) * w[1] + w[2] / 3 == 0:
        assert est.predict(on_plane)[0] == 0


@pytest.mark.parametrize("exact", [False, True])
def test_pdm_and_pfm_match_their_references(exact: bool) -> None:
    pdm = PDM(eps="1/2", exact=exact).fit(SEPARABLE_X, SEPARABLE_Y)
    ref = run_pdm(dataset(), "1/2")
    assert pdm.converged_ and pdm.n_updates_ == ref.mistakes
    pfm = PFM(beta="1/4", exact=exact).fit(SEPARABLE_X, SEPARABLE_Y)
    ref = run_pfm(dataset(), "1/4")
    assert pfm.converged_ and pfm.n_updates_ == ref.mistakes
    if exact:
        assert pfm.exact_weights_ == [tuple(ref.weights)]
    cert = certify(dataset(), geometric=False)
    assert isinstance(cert, SeparableCertificate)
    assert pdm.margin2_ == pfm.margin2_ == cert.gamma2


@pytest.mark.parametrize("exact", [False, True])
def test_multiclass_first_argmax_and_kesler_certificate(exact: bool) -> None:
    X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0], [3.0, 0.5], [0.5, 3.0], [-3.0, -1.0]])
    y = np.array(["a", "b", "c", "a", "b", "c"])
    est = MultiClassPerceptron(exact=exact).fit(X, y)
    data = MulticlassData.from_arrays(X, y)
    ref = run_multiclass(data)
    assert est.converged_ and est.n_updates_ == ref.mistakes
    assert est.coef_.shape == (3, 2) and est.intercept_.shape == (3,)
    assert est.separable_ and est.n_updates_ <= est.mistake_bound_
    assert list(est.predict(X)) == list(y)
    # ties go to the first class: all-zero weights (zero data, no bias) predict classes_[0]
    with pytest.warns(ConvergenceWarning):
        zero = MultiClassPerceptron(rho=0, max_epochs=1, exact=exact).fit(np.zeros((2, 2)), ["b", "a"])
    assert zero.predict(np.zeros((1, 2)))[0] == "a"


def test_label_rule_first_sorted_class_is_minus_one() -> None:
    for y, neg in [([0, 1], 0), ([-1, 1], -1), ([False, True], False), (["cat", "dog"], "cat"), ([3, 7], 3)]:
        X = np.array([[-1.0], [1.0]])
        est = Perceptron(rho=0).fit(X, y)
        assert est.classes_[0] == neg
        assert est.coef_[0, 0] > 0  # x = 1 belongs to the second class, +1
        assert est.predict(np.array([[0.0]]))[0] == neg  # w.x = 0: a tie predicts the first class


def test_max_epochs_warns_and_reports_not_converged() -> None:
    X = np.array([[1.0], [1.0]])
    with pytest.warns(ConvergenceWarning, match="certified not separable"):
        est = Perceptron(max_epochs=7).fit(X, [0, 1])
    assert est.converged_ is False and est.n_iter_ == 7 and est.separable_ is False and est.margin_ is None


@pytest.mark.parametrize("kind", [sps.csr_matrix, sps.csc_array])
@pytest.mark.parametrize("cls", [Perceptron, PDM, PFM, MultiClassPerceptron])
def test_sparse_input_same_run(kind: type, cls: type) -> None:
    dense = cls().fit(SEPARABLE_X, SEPARABLE_Y)
    for exact in (False, True):
        sparse = cls(exact=exact).fit(kind(SEPARABLE_X), SEPARABLE_Y)
        assert sparse.n_updates_ == dense.n_updates_
        assert np.allclose(sparse.coef_, dense.coef_)
        assert list(sparse.predict(kind(SEPARABLE_X))) == list(SEPARABLE_Y)


def test_dataframe_feature_names() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(SEPARABLE_X, columns=["height", "weight"])
    est = Perceptron(exact=True).fit(df, pd.Series(SEPARABLE_Y))
    assert list(est.feature_names_in_) == ["height", "weight"]
    assert list(est.predict(df)) == list(SEPARABLE_Y)


@pytest.mark.parametrize(
    ("est", "message"),
    [
        (Perceptron(max_epochs=0), "max_epochs"),
        (Perceptron(rho=-1), "rho"),
        (Perceptron(certify="maybe"), "certify"),
        (PDM(eps=2), "eps"),
        (PFM(beta=-1), "beta"),
    ],
)
def test_bad_parameters_are_value_errors_naming_the_parameter(est: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        clone(est).fit(SEPARABLE_X, SEPARABLE_Y)


def test_certify_false_and_pipeline() -> None:
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    est = Perceptron(certify=False).fit(SEPARABLE_X, SEPARABLE_Y)
    assert est.certificate_ is None and est.margin_ is None and est.separable_ is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores = cross_val_score(
            make_pipeline(StandardScaler(), PDM(exact=True)), SEPARABLE_X, SEPARABLE_Y, cv=2
        )
    assert scores.shape == (2,)
