"""The game's line to a table server, on a thread of its own.

The pygame loop never waits on the network: the connection runs in an asyncio loop on a
daemon thread, and what arrives is put in a queue the game takes from on the next turn of its
loop, which the link wakes (`wake`) instead of the loop polling. Sending only hands the
message to that thread. After a drop the link itself sends again the one act that may not have
arrived, once the resume's `start` shows the server lacks it, since only this thread knows
which line it went out on. A
slow, stalled or dead server therefore never freezes keys or speech. Nothing here touches
pygame: posting pygame events from this thread crashed the game (pygame 2.6, dummy driver).

With no `url`, the thread also runs a table server for play on the home network, and connects
to it: `serve`, the server's own code (`server/home.py`) handed in by the game, so this
package never imports the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from http import HTTPStatus
from typing import Any, Protocol

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidStatus,
    InvalidURI,
    WebSocketException,
)

from ..wire import protocol as p
from .discovery import Advertiser
from .news import Alarm, Connected, Lost, News, Reconnecting, Restored

LOG = logging.getLogger("sudden_death.net")
CONNECT_TIMEOUT_S = 5.0
CLOSE_WAIT_S = 1.0
RETRY_FIRST_S, RETRY_MAX_S = 0.25, 8.0
# A resume the server refused for now (`refused`, not fatal, and the line closed: its Valkey
# or database away, or its tables being restored) is sent again at most this long apart, so
# play goes on within about a second of the service's return (issue 70).
FOR_NOW_MAX_S = 1.0
RECONNECT_FOR_S = 120.0  # how long a dropped line is tried again before the game gives up


class Served(Protocol):
    """A server running on this link's thread (websockets' `Server`): closed with the link."""

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


# Starts a table server here: the server, the URL to connect to, and the address a friend joins.
Serve = Callable[[], Awaitable[tuple[Served, str, str]]]




class TableLink:
    def __init__(self, url: str | None, greeting: p.Message, serve: Serve | None = None,
                 wake: Alarm | None = None, before: tuple[p.Message, ...] = ()) -> None:
        """`url`: the table server; None serves a table here with `serve` (see the module's
        docstring). `wake` is raised whenever news arrives, so the game's loop can sleep
        until then rather than poll. `before`: sent ahead of the greeting on the first line
        (a sign-in: a seat that comes back after a drop is its token's, and needs none)."""
        self._wake = wake
        self.before = before
        if url is None and serve is None:
            raise ValueError("a link with no server's address needs a server to start")
        self.url = url
        self._serve = serve
        self.greeting = greeting
        self.inbox: queue.SimpleQueue[News] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[p.Message | None] | None = None
        self._ready = threading.Event()
        self._seat: tuple[str, str] | None = None  # (code, token) once seated
        # A spectator's watch (sent from the lobby, or the greeting): after a drop (its table
        # handed to another process, say) the link watches the same table again from the
        # last step it heard, as a seat resumes.
        self._watching: p.Watch | None = greeting if isinstance(greeting, p.Watch) else None
        self._heard = 0  # the last step the server told of
        # The last act that went out on a line that then dropped, or was dropped while the
        # line was down: sent again after the resume if the server has neither played nor
        # held it. An act written on the new line is never in doubt (it follows the resume).
        self._in_doubt: p.Act | None = None
        self._on_line: p.Act | None = None  # the last act written on the current line
        self._refused = False  # refused for good: no coming back
        if isinstance(greeting, p.Resume):  # a seat kept from before (a restarted game)
            self._seat = (greeting.code, greeting.token)
        self._resuming = False  # the line's greeting is a resume not yet answered
        self._for_now = False  # a resume was refused for now since the seat was last seated
        self._back = False  # the server answered this line's resume: the seat is back
        self._again = False  # this line is a comeback (its answer is said as Restored)
        self._advertised: str | None = None  # HOST:PORT of a table served here, announced
        self._advertiser = Advertiser()
        self._tasks: set[asyncio.Future[None]] = set()
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
        if self._wake is not None:
            self._wake.set()  # after the put: the loop woken finds it

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue()
        self._ready.set()
        server: Served | None = None
        try:
            url, address = self.url, None
            if url is None:
                assert self._serve is not None
                server, url, address = await self._serve()
                self._advertised = address
            await self._keep_line(url, address)
        except (OSError, asyncio.TimeoutError, TimeoutError) as error:  # could not serve here
            self._news(Lost(str(error) or type(error).__name__, False))
        finally:
            await self._advertiser.stop()
            if server is not None:
                server.close()
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await asyncio.wait_for(server.wait_closed(), CLOSE_WAIT_S)

    async def _keep_line(self, url: str, address: str | None) -> None:
        """Connect, greet, and exchange messages; after a drop, once seated, come back with the
        seat's token (backing off from RETRY_FIRST_S to RETRY_MAX_S, or FOR_NOW_MAX_S while the
        server refuses the resume for now) for up to RECONNECT_FOR_S."""
        greeting: p.Message = self.greeting
        before = self.before
        ever, lost_at, delay = False, None, RETRY_FIRST_S
        while True:
            try:
                async with connect(url, open_timeout=CONNECT_TIMEOUT_S, compression=None,
                                   max_size=16 * p.MAX_MESSAGE_BYTES) as connection:
                    # Back only once the server answers the resume (`_answered`): one it
                    # refuses for now is no line restored, and is tried again.
                    self._resuming = isinstance(greeting, p.Resume) or (
                        ever and isinstance(greeting, p.Watch))
                    self._back, self._again = False, ever
                    if not ever:
                        self._news(Connected(address))
                    if not (ever and self._resuming):
                        lost_at, delay = None, RETRY_FIRST_S
                    ever = True
                    for message in before:
                        await connection.send(p.encode(message))
                    before = ()
                    await connection.send(p.encode(greeting))
                    self._on_line = None
                    reason = await self._exchange(connection)
                    self._in_doubt = self._on_line or self._in_doubt
                    if self._back:
                        lost_at, delay = None, RETRY_FIRST_S
                    if reason is None:
                        return  # the game left the table
            except InvalidStatus as error:
                reason = str(error)
                if not ever and error.response.status_code == HTTPStatus.TOO_MANY_REQUESTS:
                    # the server's limit on new lines from this address: said as a refusal
                    self._news(p.Refused(p.BUSY, reason, fatal=True))
                    return
            except (OSError, asyncio.TimeoutError, TimeoutError, InvalidURI,
                    WebSocketException) as error:
                reason = str(error) or type(error).__name__
            if not ever or (self._seat is None and self._watching is None) or self._refused:
                self._news(Lost(reason, ever))
                return
            now = time.monotonic()
            if lost_at is None:
                lost_at = now
                if not self._for_now:  # else `busy` said it: trying again
                    self._news(Reconnecting(reason))
            elif now - lost_at > RECONNECT_FOR_S:
                self._news(Lost(reason, True))
                return
            if self._for_now:
                delay = min(delay, FOR_NOW_MAX_S)
            if await self._stopped_within(delay):
                return
            delay = min(delay * 2, FOR_NOW_MAX_S if self._for_now else RETRY_MAX_S)
            if self._seat is not None:
                code, token = self._seat
                greeting = p.Resume(p.PROTOCOL_VERSION, code, token, self._heard)
            elif self._watching is not None:
                greeting = msgspec.structs.replace(self._watching, step=self._heard)

    async def _stopped_within(self, seconds: float) -> bool:
        """Wait `seconds` for the game to say stop; what it sends meanwhile is dropped (the
        match sends its last actions again once back, if the server does not hold them)."""
        assert self._outbox is not None
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(self._outbox.get(), left)
            except (asyncio.TimeoutError, TimeoutError):
                return False
            if message is None:
                return True
            if isinstance(message, p.Act):
                self._in_doubt = message  # never sent: the resume decides
        return False

    async def _exchange(self, connection: ClientConnection) -> str | None:
        """Send what the game queues until it says stop (then Leave: returns None) or the line
        drops (returns why)."""
        assert self._outbox is not None
        reader = asyncio.ensure_future(self._read(connection))
        try:
            while True:
                getter = asyncio.ensure_future(self._outbox.get())
                done, _ = await asyncio.wait({reader, getter},
                                             return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    return reader.result()
                message = getter.result()
                if message is None:
                    with contextlib.suppress(ConnectionClosed):
                        await connection.send(p.encode(p.Leave()))
                    return None
                if isinstance(message, p.Act):
                    self._on_line = message
                if isinstance(message, (p.Host, p.Join, p.Quick, p.Watch)):
                    self._watching = message if isinstance(message, p.Watch) else None
                with contextlib.suppress(ConnectionClosed):  # the reader tells of the loss
                    await connection.send(p.encode(message))
        finally:
            reader.cancel()

    async def _read(self, connection: ClientConnection) -> str:
        """Pass on what the server says until the line closes; returns why it closed."""
        try:
            async for frame in connection:
                try:
                    message = p.decode_server(frame)
                except p.ProtocolError as error:
                    self._refused = True  # a server that speaks nonsense is not retried
                    await connection.close()
                    return str(error)
                if not self._answered(message):
                    continue
                self._note(message)
                self._news(message)
                if isinstance(message, p.Start):
                    await self._send_again(connection, message)
        except ConnectionClosed as error:
            return str(error)
        return "the server closed the connection"

    def _answered(self, message: p.ServerMessage) -> bool:
        """Whether `message` is news for the game. The first answer to a resume: a refusal
        for now (not fatal: the server closes the line and the link comes back) is said once
        as `busy` until the seat is back; anything else restores the line."""
        if not self._resuming:
            return True
        if isinstance(message, p.Refused) and not message.fatal:
            if not self._for_now:
                self._for_now = True
                self._news(p.Busy())
            return False
        self._resuming, self._back, self._for_now = False, True, False
        if self._again:
            self._news(Restored())
        return True

    async def _send_again(self, connection: ClientConnection, start: p.Start) -> None:
        """After a resume: the act in doubt, if the server has neither played it (a later
        step) nor holds it; a repeat would be refused."""
        act, self._in_doubt = self._in_doubt, None
        if act is not None and act.step == start.step and not start.held:
            self._on_line = act
            with contextlib.suppress(ConnectionClosed):
                await connection.send(p.encode(act))

    async def _advertise(self, team: str, code: str, address: str) -> None:
        host, _, port = address.rpartition(":")
        try:
            await self._advertiser.start(team, code, host, int(port))
        except Exception as error:  # no multicast here: joining by address still works
            LOG.info("the table could not be announced on the network: %s", error)

    def _task(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _note(self, message: p.ServerMessage) -> None:
        """What the link itself keeps: the seat (to come back to it) and the last step heard."""
        if isinstance(message, p.Seated):
            self._seat = (message.code, message.token)
            if self._advertised and isinstance(self.greeting, p.Host):  # served here
                self._task(self._advertise(self.greeting.name, message.code, self._advertised))
        elif isinstance(message, p.Start):
            self._heard = message.step
            self._task(self._advertiser.stop())  # the friend has joined: no longer open
        elif isinstance(message, p.Update):
            self._heard = message.step
        elif isinstance(message, p.Refused) and message.fatal:
            self._refused = True
        elif isinstance(message, p.Left):
            self._refused = True  # the table is over: nothing to come back to
