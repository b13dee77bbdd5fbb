"""scikit-learn estimators: the perceptron, PDM(eps), PFM(beta), ROMMA and the multiclass perceptron.

``from novikoff.integrations.sklearn import Perceptron, PDM, PFM, ROMMA, MultiClassPerceptron``
(:func:`estimators` maps the algorithm registry's names to them: each registry entry names its
estimator, and each estimator runs the twin and reference its entry names). Each is a
scikit-learn classifier (``fit``/``predict``/``decision_function``/``score``, clone,
pipelines, grid search; they pass ``check_estimator``, see tests/integrations/test_sklearn.py) that
runs the algorithms of the textbook, the notes and the PDM paper and reports what novikoff knows
about the run.

**Conventions.**

- Labels: any two classes. ``classes_`` is the sorted distinct labels (numpy's order);
  the FIRST class ``classes_[0]`` is -1 and the second +1. For {0, 1} and {-1, +1} this is
  the rule of :func:`novikoff.data.dataset.map_labels` (0 -> -1). ``MultiClassPerceptron`` takes
  any number >= 2 of classes, class k being ``classes_[k]``.
- Bias trick: x~ = (x, rho) with the bias coordinate last, ``rho`` (default 1) a
  parameter; ``rho=0`` means no bias. ``coef_`` is w without the bias coordinate and
  ``intercept_`` is ``rho * w_bias``, so that ``decision_function(X) = X coef_^T + intercept_``
  = w.x~.
- Prediction: ``classes_[1]`` iff w.x~ > 0; a tie (w.x~ = 0) predicts ``classes_[0]``,
  as a tie counts as a mistake in training. Multiclass: the FIRST class attaining
  max_k w_k.x~ (the notes' multiclass perceptron); with two classes ``decision_function`` is
  w_1.x~ - w_0.x~ (positive iff ``classes_[1]`` is predicted).
- ``max_epochs`` bounds the run (it never loops forever). A run that hits it has
  ``converged_ = False`` and warns with :class:`~sklearn.exceptions.ConvergenceWarning`
  (it says when the data are certified not separable, so no number of epochs helps).

**exact=False** (default): the float64 twins (:func:`~novikoff.twins.perceptron.perceptron_twin`,
:func:`~novikoff.twins.large_margin.pdm_twin`, ``pfm_twin``, :func:`~novikoff.twins.romma.romma_twin`,
:func:`~novikoff.twins.multiclass.multiclass_twin`); CSR input goes to the PDM/PFM twins
as is (the perceptron then runs as PDM(1), the same rule).
**exact=True**: every decision in exact arithmetic. Float inputs are converted exactly
to the dyadic rationals they store (integers as integers); the perceptron runs on
:func:`~novikoff.twins.exact.exact_perceptron`, PDM/PFM/ROMMA/multiclass on the exact references
(exact ROMMA stops after ``max_updates`` updates, default 16: its numbers double in size per update).
``exact_weights_`` holds the exact weights (Fractions, bias coordinate last) and
``predict``/``decision_function`` use them exactly (``decision_function`` returns the
correctly rounded float of the exact w.x~; the sign, hence ``predict``, is exact).

**What novikoff adds** (set by ``fit``):

- ``certificate_``: the exact certificate of :func:`novikoff.certificates.certify` of the
  training data (with the bias trick; for the multiclass perceptron, of its Kesler
  construction): a ``SeparableCertificate`` or a ``GordanCertificate`` (not separable).
  ``certify="auto"`` (default) computes it when the data have at most
  ``AUTO_CERTIFY_ENTRIES`` entries, ``True`` always, ``False`` never (then it is None).
- ``separable_``: True/False from the certificate (None without one).
- ``margin2_``: the exact gamma^2 (a Fraction) when separable, else None;
  ``margin_``: gamma as a float (gamma itself is a square root, in general irrational).
- ``mistake_bound_``: R^2/gamma^2 (exact Fraction; Novikoff's bound on ``n_updates_``
  for the perceptron, 2 R^2/gamma_K^2 for the multiclass perceptron), None if not separable.
- ``n_updates_``, ``n_iter_`` (epochs run, the last clean one included), ``converged_``.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from math import lcm, sqrt
from typing import Any

import numpy as np
import scipy.sparse as sps
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from novikoff.certificates import Certificate, SeparableCertificate
from novikoff.certificates import certify as _certify
from novikoff.data.dataset import MAX_DENSE_ENTRIES, Dataset, validate_bias
from novikoff.exact.dyadic import dyadic_integers
from novikoff.runtime.algorithms import ALGORITHMS, get, resolve
from novikoff.runtime.runs import Order, RunRecord, check_max_epochs

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # pragma: no cover - older scikit-learn

    def _validate_data(estimator: Any, X: Any = "no_validation", y: Any = "no_validation", **kw: Any) -> Any:
        return estimator._validate_data(X, y, **kw)


__all__ = ["AUTO_CERTIFY_ENTRIES", "PDM", "PFM", "ROMMA", "MultiClassPerceptron", "Perceptron", "estimators"]

AUTO_CERTIFY_ENTRIES = 1_000_000  # certify="auto": samples x features up to this


def estimators() -> dict[str, type]:
    """The estimator of every registered algorithm that has one, by registry name."""
    return {name: resolve(e.sklearn) for name, e in ALGORITHMS.items() if e.sklearn is not None}


class _Base(ClassifierMixin, BaseEstimator, ABC):
    """Shared fit/predict machinery; subclasses define ``_run_float`` and ``_run_exact``, and
    ``_algorithm``, the registry name whose twin and reference they run."""

    _binary = True
    _algorithm = ""

    def _twin(self) -> Any:
        return resolve(get(self._algorithm).twin)

    def _reference(self) -> Any:
        return resolve(get(self._algorithm).reference)

    def __init__(
        self,
        *,
        rho: object = 1.0,
        max_epochs: int = 1000,
        exact: bool = False,
        certify: bool | str = "auto",
        order: Order = None,
    ) -> None:
        self.rho = rho
        self.max_epochs = max_epochs
        self.exact = exact
        self.certify = certify
        self.order = order

    # ------------------------------------------------------------------ tags
    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = not self._binary
        return tags

    # ------------------------------------------------------------------- fit
    def fit(self, X: Any, y: Any) -> Any:
        """Run the algorithm from w = 0 on ``X``, ``y`` (see the module docstring).

        Args:
            X: The features, (n_samples, n_features), dense or CSR.
            y: The labels: two classes (any number >= 2 for :class:`MultiClassPerceptron`).

        Returns:
            The estimator, fitted: ``coef_``, ``intercept_``, ``classes_``, and what novikoff
            adds (``certificate_``, ``separable_``, ``margin2_``, ``mistake_bound_``,
            ``n_updates_``, ``converged_``).

        Raises:
            ValueError: One class only, non-finite values, or a bad parameter (scikit-learn's
                convention).

        Examples:
            >>> import numpy as np
            >>> X, y = np.array([[0, 1], [2, 1], [-1, 1], [-2, -1]]), np.array([1, 1, 0, 0])
            >>> model = Perceptron().fit(X, y)
            >>> model.predict(X).tolist(), model.n_updates_, model.mistake_bound_
            ([1, 1, 0, 0], 7, Fraction(27, 1))
        """
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype="numeric")
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        k = len(self.classes_)
        if k < 2:
            raise ValueError(
                f"{type(self).__name__} needs samples of two classes, got 1 class ({self.classes_[0]!r})"
            )
        if self._binary and k > 2:
            raise ValueError(
                f"Only binary classification is supported. {type(self).__name__} got {k} classes; "
                "use MultiClassPerceptron or sklearn.multiclass.OneVsRestClassifier"
            )
        if self.certify not in (True, False, "auto"):
            raise ValueError(f"certify must be True, False or 'auto', got {self.certify!r}")
        max_epochs = check_max_epochs(self.max_epochs)
        rho = validate_bias(self.rho, "rho")
        if X.dtype.kind == "b":
            X = X.astype(np.int8)
        m, d = X.shape
        want_cert = self.certify is True or (self.certify == "auto" and m * d <= AUTO_CERTIFY_ENTRIES)
        dataset = self._dataset(X, y_index, rho) if (self.exact or want_cert) else None
        if self.exact:
            record, exact_w = self._run_exact(dataset, y_index, max_epochs)
            self.exact_weights_ = exact_w
            W = np.array([[float(v) for v in row] for row in exact_w], dtype=np.float64)
        else:
            record = self._run_float(X, y_index, rho, max_epochs)
            W = np.atleast_2d(np.asarray(record.weights, dtype=np.float64))
        self._set_linear(W, rho, d)
        self.n_updates_ = record.mistakes
        self.n_iter_ = record.epochs
        self.converged_ = bool(record.converged)
        cert = self._certificate(dataset) if want_cert and dataset is not None else None
        self.certificate_: Certificate | None = cert
        self.separable_ = None if cert is None else bool(cert.separable)
        if isinstance(cert, SeparableCertificate):
            self.margin2_: Fraction | None = cert.gamma2
            self.margin_: float | None = sqrt(cert.gamma2)
            self.mistake_bound_: Fraction | None = self._bound(cert)
        else:
            self.margin2_ = self.margin_ = self.mistake_bound_ = None
        if not self.converged_:
            why = " (the data are certified not separable)" if self.separable_ is False else ""
            stopped = getattr(record, "stopped", "")
            warnings.warn(
                f"{type(self).__name__} did not converge in max_epochs={max_epochs} epochs{why}"
                + (f"; {stopped}" if stopped else ""),
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def _dataset(self, X: Any, y_index: np.ndarray, rho: Fraction) -> Any:
        return Dataset.from_arrays(_dense(X), 2 * y_index - 1, bias=rho, name="X")

    def _certificate(self, dataset: Dataset) -> Certificate:
        return _certify(dataset, geometric=False)

    def _bound(self, cert: Any) -> Fraction:
        """R^2/gamma^2 of the certified patterns (the Kesler vectors' R^2 is 2 max ||x~||^2,
        so for the multiclass perceptron this is M1's 2 R^2/gamma_K^2)."""
        return Fraction(cert.bound)

    def _set_linear(self, W: np.ndarray, rho: Fraction, d: int) -> None:
        """coef_, intercept_ from the run's weights W (one row per weight vector)."""
        if rho != 0:
            coef, intercept = W[:, :d], W[:, d] * float(rho)
        else:
            coef, intercept = W, np.zeros(W.shape[0])
        if not self._binary and W.shape[0] == 2:  # binary data: one row, w_1 - w_0
            coef, intercept = coef[1:] - coef[:1], intercept[1:] - intercept[:1]
        self.coef_ = np.ascontiguousarray(coef)
        self.intercept_ = np.asarray(intercept, dtype=np.float64)

    # ---------------------------------------------------------------- predict
    def decision_function(self, X: Any) -> np.ndarray:
        """w.x~ per sample (one column per class for K > 2 classes); exact=True: the correctly
        rounded float of the exact value."""
        check_is_fitted(self)
        X = _validate_data(self, X, accept_sparse="csr", dtype="numeric", reset=False)
        if self.exact:
            nums, den = self._exact_scores(X)
            out = np.array([[_round(v, den) for v in row] for row in nums], dtype=np.float64)
        else:
            out = np.asarray(X @ self.coef_.T, dtype=np.float64) + self.intercept_
        return out.ravel() if out.shape[1] == 1 else out

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` iff w.x~ > 0 (ties: ``classes_[0]``); multiclass: the first argmax.
        exact=True decides in exact arithmetic."""
        check_is_fitted(self)
        if not self.exact:
            scores = self.decision_function(X)
            index = (scores > 0).astype(int) if scores.ndim == 1 else np.argmax(scores, axis=1)
            return np.asarray(self.classes_[index])
        X = _validate_data(self, X, accept_sparse="csr", dtype="numeric", reset=False)
        nums, _ = self._exact_scores(X)
        if nums.shape[1] == 1:
            index = np.array([int(v > 0) for v in nums[:, 0]], dtype=int)
        else:  # max() returns the first maximal index
            index = np.array([max(range(len(row)), key=row.__getitem__) for row in nums.tolist()], dtype=int)
        return np.asarray(self.classes_[index])

    def _exact_scores(self, X: Any) -> tuple[np.ndarray, int]:
        """Integer scores N (one column per weight row of ``decision_function``) and one
        denominator D > 0 with w.x~ = N / D exactly."""
        X = _dense(X)
        if X.dtype.kind == "b":
            X = X.astype(np.int8)
        if X.dtype.kind == "f":
            ints, k = dyadic_integers(X)
        else:
            ints, k = X, 0
        N = np.empty(ints.shape, dtype=object)
        N[:] = [[int(v) for v in row] for row in ints.tolist()]
        rows = self.exact_weights_
        if not self._binary and len(rows) == 2:
            rows = [tuple(b - a for a, b in zip(rows[0], rows[1]))]
        rho = validate_bias(self.rho, "rho")
        d = X.shape[1]
        den = lcm(*(v.denominator for row in rows for v in row)) * rho.denominator
        W = np.empty((d, len(rows)), dtype=object)
        bias = []
        for j, row in enumerate(rows):
            W[:, j] = [int(v * den) for v in row[:d]]
            bias.append(int(row[d] * rho * den) << k if rho != 0 else 0)
        scores = N.dot(W) if d else np.zeros((X.shape[0], len(rows)), dtype=object)
        return scores + np.array(bias, dtype=object), den << k

    # ------------------------------------------------------------- subclasses
    @abstractmethod
    def _run_float(self, X: Any, y_index: np.ndarray, rho: Fraction, max_epochs: int) -> RunRecord:
        """The float twin's run on X with labels 0..K-1."""

    @abstractmethod
    def _run_exact(
        self, dataset: Any, y_index: np.ndarray, max_epochs: int
    ) -> tuple[RunRecord, Sequence[Sequence[Fraction]]]:
        """The exact run and its weight rows (one per class, or one for two classes)."""


def _dense(X: Any) -> Any:
    """A sparse X as a dense array (the exact dataset is dense), refused when too large."""
    if not sps.issparse(X):
        return X
    if X.shape[0] * X.shape[1] > MAX_DENSE_ENTRIES:
        raise ValueError(
            f"X: a sparse matrix of shape {X.shape} is too large for the exact dataset "
            f"(limit {MAX_DENSE_ENTRIES} entries); use exact=False and certify=False"
        )
    return X.toarray()


def _round(num: int, den: int) -> float:
    """num/den correctly rounded (Python's int true division), +-inf beyond float64."""
    try:
        return num / den
    except OverflowError:
        return float("inf") if num > 0 else float("-inf")


class Perceptron(_Base):
    """The classic perceptron (the textbook, section 6.3): update iff w.z_i <= 0, w <- w + z_i.

    Parameters: ``rho`` (bias coordinate, default 1; 0: none), ``max_epochs`` (default
    1000), ``exact`` (exact arithmetic, default False), ``certify`` ("auto", True, False),
    ``order`` (None/"natural", "shuffle:SEED", a permutation or one per epoch).
    See the module docstring for the fitted attributes.

    Args:
        rho: The bias coordinate appended to every sample (exact; 0: no bias).
        max_epochs: The number of passes after which a run that has not converged stops.
        exact: Run in exact arithmetic (the floats read as the dyadic rationals they store).
        certify: Certify the training data: ``"auto"`` (small data), True or False.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).

    Examples:
        >>> import numpy as np
        >>> X, y = np.array([[0, 1], [2, 1], [-1, 1], [-2, -1]]), np.array([1, 1, 0, 0])
        >>> model = Perceptron(exact=True).fit(X, y)
        >>> model.converged_, model.n_updates_, model.margin2_
        (True, 7, Fraction(2, 9))
    """

    _algorithm = "perceptron"

    def _run_float(self, X: Any, y_index: np.ndarray, rho: Fraction, max_epochs: int) -> RunRecord:
        y = 2 * y_index - 1
        if sps.issparse(X):  # PDM(1) is the perceptron's rule, and its twin keeps CSR sparse
            pdm_twin = resolve(get("pdm").twin)
            return pdm_twin(X, y, eps=1, bias=float(rho), max_epochs=max_epochs, order=self.order)
        return self._twin()(X, y, bias=float(rho), max_epochs=max_epochs, order=self.order)

    def _run_exact(
        self, dataset: Any, y_index: np.ndarray, max_epochs: int
    ) -> tuple[RunRecord, Sequence[Sequence[Fraction]]]:
        from novikoff.twins.exact import exact_perceptron

        record = exact_perceptron(dataset, max_epochs=max_epochs, order=self.order)
        return record, [tuple(record.weights)]


class _LargeMargin(_Base):
    """PDM and PFM: one parameter (``_parameter``, eps or beta) passed by name to the numpy
    twin and to the exact reference of the algorithm; ``max_updates`` bounds both."""

    _parameter = ""
    max_updates: int

    def _run_float(self, X: Any, y_index: np.ndarray, rho: Fraction, max_epochs: int) -> RunRecord:
        return self._twin()(
            X,
            2 * y_index - 1,
            bias=float(rho),
            max_epochs=max_epochs,
            order=self.order,
            max_updates=self.max_updates,
            **{self._parameter: getattr(self, self._parameter)},
        )

    def _run_exact(
        self, dataset: Any, y_index: np.ndarray, max_epochs: int
    ) -> tuple[RunRecord, Sequence[Sequence[Fraction]]]:
        record = self._reference()(
            dataset,
            getattr(self, self._parameter),
            max_epochs=max_epochs,
            order=self.order,
            max_updates=self.max_updates,
        )
        return record, [tuple(record.weights)]


class PDM(_LargeMargin):
    """PDM(eps), 0 < eps <= 1 (the PDM paper): update iff t (w.z) <= (1 - eps) ||w||^2,
    t the updates so far; eps = 1 is the perceptron. ``eps`` is read exactly (a float as
    the dyadic rational it stores; ``"1/3"`` or a Fraction for other rationals).
    ``max_updates`` also bounds the run. Other parameters as :class:`Perceptron`.

    Args:
        eps: The dynamic margin's parameter, in (0, 1], read exactly.
        rho: The bias coordinate appended to every sample (exact; 0: no bias).
        max_epochs: The number of passes after which a run that has not converged stops.
        exact: Run in exact arithmetic (the floats read as the dyadic rationals they store).
        certify: Certify the training data: ``"auto"`` (small data), True or False.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_updates: The update budget of the run.

    Examples:
        >>> import numpy as np
        >>> X, y = np.array([[0, 1], [2, 1], [-1, 1], [-2, -1]]), np.array([1, 1, 0, 0])
        >>> PDM(eps="1/2").fit(X, y).predict([[3, 1], [-3, -1]]).tolist()
        [1, 0]
    """

    _parameter, _algorithm = "eps", "pdm"

    def __init__(
        self,
        eps: object = 0.5,
        *,
        rho: object = 1.0,
        max_epochs: int = 1000,
        max_updates: int = 10**7,
        exact: bool = False,
        certify: bool | str = "auto",
        order: Order = None,
    ) -> None:
        super().__init__(rho=rho, max_epochs=max_epochs, exact=exact, certify=certify, order=order)
        self.eps = eps
        self.max_updates = max_updates


class PFM(_LargeMargin):
    """PFM(beta), beta >= 0 (the PDM paper): update iff w.z <= beta ||w|| (decided
    exactly by the sign split). beta = (1 - eps) gamma in the paper; ``beta=0`` (the
    default) is the perceptron, and PFM converges iff beta < gamma (see ``margin_``).
    ``beta`` is read exactly. Other parameters as :class:`PDM`.

    Args:
        beta: The fixed margin, >= 0, read exactly.
        rho: The bias coordinate appended to every sample (exact; 0: no bias).
        max_epochs: The number of passes after which a run that has not converged stops.
        exact: Run in exact arithmetic (the floats read as the dyadic rationals they store).
        certify: Certify the training data: ``"auto"`` (small data), True or False.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_updates: The update budget of the run.

    Examples:
        >>> import numpy as np
        >>> X, y = np.array([[0, 1], [2, 1], [-1, 1], [-2, -1]]), np.array([1, 1, 0, 0])
        >>> PFM(beta="1/10").fit(X, y).converged_
        True
    """

    _parameter, _algorithm = "beta", "pfm"

    def __init__(
        self,
        beta: object = 0.0,
        *,
        rho: object = 1.0,
        max_epochs: int = 1000,
        max_updates: int = 10**7,
        exact: bool = False,
        certify: bool | str = "auto",
        order: Order = None,
    ) -> None:
        super().__init__(rho=rho, max_epochs=max_epochs, exact=exact, certify=certify, order=order)
        self.beta = beta
        self.max_updates = max_updates


class MultiClassPerceptron(_Base):
    """The multiclass perceptron (the notes): weights w_1..w_K on x~,
    predict the FIRST class attaining max_k w_k.x~; on a mistake w_y += x~, w_pred -= x~.

    ``certificate_`` is the certificate of the Kesler construction; ``margin_`` is the
    Kesler margin gamma_K (||W||_F = 1) and ``mistake_bound_`` = 2 R^2 / gamma_K^2 (M1,
    R^2 = max ||x~||^2). ``coef_`` has one row per class (one row w_1 - w_0 for two
    classes, scikit-learn's binary shape). Parameters as :class:`Perceptron`.

    Args:
        rho: The bias coordinate appended to every sample (exact; 0: no bias).
        max_epochs: The number of passes after which a run that has not converged stops.
        exact: Run in exact arithmetic (the floats read as the dyadic rationals they store).
        certify: Certify the training data: ``"auto"`` (small data), True or False.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).

    Examples:
        >>> import numpy as np
        >>> X, y = np.array([[2, 0], [0, 2], [-2, -2], [1, 0]]), np.array(["a", "b", "c", "a"])
        >>> model = MultiClassPerceptron().fit(X, y)
        >>> model.predict([[3, 0], [0, 3]]).tolist(), model.mistake_bound_
        (['a', 'b'], Fraction(183, 16))
    """

    _binary = False
    _algorithm = "multiclass"

    def _dataset(self, X: Any, y_index: np.ndarray, rho: Fraction) -> Any:
        from novikoff.data.multiclass import MulticlassData

        return MulticlassData.from_arrays(_dense(X), y_index, bias=rho, name="X")

    def _certificate(self, dataset: Any) -> Certificate:
        from novikoff.data.multiclass import kesler

        return _certify(kesler(dataset), geometric=False)

    def _run_float(self, X: Any, y_index: np.ndarray, rho: Fraction, max_epochs: int) -> RunRecord:
        return self._twin()(X, y_index, bias=float(rho), max_epochs=max_epochs, order=self.order)

    def _run_exact(
        self, dataset: Any, y_index: np.ndarray, max_epochs: int
    ) -> tuple[RunRecord, Sequence[Sequence[Fraction]]]:
        record = self._reference()(dataset, max_epochs=max_epochs, order=self.order)
        return record, record.class_weights


class ROMMA(_Base):
    """ROMMA (Li and Long 2002): on a mistake (``w.z <= 0``; the aggressive rule: ``w.z < 1 - eps``)
    w becomes the minimum-norm point of {v : v.w >= ||w||^2, v.z >= 1}; Li and Long's mistake
    bound R^2/gamma^2 (R1) is ``mistake_bound_``.

    ``aggressive`` (default False) and ``eps`` in [0, 1) (read exactly; eps > 0 only with
    ``aggressive``); ``max_updates`` (default 16) bounds the exact run only, whose numbers double
    in size with every update (a run it stops has ``converged_ = False`` and warns), starting
    from the floats' 53-bit dyadic values: ``exact=True`` is for small or integer-valued data
    (scikit-learn's checks, on random floats, are run in float mode). The float twin densifies a
    sparse X. Other parameters as :class:`Perceptron`.

    Args:
        aggressive: The aggressive rule (update when ``w.z < 1 - eps``).
        eps: The aggressive rule's eps, in [0, 1), read exactly.
        rho: The bias coordinate appended to every sample (exact; 0: no bias).
        max_epochs: The number of passes after which a run that has not converged stops.
        exact: Run in exact arithmetic (the floats read as the dyadic rationals they store).
        certify: Certify the training data: ``"auto"`` (small data), True or False.
        order: The presentation order of each epoch (:func:`novikoff.runtime.runs.epoch_order`).
        max_updates: The update budget of the exact run.

    Examples:
        >>> import numpy as np
        >>> X, y = np.array([[0, 1], [2, 1], [-1, 1], [-2, -1]]), np.array([1, 1, 0, 0])
        >>> model = ROMMA().fit(X, y)
        >>> model.converged_, model.n_updates_
        (True, 2)
    """

    _algorithm = "romma"

    def __init__(
        self,
        aggressive: bool = False,
        eps: object = 0.0,
        *,
        rho: object = 1.0,
        max_epochs: int = 1000,
        max_updates: int = 16,
        exact: bool = False,
        certify: bool | str = "auto",
        order: Order = None,
    ) -> None:
        super().__init__(rho=rho, max_epochs=max_epochs, exact=exact, certify=certify, order=order)
        self.aggressive = aggressive
        self.eps = eps
        self.max_updates = max_updates

    def _eps(self) -> Fraction:
        from novikoff.reference.romma import validate_romma_eps

        try:
            return validate_romma_eps(self.eps, bool(self.aggressive))
        except Exception as exc:  # InputError: scikit-learn expects ValueError for a bad parameter
            raise ValueError(f"ROMMA: {exc}") from None

    def _run_float(self, X: Any, y_index: np.ndarray, rho: Fraction, max_epochs: int) -> RunRecord:
        X = _dense(X) if sps.issparse(X) else X
        return self._twin()(
            np.asarray(X, dtype=np.float64),
            2 * y_index - 1,
            aggressive=bool(self.aggressive),
            eps=float(self._eps()),
            bias=float(rho),
            max_epochs=max_epochs,
            order=self.order,
        )

    def _run_exact(
        self, dataset: Any, y_index: np.ndarray, max_epochs: int
    ) -> tuple[RunRecord, Sequence[Sequence[Fraction]]]:
        record = self._reference()(
            dataset,
            aggressive=bool(self.aggressive),
            eps=self._eps(),
            order=self.order,
            max_epochs=max_epochs,
            max_updates=self.max_updates,
        )
        return record, [tuple(record.weights)]
