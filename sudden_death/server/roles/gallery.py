"""The gallery: each table's spectators, who hear the game as both seats hear it and nothing
either seat could act on.

It owns who watches which table (and under what name), when the players last heard that a
name watches, and the spectators' chat among themselves. It finds a table only through the
`table` callable, tells the players only through `tell_players`, and copies to the spectators
only what both seats heard: an update, a commit without its choice, a game starting, a seat
leaving. Never a chat line of the seats, a seat's token or a held choice. Spectators hear
through the fan-out's `watch_topic(code)` topic.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection

from ...engine.state import TEAMS, Team
from ...wire import protocol as p
from ...wire.names import folded, spaced
from ..cluster.fanout import FanOut, watch_topic
from ..lines.limits import Addresses, Bucket
from ..lines.line import MOVED_REASON, close_soon, leaving, peer
from ..lines.postman import Postman
from ..tables import Outgoing, Table
from .chat import ChatRates, said
from .checks import checked_name, slow_down

ANONYMOUS_WATCH_S = 60.0  # a spectator with no name is news at most this often a table


@dataclass
class Gallery:
    """`table`: an open table by its code; `tell_players`: messages for a table's seats;
    `lobby_changed`: the lobby's list should be told again (a count of spectators moved)."""

    postman: Postman
    fanout: FanOut
    chat_rates: ChatRates
    addresses: Addresses
    table: Callable[[str], Table | None]
    tell_players: Callable[[str, Outgoing], None]
    lobby_changed: Callable[[], None]
    messages_per_s: float
    # Each table's spectators: their lines and names ("" for one who gave none).
    watchers: dict[str, dict[ServerConnection, str]] = field(default_factory=dict)
    # Per table, each spectator's folded name (or "") and when the players last heard it.
    heard: dict[str, dict[str, float]] = field(default_factory=dict)
    closing: set[asyncio.Future[None]] = field(default_factory=set)  # lines being closed

    def count(self, code: str) -> int:
        return len(self.watchers.get(code, {}))

    async def watch(self, message: p.Watch, line: ServerConnection, address: str,
                    signed_as: str, bucket: Bucket) -> None:
        """A spectator: the game as both seats hear it, from its start (or from `step`), and
        nothing it could act on. A wrong code counts against the address, as a join's does."""
        wait = await self.addresses.waiting(address)
        if wait > 0:
            raise slow_down(wait)
        table = self.table(message.code.strip())
        if table is None or table.over:
            self.addresses.failed(address)
            raise p.ProtocolError(p.NO_TABLE, f"no game is being played at {message.code!r}")
        if not table.full:  # a real code, but nothing to watch yet
            raise p.ProtocolError(p.NOT_NOW, "the game at that table has not begun; watch it "
                                             "once both teams are there")
        name = checked_name(message.name) if spaced(message.name) else signed_as
        watching = self.watchers.setdefault(table.code, {})
        watching[line] = name
        self.fanout.subscribe(watch_topic(table.code), line)
        self.postman.send(line, table.resumed(None, message.step))
        # The players know who watches, once: a spectator back from a step it heard (its
        # line dropped, or its table handed to this process) is not news, wherever it was.
        if not message.step and self._first_watch(table.code, name):
            said = p.Watching(name, len(watching))  # ("": someone)
            self.tell_players(table.code, [(team, said) for team in TEAMS])
        if table.public:
            self.lobby_changed()
        async for frame in line:
            if leaving(frame):
                break
            if not bucket.take():
                raise p.ProtocolError(p.FLOOD, "more than "
                                      f"{self.messages_per_s:g} messages a second")
            self._heard(table.code, line, name, frame)

    def _first_watch(self, code: str, name: str) -> bool:
        """Whether the players should hear that `name` watches: once a table for a name (a
        spectator who drops and watches again is not news), and at most once a minute for
        those who gave none."""
        heard = self.heard.setdefault(code, {})
        key, now = folded(name), time.monotonic()
        last = heard.get(key)
        if last is not None and (key or now - last < ANONYMOUS_WATCH_S):
            return False
        heard[key] = now
        return True

    def _heard(self, code: str, line: ServerConnection, name: str, frame: str | bytes) -> None:
        """A spectator's message: a chat line (from a signed-in or named spectator) goes to
        the others watching this table, never to its seats, whose game it is; anything else
        is refused."""
        try:
            message = p.decode_client(frame)
        except p.ProtocolError as error:
            self.postman.send(line, p.Refused(error.code, str(error)))
            return
        if not isinstance(message, p.Chat):
            self.postman.send(line, p.Refused(p.NOT_NOW, "a spectator watches; it cannot act"))
            return
        if not name:
            self.postman.send(line, p.Refused(p.NOT_NOW, "a spectator chats with a name"))
        else:
            heard = said(self.chat_rates, folded(name) or peer(line), name, message)
            if isinstance(heard, p.Refused):
                self.postman.send(line, heard)
            else:
                self.fanout.publish(watch_topic(code), heard, but=line)

    def unwatch(self, line: ServerConnection) -> None:
        for code, watching in list(self.watchers.items()):
            if watching.pop(line, None) is not None:
                self.fanout.unsubscribe(watch_topic(code), line)
                if not watching:
                    del self.watchers[code]
                table = self.table(code)
                if table is not None and table.public:
                    self.lobby_changed()

    def tell(self, code: str, out: Outgoing) -> None:
        """What both seats heard (an update, a commit without its choice, a game starting,
        the server busy and back) and a seat leaving: never a chat line, a seat's own token
        or its held choice."""
        if code not in self.watchers:
            return
        for team, message in out:
            if (isinstance(message, (p.Update, p.Committed, p.Start, p.Busy, p.Steady))
                    and team is Team.HOME) \
                    or isinstance(message, p.Left):
                self.fanout.publish(watch_topic(code), message)

    def forget(self, code: str, close: int = 0) -> None:
        """A table is gone: the players' memory of who watched it goes with it, and with
        `close` (1013: it is played by another process now) its spectators' lines are closed
        with that code, to watch again wherever it is played."""
        self.heard.pop(code, None)
        for line in list(self.watchers.get(code, {})) if close else []:
            close_soon(line, self.closing, close, MOVED_REASON)
