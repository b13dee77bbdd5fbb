"""Build the extracted reference: the Coq development, the integer runs, OCaml.

:func:`build` copies the files of the Coq development (``novikoff/coq/theories``) that the
integer runs import (transitively) to a temporary directory, compiles them with ``coqc``
there (the development's own sources, never its build products), compiles this package's
``coq/*.v`` against them (``-R <copy> Novikoff -R . NovikoffExtracted``), runs the
extraction (``Extract.v``: ``ExtrOcamlBasic``, ``ExtrOcamlZBigInt``, ``ExtrOcamlNatInt``),
prints the assumptions of the correctness theorems, and compiles the extracted module and
the hand-written driver (``ocaml/driver.ml``, not verified) with
``ocamlfind ocamlopt -package zarith``. The binary is cached in
``$XDG_CACHE_HOME/novikoff/extracted/<key>/`` (default ``~/.cache``), ``<key>`` a hash of
every source file used and of the tool versions, so an edit of any of them rebuilds.

Guarantees: a returned :class:`Built` names an executable built from exactly the hashed
sources, and ``assumptions`` is what ``Print Assumptions`` printed for the theorems of
:data:`THEOREMS`; a failing step raises :class:`BuildError` with the tool's message.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "COQ_DIR",
    "DEV_DIR",
    "THEOREMS",
    "BuildError",
    "Built",
    "build",
    "cache_dir",
    "missing_tools",
]

HERE = Path(__file__).resolve().parent
COQ_DIR = HERE.parent / "coq" / "extraction"
OCAML_DIR = COQ_DIR / "ocaml"
DEV_DIR = HERE.parent / "coq" / "theories"
#: This package's Coq files, in dependency order (``Extract.v`` last: it writes the .ml).
OWN_FILES = (
    "ZPerceptron.v",
    "ZLargeMargin.v",
    "ZPdmSucc.v",
    "ZLabelled.v",
    "ZMulticlass.v",
    "ZVoted.v",
    "ZAveraged.v",
    "ZPdmMultiple.v",
    "ZRomma.v",
    "Extract.v",
)
#: The correctness theorems whose assumptions are printed (and checked by the tests).
THEOREMS = (
    "zrun_correct",
    "zrun_rational",
    "zepochs_correct",
    "zepochs_pairs_correct",
    "znatural_present",
    "zreflect_R",
    "zg_epochs_correct",
    "zpfm_correct",
    "zpdm_correct",
    "zsucc_correct",
    "zlabelled_correct",
    "zmepochs_correct",
    "zvoted_correct",
    "zaveraged_correct",
    "zromma_correct",
    "zmu_count_R",
    "zpdm_mu_correct",
    "zmu_succ_correct",
)
BINARY = "perceptron-extracted"
_REQUIRE = re.compile(r"From\s+Novikoff\s+Require\s+(?:Import\s+|Export\s+)?([A-Za-z0-9_ ]+)\.")


class BuildError(RuntimeError):
    """A build step failed (the message names the step and quotes the tool)."""


@dataclass(frozen=True)
class Built:
    """The cached build: the driver binary and the printed assumptions."""

    binary: Path
    assumptions: str


def missing_tools() -> str | None:
    """None when coqc, ocamlfind and Zarith are all present, else what is missing."""
    for tool in ("coqc", "ocamlfind"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: coq, ocaml-findlib, ocaml-nox, libzarith-ocaml-dev)"
    proc = subprocess.run(["ocamlfind", "query", "zarith"], capture_output=True, text=True)
    if proc.returncode != 0:
        return "the OCaml library zarith is not installed (Debian: libzarith-ocaml-dev)"
    return None


def dev_files() -> list[str]:
    """The development's files the integer runs import, transitively, in dependency order."""
    order: list[str] = []

    def visit(path: Path) -> None:
        for group in _REQUIRE.findall(path.read_text(encoding="utf-8")):
            for name in group.split():
                f = f"{name}.v"
                if f not in order:
                    visit(DEV_DIR / f)
                    if f not in order:
                        order.append(f)

    for own in OWN_FILES:
        visit(COQ_DIR / own)
    return order


def _version(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def source_key() -> str:
    """The hash of every source the binary is built from and of the tool versions."""
    h = hashlib.sha256()
    files = [DEV_DIR / f for f in dev_files()] + [COQ_DIR / f for f in OWN_FILES] + [OCAML_DIR / "driver.ml"]
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(_version(["coqc", "--version"]).encode())
    h.update(_version(["ocamlfind", "ocamlopt", "-version"]).encode())
    h.update(_version(["ocamlfind", "query", "-format", "%v", "zarith"]).encode())
    return h.hexdigest()[:24]


def cache_dir() -> Path:
    """The per-user cache root of the extracted builds."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "novikoff" / "extracted"


def _run(cmd: list[str], cwd: Path, step: str, timeout: float) -> str:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BuildError(f"{step}: timed out after {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise BuildError(f"{step} failed: {(proc.stdout + proc.stderr).strip()[-2000:]}")
    return proc.stdout


def build(force: bool = False, timeout: float = 600.0) -> Built:
    """Build (or find in the cache) the extracted perceptron; see the module docstring."""
    missing = missing_tools()
    if missing:
        raise BuildError(missing)
    target = cache_dir() / source_key()
    binary, notes = target / BINARY, target / "assumptions.txt"
    if binary.exists() and notes.exists() and not force:
        return Built(binary, notes.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="novikoff-extracted-") as tmp:
        work = Path(tmp)
        dev, own = work / "dev", work / "own"
        dev.mkdir()
        own.mkdir()
        for f in dev_files():
            shutil.copy2(DEV_DIR / f, dev / f)
            _run(["coqc", "-R", ".", "Novikoff", f], dev, f"coqc {f} (the development)", timeout)
        for f in OWN_FILES:
            shutil.copy2(COQ_DIR / f, own / f)
        flags = ["-R", str(dev), "Novikoff", "-R", ".", "NovikoffExtracted"]
        for f in OWN_FILES:
            _run(["coqc", *flags, f], own, f"coqc {f}", timeout)
        (own / "Assumptions.v").write_text(
            "From NovikoffExtracted Require Import "
            + " ".join(f.removesuffix(".v") for f in OWN_FILES if f != "Extract.v")
            + ".\n"
            + "".join(f"Print Assumptions {t}.\n" for t in THEOREMS),
            encoding="utf-8",
        )
        assumptions = _run(["coqc", *flags, "Assumptions.v"], own, "Print Assumptions", timeout)
        shutil.copy2(OCAML_DIR / "driver.ml", own / "driver.ml")
        ml = ["perceptron_extracted.mli", "perceptron_extracted.ml", "driver.ml"]
        _run(
            ["ocamlfind", "ocamlopt", "-O3", "-package", "zarith", "-linkpkg", *ml, "-o", BINARY],
            own,
            "ocamlfind ocamlopt (the extracted module and the driver)",
            timeout,
        )
        target.mkdir(parents=True, exist_ok=True)
        staged = target / f".{BINARY}.{os.getpid()}"
        shutil.copy2(own / BINARY, staged)
        os.replace(staged, binary)
        notes.write_text(assumptions, encoding="utf-8")
    return Built(binary, assumptions)


if __name__ == "__main__":  # pragma: no cover - a convenience: python -m novikoff.extracted.build
    built = build(force=True)
    print(built.binary)
    print(built.assumptions)
