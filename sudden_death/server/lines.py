"""A client's line as the server handles it: its address, its send buffer, a `leave` seen
without decoding the rest, and a close that is heard. No game logic and no state: the roles
call these on the lines they hold."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..wire import protocol as p


def peer(line: ServerConnection) -> str:
    """The client's address (its IP), which the per-address limits count."""
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
