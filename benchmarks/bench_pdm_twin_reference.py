"""PDM twin against the exact reference on the same problems (one process, side by side).

Problems: the coq-perceptron vectors (vec50..vec400, bias 1) and sonar with the
soft-margin extension (Delta = 1). PDM(eps) with single updates, natural order,
no active sets, so both make the same decisions (checked: identical update
sequences are asserted where the data are float-exact, and the counts are
printed). Reported: updates, reference seconds, twin seconds, ratio. Then the
twin with multiple updates and active sets (its default for speed) for scale.

Usage: ``python benchmarks/bench_pdm_twin_reference.py [--eps 1/10]``.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from _common import COQ
from offline_data import load

from novikoff.data.readers import load_dataset
from novikoff.data.transforms import soft_margin
from novikoff.reference.large_margin import run_pdm
from novikoff.twins.large_margin import pdm_twin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eps", default="1/10")
    args = parser.parse_args()
    eps = Fraction(args.eps)
    problems = [(f"vec{n}_1", load_dataset(COQ / f"vec{n}_1.csv")) for n in (50, 100, 200, 400)]
    problems.append(("sonar + soft margin 1", soft_margin(load("sonar"), 1)))
    print(f"PDM(eps = {eps}), single updates, natural order")
    print(
        "| problem | updates (ref / twin) | same sequence | reference s | twin s | ratio "
        "| twin fast s (multi + active) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, ds in problems:
        t0 = time.perf_counter()
        ref = run_pdm(ds, eps, max_epochs=100_000, engine="plain")  # the definition, as documented
        t_ref = time.perf_counter() - t0
        t0 = time.perf_counter()
        twin = pdm_twin(ds, eps=eps, max_epochs=100_000)
        t_twin = time.perf_counter() - t0
        t0 = time.perf_counter()
        pdm_twin(ds, eps=eps, max_epochs=100_000, multiple_updates=True, active_sets=True)
        t_fast = time.perf_counter() - t0
        same = twin.updates == ref.updates
        print(
            f"| {name} | {ref.mistakes} / {twin.mistakes} | {same} | {t_ref:.2f} | {t_twin:.2f} "
            f"| {t_ref / t_twin:.1f}x | {t_fast:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
