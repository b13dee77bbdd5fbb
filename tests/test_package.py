"""Package hygiene: version, --version, py.typed, LICENSE."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import novikoff
from novikoff.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_version_is_the_package_metadata() -> None:
    assert novikoff.__version__ == version("novikoff")


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"novikoff {novikoff.__version__}"


def test_console_script_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "novikoff.cli", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"novikoff {novikoff.__version__}"


def test_typed_and_licensed() -> None:
    assert (Path(novikoff.__file__).parent / "py.typed").is_file()
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    for name in ("CHANGELOG.md", "CITATION.cff"):
        assert (ROOT / name).is_file()
