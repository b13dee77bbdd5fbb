"""Run one independent piece of exact work on the second core.

``beside(fn, *args)`` starts ``fn(*args)`` in a forked child process (POSIX
only) and returns a callable that waits for and returns its result. If fork
is unavailable, disabled (``NOVIKOFF_NO_FORK=1``), or the child fails for any
reason, the work is simply done in this process when the result is asked for,
so the outcome never depends on the child: only the time does. Results travel
back pickled; the caller still verifies them (certificates go through the
exact checker in the parent).

Process hygiene: a child never outlives its parent. On Linux the kernel kills it
when the parent dies (``PR_SET_PDEATHSIG``, even on SIGKILL); it takes the default
action on SIGTERM/SIGINT/SIGHUP (it dies, it never reports a half result); its
stdin/stdout/stderr are /dev/null, so it never holds the caller's pipes; and
:func:`kill_children` (called by the CLI on every exit path, and by ``wait`` when
waiting is interrupted) kills and reaps every child still running.

``start_child(fn, *args)`` is the same machinery for work whose failure must be
reported rather than recomputed (the shards of :mod:`novikoff.runtime.executors`): the
child keeps the caller's stderr (progress lines), and :meth:`Child.result`
returns ``fn``'s value or raises :class:`ChildFailed` with the child's exception
type, message and traceback text, or how the child died.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from novikoff.runtime.bounded import limit_helper_memory

T = TypeVar("T")

__all__ = [
    "Beside",
    "Child",
    "ChildFailed",
    "beside",
    "kill_children",
    "live_children",
    "prepare_child",
    "start_child",
]

_LIVE: list[Any] = []  # multiprocessing.Process objects started by beside() and not yet reaped


def _die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux; a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1


def prepare_child() -> None:
    """Make a forked worker process behave: it dies with its parent, takes the default action
    on SIGTERM/SIGINT/SIGHUP (no parent handler, no message, no half result) and has no
    inherited wall-clock alarm; its address space is limited to what it maps at the fork plus
    the memory budget (:func:`novikoff.runtime.bounded.limit_helper_memory`). Use it as a
    ``multiprocessing.Pool`` initializer."""
    _die_with_parent()
    limit_helper_memory()
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
        signal.signal(s, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, 0)


def _detach_from_caller() -> None:
    prepare_child()
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)


def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...], parent_pid: int) -> None:
    _detach_from_caller()
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)
    try:
        payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:  # report failure; the parent recomputes and raises properly
        payload = pickle.dumps((False, None))
    conn.send_bytes(payload)
    conn.close()


def live_children() -> list[int]:
    """Process ids of the children started by :func:`beside` that are still running."""
    return [p.pid for p in _LIVE if p.is_alive()]


def kill_children() -> None:
    """SIGKILL and reap every child started by :func:`beside` (idempotent)."""
    while _LIVE:
        proc = _LIVE.pop()
        with contextlib.suppress(Exception):
            if proc.is_alive():
                proc.kill()
            proc.join()


def _reap(proc: Any) -> None:
    with contextlib.suppress(Exception):
        proc.join()
    with contextlib.suppress(ValueError):  # another thread may have reaped it meanwhile
        _LIVE.remove(proc)


class Beside(Generic[T]):
    """What :func:`beside` returns: call it to wait for ``fn(*args)`` (from the child, or
    computed here if the child failed or none was started); :meth:`cancel` instead kills the
    child at once (its value is then never asked for)."""

    def __init__(
        self, fn: Callable[..., T], args: tuple[Any, ...], proc: Any = None, conn: Any = None
    ) -> None:
        self._fn, self._args, self._proc, self._conn = fn, args, proc, conn

    def __call__(self) -> T:
        proc, parent = self._proc, self._conn
        if proc is None:
            return self._fn(*self._args)
        self._proc = self._conn = None  # a second call computes here
        try:
            ok, value = pickle.loads(parent.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            ok, value = False, None
        except BaseException:  # interrupted (signal, time limit): the child goes too
            with contextlib.suppress(Exception):
                proc.kill()
            _reap(proc)
            raise
        finally:
            parent.close()
        _reap(proc)
        return value if ok else self._fn(*self._args)

    def cancel(self) -> None:
        """Kill and reap the child, if one runs (idempotent); calling afterwards computes here."""
        proc, parent = self._proc, self._conn
        self._proc = self._conn = None
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.kill()
            _reap(proc)
            with contextlib.suppress(Exception):
                parent.close()


def beside(fn: Callable[..., T], *args: Any) -> Beside[T]:
    """Start ``fn(*args)`` on another core if possible; call the result to wait for the value
    (or :meth:`Beside.cancel` it)."""
    if os.environ.get("NOVIKOFF_NO_FORK") or "fork" not in mp.get_all_start_methods():
        return Beside(fn, args)
    try:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, fn, args, os.getpid()), daemon=True)
        proc.start()
        child.close()
    except OSError:
        return Beside(fn, args)
    _LIVE.append(proc)
    return Beside(fn, args, proc, parent)


class ChildFailed(Exception):
    """A child started by :func:`start_child` did not return a value.

    ``kind`` is the exception's type name (``"ValueError"``) or, when the child died
    without reporting, a description such as ``"killed by signal 9"``; ``detail`` is the
    exception's message; ``remote_traceback`` the child's formatted traceback ("" if none).
    """

    def __init__(self, kind: str, detail: str, remote_traceback: str = "") -> None:
        self.kind = kind
        self.detail = detail
        self.remote_traceback = remote_traceback
        super().__init__(f"{kind}: {detail}" if detail else kind)


def _shard_child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...], parent_pid: int) -> None:
    prepare_child()
    with contextlib.suppress(OSError):  # stdin only: stdout/stderr stay the caller's
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)
    try:
        payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException as exc:  # every failure (an unpicklable result too) goes to the parent
        failure = (type(exc).__name__, str(exc), traceback.format_exc())
        payload = pickle.dumps((False, failure))
    with contextlib.suppress(OSError):  # the parent is gone or stopped listening: nobody to tell
        conn.send_bytes(payload)
    conn.close()


class Child(Generic[T]):
    """``fn(*args)`` running in a child process started by :func:`start_child`."""

    def __init__(self, proc: Any, conn: Any) -> None:
        self._proc = proc
        self._conn = conn

    @property
    def pid(self) -> int:
        """The child's process id."""
        return int(self._proc.pid)

    def result(self) -> T:
        """Wait for the child; its value, or :class:`ChildFailed` (its exception, or how it
        died). The child is reaped either way. Interrupted waiting kills the child."""
        try:
            ok, value = pickle.loads(self._conn.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            _reap(self._proc)
            code = self._proc.exitcode
            how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
            raise ChildFailed(f"the process died without a result ({how})", "") from None
        except BaseException:
            self.kill()
            raise
        finally:
            with contextlib.suppress(OSError):
                self._conn.close()
        _reap(self._proc)
        if ok:
            return value
        raise ChildFailed(*value)

    def kill(self) -> None:
        """SIGKILL and reap the child (idempotent; a finished child is only reaped)."""
        with contextlib.suppress(Exception):
            if self._proc.is_alive():
                self._proc.kill()
        _reap(self._proc)


def start_child(fn: Callable[..., T], *args: Any) -> Child[T]:
    """Start ``fn(*args)`` in a child process with the hygiene of :func:`beside` (it dies
    with this process, default signal actions, stdin from /dev/null, killed by
    :func:`kill_children`) but keeping this process's stdout and stderr.

    The child is forked where fork exists, else spawned (then ``fn`` and ``args`` must be
    picklable: ``fn`` a module-level function). Raises OSError when no process can be
    started. Unlike :func:`beside`, nothing is recomputed here: a failure is reported by
    :meth:`Child.result`."""
    ctx: Any = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_shard_child, args=(child, fn, args, os.getpid()), daemon=True)
    proc.start()
    child.close()
    _LIVE.append(proc)
    return Child(proc, parent)
