"""What the command line keeps and prints of a run: its bounds, a bounded record, a full trace.

Bounds (every run of the CLI has all three; ``--time-limit`` is in :mod:`novikoff.runtime.limits`):

- ``max_epochs``: full passes over the data;
- ``max_updates``: updates. Algorithms that make at most one update per presentation
  (perceptron, pocket, multiclass) apply it as an epoch cap of
  ``max(1, max_updates // m)`` epochs, which guarantees at most ``max(max_updates, m)``
  updates; the large-margin algorithms (whose multiple updates can be huge) stop
  before the update that would exceed it.

Guarantees: :func:`record_json` holds at most ``2 n`` updates whatever the run's
length (the first ``n``, the last ``n`` and the number left out between them);
:func:`write_trace` writes every update, one ``epoch,sample`` line each;
:func:`stopped_by` names the bound that ended a run that did not converge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from novikoff.errors import InputError

__all__ = [
    "DEFAULT_MAX_UPDATES",
    "DEFAULT_RECORD",
    "RunBounds",
    "record_json",
    "stop_text",
    "stopped_by",
    "write_trace",
]

DEFAULT_MAX_UPDATES = 1_000_000
DEFAULT_RECORD = 50


@dataclass(frozen=True)
class RunBounds:
    """The user's bounds on one run (see the module docstring)."""

    max_epochs: int
    max_updates: int

    def epoch_cap(self, samples: int) -> int:
        """Epochs allowed to a one-update-per-presentation algorithm on ``samples`` samples."""
        return max(1, min(self.max_epochs, self.max_updates // max(samples, 1)))


def stopped_by(
    converged: bool, epochs: int, bounds: RunBounds, samples: int, early: str = "", capped: bool = True
) -> str | None:
    """None for a converged run; else ``"max_updates"`` or ``"max_epochs"``: the bound that ended it.

    ``capped``: the run was given :meth:`RunBounds.epoch_cap` epochs (one update per
    presentation). ``early`` is the run's own note when it stopped inside an epoch (the
    large-margin algorithms stop before an update that would pass ``max_updates``).
    """
    if converged:
        return None
    if "max_updates" in early:
        return "max_updates"
    cap = bounds.epoch_cap(samples)
    if capped and cap < bounds.max_epochs and epochs >= cap:
        return "max_updates"
    return "max_epochs"


def record_json(updates: Sequence[tuple[int, int]], n: int) -> dict[str, Any]:
    """The first ``n`` and last ``n`` updates as ``[epoch, sample]`` pairs and how many were left out."""
    total = len(updates)
    if total <= 2 * n:
        return {"first": [[e, i] for e, i in updates], "last": [], "omitted": 0}
    return {
        "first": [[e, i] for e, i in updates[:n]],
        "last": [[e, i] for e, i in updates[total - n :]],
        "omitted": total - 2 * n,
    }


def write_trace(path: str, updates: Sequence[tuple[int, int]]) -> None:
    """Every update as a line ``epoch,sample`` (0-based) under a header; InputError naming --trace."""
    try:
        with open(path, "w", encoding="ascii") as out:
            out.write("epoch,sample\n")
            for e, i in updates:
                out.write(f"{e},{i}\n")
    except OSError as exc:
        raise InputError(f"--trace {path}: {exc.strerror or exc}") from None


def stop_text(stopped: str | None, bounds: RunBounds, samples: int) -> str:
    """What ended a run that did not converge, as the summaries say it: ``--max-epochs E``, or
    for ``--max-updates N`` the epochs it allows (one update at most per presentation, so
    ``max(1, N // m)`` whole epochs: the run may have made far fewer than N updates)."""
    if stopped == "max_updates":
        cap = bounds.epoch_cap(samples)
        return (
            f"--max-updates {bounds.max_updates}: at most {cap} epoch{'' if cap == 1 else 's'} "
            f"of {samples} presentations"
        )
    return f"--max-epochs {bounds.max_epochs}"
