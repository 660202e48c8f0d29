"""A table's steps and its end, on the seats role's side: each change kept before anyone
hears of it, then told to the seats, the spectators, the turn clock and the lobby; a table
that ends released from this server and remembered for a seat that was away; a table gone
forgotten with its timers.

It never greets, seats or waits for anyone (greeting.py, seat_life.py) and never decides a
step (tables.py does): it keeps and tells what it is handed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial

from ...engine.game import Game
from ...engine.state import TEAMS
from ...wire import protocol as p
from ..stores.keeping import STORE_ERRORS
from ..tables import Outgoing, Table, new_game
from .seat_book import SeatBook

LOG = logging.getLogger("sudden_death.server")
ENDED_KEPT = 1000  # ended tables kept in memory for seats that were away (with no store too)


@dataclass(eq=False)  # by identity: it and its record (the Seats) hold each other
class TableSteps:
    """The steps and ends of the tables in `book`."""

    book: SeatBook

    def new_game(self) -> Game:
        """A new game's dice: game n of this server's from seed + n, else the system's."""
        book = self.book
        seed = None if book.seed is None else book.seed + book.opened
        book.opened += 1
        return new_game(seed)

    def commit(self, table: Table, out: Outgoing) -> None:
        """Keep the table, then tell the seats: no seat ever hears of a step the disk does
        not have, so a server killed between the two never goes back behind its players."""
        self.book.keeper.keep(table, partial(self.told, table, out))

    def hold(self, table: Table, out: Outgoing) -> None:
        """A change no seat depends on being kept, told at once: a seat's choice held
        (nobody is told what it is, and the seat's game sends it again should a server
        killed before it was written lose it), a rematch asked (no record keeps it), an
        act refused; the store writes it when it suits it (keeping.Keeper.defer)."""
        self.book.keeper.defer(table, partial(self.told, table, out))

    def told(self, table: Table, out: Outgoing) -> None:
        """A kept change, told: the seats, the spectators, the turn clock, the lobby."""
        self.deliver(table.code, out)
        self.arm_turns(table)
        if table.public:
            self.book.lobby_changed()

    def arm_turns(self, table: Table) -> None:
        """The table's turn clock set again for the seats that owe a choice and are here."""
        book = self.book
        book.turn_clock.arm(table, lambda team: (table.code, team) in book.connections)

    def deliver(self, code: str, out: Outgoing) -> None:
        book = self.book
        for team, message in out:
            connection = book.connections.get((code, team))
            if connection is not None:
                book.postman.send(connection, message)
        book.tell_watchers(code, out)

    def busy(self, code: str, busy: bool) -> None:
        """The table's changes wait on its database (or no longer do): both seats and the
        spectators hear so, once each way."""
        message: p.Message = p.Busy() if busy else p.Steady()
        self.deliver(code, [(team, message) for team in TEAMS])

    def end(self, table: Table, out: Outgoing) -> None:
        was_over = table.game.is_over
        self.commit(table, out)
        if out and table.left_by is not None:
            how = "did not come back" if table.left_why == "timeout" else "left"
            LOG.info("table %s ended: the %s seat %s%s", table.code, table.left_by.name.lower(),
                     how, " after the game" if was_over else "")
        if not any(key[0] == table.code for key in self.book.connections):
            self.forget(table.code)

    def forget(self, code: str, close: int = 0) -> None:
        """The table gone from here (`close`: its spectators' lines closed with this code)."""
        book = self.book
        table = book.tables.pop(code, None)
        if table is not None and table.public:
            book.lobby_changed()
        if table is not None and table.over and not close:
            self._release(code)
            book.ended[code] = table
            while len(book.ended) > ENDED_KEPT:
                book.ended.popitem(last=False)
        for timers in (book.waits, book.stand_ins):
            for key in [key for key in timers if key[0] == code]:
                timers.pop(key).cancel()
        for team in TEAMS:
            book.away_spent.pop((code, team), None)
        book.forget_watchers(code, close)
        book.turn_clock.forget(code)

    def _release(self, code: str) -> None:
        """An ended table is no longer this server's to play (a seat may still read how it
        ended, from any server)."""
        book = self.book
        if book.store is not None:
            try:
                released = book.store.release(code, book.owner)
            except STORE_ERRORS as error:
                book.keeper.failed(error)
                return
            if released is not None:  # after the table's last save, never before it
                book.keeper.after(code, released)
