"""Kernel certificates for one dataset (novikoff.coq.dataset_certificate): the generated Coq
file compiles for a valid certificate and fails to compile for a tampered one."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from novikoff.certificates import SeparableCertificate, certify
from novikoff.coq.dataset_certificate import certificate_to_coq
from novikoff.data import Dataset
from novikoff.errors import CertificateError
from novikoff.examples import exercise_6_1, seed_6_9
from novikoff.rational import RationalVector
from novikoff.spec.tightness import basis_dataset

pytestmark = pytest.mark.xdist_group("coq")

DEVELOPMENT = Path(__file__).resolve().parent.parent / "novikoff" / "proofs" / "coq"
#: the files a dataset certificate needs, in dependency order
NEEDED = ("Vectors.v", "Perceptron.v", "DatasetCertificate.v")
ALLOWED_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
}

needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found")


@pytest.fixture(scope="module")
def coq_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private build of the part of the development the certificates use (the checkout
    is shared, so nothing is built in place)."""
    root = tmp_path_factory.mktemp("coq-dev")
    for name in NEEDED:
        shutil.copy(DEVELOPMENT / name, root / name)
        done = subprocess.run(
            ["coqc", "-q", "-R", ".", "Novikoff", name], cwd=root, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{name} does not compile:\n{done.stdout}\n{done.stderr}"
    return root


def _compile(root: Path, source: str, name: str) -> subprocess.CompletedProcess[str]:
    path = root / f"{name}.v"
    path.write_text(source)
    return subprocess.run(
        ["coqc", "-q", "-R", str(root), "Novikoff", str(path)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _axioms(stdout: str) -> set[str]:
    return {
        line.split()[0]
        for line in stdout.splitlines()
        if line and not line[0].isspace() and line != "Axioms:"
    }


def test_generated_file_states_the_bound() -> None:
    ds = exercise_6_1()
    src = certificate_to_coq(ds, certify(ds))
    assert "Theorem perceptron_updates_bound" in src
    assert "Z.of_nat (updates zs order) <= 4." in src  # floor(R^2/gamma^2) = floor(9/2)
    assert "Lemma certificate_checks : check_cert rows lambda_num lambda_den pstar_num R2_num = true." in src
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
    assert f"Z.of_nat (updates zs order) <= {bound}." in src
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
    line = 1 + src.splitlines().index(
        "Lemma certificate_checks : check_cert rows lambda_num lambda_den pstar_num R2_num = true."
    )
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


def test_certify_coq_refuses_non_separable_data_and_bad_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import cli

    xor = tmp_path / "xor.csv"
    xor.write_text("0,0,-1\n1,1,-1\n0,1,1\n1,0,1\n", encoding="utf-8")
    assert cli.main(["certify", str(xor), "--header", "no", "--coq", str(tmp_path / "x.v")]) == 2
    assert "not separable" in capsys.readouterr().err
    assert not (tmp_path / "x.v").exists()
    assert cli.main(["certify", "example:exercise-6.1", "--coq", str(tmp_path / "bad-name.v")]) == 2
    assert "--coq" in capsys.readouterr().err
