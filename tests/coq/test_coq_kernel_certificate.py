"""The kernel perceptron's Coq certificate (``certify --kernel poly:D --coq FILE.v``):
novikoff.coq.dataset_certificate.kernel_certificate_to_coq and KernelCertificate.v.

The numbers the file states are checked here against kernel values computed from scratch
(Fractions, the definition (x.x' + c)^p + rho^2), and against the exact kernel certificate;
the file compiles with only the standard reals' axioms, and an edit of a feature, a label,
the degree, c or an alpha after generation fails in the Coq computation that now disagrees.
On data not separable in feature space the file is the feature-space Gordan certificate.
"""

from __future__ import annotations

import json
import math
import resource
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from coq_subset import DEVELOPMENT, build_subset, compile_source, printed_axioms
from hypothesis import given
from hypothesis import strategies as st

from novikoff.certificates.kernel_solver import certify_kernel
from novikoff.coq.dataset_certificate import kernel_certificate_to_coq, kernel_gordan_to_coq, kernel_numbers
from novikoff.data.dataset import Dataset
from novikoff.data.examples import exercise_6_1, load_example
from novikoff.data.kernels import KernelSpec, exact_gram, parse_kernel
from novikoff.errors import CertificateError
from novikoff.exact.rational import RationalVector

pytestmark = pytest.mark.xdist_group("coq")

#: the files a kernel certificate needs, in dependency order
NEEDED = (
    "Vectors.v",
    "Perceptron.v",
    "DatasetCertificate.v",
    "Labelled.v",
    "LabelledCertificate.v",
    "KernelCertificate.v",
)
ALLOWED_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
}
KERNEL_CHECKS = (
    "Lemma kernel_checks : kernel_summary data rho kc degree alpha_num = "
    "(gram_den, R2_num, margin_num, norm2_num)."
)
PARAMS_CHECKS = "Lemma params_checks : check_kernel_params data rho kc alpha_num alpha_den = true."
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not found")


def _fractions() -> Dataset:
    """Rational features and a rational bias (common denominator 12)."""
    F = Fraction
    rows = [[F(1, 2), F(1, 3)], [F(3, 4), F(1)], [F(-1, 2), F(-2, 3)], [F(-1), F(1, 6)]]
    return Dataset.from_fraction_rows(rows, [1, 1, -1, -1], bias=F(1, 2), name="fractions")


CASES = {
    "xor_2": (lambda: load_example("xor"), "poly:2"),
    "ex61_3_half": (exercise_6_1, "poly:3:1/2"),
    "fractions_2": (_fractions, "poly:2:2/3"),
    "fractions_3_no_offset_no_bias": (lambda: _fractions().with_bias(0), "poly:3:0"),
    "seed_6_6_3": (lambda: load_example("seed-6.6:3"), "poly:2"),
}


def _case(name: str) -> tuple[Dataset, KernelSpec, RationalVector]:
    make, text = CASES[name]
    ds = make()
    spec = parse_kernel(text)
    cert = certify_kernel(ds, spec)
    assert cert.separable
    return ds, spec, cert.lambdas


def _kernel_value(ds: Dataset, spec: KernelSpec, i: int, j: int) -> Fraction:
    """(x_i.x_j + c)^p + rho^2 from the definition, in Fractions."""
    den = ds.denominator
    xi = [Fraction(v, den) for v in ds.numerators[i]]
    xj = [Fraction(v, den) for v in ds.numerators[j]]
    dot = sum((a * b for a, b in zip(xi, xj)), Fraction(0))
    return (dot + spec.c) ** spec.degree + Fraction(ds.bias) ** 2


@pytest.mark.parametrize("name", list(CASES))
def test_stated_numbers_are_the_kernel_quantities(name: str) -> None:
    """L, M, mu, S are R^2 = max K(x_i, x_i), the least margin and alpha^T (Y K Y) alpha,
    computed here from the kernel's definition; for the minimum-norm alpha the bound is the
    certificate's floor(R^2/gamma^2)."""
    ds, spec, alpha = _case(name)
    nums = kernel_numbers(ds, spec, alpha)
    m = ds.n_samples
    y = ds.labels
    a = [Fraction(v, alpha.denominator) for v in alpha.numerators]
    K = [[_kernel_value(ds, spec, i, j) for j in range(m)] for i in range(m)]
    margins = [y[i] * sum(a[j] * y[j] * K[j][i] for j in range(m)) for i in range(m)]
    norm2 = sum((a[i] * margins[i] for i in range(m)), Fraction(0))
    R2 = max(K[i][i] for i in range(m))
    q, L = alpha.denominator, nums.L
    assert Fraction(nums.M, L) == R2
    assert Fraction(nums.mu, q * L) == min(margins)
    assert Fraction(nums.S, q * q * L) == norm2
    assert nums.bound == math.floor(R2 * norm2 / min(margins) ** 2)
    cert = certify_kernel(ds, spec, exact_gram(ds, spec))
    assert cert.bound is not None
    assert nums.bound == math.floor(cert.bound)  # the minimum-norm point: min margin = ||p||^2
    assert min(margins) == norm2 == cert.gamma2


_fractions_st = st.fractions(min_value=-3, max_value=3, max_denominator=6)


@given(
    st.integers(1, 5).flatmap(
        lambda m: st.tuples(
            st.lists(st.lists(_fractions_st, min_size=2, max_size=2), min_size=m, max_size=m),
            st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m),
            st.lists(st.integers(-4, 6), min_size=m, max_size=m),
        )
    ),
    st.fractions(min_value=0, max_value=2, max_denominator=4),
    st.fractions(min_value=0, max_value=2, max_denominator=3),
    st.integers(1, 4),
)
def test_numbers_match_the_definition_on_any_data(
    data: tuple[list[list[Fraction]], list[int], list[int]], c: Fraction, rho: Fraction, degree: int
) -> None:
    """Whatever the data, c, rho, degree and coefficients (negative ones too), the stated
    numbers are R^2, the least margin and alpha^T (Y K Y) alpha of the definition."""
    rows, labels, nums = data
    ds = Dataset.from_fraction_rows(rows, labels, bias=rho, name="random")
    spec = KernelSpec("poly", degree=degree, c=c)
    q = 7
    alpha = RationalVector(nums, q)
    got = kernel_numbers(ds, spec, alpha)
    m = len(rows)
    a = [Fraction(v, alpha.denominator) for v in alpha.numerators]
    K = [[_kernel_value(ds, spec, i, j) for j in range(m)] for i in range(m)]
    margins = [labels[i] * sum(a[j] * labels[j] * K[j][i] for j in range(m)) for i in range(m)]
    assert Fraction(got.M, got.L) == max(K[i][i] for i in range(m))
    assert Fraction(got.mu, alpha.denominator * got.L) == min(margins)
    assert Fraction(got.S, alpha.denominator**2 * got.L) == sum(a[i] * margins[i] for i in range(m))


def test_no_positive_margin_and_rbf_are_refused() -> None:
    ds = load_example("xor")  # (0,0)-, (0,1)+, (1,0)+, (1,1)-
    spec = parse_kernel("poly:2")
    with pytest.raises(CertificateError, match="no positive margin"):
        kernel_certificate_to_coq(ds, spec, RationalVector([1, 0, 0, 0], 1))
    with pytest.raises(CertificateError, match="coefficients for 4 samples"):
        kernel_certificate_to_coq(ds, spec, RationalVector([1, 1], 2))
    with pytest.raises(CertificateError, match="polynomial"):
        kernel_certificate_to_coq(ds, parse_kernel("rbf:1", allow_rbf=True), RationalVector([1, 1, 1, 1], 4))


def test_generated_file_states_the_bound() -> None:
    ds, spec, alpha = _case("xor_2")
    src = kernel_certificate_to_coq(ds, spec, alpha)
    bound = kernel_numbers(ds, spec, alpha).bound
    assert f"Z.of_nat (kernel_updates K D order) <= {bound}." in src
    assert "(INR (kernel_updates K D order) * (margin * margin) <= kradius2 K D * knorm2 K alpha D)%R." in src
    assert KERNEL_CHECKS in src and PARAMS_CHECKS in src
    assert "([(0, 1); (1, 1)], pos)" in src and "Definition degree : nat := 2%nat." in src
    assert "Definition kc : frac := (1, 1)." in src and "Definition rho : frac := (1, 1)." in src
    for forbidden in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture"):
        assert forbidden not in src


@pytest.fixture(scope="module")
def coq_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private build of the part of the development the certificates use."""
    root = tmp_path_factory.mktemp("coq-kernel-dev")
    return build_subset(root, NEEDED)


_compile = compile_source
_axioms = printed_axioms


#: the theorems KernelCertificate.v proves once
THEORY_THEOREMS = (
    "kernel_novikoff",
    "kpoly_feature_map",
    "kernel_certificate_values",
    "kernel_certificate_bound",
    "kernel_certificate_ratio",
    "kernel_gordan_sound",
)


@needs_coqc
def test_theory_has_no_admitted_and_only_the_reals_axioms(coq_build: Path) -> None:
    text = (DEVELOPMENT / "KernelCertificate.v").read_text()
    for forbidden in ("Admitted", "admit", "Axiom ", "Parameter ", "Abort"):
        assert forbidden not in text
    probe = "From Novikoff Require Import KernelCertificate.\n" + "".join(
        f"Print Assumptions {name}.\n" for name in THEORY_THEOREMS
    )
    done = _compile(coq_build, probe, "probe_axioms")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Axioms:") == len(THEORY_THEOREMS)  # none is "Closed under the global context"
    assert _axioms(done.stdout) <= ALLOWED_AXIOMS, done.stdout


@needs_coqc
@pytest.mark.parametrize("name", list(CASES))
def test_certificate_compiles(coq_build: Path, name: str) -> None:
    ds, spec, alpha = _case(name)
    src = kernel_certificate_to_coq(ds, spec, alpha)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = _compile(coq_build, src, f"kcert_{name}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Axioms:") == 2  # the integer bound and the real one
    assert _axioms(done.stdout) <= ALLOWED_AXIOMS, done.stdout
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert cpu < 120, f"{name}: {cpu:.1f} s CPU"


# an edit of the generated file after generation -> the lemma whose proof (vm_compute) must fail
TAMPERINGS = {
    "feature": ("([(0, 1); (1, 1)], pos)", "([(0, 1); (2, 1)], pos)", KERNEL_CHECKS),
    "label": ("([(1, 1); (1, 1)], neg)", "([(1, 1); (1, 1)], pos)", KERNEL_CHECKS),
    "degree": ("Definition degree : nat := 2%nat.", "Definition degree : nat := 3%nat.", KERNEL_CHECKS),
    "kernel_constant": ("Definition kc : frac := (1, 1).", "Definition kc : frac := (2, 1).", KERNEL_CHECKS),
    "kernel_constant_negative": (
        "Definition kc : frac := (1, 1).",
        "Definition kc : frac := (-1, 1).",
        PARAMS_CHECKS,
    ),
    "alpha": ("ALPHA", "ALPHA_EDITED", KERNEL_CHECKS),
    "alpha_dropped": ("ALPHA", "ALPHA_SHORT", PARAMS_CHECKS),
    "rho": ("Definition rho : frac := (1, 1).", "Definition rho : frac := (2, 1).", KERNEL_CHECKS),
    "rho_denominator": (
        "Definition rho : frac := (1, 1).",
        "Definition rho : frac := (1, 2).",
        KERNEL_CHECKS,
    ),
    "claimed_R2": ("R2", "R2_EDITED", KERNEL_CHECKS),
}


def _alpha_line(alpha: RationalVector, numerators: list[int]) -> str:
    return "Definition alpha_num : list Z := [" + "; ".join(map(str, numerators)) + "]."


def _edit(src: str, alpha: RationalVector, old: str, new: str) -> tuple[str, str]:
    """The literal old/new text of a tampering (the alpha and R^2 ones are built from the file)."""
    nums = list(alpha.numerators)
    if old == "ALPHA":
        moved = [nums[0] + 1, nums[1] - 1, *nums[2:]]  # still sums to alpha_den
        return _alpha_line(alpha, nums), _alpha_line(alpha, moved if new == "ALPHA_EDITED" else nums[:-1])
    if old == "R2":
        line = next(row for row in src.splitlines() if row.startswith("Definition R2_num : Z := "))
        value = int(line.removeprefix("Definition R2_num : Z := ").rstrip("."), 0)
        return line, f"Definition R2_num : Z := {value + 1}."
    return old, new


@needs_coqc
@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_edited_file_fails_to_compile(coq_build: Path, tampering: str) -> None:
    """Editing a feature, a label, the degree, c, an alpha, rho or a claimed number after
    generation fails at the lemma whose computation now disagrees (the Gram matrix and the
    margins are computed from the data, not trusted)."""
    ds, spec, alpha = _case("xor_2")
    src = kernel_certificate_to_coq(ds, spec, alpha)
    old, new, lemma = TAMPERINGS[tampering]
    old, new = _edit(src, alpha, old, new)
    assert src.count(old) == 1, old
    edited = src.replace(old, new)
    done = _compile(coq_build, edited, f"kedited_{tampering}")
    assert done.returncode != 0, tampering
    line = 1 + edited.splitlines().index(lemma)
    assert f"line {line + 1}," in done.stderr, done.stderr  # the proof line of that lemma
    assert "Unable to unify" in done.stderr or "false" in done.stderr, done.stderr


def test_certify_kernel_coq_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from novikoff import cli

    target = tmp_path / "kcert_xor.v"
    code = cli.main(["certify", "example:xor", "--kernel", "poly:2", "--coq", str(target), "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["coq_file"] == str(target)
    ds, spec, alpha = _case("xor_2")
    assert target.read_text(encoding="utf-8") == kernel_certificate_to_coq(ds, spec, alpha)
    assert cli.main(["certify", "example:xor", "--kernel", "poly:2", "--coq", str(target)]) == 0
    assert f"Coq file written to {target}" in capsys.readouterr().out


def test_certify_kernel_coq_writes_gordan_files_and_refuses_bad_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from novikoff import cli

    target = tmp_path / "kg.v"
    # XOR is not separable in the feature space of x.x' + 1 + rho^2 (the linear kernel, bias)
    assert cli.main(["certify", "example:xor", "--kernel", "poly:1", "--coq", str(target)]) == 0
    capsys.readouterr()
    ds = load_example("xor")
    spec = parse_kernel("poly:1")
    cert = certify_kernel(ds, spec)
    assert not cert.separable
    assert target.read_text(encoding="utf-8") == kernel_gordan_to_coq(ds, spec, cert.lambdas)
    bad = str(tmp_path / "bad-name.v")
    assert cli.main(["certify", "example:xor", "--kernel", "poly:2", "--coq", bad]) == 2
    assert "--coq" in capsys.readouterr().err


def test_gordan_file_refuses_a_wrong_certificate() -> None:
    ds = load_example("xor")
    spec = parse_kernel("poly:1")
    with pytest.raises(CertificateError, match="alpha\\^T"):
        kernel_gordan_to_coq(ds, spec, RationalVector([1, 0, 0, 0], 1))  # a single pattern is not 0
    with pytest.raises(CertificateError, match="convex"):
        kernel_gordan_to_coq(ds, spec, RationalVector([2, 2, 2, 2], 4))  # sums to 2
    separable = certify_kernel(ds, parse_kernel("poly:2"))
    with pytest.raises(CertificateError):
        kernel_gordan_to_coq(ds, parse_kernel("poly:2"), separable.lambdas)


GORDAN_CHECKS = "Lemma gordan_params_checks : check_kernel_gordan data rho kc alpha_num alpha_den = true."


@needs_coqc
def test_gordan_file_compiles_and_fails_when_edited(coq_build: Path) -> None:
    """XOR under the linear kernel with the bias: the four feature-space patterns combine to
    0 (alpha = 1/4 each), so no dual separator exists; flipping a label, moving a feature or
    changing the degree breaks the computed alpha^T (Y K Y) alpha = 0, and a negative alpha
    breaks the convexity check."""
    ds = load_example("xor")
    spec = parse_kernel("poly:1")
    cert = certify_kernel(ds, spec)
    assert cert.lambdas == RationalVector([1, 1, 1, 1], 4)
    src = kernel_gordan_to_coq(ds, spec, cert.lambdas)
    assert "forall cs : list R, exists s, In s D /\\ (kmargin K cs D s <= 0)%R." in src
    done = _compile(coq_build, src, "kgordan_xor")
    assert done.returncode == 0, done.stderr
    assert _axioms(done.stdout) <= ALLOWED_AXIOMS, done.stdout
    edits = [
        ("([(1, 1); (1, 1)], neg)", "([(1, 1); (1, 1)], pos)", KERNEL_CHECKS),
        ("([(0, 1); (1, 1)], pos)", "([(0, 1); (2, 1)], pos)", KERNEL_CHECKS),
        ("Definition degree : nat := 1%nat.", "Definition degree : nat := 2%nat.", KERNEL_CHECKS),
        (
            "Definition alpha_num : list Z := [1; 1; 1; 1].",
            "Definition alpha_num : list Z := [3; -1; 1; 1].",
            GORDAN_CHECKS,
        ),
    ]
    for i, (old, new, lemma) in enumerate(edits):
        assert src.count(old) == 1, old
        edited = src.replace(old, new)
        done = _compile(coq_build, edited, f"kgordan_edited_{i}")
        assert done.returncode != 0, old
        line = 1 + edited.splitlines().index(lemma)
        assert f"line {line + 1}," in done.stderr, done.stderr
