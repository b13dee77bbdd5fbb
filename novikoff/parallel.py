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
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import signal
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["beside", "kill_children", "live_children", "prepare_child"]

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
    inherited wall-clock alarm. Use it as a ``multiprocessing.Pool`` initializer."""
    _die_with_parent()
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
    if proc in _LIVE:
        _LIVE.remove(proc)


def beside(fn: Callable[..., T], *args: Any) -> Callable[[], T]:
    """Start ``fn(*args)`` on another core if possible; call the result to wait for the value."""
    if os.environ.get("NOVIKOFF_NO_FORK") or "fork" not in mp.get_all_start_methods():
        return lambda: fn(*args)
    try:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, fn, args, os.getpid()), daemon=True)
        proc.start()
        child.close()
    except OSError:
        return lambda: fn(*args)
    _LIVE.append(proc)

    def wait() -> T:
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
        return value if ok else fn(*args)

    return wait
