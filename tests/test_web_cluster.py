"""Browser seats on a cluster (issue 64 with issue 62): three real server processes on one
PostgreSQL and one Valkey, a browser line hosting on A, another joining through B and a third
watching through C. The view is made by the process the page reached, from the frames the
table's holder relays to it, so every page hears the same game in words and is asked only its
own decisions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from typing import Any

import pytest
from postgres_places import postgres_server  # noqa: F401 (a fixture)
from server_lab import run
from server_process import Running
from test_valkey_relay import _until_routed, database, three  # noqa: F401 (fixtures)
from test_web_view import answer
from valkey_server import ValkeyServer
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(120),
]


def page_line(url: str) -> str:
    return url + "/play?lang=en"


async def play_views(lines: dict[str, ClientConnection], rng: random.Random,
                     ) -> dict[str, dict[str, Any]]:
    """Answer every decision each seat's view asks for until every view says the game is
    over; the last view each line was sent."""
    heard: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

    async def read(who: str, line: ClientConnection) -> None:
        async for frame in line:
            message = json.loads(frame)
            assert message["type"] != "refused", (who, message)
            if message["type"] == "view":
                await heard.put((who, message))

    readers = [asyncio.create_task(read(who, line)) for who, line in lines.items()]
    latest: dict[str, dict[str, Any]] = {}
    sent_through = dict.fromkeys(lines, -1)
    try:
        while len(latest) < len(lines) or not all(
                view["decision"]["kind"] == "over" or view["decision"].get("over")
                for view in latest.values()):
            who, view = await asyncio.wait_for(heard.get(), 20)
            latest[who] = view
            decision = view["decision"]
            if decision["kind"] in ("choice", "hand") and view["step"] > sent_through[who]:
                actions = answer(decision, rng)
                sent_through[who] = view["step"] + len(actions) - 1
                await lines[who].send(json.dumps({"type": "act", "step": view["step"],
                                                  "actions": actions}))
    finally:
        for reader in readers:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    return latest


def test_browser_seats_and_a_browser_spectator_on_three_processes(
        three: tuple[Running, Running, Running, int],  # noqa: F811 (the fixture)
        valkey: ValkeyServer) -> None:
    a, b, c, _relay_port = three

    async def scenario() -> None:
        host = await connect(page_line(a.url))
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True)))
        seated = json.loads(await host.recv())
        assert seated["type"] == "seated"
        told = json.loads(await host.recv())
        assert told["type"] == "told" and told["code"] == seated["code"]
        await _until_routed(valkey, seated["code"])
        guest = await connect(page_line(b.url))  # relayed to A by B
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
        lines = {"host": host, "guest": guest}
        first = {who: json.loads(await line.recv()) for who, line in lines.items()}
        assert first["guest"]["type"] == "seated"
        watcher = await connect(page_line(c.url))  # relayed to A by C
        await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, seated["code"], "Owls")))
        latest = await play_views({**lines, "watcher": watcher}, random.Random(9))
        finals = {who: view["decision"]["question"] for who, view in latest.items()
                  if who != "watcher"}
        assert all(final.startswith("Final score:") for final in finals.values()), finals
        watched = latest["watcher"]
        # After the final, the spectator's form gives the result, no longer "Watching".
        assert watched["decision"]["kind"] == "watch" and watched["decision"]["over"]
        assert watched["decision"]["question"].startswith("Final score:"), watched
        # One game heard alike: each seat's score line names its own team first.
        scores = {who: sorted(final.split(".")[0].removeprefix("Final score: ").split(", "))
                  for who, final in finals.items()}
        assert scores["host"] == scores["guest"], finals
        for line in (host, guest, watcher):
            await line.close()

    run(scenario)
    for server in (a, b, c):
        log = server.stopped()
        assert "Traceback" not in log, log
