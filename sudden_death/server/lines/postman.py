"""The one way a message leaves the server: queued on a client's line, never waited on.

Every role sends through a `Postman`, so the defence against a client that never reads lives
in one place: `broadcast` queues the frame without waiting for that client, and a client that
has left more than `send_queue_bytes` unread is cut off instead (its seat is then away, and
may resume). A message for many lines (a table's spectators, the lobby) is encoded once and
framed in one pass (`send_frames`, websockets' `broadcast`): 250 spectators cost the loop one
call, not 250. It never decides who hears what: the roles and the fan-out do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection, broadcast

from ...wire import protocol as p

LOG = logging.getLogger("sudden_death.server")


@dataclass
class Postman:
    """`limit_bytes`: what a client may leave unread before it is cut off."""

    limit_bytes: int
    dropped: int = 0  # clients dropped for leaving too much unread
    # Hears each refusal's code as it is sent (the metrics' count: watch.Watch.refused).
    refused: Callable[[str], None] = field(default=lambda code: None)

    def send(self, line: ServerConnection, message: p.Message) -> None:
        if isinstance(message, p.Refused):
            self.refused(message.code)
        self.send_frame(line, p.encode(message))

    def send_frame(self, line: ServerConnection, frame: str) -> None:
        """Queue an encoded message for a client, never waiting on it."""
        self.send_frames((line,), frame)

    def send_frames(self, lines: Iterable[ServerConnection], frame: str) -> None:
        """Queue one encoded message for each of `lines`, never waiting on any: encoded to
        bytes once, each client that reads framed in one `broadcast`."""
        reading = [line for line in lines if self._reads(line)]
        broadcast(reading, frame.encode(), text=True)
        for line in reading:
            viewer = getattr(line, "viewer", None)  # a browser seat's (web/view.py): the same
            if viewer is not None:  # news in words, and its decision as a form
                shown = viewer.seen(frame)
                if shown is not None:
                    broadcast([line], shown)

    def _reads(self, line: ServerConnection) -> bool:
        """Whether `line` keeps up: one that left more than the limit unread is cut off."""
        transport = line.transport
        queued = transport.get_write_buffer_size() if transport is not None else 0
        if queued <= self.limit_bytes:
            return True
        if not transport.is_closing():
            self.dropped += 1
            LOG.warning("a client that does not read was dropped (%d bytes unread)", queued)
            transport.abort()
        return False
