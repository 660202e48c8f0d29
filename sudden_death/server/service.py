"""The table server on the network: WebSocket connections in, tables' messages out.

Built on `websockets` (asyncio): it does the handshake, the framing, pings and the size limit,
so this module is only the table logic's postman. Every message to a seat is written with
`broadcast`, which queues the frame without waiting for that client to read it: one slow seat
never holds up the other's reveal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import ssl
from collections.abc import Iterable
from dataclasses import dataclass, field

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from ..engine.state import Team
from ..net import protocol as p
from .tables import HOST_SEAT, Outgoing, Seat, Table, new_game

LOG = logging.getLogger("sudden_death.server")
GREETING_TIMEOUT_S = 10.0  # a connection that says nothing is closed after this


@dataclass
class TableService:
    """Every open table, and who is connected to which seat. `seed`: table n's dice come from
    seed + n (tests and replays); None: from the system's entropy."""

    seed: int | None = None
    tables: dict[str, Table] = field(default_factory=dict)
    seeds: dict[str, int | None] = field(default_factory=dict)
    connections: dict[tuple[str, Team], ServerConnection] = field(default_factory=dict)
    opened: int = 0

    async def handle(self, connection: ServerConnection) -> None:
        """One connection: a greeting (host or join), then that seat's actions until it goes."""
        try:
            first = await asyncio.wait_for(connection.recv(), GREETING_TIMEOUT_S)
            message = p.decode_client(first)
            seated = self._greet(message, connection)
            if seated is None:
                return
            code, team = seated
            async for frame in connection:
                if not self._receive(code, team, frame, connection):
                    break
        except p.ProtocolError as error:
            self._send(connection, p.Refused(error.code, str(error), fatal=True))
        except (TimeoutError, asyncio.TimeoutError, ConnectionClosed):
            pass
        finally:
            self._gone(connection)

    # -- greetings ---------------------------------------------------------------------------

    def _greet(self, message: p.ClientMessage,
               connection: ServerConnection) -> tuple[str, Team] | None:
        if isinstance(message, p.Host):
            name = _checked_name(message.name)
            table = self._open(name)
            self._seat(table, HOST_SEAT, connection)
            return table.code, HOST_SEAT
        if isinstance(message, p.Join):
            name = _checked_name(message.name)
            found = self.tables.get(message.code.strip())
            if found is None or found.over:
                raise p.ProtocolError(p.NO_TABLE, f"no open table has the code {message.code!r}")
            table = found
            if table.full:
                raise p.ProtocolError(p.TABLE_FULL, "both seats at that table are taken")
            team = HOST_SEAT.other
            table.seats[team] = Seat(name)
            self._seat(table, team, connection)
            self._deliver(table.code, table.start())
            return table.code, team
        raise p.ProtocolError(p.BAD_MESSAGE, "the first message hosts or joins a table")

    def _open(self, name: str) -> Table:
        code = _new_code(self.tables)
        seed = None if self.seed is None else self.seed + self.opened
        self.opened += 1
        table = Table(code, new_game(seed), {HOST_SEAT: Seat(name)})
        self.tables[code], self.seeds[code] = table, seed
        LOG.info("table %s opened", code)
        return table

    def _seat(self, table: Table, team: Team, connection: ServerConnection) -> None:
        self.connections[(table.code, team)] = connection
        seat = table.seats[team]
        self._send(connection, p.Seated(table.code, int(team), seat.token))

    # -- a seated connection -----------------------------------------------------------------

    def _receive(self, code: str, team: Team, frame: str | bytes,
                 connection: ServerConnection) -> bool:
        """One message from a seat; False when the connection should close."""
        table = self.tables[code]
        try:
            message = p.decode_client(frame)
        except p.ProtocolError as error:
            self._send(connection, p.Refused(error.code, str(error)))
            return True
        if isinstance(message, p.Act):
            self._deliver(code, table.act(team, message.step, message.actions))
            return True
        if isinstance(message, p.Leave):
            self._deliver(code, table.leave(team))
            return False
        self._send(connection, p.Refused(p.NOT_NOW, "you already have a seat"))
        return True

    def _gone(self, connection: ServerConnection) -> None:
        """A connection closed. Until seats can come back (reconnection), a seat that drops
        leaves its table, and the other seat is told."""
        for (code, team), known in list(self.connections.items()):
            if known is connection:
                del self.connections[(code, team)]
                table = self.tables.get(code)
                if table is not None:
                    self._deliver(code, table.leave(team))
                    if not any(key[0] == code for key in self.connections):
                        del self.tables[code]

    # -- sending -----------------------------------------------------------------------------

    def _deliver(self, code: str, out: Outgoing) -> None:
        for team, message in out:
            connection = self.connections.get((code, team))
            if connection is not None:
                self._send(connection, message)

    @staticmethod
    def _send(connection: ServerConnection, message: p.Message) -> None:
        broadcast([connection], p.encode(message))


def _checked_name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > p.MAX_NAME or not name.isprintable():
        raise p.ProtocolError(p.BAD_NAME, f"a team name has 1 to {p.MAX_NAME} printable "
                                          "characters")
    return name


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
                       open_timeout=GREETING_TIMEOUT_S, compression=None)


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
