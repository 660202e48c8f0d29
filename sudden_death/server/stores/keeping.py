"""Writes before words: each change of a table is in the store before any seat hears of it,
and a table's changes are told in the order they were made.

The tables store's `save` either writes at once and returns None (the embedded SQLite
store: well under a millisecond, on the loop, so no task per step) or returns an awaitable
that completes when the write is durable (a database server's). `Keeper.keep` runs what
tells the seats at once in the first case, with nothing queued; otherwise after the write,
and after every earlier change of the same table has been told.

A write that fails is said in the log once. With the embedded store (a full or broken disk)
the table goes on in memory (nothing played is lost from the game) and `failing` refuses new
tables until a write succeeds again. A database server's write that fails (the database
restarting, or away) is tried again, with a fresh save of the table, after 0.2 s, then twice
as long each time up to 1 s (so play goes on within about a second of the database's return),
for as long as it takes: the change's words wait, so no seat
ever hears of a step the database does not have, and `on_busy` tells the table's seats and
spectators once that it is busy (when a write fails, or is still not done after 1 s), and
once that it is back. A fresh save holds every change
queued before it, so those are then told together, in order. It never sends anything itself.

A change no seat depends on being kept (a held choice, which the seat's game sends again
to a server that lost it; a rematch asked, which no record keeps) is told at once instead
(`defer`), and written when the store sees fit (stores.TableStore.defer): with a database
server's store, in another save's transaction, so a card step at a light load costs one
commit rather than two.

A save is fenced with the seats' `owner` (stores.TableStore.save): one refused with
stores.TakenOver (another process took the table over while this one stalled past its lease)
is final, not an outage: never tried again, never said as busy, and none of the table's
waiting changes is told (each dropped, its `refused` called); `on_taken` hands the table's
code to the seats, which drop it and close its lines to try again.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, cast

from ..tables import Table
from .seam import StoreError, TakenOver

LOG = logging.getLogger("sudden_death.server")
# What a store raises when it cannot write (a full disk, a broken file, a database away:
# StoreError, raised from the database driver's error); anything else is a mistake in the
# server, and is not hidden as a storage failure.
STORE_ERRORS = (sqlite3.Error, OSError, StoreError)


class Saving(Protocol):
    def save(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        """Keep `table` as it is now: done when this returns None, or when the awaitable it
        returns completes. Raises one of STORE_ERRORS when it cannot (TakenOver when `owner`
        no longer holds the table)."""

    def defer(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        """Keep `table` when it suits the store (stores.TableStore.defer): done when this
        returns None; else the awaitable completes once written or replaced, never
        raising."""


def _nothing() -> None:
    return None


FIRST_RETRY_S = 0.2  # a database server's failed write is tried again after this...
LONGEST_RETRY_S = 1.0  # ...then twice as long each time, up to this
BUSY_AFTER_S = 1.0  # a write not done after this long is said as busy, failed or not


@dataclass
class _Change:
    """A change of a table in its queue: its write (None: already done), what tells it, and
    the table, which is saved afresh if the write fails (None: nothing to save again)."""

    written: Awaitable[None] | None
    tell: Callable[[], None]
    table: Table | None = None
    refused: Callable[[], None] = _nothing  # called instead of `tell`: the table taken over


@dataclass
class Keeper:
    store: Saving | None
    failing: bool = False  # the last write failed
    # Per table, the changes written or being written whose words wait.
    queues: dict[str, deque[_Change]] = field(default_factory=dict)
    drains: set[asyncio.Task[None]] = field(default_factory=set)
    deferred: set[asyncio.Future[None]] = field(default_factory=set)  # the store's, unwritten
    # A table's seats and spectators hear that the server is busy (True), then back (False).
    on_busy: Callable[[str, bool], None] = field(default=lambda code, busy: None)
    busy: set[str] = field(default_factory=set)  # tables whose writes are being tried again
    first_retry_s: float = FIRST_RETRY_S
    busy_after_s: float = BUSY_AFTER_S
    owner: str | None = None  # whose claim fences the saves (None: unfenced)
    # A table's save was refused, its claim another's: the seats drop it (Seats.taken_over).
    on_taken: Callable[[str], None] = field(default=lambda code: None)
    closed: bool = False  # the server has stopped: nothing more is written (`close`)

    def keep(self, table: Table, tell: Callable[[], None] = _nothing) -> None:
        """Write `table`, then `tell` (the seats, the spectators, the lobby) once it is kept
        and every earlier change of this table has been told; a database server's write is
        tried again until it is kept (see the module's docstring)."""
        self._keep(table, tell, patient=True)

    def defer(self, table: Table, tell: Callable[[], None] = _nothing) -> None:
        """A change no seat depends on being kept (see the module's docstring), told at once
        and written when the store sees fit. Behind changes of the table still waiting it is
        kept as any other (`keep`): its words keep their place, and the store never has two
        of one table's writes in hand at once."""
        if self.closed or self.store is None or self.queues.get(table.code):
            self.keep(table, tell)
            return
        try:
            deferred = self.store.defer(table, self.owner)
        except TakenOver as error:
            self._taken(table.code, error)
            return
        except STORE_ERRORS as error:  # the embedded store's, writing at once
            self.failed(error)
            deferred = None
        else:
            if deferred is None:
                self._succeeded()
        if deferred is not None:
            waiting = asyncio.ensure_future(deferred)
            self.deferred.add(waiting)  # awaited by `settled`, so a clean stop writes it
            waiting.add_done_callback(self.deferred.discard)
        tell()

    def close(self) -> None:
        """No write from now (the server has stopped and its store closes): a change made
        after this is dropped untold, and said in the log, never left for a closed store."""
        self.closed = True

    def _keep(self, table: Table, tell: Callable[[], None], patient: bool,
              refused: Callable[[], None] = _nothing) -> None:
        if self.closed:
            LOG.warning("table %s changed after the server stopped: not kept", table.code)
            refused()
            return
        try:
            written = self._write(table)
        except TakenOver as error:
            refused()
            self._taken(table.code, error)
            return
        if written is None and not self.queues.get(table.code):
            tell()
            return
        self._queued(table.code, _Change(written, tell, table if patient else None, refused))

    def after(self, code: str, written: Awaitable[None]) -> None:
        """Await a write of the store's other than a save (a claim let go) after every write
        of table `code` made before it, so it never overtakes them; nothing is told."""
        if self.closed:
            _drop(written)
            return
        self._queued(code, _Change(written, _nothing))

    def _queued(self, code: str, change: _Change) -> None:
        queue = self.queues.get(code)
        if queue is None:
            queue = self.queues[code] = deque()
            drain = asyncio.ensure_future(self._drain(code, queue))
            self.drains.add(drain)  # a reference until done, so the task is not collected
            drain.add_done_callback(self.drains.discard)
        queue.append(change)

    def away(self) -> bool:
        """Whether the store is away now: some table's writes are being tried again (a
        database's). A greeting that would wait on it is refused at once instead."""
        return bool(self.busy)

    async def caught_up(self, code: str, patience_s: float) -> bool:
        """Whether every change of table `code` handed over so far is kept (and told) within
        `patience_s`; at once when none waits. Changes nothing."""
        if not self.queues.get(code):
            return True
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def told(kept: bool = True) -> None:
            if not done.done():
                done.set_result(kept)

        self._queued(code, _Change(None, told, refused=partial(told, False)))
        try:
            return await asyncio.wait_for(asyncio.shield(done), patience_s)
        except (asyncio.TimeoutError, TimeoutError):
            return False

    async def kept(self, table: Table) -> bool:
        """Write `table` and wait until it is kept (after the table's earlier changes); False
        when the store could not keep it, at once: a greeting is refused, never kept
        waiting on a database that is away."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def told(kept: bool = True) -> None:
            if not done.done():
                done.set_result(kept and not self.failing)

        self._keep(table, told, patient=False, refused=partial(told, False))
        return done.result() if done.done() else await done

    def _write(self, table: Table) -> Awaitable[None] | None:
        if self.store is None:
            return None
        try:
            written = self.store.save(table, self.owner)
        except TakenOver:
            raise
        except STORE_ERRORS as error:
            self.failed(error)
            return None
        if written is None:
            self._succeeded()
        return written

    async def _drain(self, code: str, queue: deque[_Change]) -> None:
        loop = asyncio.get_running_loop()
        try:
            while queue:
                change = queue[0]
                if change.written is not None:
                    # A write still not done after busy_after_s (a database slow, or away
                    # and not yet failing) is said as busy too: the seats hear why they wait.
                    slow = loop.call_later(self.busy_after_s, self._busy, code, True)
                    try:
                        done = await self._done(change.written)
                    finally:
                        slow.cancel()
                    if not queue or queue[0] is not change:
                        break  # dropped meanwhile: the table was taken over
                    if not done and change.table is not None:
                        for _ in range(await self._saved_again(change.table, queue)):
                            queue.popleft().tell()
                        continue
                    self._busy(code, False)
                queue.popleft()
                change.tell()
        except TakenOver as error:
            self._taken(code, error)
        finally:
            self.queues.pop(code, None)
            for change in queue:  # left when the server stops with the database away
                _drop(change.written)

    async def _done(self, written: Awaitable[None]) -> bool:
        try:
            await written
        except TakenOver:
            raise
        except STORE_ERRORS as error:
            self.failed(error)
            return False
        self._succeeded()
        return True

    async def _saved_again(self, table: Table, queue: deque[_Change]) -> int:
        """Save `table` afresh until it is kept, waiting longer each time; how many changes
        at the head of `queue` that save holds (every one queued before it), their own
        writes dropped unawaited."""
        self._busy(table.code, True)
        wait_s = self.first_retry_s
        while True:
            await asyncio.sleep(wait_s)
            wait_s = min(LONGEST_RETRY_S, wait_s * 2)
            held = len(queue)
            written = self._write(table)
            if written is not None and not await self._done(written):
                continue
            if written is None and self.failing:
                continue
            for change in list(queue)[1:held]:  # held by the fresh save: not written again
                _drop(change.written)
                change.written = None
            self._busy(table.code, False)  # back: said before what waited is told
            return held

    def _taken(self, code: str, error: TakenOver) -> None:
        """Table `code`'s save refused, its claim another's: its waiting changes dropped
        untold, and the seats hear it is no longer this process's to play."""
        LOG.warning("%s: this process stalled past its lease and another took the table over; "
                    "it is dropped here and its lines are closed to try again", error)
        queue = self.queues.get(code)
        while queue:
            change = queue.popleft()
            _drop(change.written)
            change.refused()
        if code in self.busy:  # nothing waits for it any more: no steady to tell
            self.busy.discard(code)
            if not self.busy:
                LOG.warning("no table waits on the store any more")
        self.on_taken(code)

    def _busy(self, code: str, busy: bool) -> None:
        """Table `code` waits on its store (or no longer does): said once each way."""
        if busy != (code in self.busy):
            if busy:
                if not self.busy:
                    LOG.warning("the tables' writes are waiting on the store: their seats "
                                "hear that the server is busy")
                self.busy.add(code)
            else:
                self.busy.discard(code)
                if not self.busy:
                    LOG.warning("no table waits on the store any more")
            self.on_busy(code, busy)

    async def settled(self, patience_s: float = 10.0) -> None:
        """Every write handed over so far done (and its words told), deferred ones too:
        before the store closes, or the tables are handed over, so a server stopping loses
        nothing it had accepted. At once with the embedded store, which leaves nothing
        pending. A database still away after `patience_s` is given up on (said in the log):
        its tables' last changes, never told, are played again by the seats when they resume
        on the next server."""
        ends = asyncio.get_running_loop().time() + patience_s
        while self.drains or self.deferred:
            left = ends - asyncio.get_running_loop().time()
            if left <= 0:
                LOG.error("stopping with %d tables' last changes not kept: the database is "
                          "away", len(self.queues) + len(self.deferred))
                for drain in list(self.drains):
                    drain.cancel()
                await asyncio.gather(*self.drains, return_exceptions=True)
                return
            await asyncio.wait(self.drains | self.deferred, timeout=left)

    def failed(self, error: BaseException) -> None:
        """The store could not write (a claim, a save): said once, until it can again."""
        if not self.failing:
            how = ("their changes wait and are tried again" if isinstance(error, StoreError)
                   else "the tables go on in memory only")  # the data folder's SQLite file
            LOG.error("the tables cannot be written (%s): %s; no new table is opened until a "
                      "write succeeds", error, how)
        self.failing = True

    def _succeeded(self) -> None:
        if self.failing:
            LOG.warning("the tables can be written again")
        self.failing = False


def _drop(written: Awaitable[None] | None) -> None:
    """A write never to be awaited: a coroutine closed, a task or future left to finish with
    its outcome taken when it does, so neither is warned of as forgotten."""
    if isinstance(written, asyncio.Future):
        written.add_done_callback(_taken)
        return
    close = getattr(written, "close", None)
    if close is not None:
        cast(Callable[[], None], close)()


def _taken(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()
