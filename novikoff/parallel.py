"""Run one independent piece of exact work on the second core.

``beside(fn, *args)`` starts ``fn(*args)`` in a forked child process (POSIX
only) and returns a callable that waits for and returns its result. If fork
is unavailable, disabled (``NOVIKOFF_NO_FORK=1``), or the child fails for any
reason, the work is simply done in this process when the result is asked for,
so the outcome never depends on the child: only the time does. Results travel
back pickled; the caller still verifies them (certificates go through the
exact checker in the parent).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["beside"]


def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:  # report failure; the parent recomputes and raises properly
        payload = pickle.dumps((False, None))
    conn.send_bytes(payload)
    conn.close()


def beside(fn: Callable[..., T], *args: Any) -> Callable[[], T]:
    """Start ``fn(*args)`` on another core if possible; call the result to wait for the value."""
    if os.environ.get("NOVIKOFF_NO_FORK") or "fork" not in mp.get_all_start_methods():
        return lambda: fn(*args)
    try:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
        proc.start()
        child.close()
    except OSError:
        return lambda: fn(*args)

    def wait() -> T:
        try:
            ok, value = pickle.loads(parent.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            ok, value = False, None
        finally:
            parent.close()
            proc.join()
        return value if ok else fn(*args)

    return wait
