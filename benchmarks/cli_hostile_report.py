"""The docs' numbers for issue 13 (hostile and extreme input), measured, never typed.

1. Runs the CLI fuzz suite (tests/commands/test_cli_fuzz.py) with ``--examples N`` inputs per test
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

from _common import REPO, write_between

ADDRESS_SPACE = 3 << 30  # as tests/commands/test_cli_fuzz.py sets it for every call
PEAK_KB = 1536 * 1024
BEGIN, END = "<!-- cli-hostile:begin -->", "<!-- cli-hostile:end -->"
COMMANDS = [
    "certify",
    "run",
    "margins",
    "check",
    "replay",
    "falsify",
    "diff",
    "verify",
    "textbook-tables",
    "(other)",
]
MEANING = {0: "ok", 1: "check/bound failed", 2: "bad input or usage"}


class Fuzzed:
    """What the fuzz suite's log says: calls by (subcommand, exit), each subcommand's largest
    peak resident memory (KiB) and longest call (s), the wall time and whether it passed."""

    def __init__(self) -> None:
        self.counts: collections.Counter[tuple[str, int]] = collections.Counter()
        self.peak_kb: dict[str, int] = {}
        self.longest: dict[str, float] = {}
        self.seconds = 0.0
        self.passed = False


def fuzz(examples: int) -> Fuzzed:
    found = Fuzzed()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "calls.jsonl"
        env = {**os.environ, "NOVIKOFF_FUZZ_LOG": str(log), "NOVIKOFF_FUZZ_EXAMPLES": str(examples)}
        t0 = time.perf_counter()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests/commands/test_cli_fuzz.py",
            ],
            cwd=REPO,
            env=env,
        )
        found.seconds = time.perf_counter() - t0
        found.passed = result.returncode == 0
        for line in log.read_text().splitlines() if log.exists() else []:
            call = json.loads(line)
            command = call["command"]
            found.counts[(command, call["exit"])] += 1
            found.peak_kb[command] = max(found.peak_kb.get(command, 0), int(call.get("peak_kb", 0)))
            found.longest[command] = max(found.longest.get(command, 0.0), float(call.get("seconds", 0.0)))
    return found


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


def render(found: Fuzzed, examples: int, mem: list[tuple[int, int, int, int]]) -> str:
    counts = found.counts
    total = sum(counts.values())
    lines = [
        f"Measured by `python benchmarks/cli_hostile_report.py --examples {examples}` "
        f"(Python {platform.python_version()}, {os.cpu_count()} cores): {total} command-line calls "
        f"in {found.seconds:.0f} s, suite {'passed' if found.passed else 'FAILED'}. Every call runs "
        f"under an address-space limit of {ADDRESS_SPACE >> 30} GiB and a CPU limit; peak memory is "
        "the call's own resident peak (ru_maxrss).",
        "",
        "| subcommand | calls | exit 0 (ok) | exit 1 (check/bound failed) | exit 2 (bad input or usage) "
        "| peak memory (largest call) | longest call |",
        "|---|---|---|---|---|---|---|",
    ]
    for command in COMMANDS:
        row = [counts.get((command, code), 0) for code in (0, 1, 2)]
        if sum(row):
            lines.append(
                f"| {command} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} "
                f"| {found.peak_kb.get(command, 0) / 1024:.0f} MiB "
                f"| {found.longest.get(command, 0.0):.1f} s |"
            )
    other = {k: v for k, v in counts.items() if k[1] not in MEANING}
    col = [sum(counts.get((c, code), 0) for c in COMMANDS) for code in (0, 1, 2)]
    top = max(found.peak_kb.values(), default=0)
    lines.append(
        f"| **all** | **{total}** | **{col[0]}** | **{col[1]}** | **{col[2]}** | **{top / 1024:.0f} MiB** "
        f"| **{max(found.longest.values(), default=0.0):.1f} s** |"
    )
    lines.append("")
    lines.append(
        "Other exit statuses, tracebacks, hangs, non-standard JSON, processes left running, calls over "
        f"the memory cap ({PEAK_KB // 1024} MiB): "
        f"{sum(other.values()) if found.passed else 'see the failing test'} (the suite asserts none)."
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
    found = fuzz(args.examples)
    block = render(found, args.examples, memory())
    print(block)
    if not args.dry_run:
        write_between(REPO / "docs" / "reference" / "contract.md", BEGIN, END, block)
    return 0 if found.passed else 1


if __name__ == "__main__":
    sys.exit(main())
