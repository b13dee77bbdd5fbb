"""Kernel certificates for one dataset (novikoff.coq.dataset_certificate): the generated Coq
file compiles for a valid certificate and fails to compile for a tampered one."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from coq_subset import build_subset, compile_source, printed_axioms

from novikoff.certificates import GordanCertificate, SeparableCertificate, certify
from novikoff.coq.dataset_certificate import certificate_to_coq
from novikoff.data.dataset import Dataset
from novikoff.data.examples import exercise_6_1, seed_6_9
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector
from novikoff.spec.tightness import basis_dataset

pytestmark = pytest.mark.xdist_group("coq")

#: the files a dataset certificate needs, in dependency order
NEEDED = ("Vectors.v", "Perceptron.v", "DatasetCertificate.v", "Labelled.v", "LabelledCertificate.v")
ALLOWED_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
}

CHECKS = (
    "Lemma certificate_checks : check_cert (zrows data rho) lambda_num lambda_den pstar_num R2_num = true."
)
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found")


@pytest.fixture(scope="module")
def coq_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private build of the part of the development the certificates use (the checkout
    is shared, so nothing is built in place)."""
    root = tmp_path_factory.mktemp("coq-dev")
    return build_subset(root, NEEDED)


_compile = compile_source
_axioms = printed_axioms


def test_generated_file_states_the_bound() -> None:
    ds = exercise_6_1()
    src = certificate_to_coq(ds, certify(ds))
    assert "Theorem perceptron_updates_bound" in src
    assert "Z.of_nat (perceptron_updates rhoR D order) <= 4." in src  # floor(R^2/gamma^2) = floor(9/2)
    assert CHECKS in src
    # the data as read (exercise 6.1: (1,1)+, (2,2)+, (-1,-1)-, (-2,0)-, rho = 1), not reflected rows
    assert "([(2, 1); (2, 1)], pos)" in src and "([(-2, 1); (0, 1)], neg)" in src
    assert "Definition rho : frac := (1, 1)." in src
    for forbidden in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture"):
        assert forbidden not in src


def test_gordan_certificate_is_refused() -> None:
    ds = seed_6_9()
    cert = certify(ds, geometric=False)
    assert not cert.separable
    with pytest.raises(CertificateError, match="not separable"):
        certificate_to_coq(ds, cert)


@needs_coqc
@pytest.mark.parametrize(
    ("name", "dataset", "bound"),
    [("exercise_6_1", exercise_6_1(), 4), ("t1_5", basis_dataset(5), 5)],
)
def test_certificate_compiles(coq_build: Path, name: str, dataset: Dataset, bound: int) -> None:
    cert = certify(dataset)
    src = certificate_to_coq(dataset, cert)
    assert f"Z.of_nat (perceptron_updates rhoR D order) <= {bound}." in src
    done = _compile(coq_build, src, name)
    assert done.returncode == 0, done.stderr
    assert "Axioms:" in done.stdout
    assert _axioms(done.stdout) <= ALLOWED_AXIOMS, done.stdout


@needs_coqc
def test_tampered_certificate_fails_to_compile(coq_build: Path) -> None:
    ds = exercise_6_1()
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    # still convex (1/2 + 1/2), p* and R^2 unchanged, but p* is no longer sum lambda_i z_i
    tampered = dataclasses.replace(cert, lambdas=RationalVector([1, 1, 0, 0], 2))
    src = certificate_to_coq(ds, tampered)
    done = _compile(coq_build, src, "tampered")
    assert done.returncode != 0
    line = 1 + src.splitlines().index(CHECKS)
    assert f"line {line + 1}," in done.stderr, done.stderr  # the proof line of certificate_checks
    assert "Error" in done.stderr
    assert "false" in done.stderr or "Unable to unify" in done.stderr, done.stderr


@needs_coqc
def test_tampered_margin_fails_to_compile(coq_build: Path) -> None:
    """A p* that is sum lambda_i z_i for its lambda but not the minimum-norm point
    (z_i.p* < ||p*||^2 for some i) is rejected by the kernel too."""
    ds = exercise_6_1()
    cert = certify(ds)
    assert isinstance(cert, SeparableCertificate)
    lam = RationalVector([0, 1, 0, 0], 1)  # p = z_2 = (2, 2, 1): z_3.p = 3 < ||p||^2 = 9
    tampered = dataclasses.replace(cert, lambdas=lam, pstar=RationalVector([2, 2, 1], 1))
    done = _compile(coq_build, certificate_to_coq(ds, tampered), "tampered_margin")
    assert done.returncode != 0
    assert "Error" in done.stderr


def test_certify_coq_writes_the_kernel_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import cli

    target = tmp_path / "cert_ex61.v"
    assert cli.main(["certify", "example:exercise-6.1", "--coq", str(target), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["coq_file"] == str(target)
    ds = exercise_6_1()
    assert target.read_text(encoding="utf-8") == certificate_to_coq(ds, certify(ds))


def test_certify_coq_writes_gordan_files_and_refuses_bad_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import cli

    xor = tmp_path / "xor.csv"
    xor.write_text(XOR_CSV, encoding="utf-8")
    assert cli.main(["certify", str(xor), "--header", "no", "--coq", str(tmp_path / "x.v")]) == 0
    capsys.readouterr()
    text = (tmp_path / "x.v").read_text(encoding="utf-8")
    assert "Theorem not_separable" in text and "([(1, 1); (1, 1)], neg)" in text
    assert cli.main(["certify", "example:exercise-6.1", "--coq", str(tmp_path / "bad-name.v")]) == 2
    assert "--coq" in capsys.readouterr().err


SCALE_CHECKS = "Lemma scale_checks : check_scale data rho = true /\\ data_scale data rho = scale."

# an edit of the generated file after generation -> the lemma whose proof (vm_compute) must fail
TAMPERINGS = {
    "feature": ("exercise_6_1", "([(2, 1); (2, 1)], pos)", "([(2, 1); (1, 1)], pos)", CHECKS),
    "label": ("exercise_6_1", "([(-2, 1); (0, 1)], neg)", "([(-2, 1); (0, 1)], pos)", CHECKS),
    "rho": ("exercise_6_1", "Definition rho : frac := (1, 1).", "Definition rho : frac := (2, 1).", CHECKS),
    "rho_denominator": (
        "exercise_6_1",
        "Definition rho : frac := (1, 1).",
        "Definition rho : frac := (1, 2).",
        SCALE_CHECKS,
    ),
    "scale": ("exercise_6_1", "Definition scale : Z := 1.", "Definition scale : Z := 2.", SCALE_CHECKS),
    "certificate_R2": ("exercise_6_1", "Definition R2_num : Z := 9.", "Definition R2_num : Z := 10.", CHECKS),
    "certificate_lambda": (
        "exercise_6_1",
        "Definition lambda_num : list Z := [1; 0; 1; 0].",
        "Definition lambda_num : list Z := [1; 1; 0; 0].",
        CHECKS,
    ),
    "fraction_denominator": ("fractions", "(1, 3)", "(1, 5)", SCALE_CHECKS),
    "fraction_numerator": ("fractions", "([(1, 2); (1, 3)], pos)", "([(1, 2); (1, 6)], pos)", CHECKS),
}


def _fractions() -> Dataset:
    """Rational features and a rational bias (common denominator 12)."""
    from fractions import Fraction as F

    rows = [[F(1, 2), F(1, 3)], [F(3, 4), F(1)], [F(-1, 2), F(-2, 3)], [F(-1), F(1, 6)]]
    return Dataset.from_fraction_rows(rows, [1, 1, -1, -1], bias=F(1, 2), name="fractions")


def _source(which: str) -> str:
    ds = exercise_6_1() if which == "exercise_6_1" else _fractions()
    return certificate_to_coq(ds, certify(ds))


@needs_coqc
def test_fractions_and_no_bias_compile(coq_build: Path) -> None:
    """Rational features and rho are written as read and scaled in Coq; rho = 0 keeps a zero
    bias coordinate in Coq's rows (p* gets a 0 there)."""
    src = _source("fractions")
    assert "([(1, 2); (1, 3)], pos)" in src and "Definition rho : frac := (1, 2)." in src
    assert "Definition scale : Z := 12." in src  # lcm(2, 3, 4, 1, 6) computed independently below
    from math import lcm

    assert lcm(2, 3, 4, 1, 2, 3, 1, 6, 2) == 12
    done = _compile(coq_build, src + "Print data.\n", "fractions")
    assert done.returncode == 0, done.stderr
    assert "(1, 3)" in done.stdout and "(-2, 3)" in done.stdout  # the kernel's data is the user's
    ds = exercise_6_1().with_bias(0)
    src0 = certificate_to_coq(ds, certify(ds))
    assert "Definition rho : frac := (0, 1)." in src0
    done = _compile(coq_build, src0, "nobias")
    assert done.returncode == 0, done.stderr


@needs_coqc
@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_edited_file_fails_to_compile(coq_build: Path, tampering: str) -> None:
    """Editing a feature, a label, rho, the scale or the certificate after generation fails
    in the computation that now disagrees (the data are computed from, not trusted)."""
    which, old, new, lemma = TAMPERINGS[tampering]
    src = _source(which)
    assert src.count(old) == 1, old
    control = _compile(coq_build, src, f"control_{tampering}")
    assert control.returncode == 0, control.stderr
    edited = src.replace(old, new)
    done = _compile(coq_build, edited, f"edited_{tampering}")
    assert done.returncode != 0, tampering
    line = 1 + edited.splitlines().index(lemma)
    assert f"line {line + 1}," in done.stderr, done.stderr  # the proof line of that lemma


XOR_CSV = "0,0,-1\n1,1,-1\n0,1,1\n1,0,1\n"


def _xor() -> Dataset:
    """XOR_CSV's samples, bias 1."""
    from fractions import Fraction as F

    rows = [[F(0), F(0)], [F(1), F(1)], [F(0), F(1)], [F(1), F(0)]]
    return Dataset.from_fraction_rows(rows, [-1, -1, 1, 1], bias=F(1), name="xor")


@needs_coqc
def test_gordan_file_compiles_and_fails_when_edited(coq_build: Path) -> None:
    """XOR with bias 1: the four reflected patterns sum to 0 (lambda = 1/4 each), so no w
    separates them; the kernel checks it on the rows it computes from the data as read, and
    flipping a label or moving a feature breaks the check."""
    from novikoff.coq.dataset_certificate import gordan_to_coq

    ds = _xor()
    cert = certify(ds, geometric=False)
    assert isinstance(cert, GordanCertificate)
    src = gordan_to_coq(ds, cert)
    assert "forall w : vec, exists s, In s D /\\ (signed_margin w rhoR s <= 0)%R." in src
    done = _compile(coq_build, src, "gordan_xor")
    assert done.returncode == 0, done.stderr
    assert _axioms(done.stdout) <= ALLOWED_AXIOMS, done.stdout
    lemma = "Lemma gordan_checks : check_gordan (zrows data rho) lambda_num lambda_den = true."
    for i, (old, new) in enumerate(
        [
            ("([(1, 1); (1, 1)], neg)", "([(1, 1); (1, 1)], pos)"),
            ("([(0, 1); (1, 1)], pos)", "([(0, 1); (2, 1)], pos)"),
        ]
    ):
        assert src.count(old) == 1, old
        edited = src.replace(old, new)
        done = _compile(coq_build, edited, f"gordan_edited_{i}")
        assert done.returncode != 0
        line = 1 + edited.splitlines().index(lemma)
        assert f"line {line + 1}," in done.stderr, done.stderr
