"""The table server's connection handler: a WebSocket line in, its greeting, and each of its
messages handed to the role that owns it.

Built on `websockets` (asyncio): it does the handshake, the framing, pings and the size limit.
This module admits a line (its address's limits, `limits.py`), reads its greeting and
dispatches by message type: signing up, signing in and ratings to the account desk
(`account_desk.py`), the lobby's messages to the lobby (`lobby.py`), a `watch` to the gallery
(`gallery.py`), a `quick` to quick pairing (`pairing.py`), and a host, join or resume, then
every step, to the seats (`seats.py`); and closing the line, whose seat is then away. It holds
no table, seat, spectator or account of its own: `TableService` builds the roles, wires each
to the others' small calls, and owns only the lines' admission. Every message out goes through
the postman (`postman.py`), which never waits on a client; a message for many lines goes
through the fan-out (`fanout.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..engine.state import Team
from ..wire import protocol as p
from ..wire.names import folded
from .cluster import relay
from .cluster.fanout import LocalFanOut
from .cluster.relay import Here, QuickElsewhere, Relayed, Routes
from .lines.limits import Addresses, Bucket, Limits
from .lines.line import Line, admitted, bound_kernel_queue, counted, peer, shut
from .lines.plain import headless, methods
from .lines.postman import Postman
from .lines.try_again import TryAgain, refused_for_now
from .operations.health import Probes, Readiness
from .operations.watch import Unwatched, Watch
from .roles.account_desk import AccountDesk
from .roles.chat import ChatRates
from .roles.gallery import Gallery
from .roles.lobby import Lobby
from .roles.pairing import QuickPairing
from .roles.seats import CLOSE, OTHER, PLAYED, Prepared, Seats, name_seat, sealed_seat
from .stores.accounts import Accounts
from .stores.ratings import RatedAccounts
from .stores.seam import AccountStore, TableStore
from .tables import HOST_SEAT, Outgoing, Table

__all__ = ["PLAYED", "TableService", "address", "start", "start_relay", "stop"]
LOG = logging.getLogger("sudden_death.server")
ACCOUNT_WORK = (p.SignUp, p.SignIn, p.AskRating, p.Lobby, p.Chat)  # before a seat or a watch


@dataclass
class TableService:
    """One server's roles, wired together. `seed`: table n's dice come from seed + n (tests and
    replays); None: from the system's entropy. `store`: where tables are kept, so they outlive
    the process; `accounts`: players' names (in memory unless the server has a --data folder):
    the SQLite file's `Accounts`, whose ladder is kept beside it, or any whole account store
    (stores.AccountStore: PostgreSQL's)."""

    seed: int | None = None
    store: TableStore | None = None
    limits: Limits = field(default_factory=Limits)
    accounts: Accounts | AccountStore = field(default_factory=Accounts)
    clock: Callable[[], float] = time.time  # wall-clock: a seat's drop time outlives the process
    # This server's name in the store's claims on tables: the same across its restarts, so it
    # takes its own tables back; servers sharing one store each need their own.
    name: str = field(default_factory=socket.gethostname)
    # In a cluster (--valkey): which process holds which table; a line greeted with a table
    # held elsewhere is relayed there (relay.py). None: every table is here.
    routes: Routes | None = None
    # ...and the quick games waiting on every process (valkey_quick.py). None: only here.
    quick: QuickElsewhere | None = None
    site: Callable[[ServerConnection, Request], Response | None] | None = None  # the page's
    watch: Watch = field(default_factory=Unwatched)  # metrics.py's with --metrics-from
    # Set on a clean stop (__main__): /readyz answers 503 from then on (health.py).
    draining: bool = False
    probes: Probes = field(init=False)  # /healthz, /readyz, /metrics (health.py)
    postman: Postman = field(init=False)
    addresses: Addresses = field(init=False)  # lines and wrong codes, per address
    desk: AccountDesk = field(init=False)
    lobby: Lobby = field(init=False)
    gallery: Gallery = field(init=False)
    pairing: QuickPairing = field(init=False)
    seats: Seats = field(init=False)

    def __post_init__(self) -> None:
        self.probes = Probes(Readiness(draining=lambda: self.draining))
        self.postman = Postman(self.limits.send_queue_bytes,
                               refused=lambda code: self.watch.refused(code))
        fanout = LocalFanOut(self.postman.send_frames)
        chat_rates = ChatRates()
        self.addresses = Addresses(self.limits)
        accounts = self.accounts
        self.desk = AccountDesk(RatedAccounts(accounts=accounts)
                                if isinstance(accounts, Accounts) else accounts, self.limits)
        self.lobby = Lobby(self.postman, fanout, chat_rates,
                           tables=lambda: self.seats.tables.values(),
                           watching=lambda code: self.gallery.count(code))
        self.gallery = Gallery(self.postman, fanout, chat_rates, self.addresses,
                               table=lambda code: self.seats.tables.get(code),
                               tell_players=lambda code, out: self.seats.deliver(code, out),
                               lobby_changed=self.lobby.changed,
                               messages_per_s=self.limits.messages_per_s)
        self.pairing = QuickPairing(table=lambda code: self.seats.tables.get(code))
        self.seats = Seats(self.postman, self.limits, self.addresses, self.desk.hashing,
                           tell_watchers=self._told, lobby_changed=self.lobby.changed,
                           rate=self.desk.rate, forget_watchers=self.gallery.forget,
                           seed=self.seed, store=self.store, owner=self.name, clock=self._now)

    def _now(self) -> float:
        return self.clock()  # read at each call: a test may set the service's clock later

    def _told(self, code: str, out: Outgoing) -> None:  # a table's kept changes, told
        self.watch.told(code, out)
        self.gallery.tell(code, out)

    @property
    def tables(self) -> dict[str, Table]:
        """Every open table (the seats role's)."""
        return self.seats.tables

    async def settled(self) -> None:
        """Every change already handed to the tables store written: call before `close`."""
        await self.seats.keeper.settled()

    def close(self) -> Awaitable[None] | None:
        """The accounts' and the tables' files closed, once the server has stopped: an open
        SQLite connection left to the garbage collector is a ResourceWarning (Python 3.13).
        A store whose close is awaited (a database's pool) returns its awaitable."""
        self.desk.close()
        return None if self.store is None else self.store.close()

    def restore(self) -> Awaitable[None] | None:
        """The stored tables, each seat away until it resumes (call inside the loop); with a
        store whose answers are awaited, once the awaitable it returns completes."""
        return self.seats.restore()

    async def admit(self, connection: ServerConnection, request: Request) -> Response | None:
        """Before the handshake: a client opening lines faster than `connects_per_s` (after
        its burst) is answered 429 at once; a request for the browser page (web/site.py) is
        answered here too, each file a line like any other. An operator's probe (health.py)
        is answered first: probes never spend an address's new lines."""
        if (answer := await self.probes.answer(connection, request)) is not None:
            return answer
        if not await self.addresses.arriving(peer(connection)):
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS, "Too many new "
                                      "connections from your address; wait a moment.\n")
        return None if self.site is None else self.site(connection, request)

    async def handle(self, connection: ServerConnection) -> None:
        """One connection: a greeting (host, join or resume), then that seat's actions until
        it goes. Too many lines from its address, a greeting that does not come, a flood or a
        string of wrong codes end it, each with a refusal in words. Its line was counted
        from its TCP accept (lines.Counting); a relayed one, by the process it reached."""
        limits, address = self.limits, peer(connection)
        relayed: Relayed | None = getattr(connection, "relayed", None)
        if not await admitted(connection):
            self.postman.send(connection, p.Refused(
                p.BUSY, f"at most {limits.per_address} connections from one address", True))
            return
        bucket = Bucket(limits.messages_per_s, limits.burst)
        bound_kernel_queue(connection, limits.send_queue_bytes)
        try:
            signed, typed, greeting = await self._before_a_seat(connection, address, bucket,
                                                                relayed)
            holder = None if relayed is not None else await self._elsewhere(greeting, signed)
            if holder is not None and self.routes is not None:
                await relay.hand_over(connection, holder, p.encode(greeting),
                                      Relayed(address, signed, typed), self.routes, self.postman)
                return
            if isinstance(greeting, p.Watch):
                await self.gallery.watch(greeting, connection, address, typed, bucket)
                return
            code, team = await self._seated(greeting, connection, address, signed, typed)
            async for frame in connection:
                when = self.watch.heard(code)
                heard = self.seats.receive(code, team, frame, connection)
                self.watch.handled(code, when, heard == PLAYED)
                if heard == CLOSE:
                    break
                if heard == OTHER and not bucket.take():
                    LOG.warning("table %s: a flood from one seat closed its line", code)
                    self.postman.send(connection, p.Refused(
                        p.FLOOD, f"more than {limits.messages_per_s:g} messages a second "
                                 "that do not move the game", True))
                    await shut(connection)
                    break
        except TryAgain as error:  # not now: not fatal, the line closed to try again
            await refused_for_now(self.postman, connection, error)
        except p.ProtocolError as error:
            self.postman.send(connection, p.Refused(error.code, str(error), fatal=True))
            if error.code == p.FLOOD:  # a spectator's or the lobby's: it is still sending
                await shut(connection)
        except (TimeoutError, asyncio.TimeoutError, ConnectionClosed):
            pass
        finally:
            self.lobby.leave(connection)
            self.gallery.unwatch(connection)
            self.seats.gone(connection)

    async def _elsewhere(self, greeting: p.ClientMessage, signed: str) -> str | None:
        """In a cluster, the relay address of the process this greeting belongs to, when it
        is another one (relay.holder_of); None: served here."""
        if self.routes is None:
            return None
        seats = self.seats
        return await relay.holder_of(greeting, signed, self.routes, Here(
            holds=lambda code: code in seats.tables or code in seats.ended, adopt=seats.adopt,
            quick_waits=lambda: bool(self.pairing.hosting or self.pairing.waiting()),
            quick_elsewhere=None if self.quick is None else self.quick.nearest,
            rating=self.desk.quick_rating))

    async def _before_a_seat(self, connection: ServerConnection, address: str,
                             bucket: Bucket, relayed: Relayed | None = None,
                             ) -> tuple[str, str, p.ClientMessage]:
        """Signing up or in, the lobby and its chat, a rating asked: what a line may do before
        it greets a seat or a table to watch. Returns the player signed in on it (folded, as
        typed; "" for none: a relayed line's, its sending process's) and the greeting that
        ended it."""
        limits = self.limits
        first = await asyncio.wait_for(connection.recv(), limits.greeting_s)
        greeting = p.decode_client(first)
        signed, typed = (relayed.signed, relayed.typed) if relayed is not None else ("", "")
        while isinstance(greeting, ACCOUNT_WORK):
            if not bucket.take():
                raise p.ProtocolError(p.FLOOD, "more than "
                                      f"{limits.messages_per_s:g} messages a second")
            if isinstance(greeting, p.Lobby):
                self.lobby.enter(connection, typed)
            elif isinstance(greeting, p.Chat):
                self.lobby.chat(connection, greeting)
            elif isinstance(greeting, p.AskRating):
                self.postman.send(connection, await self.desk.standing(signed))
            else:
                answer = await self.desk.work(greeting, address)
                if isinstance(answer, p.SignedIn):
                    signed, typed = folded(answer.name), answer.name
                    self.lobby.rename(connection, typed)
                self.postman.send(connection, answer)
            # A line in the lobby may listen as long as it likes; others must greet.
            wait = None if connection in self.lobby else limits.greeting_s
            greeting = p.decode_client(await asyncio.wait_for(connection.recv(), wait))
        self.lobby.leave(connection)
        return signed, typed, greeting

    async def _seated(self, greeting: p.ClientMessage, connection: ServerConnection,
                      address: str, signed: str, typed: str) -> tuple[str, Team]:
        """A host, join, resume or quick game: the line's seat, and its player's name on it."""
        rating = None  # a quick game's: the player's rating, to pair the nearest
        if isinstance(greeting, p.Quick):
            rating = await self.desk.quick_rating(signed)
            # Its seat is sealed first, so that pairing and seating are one step with no
            # wait between: two players pressing at once can never both open a table.
            secret = Prepared(seat=await asyncio.to_thread(sealed_seat))
            await self.pairing.settled()  # a quick table being hosted here is joined
            greeting = self.pairing.pair(greeting, rating)
        else:
            secret = await self.seats.password_work(greeting, address)
        name_seat(secret, typed)
        try:
            code, team = await self.seats.greet(greeting, connection, address, secret)
        except p.ProtocolError:
            if rating is not None and isinstance(greeting, p.Join):
                self.pairing.failed(greeting.code, rating)
            raise
        else:
            if rating is not None and team is HOST_SEAT:
                self.pairing.waits(code, rating)  # waits for the next quick player
        finally:
            if rating is not None and isinstance(greeting, p.Host):
                self.pairing.hosted()  # a quick player waiting for it is paired now
            if rating is not None and self.quick is not None:
                self.quick.changed()  # the cluster hears of it within a fraction of a second
        self.pairing.seated(code)
        self.seats.sign_seat(code, team, signed)
        return code, team


async def start(service: TableService, host: str, port: int,
                tls: ssl.SSLContext | None = None, reuse_port: bool = False) -> Server:
    """Listen on `host`:`port` (0: a free port); the server is running when this returns.
    `reuse_port`: other processes may listen on the same port (SO_REUSEPORT: the kernel
    spreads new connections over them; a cluster's processes, each reaching every table)."""
    return await serve(service.handle, host, port, ssl=tls, max_size=p.MAX_MESSAGE_BYTES,
                       open_timeout=service.limits.handshake_s, compression=None,
                       process_request=methods(service.admit), process_response=headless,
                       create_connection=counted(service.addresses, Line),
                       reuse_port=reuse_port or None)


async def start_relay(service: TableService, host: str, port: int) -> Server:
    """The relay listener (relay.py): lines the cluster's other processes hand this one, each
    with a ticket, served as its own; anything else is refused before the handshake. Plain
    WebSocket: it belongs on loopback or the operator's private network (docs/server.md)."""
    return await serve(service.handle, host, port, max_size=p.MAX_MESSAGE_BYTES,
                       open_timeout=service.limits.handshake_s, compression=None,
                       process_request=methods(relay.admit_relayed(lambda: service.routes)),
                       create_connection=Line)


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
