"""The lobby: who is here, the list of open tables and games being played, its chat, and how
often it hears its news.

It owns the lines in the lobby and their players' names (presence), the news throttle and
the list's caps. It reads the tables only through the `tables` and `watching` callables the
service gives it (what every seat has heard already: names, scores, the drive; never a
card), and never touches a seat, a spectator or a table's state. What it says to everyone
here goes through the fan-out: its lists on the `LOBBY` topic, its chat on `LOBBY_CHAT`.

Across processes (`--valkey`, issue 62) it lists the other processes' entries too (their
tables, games and signed-in players), read from `elsewhere` (a cached copy, never awaited
here), and tells `shared` when its own change so they are written for the others; it never
reaches Valkey itself (valkey_lobby.py does). Its chat goes through `chat_fanout` (Valkey's
pub/sub there, valkey_fanout.py), its lists through the local `fanout` only: each process tells
its own lines its own merged list, which sent across would come twice.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection

from ...wire import protocol as p
from ...wire.names import folded
from ..cluster.fanout import LOBBY, LOBBY_CHAT, FanOut
from ..cluster.lobby_entries import Listed
from ..lines.postman import Postman
from ..tables import HOST_SEAT, Table
from .chat import ChatRates, said


def present(names: Iterable[str]) -> list[str]:
    """Who is here, as listed: each player once (by folded name: two lines of one player, or
    one on two processes, are one), sorted, capped. Capped after sorting, so the first
    MAX_LISTED_HERE of several processes' lists are the first of their union."""
    seen: set[str] = set()
    listed: list[str] = []
    for name in sorted(names):
        key = folded(name)
        if name and key not in seen:
            seen.add(key)
            listed.append(name)
            if len(listed) == p.MAX_LISTED_HERE:
                break
    return listed


def merged(parts: Iterable[Listed]) -> Listed:
    """Several processes' entries as one list: each list capped again (this process's first,
    then the others in the order given), the totals summed, who is here joined (`present`)."""
    tables: list[p.OpenTable] = []
    games: list[p.GamePlayed] = []
    here: list[str] = []
    open_count = playing = 0
    for part in parts:
        tables.extend(part.tables[:p.MAX_LISTED_TABLES - len(tables)])
        games.extend(part.games[:p.MAX_LISTED_GAMES - len(games)])
        here.extend(part.here)
        open_count += part.open
        playing += part.playing
    return Listed(tables, games, open_count, playing, here=present(here))


def _nothing_elsewhere() -> Iterable[Listed]:
    return ()


def _not_shared() -> None:
    pass


@dataclass
class Lobby:
    """`tables`: every table the service holds; `watching`: how many watch a table;
    `elsewhere`: the other processes' entries (none on a process alone); `shared`: called
    when this process's entries may have changed; `chat_fanout`: where its chat goes (None:
    `fanout`), set before the first line enters."""

    postman: Postman
    fanout: FanOut
    chat_rates: ChatRates
    tables: Callable[[], Iterable[Table]]
    watching: Callable[[str], int]
    elsewhere: Callable[[], Iterable[Listed]] = _nothing_elsewhere
    shared: Callable[[], None] = _not_shared
    every_s: float = 1.0  # the lobby hears its changes at most this often
    lines: dict[ServerConnection, str] = field(default_factory=dict)  # line: name, or ""
    sent: float = -math.inf  # when it last heard them (monotonic)
    timer: asyncio.TimerHandle | None = None
    chat_fanout: FanOut | None = None

    @property
    def chatting(self) -> FanOut:
        """The fan-out of the lobby's chat: across processes in a cluster, else `fanout`."""
        return self.fanout if self.chat_fanout is None else self.chat_fanout

    def __contains__(self, line: ServerConnection) -> bool:
        return line in self.lines

    def enter(self, line: ServerConnection, name: str) -> None:
        """The line hears the lobby now, and again as it changes; `name`: the player signed
        in on it, as typed ("" for none)."""
        self.lines[line] = name
        self.fanout.subscribe(LOBBY, line)
        self.chatting.subscribe(LOBBY_CHAT, line)
        self.postman.send(line, self.listing())
        if name:  # the others hear who came
            self.changed()

    def rename(self, line: ServerConnection, name: str) -> None:
        if line in self.lines:
            self.lines[line] = name
            self.changed()

    def leave(self, line: ServerConnection) -> None:
        self.fanout.unsubscribe(LOBBY, line)
        self.chatting.unsubscribe(LOBBY_CHAT, line)
        if self.lines.pop(line, None):  # a signed-in player went: the others hear it
            self.changed()

    def chat(self, line: ServerConnection, message: p.Chat) -> None:
        """A chat line in the lobby, from a signed-in player, for everyone else there (one
        line a second a player; a player's game mutes whom it likes)."""
        name = self.lines.get(line)
        if not name:
            why = "sign in to chat in the lobby" if name == "" else "not in the lobby"
            self.postman.send(line, p.Refused(p.NOT_NOW, why))
            return
        heard = said(self.chat_rates, folded(name), name, message)
        if isinstance(heard, p.Refused):
            self.postman.send(line, heard)
        else:
            self.chatting.publish(LOBBY_CHAT, heard, but=line)

    def listing(self) -> p.LobbyList:
        """This process's entries and the other processes' (`merged`): tables, games and who
        is here."""
        listed = merged((self.own(), *self.elsewhere()))
        return p.LobbyList(sorted(listed.tables, key=lambda table: table.code),
                           sorted(listed.games, key=lambda game: game.code), listed.here,
                           listed.open, listed.playing)

    def own(self) -> Listed:
        """Only what every seat has heard already: names, scores, the drive; never a card; and
        the signed-in players in the lobby. Each list capped (the longest waiting or played
        first, as tables are kept in the order they opened), so it fits a frame whatever
        strangers do; the counts are all."""
        tables: list[p.OpenTable] = []
        games: list[p.GamePlayed] = []
        open_count = playing = 0
        for table in self.tables():
            if not table.public or table.over:
                continue
            if table.full:
                playing += 1
                if len(games) < p.MAX_LISTED_GAMES:
                    state = table.game.state
                    games.append(p.GamePlayed(table.code, table.names(), list(state.scores),
                                              state.drive, self.watching(table.code),
                                              table.players()))
            elif HOST_SEAT in table.seats:
                open_count += 1
                if len(tables) < p.MAX_LISTED_TABLES:
                    tables.append(p.OpenTable(table.code, table.seats[HOST_SEAT].name,
                                              table.best_of))
        return Listed(tables, games, open_count, playing, present(self.lines.values()))

    def changed(self) -> None:
        """Tell the lobby, at most once every `every_s`: a busy server's changes are
        gathered into one list rather than a stream of them."""
        self.shared()
        if not self.lines or self.timer is not None:
            return
        due = self.sent + self.every_s - time.monotonic()
        if due <= 0:
            self.tell()
        else:
            self.timer = asyncio.get_running_loop().call_later(due, self.tell)

    def tell(self) -> None:
        self.timer = None
        self.sent = time.monotonic()
        self.fanout.publish(LOBBY, self.listing())
