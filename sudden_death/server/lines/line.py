"""A client's line as the server handles it: its address (an IPv6 client's /64), its count
against its address's lines from the moment it is accepted, its send buffer, a `leave` seen
without decoding the rest, a close that is heard, and nothing left for the garbage collector
once it is closed. No game logic: the roles call these on the lines they hold."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from typing import Any, ClassVar, Protocol, cast

from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import OPEN

from ...wire import protocol as p
from .limits import Addresses, Place
from .plain import request_first

LOG = logging.getLogger("sudden_death.server")
# A table taken over by another process (its save fenced: stores.TakenOver): its lines are
# closed with this, "try again later", and the games reconnect to the process that plays it.
MOVED = 1013
MOVED_REASON = "this table is played elsewhere now; try again"


def peer(line: ServerConnection) -> str:
    """The client's address as the per-address limits count it (`grouped`); for a line
    another server process relays (relay.py), the one that process was reached from."""
    relayed = getattr(line, "relayed", None)
    if relayed is not None:
        return str(relayed.address)
    remote = line.remote_address
    return grouped(str(remote[0])) if remote else "unknown"


def grouped(address: str) -> str:
    """What the per-address limits count `address` as: an IPv6 address's /64 ("2001:db8::/64"),
    since a home or a server is given a whole /64 and a client could take a new address of it
    for every line; an IPv4 address as it is, and an IPv4-mapped IPv6 one (a dual-stack
    socket's "::ffff:1.2.3.4") as its IPv4 address, the same client either way. Anything that
    is not an IP address is kept as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return f"{ipaddress.IPv6Address(int(ip) >> 64 << 64)}/64"


def bound_kernel_queue(line: ServerConnection, size: int) -> None:
    """The system's send buffer for this client, fixed at `size` instead of growing up to
    megabytes: with the postman's own bound, a client that never reads holds little."""
    sock = line.transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def leaving(frame: str | bytes) -> bool:
    """Whether `frame` is a `leave`, which needs no answer once the table is gone."""
    try:
        return isinstance(p.decode_client(frame), p.Leave)
    except p.ProtocolError:
        return False


def close_soon(line: ServerConnection, closing: set[asyncio.Future[None]], code: int = 1000,
               reason: str = "") -> None:
    """Close `line` without waiting for its answer: the close's task is held in `closing`
    until it ends (the loop keeps only a weak reference to a task)."""
    task = asyncio.ensure_future(line.close(code, reason))
    closing.add(task)
    task.add_done_callback(closing.discard)


async def shut(line: ServerConnection) -> None:
    """Close a line that is still sending: what it sends meanwhile is read and dropped, so
    its answer to the close is heard (unread, the frames would stop the reading, and the
    close would wait out its timeout)."""
    closing = asyncio.ensure_future(line.close(1008, "policy"))
    with contextlib.suppress(ConnectionClosed):
        async for _frame in line:
            pass
    await closing


class Piped(Protocol):
    """A line piped, byte for byte, to the process holding its table (cluster/splice.py)."""

    ended: asyncio.Future[None]

    def close(self, code: int = 1001, reason: str = "") -> None:
        """The pipe cut: the client told `code` where it can be, both sockets closed."""


class Line(ServerConnection):
    """A server connection that leaves no reference cycle behind once it is closed, so
    reference counting frees it at once and the server needs no full collection, which would
    stop it for a third of a second at 2,000 tables (collector.py). See `untangle`."""

    piped: Piped | None = None  # once its bytes go straight to the table's process

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Its request read by `plain.request_first`: one request a line, answered before
        anything after it is read (a pipelined request, a body)."""
        super().__init__(*args, **kwargs)
        self.protocol.parser = request_first(self.protocol)
        next(self.protocol.parser)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """A piped line is closed by cutting its pipe: a close frame written here would fall
        between the holder's bytes (the server's stop closes every line this way)."""
        piped = self.piped
        if piped is not None and not piped.ended.done():
            piped.close(code, reason)
            await asyncio.shield(piped.ended)
            return
        await super().close(code, reason)

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        """A client gone before its handshake was done (a port scan, a line closed before
        its request, one shut out): the line ends unopened and the server closes it without
        a word. websockets 17 does so itself; websockets 16 (the one for Python 3.10) logs
        each as an error with its traceback, which a scan would turn into a flood."""
        try:
            await super().handshake(*args, **kwargs)
        except Exception:
            self.transport.abort()
            return
        protocol = self.protocol
        if protocol.state is OPEN and not protocol.reader.eof:
            self.data_received(b"")  # frames sent before the 101 (plain.request_first held them)


class Counting(ServerConnection):
    """A line counted against its address's lines (`Addresses.accept`) from its TCP accept
    until it closes, so a connection that never finishes its handshake counts too; past the
    limit it is closed at once, before anything is read. `book` is the service's addresses
    (`counted`). Only the public listener's lines are counted here: a line relayed from
    another process (relay.py) comes on the relay listener, and the process the client
    reached counts it."""

    book: ClassVar[Addresses]
    place: Place = Place.IN
    address: str | None = None  # while counted
    recounted: asyncio.Future[None] | None = None  # in a cluster: the others' lines added

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        book, address = self.book, peer(self)
        self.place, before = book.accept(address)
        if self.place is Place.OUT:
            self._shut_out(address)
            return
        self.address = address
        if book.shared:
            self.recounted = asyncio.ensure_future(self._recount(address, before))

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.address is not None:
            self.book.closing(self.address)
            self.address = None

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        """No handshake for a line shut out: it ends unopened, without a word."""
        if self.place is not Place.OUT:
            await super().handshake(*args, **kwargs)

    async def _recount(self, address: str, before: int) -> None:
        self.place = await self.book.recount(address, before)
        if self.place is Place.OUT:
            self._shut_out(address)

    def _shut_out(self, address: str) -> None:
        if self.book.first_said(address):
            LOG.warning("%s has %d connections open: more are closed at once (said at most "
                        "once a minute)", address, self.book.limits.per_address + 1)
        self.transport.abort()


def counted(addresses: Addresses, base: type[ServerConnection] = Line) -> type[ServerConnection]:
    """The public listener's line class: `base`'s lines, each counted (`Counting`)."""
    return cast(type[ServerConnection],
                type(f"Counted{base.__name__}", (Counting, base), {"book": addresses}))


async def admitted(line: ServerConnection) -> bool:
    """Whether a line is served: False for the one line past its address's limit, let through
    only to be refused in words. A line not counted here (`Counting`) is always served."""
    recounted = getattr(line, "recounted", None)
    if recounted is not None:
        line.recounted = None  # type: ignore[attr-defined]
        await recounted
    return getattr(line, "place", Place.IN) is Place.IN


def untangle(line: Connection) -> None:
    """Break the two cycles a closed line leaves, each found by tests/test_server_cycles.py:

    - a socket transport keeps its own bound method as its read callback (`_read_ready_cb`;
      from 3.12 its write callback too), a cycle holding the transport, its socket and
      buffers; CPython clears them in close() from 3.12 (gh-100348, gh-106503), but not when
      the transport is aborted, and never on 3.10 and 3.11; this clears them once the
      transport is closing (under TLS, the socket transport beneath);
    - a line cut without a closing handshake leaves websockets' protocol holding the parse
      error, whose traceback holds the parser's frame, which holds the protocol (up to
      Python 3.12): the error is kept (a ConnectionClosed names it as its cause), its
      traceback is dropped."""
    transport: Any = line.transport
    raw: Any = getattr(getattr(transport, "_ssl_protocol", None), "_transport", None) or transport
    if raw.is_closing():
        if getattr(raw, "_read_ready_cb", None) is not None:
            raw._read_ready_cb = None
        # 3.12 and later keep their write callback as a bound method too (gh-106503), and
        # clear both in close() only: a transport aborted (a close that timed out, a client
        # that did not read) kept the cycle.
        if _bound_to(vars(raw).get("_write_ready"), raw):
            raw._write_ready = None
    error = line.protocol.parser_exc
    if error is not None:
        error.__traceback__ = None


def _bound_to(method: Any, owner: Any) -> bool:
    """Whether `method` is a method bound to `owner` (a cycle when `owner` keeps it)."""
    return method is not None and getattr(method, "__self__", None) is owner
