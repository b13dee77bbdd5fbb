"""Process-level bounds of one command: a wall-clock limit and the termination signals.

Guarantees:

- :func:`deadline` raises the exception it was given in the main thread once the
  given number of seconds has passed (and again every second after that, so code
  that swallows the exception cannot outlive its bound). Deadlines nest; leaving the
  block disarms its deadline. Outside the main thread, or with ``seconds`` None or
  <= 0, the block runs unbounded.
- :func:`termination_signals` turns SIGTERM and SIGHUP into :class:`Terminated`
  (SIGINT keeps raising ``KeyboardInterrupt``) for the duration of the block, so a
  signal ends the command through the ordinary exception path (children killed,
  one message, exit 128 + signal number) instead of killing it mid-write.

Both exceptions derive from ``BaseException``: ``except Exception`` in anyone's code
(an implementation under ``novikoff diff``, a float heuristic) does not swallow them.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

__all__ = [
    "Terminated",
    "TimeLimitReached",
    "current_phase",
    "deadline",
    "failed_phase",
    "no_deadline",
    "phase",
    "termination_signals",
]


class _Phase:
    name = ""
    failed = ""  # the innermost phase a MemoryError left (for the message written after it)


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Name what the command is doing inside the block (for the time-limit message); a
    MemoryError that leaves the block records it as :func:`failed_phase` (the innermost one)."""
    outer, _Phase.name = _Phase.name, name
    try:
        yield
    except MemoryError:
        if not _Phase.failed:
            _Phase.failed = name
        raise
    finally:
        _Phase.name = outer


def current_phase() -> str:
    """The innermost :func:`phase` name, or ""."""
    return _Phase.name


def failed_phase() -> str:
    """The innermost phase the last MemoryError left ("" if none), then forgotten."""
    name, _Phase.failed = _Phase.failed, ""
    return name


class Terminated(BaseException):
    """The process was asked to stop by a signal; ``exit_code`` is 128 + its number."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.exit_code = 128 + signum
        super().__init__(f"terminated by {signal.Signals(signum).name}")


class TimeLimitReached(BaseException):
    """A wall-clock bound (``--time-limit`` or a per-call limit) was reached."""

    def __init__(self, seconds: float, what: str = "--time-limit") -> None:
        self.seconds = seconds
        self.what = what
        self.phase = current_phase()
        during = f" during {self.phase}" if self.phase else ""
        super().__init__(f"stopped by {what} = {seconds:g} s{during}")


_stack: list[tuple[float, Callable[[], BaseException]]] = []


def _arm() -> None:
    if not _stack:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    delay = max(min(d for d, _ in _stack) - time.monotonic(), 0.001)
    signal.setitimer(signal.ITIMER_REAL, delay, 1.0)  # repeats until the block is left


def _on_alarm(signum: int, frame: object) -> None:
    now = time.monotonic()
    due = [(d, make) for d, make in _stack if d <= now]
    if due:
        raise min(due, key=lambda e: e[0])[1]()
    _arm()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deadline(seconds: float | None, make: Callable[[], BaseException]) -> Iterator[None]:
    """Raise ``make()`` in this block after ``seconds`` (see the module docstring)."""
    if seconds is None or seconds <= 0 or not _main_thread():
        yield
        return
    entry = (time.monotonic() + seconds, make)
    previous = signal.signal(signal.SIGALRM, _on_alarm) if not _stack else None
    _stack.append(entry)
    _arm()
    try:
        yield
    finally:
        if entry in _stack:  # no_deadline drops a deadline that passed while it held
            _stack.remove(entry)
        _arm()
        if not _stack and previous is not None:
            signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def no_deadline() -> Iterator[None]:
    """No deadline fires in this block: a command's final output is written whole (a
    --json object cut by the time limit would be invalid JSON). A deadline that passes
    meanwhile is dropped, not fired after: the command has finished its work."""
    if not _stack or not _main_thread():
        yield
        return
    saved = list(_stack)
    _stack.clear()
    _arm()
    try:
        yield
    finally:
        now = time.monotonic()
        _stack.extend(e for e in saved if e[0] > now)
        _arm()


_received: list[int] = []  # signals taken by termination_signals' handlers, in order


def _raise_terminated(signum: int, frame: object) -> None:
    _received.append(signum)
    raise Terminated(signum)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    signal.default_int_handler(signum, frame)


def _reraise_swallowed() -> None:
    """Raise again a termination signal whose exception was swallowed.

    A signal handler's exception that arrives inside a callback the interpreter guards
    (an at-fork hook such as logging's, a ``__del__``, a weakref callback) is printed as
    "Exception ignored" and the run goes on; without this the command would finish and
    exit 0 although the user asked it to stop."""
    if _received:
        signum = _received[0]
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signum)


def _quiet_about_signals(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """An unraisable hook that says nothing of our own signal exceptions (they are raised
    again at the block's end, with one message) and passes every other one on."""

    def quiet(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, (Terminated, KeyboardInterrupt)):
            return None
        return hook(unraisable)

    return quiet


@contextlib.contextmanager
def termination_signals() -> Iterator[None]:
    """SIGTERM/SIGHUP raise :class:`Terminated` and SIGINT ``KeyboardInterrupt`` in this block."""
    if not _main_thread():
        yield
        return
    wanted: dict[signal.Signals, Callable[[int, Any], Any]] = {
        signal.SIGTERM: _raise_terminated,
        signal.SIGHUP: _raise_terminated,
        signal.SIGINT: _raise_interrupt,
    }
    _received.clear()
    previous = {s: signal.signal(s, h) for s, h in wanted.items()}
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_about_signals(previous_hook)
    try:
        yield
        _reraise_swallowed()
    finally:
        sys.unraisablehook = previous_hook
        for s, h in previous.items():
            signal.signal(s, h)
