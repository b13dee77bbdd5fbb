"""The vectorized scan-with-restart shared by the perceptron twins (float and exact integer).

Within an epoch the scan asks for the decision values of a block of upcoming
samples (one matrix-vector product), reports the first sample whose value is
``<= 0`` and restarts right after it once the caller has updated the weights.
No value computed after the first mistake of a block is ever used, so the
reported sequence is exactly that of the sample-by-sample loop, given the same
decision values. After an update the next block is about twice the recent
distance between mistakes; blocks double while no mistake is found, so a clean
epoch costs about one ``Z @ w`` pass and a busy one a few small products per update.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

__all__ = ["BlockScan"]

_FIRST_BLOCK = 16


class BlockScan:
    """Block sizes carried across epochs; :meth:`epoch` yields the mistakes of one epoch."""

    def __init__(self) -> None:
        self.gap = float(_FIRST_BLOCK)
        self.first = _FIRST_BLOCK

    def epoch(self, m: int, values: Callable[[int, int], Any], start: int = 0) -> Iterator[tuple[int, Any]]:
        """Yield ``(j, value)`` for each mistake at position j (start <= j < m) of the epoch's
        presentation, in order; ``values(a, b)`` must return the decision values of positions
        a..b-1 at the *current* weights (the caller updates them before resuming)."""
        pos, block, last = start, self.first, start
        while pos < m:
            chunk = values(pos, min(pos + block, m))
            hits = np.flatnonzero(chunk <= 0)
            if hits.size == 0:
                pos += block
                block = min(2 * block, m)
                continue
            j = pos + int(hits[0])
            yield j, chunk[hits[0]]
            # next block: about twice the recent distance between mistakes
            self.gap = 0.75 * self.gap + 0.25 * (j + 1 - last)
            last = j + 1
            pos, block = j + 1, max(_FIRST_BLOCK, int(2 * self.gap))
        self.first = max(_FIRST_BLOCK, int(2 * self.gap))
