"""Stopping a background task for certain, on every Python the server runs on.

Why not `task.cancel(); await task`: on Python 3.10 a cancellation can be lost. `asyncio.wait_for`
returns the awaited result when it arrives at the same moment as the cancellation, and the
`async-timeout` package that redis-py uses there can turn a cancellation into a TimeoutError,
which a loop that outlives an outage catches and goes on. A close that awaited such a task once
would wait for ever (seen in CI: a lobby's close hung until the test's 60 s timeout). So the
task is cancelled again until it ends, and given up on (said in the log) after `patience_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

__all__ = ["stop"]

LOG = logging.getLogger("sudden_death.server")

AGAIN_S = 0.5  # a task still running this long after a cancellation is cancelled again
# (long enough for its own clean-up, which a second cancellation would cut short)


async def stop(task: asyncio.Task[Any], patience_s: float = 5.0) -> bool:
    """Cancel `task` until it has ended (True), or `patience_s` has passed (False, logged).
    What the task raised is retrieved and dropped: it was being stopped."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + patience_s
    while not task.done():
        left = ends - loop.time()
        if left <= 0:
            LOG.error("a background task (%s) did not stop when asked: left running",
                      task.get_name())
            return False
        task.cancel()
        await asyncio.wait({task}, timeout=min(AGAIN_S, left))
    if not task.cancelled():
        with contextlib.suppress(Exception):
            task.exception()
    return True
