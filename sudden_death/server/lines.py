"""A client's line as the server handles it: its address, its send buffer, a `leave` seen
without decoding the rest, a close that is heard, and nothing left for the garbage collector
once it is closed. No game logic and no state: the roles call these on the lines they hold."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..wire import protocol as p


def peer(line: ServerConnection) -> str:
    """The client's address (its IP), which the per-address limits count; for a line another
    server process relays (relay.py), the address that process was reached from."""
    relayed = getattr(line, "relayed", None)
    if relayed is not None:
        return str(relayed.address)
    remote = line.remote_address
    return str(remote[0]) if remote else "unknown"


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


async def shut(line: ServerConnection) -> None:
    """Close a line that is still sending: what it sends meanwhile is read and dropped, so
    its answer to the close is heard (unread, the frames would stop the reading, and the
    close would wait out its timeout)."""
    closing = asyncio.ensure_future(line.close(1008, "policy"))
    with contextlib.suppress(ConnectionClosed):
        async for _frame in line:
            pass
    await closing


class Line(ServerConnection):
    """A server connection that leaves no reference cycle behind once it is closed, so
    reference counting frees it at once and the server needs no full collection, which would
    stop it for a third of a second at 2,000 tables (collector.py). See `untangle`."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self)


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
