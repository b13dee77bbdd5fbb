"""Decide the corpus of proposed bounds (tests/prove/test_prove_corpus.py) with ``prove_bound`` and
write the table of verdicts and CPU times into docs/howto/prove.md.

CPU time (this process and its coqc children), not wall time; the machine load is printed with
the table. Run: ``python benchmarks/prove_corpus.py``.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO, write_between

from novikoff.errors import InputError
from novikoff.prove import prove_bound

DOC = REPO / "docs" / "howto" / "prove.md"


def _corpus() -> list[Any]:
    """The corpus of the test (its expected verdicts decided by hand there)."""
    path = REPO / "tests" / "prove" / "test_prove_corpus.py"
    spec = importlib.util.spec_from_file_location("prove_corpus_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return list(module.CORPUS)


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> int:
    corpus = _corpus()
    rows: list[str] = []
    times: dict[str, list[float]] = {"proved": [], "refuted": [], "open": []}
    wrong = 0
    from fractions import Fraction

    t0 = _cpu()  # the Coq development is compiled once per process: timed apart
    prove_bound("R2/gamma2")
    prove_bound("9*R2**2/gamma2**2", "pdm", epsilons=[Fraction(1, 4)])  # SmallEps.v and its dependencies
    prove_bound("R2/gamma2", "romma")  # RommaRun.v, RommaBridge.v
    build = _cpu() - t0
    refused = []
    for e in corpus:
        if e.expected == "refused":
            try:
                prove_bound(e.text, e.algorithm, nonseparable=e.nonseparable)
            except InputError as exc:
                refused.append(f"| `{e.text}` | {e.algorithm}{' --nonseparable' * e.nonseparable} | {exc} |")
            else:
                wrong += 1
            continue
        t0 = _cpu()
        v = prove_bound(e.text, e.algorithm, epsilons=e.epsilons, examples=40)
        seconds = _cpu() - t0
        times[v.verdict].append(seconds)
        ok = v.verdict == e.expected
        wrong += not ok
        eps = "" if e.epsilons is None else " eps " + ",".join(str(x) for x in e.epsilons)
        coq = (
            {True: "accepted", False: "rejected", None: "-"}[v.coq_checked] if v.verdict == "proved" else "-"
        )
        rows.append(
            f"| `{e.text}` | {e.algorithm}{eps} | {e.expected} | {v.verdict}{'' if ok else ' (WRONG)'} "
            f"| {coq} | {seconds:.2f} |"
        )
    counts = ", ".join(f"{len(t)} {k}" for k, t in times.items())
    per = "; ".join(
        f"{k}: median {statistics.median(t):.2f} s, max {max(t):.2f} s" for k, t in times.items() if t
    )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    text = (
        f"{len(corpus)} bounds: {counts}, {len(refused)} refused (exit 2); {wrong} wrong verdicts. "
        f"CPU time per verdict: {per}; "
        f"compiling the Coq development once per process took {build:.1f} s more "
        f"(load average {load} on {os.cpu_count()} cores while it ran).\n\n"
        "| bound | algorithm | expected | verdict | Coq | CPU s |\n|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n\nRefused, with the message (exit 2):\n\n| bound | algorithm | message |\n|---|---|---|\n"
        + "\n".join(refused)
        + "\n"
    )
    write_between(DOC, "<!-- prove-corpus:start -->", "<!-- prove-corpus:end -->", text)
    print(text)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
