"""Seats and tables: greeting a newcomer into a seat, a seat's steps, a seat away and the
computer standing in for it, a seat that never comes back, a table's end, and turn limits.

It owns the open tables, which line holds which seat, the timers that wait for a seat (and
for the computer to take it), the tables that ended lately, and the tables store's writes:
every change is kept before any seat hears of it. It never reads a lobby line or a
spectator: what the spectators and the lobby should know goes out through `tell_watchers`
and `lobby_changed`, and a game to rate through `rate`.

`Seats` is the role's one face to the handler; the work is in named parts, each composed
here on the role's record (seat_book.py): greeting.py (a newcomer into a seat),
seat_life.py (seated, away, back, stood in for, gone), table_steps.py (a step kept and
told, a table's end), turn_limits.py (a turn warned of and run out) and claims.py (the
tables restored, claimed, taken over and handed over). A seat's own messages are read here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from functools import partial

from websockets.asyncio.server import ServerConnection

from ...engine.state import Team
from ...wire import protocol as p
from ..lines.line import leaving
from ..stores.keeping import Keeper
from ..tables import Outgoing, Seat, lock, unlocks
from .chat import bad_chat, chat_text
from .checks import checked_password
from .claims import Claims
from .greeting import Greeting
from .hashing import HashRefused
from .seat_book import Prepared, SeatBook, opened_by
from .seat_life import SeatLife
from .stand_in import stand_in_moves
from .table_steps import TableSteps
from .turn_clock import TurnClock
from .turn_limits import TurnLimits

LOG = logging.getLogger("sudden_death.server")
PLAYED, OTHER, CLOSE = "played", "other", "close"  # what a seat's message did (receive)


@dataclass
class Seats(SeatBook):
    """Every open table, and who is connected to which seat (the record: `SeatBook`), with
    the parts that act on it."""

    steps: TableSteps = field(init=False)
    turns: TurnLimits = field(init=False)
    life: SeatLife = field(init=False)
    claims: Claims = field(init=False)
    greeting: Greeting = field(init=False)

    def __post_init__(self) -> None:
        self.steps = TableSteps(self)
        self.turns = TurnLimits(self, self.steps)
        self.life = SeatLife(self, self.steps)
        self.claims = Claims(self, self.steps, self.life.wait_for)
        self.greeting = Greeting(self, self.steps, self.life, self.claims)
        self.turn_clock = TurnClock(self.turns.warning, self.turns.time_up)
        self.keeper = Keeper(self.store, on_busy=self.steps.busy, owner=self.owner,
                             on_taken=self.claims.taken_over)

    def restore(self) -> Awaitable[None] | None:
        """The stored tables, each seat away until it resumes (claims.Claims.restore)."""
        return self.claims.restore()

    async def adopt(self, code: str, lost: str) -> bool:
        """A lost process's table taken over here (claims.Claims.adopt)."""
        return await self.claims.adopt(code, lost)

    def taken_over(self, code: str) -> None:
        """A table fenced out of its save, let go of (claims.Claims.taken_over)."""
        self.claims.taken_over(code)

    def hand_over(self) -> list[str]:
        """A clean stop: every table let go of (claims.Claims.hand_over)."""
        return self.claims.hand_over()

    def waiting_from(self) -> dict[str, int]:
        """Per address, its tables waiting here (greeting.Greeting.waiting_from)."""
        return self.greeting.waiting_from()

    def gone(self, connection: ServerConnection) -> None:
        """A line closed without leaving: its seat is away (seat_life.SeatLife.gone)."""
        self.life.gone(connection)

    def deliver(self, code: str, out: Outgoing) -> None:
        self.steps.deliver(code, out)

    def sign_seat(self, code: str, team: Team, signed: str) -> None:
        """The seat just taken belongs to the player signed in on its line (a seat resumed
        keeps the player it had)."""
        table = self.tables.get(code)
        if not signed or table is None or team not in table.seats:
            return
        seat = table.seats[team]
        if not seat.account:
            seat.account = signed
            self.keeper.keep(table)

    async def password_work(self, message: p.ClientMessage, address: str) -> Prepared:
        """The slow part of a greeting (argon2id), off the loop so it keeps serving every
        other table: a host's password locked and whether a join's password opens its table
        on the hashing threads (bounded: past them the greeting is refused at once, fatal),
        a new seat's token sealed and a resume's token checked on the default executor, so
        a new seat never waits behind a password. A guesser already slowed down is refused
        before any hash."""
        try:
            if isinstance(message, p.Host):
                password = checked_password(message.password)
                locked = await self.hashing.run(address, partial(lock, password)) \
                    if password else ""
                return Prepared(seat=await asyncio.to_thread(sealed_seat), lock=locked)
            if isinstance(message, p.Join):
                if await self.addresses.waiting(address) > 0:
                    return Prepared(unlocked=False)  # refused in _greet without a hash
                table = self.tables.get(message.code.strip())
                kept = "" if table is None else table.lock
                unlocked = await self.hashing.run(address, partial(
                    unlocks, kept, message.password)) if kept else True
                return Prepared(seat=await asyncio.to_thread(sealed_seat), unlocked=unlocked)
        except HashRefused as error:
            raise p.ProtocolError(error.code, str(error)) from None
        if isinstance(message, p.Resume):
            table = self.tables.get(message.code.strip()) or self.ended.get(message.code.strip())
            if table is not None:
                seats = dict(table.seats)
                found = await asyncio.to_thread(opened_by, seats, message.token)
                return Prepared(resumed=found)
        return Prepared()

    async def greet(self, message: p.ClientMessage, connection: ServerConnection,
                    address: str, secret: Prepared | None = None) -> tuple[str, Team]:
        """Seat the greeting's sender (greeting.Greeting.greet)."""
        return await self.greeting.greet(message, connection, address, secret or Prepared())

    # -- a seated connection -----------------------------------------------------------------

    def receive(self, code: str, team: Team, frame: str | bytes,
                connection: ServerConnection) -> str:
        """One message from a seat: PLAYED when it moved the game (a step committed or
        played), CLOSE when the connection should close, OTHER for anything else (what the
        flood limit counts: a game moves only as fast as both seats, so its own moves are
        never a flood)."""
        table = self.tables.get(code)
        if table is None and code in self.moved:
            return CLOSE  # its line is being closed to try again: not told the game is over
        current = self.connections.get((code, team)) is connection
        if current and table is not None:
            try:
                message = p.decode_client(frame)
            except p.ProtocolError as error:
                self.postman.send(connection, p.Refused(error.code, str(error)))
                return OTHER
        elif table is None or table.over:  # it ended while this seat was away, or was let go
            if not leaving(frame):
                self.postman.send(connection, p.Refused(p.OVER, "the game at this table is over",
                                                        fatal=True))
            return CLOSE
        else:
            return CLOSE  # this seat came back on another line, and was told so
        if isinstance(message, p.Act):
            before = (table.step, len(table.held), table.over)
            out = table.act(team, message.step, message.actions) + stand_in_moves(table)
            if (table.step, table.over) == (before[0], before[2]):  # held, or refused
                self.steps.hold(table, out)
            else:
                self.steps.commit(table, out)
            if table.over and not before[2]:
                LOG.info("table %s ended: game over after %d steps", code, table.step)
                self.rate(table)
            return PLAYED if (table.step, len(table.held)) != before[:2] else OTHER
        if isinstance(message, p.Chat):
            text = chat_text(message)
            if text is None:
                self.postman.send(connection, bad_chat())
            else:
                self.deliver(code, [(team.other, p.Said(table.seats[team].name, text))])
            return OTHER
        if isinstance(message, p.MoreTime):
            self.postman.send(connection, self.turn_clock.more_time(table, team))
            return OTHER
        if isinstance(message, p.Rematch):
            games = table.games
            out = table.ask_rematch(team, self.steps.new_game)
            if team.other in table.computer and table.rematch == {team}:
                out = table.ask_rematch(team.other, self.steps.new_game)  # the computer is game
            out += stand_in_moves(table)
            if table.games == games:  # asked, no new game: no record keeps it
                self.steps.hold(table, out)
            else:
                self.steps.commit(table, out)
            return OTHER
        if isinstance(message, p.Leave):
            if (not table.game.is_over and (code, team.other) in self.connections
                    and team.other not in table.computer):
                # Left for good mid-game, the other seat there: the computer finishes for the
                # one who left (a rated game then counts for the one who stayed, so leaving
                # cannot dodge a rating), and the seat is no more.
                del self.connections[(code, team)]
                self.life.stand_in(code, team, "left")
                return CLOSE
            self.steps.end(table, table.leave(team))
            return CLOSE
        self.postman.send(connection, p.Refused(p.NOT_NOW, "you already have a seat"))
        return OTHER


def name_seat(secret: Prepared, typed: str) -> None:
    """A new seat carries its signed-in player's name as typed before its table starts, so
    the start (and the lobby) tell the other seat whom it plays ("": not signed in)."""
    if secret.seat is not None:
        secret.seat.player = typed


def sealed_seat() -> Seat:
    """A new seat with its token sealed (a host's, a guest's, a quick player's whichever seat
    it gets); cheap, so never on the password hashes' threads."""
    seat = Seat("")
    seat.seal()
    return seat
