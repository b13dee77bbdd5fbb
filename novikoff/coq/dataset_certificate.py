"""A standalone Coq file certifying one labelled dataset's perceptron bound by computation.

``certificate_to_coq(dataset, certificate)`` writes Coq source that

(a) carries the dataset as read: every feature as a reduced fraction ``(n, d)``, every
    label ``pos``/``neg``, the bias ``rho`` as a fraction (``Novikoff.LabelledCertificate``'s
    ``qsample``/``frac``); and the certificate as integers after clearing denominators:
    ``lambda_i = lambda_num_i / lambda_den``, ``p* = pstar_num / (lambda_den * scale)``,
    ``R^2 = R2_num / scale^2``, with ``scale`` the claimed common denominator;
(b) computes in Coq by ``vm_compute`` over Z: the common denominator of the data (checked
    equal to ``scale``), the reflected and scaled rows ``scale * y_i (x_i, rho)``, and the
    certificate checks ``check_cert`` on those rows (lambda >= 0, sum lambda = 1,
    p* = sum lambda_i z_i, min_i z_i.p* >= ||p*||^2 > 0, R^2 = max_i ||z_i||^2);
(c) applies the general theorems (``labelled_certificate_sound``, ``labelled_updates_bound``:
    Novikoff's bound for the perceptron run on labelled data) to conclude, for THIS labelled
    dataset: ``updates <= floor(R^2/gamma^2)`` in EVERY presentation order, gamma^2 =
    ||p*||^2 the minimum over conv{z_i}, and R^2 = max_i ||(x_i, rho)||^2.

Nothing is re-checked here, so a wrong certificate, scale, or an edited feature, label or
rho after generation gives a file that fails to compile (at ``scale_checks`` or
``certificate_checks``) or proves the bound of the edited data (the data are part of the
statement). Compile it against the development:
``coqc -R novikoff/coq/theories Novikoff FILE.v`` after building novikoff/coq/theories.

Size limit: the file holds the m d features as fractions, rho, and lambda's numerators
(determinant-sized: hundreds of digits for Sonar). The cost is Coq's big-number arithmetic in
``vm_compute`` (bit-level binary integers: the common denominator, the rows, the checks), run
twice (tactic and kernel). Long integers are written in hexadecimal, which Coq reads in linear
time. Measured with coqc 8.16 on this project's 2-core machine (load about 7): t1:50 2.8 s wall
(0.9 s CPU), textbook-6.6:3 3.2 s (1.0 s CPU), iris setosa-vs-rest (150 x 4, rho = 1) 1.9 s
(0.8 s CPU). Expect minutes once m d times the digit count squared is much larger than
Sonar's (208 x 60, 400-digit numbers; about 50 s in the earlier rows-only format, not
re-measured).

The kernel perceptron (``certify --kernel poly:D --coq``): :func:`kernel_certificate_to_coq`
writes the data as read, the kernel's degree and constant and the dual certificate alpha;
Coq computes the kernel values, the margins of alpha, its feature-space norm^2 and R^2 by
``vm_compute`` (``KernelCertificate.kernel_summary``) and proves the bound for the dual-form
kernel perceptron on that labelled dataset. :func:`kernel_gordan_to_coq` is its non-separable
counterpart, :func:`kernel_numbers` the numbers both state, computed here as Coq does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint

from novikoff.certificates import Certificate, GordanCertificate, SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.data.kernels import KernelSpec
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector, format_rational

__all__ = [
    "KernelNumbers",
    "certificate_to_coq",
    "gordan_to_coq",
    "kernel_certificate_to_coq",
    "kernel_gordan_to_coq",
    "kernel_numbers",
]


def _int(v: int) -> str:
    """A Z literal; long ones in hexadecimal, which Coq reads in linear time (its decimal
    reader is quadratic: 208 numbers of 1400 bits take a minute in decimal, 4 s in hex)."""
    return hex(v) if abs(v) >= 10**12 else str(v)


def _ints(values: Sequence[int]) -> str:
    return "[" + "; ".join(_int(v) for v in values) + "]"


def _integral(value: Fraction, what: str) -> int:
    if value.denominator != 1:
        raise CertificateError(f"certificate rejected: {what} is not a combination of the patterns")
    return value.numerator


def _comment(text: str) -> str:
    """``text`` safe inside a Coq comment (no nested comment delimiters or string quotes)."""
    return repr(text).replace("(*", "( *").replace("*)", "* )").replace('"', "'")


def _frac(q: Fraction) -> str:
    return f"({_int(q.numerator)}, {_int(q.denominator)})"


def _data_as_read(dataset: Dataset) -> tuple[list[list[Fraction]], Fraction, int, str]:
    """The features as reduced fractions, rho, the common denominator Coq computes (the lcm
    of every reduced denominator, rho's included) and the Coq text of the samples."""
    den = dataset.denominator
    features = [[Fraction(v, den) for v in row] for row in dataset.numerators]
    rho = Fraction(dataset.bias)
    scale = math.lcm(rho.denominator, *(q.denominator for row in features for q in row))
    samples = "\n  ; ".join(
        f"([{'; '.join(_frac(v) for v in row)}], {'pos' if y == 1 else 'neg'})"
        for row, y in zip(features, dataset.labels)
    )
    return features, rho, scale, samples


def _preamble(samples: str, rho: Fraction, scale: int, lam: RationalVector) -> str:
    """The imports, the dataset as read, rho, the scale and lambda: the head both files share."""
    return f"""From Coq Require Import Reals ZArith List.
From Novikoff Require Import Vectors Perceptron DatasetCertificate Labelled LabelledCertificate.
Import ListNotations.
Local Open Scope Z_scope.

(** The dataset as read: (features, label) per sample, and the bias rho. *)
Definition data : list qsample :=
  [ {samples}
  ].
Definition rho : frac := {_frac(rho)}.

(** The certificate. *)
Definition scale : Z := {_int(scale)}.
Definition lambda_num : list Z := {_ints(lam.numerators)}.
Definition lambda_den : Z := {_int(lam.denominator)}.
"""


def gordan_to_coq(dataset: Dataset, certificate: GordanCertificate) -> str:
    """Coq source proving that no weight vector separates ``dataset``: for every w some
    sample has y_i (w . (x_i, rho)) <= 0, from the Gordan certificate lambda (lambda >= 0,
    sum lambda = 1, sum lambda_i y_i (x_i, rho) = 0, checked in Coq on the rows it computes
    from the data as read)."""
    features, rho, scale, samples = _data_as_read(dataset)
    lam = certificate.lambdas
    if not isinstance(lam, RationalVector):
        lam = RationalVector.from_values(lam)
    m, d = len(features), dataset.n_features
    return f"""(* Generated by novikoff.coq.dataset_certificate: a kernel certificate that the
   labelled dataset {_comment(dataset.name)} (m = {m} samples, d = {d} features, bias
   rho = {rho}, written below as read) is not linearly separable: a Gordan certificate
   lambda_i = lambda_num_i / lambda_den >= 0, sum lambda = 1, sum lambda_i y_i (x_i, rho) = 0,
   checked in Coq on the rows computed from the data. *)

{_preamble(samples, rho, scale, lam)}
Definition D : dataset := to_dataset data.
Definition rhoR : R := frac_R rho.

Lemma scale_checks : check_scale data rho = true /\\ data_scale data rho = scale.
Proof. split; vm_compute; reflexivity. Qed.

(** lambda >= 0, sum lambda = 1, sum_i lambda_i (scale y_i (x_i, rho)) = 0, exactly. *)
Lemma gordan_checks : check_gordan (zrows data rho) lambda_num lambda_den = true.
Proof. vm_compute. reflexivity. Qed.

(** No weight vector separates these labelled samples: every w errs on one of them
    (y_i (w . (x_i, rho)) <= 0), so the perceptron never stops updating on them. *)
Theorem not_separable :
  forall w : vec, exists s, In s D /\\ (signed_margin w rhoR s <= 0)%R.
Proof.
  exact (labelled_gordan_sound data rho lambda_num lambda_den (proj1 scale_checks) gordan_checks).
Qed.

Print Assumptions not_separable.
"""


def certificate_to_coq(dataset: Dataset, certificate: Certificate) -> str:
    """Coq source proving ``updates <= floor(R^2/gamma^2)`` for ``dataset`` in every order.

    ``certificate`` must be separable (lambda, p*, R^2 as in
    :class:`~novikoff.certificates.SeparableCertificate`); a Gordan certificate raises
    CertificateError, since there is no bound to prove.
    """
    if not isinstance(certificate, SeparableCertificate):
        raise CertificateError("certificate rejected: not separable (Gordan certificate), no bound to prove")
    features, rho, scale, samples = _data_as_read(dataset)
    lam = certificate.lambdas
    if not isinstance(lam, RationalVector):
        lam = RationalVector.from_values(lam)
    q = lam.denominator
    pstar = [Fraction(v) for v in certificate.pstar]
    if len(pstar) == dataset.n_features:  # rho = 0: Coq's rows keep the (zero) bias coordinate
        pstar.append(Fraction(0))
    # p* = P / (q s) and R^2 = M / s^2 as integers (the Coq check decides whether they are right)
    P = [_integral(v * q * scale, "p* * lambda_den * scale") for v in pstar]
    M = _integral(Fraction(certificate.R2) * scale * scale, "R^2 * scale^2")
    PP = sum(v * v for v in P)
    bound = M * q * q // PP if PP > 0 else 0
    m, d = len(features), dataset.n_features
    gamma2 = Fraction(PP, (q * scale) ** 2) if PP > 0 else Fraction(0)
    ratio = str(Fraction(M * q * q, PP)) if PP > 0 else "undefined"
    return f"""(* Generated by novikoff.coq.dataset_certificate: a kernel certificate for the
   labelled dataset {_comment(dataset.name)}: m = {m} samples with d = {d} features and bias
   rho = {rho}, written below as read (features as fractions, labels, rho).
   Computed in Coq: the common denominator scale, the rows scale * y_i (x_i, rho) and
   the certificate checks; lambda_i = lambda_num_i / lambda_den;
   p* = pstar_num / (lambda_den * scale); R^2 = R2_num / scale^2.
   Claimed: R^2 = {certificate.R2}, gamma^2 = ||p*||^2 = {gamma2},
   R^2/gamma^2 = {ratio}, floor = {bound}. *)

{_preamble(samples, rho, scale, lam)}Definition pstar_num : list Z := {_ints(P)}.
Definition R2_num : Z := {_int(M)}.

(** The labelled dataset and its bias as real numbers. *)
Definition D : dataset := to_dataset data.
Definition rhoR : R := frac_R rho.

(** Every denominator divides scale, which is the data's common denominator. *)
Lemma scale_checks : check_scale data rho = true /\\ data_scale data rho = scale.
Proof. split; vm_compute; reflexivity. Qed.

(** On the rows computed from the data: lambda >= 0, sum lambda = 1, p* = sum lambda_i z_i,
    min_i z_i.p* >= ||p*||^2 > 0, R^2 = max_i ||z_i||^2 (exact integer arithmetic). *)
Lemma certificate_checks : check_cert (zrows data rho) lambda_num lambda_den pstar_num R2_num = true.
Proof. vm_compute. reflexivity. Qed.

Lemma bound_value : cert_bound lambda_den pstar_num R2_num = {_int(bound)}.
Proof. vm_compute. reflexivity. Qed.

(** gamma^2 = ||p*||^2 is the squared distance from 0 to conv{{y_i (x_i, rho)}}. *)
Theorem gamma2_min_norm :
  min_norm_sq (reflected rhoR D)
    (IZR (zdot pstar_num pstar_num) / (IZR (lambda_den * scale) * IZR (lambda_den * scale)))%R.
Proof.
  destruct scale_checks as [Hs Es]. rewrite <- Es.
  exact (proj1 (proj2 (labelled_certificate_sound data rho lambda_num lambda_den pstar_num R2_num
                         Hs certificate_checks))).
Qed.

(** R^2 = max_i ||(x_i, rho)||^2. *)
Theorem radius2_value : radius2 rhoR D = (IZR R2_num / (IZR scale * IZR scale))%R.
Proof.
  destruct scale_checks as [Hs Es]. rewrite <- Es.
  exact (proj2 (proj2 (labelled_certificate_sound data rho lambda_num lambda_den pstar_num R2_num
                         Hs certificate_checks))).
Qed.

(** The perceptron on this labelled dataset (update iff y_i (w . (x_i, rho)) <= 0) makes at
    most floor(R^2/gamma^2) = {bound} updates in every presentation order (any
    permutation, any number of epochs, any prefix). *)
Theorem perceptron_updates_bound :
  forall order : list nat, valid D order ->
  Z.of_nat (perceptron_updates rhoR D order) <= {_int(bound)}.
Proof.
  intros order Ho.
  pose proof (labelled_updates_bound data rho lambda_num lambda_den pstar_num R2_num order
                (proj1 scale_checks) certificate_checks Ho) as H.
  rewrite bound_value in H. exact H.
Qed.

Print Assumptions perceptron_updates_bound.
"""


@dataclass(frozen=True)
class KernelNumbers:
    """What ``KernelCertificate.kernel_summary`` computes in Coq, computed the same way here.

    With s the data's common denominator, c = a/b and r = s rho: every kernel value
    K(x_i, x_j) = (x_i.x_j + c)^p + rho^2 is N_ij / ``L``, L = (b s^2)^p s^2; ``M`` = max_i N_ii
    (R^2 = M / L); the margin numerators m_i = y_i sum_j A_j y_j N_ji of alpha = A / q (the
    margin of the dual separator is m_i / (q L)), ``mu`` = min_i m_i and ``S`` = sum_i A_i m_i
    (alpha^T (Y K Y) alpha = S / (q^2 L)).
    """

    L: int
    M: int
    mu: int
    S: int

    @property
    def bound(self) -> int:
        """floor(M S / mu^2) = floor(R^2 / gamma^2), gamma^2 = (mu/(qL))^2 / (S/(q^2 L)); needs mu > 0."""
        return self.M * self.S // (self.mu * self.mu)

    def gamma2(self) -> Fraction:
        """The squared geometric margin of the dual separator in feature space, mu^2 / (L S)."""
        return Fraction(self.mu * self.mu, self.L * self.S)


def kernel_numbers(dataset: Dataset, kernel: KernelSpec, alpha: RationalVector) -> KernelNumbers:
    """(L, M, mu, S) of ``kernel_summary`` for ``dataset``, the polynomial ``kernel`` and the
    dual coefficients ``alpha`` (exact integers; the Coq file states them and Coq recomputes them)."""
    features, rho, s, _ = _data_as_read(dataset)
    rows = [[q.numerator * (s // q.denominator) for q in row] for row in features]
    r = rho.numerator * (s // rho.denominator)
    a, b, p = kernel.c.numerator, kernel.c.denominator, kernel.degree
    ss = s * s
    bss_p = (b * ss) ** p
    shift, t = a * ss, r * r * bss_p
    m = len(rows)
    if m and rows[0]:
        product = flint.fmpz_mat(rows) * flint.fmpz_mat(rows).transpose()
        dots = [[int(product[i, j]) for j in range(m)] for i in range(m)]
    else:  # no features: every x.x' is 0
        dots = [[0] * m for _ in range(m)]
    y = dataset.labels
    A = list(alpha.numerators)
    if len(A) != m:
        raise CertificateError(f"certificate rejected: {len(A)} coefficients for {m} samples")
    support = [j for j in range(m) if A[j]]

    def value(xx: int) -> int:  # N_ij without the labels, from x_i.x_j = xx / s^2
        return (b * xx + shift) ** p * ss + t

    diagonal = [value(dots[i][i]) for i in range(m)]
    weighted = [[A[j] * y[j] * value(xx) for xx in dots[j]] for j in support]
    margins = [y[i] * sum(row[i] for row in weighted) for i in range(m)]
    S = sum(a_i * m_i for a_i, m_i in zip(A, margins))
    return KernelNumbers(bss_p * ss, max([0, *diagonal]), min(margins, default=0), S)


_PARAMS_CHECKS = """(** Every denominator divides the common denominator; c >= 0; one alpha per sample. *)
Lemma params_checks : check_kernel_params data rho kc alpha_num alpha_den = true.
Proof. vm_compute. reflexivity. Qed.
"""
_GORDAN_CHECKS = """(** As params_checks, and alpha_i >= 0 with sum alpha_i = 1. *)
Lemma gordan_params_checks : check_kernel_gordan data rho kc alpha_num alpha_den = true.
Proof. vm_compute. reflexivity. Qed.
"""


def _kernel_head(
    dataset: Dataset, kernel: KernelSpec, alpha: RationalVector, nums: KernelNumbers, checks: str
) -> str:
    """The imports, the data as read, the kernel, alpha, the stated numbers and their names
    over R, the lemma ``checks`` and ``kernel_checks``: what the bound file and the Gordan
    file share."""
    _, rho, _, samples = _data_as_read(dataset)
    return f"""From Coq Require Import Reals ZArith List.
From Novikoff Require Import Vectors Perceptron DatasetCertificate Labelled LabelledCertificate.
From Novikoff Require Import KernelCertificate.
Import ListNotations.
Local Open Scope Z_scope.

(** The dataset as read: (features, label) per sample, and the bias rho. *)
Definition data : list qsample :=
  [ {samples}
  ].
Definition rho : frac := {_frac(rho)}.

(** The kernel: degree p and constant c. *)
Definition degree : nat := {kernel.degree}%nat.
Definition kc : frac := {_frac(kernel.c)}.

(** The dual certificate alpha_i = alpha_num_i / alpha_den. *)
Definition alpha_num : list Z := {_ints(alpha.numerators)}.
Definition alpha_den : Z := {_int(alpha.denominator)}.

(** The numbers Coq computes from the above (checked in kernel_checks). *)
Definition gram_den : Z := {_int(nums.L)}.
Definition R2_num : Z := {_int(nums.M)}.
Definition margin_num : Z := {_int(nums.mu)}.
Definition norm2_num : Z := {_int(nums.S)}.

(** The labelled dataset, its kernel with the bias, and the dual separator, over R. *)
Definition D : dataset := to_dataset data.
Definition K : kernel := kpoly (frac_R kc) degree (frac_R rho).
Definition alpha : list R := kalpha alpha_num alpha_den.

{checks}
(** The kernel values, margins, norm and R^2, computed from the data (exact integer arithmetic). *)
Lemma kernel_checks : kernel_summary data rho kc degree alpha_num = (gram_den, R2_num, margin_num, norm2_num).
Proof. vm_compute. reflexivity. Qed.

"""


def kernel_certificate_to_coq(dataset: Dataset, kernel: KernelSpec, alpha: RationalVector) -> str:
    """Coq source proving, for ``dataset`` and the polynomial ``kernel`` (with the bias as
    K + rho^2), that the kernel perceptron (dual form, ``KernelCertificate.kernel_perceptron``)
    makes at most floor(R^2/gamma^2) updates in every order, from the dual separator ``alpha``
    (the feature-space minimum-norm weights of the kernel certificate).

    The file carries the data as read, the degree, c, alpha and the numbers (L, M, mu, S) of
    :func:`kernel_numbers`; Coq recomputes those numbers from the data by ``vm_compute``, so an
    edited feature, label, degree, c or alpha fails at ``kernel_checks`` (or
    ``params_checks``), unless the edit leaves every number unchanged, when the file proves
    the bound of the edited data. CertificateError if the least margin is not positive (no
    bound to prove) or the kernel is not polynomial.

    Cost: Coq evaluates the kernel on the support rows and the diagonal (zero coefficients
    are skipped), (support + 1) m values of (b X.X' + a s^2)^p, twice (tactic and kernel).
    Measured with coqc 8.16 on this project's 2-core machine (load about 8), CPU time of the
    whole coqc run (about 0.8 s of it loads the reals): XOR poly:2 0.9 s; textbook-6.6:3
    (60 x 2) poly:2 2.0 s and poly:3 4.3 s (alpha's denominator has 130 and 295 digits);
    T1 with n = 30 (30 x 30, 30 support vectors) poly:3 1.0 s; 1000 points of a disc and a
    ring (2 features, 6 support vectors) poly:2 1.5 s.
    """
    if kernel.kind != "poly":
        raise CertificateError(f"kernel {kernel}: only the polynomial kernel has a Coq certificate")
    nums = kernel_numbers(dataset, kernel, alpha)
    if nums.mu <= 0 or nums.S <= 0:
        raise CertificateError(
            "certificate rejected: the dual separator has no positive margin in feature space, "
            "no bound to prove"
        )
    m, d = dataset.n_samples, dataset.n_features
    rho = Fraction(dataset.bias)
    R2 = Fraction(nums.M, nums.L)
    gamma2 = nums.gamma2()
    bound = nums.bound
    return f"""(* Generated by novikoff.coq.dataset_certificate: a kernel certificate for the kernel
   perceptron on the labelled dataset {_comment(dataset.name)}: m = {m} samples with d = {d}
   features and bias rho = {rho}, written below as read (features as fractions, labels, rho),
   with the kernel K(x, x') = (x.x' + c)^p + rho^2, p = {kernel.degree}, c = {kernel.c}.
   Computed in Coq from them: every K(x_i, x_j) = N_ij / gram_den, the margins
   y_i sum_j alpha_j y_j K(x_j, x_i) of the dual separator alpha = alpha_num / alpha_den
   (their least numerator margin_num: margin = margin_num / (alpha_den gram_den)),
   alpha^T (Y K Y) alpha = norm2_num / (alpha_den^2 gram_den) and R^2 = max_i K(x_i, x_i)
   = R2_num / gram_den.
   Claimed: R^2 = {R2}, gamma^2 = margin^2 / (alpha^T (Y K Y) alpha) = {gamma2},
   R^2/gamma^2 = {R2 / gamma2}, floor = {bound}. *)

{_kernel_head(dataset, kernel, alpha, nums, _PARAMS_CHECKS)}Lemma margin_positive : 0 < margin_num.
Proof. vm_compute. reflexivity. Qed.

Lemma bound_value : kernel_bound R2_num margin_num norm2_num = {_int(bound)}.
Proof. vm_compute. reflexivity. Qed.

(** R^2 = max_i K(x_i, x_i). *)
Theorem radius2_value : kradius2 K D = (IZR R2_num / IZR gram_den)%R.
Proof.
  exact (proj1 (proj2 (proj2 (proj2 (proj2
    (kernel_certificate_values data rho kc degree alpha_num alpha_den gram_den R2_num margin_num
       norm2_num params_checks kernel_checks)))))).
Qed.

(** Every margin y_i sum_j alpha_j y_j K(x_j, x_i) is at least margin_num / (alpha_den gram_den). *)
Theorem margins_bound :
  forall s, In s D -> (kmargin K alpha D s >= IZR margin_num / (IZR alpha_den * IZR gram_den))%R.
Proof.
  exact (proj1 (proj2
    (kernel_certificate_values data rho kc degree alpha_num alpha_den gram_den R2_num margin_num
       norm2_num params_checks kernel_checks))).
Qed.

(** alpha^T (Y K Y) alpha, the feature-space norm^2 of the dual separator. *)
Theorem norm2_value :
  knorm2 K alpha D = (IZR norm2_num / (IZR alpha_den * (IZR alpha_den * IZR gram_den)))%R.
Proof.
  exact (proj2 (proj2 (proj2 (proj2 (proj2
    (kernel_certificate_values data rho kc degree alpha_num alpha_den gram_den R2_num margin_num
       norm2_num params_checks kernel_checks)))))).
Qed.

(** The least margin of the dual separator, and the bound over R: updates * margin^2 <=
    R^2 (alpha^T (Y K Y) alpha), i.e. updates <= R^2 / gamma^2. *)
Definition margin : R := (IZR margin_num / (IZR alpha_den * IZR gram_den))%R.

Theorem kernel_perceptron_ratio :
  forall order : list nat, valid D order ->
  (INR (kernel_updates K D order) * (margin * margin) <= kradius2 K D * knorm2 K alpha D)%R.
Proof.
  intros order Ho.
  exact (kernel_certificate_ratio data rho kc degree alpha_num alpha_den gram_den R2_num margin_num
           norm2_num order params_checks kernel_checks margin_positive Ho).
Qed.

(** The kernel perceptron on this labelled dataset (dual form: alpha_i += 1 iff
    y_i sum_j alpha_j y_j K(x_j, x_i) <= 0) makes at most floor(R^2/gamma^2) = {bound}
    updates in every presentation order (any permutation, any number of epochs, any prefix). *)
Theorem kernel_perceptron_updates_bound :
  forall order : list nat, valid D order -> Z.of_nat (kernel_updates K D order) <= {_int(bound)}.
Proof.
  intros order Ho.
  pose proof (kernel_certificate_bound data rho kc degree alpha_num alpha_den gram_den R2_num
                margin_num norm2_num order params_checks kernel_checks margin_positive Ho) as H.
  rewrite bound_value in H. exact H.
Qed.

Print Assumptions kernel_perceptron_updates_bound.
Print Assumptions kernel_perceptron_ratio.
"""


def kernel_gordan_to_coq(dataset: Dataset, kernel: KernelSpec, alpha: RationalVector) -> str:
    """Coq source proving that no dual separator has a positive margin on every sample of
    ``dataset`` in the feature space of the polynomial ``kernel`` (bias rho^2 added), from
    the kernel certificate's weights ``alpha`` (alpha >= 0, sum alpha = 1,
    alpha^T (Y K Y) alpha = 0: the origin is in the feature-space hull), all checked in Coq
    on the kernel values it computes from the data as read. The kernel perceptron then errs
    on some sample whatever its counts. CertificateError if alpha^T (Y K Y) alpha is not 0,
    alpha is not convex, or the kernel is not polynomial.
    """
    if kernel.kind != "poly":
        raise CertificateError(f"kernel {kernel}: only the polynomial kernel has a Coq certificate")
    nums = kernel_numbers(dataset, kernel, alpha)
    if nums.S != 0 or any(v < 0 for v in alpha.numerators) or sum(alpha.numerators) != alpha.denominator:
        raise CertificateError(
            "certificate rejected: alpha is not a convex combination with alpha^T (Y K Y) alpha = 0"
        )
    m, d = dataset.n_samples, dataset.n_features
    head = _kernel_head(dataset, kernel, alpha, nums, _GORDAN_CHECKS)
    return f"""(* Generated by novikoff.coq.dataset_certificate: a kernel certificate that the
   labelled dataset {_comment(dataset.name)} (m = {m} samples, d = {d} features, bias
   rho = {format_rational(dataset.bias)}, written below as read) is not separable in the
   feature space of K(x, x') = (x.x' + c)^p + rho^2, p = {kernel.degree}, c = {kernel.c}: a
   Gordan certificate alpha_i = alpha_num_i / alpha_den >= 0, sum alpha = 1 and
   alpha^T (Y K Y) alpha = norm2_num = 0, checked in Coq on the kernel values it computes
   from the data. *)

{head}(** No dual separator: for all coefficients c, some sample has
    y_i sum_j c_j y_j K(x_j, x_i) <= 0 (so the kernel perceptron never stops updating). *)
Theorem not_separable_in_feature_space :
  forall cs : list R, exists s, In s D /\\ (kmargin K cs D s <= 0)%R.
Proof.
  exact (kernel_gordan_sound data rho kc degree alpha_num alpha_den gram_den R2_num margin_num
           gordan_params_checks kernel_checks).
Qed.

Print Assumptions not_separable_in_feature_space.
"""
