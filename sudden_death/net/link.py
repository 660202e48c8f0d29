"""The game's line to a table server, on a thread of its own.

The pygame loop never waits on the network: the connection runs in an asyncio loop on a
daemon thread, and what arrives is put in a queue the game polls each turn of its loop (which
turns every 2 ms while a table is open). Sending only hands the message to that thread. A
slow, stalled or dead server therefore never freezes keys or speech. Nothing here touches
pygame: posting pygame events from this thread crashed the game (pygame 2.6, dummy driver).

With `serve` set, the thread also runs a table server (the same `TableService` as
`python -m sudden_death.server`) for play on the home network, and connects to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import socket
import threading

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server
from websockets.exceptions import ConnectionClosed, InvalidURI, WebSocketException

from ..server.service import TableService, start
from . import protocol as p
from .news import Connected, Lost, News

CONNECT_TIMEOUT_S = 5.0
CLOSE_WAIT_S = 1.0
HOME_PORT = 8765  # the port a table hosted inside the game listens on, when it is free




class TableLink:
    def __init__(self, url: str | None, greeting: p.Message) -> None:
        """`url`: the table server; None serves a table here (see the module's docstring)."""
        self.url = url
        self.greeting = greeting
        self.inbox: queue.SimpleQueue[News] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[p.Message | None] | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="table-link", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(CONNECT_TIMEOUT_S)  # only the thread's loop starting, never the network

    def send(self, message: p.Message) -> None:
        """Queue `message` for the server; returns at once."""
        loop, outbox = self._loop, self._outbox
        if loop is not None and outbox is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(outbox.put_nowait, message)

    def poll(self) -> list[News]:
        """Everything that arrived since the last poll, oldest first; never waits."""
        found: list[News] = []
        while True:
            try:
                found.append(self.inbox.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> None:
        """Say goodbye and stop the thread (at most CLOSE_WAIT_S)."""
        self.send_stop()
        self._thread.join(CLOSE_WAIT_S)

    def send_stop(self) -> None:
        loop, outbox = self._loop, self._outbox
        if loop is not None and outbox is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(outbox.put_nowait, None)

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.run(self._main())

    def _news(self, news: News) -> None:
        self.inbox.put(news)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue()
        self._ready.set()
        server: Server | None = None
        connected = False
        try:
            url, address = self.url, None
            if url is None:
                server, url, address = await _serve_here()
            async with connect(url, open_timeout=CONNECT_TIMEOUT_S, compression=None,
                               max_size=16 * p.MAX_MESSAGE_BYTES) as connection:
                connected = True
                self._news(Connected(address))
                await connection.send(p.encode(self.greeting))
                await self._exchange(connection)
        except (OSError, asyncio.TimeoutError, TimeoutError, InvalidURI,
                WebSocketException) as error:
            self._news(Lost(str(error) or type(error).__name__, connected))
        finally:
            if server is not None:
                server.close()
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await asyncio.wait_for(server.wait_closed(), CLOSE_WAIT_S)

    async def _exchange(self, connection: ClientConnection) -> None:
        """Send what the game queues until it says stop (then Leave) or the line drops."""
        assert self._outbox is not None
        reader = asyncio.ensure_future(self._read(connection))
        try:
            while True:
                getter = asyncio.ensure_future(self._outbox.get())
                done, _ = await asyncio.wait({reader, getter},
                                             return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    return  # the reader has said why the line is gone
                message = getter.result()
                if message is None:
                    with contextlib.suppress(ConnectionClosed):
                        await connection.send(p.encode(p.Leave()))
                    return
                with contextlib.suppress(ConnectionClosed):  # the reader tells of the loss
                    await connection.send(p.encode(message))
        finally:
            reader.cancel()

    async def _read(self, connection: ClientConnection) -> None:
        try:
            async for frame in connection:
                try:
                    self._news(p.decode_server(frame))
                except p.ProtocolError as error:
                    self._news(Lost(str(error), True))
                    return
        except ConnectionClosed as error:
            self._news(Lost(str(error), True))
            return
        self._news(Lost("the server closed the connection", True))


async def _serve_here() -> tuple[Server, str, str]:
    """A table server on this computer for the home network: HOME_PORT if it is free, else
    any port. Returns the server, the URL to connect to and the address a friend joins."""
    service = TableService()
    try:
        server = await start(service, "0.0.0.0", HOME_PORT)
    except OSError:
        server = await start(service, "0.0.0.0", 0)
    port = next(iter(server.sockets)).getsockname()[1]
    return server, f"ws://127.0.0.1:{port}", f"{_home_address()}:{port}"


def _home_address() -> str:
    """This computer's address on its network (no packet is sent: a UDP socket is only aimed
    at a documentation address so the system picks the interface it would use)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        return str(probe.getsockname()[0])
    return "127.0.0.1"
