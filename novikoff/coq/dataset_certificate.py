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
(0.9 s CPU), seed-6.6:3 3.2 s (1.0 s CPU), iris setosa-vs-rest (150 x 4, rho = 1) 1.9 s
(0.8 s CPU). Expect minutes once m d times the digit count squared is much larger than
Sonar's (208 x 60, 400-digit numbers; about 50 s in the earlier rows-only format, not
re-measured).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from novikoff.certificates import Certificate, GordanCertificate, SeparableCertificate
from novikoff.data.dataset import Dataset
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector

__all__ = ["certificate_to_coq", "gordan_to_coq"]


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
