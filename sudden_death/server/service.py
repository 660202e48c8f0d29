"""The table server on the network: WebSocket connections in, tables' messages out.

Built on `websockets` (asyncio): it does the handshake, the framing, pings and the size limit,
so this module is only the table logic's postman. Every message to a seat is written with
`broadcast`, which queues the frame without waiting for that client to read it: one slow seat
never holds up the other's reveal, and a client that never reads is dropped once its queue
passes a bound. `limits.py` holds the rest of the defences against hostile clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import socket
import sqlite3
import ssl
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..engine.game import Game
from ..engine.series import LENGTHS
from ..engine.state import Team
from ..wire import protocol as p
from ..wire.names import folded, same_name, skeletons, spaced
from ..wire.values import action_to_wire
from .accounts import AccountError, Accounts
from .hashing import Hashing, HashRefused
from .limits import Addresses, Bucket, Limits
from .ratings import START, Ladder
from .sign_ins import SignIns
from .stand_in import last_cards, stand_in_moves
from .store import TableStore
from .tables import HOST_SEAT, Outgoing, Seat, Table, lock, new_game, unlocks
from .turn_clock import TurnClock

LOG = logging.getLogger("sudden_death.server")
# Refusals a code guesser earns: each counts against its address (Limits.failed_tries).
WRONG_TRIES = frozenset({p.NO_TABLE, p.BAD_TOKEN, p.BAD_PASSWORD})
PLAYED, OTHER, CLOSE = "played", "other", "close"  # what a seat's message did (_receive)
ENDED_KEPT = 1000  # ended tables kept in memory for seats that were away (with no store too)
ANONYMOUS_WATCH_S = 60.0  # a spectator with no name is news at most this often a table
CHAT_PER_S, CHAT_BURST = 1.0, 5  # lobby and gallery chat lines, per player on all lines
CHATTERS_KEPT = 10_000  # chat rates (and hosts' addresses) kept before a sweep


@dataclass
class TableService:
    """Every open table, and who is connected to which seat. `seed`: table n's dice come from
    seed + n (tests and replays); None: from the system's entropy. `store`: where tables are
    kept, so they outlive the process."""

    seed: int | None = None
    store: TableStore | None = None
    limits: Limits = field(default_factory=Limits)
    tables: dict[str, Table] = field(default_factory=dict)
    connections: dict[tuple[str, Team], ServerConnection] = field(default_factory=dict)
    waits: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # A dropped seat's player is stood in for by the computer after this long (at most half
    # the table's seat wait), so the one who stayed goes on playing (server/stand_in.py).
    stand_in_after_s: float = 30.0
    stand_ins: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # How long each seat has been away during a step (the step, the seconds), so a player who
    # drops and comes back again and again cannot put off the computer's stand-in for ever.
    away_spent: dict[tuple[str, Team], tuple[int, float]] = field(default_factory=dict)
    closing: set[asyncio.Future[None]] = field(default_factory=set)  # stale lines closing
    rating: set[asyncio.Future[object]] = field(default_factory=set)  # games being rated
    # The last ENDED_KEPT tables that ended, oldest first: a seat away at the end still
    # hears how, from a server with no store (the one a game serves at home) as from the file.
    ended: OrderedDict[str, Table] = field(default_factory=OrderedDict)
    opened: int = 0
    dropped: int = 0  # clients dropped for leaving too much unread
    storage_failing: bool = False  # the store's last write failed (a full disk...)
    clock: Callable[[], float] = time.time  # wall-clock: a seat's drop time outlives the process
    addresses: Addresses = field(init=False)
    # Players' names (accounts.py): in memory unless the server has a --data folder.
    accounts: Accounts = field(default_factory=Accounts)
    account_tries: Addresses = field(init=False)  # sign-ups and sign-ins, per address
    name_tries: Addresses = field(init=False)  # strangers' password tries, per name (sign_ins.py)
    sign_ins: SignIns = field(init=False)  # who may try a name's password now
    hashing: Hashing = field(init=False)  # passwords' slow hashes, bounded (hashing.py)
    token_checks: Hashing = field(init=False)  # sign-in tokens' hashes, bounded alike
    ladder: Ladder = field(init=False)  # ratings, in the accounts' file (ratings.py)
    lobby: dict[ServerConnection, str] = field(default_factory=dict)  # line: name, or ""
    # Quick games' tables waiting for a player, oldest first: code to the host's rating; and
    # those a player is joining now (put back in `quick` if the join fails).
    quick: dict[str, float] = field(default_factory=dict)
    # Each table's spectators: their lines and names ("" for one who gave none).
    watchers: dict[str, dict[ServerConnection, str]] = field(default_factory=dict)
    paired: dict[str, float] = field(default_factory=dict)
    lobby_every_s: float = 1.0  # the lobby hears its changes at most this often
    lobby_sent: float = -math.inf  # when it last heard them (monotonic)
    lobby_timer: asyncio.TimerHandle | None = None
    turn_clock: TurnClock = field(init=False)  # tables' turn limits (turn_clock.py)
    # Per table, each spectator's folded name (or "") and when the players last heard it.
    watch_heard: dict[str, dict[str, float]] = field(default_factory=dict)
    chatters: dict[str, Bucket] = field(default_factory=dict)  # lobby and gallery chat rates
    hosted_from: dict[str, set[str]] = field(default_factory=dict)  # address: tables it opened

    def __post_init__(self) -> None:
        self.addresses = Addresses(self.limits)
        self.account_tries = Addresses(self.limits)
        self.name_tries = Addresses(self.limits)
        self.sign_ins = SignIns(self.account_tries, self.name_tries)
        self.hashing = Hashing(self.limits)
        self.token_checks = Hashing(self.limits, what="sign-in tokens")
        self.ladder = Ladder(self.accounts)
        self.turn_clock = TurnClock(self._time_warning, self._time_up)

    def close(self) -> None:
        """The accounts' and the tables' files closed, once the server has stopped: an open
        SQLite connection left to the garbage collector is a ResourceWarning (Python 3.13)."""
        self.accounts.close()
        self.hashing.close()
        self.token_checks.close()
        if self.store is not None:
            self.store.close()

    def restore(self) -> None:
        """The stored tables, each seat away until it resumes (call inside the loop)."""
        if self.store is None:
            return
        now = self.clock()
        for table in self.store.open_tables():
            self.tables[table.code] = table
            for team, seat in table.seats.items():
                # A seat whose line dropped before the restart is waited for from then; one
                # still connected when the server stopped, from now.
                if seat.away_since is None:
                    seat.away_since = now
                self._wait_for(table, team, max(0.0, table.seat_wait_s - (now - seat.away_since)))
        LOG.info("%d tables restored", len(self.tables))

    def admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """Before the handshake: a client opening lines faster than `connects_per_s` (after
        its burst) is answered 429 at once, before it costs a handshake or a greeting."""
        if self.addresses.arrive(_peer(connection)):
            return None
        return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                  "Too many new connections from your address; wait a moment.\n")

    async def handle(self, connection: ServerConnection) -> None:
        """One connection: a greeting (host, join or resume), then that seat's actions until
        it goes. Too many lines from its address, a greeting that does not come, a flood or a
        string of wrong codes end it, each with a refusal in words."""
        limits, address = self.limits, _peer(connection)
        if not self.addresses.open(address):
            self._send(connection, p.Refused(
                p.BUSY, f"at most {limits.per_address} connections from one address", True))
            return
        bucket = Bucket(limits.messages_per_s, limits.burst)
        _bound_kernel_queue(connection, limits.send_queue_bytes)
        try:
            first = await asyncio.wait_for(connection.recv(), limits.greeting_s)
            greeting = p.decode_client(first)
            signed = typed = ""  # the player signed in on this line (folded, as typed)
            while isinstance(greeting, (p.SignUp, p.SignIn, p.AskRating, p.Lobby, p.Chat)):
                if not bucket.take():
                    raise p.ProtocolError(p.FLOOD, "more than "
                                          f"{limits.messages_per_s:g} messages a second")
                if isinstance(greeting, p.Lobby):
                    self._enter_lobby(connection, typed)
                elif isinstance(greeting, p.Chat):
                    self._lobby_chat(connection, greeting)
                elif isinstance(greeting, p.AskRating):
                    self._send(connection, await self._standing(signed))
                else:
                    answer = await self._account_work(greeting, address)
                    if isinstance(answer, p.SignedIn):
                        signed, typed = folded(answer.name), answer.name
                        self._rename_in_lobby(connection, typed)
                    self._send(connection, answer)
                # A line in the lobby may listen as long as it likes; others must greet.
                wait = None if connection in self.lobby else limits.greeting_s
                greeting = p.decode_client(await asyncio.wait_for(connection.recv(), wait))
            self._leave_lobby(connection)
            if isinstance(greeting, p.Watch):
                await self._watch(greeting, connection, address, typed, bucket)
                return
            rating = None  # a quick game's: the player's rating, to pair the nearest
            if isinstance(greeting, p.Quick):
                rating = (await asyncio.to_thread(self.ladder.rating, signed)).rating \
                    if signed else START[0]
                # Its seat is sealed first, so that pairing and seating are one step with no
                # wait between: two players pressing at once can never both open a table.
                secret = Prepared(seat=await asyncio.to_thread(_sealed_seat))
                greeting = self._paired(greeting, rating)
            else:
                secret = await self._password_work(greeting, address)
            _name_seat(secret, typed)
            try:
                code, team = self._greet(greeting, connection, address, secret)
            except p.ProtocolError:
                if rating is not None and isinstance(greeting, p.Join):
                    self.quick[greeting.code] = self.paired.pop(greeting.code, rating)
                raise
            if rating is not None and team is HOST_SEAT:
                self.quick[code] = rating  # waits for the next quick player
            self.paired.pop(code, None)
            self._sign_seat(code, team, signed)
            async for frame in connection:
                heard = self._receive(code, team, frame, connection)
                if heard == CLOSE:
                    break
                if heard == OTHER and not bucket.take():
                    LOG.warning("table %s: a flood from one seat closed its line", code)
                    self._send(connection, p.Refused(
                        p.FLOOD, f"more than {limits.messages_per_s:g} messages a second "
                                 "that do not move the game", True))
                    await _shut(connection)
                    break
        except p.ProtocolError as error:
            self._send(connection, p.Refused(error.code, str(error), fatal=True))
        except (TimeoutError, asyncio.TimeoutError, ConnectionClosed):
            pass
        finally:
            self.addresses.close(address)
            self._leave_lobby(connection)
            self._unwatch(connection)
            self._gone(connection)

    # -- the lobby ---------------------------------------------------------------------------

    def _enter_lobby(self, connection: ServerConnection, name: str) -> None:
        """The line hears the lobby now, and again as it changes; `name`: the player signed
        in on it, as typed ("" for none)."""
        self.lobby[connection] = name
        self._send(connection, self._lobby_list())
        if name:  # the others hear who came
            self._lobby_changed()

    def _rename_in_lobby(self, connection: ServerConnection, name: str) -> None:
        if connection in self.lobby:
            self.lobby[connection] = name
            self._lobby_changed()

    def _lobby_chat(self, connection: ServerConnection, message: p.Chat) -> None:
        """A chat line in the lobby, from a signed-in player, for everyone else there (the
        line's own flood limit, as at a table; a player's game mutes whom it likes)."""
        name = self.lobby.get(connection)
        if not name:
            why = "sign in to chat in the lobby" if name == "" else "not in the lobby"
            self._send(connection, p.Refused(p.NOT_NOW, why))
            return
        if self._chat_allowed(connection, folded(name)):
            self._chat_among(self.lobby, connection, name, message)

    def _chat_text(self, connection: ServerConnection, message: p.Chat) -> str | None:
        """A chat line as it is said (runs of spaces made one); None, the sender told why,
        when it cannot be one. The one check for a table's, the lobby's and a gallery's."""
        text = spaced(message.text)
        if text and len(text) <= p.MAX_CHAT and text.isprintable():
            return text
        self._send(connection, p.Refused(
            p.BAD_MESSAGE, f"a chat line has 1 to {p.MAX_CHAT} printable characters"))
        return None

    def _chat_among(self, lines: Iterable[ServerConnection], connection: ServerConnection,
                    name: str, message: p.Chat) -> None:
        """A chat line for every one of `lines` but its sender's (the lobby, a gallery)."""
        text = self._chat_text(connection, message)
        if text is not None:
            said = p.Said(name, text)
            for other in list(lines):
                if other is not connection:
                    self._send(other, said)

    def _leave_lobby(self, connection: ServerConnection) -> None:
        if self.lobby.pop(connection, None):  # a signed-in player went: the others hear it
            self._lobby_changed()

    def _lobby_list(self) -> p.LobbyList:
        """Only what every seat has heard already: names, scores, the drive; never a card.
        Each list capped (the longest waiting or played first, as tables are kept in the
        order they opened), so it fits a frame whatever strangers do; the counts are all."""
        tables: list[p.OpenTable] = []
        games: list[p.GamePlayed] = []
        open_count = playing = 0
        for code, table in self.tables.items():
            if not table.public or table.over:
                continue
            if table.full:
                playing += 1
                if len(games) < p.MAX_LISTED_GAMES:
                    state = table.game.state
                    games.append(p.GamePlayed(code, table.names(), list(state.scores),
                                              state.drive, len(self.watchers.get(code, {})),
                                              table.players()))
            elif HOST_SEAT in table.seats:
                open_count += 1
                if len(tables) < p.MAX_LISTED_TABLES:
                    tables.append(p.OpenTable(code, table.seats[HOST_SEAT].name,
                                              table.best_of))
        here = sorted(name for name in self.lobby.values() if name)[:p.MAX_LISTED_HERE]
        return p.LobbyList(sorted(tables, key=lambda table: table.code),
                           sorted(games, key=lambda game: game.code), here, open_count, playing)

    def _lobby_changed(self) -> None:
        """Tell the lobby, at most once every `lobby_every_s`: a busy server's changes are
        gathered into one list rather than a stream of them."""
        if not self.lobby or self.lobby_timer is not None:
            return
        due = self.lobby_sent + self.lobby_every_s - time.monotonic()
        if due <= 0:
            self._tell_lobby()
        else:
            self.lobby_timer = asyncio.get_running_loop().call_later(due, self._tell_lobby)

    def _tell_lobby(self) -> None:
        self.lobby_timer = None
        self.lobby_sent = time.monotonic()
        listing = self._lobby_list()
        for connection in list(self.lobby):
            self._send(connection, listing)

    # -- spectators --------------------------------------------------------------------------

    async def _watch(self, message: p.Watch, connection: ServerConnection, address: str,
                     signed_as: str, bucket: Bucket) -> None:
        """A spectator: the game as both seats hear it, from its start (or from `step`), and
        nothing it could act on. A wrong code counts against the address, as a join's does."""
        wait = self.addresses.blocked_for(address)
        if wait > 0:
            raise _slow_down(wait)
        table = self.tables.get(message.code.strip())
        if table is None or table.over:
            self.addresses.failed(address)
            raise p.ProtocolError(p.NO_TABLE, f"no game is being played at {message.code!r}")
        if not table.full:  # a real code, but nothing to watch yet
            raise p.ProtocolError(p.NOT_NOW, "the game at that table has not begun; watch it "
                                             "once both teams are there")
        name = _checked_name(message.name) if spaced(message.name) else signed_as
        watching = self.watchers.setdefault(table.code, {})
        watching[connection] = name
        self._send(connection, table.resumed(None, message.step))
        if self._first_watch(table.code, name):  # the players know who watches, once
            said = p.Watching(name, len(watching))  # ("": someone)
            self._deliver(table.code, [(team, said) for team in Team])
        if table.public:
            self._lobby_changed()
        async for frame in connection:
            if _leaving(frame):
                break
            if not bucket.take():
                raise p.ProtocolError(p.FLOOD, "more than "
                                      f"{self.limits.messages_per_s:g} messages a second")
            self._gallery(table.code, connection, name, frame)

    def _first_watch(self, code: str, name: str) -> bool:
        """Whether the players should hear that `name` watches: once a table for a name (a
        spectator who drops and watches again is not news), and at most once a minute for
        those who gave none."""
        heard = self.watch_heard.setdefault(code, {})
        key, now = folded(name), time.monotonic()
        last = heard.get(key)
        if last is not None and (key or now - last < ANONYMOUS_WATCH_S):
            return False
        heard[key] = now
        return True

    def _chat_allowed(self, connection: ServerConnection, who: str) -> bool:
        """A lobby or gallery chat line from `who` (a folded name, else the address) within
        its own rate, however many lines it has open: one player is one voice."""
        bucket = self.chatters.get(who)
        if bucket is None:
            if len(self.chatters) > CHATTERS_KEPT:
                self.chatters = {key: kept for key, kept in self.chatters.items()
                                 if not kept.full()}
            bucket = self.chatters[who] = Bucket(CHAT_PER_S, CHAT_BURST)
        if bucket.take():
            return True
        self._send(connection, p.Refused(p.TOO_FAST, f"at most {CHAT_PER_S:g} chat line a "
                                                     "second from one player"))
        return False

    def _gallery(self, code: str, connection: ServerConnection, name: str,
                 frame: str | bytes) -> None:
        """A spectator's message: a chat line (from a signed-in or named spectator) goes to
        the others watching this table, never to its seats, whose game it is; anything else
        is refused."""
        try:
            message = p.decode_client(frame)
        except p.ProtocolError as error:
            self._send(connection, p.Refused(error.code, str(error)))
            return
        if not isinstance(message, p.Chat):
            self._send(connection, p.Refused(p.NOT_NOW, "a spectator watches; it cannot act"))
            return
        if not name:
            self._send(connection, p.Refused(p.NOT_NOW, "a spectator chats with a name"))
        elif self._chat_allowed(connection, folded(name) or _peer(connection)):
            self._chat_among(self.watchers.get(code, {}), connection, name, message)

    def _unwatch(self, connection: ServerConnection) -> None:
        for code, watching in list(self.watchers.items()):
            if watching.pop(connection, None) is not None:
                if not watching:
                    del self.watchers[code]
                table = self.tables.get(code)
                if table is not None and table.public:
                    self._lobby_changed()

    def _tell_watchers(self, code: str, out: Outgoing) -> None:
        """What both seats heard (an update, a commit without its choice, a game starting)
        and a seat leaving: never a chat line, a seat's own token or its held choice."""
        watching = self.watchers.get(code)
        if not watching:
            return
        for team, message in out:
            if (isinstance(message, (p.Update, p.Committed, p.Start)) and team is Team.HOME) \
                    or isinstance(message, p.Left):
                for connection in list(watching):
                    self._send(connection, message)

    # -- quick games -------------------------------------------------------------------------

    def _paired(self, message: p.Quick, rating: float) -> p.Host | p.Join:
        """A quick game as a plain greeting: a join of the waiting table whose player's rating
        is nearest `rating` (the one waiting longest among equals; never a table of the same
        team name), or a host of a new one, which then waits in `quick`."""
        for code in [code for code in self.quick if code not in self.tables
                     or self.tables[code].full or self.tables[code].over]:
            del self.quick[code]  # filled, ended or forgotten since
        names = [spaced(message.name), spaced(message.other)]
        waiting = []  # (rating apart, age, code, the name this player joins it as)
        for order, (code, kept) in enumerate(self.quick.items()):
            theirs = self.tables[code].seats[HOST_SEAT].name
            fits = [name for name in names if name and not same_name(theirs, name)]
            if fits:
                waiting.append((abs(kept - rating), order, code, fits[0]))
        if not waiting:  # a new quick table, in the lobby like any public one, with a turn
            # limit: two strangers, and neither may keep the other waiting for ever.
            return p.Host(message.version, message.name, public=True, turn_s=p.QUICK_TURN_S)
        _apart, _age, code, name = min(waiting)
        self.paired[code] = self.quick.pop(code)  # held for this player while it joins
        return p.Join(message.version, code, name)

    # -- greetings ---------------------------------------------------------------------------

    async def _account_work(self, message: p.SignUp | p.SignIn,
                            address: str) -> p.SignedIn | p.Refused:
        """A sign-up or sign-in, its slow hash on the hashing threads (hashing.py), its try
        counted before the hash (sign_ins.py: a guesser is slowed, the name's owner is not).
        A sign-up counts against its address; past `failed_tries` a minute, or past the
        hashes one address or the server may have in hand, the answer is a refusal at once,
        without a hash (`slow_down`, `busy`: not fatal)."""
        name = skeletons(message.name)[1]  # look-alikes of a name are counted as the name
        token = isinstance(message, p.SignIn) and bool(message.token)
        if isinstance(message, p.SignUp):
            wait = self.account_tries.blocked_for(address)
            if wait <= 0:
                self.account_tries.failed(address)  # a sign-up costs a slow hash: counted
        else:
            wait = self.sign_ins.ask(name, address, token=token)
        if wait > 0:
            return p.Refused(p.SLOW_DOWN, f"too many tries; wait {math.ceil(wait)} seconds")
        try:
            if isinstance(message, p.SignUp):
                done = await self.hashing.run(address, partial(
                    self.accounts.sign_up, message.name, message.password))
            elif token:  # a token's hash is cheap: it never waits behind a password's
                done = await self.token_checks.run(address, partial(
                    self.accounts.sign_in, message.name, token=message.token),
                    owner=self.sign_ins.usual(name, address))
            else:
                done = await self.hashing.run(address, partial(
                    self.accounts.sign_in, message.name, message.password),
                    owner=self.sign_ins.usual(name, address))
        except HashRefused as error:
            if isinstance(message, p.SignUp):
                self.account_tries.refund(address)
            else:
                self.sign_ins.untried(name, address, token=token)
            return p.Refused(error.code, str(error))
        except AccountError as error:
            return p.Refused(error.code, str(error))
        except sqlite3.Error as error:  # a full disk, a damaged file: said, and the line lives
            LOG.error("the accounts file failed: %s", error)
            return p.Refused(p.NO_ROOM, "the server cannot keep players' names now; try "
                                        "again later")
        if isinstance(message, p.SignIn):
            self.sign_ins.answered(name, address, right=True, token=token)
        else:
            self.sign_ins.remember(name, address)
        LOG.info("a player signed %s", "up" if isinstance(message, p.SignUp) else "in")
        return p.SignedIn(done.name, done.token)

    async def _standing(self, signed: str) -> p.Standing | p.Refused:
        if not signed:
            return p.Refused(p.NOT_NOW, "sign in first to hear your rating")
        try:
            found = await asyncio.to_thread(self.ladder.standing, signed)
        except sqlite3.Error as error:
            LOG.error("the accounts file failed: %s", error)
            return p.Refused(p.NO_ROOM, "the server cannot read ratings now")
        if found is None:
            name = await asyncio.to_thread(self.accounts.name_of, signed)
            return p.Standing(name or signed)
        return p.Standing(found.name, found.rating, found.rank, found.of,
                          [(result.opponent, result.score) for result in found.recent],
                          found.above or "", found.below or "")

    def _sign_seat(self, code: str, team: Team, signed: str) -> None:
        """The seat just taken belongs to the player signed in on its line (a seat resumed
        keeps the player it had)."""
        table = self.tables.get(code)
        if not signed or table is None or team not in table.seats:
            return
        seat = table.seats[team]
        if not seat.account:
            seat.account = signed
            self._save(table)

    def _rate(self, table: Table) -> None:
        """A game that ended by play (a concession too) between two signed-in players is
        rated, on a thread; a game left before its end, or against itself, is not."""
        outcome = table.game.state.outcome
        home, away = (table.seats.get(team) for team in Team)
        if outcome is None or home is None or away is None or not home.account or \
                not away.account or home.account == away.account:
            return
        score = 0.5 if outcome.winner is None else float(outcome.winner is Team.HOME)
        if len(table.computer) == 1:  # the computer finished a dropped player's game: it
            score = float(Team.AWAY in table.computer)  # counts for the side that stayed
        rating: asyncio.Future[object] = asyncio.ensure_future(asyncio.to_thread(
            self.ladder.record, home.account, away.account, score))
        self.rating.add(rating)  # a reference until done, so the task is not collected
        rating.add_done_callback(self._rated)

    def _rated(self, done: asyncio.Future[object]) -> None:
        self.rating.discard(done)
        if not done.cancelled() and done.exception() is not None:
            LOG.error("a finished game could not be rated: %s", done.exception())

    async def _password_work(self, message: p.ClientMessage, address: str) -> Prepared:
        """The slow part of a greeting (argon2id), off the loop so it keeps serving every
        other table: a host's password locked and whether a join's password opens its table
        on the hashing threads (bounded: past them the greeting is refused at once, fatal),
        a new seat's token sealed and a resume's token checked on the default executor, so
        a new seat never waits behind a password. A guesser already slowed down is refused
        before any hash."""
        try:
            if isinstance(message, p.Host):
                password = _checked_password(message.password)
                locked = await self.hashing.run(address, partial(lock, password)) \
                    if password else ""
                return Prepared(seat=await asyncio.to_thread(_sealed_seat), lock=locked)
            if isinstance(message, p.Join):
                if self.addresses.blocked_for(address) > 0:
                    return Prepared(unlocked=False)  # refused in _greet without a hash
                table = self.tables.get(message.code.strip())
                kept = "" if table is None else table.lock
                unlocked = await self.hashing.run(address, partial(
                    unlocks, kept, message.password)) if kept else True
                return Prepared(seat=await asyncio.to_thread(_sealed_seat), unlocked=unlocked)
        except HashRefused as error:
            raise p.ProtocolError(error.code, str(error)) from None
        if isinstance(message, p.Resume):
            table = self.tables.get(message.code.strip()) or self.ended.get(message.code.strip())
            if table is not None:
                seats = dict(table.seats)
                found = await asyncio.to_thread(_opened, seats, message.token)
                return Prepared(resumed=found)
        return Prepared()

    def _greet(self, message: p.ClientMessage, connection: ServerConnection,
               address: str, secret: Prepared | None = None) -> tuple[str, Team]:
        """Seat the greeting's sender; a wrong code, token or password counts against its
        address, and an address with too many of them lately is not heard: no join at all,
        and only a resume with its seat's true token (a player whose line dropped)."""
        wait = self.addresses.blocked_for(address)
        if wait > 0 and isinstance(message, p.Join):
            raise _slow_down(wait)
        if isinstance(message, p.Host) and not message.computer:
            self._room_for_table(address, message.public)
        try:
            code, team = self._seat_greeted(message, connection, secret or Prepared())
            if isinstance(message, p.Host):
                self.hosted_from.setdefault(address, set()).add(code)
            return code, team
        except p.ProtocolError as error:
            if error.code in WRONG_TRIES:
                self.addresses.failed(address)
                if wait > 0:
                    raise _slow_down(wait) from None
            raise

    def _room_for_table(self, address: str, public: bool) -> None:
        """A new table waits for a player only while its address has fewer than
        `open_tables` waiting and, for a public one, the lobby fewer than `public_tables`:
        abandoned tables cannot fill the lobby (found online: 8,000 in 150 s)."""
        if len(self.hosted_from) > CHATTERS_KEPT:  # many addresses: forget those with none
            self.hosted_from = {where: codes for where, codes in self.hosted_from.items()
                                if any(self._waiting(code) for code in codes)}
        mine = self.hosted_from.get(address, set())
        mine.intersection_update(code for code in mine if self._waiting(code))
        if not mine:
            self.hosted_from.pop(address, None)
        if len(mine) >= self.limits.open_tables:
            raise p.ProtocolError(p.TABLES, f"at most {self.limits.open_tables} tables "
                                            "waiting for a player from one address")
        if public and sum(1 for table in self.tables.values() if table.public
                          and not table.full and not table.over) >= self.limits.public_tables:
            raise p.ProtocolError(p.TABLES, "the lobby is full of tables waiting for a "
                                            "player; join one, or try again later")

    def _waiting(self, code: str) -> bool:
        table = self.tables.get(code)
        return table is not None and not table.full and not table.over

    def _seat_greeted(self, message: p.ClientMessage, connection: ServerConnection,
                      secret: Prepared) -> tuple[str, Team]:
        """`secret`: what `_password_work` made off the loop for this greeting."""
        if isinstance(message, p.Host):
            seat = secret.seat or Seat(message.name)
            table = self._open(_checked_name(message.name), message.seat_wait_s, secret.lock,
                               seat)
            # A series the server does not know (best of 4, of -1) is single games.
            table.best_of = message.best_of if message.best_of in LENGTHS else 1
            table.replay_ties = message.replay_ties and table.best_of > 1
            table.public = message.public
            if message.turn_s not in p.TURN_LIMITS:
                self.tables.pop(table.code, None)
                raise p.ProtocolError(p.BAD_MESSAGE, "turn_s is one of "
                                      + ", ".join(map(str, p.TURN_LIMITS)))
            table.turn_s = message.turn_s
            if message.computer:  # the coach in the home seat: the game starts at once
                computer = _checked_name(message.computer)
                if same_name(computer, table.seats[HOST_SEAT].name):
                    self.tables.pop(table.code, None)
                    raise p.ProtocolError(p.SAME_NAME, "the computer's team needs a name of "
                                                       "its own")
                table.seats[HOST_SEAT.other] = Seat(computer)  # its token is never given
                table.computer.add(HOST_SEAT.other)
            if not self._save(table):  # kept before its code and token are given out
                self.tables.pop(table.code, None)
                raise p.ProtocolError(p.NO_ROOM, "the server cannot keep a new table now; "
                                                 "try again later")
            self._seat(table, HOST_SEAT, connection, seat.token)
            if table.full:  # against the computer: it plays what it owes at once
                self._commit(table, table.start() + stand_in_moves(table))
            return table.code, HOST_SEAT
        if isinstance(message, p.Join):
            name = _checked_name(message.name)
            table = self._table(message.code)
            if not secret.unlocked and table.lock:
                raise p.ProtocolError(p.BAD_PASSWORD, "that is not this table's password")
            if table.full:
                raise p.ProtocolError(p.TABLE_FULL, "both seats at that table are taken")
            if same_name(name, table.seats[HOST_SEAT].name):  # a score must name two teams
                raise p.ProtocolError(p.SAME_NAME, "the other team at that table has that name")
            team = HOST_SEAT.other
            seat = secret.seat or Seat(name)
            seat.name = name
            table.seats[team] = seat
            self._save(table)
            self._seat(table, team, connection, seat.token)
            self._deliver(table.code, table.start())
            self._arm_turns(table)
            if (table.code, HOST_SEAT) not in self.connections:
                # A table found by its code whose host dropped while it waited: the guest
                # hears so, and the computer stands in, rather than a silent wait.
                self._absent(table, HOST_SEAT)
            return table.code, team
        if isinstance(message, p.Resume):
            table = self._resumable(message.code)
            found = secret.resumed
            if found is None:  # a table read from the store just now: a hash or two
                found = _opened(table.seats, message.token)
            if not found:
                raise p.ProtocolError(p.BAD_TOKEN, "that seat token is not one of this table's")
            team = found[0]
            if table.over:  # it ended while this seat was away: it hears how, and no more
                self.connections.pop((table.code, team), None)
                self._send(connection, p.Seated(table.code, int(team), message.token))
                self._send(connection, table.resumed(team, message.step))
                for ending in table.ending(team):
                    self._send(connection, ending)
                return table.code, team
            old = self.connections.get((table.code, team))
            if old is not None:  # the same seat from a new line: the old one is stale
                del self.connections[(table.code, team)]
                self._send(old, p.Refused(p.ELSEWHERE, "this seat was taken up on another "
                                                       "line", fatal=True))
                closing = asyncio.ensure_future(old.close())
                self.closing.add(closing)
                closing.add_done_callback(self.closing.discard)
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
                self._save(table)
            self._seat(table, team, connection, message.token)
            if table.full:
                self._send(connection, table.resumed(team, message.step))
                self._arm_turns(table)
                if old is None:  # the other seat heard it was away (a line taken over was not)
                    self._deliver(table.code, [(team.other, p.Back(table.seats[team].name))])
                if table.computer:  # a choice the computer owes (a restart came between)
                    self._commit(table, stand_in_moves(table))
            return table.code, team
        raise p.ProtocolError(p.BAD_MESSAGE, "the first message hosts, joins, resumes or "
                                             "signs in")

    def _table(self, code: str) -> Table:
        found = self.tables.get(code.strip())
        if found is None or found.over:
            raise p.ProtocolError(p.NO_TABLE, f"no open table has the code {code!r}")
        return found

    def _resumable(self, code: str) -> Table:
        """The table a seat comes back to: an open one, or one that ended while the seat was
        away (the server may have forgotten it, or restarted just after its last step)."""
        table = self.tables.get(code.strip()) or self.ended.get(code.strip())
        if table is None and self.store is not None:
            table = self.store.ended(code.strip())
        if table is None:
            raise p.ProtocolError(p.NO_TABLE, f"no table has the code {code!r}")
        return table

    def _new_game(self) -> Game:
        """A new game's dice: game n of this server's from seed + n, else the system's."""
        seed = None if self.seed is None else self.seed + self.opened
        self.opened += 1
        return new_game(seed)

    def _open(self, name: str, seat_wait_s: int, locked: str, seat: Seat) -> Table:
        if not p.MIN_SEAT_WAIT_S <= seat_wait_s <= p.MAX_SEAT_WAIT_S:
            raise p.ProtocolError(p.BAD_MESSAGE, f"seat_wait_s is {p.MIN_SEAT_WAIT_S} to "
                                                 f"{p.MAX_SEAT_WAIT_S} seconds")
        code = _new_code(self.tables)
        seat.name = name
        table = Table(code, self._new_game(), {HOST_SEAT: seat}, seat_wait_s=seat_wait_s,
                      lock=locked)
        self.tables[code] = table
        LOG.info("table %s opened", code)
        return table

    def _seat(self, table: Table, team: Team, connection: ServerConnection,
              token: str) -> None:
        self.connections[(table.code, team)] = connection
        self._send(connection, p.Seated(table.code, int(team), token))
        if table.public:  # a table opened, or its game began
            self._lobby_changed()

    # -- a seated connection -----------------------------------------------------------------

    def _receive(self, code: str, team: Team, frame: str | bytes,
                 connection: ServerConnection) -> str:
        """One message from a seat: PLAYED when it moved the game (a step committed or
        played), CLOSE when the connection should close, OTHER for anything else (what the
        flood limit counts: a game moves only as fast as both seats, so its own moves are
        never a flood)."""
        table = self.tables.get(code)
        current = self.connections.get((code, team)) is connection
        if current and table is not None:
            try:
                message = p.decode_client(frame)
            except p.ProtocolError as error:
                self._send(connection, p.Refused(error.code, str(error)))
                return OTHER
        elif table is None or table.over:  # it ended while this seat was away, or was let go
            if not _leaving(frame):
                self._send(connection, p.Refused(p.OVER, "the game at this table is over",
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
                self._rate(table)
            return PLAYED if (table.step, len(table.held)) != before[:2] else OTHER
        if isinstance(message, p.Chat):
            text = self._chat_text(connection, message)
            if text is not None:
                self._deliver(code, [(team.other, p.Said(table.seats[team].name, text))])
            return OTHER
        if isinstance(message, p.MoreTime):
            self._send(connection, self.turn_clock.more_time(table, team))
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
        self._send(connection, p.Refused(p.NOT_NOW, "you already have a seat"))
        return OTHER

    def _gone(self, connection: ServerConnection) -> None:
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
            self._save(table)
            self._arm_turns(table)  # an away seat's turn does not run: its seat wait does
            self._wait_for(table, team)
            if table.full:
                self._absent(table, team)

    def _absent(self, table: Table, team: Team) -> None:
        """The seat opposite `team`'s hears it is away (and how long it is waited for), and
        the computer stands in for it once the seat has been away `stand_in_after_s` in all
        during this step: dropping and coming back does not start that wait again."""
        seat = table.seats[team]
        now = self.clock()
        away_since = now if seat.away_since is None else seat.away_since
        left = max(1, math.ceil(table.seat_wait_s - (now - away_since)))
        self._deliver(table.code, [(team.other, p.Away(seat.name, left))])
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
            self._rate(table)

    def _end(self, table: Table, out: Outgoing) -> None:
        was_over = table.game.is_over
        self._commit(table, out)
        if out and table.left_by is not None:
            how = "did not come back" if table.left_why == "timeout" else "left"
            LOG.info("table %s ended: the %s seat %s%s", table.code, table.left_by.name.lower(),
                     how, " after the game" if was_over else "")
        if not any(key[0] == table.code for key in self.connections):
            self._forget(table.code)

    def _forget(self, code: str) -> None:
        table = self.tables.pop(code, None)
        if table is not None and table.public:
            self._lobby_changed()
        if table is not None and table.over:
            self.ended[code] = table
            while len(self.ended) > ENDED_KEPT:
                self.ended.popitem(last=False)
        for timers in (self.waits, self.stand_ins):
            for key in [key for key in timers if key[0] == code]:
                timers.pop(key).cancel()
        for team in Team:
            self.away_spent.pop((code, team), None)
        self.watch_heard.pop(code, None)
        self.turn_clock.forget(code)

    def _commit(self, table: Table, out: Outgoing) -> None:
        """Keep the table, then tell the seats: no seat ever hears of a step the disk does
        not have, so a server killed between the two never goes back behind its players."""
        self._save(table)
        self._deliver(table.code, out)
        self._arm_turns(table)
        if table.public:
            self._lobby_changed()

    # -- turn limits --------------------------------------------------------------------------

    def _arm_turns(self, table: Table) -> None:
        self.turn_clock.arm(table, lambda team: (table.code, team) in self.connections)

    def _time_warning(self, code: str, team: Team) -> None:
        table, connection = self.tables.get(code), self.connections.get((code, team))
        if table is not None and connection is not None:
            self._send(connection, p.TimeWarning(p.TURN_WARNING_S,
                                                 self.turn_clock.extensions_left(table, team)))

    def _time_up(self, code: str, team: Team, step: int) -> None:
        """A turn ran out: both seats hear whose, and its last cards are played again."""
        table = self.tables.get(code)
        if table is None or table.over or table.step != step or team in table.held:
            return
        LOG.info("table %s: the %s seat's turn ran out at step %d", code, team.name.lower(),
                 step)
        out: Outgoing = [(each, p.TimeUp(table.seats[team].name)) for each in Team]
        out += table.act(team, step, [action_to_wire(last_cards(table, team))])
        was_over = table.over
        self._commit(table, out + stand_in_moves(table))
        if table.over and not was_over:
            self._rate(table)

    def _save(self, table: Table) -> bool:
        """Keep `table` in the store; False (said in the log) when the store cannot write, as
        when its disk is full: the table goes on in memory, and no new table is opened until
        a save succeeds again (`storage_failing`)."""
        if self.store is None:
            return True
        try:
            self.store.save(table)
        except (sqlite3.Error, OSError) as error:
            if not self.storage_failing:
                LOG.error("the data folder cannot be written (%s): open tables go on in memory "
                          "only, and no new table is opened until it can", error)
            self.storage_failing = True
            return False
        if self.storage_failing:
            LOG.warning("the data folder can be written again")
        self.storage_failing = False
        return True

    # -- sending -----------------------------------------------------------------------------

    def _deliver(self, code: str, out: Outgoing) -> None:
        for team, message in out:
            connection = self.connections.get((code, team))
            if connection is not None:
                self._send(connection, message)
        self._tell_watchers(code, out)

    def _send(self, connection: ServerConnection, message: p.Message) -> None:
        """Queue `message` for a client, never waiting on it. One that has left more than
        `send_queue_bytes` unread is cut off instead (its seat is then away, and may resume)."""
        transport = connection.transport
        queued = transport.get_write_buffer_size() if transport is not None else 0
        if queued > self.limits.send_queue_bytes:
            if not transport.is_closing():
                self.dropped += 1
                LOG.warning("a client that does not read was dropped (%d bytes unread)", queued)
                transport.abort()
            return
        broadcast([connection], p.encode(message))


@dataclass
class Prepared:
    """What a greeting needed hashed, made off the loop (`TableService._password_work`): a
    host's or a guest's new seat with its token sealed, a host's password locked, whether a
    join's password opened its table, and the seats a resume's token opens (None: not
    looked at yet)."""

    seat: Seat | None = None
    lock: str = ""
    unlocked: bool = True
    resumed: list[Team] | None = None


def _name_seat(secret: Prepared, typed: str) -> None:
    """A new seat carries its signed-in player's name as typed before its table starts, so
    the start (and the lobby) tell the other seat whom it plays ("": not signed in)."""
    if secret.seat is not None:
        secret.seat.player = typed


def _sealed_seat() -> Seat:
    """A new seat with its token sealed (a host's, a guest's, a quick player's whichever seat
    it gets); cheap, so never on the password hashes' threads."""
    seat = Seat("")
    seat.seal()
    return seat


def _opened(seats: dict[Team, Seat], token: str) -> list[Team]:
    return [team for team, seat in seats.items() if seat.opens(token)]


def _checked_name(name: str) -> str:
    """A team name as said: runs of spaces made one, but a tab, a line break, a separator or
    a direction mark refused rather than turned into spaces (`isprintable` refuses them)."""
    name = spaced(name)
    if not name or len(name) > p.MAX_NAME or not name.isprintable():
        raise p.ProtocolError(p.BAD_NAME, f"a team name has 1 to {p.MAX_NAME} printable "
                                          "characters")
    if not all(skeletons(name)):  # only invisible characters: silent when read aloud
        raise p.ProtocolError(p.BAD_NAME, "a team name needs something to say")
    return name


def _leaving(frame: str | bytes) -> bool:
    """Whether `frame` is a `leave`, which needs no answer once the table is gone."""
    try:
        return isinstance(p.decode_client(frame), p.Leave)
    except p.ProtocolError:
        return False


async def _shut(connection: ServerConnection) -> None:
    """Close a line that is still sending: what it sends meanwhile is read and dropped, so
    its answer to the close is heard (unread, the frames would stop the reading, and the
    close would wait out its timeout)."""
    closing = asyncio.ensure_future(connection.close(1008, "policy"))
    with contextlib.suppress(ConnectionClosed):
        async for _frame in connection:
            pass
    await closing


def _slow_down(wait: float) -> p.ProtocolError:
    return p.ProtocolError(p.SLOW_DOWN, "too many wrong codes from your address; try again "
                                        f"in {math.ceil(wait)} s")


def _checked_password(password: str) -> str:
    if len(password) > p.MAX_PASSWORD or not password.isprintable():
        raise p.ProtocolError(p.BAD_MESSAGE, f"a table password has at most {p.MAX_PASSWORD} "
                                             "printable characters")
    return password


def _bound_kernel_queue(connection: ServerConnection, size: int) -> None:
    """The system's send buffer for this client, fixed at `size` instead of growing up to
    megabytes: with the service's own bound, a client that never reads holds little."""
    sock = connection.transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def _peer(connection: ServerConnection) -> str:
    """The client's address (its IP), which the per-address limits count."""
    remote = connection.remote_address
    return str(remote[0]) if remote else "unknown"


def _new_code(taken: Iterable[str]) -> str:
    used = set(taken)
    while True:
        code = f"{secrets.randbelow(10 ** p.CODE_DIGITS):0{p.CODE_DIGITS}d}"
        if code not in used:
            return code


async def start(service: TableService, host: str, port: int,
                tls: ssl.SSLContext | None = None) -> Server:
    """Listen on `host`:`port` (0: a free port); the server is running when this returns."""
    return await serve(service.handle, host, port, ssl=tls, max_size=p.MAX_MESSAGE_BYTES,
                       open_timeout=service.limits.handshake_s, compression=None,
                       process_request=service.admit)


def address(server: Server, tls: bool) -> str:
    """The URL a game joins: ws://HOST:PORT (wss:// with TLS)."""
    host, port = next(iter(server.sockets)).getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"{'wss' if tls else 'ws'}://{host}:{port}"


async def stop(server: Server) -> None:
    server.close()
    with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
        await asyncio.wait_for(server.wait_closed(), 5)
