"""The docs' numbers for issue 13 (hostile and extreme input), measured, never typed.

1. Runs the CLI fuzz suite (tests/test_cli_fuzz.py) with ``--examples N`` inputs per test
   function (the longer profile) and counts the calls by subcommand and exit status.
2. Measures peak memory (ru_maxrss) and JSON output size of a never-converging
   ``certify`` at two ``--max-updates`` bounds, and derives bytes per kept update.
3. Rewrites the block between ``<!-- cli-hostile:begin -->`` and ``<!-- cli-hostile:end -->``
   in docs/reference/contract.md (``--dry-run`` prints it instead).

    python benchmarks/cli_hostile_report.py --examples 60
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- cli-hostile:begin -->", "<!-- cli-hostile:end -->"
COMMANDS = ["certify", "run", "margins", "falsify", "diff", "verify", "seed-tables", "(other)"]
MEANING = {0: "ok", 1: "check/bound failed", 2: "bad input or usage"}


def fuzz(examples: int) -> tuple[collections.Counter[tuple[str, int]], float, bool]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "calls.jsonl"
        env = {**os.environ, "NOVIKOFF_FUZZ_LOG": str(log), "NOVIKOFF_FUZZ_EXAMPLES": str(examples)}
        t0 = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_cli_fuzz.py"],
            cwd=REPO,
            env=env,
        )
        seconds = time.perf_counter() - t0
        counts: collections.Counter[tuple[str, int]] = collections.Counter()
        for line in log.read_text().splitlines() if log.exists() else []:
            call = json.loads(line)
            counts[(call["command"], call["exit"])] += 1
    return counts, seconds, result.returncode == 0


def peak(args: list[str]) -> tuple[int, int]:
    """(peak resident KB, stdout bytes) of one CLI call."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "novikoff.cli", *args], stdout=out, cwd=REPO)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0, os.SEEK_END)
        return int(usage.ru_maxrss), out.tell()


def memory() -> list[tuple[int, int, int, int]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        xor = Path(tmp) / "xor.csv"
        xor.write_text("1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
        for bound in (10**3, 10**6, 4 * 10**6):
            kb, size = peak(
                ["certify", str(xor), "--max-epochs", "1000000000", "--max-updates", str(bound), "--json"]
            )
            rows.append((bound, kb, size, 0))
    return rows


def render(
    counts: collections.Counter[tuple[str, int]],
    seconds: float,
    passed: bool,
    examples: int,
    mem: list[tuple[int, int, int, int]],
) -> str:
    total = sum(counts.values())
    lines = [
        BEGIN,
        f"Measured by `python benchmarks/cli_hostile_report.py --examples {examples}` "
        f"(Python {platform.python_version()}, {os.cpu_count()} cores): {total} command-line calls "
        f"in {seconds:.0f} s, suite {'passed' if passed else 'FAILED'}.",
        "",
        "| subcommand | calls | exit 0 (ok) | exit 1 (check/bound failed) | exit 2 (bad input or usage) |",
        "|---|---|---|---|---|",
    ]
    for command in COMMANDS:
        row = [counts.get((command, code), 0) for code in (0, 1, 2)]
        if sum(row):
            lines.append(f"| {command} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} |")
    other = {k: v for k, v in counts.items() if k[1] not in MEANING}
    col = [sum(counts.get((c, code), 0) for c in COMMANDS) for code in (0, 1, 2)]
    lines.append(f"| **all** | **{total}** | **{col[0]}** | **{col[1]}** | **{col[2]}** |")
    lines.append("")
    lines.append(
        f"Other exit statuses, tracebacks, hangs, non-standard JSON, processes left running: "
        f"{sum(other.values()) if passed else 'see the failing test'} (the suite asserts none)."
    )
    lines += [
        "",
        "Memory and output of `certify xor.csv --max-epochs 1000000000 --json` (never converges; the "
        "bound that stops it is `--max-updates`):",
        "",
        "| --max-updates | peak memory | JSON output |",
        "|---|---|---|",
    ]
    for bound, kb, size, _ in mem:
        lines.append(f"| {bound:,} | {kb / 1024:.0f} MiB | {size:,} bytes |")
    (b1, k1, _, _), (b2, k2, _, _) = mem[1], mem[2]
    per = (k2 - k1) * 1024 / (b2 - b1)
    lines += [
        "",
        f"So memory is about {mem[0][1] / 1024:.0f} MiB (interpreter, numpy, sympy, flint) plus the exact "
        f"data plus {per:.0f} bytes per kept update, at most `max(--max-updates, m)` updates; the JSON "
        "holds at most 2 x `--record` updates whatever the run's length.",
        END,
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=60, help="fuzz inputs per test function")
    parser.add_argument("--dry-run", action="store_true", help="print the block, do not touch the docs page")
    args = parser.parse_args()
    counts, seconds, passed = fuzz(args.examples)
    block = render(counts, seconds, passed, args.examples, memory())
    if args.dry_run:
        print(block)
        return 0 if passed else 1
    readme = REPO / "docs" / "reference" / "contract.md"
    text = readme.read_text()
    head, sep, rest = text.partition(BEGIN)
    if not sep:
        print(f"{readme} has no {BEGIN} marker", file=sys.stderr)
        return 2
    _, sep, tail = rest.partition(END)
    readme.write_text(head + block + tail)
    print(block)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
