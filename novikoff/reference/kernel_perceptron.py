"""The exact reference kernel perceptron (dual form).

alpha_i counts the updates on sample i; the decision value at x_i is
f(x_i) = sum_j alpha_j y_j K~(x_j, x_i) with K~ = K + rho^2 (the bias trick in feature space),
so y_i f(x_i) = (G alpha)_i with the reflected Gram matrix G. The run presents the samples
epoch by epoch (:func:`novikoff.runtime.runs.epoch_order`) and updates alpha_i += 1 iff
y_i f(x_i) <= 0 (ties update). It is the primal perceptron on the feature-space patterns
z_i = y_i phi~(x_i), whose weight is w = sum_j alpha_j z_j.

Arithmetic: integers only. G's numerators (one positive denominator dropped: no sign changes)
and the running vector g = N alpha, updated by one column per update; every decision is the
integer comparison g_i <= 0.

Checks (Novikoff's N1-N3 in feature space), with the checked kernel certificate (lambda,
gamma^2, R^2), computed when none is given: after every update N1 (p*.w_k >= k gamma^2, with
p*.w_k = lambda^T G alpha), N2 (||w_k||^2 = alpha^T G alpha <= k R^2) and N3
(k gamma^2 <= R^2) by the spec's own statements; on data that are not separable in feature
space only N2 applies. Any failure raises :class:`~novikoff.errors.InvariantViolation`.
The run stops after ``max_epochs`` epochs if it has not converged: it never loops forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from novikoff.certificates.kernel_checker import KernelCertificate
from novikoff.certificates.kernel_solver import certify_kernel
from novikoff.data.dataset import Dataset
from novikoff.data.kernels import ExactGram, KernelSpec, exact_gram
from novikoff.runtime.runs import Order, UpdateSequence, check_max_epochs, epoch_order
from novikoff.spec import N1, N2, N3

__all__ = ["DEFAULT_MAX_EPOCHS", "KernelRun", "run_kernel_perceptron"]

DEFAULT_MAX_EPOCHS = 1000


@dataclass(frozen=True)
class KernelRun(UpdateSequence):
    """One exact kernel-perceptron run.

    ``alphas[i]`` counts the updates on sample i; ``updates`` lists them as (epoch, sample) in
    order; ``epochs`` counts the epochs run (the final clean one included when ``converged``);
    ``converged`` iff an epoch made no update. ``certificate`` is the kernel certificate the run
    was checked against (None if ``check=False``) and ``invariants_checked`` counts the
    statement evaluations.
    """

    kernel: str
    alphas: tuple[int, ...]
    updates: tuple[tuple[int, int], ...]
    epochs: int
    converged: bool
    certificate: KernelCertificate | None = None
    invariants_checked: int = 0

    @property
    def bound(self) -> Fraction | None:
        """R^2/gamma^2 in feature space, or None (not separable there, or not checked)."""
        return None if self.certificate is None else self.certificate.bound


def run_kernel_perceptron(
    dataset: Dataset,
    kernel: KernelSpec,
    *,
    order: Order = None,
    max_epochs: int = DEFAULT_MAX_EPOCHS,
    certificate: KernelCertificate | None = None,
    gram: ExactGram | None = None,
    check: bool = True,
) -> KernelRun:
    """Run the exact dual perceptron from alpha = 0 with ``kernel`` (polynomial; RBF is refused).

    Guarantees: ``updates`` is the exact sequence of (epoch, index) at which y_i f(x_i) <= 0;
    ``converged`` iff an epoch made no update, else ``epochs == max_epochs``. With ``check``
    (default) N1-N3 are evaluated after every update against ``certificate`` (computed and
    checked here when not given), raising InvariantViolation on the first failure; in
    particular mistakes * gamma^2 <= R^2 holds on every returned separable run.
    ``gram`` may pass the exact Gram matrix already built for this dataset and kernel.
    """
    max_epochs = check_max_epochs(max_epochs)
    if gram is None:
        gram = exact_gram(dataset, kernel)
    if check and certificate is None:
        certificate = certify_kernel(dataset, kernel, gram)
    N, scale = gram.numerators, gram.denominator
    m = gram.n
    presentation = epoch_order(order, m)
    alphas = [0] * m
    g = [0] * m  # g = N alpha, so (G alpha)_i = g_i / scale
    lam_nums: tuple[int, ...] = ()
    lam_den = 1
    if check and certificate is not None:
        lam_nums, lam_den = certificate.lambdas.numerators, certificate.lambdas.denominator
    separable = check and certificate is not None and certificate.separable
    updates: list[tuple[int, int]] = []
    checked = 0
    converged = False
    epoch = 0
    for epoch in range(max_epochs):
        clean = True
        for i in presentation(epoch):
            if g[i] <= 0:
                alphas[i] += 1
                column = N[i]  # N is symmetric: row i is column i
                for r in range(m):
                    g[r] += column[r]
                updates.append((epoch, i))
                clean = False
                if check and certificate is not None:
                    k = Fraction(len(updates))
                    where = (
                        f"in feature space ({kernel}) after update {len(updates)} (epoch {epoch}, sample {i})"
                    )
                    w_norm2 = Fraction(sum(a * v for a, v in zip(alphas, g) if a), scale)
                    N2.require({"k": k, "R2": certificate.R2, "w_norm2": w_norm2}, where)
                    checked += 1
                    if separable:
                        pstar_dot_w = Fraction(sum(c * v for c, v in zip(lam_nums, g) if c), lam_den * scale)
                        N1.require({"k": k, "gamma2": certificate.gamma2, "pstar_dot_w": pstar_dot_w}, where)
                        N3.require({"k": k, "gamma2": certificate.gamma2, "R2": certificate.R2}, where)
                        checked += 2
        if clean:
            converged = True
            break
    return KernelRun(
        kernel=str(kernel),
        alphas=tuple(alphas),
        updates=tuple(updates),
        epochs=epoch + 1,
        converged=converged,
        certificate=certificate if check else None,
        invariants_checked=checked,
    )
