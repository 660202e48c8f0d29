"""Seats and tables: greeting a newcomer into a seat, a seat's steps, a seat away and the
computer standing in for it, a seat that never comes back, a table's end, and turn limits.

It owns the open tables, which line holds which seat, the timers that wait for a seat (and
for the computer to take it), the tables that ended lately, and the tables store's writes:
every change is kept before any seat hears of it. It never reads a lobby line or a
spectator: what the spectators and the lobby should know goes out through `tell_watchers`
and `lobby_changed`, and a game to rate through `rate`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from websockets.asyncio.server import ServerConnection

from ...engine.computers import COACH, COMPUTERS
from ...engine.game import Game
from ...engine.series import LENGTHS
from ...engine.state import TEAMS, Team
from ...wire import protocol as p
from ...wire.names import same_name
from ...wire.values import action_to_wire
from ..cluster.tally import NoTally, Tally
from ..lines.limits import Addresses, Limits
from ..lines.line import MOVED, MOVED_REASON, close_soon, leaving
from ..lines.postman import Postman
from ..lines.try_again import ANSWER_S, TryAgain, soon
from ..stores.keeping import STORE_ERRORS, Keeper
from ..stores.seam import TableStore, answered
from ..tables import HOST_SEAT, Outgoing, Seat, Table, lock, new_game, unlocks
from .chat import bad_chat, chat_text
from .checks import checked_name, checked_password, slow_down
from .hashing import Hashing, HashRefused
from .stand_in import last_cards, stand_in_moves
from .turn_clock import TurnClock

LOG = logging.getLogger("sudden_death.server")
# Refusals a code guesser earns: each counts against its address (Limits.failed_tries).
WRONG_TRIES = frozenset({p.NO_TABLE, p.BAD_TOKEN, p.BAD_PASSWORD})
PLAYED, OTHER, CLOSE = "played", "other", "close"  # what a seat's message did (receive)
ENDED_KEPT = 1000  # ended tables kept in memory for seats that were away (with no store too)
HOSTS_KEPT = 10_000  # addresses whose waiting tables are counted, before a sweep
CLAIM_TRIES = 20  # new codes tried when another server sharing the store holds one


@dataclass
class Seats:
    """Every open table, and who is connected to which seat. `seed`: table n's dice come from
    seed + n (tests and replays); None: from the system's entropy. `store`: where tables are
    kept, so they outlive the process."""

    postman: Postman
    limits: Limits
    addresses: Addresses  # wrong codes, tokens and passwords, per address
    hashing: Hashing  # tables' passwords hashed on the accounts' bounded lane
    tell_watchers: Callable[[str, Outgoing], None]
    lobby_changed: Callable[[], None]
    rate: Callable[[Table], None]
    forget_watchers: Callable[[str, int], None]  # a table gone: (code, close code or 0)
    seed: int | None = None
    store: TableStore | None = None
    owner: str = ""  # this server's name in the store's claims, the same across its restarts
    tables: dict[str, Table] = field(default_factory=dict)
    connections: dict[tuple[str, Team], ServerConnection] = field(default_factory=dict)
    waits: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # A dropped seat's player is stood in for by the computer after this long (at most half
    # the table's seat wait), so the one who stayed goes on playing (server/roles/stand_in.py).
    stand_in_after_s: float = 30.0
    stand_ins: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # How long each seat has been away during a step (the step, the seconds), so a player who
    # drops and comes back again and again cannot put off the computer's stand-in for ever.
    away_spent: dict[tuple[str, Team], tuple[int, float]] = field(default_factory=dict)
    closing: set[asyncio.Future[None]] = field(default_factory=set)  # stale lines closing
    # The last ENDED_KEPT tables that ended, oldest first: a seat away at the end still
    # hears how, from a server with no store (the one a game serves at home) as from the file.
    ended: OrderedDict[str, Table] = field(default_factory=OrderedDict)
    opened: int = 0
    clock: Callable[[], float] = time.time  # wall-clock: a seat's drop time outlives the process
    turn_clock: TurnClock = field(init=False)  # tables' turn limits (turn_clock.py)
    hosted_from: dict[str, set[str]] = field(default_factory=dict)  # address: tables it opened
    # The other processes' tables waiting per address, in a cluster (`waiting_from` is what
    # this one tells them): none alone.
    tally: Tally = field(default_factory=NoTally)
    claiming: set[str] = field(default_factory=set)  # new codes whose claims are awaited
    moved: set[str] = field(default_factory=set)  # tables dropped here, taken over elsewhere
    adopting: dict[str, asyncio.Future[bool]] = field(default_factory=dict)  # taken over now
    draining: bool = False  # a clean stop in a cluster: no new table, none taken over
    # In a cluster (--valkey): a table the store has open but this process does not hold is
    # another process's, or being handed over between two (a restart racing a take-over), so
    # a seat resuming it is asked to try again, never told it is unknown.
    shared: bool = False

    keeper: Keeper = field(init=False)  # every change kept before a seat hears of it

    def __post_init__(self) -> None:
        self.turn_clock = TurnClock(self._time_warning, self._time_up)
        self.keeper = Keeper(self.store, on_busy=self._busy, owner=self.owner,
                             on_taken=self.taken_over)

    def restore(self) -> Awaitable[None] | None:
        """The stored tables, each seat away until it resumes (call inside the loop). Done
        when it returns None (the embedded store answers at once); with a store whose calls
        are awaited (a database server's), done once the awaitable it returns completes."""
        if self.store is None:
            return None
        found = self.store.open_tables()
        if isinstance(found, Awaitable):
            return self._restore_awaited(found)
        now = self.clock()
        for index, table in enumerate(found):
            held = self.store.claim(table.code, self.owner)
            if isinstance(held, Awaitable):
                return self._restore_awaited(found[index:], held)
            self._restored(table, held, now)
        LOG.info("%d tables restored", len(self.tables))
        return None

    async def _restore_awaited(self, found: list[Table] | Awaitable[list[Table]],
                               held: Awaitable[bool] | None = None) -> None:
        """`restore` with a store whose answers are awaited: `held` is the first table's
        claim when it was already asked."""
        assert self.store is not None
        tables = await answered(found)
        now = self.clock()
        for table in tables:
            self._restored(table, await answered(
                self.store.claim(table.code, self.owner) if held is None else held), now)
            held = None
        LOG.info("%d tables restored", len(self.tables))

    async def adopt(self, code: str, lost: str) -> bool:
        """The table `code` of the lost server `lost` (a cluster's process whose lease ran
        out) taken over and played here from its store, its seats away until they resume,
        as after a restart; False when another server took it first, it has ended, or this
        one is draining. TryAgain (try_again.py) when the store cannot say within a second,
        never "no such table": the take-over goes on meanwhile (a claim moved must be followed
        by the table read here), and the greeting's next try finds the table here."""
        if self.store is None or code in self.tables or self.draining:
            return code in self.tables
        adopting = self.adopting.get(code)
        if adopting is None:
            adopting = self.adopting[code] = asyncio.ensure_future(self._adopt(code, lost))
            adopting.add_done_callback(partial(self._adopted, code))
        return await soon(lambda: asyncio.shield(adopting), "take the table over")

    def _adopted(self, code: str, done: asyncio.Future[bool]) -> None:
        """A take-over ended: forgotten, its failure taken (said in the log by `_adopt`)."""
        self.adopting.pop(code, None)
        if not done.cancelled():
            done.exception()

    async def _adopt(self, code: str, lost: str) -> bool:
        assert self.store is not None
        try:
            if not await answered(self.store.take_over(code, self.owner, lost)):
                return False
            table = await answered(self.store.table(code))
        except STORE_ERRORS as error:
            self.keeper.failed(error)
            raise
        if table is None or code in self.tables:
            return code in self.tables
        LOG.info("table %s taken over from %s, a server process lost or stopped", code, lost)
        self.moved.discard(code)  # taken back, after its taker was lost in turn
        self._restored(table, True, self.clock())
        return True

    def _restored(self, table: Table, held: bool, now: float) -> None:
        """A stored table played here again, if this server holds it."""
        if not held:
            LOG.info("table %s is played by another server (%s)", table.code, self.owner)
            return
        self.tables[table.code] = table
        for team, seat in table.seats.items():
            # A seat whose line dropped before the restart is waited for from then; one
            # still connected when the server stopped, from now.
            if seat.away_since is None:
                seat.away_since = now
            self._wait_for(table, team, max(0.0, table.seat_wait_s - (now - seat.away_since)))

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
                found = await asyncio.to_thread(_opened, seats, message.token)
                return Prepared(resumed=found)
        return Prepared()

    async def greet(self, message: p.ClientMessage, connection: ServerConnection,
                    address: str, secret: Prepared | None = None) -> tuple[str, Team]:
        """Seat the greeting's sender; a wrong code, token or password counts against its
        address, and an address with too many of them lately is not heard: no join at all,
        and only a resume with its seat's true token (a player whose line dropped)."""
        wait = await self.addresses.waiting(address)
        if wait > 0 and isinstance(message, p.Join):
            raise slow_down(wait)
        if isinstance(message, p.Host) and not message.computer:
            await self._room_for_table(address, message.public)
        try:
            code, team = await self._seat_greeted(message, connection, secret or Prepared())
            if isinstance(message, p.Host):
                self.hosted_from.setdefault(address, set()).add(code)
            return code, team
        except p.ProtocolError as error:
            if error.code in WRONG_TRIES:
                self.addresses.failed(address)
                if wait > 0:
                    raise slow_down(wait) from None
            raise

    async def _room_for_table(self, address: str, public: bool) -> None:
        """A new table waits for a player only while its address has fewer than
        `open_tables` waiting and, for a public one, the lobby fewer than `public_tables`:
        abandoned tables cannot fill the lobby (found online: 8,000 in 150 s)."""
        if len(self.hosted_from) > HOSTS_KEPT:  # many addresses: forget those with none
            self.hosted_from = {where: codes for where, codes in self.hosted_from.items()
                                if any(self._waiting(code) for code in codes)}
        elsewhere = await self.tally.elsewhere("tables", address)
        mine = self.hosted_from.get(address, set())
        mine.intersection_update(code for code in mine if self._waiting(code))
        if not mine:
            self.hosted_from.pop(address, None)
        if len(mine) + elsewhere >= self.limits.open_tables:
            raise p.ProtocolError(p.TABLES, f"at most {self.limits.open_tables} tables "
                                            "waiting for a player from one address")
        if public and sum(1 for table in self.tables.values() if table.public
                          and not table.full and not table.over) >= self.limits.public_tables:
            raise p.ProtocolError(p.TABLES, "the lobby is full of tables waiting for a "
                                            "player; join one, or try again later")

    def waiting_from(self) -> dict[str, int]:
        """Per address, the tables hosted from it still waiting for a player here: what a
        cluster's other processes count against it too (valkey_tally.py polls it)."""
        counts = {}
        for address, codes in self.hosted_from.items():
            waiting = sum(1 for code in codes if self._waiting(code))
            if waiting:
                counts[address] = waiting
        return counts

    def _waiting(self, code: str) -> bool:
        table = self.tables.get(code)
        return table is not None and not table.full and not table.over

    async def _seat_greeted(self, message: p.ClientMessage, connection: ServerConnection,
                            secret: Prepared) -> tuple[str, Team]:
        """`secret`: what `password_work` made off the loop for this greeting. Each seat is
        told only once its table is kept (awaited: no wait at all with the embedded store)."""
        if isinstance(message, (p.Join, p.Resume)) and message.code.strip() in self.moved \
                and message.code.strip() not in self.tables:  # let go of while it was greeted
            return await self._moved_off(message.code.strip(), HOST_SEAT, connection)
        if isinstance(message, p.Host):
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
                self.tables.pop(table.code, None)
                raise p.ProtocolError(p.BAD_MESSAGE, "turn_s is one of "
                                      + ", ".join(map(str, p.TURN_LIMITS)))
            table.turn_s = message.turn_s
            if message.computer:  # the computer in the other seat: the game starts at once
                computer = checked_name(message.computer)
                if same_name(computer, table.seats[host].name):
                    self.tables.pop(table.code, None)
                    raise p.ProtocolError(p.SAME_NAME, "the computer's team needs a name of "
                                                       "its own")
                table.seats[host.other] = Seat(computer)  # its token is never given
                table.computer.add(host.other)
                table.opponent_seat, table.opponent = host.other, message.opponent or COACH
            if not await self.keeper.kept(table):  # kept before its code and token are given
                self.tables.pop(table.code, None)
                raise TryAgain("the server cannot keep a new table now; try again later",
                               p.NO_ROOM)
            self._seat(table, host, connection, seat.token)
            if table.full:  # against the computer: it plays what it owes at once
                self._commit(table, table.start() + stand_in_moves(table))
            return table.code, host
        if isinstance(message, p.Join):
            name = checked_name(message.name)
            table = self._table(message.code)
            if not secret.unlocked and table.lock:
                raise p.ProtocolError(p.BAD_PASSWORD, "that is not this table's password")
            if table.full:
                raise p.ProtocolError(p.TABLE_FULL, "both seats at that table are taken")
            if same_name(name, table.seats[HOST_SEAT].name):  # a score must name two teams
                raise p.ProtocolError(p.SAME_NAME, "the other team at that table has that name")
            if self.keeper.away():  # its seat would wait on a database that is away
                raise TryAgain("the server cannot keep a seat now; try again")
            team = HOST_SEAT.other
            seat = secret.seat or Seat(name)
            seat.name = name
            table.seats[team] = seat
            await self.keeper.kept(table)
            if table.code in self.moved:
                return await self._moved_off(table.code, team, connection)
            self._seat(table, team, connection, seat.token)
            self.deliver(table.code, table.start())
            self._arm_turns(table)
            if (table.code, HOST_SEAT) not in self.connections:
                # A table found by its code whose host dropped while it waited: the guest
                # hears so, and the computer stands in, rather than a silent wait.
                self._absent(table, HOST_SEAT)
            return table.code, team
        if isinstance(message, p.Resume):
            table = await self._resumable(message.code)
            found = secret.resumed
            if found is None:  # a table read from the store just now: a hash or two
                found = _opened(table.seats, message.token)
            if not found:
                raise p.ProtocolError(p.BAD_TOKEN, "that seat token is not one of this table's")
            team = found[0]
            if table.over:  # it ended while this seat was away: it hears how, and no more
                self.connections.pop((table.code, team), None)
                self.postman.send(connection, p.Seated(table.code, int(team), message.token))
                self.postman.send(connection, table.resumed(team, message.step))
                for ending in table.ending(team):
                    self.postman.send(connection, ending)
                return table.code, team
            # Nothing changed until the table's earlier changes are kept: its start must tell
            # only what its database has, and a database away is said at once (issue 70).
            if table.code in self.keeper.busy or not await self.keeper.caught_up(table.code,
                                                                                 ANSWER_S):
                raise TryAgain("this table's changes wait on its database; try again")
            old = self.connections.get((table.code, team))
            if old is not None:  # the same seat from a new line: the old one is stale
                del self.connections[(table.code, team)]
                self.postman.send(old, p.Refused(p.ELSEWHERE, "this seat was taken up on another "
                                                       "line", fatal=True))
                close_soon(old, self.closing)
            if team in table.gone:  # the computer finished its game: the seat is no more
                raise p.ProtocolError(p.OVER, "you did not come back in time; the computer "
                                              "played your seat")
            for timers in (self.waits, self.stand_ins):
                timer = timers.pop((table.code, team), None)
                if timer is not None:
                    timer.cancel()
            table.computer.discard(team)  # the player plays again
            away_since = table.seats[team].away_since
            if away_since is not None:
                self._spend_away(table, team, self.clock() - away_since)
                table.seats[team].away_since = None
                await self.keeper.kept(table)
                if table.code in self.moved:
                    return await self._moved_off(table.code, team, connection)
            self._seat(table, team, connection, message.token)
            if table.full:
                self.postman.send(connection, table.resumed(team, message.step))
                self._arm_turns(table)
                if old is None:  # the other seat heard it was away (a line taken over was not)
                    self.deliver(table.code, [(team.other, p.Back(table.seats[team].name))])
                if table.computer:  # a choice the computer owes (a restart came between)
                    self._commit(table, stand_in_moves(table))
            return table.code, team
        raise p.ProtocolError(p.BAD_MESSAGE, "the first message hosts, joins, resumes or "
                                             "signs in")

    async def _moved_off(self, code: str, team: Team, connection: ServerConnection) -> tuple[
            str, Team]:
        """A greeting whose table was taken over while it was kept: its line closed to try
        again (it then reaches the table's new holder), never seated here."""
        await connection.close(MOVED, MOVED_REASON)
        return code, team

    def _table(self, code: str) -> Table:
        found = self.tables.get(code.strip())
        if found is None or found.over:
            raise p.ProtocolError(p.NO_TABLE, f"no open table has the code {code!r}")
        return found

    async def _resumable(self, code: str) -> Table:
        """The table a seat comes back to: an open one, or one that ended while the seat was
        away (the server may have forgotten it, or restarted just after its last step)."""
        table = self.tables.get(code.strip()) or self.ended.get(code.strip())
        store = self.store
        if table is None and store is not None:
            table = await soon(lambda: store.ended(code.strip()), "find that table")
        if table is None and store is not None and self.shared and \
                await soon(lambda: store.table(code.strip()), "find that table") is not None:
            # Open, and held by another process (its route not written yet, or lost in a
            # restart's race with a take-over): the seat's next try reaches its holder.
            raise TryAgain(f"table {code.strip()} is being handed between the server's "
                           "processes; try again")
        if table is None:
            raise p.ProtocolError(p.NO_TABLE, f"no table has the code {code!r}")
        return table

    def _new_game(self) -> Game:
        """A new game's dice: game n of this server's from seed + n, else the system's."""
        seed = None if self.seed is None else self.seed + self.opened
        self.opened += 1
        return new_game(seed)

    async def _open(self, name: str, seat_wait_s: int, locked: str, seat: Seat,
                    team: Team = HOST_SEAT) -> Table:
        if self.draining:  # a host greeted as the process began to stop
            raise TryAgain("this server is stopping; try again", p.NO_ROOM)
        if not p.MIN_SEAT_WAIT_S <= seat_wait_s <= p.MAX_SEAT_WAIT_S:
            raise p.ProtocolError(p.BAD_MESSAGE, f"seat_wait_s is {p.MIN_SEAT_WAIT_S} to "
                                                 f"{p.MAX_SEAT_WAIT_S} seconds")
        code = await self._claimed_code()
        seat.name = name
        table = Table(code, self._new_game(), {team: seat}, seat_wait_s=seat_wait_s,
                      lock=locked)
        self.tables[code] = table
        LOG.info("table %s opened", code)
        return table

    async def _claimed_code(self) -> str:
        """A new table's code, claimed for this server in the store: another server sharing
        the store may hold a code this one has never seen."""
        for _ in range(CLAIM_TRIES):
            code = _new_code([*self.tables, *self.claiming])
            if self.store is None:
                return code
            if self.keeper.away():  # a database away: refused at once, not after a wait
                break
            # Not handed to another new table while its claim is awaited (a database's).
            self.claiming.add(code)
            store = self.store
            try:
                if await soon(partial(store.claim, code, self.owner), "keep a new table",
                              p.NO_ROOM):
                    return code
            except TryAgain as error:
                if isinstance(error.__cause__, STORE_ERRORS):
                    self.keeper.failed(error.__cause__)
                raise
            finally:
                self.claiming.discard(code)
        raise TryAgain("the server cannot keep a new table now; try again later", p.NO_ROOM)

    def _seat(self, table: Table, team: Team, connection: ServerConnection,
              token: str) -> None:
        self.connections[(table.code, team)] = connection
        viewer = getattr(connection, "viewer", None)  # a browser seat's (web/view.py)
        if viewer is not None:  # which seat the host's computer plays, if any: nothing secret
            viewer.computer = table.opponent_seat
        self.postman.send(connection, p.Seated(table.code, int(team), token))
        if table.public:  # a table opened, or its game began
            self.lobby_changed()


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
            out = table.act(team, message.step, message.actions)
            self._commit(table, out + stand_in_moves(table))
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
            out = table.ask_rematch(team, self._new_game)
            if team.other in table.computer and table.rematch == {team}:
                out = table.ask_rematch(team.other, self._new_game)  # the computer is game
            self._commit(table, out + stand_in_moves(table))
            return OTHER
        if isinstance(message, p.Leave):
            if (not table.game.is_over and (code, team.other) in self.connections
                    and team.other not in table.computer):
                # Left for good mid-game, the other seat there: the computer finishes for the
                # one who left (a rated game then counts for the one who stayed, so leaving
                # cannot dodge a rating), and the seat is no more.
                del self.connections[(code, team)]
                self._stand_in(code, team, "left")
                return CLOSE
            self._end(table, table.leave(team))
            return CLOSE
        self.postman.send(connection, p.Refused(p.NOT_NOW, "you already have a seat"))
        return OTHER

    def gone(self, connection: ServerConnection) -> None:
        """A connection closed without leaving: its seat is away, and the other seat hears it
        is waited for (up to the table's `seat_wait_s`)."""
        for (code, team), known in list(self.connections.items()):
            if known is not connection:
                continue
            del self.connections[(code, team)]
            table = self.tables.get(code)
            if table is None or table.over:
                self._forget(code)
                continue
            if table.public and not table.full:
                # A public table's host dropped before anyone came: it leaves the lobby and
                # quick pairing at once, so nobody is seated opposite a player who is gone.
                LOG.info("table %s: its host dropped before a player came", code)
                self._end(table, table.leave(team))
                continue
            table.seats[team].away_since = self.clock()
            self._arm_turns(table)  # an away seat's turn does not run: its seat wait does
            self._wait_for(table, team)
            self.keeper.keep(table, partial(self._still_away, table, team))

    def _still_away(self, table: Table, team: Team) -> None:
        """Once the drop is kept: the other seat hears of it, unless the seat is back."""
        if table.full and not table.over and (table.code, team) not in self.connections:
            self._absent(table, team)

    def _absent(self, table: Table, team: Team) -> None:
        """The seat opposite `team`'s hears it is away (and how long it is waited for), and
        the computer stands in for it once the seat has been away `stand_in_after_s` in all
        during this step: dropping and coming back does not start that wait again."""
        seat = table.seats[team]
        now = self.clock()
        away_since = now if seat.away_since is None else seat.away_since
        left = max(1, math.ceil(table.seat_wait_s - (now - away_since)))
        self.deliver(table.code, [(team.other, p.Away(seat.name, left))])
        spent_step, spent = self.away_spent.get((table.code, team), (table.step, 0.0))
        if spent_step != table.step:
            spent = 0.0
        after = max(0.0, min(self.stand_in_after_s, table.seat_wait_s / 2) - spent)
        self.stand_ins[(table.code, team)] = asyncio.get_running_loop().call_later(
            after, self._stand_in, table.code, team, "away")

    def _spend_away(self, table: Table, team: Team, seconds: float) -> None:
        step, spent = self.away_spent.get((table.code, team), (table.step, 0.0))
        if step != table.step:
            spent = 0.0
        self.away_spent[(table.code, team)] = (table.step, spent + max(0.0, seconds))

    def _wait_for(self, table: Table, team: Team, seconds: float | None = None) -> None:
        """Wait `seconds` (the table's whole `seat_wait_s` by default) for a seat to resume."""
        loop = asyncio.get_running_loop()
        wait = table.seat_wait_s if seconds is None else seconds
        self.waits[(table.code, team)] = loop.call_later(wait, self._expire, table.code, team)

    def _expire(self, code: str, team: Team) -> None:
        """A seat did not come back in time: with the other seat there, the computer finishes
        the game for it (and the seat is gone for good); else the table ends, and the other
        seat hears why."""
        self.waits.pop((code, team), None)
        table = self.tables.get(code)
        if table is None or (code, team) in self.connections:
            return
        if (code, team.other) in self.connections and table.full and not table.over:
            self._stand_in(code, team, "gone")
            return
        self._end(table, table.leave(team, "timeout"))

    def _stand_in(self, code: str, team: Team, reason: str) -> None:
        """The computer plays `team`'s seat from now (the other seat hears it), and makes the
        choices it owes at once; "gone": for the rest of the game."""
        self.stand_ins.pop((code, team), None)
        table = self.tables.get(code)
        if table is None or table.over or (code, team) in self.connections or \
                (code, team.other) not in self.connections:  # nobody there to play on
            return
        if reason in ("gone", "left"):
            table.gone.add(team)
            handle = self.stand_ins.pop((code, team), None)
            if handle is not None:
                handle.cancel()
        elif team in table.computer:
            return
        table.computer.add(team)
        LOG.info("table %s: the computer plays for the %s seat (%s)", code,
                 team.name.lower(), reason)
        out: Outgoing = [(team.other, p.StandIn(table.seats[team].name, reason))]
        was_over = table.over
        self._commit(table, out + stand_in_moves(table))
        if table.over and not was_over:
            self.rate(table)

    def _end(self, table: Table, out: Outgoing) -> None:
        was_over = table.game.is_over
        self._commit(table, out)
        if out and table.left_by is not None:
            how = "did not come back" if table.left_why == "timeout" else "left"
            LOG.info("table %s ended: the %s seat %s%s", table.code, table.left_by.name.lower(),
                     how, " after the game" if was_over else "")
        if not any(key[0] == table.code for key in self.connections):
            self._forget(table.code)

    def taken_over(self, code: str) -> None:
        """Table `code`'s save was fenced (stores.TakenOver): another process took it over
        while this one was stalled past its lease, so it is no longer played here. Dropped
        from memory, nothing released or kept as ended (this process's copy is not the
        table's), and its seats' and spectators' lines closed with 1013: each game
        reconnects by itself, and its route leads it to the process that plays the table."""
        if self.tables.get(code) is None:
            return
        self.moved.add(code)
        for key in [key for key in self.connections if key[0] == code]:
            close_soon(self.connections.pop(key), self.closing, MOVED, MOVED_REASON)
        self._forget(code, MOVED)

    def hand_over(self) -> list[str]:
        """A clean stop in a cluster (draining.py): every open table let go of as one taken
        over is (`taken_over`), its seats' and spectators' lines closed with 1013 to try
        again, nothing more of it played here; its writes already made are still awaited by
        the keeper, and its claim stays this process's in the store until the process a seat
        reaches next takes it over (relay.holder_of). From now no table is opened or taken
        over here. Returns the codes let go of."""
        self.draining = True
        codes = list(self.tables)
        for code in codes:
            self.taken_over(code)
        return codes

    def _forget(self, code: str, close: int = 0) -> None:
        """The table gone from here (`close`: its spectators' lines closed with this code)."""
        table = self.tables.pop(code, None)
        if table is not None and table.public:
            self.lobby_changed()
        if table is not None and table.over and not close:
            self._release(code)
            self.ended[code] = table
            while len(self.ended) > ENDED_KEPT:
                self.ended.popitem(last=False)
        for timers in (self.waits, self.stand_ins):
            for key in [key for key in timers if key[0] == code]:
                timers.pop(key).cancel()
        for team in TEAMS:
            self.away_spent.pop((code, team), None)
        self.forget_watchers(code, close)
        self.turn_clock.forget(code)

    def _release(self, code: str) -> None:
        """An ended table is no longer this server's to play (a seat may still read how it
        ended, from any server)."""
        if self.store is not None:
            try:
                released = self.store.release(code, self.owner)
            except STORE_ERRORS as error:
                self.keeper.failed(error)
                return
            if released is not None:  # after the table's last save, never before it
                self.keeper.after(code, released)

    def _busy(self, code: str, busy: bool) -> None:
        """The table's changes wait on its database (or no longer do): both seats and the
        spectators hear so, once each way."""
        message: p.Message = p.Busy() if busy else p.Steady()
        self.deliver(code, [(team, message) for team in TEAMS])

    def _commit(self, table: Table, out: Outgoing) -> None:
        """Keep the table, then tell the seats: no seat ever hears of a step the disk does
        not have, so a server killed between the two never goes back behind its players."""
        self.keeper.keep(table, partial(self._told, table, out))

    def _told(self, table: Table, out: Outgoing) -> None:
        """A kept change, told: the seats, the spectators, the turn clock, the lobby."""
        self.deliver(table.code, out)
        self._arm_turns(table)
        if table.public:
            self.lobby_changed()

    # -- turn limits --------------------------------------------------------------------------

    def _arm_turns(self, table: Table) -> None:
        self.turn_clock.arm(table, lambda team: (table.code, team) in self.connections)

    def _time_warning(self, code: str, team: Team) -> None:
        table, connection = self.tables.get(code), self.connections.get((code, team))
        if table is not None and connection is not None:
            self.postman.send(connection, p.TimeWarning(p.TURN_WARNING_S,
                                                 self.turn_clock.extensions_left(table, team)))

    def _time_up(self, code: str, team: Team, step: int) -> None:
        """A turn ran out: both seats hear whose, and its last cards are played again."""
        table = self.tables.get(code)
        if table is None or table.over or table.step != step or team in table.held:
            return
        LOG.info("table %s: the %s seat's turn ran out at step %d", code, team.name.lower(),
                 step)
        out: Outgoing = [(each, p.TimeUp(table.seats[team].name)) for each in TEAMS]
        out += table.act(team, step, [action_to_wire(last_cards(table, team))])
        was_over = table.over
        self._commit(table, out + stand_in_moves(table))
        if table.over and not was_over:
            self.rate(table)

    # -- sending -----------------------------------------------------------------------------

    def deliver(self, code: str, out: Outgoing) -> None:
        for team, message in out:
            connection = self.connections.get((code, team))
            if connection is not None:
                self.postman.send(connection, message)
        self.tell_watchers(code, out)


@dataclass
class Prepared:
    """What a greeting needed hashed, made off the loop (`Seats.password_work`): a
    host's or a guest's new seat with its token sealed, a host's password locked, whether a
    join's password opened its table, and the seats a resume's token opens (None: not
    looked at yet)."""

    seat: Seat | None = None
    lock: str = ""
    unlocked: bool = True
    resumed: list[Team] | None = None


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


def _opened(seats: dict[Team, Seat], token: str) -> list[Team]:
    return [team for team, seat in seats.items() if seat.opens(token)]


def _new_code(taken: Iterable[str]) -> str:
    used = set(taken)
    while True:
        code = f"{secrets.randbelow(10 ** p.CODE_DIGITS):0{p.CODE_DIGITS}d}"
        if code not in used:
            return code


