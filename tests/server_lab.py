"""A table server on loopback for tests, and real WebSocket clients to talk to it: a test
opens the server with `server()` (its limits as the test needs them), and every client it
connects is closed at the end."""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import legal_actions
from sudden_death.engine.state import GameState, Team
from sudden_death.server.lines.limits import Limits
from sudden_death.server.lines.line import untangle
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.stores.accounts import Accounts
from sudden_death.server.stores.seam import TableStore
from sudden_death.web.site import Site
from sudden_death.wire import protocol as p
from sudden_death.wire.values import WireAction, action_to_wire, from_json

QUIET_S = 0.3  # how long a seat listens for a message that must not come


class Client(ClientConnection):
    """A test's client, which like the server's lines (lines.Line) leaves no reference cycle
    once closed: a test can then ask the collector what the server left."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self)


class Lab:
    """A running server and the clients a test opened (all closed at its end)."""

    def __init__(self, service: TableService, url: str) -> None:
        self.service, self.url = service, url
        self.clients: list[ClientConnection] = []

    async def connect(self, source: str = "") -> ClientConnection:
        """A new client; `source`: the loopback address it comes from ("127.0.0.7"), so a
        test has many addresses to count per address (the server listens on 127.0.0.1)."""
        client = await connect(self.url, local_addr=(source, 0) if source else None,
                               create_connection=Client)
        self.clients.append(client)
        return client


@asynccontextmanager
async def server(seed: int | None = 11, limits: Limits | None = None,
                 accounts: Accounts | None = None,
                 store: TableStore | None = None, page: bool = False,
                 site: Site | None = None) -> AsyncIterator[Lab]:
    """A running server; with `store`, keeping its tables there (closed at the end); with
    `page`, serving the browser page as `python -m sudden_death.server` does (`site`: that
    site rather than the game's own)."""
    if page and site is None:
        site = Site()
    service = TableService(seed=seed, limits=limits or Limits(),
                           accounts=accounts or Accounts(), store=store,
                           site=None if site is None else site.answer)
    running = await start(service, "127.0.0.1", 0)
    lab = Lab(service, address(running, tls=False))
    try:
        yield lab
    finally:
        for client in lab.clients:
            await client.close()
        await stop(running)
        await service.settled()
        closing = service.close()
        if closing is not None:  # a database's pool
            await closing


async def receive(connection: ClientConnection, timeout: float = 5) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(connection.recv(), timeout))


async def nothing_comes(connection: ClientConnection) -> bool:
    try:
        await asyncio.wait_for(connection.recv(), QUIET_S)
    except (asyncio.TimeoutError, TimeoutError):
        return True
    return False


async def seated_pair(lab: Lab, public: bool = False,
                      ) -> tuple[ClientConnection, ClientConnection, dict, dict]:
    """A host and a guest at one table (listed in the lobby when `public`), past the start
    message; returns their seats."""
    host = await lab.connect()
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=public)))
    host_seat = await receive(host)
    guest = await lab.connect()
    await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, host_seat["code"], "Bears")))
    guest_seat = await receive(guest)
    for connection in (host, guest):
        start_message = await receive(connection)
        assert start_message["type"] == "start"
        assert start_message["names"] == ["Bears", "Hawks"]  # the guest is home: calls the toss
    return host, guest, host_seat, guest_seat


def run(coroutine: Callable[[], Any]) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine(), 120))


async def until(check: Callable[[], bool | Awaitable[bool]], timeout: float = 5.0) -> float:
    """Seconds until `check` (a plain or an async one) holds, asked every 20 ms: what a test
    waits on instead of a fixed sleep (AssertionError past `timeout`)."""
    start = time.monotonic()
    while True:
        found = check()
        if await found if inspect.isawaitable(found) else found:
            return time.monotonic() - start
        assert time.monotonic() - start < timeout, "not within the time allowed"
        await asyncio.sleep(0.02)


def first_legal(state: GameState, team: Team) -> WireAction:
    """The team's first legal action, as the wire carries it."""
    return action_to_wire(legal_actions(state, team)[0])


def wire_actions(*actions: dict[str, Any]) -> list[WireAction]:
    """Actions written as JSON (as a client writes them), as the server receives them."""
    return from_json(list(actions), list[WireAction])
