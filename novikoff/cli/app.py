"""The ``novikoff`` command line.

Exit status: 0 success (separable or not); 1 an invariant or certificate check
failed (a bug or a false theorem: never bad input), a bound the user set
(--time-limit) stopped the command, or an internal error (a bug; one line, the
traceback with NOVIKOFF_TRACEBACK=1); 2 bad input or usage (or output that cannot be
written), with a one-line message naming the file, line and column or the argument;
130 on SIGINT (Ctrl-C), 143 on SIGTERM, 129 on SIGHUP, each with a one-line message.
``prove`` has two more: 3 the bound is open, 4 proved by the Python checker only (no Coq);
its 1 is a counterexample, and ``falsify``'s too.
With --json, stdout holds one standard JSON object even then: {"error": ..., "exit_code": ...}.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any

from novikoff.commands import register_all
from novikoff.commands.options import OutputMode, Parser, printable
from novikoff.errors import CertificateError, InvariantViolation, NovikoffError
from novikoff.runtime.jsonout import error_json
from novikoff.runtime.limits import (
    Terminated,
    TimeLimitReached,
    current_phase,
    deadline,
    failed_phase,
    termination_signals,
)
from novikoff.runtime.parallel import kill_children

__all__ = ["DEPRECATED_COMMANDS", "build_parser", "main"]

#: Old command names still accepted, hidden from ``--help``: old name -> the command's name.
DEPRECATED_COMMANDS: dict[str, str] = {"seed-tables": "textbook-tables"}


class _Version(argparse.Action):
    """``--version``: prints ``novikoff VERSION`` and exits 0; the version (importlib.metadata,
    ~30 ms) is looked up only when the option is given, not at every start."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from novikoff import __version__

        sys.stdout.write(f"{parser.prog} {__version__}\n")  # stdout, as argparse's version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The whole ``novikoff`` argument parser: one sub-parser per module of :mod:`novikoff.commands`,
    each with its ``handler``."""
    parser = Parser(prog="novikoff", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    register_all(sub)
    return parser


def _one_line(text: str, limit: int = 2000) -> str:
    """``text`` as one line (non-printable characters escaped), at most ``limit`` characters."""
    line = printable(str(text).strip())
    return line if len(line) <= limit else line[: limit - 3] + "..."


class _Reported:
    """Whether a failure was reported: a command reports at most one (a signal that arrives
    while a reported failure is being cleaned up says nothing more)."""

    code: int | None = None
    leave_at_once = False


def _fail(prefix: str, message: str, code: int, **extra: Any) -> int:
    """Report a failure: one line on stderr, and the error object on stdout under --json;
    only the first failure of a command is reported (its code is kept)."""
    if _Reported.code is not None:
        return _Reported.code
    _Reported.code = code
    message = _one_line(message)
    if OutputMode.json:
        try:
            print(error_json(message, code, **extra), flush=True)
        except OSError:
            pass
    print(f"novikoff: {prefix}{message}", file=sys.stderr, flush=True)
    return code


def _run_command(args: argparse.Namespace) -> int:
    """The command with its exceptions mapped to exit statuses (see the module docstring)."""
    try:
        if getattr(args, "max_memory", None) is not None:
            from novikoff.runtime.bounded import set_memory_budget

            set_memory_budget(args.max_memory)
        with deadline(args.time_limit, lambda: TimeLimitReached(args.time_limit)):
            code = int(args.handler(args))
        sys.stdout.flush()
        return code
    except InvariantViolation as exc:
        return _fail("INVARIANT FAILED: ", str(exc), 1)
    except CertificateError as exc:
        return _fail("CERTIFICATE CHECK FAILED: ", str(exc), 1)
    except NovikoffError as exc:
        from novikoff.fuzz.bounds import BoundSyntaxError

        # a bound's message points at the column on two more lines: the CLI keeps the first
        message = str(exc).split("\n", 1)[0] if isinstance(exc, BoundSyntaxError) else str(exc)
        return _fail("error: ", message, 2)
    except TimeLimitReached as exc:
        return _fail(
            "",
            f"{exc} (the command did not finish; raise the limit or pass --time-limit 0)",
            1,
            stopped_by="time_limit",
        )
    except RecursionError:
        return _fail("error: ", "input nested too deeply (RecursionError)", 2)
    except MemoryError:
        _Reported.leave_at_once = True  # freeing what filled the memory can take longer than the run
        during = failed_phase() or current_phase()
        where = f" during {during}" if during else ""
        return _fail(
            "error: ",
            f"out of memory{where} (lower --max-updates, --max-epochs or the input size, "
            "or raise --max-memory)",
            2,
            stopped_by="memory",
        )
    except OSError as exc:
        if exc.errno in (errno.EPIPE, errno.ENOSPC, errno.EDQUOT) or isinstance(exc, BrokenPipeError):
            return _output_failed(exc)  # stdout gone (broken pipe) or full
        where = f" {exc.filename}" if exc.filename else ""
        return _fail("error: ", f"{exc.strerror or exc}{where}", 2)
    except Exception as exc:  # a bug in novikoff: one line, exit 1; the traceback on request
        if os.environ.get("NOVIKOFF_TRACEBACK"):
            raise
        return _fail(
            "INTERNAL ERROR (a bug in novikoff; NOVIKOFF_TRACEBACK=1 shows the traceback): ",
            f"{type(exc).__name__}: {exc}",
            1,
        )
    finally:
        kill_children()


def _output_failed(exc: OSError) -> int:
    """stdout could not be written: one line on stderr if it still works, exit 2, no traceback."""
    try:  # later flushes (at exit) must not fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    try:
        print(f"novikoff: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return 2


def _renamed(words: list[str]) -> list[str]:
    """``words`` with a deprecated command name (:data:`DEPRECATED_COMMANDS`, the first word
    that is not an option) replaced by the command's name, saying so on stderr."""
    for i, word in enumerate(words):
        if word.startswith("-"):
            continue
        if word in DEPRECATED_COMMANDS:
            new = DEPRECATED_COMMANDS[word]
            print(f"novikoff: {word!r} is deprecated, use {new!r}", file=sys.stderr, flush=True)
            return [*words[:i], new, *words[i + 1 :]]
        break
    return words


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (see the module docstring). Never raises but for
    argparse's own exits (--help, usage errors: SystemExit 0 or 2)."""
    words = _renamed(list(sys.argv[1:] if argv is None else argv))
    OutputMode.json = "--json" in words
    _Reported.code = None
    _Reported.leave_at_once = False
    failed_phase()  # forget a previous command's (main may be called again in one process)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # exact results may have more than 4300 digits
    try:
        with termination_signals():
            parser = build_parser()
            args = parser.parse_args(words)
            code = _run_command(args)
    except Terminated as exc:
        kill_children()
        code = _fail("", f"{exc}; stopped, no result", exc.exit_code)
    except KeyboardInterrupt:
        kill_children()
        code = _fail("", "interrupted (SIGINT); stopped, no result", 130)
    except OSError as exc:
        code = _output_failed(exc)
    if argv is None and (code >= 128 or _Reported.leave_at_once):
        # a signal or out of memory: leave at once, without interpreter teardown
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code
