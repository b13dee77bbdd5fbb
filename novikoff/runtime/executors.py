"""Where the shards of a campaign run: processes on this machine, or a Dask cluster.

An executor is named by one string (the CLI's ``--executor``), read by
:func:`parse_executor`:

- ``local`` (the default): one child process per shard on this machine
  (:func:`novikoff.runtime.parallel.start_child`: forked, dies with the caller);
- ``dask://HOST:PORT``: the Dask ``distributed`` scheduler at ``tcp://HOST:PORT``
  (``pip install "novikoff[dask]"``); every worker needs the same novikoff
  installed (same version and same source files: :func:`installed_version`),
  which is checked before anything is submitted.

:func:`run_until_first` submits ``fn(*args)`` for every shard through a
:class:`concurrent.futures.Executor`, returns as soon as one result satisfies
``is_hit`` (the first counterexample) and cancels every other shard; otherwise it
returns every result. For Dask that executor is a thin one over
``client.submit(fn, *args, pure=False)`` (``pure=False``: two shards with equal
arguments stay two tasks), not ``client.get_executor()``: the latter delivers a
result inside the client's event loop, and a result the client cannot unpickle
(a worker running other novikoff code) escapes there, leaving its
``concurrent.futures`` future pending for ever, a hang. Here each Dask future's
result is fetched in its done-callback thread and any failure lands in the
shard's future.

``fn`` must be a module-level function of an installed module (or a
:func:`functools.partial` of one): it is pickled by reference, so a Dask worker
imports it by name, and so does a spawned local child. Its arguments and its
result must be picklable. A lambda or a nested function fails on the workers.

Cancelling: a local shard's process is killed. A Dask task cannot be killed (it
runs in a worker thread), so a cancelled Dask task runs on until it returns,
occupying its worker; long shards should call :func:`stop_requested` now and
then (it costs a dictionary look-up) and return, or call :func:`raise_if_stopped`,
which raises :class:`ShardCancelled` (a ``BaseException``, so that a Hypothesis
search in the shard stops at once rather than treating it as a failing example).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import hashlib
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import urlsplit

from novikoff.errors import InputError, NovikoffError
from novikoff.runtime.parallel import ChildFailed, start_child

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "ExecutorSpec",
    "ShardCancelled",
    "ShardError",
    "ShardOutcome",
    "dask_client",
    "installed_version",
    "parse_executor",
    "raise_if_stopped",
    "run_until_first",
    "stop_requested",
]

R = TypeVar("R")

DEFAULT_CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler (and to see a worker)

_DASK_HINT = 'the Dask executor needs the distributed package: pip install "novikoff[dask]"'
_HOST = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?")  # lowercased
_FORM = "expected 'local' or 'dask://HOST:PORT'"


@dataclass(frozen=True)
class ExecutorSpec:
    """A parsed ``--executor``: ``kind`` ``"local"``, or ``"dask"`` with the scheduler's
    ``host`` and ``port``. ``str(spec)`` is the canonical spelling."""

    kind: Literal["local", "dask"] = "local"
    host: str | None = None
    port: int | None = None

    @property
    def address(self) -> str:
        """The Dask scheduler's address (``tcp://HOST:PORT``); "" for ``local``."""
        if self.kind != "dask":
            return ""
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"tcp://{host}:{self.port}"

    def __str__(self) -> str:
        return "local" if self.kind == "local" else "dask://" + self.address[len("tcp://") :]


def _bad(text: str, why: str) -> InputError:
    return InputError(f"--executor {text!r}: {why} ({_FORM})")


def _require_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(f"--executor: {_DASK_HINT}") from None
    return distributed


def parse_executor(text: str) -> ExecutorSpec:
    """Read an ``--executor`` value: ``local`` or ``dask://HOST:PORT`` (HOST a name, an
    IPv4 address or a bracketed IPv6 address; PORT 1..65535). Anything else, and a Dask
    address without the ``distributed`` package installed, raises :class:`InputError`
    naming ``--executor``. Nothing is contacted here."""
    stripped = text.strip()
    if stripped.lower() == "local":
        return ExecutorSpec()
    if not stripped:
        raise _bad(text, "empty")
    if "://" not in stripped:
        raise _bad(text, "unknown executor")
    scheme = stripped.split("://", 1)[0].lower()
    if scheme != "dask":
        hint = "; write dask://HOST:PORT for a Dask scheduler" if scheme in ("tcp", "tls", "ws") else ""
        raise _bad(text, f"unknown scheme {scheme + '://'!r}{hint}")
    try:
        parts = urlsplit(stripped)
        port = parts.port
    except ValueError as exc:
        raise _bad(text, f"bad address ({exc})") from None
    if parts.username is not None or parts.password is not None:
        raise _bad(text, "no user or password may be given")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise _bad(text, "nothing may follow HOST:PORT")
    host = parts.hostname
    if not host:
        raise _bad(text, "missing host")
    if port is None:
        raise _bad(text, "missing port (a Dask scheduler listens on 8786 by default)")
    if not 1 <= port <= 65535:
        raise _bad(text, f"port {port} is not in 1..65535")
    if ":" not in host and not _HOST.fullmatch(host):  # IPv6 (bracketed) was checked by urlsplit
        raise _bad(text, f"bad host name {host!r}")
    _require_distributed()
    return ExecutorSpec("dask", host, port)


# ------------------------------------------------------------------------------ outcomes


class ShardError(NovikoffError):
    """A shard raised (or its worker died); the message names the shard, its arguments,
    where it ran and the exception. ``shard`` is its index in ``shard_args``."""

    def __init__(self, shard: int, count: int, call: str, where: str, problem: str) -> None:
        self.shard = shard
        self.problem = problem
        super().__init__(f"shard {shard} of {count} ({call}) failed {where}: {problem}")


class ShardCancelled(BaseException):
    """Raised in a shard by :func:`raise_if_stopped` once its task was cancelled."""


@dataclass(frozen=True)
class ShardOutcome(Generic[R]):
    """What :func:`run_until_first` saw.

    ``results`` maps shard index to result for every shard that returned, in the order
    they returned; ``hit_shard`` is the shard whose result satisfied ``is_hit`` (the run
    stopped there and cancelled the rest), None if none did. ``timed_out`` is True when
    the time limit stopped the run first. When neither, every shard is in ``results``.
    """

    count: int
    results: dict[int, R] = field(default_factory=dict)
    hit_shard: int | None = None
    timed_out: bool = False

    @property
    def hit(self) -> R | None:
        """The first result that satisfied ``is_hit``, or None."""
        return None if self.hit_shard is None else self.results[self.hit_shard]

    @property
    def complete(self) -> bool:
        """True iff every shard returned (no hit stopped the run, no time limit)."""
        return len(self.results) == self.count

    def ordered(self) -> list[R]:
        """The results in shard order; raises ValueError unless :attr:`complete`."""
        if not self.complete:
            raise ValueError(f"only {len(self.results)} of {self.count} shards returned")
        return [self.results[i] for i in range(self.count)]


def stop_requested() -> bool:
    """True iff this code runs in a Dask task that has been cancelled (another shard hit,
    the time limit passed, or the client went away). False everywhere else: a local
    shard is killed instead of asked. Cheap enough to call after every example."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state
    except ImportError:
        return False
    try:
        worker = get_worker()
    except ValueError:  # not in a Dask task
        return False
    key = getattr(thread_state, "key", None)
    if key is None:
        return False
    task = worker.state.tasks.get(key)
    return task is None or task.state not in ("executing", "long-running")


def raise_if_stopped() -> None:
    """Raise :class:`ShardCancelled` if :func:`stop_requested`."""
    if stop_requested():
        raise ShardCancelled


def installed_version() -> str:
    """This process's novikoff: its version and a fingerprint of its source files
    (``"0.1.0 (source 1a2b3c4d5e6f)"``), so that two checkouts of one version that differ
    are told apart. Run on every Dask worker before anything is submitted. The
    fingerprint is taken once per process (the code it describes is the code loaded)."""
    import novikoff

    return f"{novikoff.__version__} (source {_source_fingerprint()})"


@functools.lru_cache(maxsize=1)
def _source_fingerprint() -> str:
    import novikoff

    digest = hashlib.sha256()
    root = Path(novikoff.__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


# ------------------------------------------------------------------------------ running


class _LocalExecutor(cf.Executor):
    """``concurrent.futures`` over :func:`novikoff.runtime.parallel.start_child`: one child per
    submission; ``shutdown(cancel_futures=True)`` kills the children still running."""

    def __init__(self) -> None:
        self._children: list[Any] = []
        self._threads: list[threading.Thread] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        if kwargs:
            raise TypeError("shards take positional arguments only")
        future: cf.Future[Any] = cf.Future()
        child = start_child(fn, *args)
        self._children.append(child)

        def deliver() -> None:
            try:
                value = child.result()
            except ChildFailed as exc:
                if not future.cancelled():
                    with contextlib.suppress(cf.InvalidStateError):
                        future.set_exception(exc)
                return
            if not future.cancelled():
                with contextlib.suppress(cf.InvalidStateError):
                    future.set_result(value)

        thread = threading.Thread(target=deliver, name=f"novikoff-shard-{child.pid}", daemon=True)
        thread.start()
        self._threads.append(thread)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for child in self._children:
                child.kill()
        for thread in self._threads:
            thread.join()


class _DaskExecutor(cf.Executor):
    """``concurrent.futures`` over ``client.submit(..., pure=False)`` (see the module
    docstring for why not ``client.get_executor()``); ``shutdown`` cancels every task."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._tasks: list[Any] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        if kwargs:
            raise TypeError("shards take positional arguments only")
        future: cf.Future[Any] = cf.Future()
        task = self._client.submit(fn, *args, pure=False)
        self._tasks.append(task)

        def deliver(done: Any) -> None:  # runs in a thread of the client's, not its event loop
            if future.cancelled():
                return
            try:
                if done.status == "cancelled":
                    outcome: tuple[bool, Any] = (False, RuntimeError("the task was cancelled by the cluster"))
                else:
                    outcome = (True, done.result())
            except BaseException as exc:  # the task's exception, or one fetching its result
                outcome = (False, exc)
            with contextlib.suppress(cf.InvalidStateError):
                if outcome[0]:
                    future.set_result(outcome[1])
                else:
                    future.set_exception(outcome[1])

        task.add_done_callback(deliver)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures and self._tasks:
            with contextlib.suppress(Exception):  # the scheduler may be gone already
                self._client.cancel(self._tasks)


def _describe_call(fn: Callable[..., Any], args: Sequence[Any], limit: int = 120) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(getattr(fn, "func", None), "__qualname__", repr(fn))
    shown = ", ".join(repr(a) for a in args)
    if len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return f"{name}({shown})"


#: A Dask scheduler's first message (its handshake) is a few dozen bytes; more is not Dask.
_MAX_HANDSHAKE = 1 << 16


def _probe_dask(spec: ExecutorSpec, timeout: float, where: str) -> None:
    """Check, on a raw socket with ``timeout`` on every step, that ``spec`` is a Dask scheduler
    before Dask's own client talks to it (which trusts the peer's frame lengths and has no
    bound on the handshake): a Dask peer sends its handshake at once, an 8-byte little-endian
    length then that many bytes of msgpack naming ``compression`` and ``pickle-protocol``.
    InputError naming the address for a silent peer, a closed connection or other bytes."""
    import socket
    import struct

    assert spec.host is not None and spec.port is not None
    address = f"{spec.host}:{spec.port}"
    try:
        sock = socket.create_connection((spec.host, spec.port), timeout=timeout)
    except OSError as exc:
        raise InputError(
            f"{where}: cannot reach the Dask scheduler at {spec.address} within {timeout:g} s "
            f"({exc.strerror or exc})"
        ) from None
    end = time.monotonic() + timeout

    def read(n: int) -> bytes:
        data = b""
        while len(data) < n:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            block = sock.recv(n - len(data))
            if not block:
                raise ConnectionError("the peer closed the connection")
            data += block
        return data

    try:
        with sock:
            (length,) = struct.unpack("<Q", read(8))
            if not 8 < length <= _MAX_HANDSHAKE:
                raise ValueError(f"its first message announces {length} bytes")
            body = read(length)
            if b"compression" not in body or b"pickle-protocol" not in body:
                raise ValueError("its first message is not a Dask handshake")
    except TimeoutError:
        raise InputError(
            f"{where}: {address} sent no Dask handshake within {timeout:g} s (not a Dask scheduler?)"
        ) from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{where}: {address} is not a Dask scheduler ({exc})") from None


def _dask_client(spec: ExecutorSpec, connect_timeout: float) -> Any:
    """A connected client, after checking that a worker is there and that every worker
    runs this novikoff version; InputError naming the address otherwise."""
    distributed = _require_distributed()
    where = f"--executor {spec}"
    _probe_dask(spec, connect_timeout, where)
    try:
        client = distributed.Client(spec.address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise InputError(
            f"{where}: cannot reach the Dask scheduler at {spec.address} within {connect_timeout:g} s ({exc})"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=connect_timeout)
        except (OSError, TimeoutError):
            raise InputError(
                f"{where}: the scheduler at {spec.address} has no worker after {connect_timeout:g} s"
            ) from None
        try:
            versions = client.run(installed_version)
        except Exception as exc:
            raise InputError(
                f"{where}: cannot run novikoff on the workers (is it installed there?): "
                f"{type(exc).__name__}: {exc}"
            ) from None
        mine = installed_version()
        other = sorted(f"{w} has {v}" for w, v in versions.items() if v != mine)
        if other:
            raise InputError(f"{where}: workers run another novikoff than this {mine}: {'; '.join(other)}")
    except BaseException:
        client.close()
        raise
    return client


def dask_client(spec: ExecutorSpec, connect_timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Any:
    """A client of ``spec``'s Dask scheduler, connected after the checks :func:`run_until_first`
    makes (a worker is there within ``connect_timeout`` seconds, every worker runs this
    novikoff); InputError naming the address otherwise. The caller closes it."""
    return _dask_client(spec, connect_timeout)


def run_until_first(
    spec: ExecutorSpec,
    fn: Callable[..., R],
    shard_args: Sequence[tuple[Any, ...]],
    *,
    is_hit: Callable[[R], bool],
    timeout: float | None = None,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
) -> ShardOutcome[R]:
    """Run ``fn(*args)`` for every ``args`` in ``shard_args`` on ``spec``'s executor.

    Returns as soon as a result satisfies ``is_hit`` (called here, in this process, on
    each result as it arrives), with every other shard cancelled; otherwise when all
    shards have returned; or, if ``timeout`` seconds pass first, with ``timed_out`` set
    and every shard still running cancelled. ``fn`` must be pickled by reference (see
    the module docstring).

    Raises :class:`ShardError` naming the shard, its call and where it ran when a shard
    raised or its worker died (the other shards are cancelled), and :class:`InputError`
    naming the address when the Dask scheduler cannot be reached within
    ``connect_timeout`` seconds, has no worker, or a worker lacks this novikoff version.
    The Dask client is closed and local children are killed on every path (interrupts
    included).
    """
    if not shard_args:
        return ShardOutcome(0)
    if spec.kind == "local":
        executor: cf.Executor = _LocalExecutor()
        client = None
        where = "in a local process"
    else:
        client = _dask_client(spec, connect_timeout)
        executor = _DaskExecutor(client)
        where = f"on the Dask cluster at {spec.address}"
    futures: dict[cf.Future[R], int] = {}
    try:
        for index, args in enumerate(shard_args):
            futures[executor.submit(fn, *args)] = index
        return _collect(futures, fn, shard_args, is_hit, timeout, where)
    finally:
        for future in futures:
            future.cancel()
        try:
            executor.shutdown(wait=False, cancel_futures=True)  # kills the children / cancels the tasks
        finally:
            if client is not None:
                client.close()


def _collect(
    futures: dict[cf.Future[R], int],
    fn: Callable[..., R],
    shard_args: Sequence[tuple[Any, ...]],
    is_hit: Callable[[R], bool],
    timeout: float | None,
    where: str,
) -> ShardOutcome[R]:
    count = len(shard_args)
    results: dict[int, R] = {}
    end = None if timeout is None else time.monotonic() + timeout
    pending = set(futures)
    while pending:
        left = None if end is None else max(0.0, end - time.monotonic())
        done, pending = cf.wait(pending, timeout=left, return_when=cf.FIRST_COMPLETED)
        if not done:
            return ShardOutcome(count, results, timed_out=True)
        for future in sorted(done, key=futures.__getitem__):
            index = futures[future]
            call = _describe_call(fn, shard_args[index])
            exc = future.exception()
            if exc is not None:
                problem = str(exc) if isinstance(exc, ChildFailed) else f"{type(exc).__name__}: {exc}"
                raise ShardError(index, count, call, where, problem) from exc
            value = future.result()
            results[index] = value
            if is_hit(value):
                return ShardOutcome(count, results, hit_shard=index)
    return ShardOutcome(count, results)
