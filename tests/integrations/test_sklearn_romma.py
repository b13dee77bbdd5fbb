"""The ROMMA estimator (novikoff.integrations.sklearn.ROMMA): scikit-learn's estimator checks in
float mode, its runs equal to the exact reference's and the twin's, its parameters refused with
the reason."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from novikoff.data.dataset import Dataset
from novikoff.integrations.sklearn import ROMMA
from novikoff.reference.romma import run_romma
from novikoff.twins.romma import romma_twin


# Float mode only: scikit-learn's checks draw float data, on whose dyadic values the exact
# reference's numbers grow past minutes within its 16 updates (exact mode is tested below).
@parametrize_with_checks([ROMMA(max_epochs=50), ROMMA(aggressive=True, eps="1/10", max_epochs=50)])
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_check_estimator(estimator: object, check: object) -> None:
    check(estimator)  # type: ignore[operator]


X = np.array([[2.0, 1.0], [1.0, 3.0], [3.0, 3.0], [-1.0, -2.0], [-2.0, -1.0], [-3.0, 0.0]])
Y = np.array(["b", "b", "b", "a", "a", "a"])  # classes_ = [a, b]: a is -1


@pytest.mark.parametrize("aggressive", [False, True])
def test_exact_fit_is_the_exact_reference_run(aggressive: bool) -> None:
    ds = Dataset.from_arrays(X, np.where(Y == "b", 1, -1), bias=1)
    ref = run_romma(ds, aggressive=aggressive)
    clf = ROMMA(aggressive=aggressive, exact=True).fit(X, Y)
    assert clf.exact_weights_ == [tuple(ref.weights)]
    assert (clf.n_updates_, clf.n_iter_, clf.converged_) == (ref.mistakes, ref.epochs, ref.converged)
    assert clf.mistake_bound_ == clf.certificate_.R2 / clf.certificate_.gamma2
    # prediction is the sign of w.x~, decided exactly: every training point on its side
    assert (clf.predict(X) == Y).all()


def test_float_fit_is_the_twin_run_and_agrees_with_the_exact_one() -> None:
    twin = romma_twin(X, np.where(Y == "b", 1.0, -1.0))
    clf = ROMMA().fit(X, Y)
    np.testing.assert_array_equal(clf.coef_[0], np.asarray(twin.weights)[:2])
    exact = ROMMA(exact=True).fit(X, Y)
    assert clf.n_updates_ == exact.n_updates_
    w = [float(v) for v in exact.exact_weights_[0]]
    np.testing.assert_allclose(np.append(clf.coef_[0], clf.intercept_), w, rtol=1e-12)


def test_bad_parameters_are_value_errors_naming_the_reason() -> None:
    with pytest.raises(ValueError, match="eps > 0 needs the aggressive rule"):
        ROMMA(eps=0.5).fit(X, Y)
    with pytest.raises(ValueError, match=r"eps must be in \[0, 1\)"):
        ROMMA(aggressive=True, eps=1).fit(X, Y)


def test_the_exact_update_limit_stops_and_warns() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        clf = ROMMA(exact=True, max_updates=0).fit(X, Y)
    assert not clf.converged_ and clf.n_updates_ == 0
    assert any(
        issubclass(w.category, ConvergenceWarning) and "update limit 0" in str(w.message) for w in seen
    )
    assert isinstance(clf.exact_weights_[0][0], Fraction)
