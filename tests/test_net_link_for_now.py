"""The game's line (`TableLink`) when its resume is refused for now (issue 70): the server's
Valkey or database is away, so it answers `refused` `busy`, not fatal, and closes the line
with 1013. The link says once that the server is busy (the game's busy words), asks again
within a second each time, never passes the refusal on as the game's end, and says it is
connected again only once the seat is back. A scripted server on loopback: the refusals
are the server's exact frames, the timing the link's own."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from server_lab import run
from websockets.asyncio.server import ServerConnection, serve

from sudden_death.engine.snapshot import state_to_dict
from sudden_death.engine.state import GameState
from sudden_death.net.link import FOR_NOW_MAX_S, TableLink
from sudden_death.net.news import Connected, Lost
from sudden_death.server.lines.try_again import TRY_AGAIN
from sudden_death.wire import protocol as p

CODE, TOKEN = "123456", "t" * 24
START = json.dumps({"type": "start", "names": ["Bears", "Hawks"], "step": 0,
                    "state": state_to_dict(GameState()), "events": []})


@dataclass
class Scripted:
    """Seats the first greeting, drops it, refuses `refusals` resumes for now, then seats."""

    refusals: int
    drop_first: bool = True
    greetings: list[tuple[float, str]] = field(default_factory=list)

    async def handle(self, line: ServerConnection) -> None:
        greeting = json.loads(await line.recv())
        self.greetings.append((time.monotonic(), greeting["type"]))
        resumes = sum(kind == "resume" for _at, kind in self.greetings)
        if greeting["type"] == "resume" and resumes <= self.refusals:
            await line.send(p.encode(p.Refused(p.BUSY, "Valkey away; try again", False)))
            await line.close(TRY_AGAIN, "try again")
            return
        await line.send(p.encode(p.Seated(CODE, 0, TOKEN)))
        await line.send(START)
        if greeting["type"] == "join" and self.drop_first:
            await line.close(1011, "a drop")
            return
        await line.wait_closed()


@asynccontextmanager
async def scripted(script: Scripted) -> AsyncIterator[str]:
    async with serve(script.handle, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}"


async def _heard_until_back(link: TableLink, starts: int, seconds: float = 20
                            ) -> list[object]:
    """Everything the link passed on, until its `starts`-th start (or a loss)."""
    heard: list[object] = []
    deadline = time.monotonic() + seconds
    while sum(isinstance(item, p.Start) for item in heard) < starts:
        assert time.monotonic() < deadline and not any(isinstance(item, Lost)
                                                       for item in heard), heard
        heard += link.poll()
        await asyncio.sleep(0.01)
    return heard


def test_a_resume_refused_for_now_is_said_busy_once_and_asked_again_within_a_second() -> None:
    script = Scripted(refusals=4)

    async def scenario() -> list[object]:
        async with scripted(script) as url:
            link = TableLink(url, p.Join(p.PROTOCOL_VERSION, CODE, "Bears"))
            link.start()
            try:
                return await _heard_until_back(link, 2)
            finally:
                link.close()

    heard = run(scenario)
    kinds = [type(item).__name__ for item in heard]
    assert kinds == ["Connected", "Seated", "Start", "Reconnecting", "Busy", "Restored",
                     "Seated", "Start"], kinds
    assert not any(isinstance(item, (p.Refused, Lost)) for item in heard)
    resumes = [at for at, kind in script.greetings if kind == "resume"]
    assert len(resumes) == 5
    gaps = [later - earlier for earlier, later in itertools.pairwise(resumes)]
    assert max(gaps) < FOR_NOW_MAX_S + 0.5, gaps  # never the drop's 2, 4, 8 s


def test_a_game_started_again_resumes_its_kept_seat_through_refusals_for_now() -> None:
    """The game restarted with its seat kept (`table.json`): its first greeting is a resume,
    refused for now twice: busy once, then the seat, and no "connected again" for a line the
    game never had."""
    script = Scripted(refusals=2)

    async def scenario() -> list[object]:
        async with scripted(script) as url:
            link = TableLink(url, p.Resume(p.PROTOCOL_VERSION, CODE, TOKEN))
            link.start()
            try:
                return await _heard_until_back(link, 1)
            finally:
                link.close()

    heard = run(scenario)
    kinds = [type(item).__name__ for item in heard]
    assert kinds == ["Connected", "Busy", "Restored", "Seated", "Start"], kinds
    assert isinstance(heard[0], Connected)
