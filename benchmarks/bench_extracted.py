"""The perceptron extracted from Coq beside the peer's C++ GMP perceptron and the Python
exact fast path, on the peer project's exact-rational data (``vec*`` files, Iris, Sonar).

The anchor: the verified perceptron of Murphy, Gray and Stewart ("Verified perceptron
convergence theorem", MAPL 2017) extracted its Coq perceptron to Haskell and met or beat
their arbitrary-precision C++ perceptron. Here the program extracted from
``novikoff/coq/extraction/ZPerceptron.v`` (OCaml, Zarith) runs beside that C++ program
(``Benchmarks/cpp/perceptron.cpp`` of their public source, built with
``g++ -std=c++11 -O2 perceptron.cpp -o perceptron -lgmp``; give it with ``--peer PATH``,
default ``/tmp/peer/perceptron``) and beside ``novikoff.twins.exact.exact_perceptron``.

Measured: CPU seconds (user + system, from ``os.wait4`` for the two processes, both of
which parse their own input; ``time.process_time`` for the Python run, reading excluded),
the least of ``--repeat`` runs; the three runs' weights are checked equal (the peer puts
the bias coordinate first). Run: ``python benchmarks/bench_extracted.py [--write]``;
``--write`` puts the table into ``docs/verified-reference.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from _common import COQ, REPO, write_between
from bench_certify_scaling import best_of

DOC = REPO / "docs" / "verified-reference.md"
START, END = "<!-- bench_extracted:start -->", "<!-- bench_extracted:end -->"
FILES = ["iris_setosa", "vec50_1", "vec100_1", "vec200_1", "vec400_1", "rocks_and_mines"]


def peer_input(ds: object, path: Path) -> None:
    """The peer's format: m, d, then per sample its label in {0, 1} and one feature a line."""
    from novikoff.data.dataset import Dataset

    assert isinstance(ds, Dataset)
    lines = [str(ds.n_samples), str(ds.n_features)]
    for i in range(ds.n_samples):
        lines.append(str((ds.labels[i] + 1) // 2))
        lines.extend(str(Fraction(v, ds.denominator)).replace("/", "%") for v in ds.numerators[i])
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", default="/tmp/peer/perceptron")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--files", default=",".join(FILES))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    from novikoff.data.readers import read_csv
    from novikoff.extracted.build import build
    from novikoff.extracted.runner import format_request, parse_answer
    from novikoff.twins.exact import exact_perceptron

    binary = build().binary
    peer = Path(args.peer) if Path(args.peer).exists() else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.files.split(","):
            ds = read_csv(COQ / f"{name}.csv")
            req, dat = Path(tmp) / f"{name}.req", Path(tmp) / f"{name}.dat"
            req.write_text(format_request(ds, max_epochs=1_000_000))
            peer_input(ds, dat)
            mine = best_of([str(binary)], args.repeat, req, args.timeout)
            assert mine is not None, f"{name}: the extracted program failed"
            # max_epochs 0: the driver parses, forms the integer patterns and prints w_0
            idle = Path(tmp) / f"{name}.idle"
            idle.write_text(req.read_text().replace("max_epochs 1000000", "max_epochs 0", 1))
            parse = best_of([str(binary)], args.repeat, idle, args.timeout)
            assert parse is not None, f"{name}: the extracted program failed on max_epochs 0"
            run = parse_answer(mine.stdout, ds.n_features, True)
            py_cpu = []
            for _ in range(args.repeat):
                t0 = time.process_time()
                fast = exact_perceptron(ds, max_epochs=1_000_000)
                py_cpu.append(time.process_time() - t0)
            assert tuple(fast.weights) == run.weights and fast.update_indices == list(run.update_indices), (
                name
            )
            theirs = best_of([str(peer)], args.repeat, dat, args.timeout) if peer else None
            if theirs is not None:
                w = [
                    Fraction(int(n), int(d))
                    for n, d in (ln.split("%") for ln in theirs.stdout.splitlines() if "%" in ln)
                ]
                assert w == [run.weights[-1], *run.weights[:-1]], f"{name}: the peer's weights differ"
            rows.append(
                (
                    name,
                    ds.n_samples,
                    ds.n_features,
                    run.mistakes,
                    run.epochs,
                    mine.cpu,
                    parse.cpu,
                    theirs,
                    min(py_cpu),
                )
            )
            print(rows[-1][:6], theirs.cpu if theirs else None, min(py_cpu), file=sys.stderr)
    load = os.getloadavg()
    out = [
        "| data | m x d | updates | epochs | extracted CPU s (parsing CPU s) | C++ GMP CPU s "
        "| Python exact CPU s | C++ / extracted | extracted / Python |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, m, d, k, e, cpu, parse_cpu, theirs, py in rows:
        if theirs:
            peer_s = f"{theirs.cpu:.3f}"
        else:
            peer_s = f"did not finish in {args.timeout:g} s" if peer else "not built"
        ratio = f"**{theirs.cpu / cpu:.1f}x**" if theirs else "-"
        slower = f"{cpu / py:.1f}x" if py > 0 else "-"
        out.append(
            f"| {name} | {m} x {d} | {k} | {e} | {cpu:.3f} ({parse_cpu:.3f}) | {peer_s} | {py:.4f} "
            f"| {ratio} | {slower} |"
        )
    out.append("")
    out.append(
        f"Least CPU of {args.repeat} runs each; the two programs parse their own input (in parentheses: "
        "the extracted program's process with max_epochs 0, i.e. parsing and printing alone); the Python "
        "column is the run alone, reading excluded. Load average during the run: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores. Regenerate: "
        "`python benchmarks/bench_extracted.py --write`."
    )
    text = "\n".join(out) + "\n"
    print(text)
    if args.write:
        write_between(DOC, START, END, text)


if __name__ == "__main__":
    main()
