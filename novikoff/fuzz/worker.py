"""Every call of an implementation under test, in a process that can be killed.

A :class:`Runner` makes one call (:class:`Call`: the exact data, the order the
implementation is given, max_epochs, the algorithm's parameter, the initial weights and
the declared semantics) and returns a :class:`CallOutcome`; it never raises for anything the
implementation does. Three runners:

- :class:`ForkRunner` (the default for a Python callable): a worker process forked from
  this one (so any callable works, lambdas and closures included), in its own process
  group, serving calls one after another over a pipe. Its standard output and error go to
  files of its own, read after each call (they never reach this process's output, so
  ``diff --json`` stays valid JSON) and shown in a finding. A call that outlives the limit
  has the whole group killed (SIGKILL) and is a ``timeout``; a worker that dies (a
  segfault in C code, ``os._exit``) is a ``crash``; in both cases the next call starts a
  fresh worker.
- :class:`CommandRunner` (``diff --command``): one run of an executable per call, in a new
  session and process group, speaking :mod:`novikoff.fuzz.protocol`; a nonzero exit or a
  signal is a ``crash``, output outside the protocol a ``protocol`` error.
- :class:`InProcessRunner`: the call in this process, bounded by a SIGALRM timer in the
  main thread only (no isolation; for callables that cannot run in a child).

Guarantees: :meth:`Runner.call` returns within the limit plus the time to kill and reap
(a few milliseconds) for the fork and command runners; :meth:`Runner.close` kills what is
still running. No worker outlives the runner's process (on Linux a forked worker also
gets SIGKILL when its parent dies).
"""

from __future__ import annotations

import abc
import contextlib
import ctypes
import faulthandler
import io
import os
import pickle
import select
import shlex
import shutil
import signal
import string
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from novikoff.data.multiclass import MulticlassData
from novikoff.errors import InputError
from novikoff.fuzz.contract import CallTimeLimit, Unsupported
from novikoff.fuzz.protocol import (
    VOTER_ALGORITHMS,
    ProtocolError,
    format_request,
    parse_response,
    request_version,
)
from novikoff.fuzz.semantics import DEFAULT, Semantics
from novikoff.runtime.limits import deadline

__all__ = [
    "OUTPUT_LIMIT",
    "PLACEHOLDERS",
    "Call",
    "CallOutcome",
    "CommandRunner",
    "ForkRunner",
    "InProcessRunner",
    "Runner",
    "as_runner",
    "describe_outputs",
]

#: Bytes of an implementation's standard output or error kept per call (the rest is cut).
OUTPUT_LIMIT = 1 << 20
#: A response of a command may have at most this many bytes (more kills the command).
RESPONSE_LIMIT = 64 << 20
#: The placeholders a ``--command`` template may hold (``{{`` and ``}}`` are braces).
PLACEHOLDERS = (
    "tie_rule",
    "margin",
    "learning_rate",
    "initial_weights",
    "order",
    "stop",
    "precision",
    "l2",
    "schedule",
    "algorithm",
    "protocol",
)
_R = TypeVar("_R", bound="Runner")
_RESULT_KEYS = ("weights", "mistakes", "updates", "epochs", "converged", "notes", "voters")


@dataclass(frozen=True)
class Call:
    """One call: ``data`` (a Dataset, or MulticlassData), the ``order`` the implementation
    is given (None, a permutation, or ``"shuffle-v1:SEED"``), ``max_epochs``, the
    algorithm's ``keyword`` and ``value`` (PDM's eps, PFM's beta), ``initial_weights``
    (passed when the semantics declare them drawn) and the declared ``semantics``."""

    data: Any
    order: Any
    max_epochs: int
    keyword: str | None = None
    value: Fraction | None = None
    initial_weights: tuple[Fraction, ...] | None = None
    semantics: Semantics = DEFAULT
    algorithm: str = "perceptron"

    def python_arguments(self) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """``(X, y, keywords)`` of the Python contract (novikoff.fuzz.contract)."""
        X, y = self.data.to_numpy()
        kwargs: dict[str, Any] = {
            "max_epochs": self.max_epochs,
            "order": None if self.order is None or isinstance(self.order, str) else list(self.order),
        }
        if isinstance(self.order, str):
            kwargs["order"] = self.order
        if self.keyword is not None and self.value is not None:
            kwargs[self.keyword] = float(self.value)
        if self.initial_weights is not None:
            kwargs["initial_weights"] = np.array([float(v) for v in self.initial_weights])
        return X, y, kwargs


@dataclass
class CallOutcome:
    """What one call did. ``status``: ``ok`` (``output`` is what it returned), ``unsupported``,
    ``raised`` (an exception), ``exit`` (sys.exit), ``timeout``, ``crash`` (the process died
    or the command exited nonzero) or ``protocol`` (a command's output outside the
    protocol); ``message`` says what happened; ``stdout`` and ``stderr`` are what the
    implementation printed during the call (cut at :data:`OUTPUT_LIMIT` bytes)."""

    status: str
    output: Any = None
    message: str = ""
    stdout: str = ""
    stderr: str = ""

    @property
    def failed(self) -> bool:
        """True for an outcome that is a finding by itself (not ok, not unsupported)."""
        return self.status not in ("ok", "unsupported")


class Runner(abc.ABC):
    """Makes calls of one implementation (subclasses); ``description`` names it in findings;
    ``timeout`` is the per-call limit in seconds (None: none)."""

    description = "implementation"
    timeout: float | None = None

    @abc.abstractmethod
    def call(self, call: Call) -> CallOutcome:
        """One call of the implementation, whatever it does (never raises for it)."""

    def close(self) -> None:  # noqa: B027 - a runner with nothing to kill keeps this default
        """Kill whatever still runs (idempotent); by default there is nothing."""

    def __enter__(self: _R) -> _R:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _text(data: bytes) -> str:
    return data[:OUTPUT_LIMIT].decode("utf-8", "replace")


def _signal_name(sig: int) -> str:
    try:
        return f"{signal.Signals(sig).name} ({sig})"
    except ValueError:
        return f"signal {sig}"


def _limit_text(limit: float | None) -> str:
    return "no limit" if limit is None else f"{limit:g} s"


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------- in this process


class InProcessRunner(Runner):
    """The call in this process (no isolation): a SIGALRM timer bounds it in the main thread
    only; a call that hangs elsewhere is bounded by nothing but the campaign's limit."""

    def __init__(self, fit: Callable[..., Any], timeout: float | None = None) -> None:
        self.fit, self.timeout = fit, timeout
        self.description = getattr(fit, "__name__", "fit")

    def call(self, call: Call) -> CallOutcome:
        X, y, kwargs = call.python_arguments()
        out, err = io.StringIO(), io.StringIO()
        limit = self.timeout
        try:
            with (
                contextlib.redirect_stdout(out),
                contextlib.redirect_stderr(err),
                deadline(limit, lambda: CallTimeLimit(limit or 0, "the per-call limit")),
            ):
                result = self.fit(X, y, **kwargs)
        except Unsupported as exc:
            return CallOutcome("unsupported", message=str(exc))
        except CallTimeLimit:
            return CallOutcome("timeout", message=f"fit did not return within {_limit_text(limit)}")
        except SystemExit as exc:
            return CallOutcome("exit", message=f"fit called sys.exit({exc.code!r})")
        except Exception as exc:
            return CallOutcome("raised", message=f"fit raised {type(exc).__name__}: {exc}")
        return CallOutcome("ok", result, stdout=out.getvalue(), stderr=err.getvalue())


# --------------------------------------------------------------------- a forked worker


def _send(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(struct.pack("<Q", len(data)) + data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int, until: float | None) -> bytes | None:
    """n bytes from ``fd``; None at EOF; raises TimeoutError after ``until`` (monotonic)."""
    chunks, left = [], n
    while left:
        if until is not None:
            wait = until - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int, until: float | None) -> Any:
    head = _read_exact(fd, 8, until)
    if head is None:
        raise EOFError
    body = _read_exact(fd, struct.unpack("<Q", head)[0], until)
    if body is None:
        raise EOFError
    return pickle.loads(body)


def _payload(out: Any) -> Any:
    """What ``fit`` returned as a picklable value with the same contract meaning: a mapping
    or an object with ``weights`` becomes a dict of the contract's keys."""
    if isinstance(out, Mapping):
        value: Any = dict(out)
    elif hasattr(out, "weights"):
        value = {k: getattr(out, k) for k in _RESULT_KEYS if hasattr(out, k)}
    else:
        value = out
    try:
        pickle.dumps(value)
        return value
    except Exception:
        if not isinstance(value, dict):
            return repr(value)[:200]
        plain = {}
        for k, v in value.items():
            try:
                pickle.dumps(v)
                plain[k] = v
            except Exception:
                plain[k] = repr(v)[:200]
        return plain


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)


def _flush_c_stdio() -> None:
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)


def _serve(fit: Callable[..., Any], requests: int, responses: int) -> None:
    """The worker's loop: read a call, make it, answer; stop at EOF."""
    while True:
        try:
            X, y, kwargs = _receive(requests, None)
        except EOFError:
            return
        for fd in (1, 2):
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
        try:
            answer: tuple[str, Any] = ("ok", _payload(fit(X, y, **kwargs)))
        except Unsupported as exc:
            answer = ("unsupported", str(exc))
        except SystemExit as exc:
            answer = ("exit", f"fit called sys.exit({exc.code!r})")
        except BaseException as exc:
            answer = ("raised", f"fit raised {type(exc).__name__}: {exc}")
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        _flush_c_stdio()
        _send(responses, answer)


class ForkRunner(Runner):
    """``fit`` called in a forked worker process (module docstring). Without ``os.fork``
    (Windows) it falls back to :class:`InProcessRunner`."""

    def __init__(self, fit: Callable[..., Any], timeout: float | None = None) -> None:
        self.fit, self.timeout = fit, timeout
        self.description = getattr(fit, "__name__", "fit")
        self.pid: int | None = None
        self.workers_started = 0
        self._fallback = None if hasattr(os, "fork") else InProcessRunner(fit, timeout)

    def _start(self) -> None:
        self._out = tempfile.TemporaryFile()
        self._err = tempfile.TemporaryFile()
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        parent = os.getpid()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                os.setpgid(0, 0)
                os.close(req_w)
                os.close(resp_r)
                _die_with_parent(parent)
                for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGPIPE):
                    signal.signal(sig, signal.SIG_DFL)
                signal.setitimer(signal.ITIMER_REAL, 0)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.dup2(self._out.fileno(), 1)
                os.dup2(self._err.fileno(), 2)
                sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True)
                sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True)
                faulthandler.enable(file=sys.stderr)  # a fatal signal's Python traceback: in stderr
                _serve(self.fit, req_r, resp_w)
            finally:
                os._exit(0)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # also here: no race with the first kill
        os.close(req_r)
        os.close(resp_w)
        self.pid, self._requests, self._responses = pid, req_w, resp_r
        self.workers_started += 1

    def _captured(self) -> tuple[str, str]:
        texts = []
        for f in (self._out, self._err):
            try:
                size = os.fstat(f.fileno()).st_size
                texts.append(_text(os.pread(f.fileno(), min(size, OUTPUT_LIMIT), 0)))
            except OSError:
                texts.append("")
        return texts[0], texts[1]

    def _reap(self) -> str:
        """Kill and wait for the worker; how it ended, in words."""
        pid = self.pid
        self.pid = None
        if pid is None:
            return ""
        for fd in (self._requests, self._responses):
            with contextlib.suppress(OSError):
                os.close(fd)
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                _kill_group(pid)
                _, status = os.waitpid(pid, 0)
            else:
                _kill_group(pid)  # whatever it started in its group
        except ChildProcessError:
            return "the worker vanished"
        if os.WIFSIGNALED(status):
            return f"the worker was killed by {_signal_name(os.WTERMSIG(status))}"
        return f"the worker exited with status {os.WEXITSTATUS(status)}"

    def call(self, call: Call) -> CallOutcome:
        if self._fallback is not None:
            return self._fallback.call(call)
        X, y, kwargs = call.python_arguments()
        if self.pid is None:
            self._start()
        until = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            _send(self._requests, (X, y, kwargs))
            status, value = _receive(self._responses, until)
        except TimeoutError:
            out, err = self._captured()
            self._reap()
            return CallOutcome(
                "timeout",
                message=f"fit did not return within {_limit_text(self.timeout)} (the per-call limit, "
                "--call-timeout); its process group was killed",
                stdout=out,
                stderr=err,
            )
        except (EOFError, BrokenPipeError, pickle.UnpicklingError):
            out, err = self._captured()
            how = self._reap()
            return CallOutcome("crash", message=f"fit crashed: {how}", stdout=out, stderr=err)
        except BaseException:  # the campaign's own limit, ^C: no worker is left behind
            self._reap()
            raise
        out, err = self._captured()
        if status == "ok":
            return CallOutcome("ok", value, stdout=out, stderr=err)
        return CallOutcome(status, message=str(value), stdout=out, stderr=err)

    def close(self) -> None:
        self._reap()


# --------------------------------------------------------------------- a command


def _template(command: str) -> list[str]:
    """The command's words (POSIX shell quoting, no shell), placeholders checked."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise InputError(f"--command: {exc}") from None
    if not words:
        raise InputError("--command: empty command")
    for word in words:
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(word) if f is not None]
        except ValueError as exc:
            raise InputError(f"--command: {exc} in {word!r} (write {{{{ and }}}} for braces)") from None
        for name in fields:
            if name not in PLACEHOLDERS:
                raise InputError(
                    f"--command: unknown placeholder {{{name}}}; placeholders: "
                    + ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                )
    return words


def _communicate(
    proc: subprocess.Popen[bytes], data: bytes, until: float | None
) -> tuple[bytes, bytes, bool]:
    """Write ``data`` to the process's stdin, read its stdout and stderr until both close;
    (stdout, stderr, timed out). Output beyond the limits is dropped (and stops the call)."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    outs: dict[int, list[bytes]] = {proc.stdout.fileno(): [], proc.stderr.fileno(): []}
    sizes = dict.fromkeys(outs, 0)
    limits = {proc.stdout.fileno(): RESPONSE_LIMIT, proc.stderr.fileno(): OUTPUT_LIMIT}
    pending = memoryview(data)
    stdin: int | None = None if proc.stdin.closed else proc.stdin.fileno()
    if stdin is not None:
        os.set_blocking(stdin, False)
    reading = set(outs)
    timed_out = False
    while reading or stdin is not None:
        wait = None if until is None else until - time.monotonic()
        if wait is not None and wait <= 0:
            timed_out = True
            break
        writers = [stdin] if stdin is not None else []
        readable, writable, _ = select.select(list(reading), writers, [], wait)
        if stdin is not None and writable:
            try:
                pending = pending[os.write(stdin, pending[: 1 << 16]) :]
            except (BrokenPipeError, OSError):
                pending = pending[len(pending) :]
            if not pending:
                proc.stdin.close()
                stdin = None
        for fd in readable:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                reading.discard(fd)
                continue
            if sizes[fd] < limits[fd]:
                outs[fd].append(chunk)
            sizes[fd] += len(chunk)
            if fd == proc.stdout.fileno() and sizes[fd] > RESPONSE_LIMIT:
                reading.clear()
    if not proc.stdin.closed:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    return b"".join(outs[proc.stdout.fileno()]), b"".join(outs[proc.stderr.fileno()]), timed_out


class CommandRunner(Runner):
    """One run of ``command`` per call, speaking :mod:`novikoff.fuzz.protocol` (module
    docstring). ``command`` is split like a POSIX shell does (no shell runs it); its
    placeholders (:data:`PLACEHOLDERS`) take the declared semantics' values. A command
    that cannot be found raises InputError at once."""

    def __init__(
        self,
        command: str,
        semantics: Semantics = DEFAULT,
        timeout: float | None = None,
        cwd: str | None = None,
    ) -> None:
        self.command, self.semantics, self.timeout, self.cwd = command, semantics, timeout, cwd
        self.words = _template(command)
        self.description = command
        program = self.argv_for("perceptron")[0]
        base = cwd or os.getcwd()
        found = shutil.which(program, path=os.environ.get("PATH")) if os.sep not in program else None
        path = program if os.path.isabs(program) else os.path.join(base, program)
        if found is None and not (os.sep in program and os.access(path, os.X_OK) and os.path.isfile(path)):
            raise InputError(f"--command: cannot run {program!r}: not found or not executable")

    def argv_for(self, algorithm: str, order: Any = None) -> list[str]:
        """The command's argv with the placeholders filled for ``algorithm`` (``{protocol}``:
        the version of the request, :func:`~novikoff.fuzz.protocol.request_version`)."""
        version = request_version(algorithm, self.semantics, order)
        values = {**self.semantics.placeholders(), "algorithm": algorithm, "protocol": str(version)}
        return [w.format_map(values) for w in self.words]

    def call(self, call: Call) -> CallOutcome:
        request = format_request(
            call.data,
            max_epochs=call.max_epochs,
            order=call.order,
            algorithm=call.algorithm,
            parameter=None if call.keyword is None or call.value is None else (call.keyword, call.value),
            semantics=call.semantics,
            initial_weights=call.initial_weights,
        ).encode()
        until = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            proc = subprocess.Popen(
                self.argv_for(call.algorithm, call.order),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                cwd=self.cwd,
            )
        except OSError as exc:
            return CallOutcome("crash", message=f"the command could not be started: {exc}")
        try:
            out, err, timed_out = _communicate(proc, request, until)
            if timed_out:
                _kill_group(proc.pid)
                # the group is dead; what it wrote before is still in the pipes
                rest_out, rest_err, _ = _communicate(proc, b"", time.monotonic() + 2)
                out, err = out + rest_out, err + rest_err
            status = proc.wait()
        finally:
            _kill_group(proc.pid)  # anything it left running in its group
            for f in (proc.stdout, proc.stderr):
                if f is not None:
                    f.close()
            with contextlib.suppress(Exception):
                proc.wait(timeout=5)
        stdout, stderr = _text(out), _text(err)
        if timed_out:
            return CallOutcome(
                "timeout",
                message=f"the command did not answer within {_limit_text(self.timeout)} (the per-call "
                "limit, --call-timeout); its process group was killed",
                stdout=stdout,
                stderr=stderr,
            )
        if status < 0:
            return CallOutcome(
                "crash",
                message=f"the command was killed by {_signal_name(-status)}",
                stdout=stdout,
                stderr=stderr,
            )
        if status != 0:
            return CallOutcome(
                "crash", message=f"the command exited with status {status}", stdout=stdout, stderr=stderr
            )
        try:
            dimension = call.data.dimension
            if isinstance(call.data, MulticlassData):
                dimension *= call.data.n_classes
            response = parse_response(
                stdout,
                dimension,
                request_version(call.algorithm, call.semantics, call.order),
                call.data.dimension if call.algorithm in VOTER_ALGORITHMS else None,
            )
        except ProtocolError as exc:
            return CallOutcome("protocol", message=f"protocol error: {exc}", stdout=stdout, stderr=stderr)
        if response.unsupported is not None:
            return CallOutcome("unsupported", message=response.unsupported, stdout=stdout, stderr=stderr)
        return CallOutcome("ok", response.payload(), stdout=stdout, stderr=stderr)


def as_runner(fit: Callable[..., Any] | Runner, timeout: float | None, isolate: bool = True) -> Runner:
    """``fit`` as a runner: a Runner as it is; a callable in a :class:`ForkRunner`
    (``isolate``) or an :class:`InProcessRunner`."""
    if isinstance(fit, Runner):
        return fit
    return ForkRunner(fit, timeout) if isolate else InProcessRunner(fit, timeout)


def describe_outputs(outcome: CallOutcome, width: int = 2000) -> list[str]:
    """The implementation's stdout and stderr of a call, indented, for a finding."""
    lines = []
    for name, text in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
        if text.strip():
            cut = text if len(text) <= width else text[:width] + f"... ({len(text) - width} more characters)"
            lines.append(f"  {name} of the call:")
            lines += ["    " + line for line in cut.rstrip("\n").splitlines()]
    return lines
