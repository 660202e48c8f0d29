"""The garbage collector's settings for the table server (issue 60).

Every pass of the collector stops the event loop for as long as it takes to walk the objects
of the generations it collects, about a microsecond each on the 2-core machine of
docs/server.md. With 2,000 tables (4,000 connections, each with its tasks, futures and
buffers, and every table's game) a full pass walked some 500,000 objects: 0.2 to 0.5 s, a few
times a minute. A table server makes almost no cyclic garbage (a full pass after minutes of
play found none): what it drops, reference counting frees. So the server:

- collects once at start-up, after its tables are restored, and freezes what survives (the
  modules, the restored tables): no later pass walks them;
- runs no automatic full pass;
- keeps the young passes short: a step's objects live about as long as the step (seconds),
  so many survive a young pass, and the middle generation, which a middle pass walks whole,
  grew to 50,000 objects (50 ms) with CPython's thresholds (700, 10); with (500, 3) it stays
  under about 15,000;
- makes no cyclic garbage of its own that lives long enough to reach the old generation:
  the one cycle a closed line left (asyncio's socket transport on Python 3.10 and 3.11,
  CPython gh-100348) is broken when the line closes (lines.Line), so a server that played
  1,000 tables and closed all their lines leaves nothing a full pass would find
  (benchmarks/server_load.py reports it: `cycles_left`). So it runs no full pass at all,
  and no pause grows with the number of tables;
- except on Python 3.10, where websockets' cancelled keep-alive task still leaves a cycle
  with every closed line: there it sweeps the old generation itself every `SWEEP_S`
  seconds (one full pause, 0.35 s at 2,000 tables, every ten minutes rather than several
  times a minute), so memory does not grow without bound.

`settle` does all of this and returns what undoes it (for tests, and a clean shut-down).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from dataclasses import dataclass, field

# The name its lines have always had (`--log-json`'s "logger"), whatever its module's path.
LOG = logging.getLogger("sudden_death.server.collector")

YOUNG = 500  # allocations between young passes (CPython's default: 700)
MIDDLE = 3  # young passes between middle-generation passes (the default: 10)
NO_FULL = 1_000_000_000  # middle passes between automatic full ones: never, in practice
SWEEP_S = 600.0  # seconds between the server's own full collections, where it needs them


def sweep_needed() -> float | None:
    """Seconds between full sweeps on this Python: None where the server leaves no cycles
    (3.11 and later, with lines.Line), `SWEEP_S` on 3.10 (see the module's docstring)."""
    return SWEEP_S if sys.version_info < (3, 11) else None


@dataclass
class Settled:
    """The collector as `settle` left it, with what it was before, so it can be undone."""

    thresholds: tuple[int, int, int]
    frozen: int  # objects frozen at start-up (left out of every later collection)
    sweeps: int = 0
    swept: int = 0  # unreachable objects the sweeps found (cycles freed)
    longest_sweep_s: float = 0.0
    _timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def sweep(self) -> int:
        """One full collection now; the unreachable objects it found."""
        started = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - started
        self.sweeps, self.swept = self.sweeps + 1, self.swept + found
        self.longest_sweep_s = max(self.longest_sweep_s, took)
        LOG.debug("full collection: %d unreachable, %.1f ms", found, took * 1000)
        return found

    def undo(self) -> None:
        """The collector as it was before `settle`: its thresholds, nothing frozen, no sweep
        to come."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.unfreeze()
        gc.set_threshold(*self.thresholds)


def settle(loop: asyncio.AbstractEventLoop | None = None, sweep_s: float | None = None,
           young: int = YOUNG) -> Settled:
    """Set the collector for a long-running server (see the module's docstring): call it once
    the service is built and its tables restored. With `loop` and `sweep_s`, a full sweep
    runs on it every `sweep_s` seconds (pass `sweep_needed()`: none on Python 3.11 and
    later); otherwise the caller sweeps (`Settled.sweep`) or nothing ever does."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    settled = Settled(thresholds=(before[0], before[1], before[2]),
                      frozen=gc.get_freeze_count())
    gc.set_threshold(young, MIDDLE, NO_FULL)
    if loop is not None and sweep_s is not None:
        def again() -> None:
            settled.sweep()
            settled._timer = loop.call_later(sweep_s, again)

        settled._timer = loop.call_later(sweep_s, again)
    return settled
