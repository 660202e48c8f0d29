"""A relayed line piped byte for byte (issue 73, server/cluster/splice.py), with real
WebSocket servers and clients in one process: a holder that answers as a table's process
would (greeting, echo, closes, a flood), a relaying server whose handler relays each line
there as the cluster's relay does, and a real client.

The pipe must be taken for a line at rest, carry every message both ways in order, let the
holder answer the client's pings, carry each side's close to the other (a holder lost: 1013
after its last whole frame), fall back to frames for a line with something already read past
its greeting and for a browser page's, cut off a client that leaves more than the postman's
limit unread (as any line), and be cut by the relaying line's close (as a server's stop closes
every line).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import OPEN
from websockets.server import ServerProtocol

from sudden_death.server.cluster import relay
from sudden_death.server.cluster.relay import UNREACHABLE
from sudden_death.server.cluster.splice import Boundaries, closing_frame
from sudden_death.server.lines.line import Line
from sudden_death.server.lines.postman import Postman

pytestmark = pytest.mark.timeout(60)

BIG = "x" * 60_000


@dataclass
class Holder:
    """What the holder heard, in order, and how its lines ended."""

    heard: list[str] = field(default_factory=list)
    closed: list[int | None] = field(default_factory=list)
    sending: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, line: ServerConnection) -> None:
        try:
            async for message in line:
                assert isinstance(message, str)
                self.heard.append(message)
                if message.startswith("hello"):
                    await line.send(f"welcome {message}")
                elif message == "leave":
                    await line.close(4000, "bye")
                elif message == "die":  # the holder's process lost: no close frame
                    await line.send("last words")
                    line.transport.abort()
                elif message == "flood":
                    self.sending.set()
                    for _ in range(400):  # 24 MB: waits on the client's reading
                        await line.send(BIG)
                else:
                    await line.send(f"echo {message}")
        except ConnectionClosed:
            pass
        finally:
            self.closed.append(line.close_code)


@dataclass
class Relaying:
    """The relaying server's lines and the relays' ends."""

    holder_url: str
    lines: list[Line] = field(default_factory=list)
    relays: list[asyncio.Task[None]] = field(default_factory=list)
    pause_s: float = 0.0  # before the relay: what the client sends meanwhile is read
    viewer: Any = None  # given to each line, as the page's site gives a browser seat one
    postman: Postman = field(default_factory=lambda: Postman(1 << 20))

    async def handle(self, line: ServerConnection) -> None:
        assert isinstance(line, Line)
        self.lines.append(line)
        if self.viewer is not None:
            line.viewer = self.viewer  # type: ignore[attr-defined]
        first = await line.recv()
        assert isinstance(first, str)
        await asyncio.sleep(self.pause_s)
        task = asyncio.ensure_future(
            relay.relay(line, self.holder_url, "t" * 32, first, self.postman))
        self.relays.append(task)
        await task


@contextlib.asynccontextmanager
async def servers(pause_s: float = 0.0, viewer: Any = None
                  ) -> AsyncIterator[tuple[Holder, Relaying, str]]:
    holder = Holder()
    async with serve(holder.handle, "127.0.0.1", 0, compression=None) as held:
        relaying = Relaying(_url(held), pause_s=pause_s, viewer=viewer)
        async with serve(relaying.handle, "127.0.0.1", 0, compression=None,
                         create_connection=Line) as front:
            yield holder, relaying, _url(front)


def _url(server: Server) -> str:
    host, port = next(iter(server.sockets)).getsockname()[:2]
    return f"ws://{host}:{port}"


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


async def _until(check: Callable[[], Any], seconds: float = 5.0) -> None:
    ends = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < ends, "never came"
        await asyncio.sleep(0.01)


async def _client(url: str) -> ClientConnection:
    client = await connect(url, compression=None)
    await client.send("hello from the client")
    assert await asyncio.wait_for(client.recv(), 5) == "welcome hello from the client"
    return client


async def _closed_with(client: ClientConnection) -> tuple[int, str]:
    """The close the client's line received (its code and reason): it must come within 5 s,
    as a close frame, not a cut."""
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(client.recv(), 5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_line_at_rest_is_piped_and_carries_everything_in_order_both_ways() -> None:
    async def scenario() -> None:
        async with servers() as (holder, relaying, url):
            client = await _client(url)
            line = relaying.lines[0]
            assert line.piped is not None  # the relaying process reads no frame of it
            for number in range(50):
                await client.send(str(number))
            for number in range(50):
                assert await asyncio.wait_for(client.recv(), 5) == f"echo {number}"
            await client.send(BIG)  # larger than a socket read: in many chunks
            assert await asyncio.wait_for(client.recv(), 5) == f"echo {BIG}"
            assert holder.heard == ["hello from the client", *map(str, range(50)), BIG]
            # The client's ping is answered by the holder, through the pipe.
            await asyncio.wait_for(await client.ping(), 5)
            await client.close()
            await _until(lambda: holder.closed and relaying.relays[0].done())
            assert holder.closed == [1000]  # the client's close reached the holder whole

    run(scenario)


def test_the_holders_close_reaches_the_client_with_its_code_and_reason() -> None:
    async def scenario() -> None:
        async with servers() as (_holder, relaying, url):
            client = await _client(url)
            await client.send("leave")
            assert await _closed_with(client) == (4000, "bye")
            await _until(lambda: relaying.relays[0].done())
            line = relaying.lines[0]
            assert line.piped is not None and line.piped.ended.done()

    run(scenario)


def test_a_holder_lost_closes_the_clients_line_to_try_again_after_its_last_frame() -> None:
    async def scenario() -> None:
        async with servers() as (_holder, relaying, url):
            client = await _client(url)
            await client.send("die")
            assert await asyncio.wait_for(client.recv(), 5) == "last words"
            assert (await _closed_with(client))[0] == UNREACHABLE
            await _until(lambda: relaying.relays[0].done())

    run(scenario)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 70_000)), min_size=1, max_size=6),
       st.lists(st.integers(1, 200), max_size=40))
def test_frame_boundaries_are_found_however_the_bytes_are_cut(
        frames: list[tuple[bool, int]], cuts: list[int]) -> None:
    """Server frames of every length form (7-bit, 16-bit, 64-bit), text or close, fed in
    pieces cut anywhere: `between` is true exactly at each frame's end, and a close frame
    is seen as the holder's own close."""
    stream, ends = b"", set()
    for is_close, size in frames:
        if is_close:
            stream += closing_frame(1000, "x" * min(size, 100))
        else:
            stream += _text_frame(size)
        ends.add(len(stream))
    boundaries, at = Boundaries(), 0
    for cut in [*cuts, len(stream)]:
        piece = stream[at:at + cut]
        if not piece:
            break
        boundaries.feed(piece)
        at += len(piece)
        assert boundaries.between == (at in ends), (at, ends)
    if at < len(stream):
        boundaries.feed(stream[at:])
    assert boundaries.between
    assert boundaries.closed == any(is_close for is_close, _ in frames)


def _text_frame(size: int) -> bytes:
    """A server's text frame of `size` bytes, as websockets frames one."""
    protocol = ServerProtocol()
    protocol.state = OPEN
    protocol.send_text(b"y" * size)
    return b"".join(protocol.data_to_send())


def test_a_line_with_more_read_past_its_greeting_is_relayed_frame_by_frame() -> None:
    async def scenario() -> None:
        # The relay starts 0.2 s after the greeting: what the client sent meanwhile is
        # already read, so the line is not at rest and nothing may be lost or reordered.
        async with servers(pause_s=0.2) as (holder, relaying, url):
            client = await connect(url, compression=None)
            await client.send("hello early")
            await client.send("sent before any answer")
            assert await asyncio.wait_for(client.recv(), 5) == "welcome hello early"
            assert await asyncio.wait_for(client.recv(), 5) == "echo sent before any answer"
            assert relaying.lines[0].piped is None
            assert holder.heard == ["hello early", "sent before any answer"]
            await client.close()

    run(scenario)


@dataclass
class Viewer:
    """What the page's viewer (web/view.py) is given: every frame the holder sends."""

    frames: list[str] = field(default_factory=list)

    def seen(self, frame: str) -> None:
        self.frames.append(frame)


def test_a_browser_pages_line_is_relayed_frame_by_frame_so_its_views_are_made() -> None:
    async def scenario() -> None:
        viewer = Viewer()
        async with servers(viewer=viewer) as (_holder, relaying, url):
            client = await _client(url)
            await client.send("one")
            assert await asyncio.wait_for(client.recv(), 5) == "echo one"
            assert relaying.lines[0].piped is None
            assert viewer.frames == ["welcome hello from the client", "echo one"]
            await client.close()

    run(scenario)


def test_a_client_that_stops_reading_is_cut_off_past_the_postmans_limit() -> None:
    async def scenario() -> None:
        async with servers() as (holder, relaying, url):
            client = await _client(url)
            client.transport.pause_reading()  # reads nothing more, as a stuck client
            await client.send("flood")  # 24 MB, where the limit is 1 MiB
            await _until(lambda: relaying.relays[0].done() and holder.closed, 10)
            line = relaying.lines[0]
            assert line.piped is not None and relaying.postman.dropped == 1
            assert holder.closed == [1006]  # its line to the holder dropped with the client's
            client.transport.abort()

    run(scenario)


def test_closing_the_relaying_line_cuts_the_pipe_and_ends_both_sides() -> None:
    async def scenario() -> None:
        async with servers() as (holder, relaying, url):
            client = await _client(url)
            line = relaying.lines[0]
            await asyncio.wait_for(line.close(1001, "going away"), 5)  # as a stop does
            assert await _closed_with(client) == (1001, "going away")
            await _until(lambda: holder.closed and relaying.relays[0].done())
            assert holder.closed == [1006]  # the holder saw its line drop, as on a kill

    run(scenario)
