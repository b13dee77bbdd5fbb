"""The documentation is executed, its links resolve, and the site builds.

Conventions (written for authors in docs/contributing.md):

- a ```` ```python ```` block runs: blocks of one page share one namespace, in page order;
  a block with ``>>>`` prompts runs as a doctest (its shown output is compared);
- a ```` ```console ```` block holds ``$ command`` lines, each followed by its expected output
  (stdout and stderr together); the commands of one page run in order in one fresh temporary
  directory, through ``bash``. In the expected output a line that is exactly ``...`` matches
  any number of lines, and ``...`` inside a line matches any text (timings);
- a block with a ``title="NAME"`` (```` ```csv title="bad.csv" ````) is a file: it is written
  into the page's directory before the page's commands run, and shown to the reader as is;
- any other block, or one that cannot run offline or within seconds, is preceded by
  ``<!-- skip: reason -->``; :data:`MAX_SKIPPED` caps how many there are.
"""

from __future__ import annotations

import contextlib
import doctest
import functools
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_SKIPPED = 12
README_LIMIT = 12 * 1024
COMMAND_TIMEOUT = 180  # seconds of wall time for one command, generous for a loaded machine

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)$")
SKIP = re.compile(r"<!--\s*skip:\s*(?P<reason>.+?)\s*-->\s*$")
TITLE = re.compile(r'title="(?P<name>[^"]+)"')


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it is, its info string, its text, the skip reason if any."""

    path: Path
    line: int
    lang: str
    info: str
    text: str
    skip: str | None

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def title(self) -> str | None:
        match = TITLE.search(self.info)
        return match.group("name") if match else None


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of one Markdown file (indented fences included, dedented)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match.group("indent"), match.group("fence"), match.group("info").strip()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            line = lines[i]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            i += 1
        if i == len(lines):
            raise AssertionError(f"{path}:{start + 1}: unclosed code fence")
        previous = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        skip = SKIP.search(previous)
        lang = info.split()[0].lstrip("{.").rstrip("}") if info else ""
        found.append(
            Block(path, start + 1, lang, info, "\n".join(body) + "\n", skip.group("reason") if skip else None)
        )
        i += 1
    return found


def pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --------------------------------------------------------------------------- console blocks


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of a console block, each with its expected output lines."""
    out: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif not out:
            raise AssertionError(f"{block.where}: a console block starts with '$ command', got {line!r}")
        else:
            out[-1][1].append(line)
    return out


def _line_matches(pattern: str, line: str) -> bool:
    if "..." not in pattern:
        return pattern == line
    regex = ".*".join(re.escape(part) for part in pattern.split("..."))
    return re.fullmatch(regex, line) is not None


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` against ``expected``: a line ``...`` matches any lines, ``...`` in a line any text."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(output_matches(rest, actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and _line_matches(head, actual[0]) and output_matches(rest, actual[1:])


def _env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(workdir), str(ROOT)])
    env["COLUMNS"] = "100"
    env.pop("NOVIKOFF_DATABASE", None)
    env.pop("NOVIKOFF_TRACEBACK", None)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    return env


#: Commands run in this process through ``novikoff.cli.main`` (a process start costs 1.5-2 s of
#: imports each). ``diff`` and ``falsify`` always get a process of their own: they read the
#: Hypothesis settings of the session they run in, and this one is pytest's.
IN_PROCESS = frozenset({"certify", "check", "run", "margins", "textbook-tables", "replay", "verify"})
SHELL_SYNTAX = re.compile(r"[|;&<>$`(){}*?~\\\n]")


def in_process_argv(command: str) -> list[str] | None:
    """The arguments of ``command`` when it is a plain ``novikoff`` call that can run in this
    process (no shell syntax, no environment assignment); None when bash must run it."""
    if SHELL_SYNTAX.search(command):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) < 2 or words[0] != "novikoff" or words[1] not in IN_PROCESS:
        return None
    return words[1:]


def _run_in_process(argv: list[str], workdir: Path) -> tuple[int, str]:
    """``novikoff ARGV`` in ``workdir`` as the console script runs it, stdout and stderr together."""
    from novikoff.cli import main

    out = io.StringIO()
    cwd, columns = os.getcwd(), os.environ.get("COLUMNS")
    os.chdir(workdir)
    os.environ["COLUMNS"] = "100"
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: --help, --version, usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(cwd)
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns
    return code, out.getvalue()


def _run_in_bash(command: str, workdir: Path) -> tuple[int, str]:
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=workdir,
        env=_env(workdir),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    return done.returncode, done.stdout


def run_console(block: Block, workdir: Path) -> None:
    for command, expected in commands(block):
        argv = in_process_argv(command)
        code, stdout = _run_in_process(argv, workdir) if argv is not None else _run_in_bash(command, workdir)
        done = subprocess.CompletedProcess(command, code, stdout)
        actual = done.stdout.rstrip("\n").splitlines() if done.stdout.strip() else []
        expected = [e.rstrip() for e in expected]
        actual = [a.rstrip() for a in actual]
        assert output_matches(expected, actual), (
            f"{block.where}: `$ {command}` printed (exit {done.returncode}):\n"
            + "\n".join(actual)
            + "\n--- the page shows:\n"
            + "\n".join(expected)
        )


# --------------------------------------------------------------------------- python blocks


def run_python(block: Block, namespace: dict[str, object], workdir: Path) -> None:
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        if re.search(r"^>>> ", block.text, re.MULTILINE):
            test = doctest.DocTestParser().get_doctest(block.text, namespace, block.where, str(block.path), 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            messages: list[str] = []
            runner.run(test, out=messages.append, clear_globs=False)
            namespace.update(test.globs)  # DocTest ran on a copy; later blocks see its names
            assert runner.failures == 0, f"{block.where}: doctest failed\n" + "".join(messages)
        else:
            code = compile(block.text, block.where, "exec")
            exec(code, namespace)
    finally:
        os.chdir(cwd)


def run_page(path: Path) -> None:
    """Write the page's file blocks, then run its python and console blocks in order."""
    page_blocks = [b for b in blocks(path) if b.skip is None]
    workdir = Path(tempfile.mkdtemp(prefix="novikoff-docs-"))
    try:
        for block in page_blocks:
            if block.title is not None:
                (workdir / block.title).write_text(block.text, encoding="utf-8")
        namespace: dict[str, object] = {"__name__": f"docs_{path.stem}"}
        for block in page_blocks:
            if block.title is not None:
                continue
            if block.lang == "python":
                run_python(block, namespace, workdir)
            elif block.lang == "console":
                run_console(block, workdir)
            else:
                raise AssertionError(
                    f"{block.where}: a ```{block.lang} block is neither run nor a file; "
                    'give it a title="NAME" or a <!-- skip: reason --> line before it'
                )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def runnable_pages() -> list[Path]:
    return [p for p in pages() if any(b.skip is None for b in blocks(p))]


@pytest.mark.parametrize("path", runnable_pages(), ids=page_id)
def test_code_blocks_run(path: Path) -> None:
    run_page(path)


def test_skipped_blocks_are_few_and_say_why() -> None:
    skipped = [b for p in pages() for b in blocks(p) if b.skip is not None]
    assert all(len(b.skip or "") >= 10 for b in skipped), [b.where for b in skipped]
    assert len(skipped) <= MAX_SKIPPED, f"{len(skipped)} skipped blocks: " + ", ".join(
        b.where for b in skipped
    )


def test_block_parser_reads_skips_titles_and_indented_fences(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "text\n<!-- skip: needs the network -->\n```bash\npip install x\n```\n"
        '1. item\n\n   ```csv title="a.csv"\n   1,2,1\n   ```\n```console\n$ echo hi\nhi\n```\n',
        encoding="utf-8",
    )
    found = blocks(page)
    assert [(b.lang, b.skip, b.title) for b in found] == [
        ("bash", "needs the network", None),
        ("csv", None, "a.csv"),
        ("console", None, None),
    ]
    assert found[1].text == "1,2,1\n"


@pytest.mark.parametrize(
    ("expected", "actual", "verdict"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "c"], False),
        (["a"], ["a", "extra"], False),
        (["a", "...", "z"], ["a", "z"], True),
        (["a", "...", "z"], ["a", "1", "2", "z"], True),
        (["a", "...", "z"], ["a", "1", "2"], False),
        (["time: run ... s"], ["time: run 0.25 s"], True),
        (["time: run ... s"], ["time: walk 0.25 s"], False),
    ],
)
def test_output_wildcards(expected: list[str], actual: list[str], verdict: bool) -> None:
    assert output_matches(expected, actual) is verdict


# --------------------------------------------------------------------------- links


LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_REF = re.compile(r"(?:src|href)=\"(?P<target>[^\"]+)\"")


def _strip_code(text: str, inline: bool = True) -> str:
    """``text`` without fenced blocks (and inline code when ``inline``): links there are not links."""
    out, fence = [], None
    for line in text.splitlines():
        match = FENCE.match(line)
        if match and (fence is None or match.group("fence").startswith(fence)):
            fence = match.group("fence") if fence is None else None
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`\n]*`", "", line) if inline else line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc ``slugify``, on the heading's text)."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "").replace("*", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


@functools.cache
def anchors(path: Path) -> set[str]:
    """The anchors of a page's headings, generated blocks (docs/hooks.py) expanded first."""
    text = path.read_text(encoding="utf-8")
    if path.is_relative_to(DOCS) and "<!-- gen:" in text:
        text = _hooks().expand(text)
    text = _strip_code(text, inline=False)
    found = {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.MULTILINE)}
    found |= set(re.findall(r"\{#([\w-]+)\}", text)) | set(re.findall(r"id=\"([\w-]+)\"", text))
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Every relative link or image of ``path`` whose file (inside ``root``) or ``#anchor`` is missing."""
    text = _strip_code(path.read_text(encoding="utf-8"))
    targets = [m.group("target") for m in LINK.finditer(text)]
    targets += [m.group("target") for m in HTML_REF.finditer(text)]
    bad = []
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # an absolute URL
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.is_relative_to(root):
            bad.append(f"{target}: outside the repository")
        elif not dest.exists():
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target}: no heading with anchor #{anchor}")
    return bad


@pytest.mark.parametrize("path", pages(), ids=page_id)
def test_links_and_images_resolve(path: Path) -> None:
    assert broken_links(path) == []


def test_link_checker_catches_missing_files_anchors_and_escapes(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Title here\n\n## Second `part`, too\n", encoding="utf-8")
    (tmp_path / "docs" / "pic.png").write_bytes(b"")
    page = tmp_path / "docs" / "b.md"
    page.write_text(
        "[ok](a.md) [ok](a.md#title-here) [ok](a.md#second-part-too) ![ok](pic.png) [ok](#local)\n"
        "[x](missing.md) [y](a.md#nope) ![z](gone.png) [out](../../outside.md)\n"
        "[web](https://example.org/x) `[code](nothere.md)`\n\n## Local\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "missing.md: no such file",
        "a.md#nope: no heading with anchor #nope",
        "gone.png: no such file",
        "../../outside.md: outside the repository",
    ]


# --------------------------------------------------------------------------- README and generated parts


def test_readme_is_small_and_keeps_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= README_LIMIT
    assert (
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[all]" && novikoff verify' in text
    )
    assert TEST_COMMAND in text


TEST_COMMAND = "python -m pytest -q -n 2 --dist loadgroup"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """.ci/run's pytest line is the README's second command, character for character."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pytest_lines = [line for line in ci.splitlines() if line.startswith("python -m pytest")]
    assert pytest_lines == [TEST_COMMAND]


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("novikoff_docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_theorem_table_has_every_statement() -> None:
    from novikoff.spec import THEOREMS

    table = _hooks().theorem_table().splitlines()
    rows = table[2:]
    assert len(rows) == sum(len(v) for v in THEOREMS.values())
    for spec_id, statements in THEOREMS.items():
        for st in statements:
            assert any(r.startswith(f"| {spec_id} | `{st.name}` |") for r in rows), (spec_id, st.name)


def test_check_counts_add_up_to_what_verify_collects() -> None:
    from novikoff.verify import collect_checks

    text = _hooks().check_counts()
    total = len(collect_checks())
    assert f"runs **{total} checks** by default" in text
    groups = dict(re.findall(r"^\| ([a-z]+) \| (\d+) \|$", text, re.MULTILINE))
    assert sum(int(n) for n in groups.values()) == total


def test_cli_usage_covers_every_subcommand() -> None:
    from novikoff.cli import build_parser

    hooks = _hooks()
    text = hooks.cli_usage()
    names = list(hooks.subcommands(build_parser()))
    assert names and all(f"## `novikoff {name}`" in text for name in names)
    assert all(f"usage: novikoff {name}" in text for name in names)


def test_generated_markers_expand_and_unknown_ones_fail() -> None:
    hooks = _hooks()
    for path in sorted(DOCS.rglob("*.md")):
        expanded = hooks.expand(path.read_text(encoding="utf-8"))
        assert hooks.MARKER.search(expanded) is None, path
    with pytest.raises(KeyError, match="gen:nonsense"):
        hooks.expand("<!-- gen:nonsense -->\n")


def test_no_check_count_is_typed_by_hand() -> None:
    """Counts of checks drift when typed ("178 checks" beside "182"); they are generated."""
    typed = re.compile(r"\b\d+ (?:checks|proof obligations)\b")
    offenders = [
        f"{page_id(p)}: {m.group(0)}"
        for p in pages()
        for m in typed.finditer(_strip_code(p.read_text("utf-8")))
    ]
    assert offenders == []


# --------------------------------------------------------------------------- the site


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        pytest.skip("mkdocs and mkdocstrings are not installed (pip install -e '.[docs]')")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").is_file(), time.perf_counter() - start


def test_plain_novikoff_calls_run_in_process_and_shell_syntax_in_bash() -> None:
    assert in_process_argv("novikoff certify example:t1:3 --json") == ["certify", "example:t1:3", "--json"]
    assert in_process_argv("novikoff run 'my data.csv' --algorithm pdm") == [
        "run",
        "my data.csv",
        "--algorithm",
        "pdm",
    ]
    for command in (
        "novikoff certify a.csv | head -1",
        "novikoff certify a.csv > out.txt",
        "novikoff certify a.csv; echo $?",
        "NOVIKOFF_TRACEBACK=1 novikoff certify a.csv",
        "novikoff falsify 'R2/gamma2' --examples 5",  # Hypothesis: its own process
        "novikoff diff mine:fit",
        "python -c 'print(1)'",
        "novikoff certify 'unterminated",
    ):
        assert in_process_argv(command) is None, command


def test_in_process_and_bash_print_the_same(tmp_path: Path) -> None:
    command = "novikoff certify example:exercise-6.1"
    argv = in_process_argv(command)
    assert argv is not None
    assert _run_in_process(argv, tmp_path) == _run_in_bash(command, tmp_path)
    bad = "novikoff certify missing.csv"
    argv = in_process_argv(bad)
    assert argv is not None
    code, out = _run_in_process(argv, tmp_path)
    assert (code, out) == _run_in_bash(bad, tmp_path) and code == 2
