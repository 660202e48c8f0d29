"""A spectator's line (`TableLink`) through a drop (issue 70): the server closes it to try
again (its process stopping cleanly, the table handed to another), and the link watches the
same table again, from the last step it heard, says it is back once the game is told again,
and never that the line is lost. A scripted server on loopback: the frames are the server's,
the timing the link's own."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

from server_lab import run
from test_net_link_for_now import START, scripted
from websockets.asyncio.server import ServerConnection

from sudden_death.net.link import TableLink
from sudden_death.net.news import Lost
from sudden_death.server.lines.try_again import TRY_AGAIN
from sudden_death.wire import protocol as p

CODE = "123456"


async def two_starts(link: TableLink) -> list[object]:
    """Everything the link passed on until the game was told twice (watched, then watched
    again); never a loss."""
    heard: list[object] = []
    deadline = time.monotonic() + 20
    while sum(isinstance(item, p.Start) for item in heard) < 2:
        assert time.monotonic() < deadline and not any(isinstance(item, Lost)
                                                       for item in heard), heard
        heard += link.poll()
        await asyncio.sleep(0.01)
    return heard


@dataclass
class Watched:
    """Answers each watch with the game's start (at step 3 the first time), and closes the
    first line to try again, as a process handing its tables over does."""

    greetings: list[dict[str, object]] = field(default_factory=list)

    async def handle(self, line: ServerConnection) -> None:
        greeting = json.loads(await line.recv())
        if greeting["type"] == "lobby":  # a lobby's line: its watch comes next
            greeting = json.loads(await line.recv())
        self.greetings.append(greeting)
        await line.send(START.replace('"step": 0', '"step": 3'))
        if len(self.greetings) == 1:
            await line.close(TRY_AGAIN, "this table is played elsewhere now; try again")
            return
        await line.wait_closed()


def test_a_spectator_s_line_watches_the_same_table_again_from_where_it_was() -> None:
    script = Watched()

    async def scenario() -> list[object]:
        async with scripted(script) as url:  # type: ignore[arg-type]
            link = TableLink(url, p.Watch(p.PROTOCOL_VERSION, CODE))
            link.start()
            try:
                return await two_starts(link)
            finally:
                link.close()

    heard = run(scenario)
    kinds = [type(item).__name__ for item in heard]
    assert kinds == ["Connected", "Start", "Reconnecting", "Restored", "Start"], kinds
    assert [(g["type"], g["code"], g.get("step", 0)) for g in script.greetings] == [
        ("watch", CODE, 0), ("watch", CODE, 3)]


def test_a_watch_sent_from_the_lobby_is_the_one_watched_again() -> None:
    """The lobby's line sends the watch later (not as its greeting): after the drop the link
    greets with that watch, its name kept, from the step it heard."""
    script = Watched()

    async def scenario() -> list[object]:
        async with scripted(script) as url:  # type: ignore[arg-type]
            link = TableLink(url, p.Lobby())
            link.start()
            link.send(p.Watch(p.PROTOCOL_VERSION, CODE, "Owls"))
            try:
                return await two_starts(link)
            finally:
                link.close()

    heard = run(scenario)
    assert "Restored" in [type(item).__name__ for item in heard]
    assert [(g["type"], g["name"], g.get("step", 0)) for g in script.greetings] == [
        ("watch", "Owls", 0), ("watch", "Owls", 3)]
