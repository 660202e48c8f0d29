"""Which tables are this server's to play, in the store's claims: the tables restored at
start-up (each seat away until it resumes), a new table's code claimed, a lost process's
table taken over (a cluster's, `--valkey`), a table this one was fenced out of let go, and
every table handed over on a clean stop.

It never greets a seat or tells a step (greeting.py, seat_life.py, table_steps.py): it
decides which tables are here, and hands a restored seat's wait to the seat's life.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import partial

from ...engine.state import Team
from ...wire import protocol as p
from ..lines.line import MOVED, MOVED_REASON, close_soon
from ..lines.try_again import TryAgain, soon
from ..stores.keeping import STORE_ERRORS
from ..stores.seam import answered
from ..tables import Table
from .seat_book import SeatBook
from .table_steps import TableSteps

LOG = logging.getLogger("sudden_death.server")
CLAIM_TRIES = 20  # new codes tried when another server sharing the store holds one


@dataclass(eq=False)  # by identity: it and its record (the Seats) hold each other
class Claims:
    """The claims of the tables in `book`; `wait_for`: a restored seat waited for this long
    (seat_life.SeatLife.wait_for)."""

    book: SeatBook
    steps: TableSteps
    wait_for: Callable[[Table, Team, float], None]

    def restore(self) -> Awaitable[None] | None:
        """The stored tables, each seat away until it resumes (call inside the loop). Done
        when it returns None (the embedded store answers at once); with a store whose calls
        are awaited (a database server's), done once the awaitable it returns completes."""
        book = self.book
        if book.store is None:
            return None
        found = book.store.open_tables()
        if isinstance(found, Awaitable):
            return self._restore_awaited(found)
        now = book.clock()
        for index, table in enumerate(found):
            held = book.store.claim(table.code, book.owner)
            if isinstance(held, Awaitable):
                return self._restore_awaited(found[index:], held)
            self._restored(table, held, now)
        LOG.info("%d tables restored", len(book.tables))
        return None

    async def _restore_awaited(self, found: list[Table] | Awaitable[list[Table]],
                               held: Awaitable[bool] | None = None) -> None:
        """`restore` with a store whose answers are awaited: `held` is the first table's
        claim when it was already asked."""
        book = self.book
        assert book.store is not None
        tables = await answered(found)
        now = book.clock()
        for table in tables:
            self._restored(table, await answered(
                book.store.claim(table.code, book.owner) if held is None else held), now)
            held = None
        LOG.info("%d tables restored", len(book.tables))

    async def adopt(self, code: str, lost: str) -> bool:
        """The table `code` of the lost server `lost` (a cluster's process whose lease ran
        out) taken over and played here from its store, its seats away until they resume,
        as after a restart; False when another server took it first, it has ended, or this
        one is draining. TryAgain (try_again.py) when the store cannot say within a second,
        never "no such table": the take-over goes on meanwhile (a claim moved must be followed
        by the table read here), and the greeting's next try finds the table here."""
        book = self.book
        if book.store is None or code in book.tables or book.draining:
            return code in book.tables
        adopting = book.adopting.get(code)
        if adopting is None:
            adopting = book.adopting[code] = asyncio.ensure_future(self._adopt(code, lost))
            adopting.add_done_callback(partial(self._adopted, code))
        return await soon(lambda: asyncio.shield(adopting), "take the table over")

    def _adopted(self, code: str, done: asyncio.Future[bool]) -> None:
        """A take-over ended: forgotten, its failure taken (said in the log by `_adopt`)."""
        self.book.adopting.pop(code, None)
        if not done.cancelled():
            done.exception()

    async def _adopt(self, code: str, lost: str) -> bool:
        book = self.book
        assert book.store is not None
        try:
            if not await answered(book.store.take_over(code, book.owner, lost)):
                return False
            table = await answered(book.store.table(code))
        except STORE_ERRORS as error:
            book.keeper.failed(error)
            raise
        if table is None or code in book.tables:
            return code in book.tables
        LOG.info("table %s taken over from %s, a server process lost or stopped", code, lost)
        book.moved.discard(code)  # taken back, after its taker was lost in turn
        self._restored(table, True, book.clock())
        return True

    def _restored(self, table: Table, held: bool, now: float) -> None:
        """A stored table played here again, if this server holds it."""
        if not held:
            LOG.info("table %s is played by another server (%s)", table.code, self.book.owner)
            return
        self.book.tables[table.code] = table
        for team, seat in table.seats.items():
            # A seat whose line dropped before the restart is waited for from then; one
            # still connected when the server stopped, from now.
            if seat.away_since is None:
                seat.away_since = now
            self.wait_for(table, team, max(0.0, table.seat_wait_s - (now - seat.away_since)))

    async def claimed_code(self) -> str:
        """A new table's code, claimed for this server in the store: another server sharing
        the store may hold a code this one has never seen."""
        book = self.book
        for _ in range(CLAIM_TRIES):
            code = _new_code([*book.tables, *book.claiming])
            if book.store is None:
                return code
            if book.keeper.away():  # a database away: refused at once, not after a wait
                break
            # Not handed to another new table while its claim is awaited (a database's).
            book.claiming.add(code)
            store = book.store
            try:
                if await soon(partial(store.claim, code, book.owner), "keep a new table",
                              p.NO_ROOM):
                    return code
            except TryAgain as error:
                if isinstance(error.__cause__, STORE_ERRORS):
                    book.keeper.failed(error.__cause__)
                raise
            finally:
                book.claiming.discard(code)
        raise TryAgain("the server cannot keep a new table now; try again later", p.NO_ROOM)

    def taken_over(self, code: str) -> None:
        """Table `code`'s save was fenced (stores.TakenOver): another process took it over
        while this one was stalled past its lease, so it is no longer played here. Dropped
        from memory, nothing released or kept as ended (this process's copy is not the
        table's), and its seats' and spectators' lines closed with 1013: each game
        reconnects by itself, and its route leads it to the process that plays the table."""
        book = self.book
        if book.tables.get(code) is None:
            return
        book.moved.add(code)
        for key in [key for key in book.connections if key[0] == code]:
            close_soon(book.connections.pop(key), book.closing, MOVED, MOVED_REASON)
        self.steps.forget(code, MOVED)

    def hand_over(self) -> list[str]:
        """A clean stop in a cluster (draining.py): every open table let go of as one taken
        over is (`taken_over`), its seats' and spectators' lines closed with 1013 to try
        again, nothing more of it played here; its writes already made are still awaited by
        the keeper, and its claim stays this process's in the store until the process a seat
        reaches next takes it over (relay.holder_of). From now no table is opened or taken
        over here. Returns the codes let go of."""
        self.book.draining = True
        codes = list(self.book.tables)
        for code in codes:
            self.taken_over(code)
        return codes


def _new_code(taken: Iterable[str]) -> str:
    used = set(taken)
    while True:
        code = f"{secrets.randbelow(10 ** p.CODE_DIGITS):0{p.CODE_DIGITS}d}"
        if code not in used:
            return code
