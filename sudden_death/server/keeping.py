"""Writes before words: each change of a table is in the store before any seat hears of it,
and a table's changes are told in the order they were made.

The tables store's `save` either writes at once and returns None (the embedded SQLite
store: well under a millisecond, on the loop, so no task per step) or returns an awaitable
that completes when the write is durable (a database server's). `Keeper.keep` runs what
tells the seats at once in the first case, with nothing queued; otherwise after the write,
and after every earlier change of the same table has been told. A write that fails is said
in the log once; the table goes on in memory (nothing played is lost from the game), and
`failing` refuses new tables until a write succeeds again. It never sends anything itself.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from .stores import StoreError
from .tables import Table

LOG = logging.getLogger("sudden_death.server")
# What a store raises when it cannot write (a full disk, a broken file, a database away:
# StoreError, raised from the database driver's error); anything else is a mistake in the
# server, and is not hidden as a storage failure.
STORE_ERRORS = (sqlite3.Error, OSError, StoreError)


class Saving(Protocol):
    def save(self, table: Table) -> Awaitable[None] | None:
        """Keep `table` as it is now: done when this returns None, or when the awaitable it
        returns completes. Raises one of STORE_ERRORS when it cannot."""


def _nothing() -> None:
    return None


@dataclass
class Keeper:
    store: Saving | None
    failing: bool = False  # the last write failed
    # Per table, the changes written or being written whose words wait: (write, tell).
    queues: dict[str, deque[tuple[Awaitable[None] | None, Callable[[], None]]]] = \
        field(default_factory=dict)
    drains: set[asyncio.Task[None]] = field(default_factory=set)

    def keep(self, table: Table, tell: Callable[[], None] = _nothing) -> None:
        """Write `table`, then `tell` (the seats, the spectators, the lobby) once it is kept
        and every earlier change of this table has been told."""
        written = self._write(table)
        if written is None and not self.queues.get(table.code):
            tell()
            return
        self._queued(table.code, written, tell)

    def after(self, code: str, written: Awaitable[None]) -> None:
        """Await a write of the store's other than a save (a claim let go) after every write
        of table `code` made before it, so it never overtakes them; nothing is told."""
        self._queued(code, written, _nothing)

    def _queued(self, code: str, written: Awaitable[None] | None,
                tell: Callable[[], None]) -> None:
        queue = self.queues.get(code)
        if queue is None:
            queue = self.queues[code] = deque()
            drain = asyncio.ensure_future(self._drain(code, queue))
            self.drains.add(drain)  # a reference until done, so the task is not collected
            drain.add_done_callback(self.drains.discard)
        queue.append((written, tell))

    async def kept(self, table: Table) -> bool:
        """Write `table` and wait until it is kept (after the table's earlier changes); False
        when the store could not keep it."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def told() -> None:
            if not done.done():
                done.set_result(not self.failing)

        self.keep(table, told)
        return done.result() if done.done() else await done

    def _write(self, table: Table) -> Awaitable[None] | None:
        if self.store is None:
            return None
        try:
            written = self.store.save(table)
        except STORE_ERRORS as error:
            self.failed(error)
            return None
        if written is None:
            self._succeeded()
        return written

    async def _drain(self, code: str,
                     queue: deque[tuple[Awaitable[None] | None, Callable[[], None]]]) -> None:
        try:
            while queue:
                written, tell = queue[0]
                if written is not None:
                    try:
                        await written
                    except STORE_ERRORS as error:
                        self.failed(error)
                    else:
                        self._succeeded()
                queue.popleft()
                tell()
        finally:
            self.queues.pop(code, None)

    async def settled(self) -> None:
        """Every write handed over so far done (and its words told): before the store closes,
        so a server stopping loses nothing it had accepted. At once with the embedded store,
        which leaves nothing pending."""
        while self.drains:
            await asyncio.gather(*self.drains, return_exceptions=True)

    def failed(self, error: BaseException) -> None:
        """The store could not write (a claim, a save): said once, until it can again."""
        if not self.failing:
            LOG.error("the data folder cannot be written (%s): open tables go on in memory "
                      "only, and no new table is opened until it can", error)
        self.failing = True

    def _succeeded(self) -> None:
        if self.failing:
            LOG.warning("the data folder can be written again")
        self.failing = False
