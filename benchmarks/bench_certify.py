"""Whole-process ``novikoff certify`` on the peer project's exact-rational data.

Anchor: the peer project's C++ GMP perceptron took 9.65 s on vec400_1.csv on a
2-core machine of this kind (its README; perceptron alone, parsing included).
Side by side in this run: the float twin on the same file (ratio exact/float).
"""

from __future__ import annotations

import subprocess
import sys

from _common import COQ, timed

GMP_VEC400_SECONDS = 9.65  # peer README, rebuilt on this machine kind


def certify_process(path: str) -> float:
    def run() -> None:
        subprocess.run(
            [sys.executable, "-m", "novikoff.cli", "certify", path], check=True, capture_output=True
        )

    seconds, _ = timed(run, repeat=5)
    return seconds


def main() -> list[tuple[str, str, str]]:
    from novikoff.certify import certify
    from novikoff.readers import load_dataset
    from novikoff.reference import run_perceptron
    from novikoff.twins import perceptron_twin

    rows = []
    for name in ["vec50_1", "vec100_1", "vec200_1", "vec400_1"]:
        path = str(COQ / f"{name}.csv")
        whole = certify_process(path)
        ds = load_dataset(path)
        t_cert, cert = timed(lambda ds=ds: certify(ds), repeat=1)
        t_exact, run = timed(lambda ds=ds, cert=cert: run_perceptron(ds, certificate=cert), repeat=3)
        t_twin, twin = timed(lambda ds=ds: perceptron_twin(ds), repeat=3)
        assert twin.updates == run.updates, f"{name}: twin and reference disagree"
        rows.append(
            (
                f"certify {name} (whole process)",
                f"{whole:.2f} s",
                f"{GMP_VEC400_SECONDS / whole:.1f}x faster than C++ GMP on vec400 (9.65 s)"
                if name == "vec400_1"
                else "-",
            )
        )
        rows.append((f"  exact certificate {name}", f"{t_cert:.2f} s", "-"))
        rows.append(
            (
                f"  exact perceptron {name} ({run.mistakes} updates, N1-N3 checked)",
                f"{t_exact:.3f} s",
                f"{t_exact / t_twin:.0f}x the float twin ({t_twin * 1000:.0f} ms), same updates",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main():
        print(" | ".join(row))
