"""Exact perceptron and whole ``novikoff certify`` on the peer project's exact-rational data.

Anchors (../shared/benchmarks/coq-perceptron/README.md): the peer's C++ GMP
perceptron, rebuilt on a 2-core machine of this kind, took 9.65 s on vec400_1
(parsing included); their published 2017 figure for vec50 is 1.28 s (another
machine: shown, not used for a goal). Side by side in this run: the exact fast
path (N1-N3 checked at every update), the exact reference (sympy statements at
every update) and the float twin on the same file, and the whole CLI process.
"""

from __future__ import annotations

import os
import subprocess
import sys

from _common import COQ, timed

GMP_VEC400_SECONDS = 9.65  # peer README, rebuilt on this machine kind
GMP_VEC50_PUBLISHED = 1.28  # peer README, their 2017 machine


def certify_process(path: str, repeat: int = 3) -> float:
    """Median wall time of ``novikoff certify PATH`` in a fresh interpreter. Python's
    bytecode cache is allowed (PYTHONDONTWRITEBYTECODE removed), as on a normal
    install; one warm-up run fills it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run() -> None:
        command = [sys.executable, "-m", "novikoff.cli", "certify", path]
        subprocess.run(command, check=True, capture_output=True, env=env)

    run()
    seconds, _ = timed(run, repeat=repeat)
    return seconds


def main(quick: bool = False) -> list[tuple[str, str, str]]:
    import scipy.optimize  # noqa: F401  (certify imports it on first use; not part of its timing)

    from novikoff.certificates import certify
    from novikoff.readers import load_dataset
    from novikoff.reference import run_perceptron
    from novikoff.twins import perceptron_twin
    from novikoff.twins.exact import exact_perceptron

    rows = []
    for name in ["vec50_1", "vec100_1", "vec200_1", "vec400_1"]:
        path = str(COQ / f"{name}.csv")
        whole = certify_process(path, repeat=1 if quick else 3)
        t_read, ds = timed(lambda path=path: load_dataset(path), repeat=1)
        t_cert, cert = timed(lambda ds=ds: certify(ds), repeat=1)
        t_fast, fast = timed(lambda ds=ds, cert=cert: exact_perceptron(ds, certificate=cert), repeat=5)
        t_bare, _ = timed(lambda ds=ds: exact_perceptron(ds), repeat=5)
        t_ref, ref = timed(
            lambda ds=ds, cert=cert: run_perceptron(ds, certificate=cert), repeat=1 if quick else 3
        )
        t_twin, twin = timed(lambda ds=ds: perceptron_twin(ds), repeat=5)
        assert fast.updates == ref.updates == twin.updates, f"{name}: runs disagree"
        assert fast.weights == ref.weights
        anchor = GMP_VEC400_SECONDS if name == "vec400_1" else None
        rows.append(
            (
                f"{name}: whole `novikoff certify` process (read, exact certificate, checker, exact run)",
                f"{whole:.2f} s",
                f"C++ GMP perceptron alone 9.65 s: {anchor / whole:.1f}x faster (goal 10x)"
                if anchor
                else (
                    f"C++ GMP published 1.28 s (2017 machine): {GMP_VEC50_PUBLISHED / whole:.1f}x"
                    if name == "vec50_1"
                    else "-"
                ),
            )
        )
        rows.append(
            (
                f"  {name}: read {ds.n_samples}x{ds.n_features} exact / certificate",
                f"{t_read:.2f} s / {t_cert:.2f} s",
                "-",
            )
        )
        rows.append(
            (
                f"  {name}: exact fast path, {fast.mistakes} updates, N1-N3 at each ({fast.arithmetic[0]})",
                f"{t_fast * 1000:.1f} ms",
                (f"C++ GMP 9.65 s: {anchor / t_fast:.0f}x faster (goal 100x); " if anchor else "")
                + f"{t_fast / t_twin:.2f}x the float twin ({t_twin * 1000:.1f} ms); "
                f"without the certificate checks {t_bare * 1000:.1f} ms",
            )
        )
        rows.append(
            (
                f"  {name}: exact reference (sympy N1-N3 at each update)",
                f"{t_ref * 1000:.0f} ms",
                f"{t_ref / t_fast:.1f}x the fast path; same updates and weights",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(" | ".join(row))
