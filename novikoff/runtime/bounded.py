"""Bounded resources: reading files, parsing numbers and JSON, the memory budget, subprocesses.

Guarantees (each is the one place the CLI does this):

- :func:`read_bytes` reads at most ``cap + 1`` bytes of a file, in chunks, whatever ``st_size``
  says (``/dev/zero``, a named pipe, ``/proc`` files): more than ``cap`` is an
  :class:`~novikoff.errors.InputError` naming the file, never a read until memory runs out.
  Character and block devices are refused unread. A deadline or a signal stops the read
  between two chunks.
- :func:`loads_json` parses standard JSON whose numbers have at most ``max_digits``
  characters, refused *before* conversion (Python's ``int()`` of a million digits is one
  long C call that no signal interrupts), with no NaN/Infinity and no duplicate keys.
- :func:`check_allocation` refuses, before it is made, an allocation larger than the memory
  budget (``--max-memory``; by default a quarter of the machine's memory, or half the
  address-space limit if lower): a :class:`MemoryBudgetExceeded` (exit 2) with the estimated size.
- :func:`run_bounded` runs a program in its own process group with a wall-clock bound;
  the whole group is killed (and reaped) at the bound, on a signal or on any exception.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import stat
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from novikoff.errors import InputError

__all__ = [
    "DEFAULT_FILE_CAP",
    "MemoryBudgetExceeded",
    "check_allocation",
    "default_memory_budget",
    "format_bytes",
    "limit_address_space",
    "limit_helper_memory",
    "loads_json",
    "memory_budget",
    "parse_memory",
    "read_bytes",
    "read_text",
    "run_bounded",
    "run_completed",
    "set_memory_budget",
]

#: Files larger than this are refused by default (a real input of novikoff is far smaller).
DEFAULT_FILE_CAP = 1 << 30
_CHUNK = 1 << 20


def _describe(path: str, mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    return None


def read_bytes(path: str | Path, cap: int = DEFAULT_FILE_CAP, *, regular_only: bool = False) -> bytes:
    """The bytes of ``path``, at most ``cap``: InputError naming the file when it has more
    (detected by reading ``cap + 1`` bytes, never by trusting ``st_size``), does not exist,
    is a directory or a device (or, with ``regular_only``, anything but a regular file:
    a pipe read here could not be read again by someone else)."""
    name = str(path)
    try:
        mode = os.stat(name).st_mode
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
        raise InputError(f"{name}: {reason}") from None
    bad = _describe(name, mode)
    if bad is None and regular_only and not stat.S_ISREG(mode):
        bad = "is not a regular file (a pipe or a special file)"
    if bad is not None:
        raise InputError(f"{name}: {bad}")
    chunks: list[bytes] = []
    size = 0
    try:
        with open(name, "rb", buffering=0) as f:
            while size <= cap:
                block = f.read(min(_CHUNK, cap + 1 - size))
                if not block:
                    break
                chunks.append(block)
                size += len(block)
    except OSError as exc:
        raise InputError(f"{name}: {exc.strerror or exc}") from None
    if size > cap:
        raise InputError(f"{name}: larger than {format_bytes(cap)} ({cap} bytes); refused unread beyond that")
    return b"".join(chunks)


def read_text(path: str | Path, cap: int = DEFAULT_FILE_CAP, *, regular_only: bool = False) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a leading byte-order mark dropped); InputError
    naming the file and the byte offset for anything else."""
    data = read_bytes(path, cap, regular_only=regular_only)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


# ------------------------------------------------------------------------------ JSON


class _JSONLimit(ValueError):
    pass


def loads_json(text: str | bytes, *, max_digits: int, what: str = "JSON") -> Any:
    """Parse ``text`` as standard JSON (UTF-8 when bytes; no NaN/Infinity; no duplicate keys);
    every number has at most ``max_digits`` characters, checked before it is converted.
    ValueError (with the reason) for anything else."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    if text.startswith("\ufeff"):
        raise ValueError("starts with a byte-order mark; the format is UTF-8 without one")

    def number(kind: Any) -> Any:
        def convert(s: str) -> Any:
            if len(s) > max_digits:
                raise _JSONLimit(f"a number of {len(s)} characters in {what} (at most {max_digits})")
            return kind(s)

        return convert

    def constant(name: str) -> Any:
        raise _JSONLimit(f"not standard JSON: {name}")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise _JSONLimit(f"duplicate key {key!r}")
            out[key] = value
        return out

    return json.loads(
        text,
        parse_int=number(int),
        parse_float=number(float),
        parse_constant=constant,
        object_pairs_hook=pairs,
    )


# ------------------------------------------------------------------------------ memory


class MemoryBudgetExceeded(InputError):
    """Work refused before it starts: it would need more memory than the budget."""


def format_bytes(n: float) -> str:
    """``n`` bytes in binary units, e.g. ``1.5 GiB``."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"  # pragma: no cover


def _physical_memory() -> int | None:
    with contextlib.suppress(ValueError, OSError, AttributeError):
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    return None


def default_memory_budget() -> int:
    """A quarter of the machine's memory (the machine is shared with other work), or half the
    soft address-space limit if lower (2 GiB when the machine does not say)."""
    budget = (_physical_memory() or 8 << 30) // 4
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY and soft > 0:
            budget = min(budget, soft // 2)  # the interpreter and its libraries map the rest
    return budget


class _Budget:
    value: int | None = None


def memory_budget() -> int:
    """The memory budget in bytes (:func:`set_memory_budget`, else the default)."""
    if _Budget.value is None:
        _Budget.value = default_memory_budget()
    return _Budget.value


def set_memory_budget(n: int | None) -> None:
    """Set the budget (None: back to the default)."""
    _Budget.value = n


_SIZE = re.compile(r"[0-9]{1,15}(\.[0-9]{1,6})?\Z")
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_memory(text: str) -> int:
    """``"512M"``, ``"2G"``, ``"1.5g"``, ``"1000000"`` (bytes) as a number of bytes >= 1 MiB;
    InputError otherwise. ASCII digits only."""
    s = text.strip().lower().removesuffix("ib").removesuffix("b")
    unit = s[-1:] if s[-1:] in _UNITS and s[-1:].isalpha() else ""
    digits = s[: len(s) - len(unit)]
    if not _SIZE.match(digits):
        raise InputError(f"--max-memory: expected a size such as 512M or 2G, got {text[:40]!a}")
    value = int(float(digits) * _UNITS[unit])
    if value < 1 << 20:
        raise InputError(f"--max-memory: at least 1M, got {text[:40]!a}")
    return value


def check_allocation(nbytes: int, what: str) -> None:
    """MemoryBudgetExceeded when ``nbytes`` (an estimate of what ``what`` would allocate) is
    more than the budget; says both sizes and how to raise the budget."""
    budget = memory_budget()
    if nbytes > budget:
        raise MemoryBudgetExceeded(
            f"{what} would need about {format_bytes(nbytes)}, more than the memory budget "
            f"{format_bytes(budget)} (raise it with --max-memory, or make the input smaller)"
        )


def limit_address_space(nbytes: int | None = None) -> None:
    """Set this process's RLIMIT_AS soft limit to ``nbytes`` (default: the budget), never
    above the hard limit; for helper processes (a no-op where unsupported)."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        want = memory_budget() if nbytes is None else nbytes
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))


def _address_space_now() -> int:
    """This process's mapped address space in bytes (Linux ``VmSize``; 0 where unknown)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    return 0


def limit_helper_memory() -> None:
    """In a forked helper process: RLIMIT_AS at what is mapped now plus the memory budget, so
    the helper can allocate at most the budget more (it then fails with MemoryError, and its
    parent reports or recomputes), never the whole machine."""
    limit_address_space(_address_space_now() + memory_budget())


# ------------------------------------------------------------------------------ processes


_MAX_CAPTURE = 16 << 20  # bytes of a program's stdout (and of its stderr) that run_bounded returns


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        proc.kill()
    proc.wait()


def run_bounded(
    argv: Sequence[str],
    timeout: float | None,
    *,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
    input: bytes | None = None,
    max_memory: int | None = None,
) -> tuple[int | None, bytes, bytes, float]:
    """Run ``argv`` in a new process group (its stdin ``input`` or /dev/null, its stdout and
    stderr captured) for at most ``timeout`` seconds (None: unbounded). Returns
    ``(returncode, stdout, stderr, seconds)``; returncode None means the bound was reached
    and the whole group was killed. On any exception (a signal's Terminated, a deadline,
    KeyboardInterrupt) the group is killed and reaped before it propagates, so nothing it
    started outlives the call (a process of the group still running when the program exits is
    killed too). Output goes to temporary files, not pipes, so a grandchild holding them open
    cannot stall the call; at most 16 MiB of each is returned. ``max_memory`` sets the
    child's RLIMIT_AS."""

    def setup() -> None:
        if max_memory is not None:
            limit_address_space(max_memory)

    import tempfile

    start = time.monotonic()
    # output to files, not pipes: a grandchild that keeps a pipe open cannot make us wait
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=out_file,
            stderr=err_file,
            start_new_session=True,
            preexec_fn=setup if max_memory is not None else None,
        )
        code: int | None
        try:
            if input is not None and proc.stdin is not None:
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.write(input)
                proc.stdin.close()
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        except BaseException:
            _kill_group(proc)
            raise
        _kill_group(proc)  # at the bound, or anything the program left running in its group
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(_MAX_CAPTURE), err_file.read(_MAX_CAPTURE)
    return code, out, err, time.monotonic() - start


def run_completed(
    argv: Sequence[str],
    timeout: float,
    *,
    cwd: str | Path | None = None,
    input_text: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """:func:`run_bounded` with :func:`subprocess.run`'s result: the same process group, the
    same kill of the whole group at ``timeout`` or on any exception, and
    :class:`subprocess.TimeoutExpired` (after the group is killed and reaped) when the bound
    is reached. Output is decoded as UTF-8 (undecodable bytes replaced)."""
    data = None if input_text is None else input_text.encode("utf-8")
    code, out, err, _ = run_bounded(argv, timeout, cwd=cwd, input=data)
    stdout, stderr = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    if code is None:
        raise subprocess.TimeoutExpired(list(argv), timeout, output=stdout, stderr=stderr)
    return subprocess.CompletedProcess(list(argv), code, stdout, stderr)
