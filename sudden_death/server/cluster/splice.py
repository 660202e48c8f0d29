"""A relayed line's bytes piped both ways between the client and the holder (issue 73).

The relay (relay.py) used to read each of the holder's frames, decode it, and frame and send
it again to the client, and each of the client's to the holder: some 140 Python calls and two
turns of the event loop a frame, a quarter of what a step costs a cluster of four processes
(docs/server.md, "What four processes cost"). Once both handshakes are done, nothing about the
two lines needs that: the client's frames are masked as a client's must be, which is what the
holder expects of the relaying process; the holder's are unmasked, as the client expects of a
server; neither line compresses (`compression=None` at both ends). So the relaying process
moves bytes: each chunk read from one socket is written to the other, and the holder does all
the WebSocket work, pings and the closing handshake included, as for any line of its own.

What stays true:
- a client that has left more than the postman's limit unread is cut off by the process it
  reached, as any line is (lines/postman.py); the other way, the holder's socket full pauses
  reading from the client, so TCP pushes back on a client that sends faster than it is read;
- the holder sees every frame the client sends and applies every limit it applies to a line
  (size, rate, the protocol), as before: the relaying process never did;
- a close at either end closes the other (what was read is written first);
- a line with anything already taken in but not yet passed on (a client that sent more before
  its answer, a frame half read) is not piped: it is relayed frame by frame as before, so no
  byte is lost or reordered. So is a line this module cannot see into (another websockets):
  `at_rest` reads websockets' own state, and says no when it finds anything unexpected;
- a browser page's seat is relayed frame by frame: the process it reached makes its views
  (web/view.py) from the holder's frames.

Why not a library: websockets has no way to hand a line's socket on once it is open, and
asyncio's `Transport.set_protocol` is what exists for this; the pipe is the two small
protocols below.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.connection import Connection
from websockets.asyncio.server import ServerConnection
from websockets.protocol import OPEN

from ..lines.postman import Postman

__all__ = ["UNREACHABLE", "Boundaries", "Splice", "at_rest", "closing_frame", "spliced"]

LOG = logging.getLogger("sudden_death.server")
# The client's line closed with this when the holder is lost: "try again later", and its game
# tries again by itself, as after any lost line.
UNREACHABLE = 1013
CLOSE_S = 5.0  # a pipe's end left open when the other closes: its last bytes written this long


def at_rest(connection: Connection) -> bool:
    """Whether nothing of `connection` is taken in and not yet handed on, nor left to write:
    open, its parser waiting for the first byte of a frame (nothing buffered, no message in
    pieces), no frame queued for a reader, reading not paused. False for anything else, and for
    a websockets whose insides are not the ones read here."""
    try:
        protocol = connection.protocol
        messages = connection.recv_messages
        waiting: Any = protocol.parser  # the innermost generator it is suspended in
        while (deeper := getattr(waiting, "gi_yieldfrom", None)) is not None:
            waiting = deeper
        transport = connection.transport
        return bool(
            protocol.state is OPEN and not protocol.reader.buffer and not protocol.reader.eof
            and protocol.current_size is None and not protocol.events and not protocol.writes
            and waiting.gi_code.co_name == "at_eof"
            and len(messages.frames) == 0 and not messages.get_in_progress
            and not messages.paused and transport is not None and not transport.is_closing())
    except (AttributeError, TypeError):
        return False


class Boundaries:
    """Where the holder's frames begin and end in the bytes piped to the client: only their
    headers are read (a server's frames are never masked), so that a close can be put
    between two frames when the holder is lost or this process stops (RFC 6455 5.2)."""

    def __init__(self) -> None:
        self.payload = 0  # bytes of the current frame's payload still to come
        self.header = b""  # a header that came in pieces, so far
        self.closed = False  # the holder's own close frame has gone by

    @property
    def between(self) -> bool:
        """Whether the bytes so far end exactly after a whole frame."""
        return self.payload == 0 and not self.header

    def feed(self, data: bytes) -> None:
        at, size = 0, len(data)
        while at < size:
            if self.payload:
                taken = min(self.payload, size - at)
                self.payload -= taken
                at += taken
                continue
            header = self.header + data[at:at + 14]
            length = header[1] & 0x7F if len(header) >= 2 else -1
            needed = 2 if length < 0 else 2 + {126: 2, 127: 8}.get(length, 0)
            if len(header) < needed:  # the rest of the header comes with the next read
                self.header = header
                return
            at += needed - len(self.header)
            self.header = b""
            if header[0] & 0x0F == 0x8:
                self.closed = True
            if length >= 126:
                length = int.from_bytes(header[2:needed], "big")
            self.payload = length


def closing_frame(code: int, reason: str) -> bytes:
    """A server's close frame (unmasked), as the holder would send it."""
    body = code.to_bytes(2, "big") + reason.encode()[:123]
    return bytes((0x88, len(body))) + body


class _End(asyncio.Protocol):
    """One socket of the pipe: what it reads is written to the other's transport. Its own
    transport's send buffer full pauses reading from the other (and resumes it)."""

    def __init__(self, splice: Splice, connection: Connection) -> None:
        self.splice = splice
        self.connection = connection  # websockets' object, told when the socket is gone
        self.other: _End | None = None
        self.transport: asyncio.Transport = connection.transport
        self.frames: Boundaries | None = None  # the holder's end: its frames' boundaries

    def data_received(self, data: bytes) -> None:
        assert self.other is not None
        transport = self.other.transport
        if self.frames is not None:  # the holder's bytes, for the client
            self.frames.feed(data)
            transport.write(data)
            self.splice.owed(transport)
            return
        transport.write(data)

    def eof_received(self) -> bool:
        return False  # the transport closes itself; connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        assert self.other is not None
        if self.frames is not None:  # the holder gone: the client told to try again
            self.splice.closing(UNREACHABLE, "the table's server is not reachable now")
        other = self.other.transport
        other.close()  # what it holds is written first, for CLOSE_S at most: a peer that
        if other.get_write_buffer_size():  # does not read is cut then
            asyncio.get_running_loop().call_later(CLOSE_S, other.abort)
        self.connection.connection_lost(exc)  # websockets' object closed, its waiters told
        self.splice.lost()

    def pause_writing(self) -> None:
        """The holder's socket full: the client's reading waits for it (TCP pushes back).
        The client's socket full changes nothing here: `Splice.owed` cuts it off."""
        assert self.other is not None
        if self.frames is not None:
            self.other.transport.pause_reading()

    def resume_writing(self) -> None:
        assert self.other is not None
        if self.frames is not None and not self.other.transport.is_closing():
            self.other.transport.resume_reading()


class Splice:
    """A client's line and its relay to the holder, piped (`spliced` makes one). `ended` is
    done once both sockets are closed."""

    def __init__(self, line: ServerConnection, holder: ClientConnection,
                 postman: Postman) -> None:
        self.postman = postman  # its limit on what a client leaves unread, and its count
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.client, self.server = _End(self, line), _End(self, holder)
        self.client.other, self.server.other = self.server, self.client
        self.server.frames = Boundaries()
        self._open = 2
        self._said = False  # the client's line has had its last word: a close, or a cut

    def owed(self, transport: asyncio.Transport) -> None:
        """A client that has left more than the postman's limit unread is cut off, as the
        postman cuts off any line (lines/postman.py), and counted with them; the holder
        then sees its line drop."""
        if transport.get_write_buffer_size() > self.postman.limit_bytes \
                and not transport.is_closing():
            self.postman.dropped += 1
            LOG.warning("a client that does not read was dropped (%d bytes unread, relayed)",
                        transport.get_write_buffer_size())
            self._said = True
            transport.abort()

    def lost(self) -> None:
        self._open -= 1
        if self._open == 0 and not self.ended.done():
            self.ended.set_result(None)

    def closing(self, code: int, reason: str) -> None:
        """A close frame to the client, if the holder's bytes so far end between two frames
        and neither the holder's close nor another has gone already (else its line just
        closes, as a line cut)."""
        frames = self.server.frames
        transport = self.client.transport
        if (not self._said and frames is not None and frames.between and not frames.closed
                and not transport.is_closing()):
            transport.write(closing_frame(code, reason))
        self._said = True

    def close(self, code: int = 1001, reason: str = "") -> None:
        """The pipe cut (this process stops): the client hears `code` (between two of the
        holder's frames) and its game tries again, as after any lost line; the holder sees
        its line drop, as if this process had died."""
        self.closing(code, reason)  # the holder's end, lost next, says nothing more
        self.server.transport.abort()


def spliced(line: ServerConnection, holder: ClientConnection, first: str,
            postman: Postman) -> Splice | None:
    """The client's `line` piped to `holder` (just connected), after its greeting `first` is
    sent on; None (and nothing sent) when either line is not `at_rest`, or the line is a
    browser page's (its views are made here, from the frames): then relay it frame by frame.
    All of it happens in one turn of the loop, so no byte arrives in between."""
    if getattr(line, "viewer", None) is not None:  # a browser page's seat: its process makes
        return None  # its views from the holder's frames (web/view.py), so it reads them
    if not (at_rest(line) and at_rest(holder)):
        return None
    # The greeting framed by websockets' own sans-I/O layer, masked as a client's.
    holder.protocol.send_text(first.encode())
    for data in holder.protocol.data_to_send():
        holder.transport.write(data)
    if line.keepalive_task is not None:  # its pings would fall between the holder's bytes:
        line.keepalive_task.cancel()  # the holder pings the client through the pipe instead
        line.keepalive_task = None
    splice = Splice(line, holder, postman)
    for end in (splice.client, splice.server):
        end.transport.set_protocol(end)
    _piped(line, splice)
    return splice


def _piped(line: Any, splice: Splice) -> None:
    """Told to the client's line (lines.Line.piped), so that closing it cuts the pipe
    rather than writing a close frame between the holder's bytes."""
    line.piped = splice
