"""A seat's life once it is greeted: seated on its line, away when the line drops (the other
seat hears it is waited for), back on a new line, stood in for by the computer after a while
away, and gone for good when it does not come back within the table's seat wait.

It owns none of the state it changes (the seats role's record, seat_book.py) and never opens
a table or claims a code (greeting.py, claims.py): it keeps a seat's comings and goings, and
tells them through the table's steps (table_steps.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from functools import partial

from websockets.asyncio.server import ServerConnection

from ...engine.state import Team
from ...wire import protocol as p
from ..lines.line import MOVED, MOVED_REASON, close_soon
from ..lines.try_again import ANSWER_S, TryAgain, soon
from ..tables import Outgoing, Table
from .seat_book import Prepared, SeatBook, opened_by
from .stand_in import stand_in_moves
from .table_steps import TableSteps

LOG = logging.getLogger("sudden_death.server")


@dataclass(eq=False)  # by identity: it and its record (the Seats) hold each other
class SeatLife:
    """The seats of the tables in `book`, from seated to gone; their news told by `steps`."""

    book: SeatBook
    steps: TableSteps

    def seat(self, table: Table, team: Team, connection: ServerConnection,
             token: str) -> None:
        self.book.connections[(table.code, team)] = connection
        viewer = getattr(connection, "viewer", None)  # a browser seat's (web/view.py)
        if viewer is not None:  # which seat the host's computer plays, if any: nothing secret
            viewer.computer = table.opponent_seat
        self.book.postman.send(connection, p.Seated(table.code, int(team), token))
        if table.public:  # a table opened, or its game began
            self.book.lobby_changed()

    async def moved_off(self, code: str, team: Team, connection: ServerConnection) -> tuple[
            str, Team]:
        """A greeting whose table was taken over while it was kept: its line closed to try
        again (it then reaches the table's new holder), never seated here."""
        await connection.close(MOVED, MOVED_REASON)
        return code, team

    async def back(self, message: p.Resume, connection: ServerConnection,
                   secret: Prepared) -> tuple[str, Team]:
        """A seat resumed on a new line with its token: seated again and told the game as
        it stands, or, for a table that ended meanwhile, how it ended."""
        book = self.book
        table = await self._resumable(message.code)
        found = secret.resumed
        if found is None:  # a table read from the store just now: a hash or two
            found = opened_by(table.seats, message.token)
        if not found:
            raise p.ProtocolError(p.BAD_TOKEN, "that seat token is not one of this table's")
        team = found[0]
        if table.over:  # it ended while this seat was away: it hears how, and no more
            book.connections.pop((table.code, team), None)
            book.postman.send(connection, p.Seated(table.code, int(team), message.token))
            book.postman.send(connection, table.resumed(team, message.step))
            for ending in table.ending(team):
                book.postman.send(connection, ending)
            return table.code, team
        # Nothing changed until the table's earlier changes are kept: its start must tell
        # only what its database has, and a database away is said at once (issue 70).
        if table.code in book.keeper.busy or not await book.keeper.caught_up(table.code,
                                                                             ANSWER_S):
            raise TryAgain("this table's changes wait on its database; try again")
        old = book.connections.get((table.code, team))
        if old is not None:  # the same seat from a new line: the old one is stale
            del book.connections[(table.code, team)]
            book.postman.send(old, p.Refused(p.ELSEWHERE, "this seat was taken up on another "
                                                          "line", fatal=True))
            close_soon(old, book.closing)
        if team in table.gone:  # the computer finished its game: the seat is no more
            raise p.ProtocolError(p.OVER, "you did not come back in time; the computer "
                                          "played your seat")
        for timers in (book.waits, book.stand_ins):
            timer = timers.pop((table.code, team), None)
            if timer is not None:
                timer.cancel()
        table.computer.discard(team)  # the player plays again
        away_since = table.seats[team].away_since
        if away_since is not None:
            self._spend_away(table, team, book.clock() - away_since)
            table.seats[team].away_since = None
            await book.keeper.kept(table)
            if table.code in book.moved:
                return await self.moved_off(table.code, team, connection)
        self.seat(table, team, connection, message.token)
        if table.full:
            book.postman.send(connection, table.resumed(team, message.step))
            self.steps.arm_turns(table)
            if old is None:  # the other seat heard it was away (a line taken over was not)
                self.steps.deliver(table.code, [(team.other, p.Back(table.seats[team].name))])
            if table.computer:  # a choice the computer owes (a restart came between)
                self.steps.commit(table, stand_in_moves(table))
        return table.code, team

    async def _resumable(self, code: str) -> Table:
        """The table a seat comes back to: an open one, or one that ended while the seat was
        away (the server may have forgotten it, or restarted just after its last step)."""
        book = self.book
        table = book.tables.get(code.strip()) or book.ended.get(code.strip())
        store = book.store
        if table is None and store is not None:
            table = await soon(lambda: store.ended(code.strip()), "find that table")
        if table is None and store is not None and book.shared and \
                await soon(lambda: store.table(code.strip()), "find that table") is not None:
            # Open, and held by another process (its route not written yet, or lost in a
            # restart's race with a take-over): the seat's next try reaches its holder.
            raise TryAgain(f"table {code.strip()} is being handed between the server's "
                           "processes; try again")
        if table is None:
            raise p.ProtocolError(p.NO_TABLE, f"no table has the code {code!r}")
        return table

    def gone(self, connection: ServerConnection) -> None:
        """A connection closed without leaving: its seat is away, and the other seat hears it
        is waited for (up to the table's `seat_wait_s`)."""
        book = self.book
        for (code, team), known in list(book.connections.items()):
            if known is not connection:
                continue
            del book.connections[(code, team)]
            table = book.tables.get(code)
            if table is None or table.over:
                self.steps.forget(code)
                continue
            if table.public and not table.full:
                # A public table's host dropped before anyone came: it leaves the lobby and
                # quick pairing at once, so nobody is seated opposite a player who is gone.
                LOG.info("table %s: its host dropped before a player came", code)
                self.steps.end(table, table.leave(team))
                continue
            table.seats[team].away_since = book.clock()
            self.steps.arm_turns(table)  # an away seat's turn does not run: its seat wait does
            self.wait_for(table, team)
            book.keeper.keep(table, partial(self._still_away, table, team))

    def _still_away(self, table: Table, team: Team) -> None:
        """Once the drop is kept: the other seat hears of it, unless the seat is back."""
        if table.full and not table.over and (table.code, team) not in self.book.connections:
            self.absent(table, team)

    def absent(self, table: Table, team: Team) -> None:
        """The seat opposite `team`'s hears it is away (and how long it is waited for), and
        the computer stands in for it once the seat has been away `stand_in_after_s` in all
        during this step: dropping and coming back does not start that wait again."""
        book = self.book
        seat = table.seats[team]
        now = book.clock()
        away_since = now if seat.away_since is None else seat.away_since
        left = max(1, math.ceil(table.seat_wait_s - (now - away_since)))
        self.steps.deliver(table.code, [(team.other, p.Away(seat.name, left))])
        spent_step, spent = book.away_spent.get((table.code, team), (table.step, 0.0))
        if spent_step != table.step:
            spent = 0.0
        after = max(0.0, min(book.stand_in_after_s, table.seat_wait_s / 2) - spent)
        book.stand_ins[(table.code, team)] = asyncio.get_running_loop().call_later(
            after, self.stand_in, table.code, team, "away")

    def _spend_away(self, table: Table, team: Team, seconds: float) -> None:
        away_spent = self.book.away_spent
        step, spent = away_spent.get((table.code, team), (table.step, 0.0))
        if step != table.step:
            spent = 0.0
        away_spent[(table.code, team)] = (table.step, spent + max(0.0, seconds))

    def wait_for(self, table: Table, team: Team, seconds: float | None = None) -> None:
        """Wait `seconds` (the table's whole `seat_wait_s` by default) for a seat to resume."""
        loop = asyncio.get_running_loop()
        wait = table.seat_wait_s if seconds is None else seconds
        self.book.waits[(table.code, team)] = loop.call_later(wait, self._expire, table.code,
                                                              team)

    def _expire(self, code: str, team: Team) -> None:
        """A seat did not come back in time: with the other seat there, the computer finishes
        the game for it (and the seat is gone for good); else the table ends, and the other
        seat hears why."""
        book = self.book
        book.waits.pop((code, team), None)
        table = book.tables.get(code)
        if table is None or (code, team) in book.connections:
            return
        if (code, team.other) in book.connections and table.full and not table.over:
            self.stand_in(code, team, "gone")
            return
        self.steps.end(table, table.leave(team, "timeout"))

    def stand_in(self, code: str, team: Team, reason: str) -> None:
        """The computer plays `team`'s seat from now (the other seat hears it), and makes the
        choices it owes at once; "gone": for the rest of the game."""
        book = self.book
        book.stand_ins.pop((code, team), None)
        table = book.tables.get(code)
        if table is None or table.over or (code, team) in book.connections or \
                (code, team.other) not in book.connections:  # nobody there to play on
            return
        if reason in ("gone", "left"):
            table.gone.add(team)
            handle = book.stand_ins.pop((code, team), None)
            if handle is not None:
                handle.cancel()
        elif team in table.computer:
            return
        table.computer.add(team)
        LOG.info("table %s: the computer plays for the %s seat (%s)", code,
                 team.name.lower(), reason)
        out: Outgoing = [(team.other, p.StandIn(table.seats[team].name, reason))]
        was_over = table.over
        self.steps.commit(table, out + stand_in_moves(table))
        if table.over and not was_over:
            book.rate(table)
