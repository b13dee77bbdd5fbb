"""The gallery of ``novikoff diff`` findings: what diff prints for one implementation of each
kind of difference (a planted bug of the C++ example of the protocol, a Python mutant, a
difference by design left undeclared) and for real implementations nobody here wrote
(scikit-learn's ``Perceptron`` and ``SGDClassifier`` with their defaults, mlxtend's
``Perceptron`` through ``--command`` from its own environment, the C++ example), run as a
user runs it, so the page shows real output.

    nice -n 10 python benchmarks/bench_diff_gallery.py [--only NAME ...] [--write] [--venv DIR]

It builds ``examples/perceptron-cpp/perceptron.cpp`` with each ``-DBUG_*`` flag it needs
(g++ and libgmp-dev), makes the virtual environment ``--venv`` (default
``/tmp/novikoff-gallery-venv``) with ``numpy<2`` and ``mlxtend==0.23.1`` from PyPI when it is
missing (mlxtend 0.23.1's ``fit`` fails under numpy 2), and ``--river-venv`` (default
``/tmp/novikoff-gallery-river-venv``) with river (which needs numpy 2), runs ``novikoff diff`` on every entry
in this process and prints the output; ``--write`` puts the entries into
``docs/diff-gallery.md`` between its markers, and the table of real implementations
(implementation, adapter lines, verdict, CPU time per example including the worker
processes and commands) between its own (generated, never typed; not run in CI: minutes of
campaigns). Paths of this machine are written as ``./``, ``$VENV`` and ``$RIVER_VENV``. Exit 1 if an entry's
exit status is not the one it is there to show.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import resource
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import write_between  # noqa: E402
from novikoff import cli  # noqa: E402

DOC = REPO / "docs" / "diff-gallery.md"
BEGIN, END = "<!-- gallery:begin -->", "<!-- gallery:end -->"
TABLE_BEGIN, TABLE_END = "<!-- real:begin -->", "<!-- real:end -->"
SOURCE = REPO / "examples" / "perceptron-cpp" / "perceptron.cpp"
MLXTEND = REPO / "examples" / "mlxtend" / "adapter.py"
VENV = Path("/tmp/novikoff-gallery-venv")
RIVER_VENV = Path("/tmp/novikoff-gallery-river-venv")
SGD_DECLARED = ("--margin", "1", "--l2", "1/10000", "--schedule", "optimal", "--stop", "tol:1/1000:5")


@dataclass(frozen=True)
class Entry:
    """One gallery entry: ``name`` (a file name of the page), what it shows, the ``diff``
    arguments (``{bin}`` is the directory of the built C++ variants) and the exit status
    it must give."""

    name: str
    title: str
    what: str
    args: tuple[str, ...]
    status: int = 1
    implementation: str = ""  # a real implementation: its name in the table
    adapter: str = ""  # the adapter file whose lines are counted, or what stands in for one


ENTRIES = (
    Entry(
        "cpp-tie",
        "C++: no update on a tie (`-DBUG_TIE`)",
        "Every failing check, the reference's trace, and the hint that the difference may be by design.",
        ("--command", "{bin}/perceptron-tie", "--examples", "20", "--families", "float-exact near ties"),
    ),
    Entry(
        "cpp-tie-declared",
        "C++: the same, declared",
        "Declared, the tie rule is no bug: the exact reference runs the strict rule.",
        ("--command", "{bin}/perceptron-tie", "--examples", "20", "--tie-rule", "strict"),
        0,
    ),
    Entry(
        "cpp-last",
        "C++: the last sample of every epoch skipped (`-DBUG_LAST`)",
        "The trace around the first update that differs: the reference updates on the sample the "
        "implementation never presents.",
        ("--command", "{bin}/perceptron-last", "--examples", "20", "--families", "float-exact copies"),
    ),
    Entry(
        "cpp-crash",
        "C++: a null pointer on an all-zero sample (`-DBUG_CRASH`)",
        "A signal is a finding, and the crashing example is shrunk to its cause.",
        ("--command", "{bin}/perceptron-crash", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "cpp-hang",
        "C++: a call that never returns (`-DBUG_HANG`)",
        "Each hang is killed with its process group after --call-timeout; the first is the one "
        "finding, the others are counted, and each family's rest is not run.",
        (
            "--command",
            "{bin}/perceptron-hang",
            "--examples",
            "5",
            "--call-timeout",
            "1",
            "--families",
            "float-exact separable,general float",
        ),
    ),
    Entry(
        "cpp-stdout",
        "C++: a debug line on stdout (`-DBUG_STDOUT`)",
        "Output outside the protocol is a finding that names the line; it never reaches diff's own output.",
        ("--command", "{bin}/perceptron-stdout", "--examples", "5", "--families", "float-exact separable"),
    ),
    Entry(
        "py-mlxtend",
        "Python: mlxtend's rule, undeclared",
        "sign(0) = +1 and every epoch run (emulated in tests/impls/semantics.py): the hint names both.",
        ("tests.impls.semantics:mlxtend_rule", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "py-tenth",
        "Python: a learning rate of 0.1",
        "0.1 is no float64 value, so the weights are not exactly a multiple of the reference's; "
        "the hint reads the rate off the weights.",
        ("tests.impls.semantics:tenth_rate", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "py-float32",
        "Python: float32 arithmetic, undeclared",
        "Caught on the float64 integer boundary; --precision float32 declares it.",
        (
            "tests.impls.mutants:float32_accumulation",
            "--examples",
            "20",
            "--families",
            "float-exact integer boundary",
        ),
    ),
    Entry(
        "py-stale",
        "Python: margins computed once per epoch (vectorized)",
        "A bug no declared semantics explains: no hint, the trace from the start.",
        ("tests.impls.mutants:stale_margins", "--examples", "20", "--families", "float-exact separable"),
    ),
    Entry(
        "real-sgd",
        "scikit-learn: `SGDClassifier()` with its defaults, undeclared",
        "Its penalty, schedule, hinge loss, tol stop and shuffling are no textbook perceptron: the "
        "notes name the declared options for each.",
        (
            "sklearn.linear_model:SGDClassifier",
            "--sklearn",
            "",
            "--examples",
            "10",
            "--families",
            "general float",
        ),
        1,
        "scikit-learn 1.9 SGDClassifier() (textbook semantics)",
        "--sklearn (no adapter)",
    ),
    Entry(
        "real-sgd-declared",
        "scikit-learn: `SGDClassifier()` with its defaults, declared",
        "The float64 replica of its rule with the rounding bound: every family agrees.",
        (
            "sklearn.linear_model:SGDClassifier",
            "--sklearn",
            "",
            "--examples",
            "20",
            *SGD_DECLARED,
            "--order",
            "sklearn:7",
        ),
        0,
        "scikit-learn 1.9 SGDClassifier() (SGD semantics declared)",
        "--sklearn (no adapter)",
    ),
    Entry(
        "real-perceptron-declared",
        "scikit-learn: `Perceptron()` with its defaults, declared",
        "Its tol stop and its own shuffling, declared.",
        (
            "sklearn.linear_model:Perceptron",
            "--sklearn",
            "",
            "--examples",
            "20",
            "--stop",
            "tol:1/1000:5",
            "--order",
            "sklearn:7",
        ),
        0,
        "scikit-learn 1.9 Perceptron() (tol stop, its shuffling declared)",
        "--sklearn (no adapter)",
    ),
    Entry(
        "real-perceptron-textbook",
        "scikit-learn: `Perceptron(shuffle=False, tol=None)`",
        "The textbook perceptron, nothing to declare.",
        ("sklearn.linear_model:Perceptron", "--sklearn", "shuffle=False,tol=None", "--examples", "20"),
        0,
        "scikit-learn 1.9 Perceptron(shuffle=False, tol=None)",
        "--sklearn (no adapter)",
    ),
    Entry(
        "real-mlxtend",
        "mlxtend 0.23.1: `Perceptron` from its own environment, undeclared",
        "The real package through `--command` (examples/mlxtend/adapter.py, numpy 1.26): "
        "sign(0) = +1 and every epoch run, named by the hint.",
        (
            "--command",
            "{venv}/bin/python examples/mlxtend/adapter.py",
            "--examples",
            "10",
            "--families",
            "float-exact near ties",
        ),
        1,
        "mlxtend 0.23.1 Perceptron (textbook semantics)",
        "examples/mlxtend/adapter.py",
    ),
    Entry(
        "real-mlxtend-declared",
        "mlxtend 0.23.1: `Perceptron`, declared",
        "Its tie rule, all epochs and (set by the adapter) drawn initial weights, declared.",
        (
            "--command",
            "{venv}/bin/python examples/mlxtend/adapter.py",
            "--examples",
            "20",
            "--tie-rule",
            "sign-positive",
            "--stop",
            "all-epochs",
            "--initial-weights",
            "drawn",
        ),
        0,
        "mlxtend 0.23.1 Perceptron (sign(0) = +1, all epochs declared)",
        "examples/mlxtend/adapter.py",
    ),
    Entry(
        "real-river",
        "river: `linear_model.Perceptron`, online",
        "One `learn_one` per presentation from its own environment (examples/river/adapter.py): "
        "an online learner runs every epoch it is given.",
        (
            "--command",
            "{river}/bin/python examples/river/adapter.py",
            "--examples",
            "10",
            "--stop",
            "all-epochs",
        ),
        0,
        "river linear_model.Perceptron (all epochs declared)",
        "examples/river/adapter.py",
    ),
    Entry(
        "real-cpp",
        "C++: the example, correct",
        "examples/perceptron-cpp speaks the protocol itself (version 1), so it needs no adapter.",
        ("--command", "{bin}/perceptron", "--examples", "20"),
        0,
        "examples/perceptron-cpp (g++ -O2, GMP)",
        "none (speaks the protocol)",
    ),
)

_FLAGS = {
    "": "",
    "tie": "BUG_TIE",
    "last": "BUG_LAST",
    "crash": "BUG_CRASH",
    "hang": "BUG_HANG",
    "stdout": "BUG_STDOUT",
}


def build(out: Path) -> None:
    """Every C++ variant the entries name, into ``out``."""
    for suffix, flag in _FLAGS.items():
        exe = out / (f"perceptron-{suffix}" if suffix else "perceptron")
        defines = [f"-D{flag}"] if flag else []
        cmd = ["g++", "-O2", "-std=c++17", *defines, "-o", str(exe), str(SOURCE), "-lgmpxx", "-lgmp"]
        subprocess.run(cmd, check=True)


def make_venv(venv: Path, probe_code: str, packages: list[str]) -> None:
    """An environment with ``packages`` from PyPI, unless ``probe_code`` already runs in it."""
    python = venv / "bin" / "python"
    probe = [str(python), "-c", probe_code]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)


def _fill(arg: str, places: dict[str, str]) -> str:
    for key, value in places.items():
        arg = arg.replace(key, value)
    return arg


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(entry: Entry, bindir: Path, venv: Path = VENV, river: Path = RIVER_VENV) -> tuple[int, str, float]:
    """``novikoff diff`` on the entry in this process: (exit status, output, CPU seconds of
    this process and its finished children: the worker processes and the commands)."""
    places = {"{bin}": str(bindir), "{venv}": str(venv), "{river}": str(river)}
    args = [_fill(a, places) for a in entry.args]
    out = io.StringIO()
    t0 = _cpu()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["diff", *args])
    text = (
        out.getvalue()
        .replace(str(bindir), ".")
        .replace(str(venv), "$VENV")
        .replace(str(river), "$RIVER_VENV")
    )
    text = text.replace(str(REPO) + "/", "")
    return code, text, _cpu() - t0


def adapter_lines(entry: Entry) -> str:
    """The adapter's line count (nonblank lines of its file), or what stands in for one."""
    path = REPO / entry.adapter
    if entry.adapter.endswith(".py") and path.exists():
        lines = sum(1 for line in path.read_text().splitlines() if line.strip())
        return f"{lines} (`{entry.adapter}`, nonblank, docstring included)"
    return entry.adapter


def verdict(entry: Entry, code: int, text: str) -> str:
    """The entry's outcome in words: agreement, or the first bug's check and hint."""
    counts = text.splitlines()[0] if text else ""
    if code == 0:
        return "agrees: " + counts.split(":", 1)[-1].strip()
    bug = re.search(r"^\[bug\][^:]*?(check_\w+):", text, re.M)
    hint = re.search(r"^  hint: (.*)$", text, re.M)
    what = f"bug found ({bug.group(1)})" if bug else "finding"
    return what + (f"; hint: {hint.group(1)}" if hint else "")


def table(rows: list[tuple[Entry, int, str, float]]) -> str:
    """The real implementations' table (Markdown)."""
    lines = [
        "| implementation | adapter lines | verdict | CPU ms per example |",
        "|---|---|---|---|",
    ]
    for entry, code, text, cpu in rows:
        m = re.match(r"(\d+) examples", text)
        n = int(m.group(1)) if m else 0
        per = f"{1000 * cpu / n:.1f}" if n else "-"
        lines.append(
            f"| {entry.implementation} | {adapter_lines(entry)} | {verdict(entry, code, text)} | {per} |"
        )
    return "\n".join(lines) + "\n"


def section(entry: Entry, text: str) -> str:
    command = "novikoff diff " + " ".join(
        shlex.quote(_fill(a, {"{bin}": ".", "{venv}": "$VENV", "{river}": "$RIVER_VENV"})) for a in entry.args
    )
    return (
        f"## {entry.title}\n\n{entry.what}\n\n`{command}`\n\n"
        f'```text title="{entry.name}.out"\n{text.rstrip()}\n```\n'
    )


def write(body: str) -> None:
    page = DOC.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{BEGIN}\n\n{body}\n{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="NAME", help="these entries only")
    parser.add_argument(
        "--write", action="store_true", help=f"write the entries into {DOC.relative_to(REPO)}"
    )
    parser.add_argument(
        "--venv", type=Path, default=VENV, help="the environment of mlxtend (made if missing)"
    )
    parser.add_argument(
        "--river-venv", type=Path, default=RIVER_VENV, help="the environment of river (made if missing)"
    )
    args = parser.parse_args(argv)
    chosen = [e for e in ENTRIES if not args.only or e.name in args.only]
    if any("{venv}" in " ".join(e.args) for e in chosen):
        probe = "import mlxtend.classifier, numpy; assert numpy.__version__ < '2'"
        make_venv(args.venv, probe, ["numpy<2", "mlxtend==0.23.1"])
    if any("{river}" in " ".join(e.args) for e in chosen):
        make_venv(args.river_venv, "import river.linear_model", ["river"])
    sections, ok, rows = [], True, []
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        for entry in chosen:
            code, text, cpu = run(entry, Path(tmp), args.venv, args.river_venv)
            ok = ok and code == entry.status
            print(f"{entry.name:26s} exit {code} (expected {entry.status}) {cpu:.1f} s CPU", flush=True)
            sections.append(section(entry, text))
            if entry.implementation:
                rows.append((entry, code, text, cpu))
    body = "\n".join(sections)
    print(body)
    print(table(rows))
    if args.write:
        if args.only:
            raise SystemExit("--write needs every entry (no --only)")
        write(body)
        write_between(DOC, TABLE_BEGIN, TABLE_END, table(rows))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
