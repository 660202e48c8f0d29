"""psycopg-pool's warnings said once an outage (issue 70), not one a connection attempt.

While the database is away the pool logs a warning at each of its attempts to connect, and at
each connection it discards: 84 lines in a 5 s outage, which bury the server's own two (writes
wait; none does any more). The first warning of a run is kept, with a note that the rest are
left out; the others are dropped until the pool has been quiet for QUIET_S, when the next is
a new outage's first. The server's own lines say when the tables can be written again.
Imported by the PostgreSQL stores only (psycopg is the server extra's).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["OncePerOutage", "quieted"]

POOL_LOGGER = "psycopg.pool"
QUIET_S = 300.0  # the pool's own reconnection gives up after 5 minutes: a longer gap is news


class OncePerOutage(logging.Filter):
    """Passes the first warning of each run of them (a run ends after `quiet_s` without one),
    noting that the rest of the run is left out; records below WARNING pass as they are."""

    def __init__(self, quiet_s: float = QUIET_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.quiet_s = quiet_s
        self.clock = clock
        self.last = -float("inf")  # the last warning's time, said or not
        self.left_out = 0  # warnings dropped since the last one said

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        now = self.clock()
        new_run = now - self.last >= self.quiet_s
        self.last = now
        if not new_run:
            self.left_out += 1
            return False
        record.msg = f"{record.msg} (the database's pool: its further warnings until it has " \
                     f"been quiet for {self.quiet_s:g} s are left out of the log)"
        self.left_out = 0
        return True


def quieted(logger: logging.Logger | None = None) -> OncePerOutage:
    """The pool's logger given a OncePerOutage filter (one, however many stores open)."""
    logger = logger or logging.getLogger(POOL_LOGGER)
    for each in logger.filters:
        if isinstance(each, OncePerOutage):
            return each
    once = OncePerOutage()
    logger.addFilter(once)
    return once
