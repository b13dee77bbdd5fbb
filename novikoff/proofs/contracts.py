"""Run CrossHair on the reference's integer kernels (:mod:`novikoff.reference.kernels`).

CrossHair searches symbolically for inputs that satisfy a kernel's ``pre:``
conditions and break a ``post:`` condition, within a per-condition time limit.
It is a bounded search (a counterexample is definite, a pass is not a proof);
the proofs proper are the obligations in :mod:`novikoff.proofs`.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from novikoff.proofs.results import Skip

__all__ = ["KERNELS", "crosshair_check"]

#: The kernels with contracts, and the theorem each one's contract belongs to.
KERNELS = {
    "update_energy": "N2",
    "update_progress": "N1",
    "pfm_updates": "P1",
    "pdm_updates": "D1",
    "repeated_update_count": "MU",
}


def crosshair_check(function: str, per_condition_timeout: float = 10.0) -> None:
    """Raise AssertionError with CrossHair's report if it finds a counterexample.

    Raises :class:`~novikoff.proofs.results.Skip` when crosshair-tool is not installed.
    """
    if importlib.util.find_spec("crosshair") is None:
        raise Skip("crosshair-tool is not installed (pip install 'novikoff[test]')")
    target = f"novikoff.reference.kernels.{function}"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "crosshair",
            "check",
            target,
            "--analysis_kind=PEP316",
            f"--per_condition_timeout={per_condition_timeout}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise AssertionError(f"crosshair check {target} failed:\n{proc.stdout}{proc.stderr}")
