"""Valkey restarted mid-game, empty (issue 63): the cluster's routes, leases and lobby entries
are gone at once, and the processes must write them again by themselves.

Three real processes on a PostgreSQL and a private Valkey. A public table held by A, its guest
joined through B and a spectator watching through C (relayed lines: live WebSocket pipes that
need no Valkey once open), and a lobby line on C. Valkey restarted: the game plays on to its
end, a new spectator through C reaches the table within seconds (A's routes written again),
C's lobby lists A's table again, and no process logs a traceback.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Iterator

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from redis.asyncio import Redis
from server_lab import receive, run
from server_process import Running
from test_valkey_relay import _played, until_listed
from valkey_server import ValkeyServer, require_valkey, valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(120),
]

BACK_WITHIN_S = 8.0  # a new spectator, and the lobby's listing, back after the restart
TRY_EVERY_S = 1.0  # a watch refused meanwhile is a wrong code: 10 a minute are allowed


@pytest.fixture
def own_valkey() -> Iterator[ValkeyServer]:
    require_valkey()
    with valkey_server() as server:
        yield server


async def watched_after_restart(url: str, code: str) -> tuple[ClientConnection, float]:
    """A new spectator through `url`, tried until the table is found; the line and how long
    after the first try it was seated."""
    started = time.monotonic()
    refusals = []
    while time.monotonic() - started < BACK_WITHIN_S:
        line = await connect(url)
        await line.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Late Owl")))
        answer = await receive(line, 10)
        if answer["type"] == "start":
            return line, time.monotonic() - started
        refusals.append(answer)
        await line.close()
        await asyncio.sleep(TRY_EVERY_S)  # the pace of the tries, within the deadline
    raise AssertionError(f"the table was not reached through C after the restart: {refusals}")


async def routed(valkey: ValkeyServer, code: str) -> bool:
    client = Redis.from_url(valkey.url)
    try:
        return bool(await client.exists(f"sd:table:{code}"))
    finally:
        await client.aclose()


def test_valkey_restarted_empty_mid_game_the_game_goes_on_and_routes_are_written_again(
        postgres_server: PostgresCluster, own_valkey: ValkeyServer) -> None:  # noqa: F811
    common = ("--postgres", new_database(postgres_server), "--valkey", own_valkey.url)
    with Running(*common, "--name", "a") as a, Running(*common, "--name", "b") as b, \
            Running(*common, "--name", "c") as c:

        async def scenario() -> dict[str, float]:
            host = await connect(a.url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True)))
            code = (await receive(host))["code"]
            guest = await connect(b.url)  # relayed to A (looked up again if not routed yet)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            assert (await receive(guest))["type"] == "seated"
            for line in (host, guest):
                assert (await receive(line))["type"] == "start"
            watcher = await connect(c.url)
            await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Owls")))
            assert (await receive(watcher))["type"] == "start"
            lobby = await connect(c.url)
            await lobby.send(p.encode(p.Lobby()))
            assert (await receive(lobby))["type"] == "lobby"
            await until_listed(c.url, lambda m: code in {g["code"] for g in m["games"]})
            seats = {Team.AWAY: host, Team.HOME: guest}
            rng = random.Random(11)
            state, step = await _played(seats, watcher, GameState(), 0, rng, 2)

            restarted = time.monotonic()
            own_valkey.restart()  # empty: every route, lease and lobby entry gone
            assert not await routed(own_valkey, code)
            # The open lines are pipes: the game plays on at once.
            state, step = await _played(seats, watcher, state, step, rng, 2)
            late, late_after = await watched_after_restart(c.url, code)
            assert await routed(own_valkey, code)
            await until_listed(c.url, lambda m: code in {g["code"] for g in m["games"]},
                               timeout=BACK_WITHIN_S)
            listed_after = time.monotonic() - restarted
            state, step = await _played(seats, watcher, state, step, rng, 500)
            assert not actors(state) and state.outcome is not None  # played to its end
            while (message := await receive(late, 10))["type"] != "update" \
                    or message["step"] != step:
                assert message["type"] in ("update", "committed"), message
            assert lobby.close_code is None  # the lobby line on C lived through it
            for line in (host, guest, watcher, late, lobby):
                await line.close()
            return {"spectator_s": late_after, "listed_s": listed_after}

        times = run(scenario)
        logs = {server.url: server.stopped() for server in (a, b, c)}
    print(f"after the restart: {times}")
    for log in logs.values():
        assert "Traceback" not in log, log
