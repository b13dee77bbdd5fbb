"""``novikoff certify DATA --executor dask://...`` against ``novikoff certify FILE`` on this machine.

Generated data (``bench_certify_scaling.planted``): m integer rows in [-100, 100]^d with a planted
margin (``--noise`` flips that share of the labels), bias 1, written as ``--shards`` CSV files
of nearly equal length (the samples in order) and, beside them, their concatenation. Each row of
the table times whole processes: ``novikoff certify ALL.csv --json --certificate`` (the single
machine), then ``novikoff certify DIR --executor dask://... --json --certificate`` on a Dask
LocalCluster of 1 and of 2 worker processes (one thread each, loopback only), started and
warmed up (one small command: the workers' imports and version check) before the command and
kept out of its time. Wall is the command's wall time; CPU adds the command's
own (user + system, from ``os.wait4``), the workers' (``time.process_time`` in each, before and
after) and the scheduler's (it runs in this process, otherwise idle); memory is the peak
resident set of the command's process (on a cluster, the driver's) and of the largest worker.
The certificate files of all three are compared byte for byte (``identical``).

On a 2-core machine shared with other work, 2 workers and the driver compete for the same two
cores: the figures show what sharding costs and gains here, not a cluster's speed-up.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_certify_scaling import planted, write_csv

_COMMAND = [sys.executable, "-m", "novikoff.cli", "certify"]


def _process(args: list[str]) -> tuple[float, float, float, float]:
    """``(wall, CPU, peak MiB, 0)`` of one command (CPU: user + system of it and its children;
    the peak resident memory of the command's process, its ``VmHWM`` read until it ends: the
    ``ru_maxrss`` of a child counts the parent's memory at the fork)."""
    start = time.perf_counter()
    proc = subprocess.Popen([*_COMMAND, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    while True:
        peak = max(peak, _high_water(proc.pid))
        found, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if found:
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, peak, 0.0


def _high_water(pid: int) -> float:
    """The process's peak resident memory so far, MiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _worker_cpu() -> tuple[float, float]:
    return time.process_time(), _high_water(os.getpid())


def _on_cluster(workers: int, args: list[str], warm_up: Path) -> tuple[float, float, float, float]:
    """``(wall, CPU, the driver's peak MiB, the largest worker's peak MiB)`` of the command on
    a fresh LocalCluster of ``workers`` processes, after one untimed command on the small
    shards ``warm_up`` (the workers' imports and version check: a long-lived cluster's). A
    tree edited meanwhile (the workers' version check then refuses the command) gets a
    fresh cluster, up to three times."""
    for attempt in range(3):
        try:
            return _on_fresh_cluster(workers, args, warm_up)
        except RuntimeError as exc:
            if "workers run another novikoff" not in str(exc) or attempt == 2:
                raise
    raise AssertionError("unreachable")


def _on_fresh_cluster(workers: int, args: list[str], warm_up: Path) -> tuple[float, float, float, float]:
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster.scheduler_address, set_as_default=False) as client,
    ):
        address = "dask://" + str(cluster.scheduler_address).removeprefix("tcp://")
        _process([str(warm_up), "--executor", address])
        before = sum(cpu for cpu, _ in client.run(_worker_cpu).values())
        here = time.process_time()
        wall, cpu, peak, _ = _process([*args, "--executor", address])
        cpu += time.process_time() - here
        after = client.run(_worker_cpu).values()
        cpu += sum(c for c, _ in after) - before
    return wall, cpu, peak, max(m for _, m in after)


def measure(m: int, d: int, shards: int, noise: float, workers: list[int], folder: Path) -> dict[str, Any]:
    """One table row: the data written, the local run and each cluster's."""
    X, y = planted(m, d, seed=1, noise=noise)
    data = folder / f"m{m}"
    data.mkdir()
    bounds = [round(k * m / shards) for k in range(shards + 1)]
    for k in range(shards):
        write_csv(data / f"part-{k:03d}.csv", X[bounds[k] : bounds[k + 1]], y[bounds[k] : bounds[k + 1]])
    whole = folder / f"m{m}.csv"
    write_csv(whole, X, y)
    small = folder / "warm-up"
    small.mkdir()
    for k in range(workers[-1]):
        write_csv(small / f"part-{k}.csv", X[100 * k : 100 * k + 100], y[100 * k : 100 * k + 100])
    del X, y
    row: dict[str, Any] = {"m": m}
    row["local"] = _process([str(whole), "--json", "--certificate", str(folder / "local.json")])
    reference = (folder / "local.json").read_bytes()
    same = True
    for w in workers:
        row[f"w{w}"] = _on_cluster(
            w, [str(data), "--json", "--certificate", str(folder / f"dask{w}.json")], small
        )
        same = same and (folder / f"dask{w}.json").read_bytes() == reference
    row["identical"] = same
    return row


def table(rows: list[dict[str, Any]], workers: list[int]) -> str:
    """Markdown: per size, wall / CPU seconds and peak memory of each way (the local process's;
    on a cluster the driver's, and the largest worker's)."""
    head = ["m", "one machine", *(f"{w} worker{'s' if w > 1 else ''}" for w in workers)]
    lines = ["| " + " | ".join([*head, "certificate identical"]) + " |", "|" + " --- |" * (len(head) + 1)]
    for r in rows:
        cells = [f"{r['m']:,}", _cell(r["local"], False), *(_cell(r[f"w{w}"], True) for w in workers)]
        lines.append("| " + " | ".join([*cells, "yes" if r["identical"] else "NO"]) + " |")
    return "\n".join(lines)


def _cell(t: tuple[float, float, float, float], cluster: bool) -> str:
    wall, cpu, peak, worker = t
    memory = f"driver {peak:.0f}, worker {worker:.0f} MiB" if cluster else f"{peak:.0f} MiB"
    return f"{wall:.1f} s wall, {cpu:.1f} s CPU; {memory}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000", help="comma-separated m (default 1e5,1e6)")
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--noise", type=float, default=0.0, help="share of flipped labels (default 0)")
    parser.add_argument("--workers", default="1,2", help="cluster sizes (default 1,2)")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    rows = []
    for m in (int(float(v)) for v in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="bench_certify_sharded_") as tmp:
            rows.append(measure(m, args.d, args.shards, args.noise, workers, Path(tmp)))
        print(table(rows[-1:], workers), flush=True)
    load = os.getloadavg()
    print(
        f"\nd = {args.d}, {args.shards} shards, noise {args.noise}; load average {load[0]:.1f} {load[1]:.1f}"
    )
    print(table(rows, workers))


if __name__ == "__main__":
    main()
