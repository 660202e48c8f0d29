"""A newcomer greeted into a seat: a host's new table (against a friend or the computer) and
a guest joining one by its code, each checked before anything is kept; a resume handed to
the seat's life. It keeps the tables an address has waiting, so abandoned tables cannot fill
the lobby, and counts a wrong code, token or password against its address.

It never plays a step or waits for a seat that dropped (table_steps.py, seat_life.py), and
claims a new table's code only through claims.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection

from ...engine.computers import COACH, COMPUTERS
from ...engine.series import LENGTHS
from ...engine.state import Team
from ...wire import protocol as p
from ...wire.names import same_name
from ..lines.try_again import TryAgain
from ..tables import HOST_SEAT, Seat, Table
from .checks import checked_name, slow_down
from .claims import Claims
from .seat_book import Prepared, SeatBook
from .seat_life import SeatLife
from .stand_in import stand_in_moves
from .table_steps import TableSteps

LOG = logging.getLogger("sudden_death.server")
# Refusals a code guesser earns: each counts against its address (Limits.failed_tries).
WRONG_TRIES = frozenset({p.NO_TABLE, p.BAD_TOKEN, p.BAD_PASSWORD})
HOSTS_KEPT = 10_000  # addresses whose waiting tables are counted, before a sweep


@dataclass(eq=False)  # by identity: it and its record (the Seats) hold each other
class Greeting:
    """Greetings into the tables of `book`: new ones opened (their codes from `claims`),
    seats taken (`life`), the first steps told (`steps`)."""

    book: SeatBook
    steps: TableSteps
    life: SeatLife
    claims: Claims

    async def greet(self, message: p.ClientMessage, connection: ServerConnection,
                    address: str, secret: Prepared) -> tuple[str, Team]:
        """Seat the greeting's sender; a wrong code, token or password counts against its
        address, and an address with too many of them lately is not heard: no join at all,
        and only a resume with its seat's true token (a player whose line dropped)."""
        addresses = self.book.addresses
        wait = await addresses.waiting(address)
        if wait > 0 and isinstance(message, p.Join):
            raise slow_down(wait)
        if isinstance(message, p.Host) and not message.computer:
            await self._room_for_table(address, message.public)
        try:
            code, team = await self._seat_greeted(message, connection, secret)
            if isinstance(message, p.Host):
                self.book.hosted_from.setdefault(address, set()).add(code)
            return code, team
        except p.ProtocolError as error:
            if error.code in WRONG_TRIES:
                addresses.failed(address)
                if wait > 0:
                    raise slow_down(wait) from None
            raise

    async def _room_for_table(self, address: str, public: bool) -> None:
        """A new table waits for a player only while its address has fewer than
        `open_tables` waiting and, for a public one, the lobby fewer than `public_tables`:
        abandoned tables cannot fill the lobby (found online: 8,000 in 150 s)."""
        book = self.book
        if len(book.hosted_from) > HOSTS_KEPT:  # many addresses: forget those with none
            book.hosted_from = {where: codes for where, codes in book.hosted_from.items()
                                if any(self._waiting(code) for code in codes)}
        elsewhere = await book.tally.elsewhere("tables", address)
        mine = book.hosted_from.get(address, set())
        mine.intersection_update(code for code in mine if self._waiting(code))
        if not mine:
            book.hosted_from.pop(address, None)
        if len(mine) + elsewhere >= book.limits.open_tables:
            raise p.ProtocolError(p.TABLES, f"at most {book.limits.open_tables} tables "
                                            "waiting for a player from one address")
        if public and sum(1 for table in book.tables.values() if table.public
                          and not table.full and not table.over) >= book.limits.public_tables:
            raise p.ProtocolError(p.TABLES, "the lobby is full of tables waiting for a "
                                            "player; join one, or try again later")

    def waiting_from(self) -> dict[str, int]:
        """Per address, the tables hosted from it still waiting for a player here: what a
        cluster's other processes count against it too (valkey_tally.py polls it)."""
        counts = {}
        for address, codes in self.book.hosted_from.items():
            waiting = sum(1 for code in codes if self._waiting(code))
            if waiting:
                counts[address] = waiting
        return counts

    def _waiting(self, code: str) -> bool:
        table = self.book.tables.get(code)
        return table is not None and not table.full and not table.over

    async def _seat_greeted(self, message: p.ClientMessage, connection: ServerConnection,
                            secret: Prepared) -> tuple[str, Team]:
        """`secret`: what `password_work` made off the loop for this greeting. Each seat is
        told only once its table is kept (awaited: no wait at all with the embedded store)."""
        book = self.book
        if isinstance(message, (p.Join, p.Resume)) and message.code.strip() in book.moved \
                and message.code.strip() not in book.tables:  # let go of while it was greeted
            return await self.life.moved_off(message.code.strip(), HOST_SEAT, connection)
        if isinstance(message, p.Host):
            return await self._host(message, connection, secret)
        if isinstance(message, p.Join):
            return await self._join(message, connection, secret)
        if isinstance(message, p.Resume):
            return await self.life.back(message, connection, secret)
        raise p.ProtocolError(p.BAD_MESSAGE, "the first message hosts, joins, resumes or "
                                             "signs in")

    async def _host(self, message: p.Host, connection: ServerConnection,
                    secret: Prepared) -> tuple[str, Team]:
        book = self.book
        if message.opponent and message.opponent not in COMPUTERS:
            raise p.ProtocolError(p.BAD_MESSAGE, "opponent is " + ", ".join(
                f'"{name}"' for name in COMPUTERS) + ' or ""')
        # Against the computer the host may take the home seat, which calls the toss; a
        # friend's table always seats its host away (the lobby and pairing count on it).
        host = HOST_SEAT.other if message.computer and message.home else HOST_SEAT
        seat = secret.seat or Seat(message.name)
        table = await self._open(checked_name(message.name), message.seat_wait_s,
                                 secret.lock, seat, host)
        # A series the server does not know (best of 4, of -1) is single games.
        table.best_of = message.best_of if message.best_of in LENGTHS else 1
        table.replay_ties = message.replay_ties and table.best_of > 1
        table.public = message.public
        if message.turn_s not in p.TURN_LIMITS:
            book.tables.pop(table.code, None)
            raise p.ProtocolError(p.BAD_MESSAGE, "turn_s is one of "
                                  + ", ".join(map(str, p.TURN_LIMITS)))
        table.turn_s = message.turn_s
        if message.computer:  # the computer in the other seat: the game starts at once
            computer = checked_name(message.computer)
            if same_name(computer, table.seats[host].name):
                book.tables.pop(table.code, None)
                raise p.ProtocolError(p.SAME_NAME, "the computer's team needs a name of "
                                                   "its own")
            table.seats[host.other] = Seat(computer)  # its token is never given
            table.computer.add(host.other)
            table.opponent_seat, table.opponent = host.other, message.opponent or COACH
        if not await book.keeper.kept(table):  # kept before its code and token are given
            book.tables.pop(table.code, None)
            raise TryAgain("the server cannot keep a new table now; try again later",
                           p.NO_ROOM)
        self.life.seat(table, host, connection, seat.token)
        if table.full:  # against the computer: it plays what it owes at once
            self.steps.commit(table, table.start() + stand_in_moves(table))
        return table.code, host

    async def _join(self, message: p.Join, connection: ServerConnection,
                    secret: Prepared) -> tuple[str, Team]:
        book = self.book
        name = checked_name(message.name)
        table = self._table(message.code)
        if not secret.unlocked and table.lock:
            raise p.ProtocolError(p.BAD_PASSWORD, "that is not this table's password")
        if table.full:
            raise p.ProtocolError(p.TABLE_FULL, "both seats at that table are taken")
        if same_name(name, table.seats[HOST_SEAT].name):  # a score must name two teams
            raise p.ProtocolError(p.SAME_NAME, "the other team at that table has that name")
        if book.keeper.away():  # its seat would wait on a database that is away
            raise TryAgain("the server cannot keep a seat now; try again")
        team = HOST_SEAT.other
        seat = secret.seat or Seat(name)
        seat.name = name
        table.seats[team] = seat
        await book.keeper.kept(table)
        if table.code in book.moved:
            return await self.life.moved_off(table.code, team, connection)
        self.life.seat(table, team, connection, seat.token)
        self.steps.deliver(table.code, table.start())
        self.steps.arm_turns(table)
        if (table.code, HOST_SEAT) not in book.connections:
            # A table found by its code whose host dropped while it waited: the guest
            # hears so, and the computer stands in, rather than a silent wait.
            self.life.absent(table, HOST_SEAT)
        return table.code, team

    def _table(self, code: str) -> Table:
        found = self.book.tables.get(code.strip())
        if found is None or found.over:
            raise p.ProtocolError(p.NO_TABLE, f"no open table has the code {code!r}")
        return found

    async def _open(self, name: str, seat_wait_s: int, locked: str, seat: Seat,
                    team: Team = HOST_SEAT) -> Table:
        if self.book.draining:  # a host greeted as the process began to stop
            raise TryAgain("this server is stopping; try again", p.NO_ROOM)
        if not p.MIN_SEAT_WAIT_S <= seat_wait_s <= p.MAX_SEAT_WAIT_S:
            raise p.ProtocolError(p.BAD_MESSAGE, f"seat_wait_s is {p.MIN_SEAT_WAIT_S} to "
                                                 f"{p.MAX_SEAT_WAIT_S} seconds")
        code = await self.claims.claimed_code()
        seat.name = name
        table = Table(code, self.steps.new_game(), {team: seat}, seat_wait_s=seat_wait_s,
                      lock=locked)
        self.book.tables[code] = table
        LOG.info("table %s opened", code)
        return table
