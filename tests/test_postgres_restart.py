"""A table server on PostgreSQL whose database goes away mid-game (issue 61), in real
processes: a private cluster stopped and started again, or restarted as by a crash (`pg_ctl
restart -m immediate`), a server run as an operator runs it,
and two seats and a spectator on real WebSocket lines. While the database is away a step
both seats committed is never told (no seat hears of what the database does not have); each
seat and the spectator hears `busy` once; the server tries again by itself and, once the
database is back, everyone hears `steady` and then the update, with nothing sent again. A
server SIGKILLed while the database is away never had that step: started again, it resumes
the table at the last committed step, and the seat plays the lost step again.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from postgres_server import PostgresCluster, postgres_cluster
from server_lab import receive, run
from server_process import Running
from test_postgres_server import require_postgres
from test_postgres_server_cli import _updated
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(240),
]
QUIET_S = 1.5  # long enough for a write tried again several times (0.2, 0.4, 0.8 s apart)


@pytest.fixture
def cluster() -> Iterator[PostgresCluster]:
    """A cluster of the test's own: it is stopped (or held) and started mid-test."""
    require_postgres()
    with postgres_cluster() as started:
        yield started


async def _two_seats(url: str) -> tuple[dict[Team, ClientConnection], dict[str, Any],
                                        dict[str, Any]]:
    """A table's two seats, its game started: the lines by team, the host's and the guest's
    `seated`."""
    host = await connect(url)
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
    seat = await receive(host)
    guest = await connect(url)
    await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
    guest_seat = await receive(guest)
    for line in (host, guest):
        assert (await receive(line))["type"] == "start"
    return {Team.AWAY: host, Team.HOME: guest}, seat, guest_seat


async def _seated(url: str) -> tuple[dict[Team, ClientConnection], ClientConnection,
                                     dict[str, Any]]:
    """`_two_seats`, and a spectator watching (both seats told so)."""
    seats, seat, _guest_seat = await _two_seats(url)
    host, guest = seats[Team.AWAY], seats[Team.HOME]
    watcher = await connect(url)
    await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, seat["code"], "Owls")))
    assert (await receive(watcher))["type"] == "start"
    for line in (host, guest):
        assert (await receive(line))["type"] == "watching"
    return {Team.AWAY: host, Team.HOME: guest}, watcher, seat


async def _committed(seats: dict[Team, ClientConnection], step: int, state: GameState,
                     rng: random.Random) -> None:
    """Both seats' actions for `step` sent; nothing awaited."""
    for team in actors(state):
        choice = rng.choice(legal_actions(state, team))
        await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))


async def _heard(line: ClientConnection, quiet_s: float) -> list[str]:
    """The types of what `line` hears until it has been quiet for `quiet_s`."""
    kinds = []
    while True:
        try:
            kinds.append((await receive(line, timeout=quiet_s))["type"])
        except (asyncio.TimeoutError, TimeoutError):
            return kinds


def test_postgres_away_mid_game_holds_the_step_says_busy_once_and_back_then_tells_it(
        cluster: PostgresCluster) -> None:
    found: dict[str, Any] = {}

    async def scenario(server: Running) -> None:
        seats, watcher, _seat = await _seated(server.url)
        step, state, rng = 0, GameState(), random.Random(5)
        while step < 4:
            step, state = await _updated(seats, step, state, rng)
        for line in (*seats.values(), watcher):
            await _heard(line, 0.3)  # the spectator's copies: all said
        await asyncio.to_thread(cluster.stop)
        await _committed(seats, step, state, rng)
        # Each line listened to at once (a line's frames wait in its client meanwhile).
        found["away"] = await asyncio.gather(
            *(_heard(line, QUIET_S) for line in (*seats.values(), watcher)))
        await asyncio.to_thread(cluster.start_again)
        found["back"] = await asyncio.gather(
            *(_heard(line, QUIET_S * 4) for line in (*seats.values(), watcher)))
        for line in (*seats.values(), watcher):
            await line.close()

    with Running("--postgres", cluster.url, "--log-json") as server:
        run(lambda: scenario(server))
        log = server.stopped()
    for kinds in found["away"]:  # "committed" for a card step; never the update
        assert kinds.count("busy") == 1 and "update" not in kinds, found["away"]
    for kinds in found["back"]:
        assert kinds[:2] == ["steady", "update"] or kinds[:1] == ["steady"], found["back"]
        assert kinds.count("steady") == 1 and kinds.count("update") == 1, found["back"]
        assert "busy" not in kinds
    assert "Traceback" not in log
    assert "writes are waiting on the store" in log and "no table waits" in log


def test_postgres_away_then_the_server_killed_the_uncommitted_step_is_played_again(
        cluster: PostgresCluster) -> None:
    found: dict[str, Any] = {}

    async def first(server: Running) -> None:
        seats, watcher, seat = await _seated(server.url)
        step, state, rng = 0, GameState(), random.Random(9)
        while step < 3:
            step, state = await _updated(seats, step, state, rng)
        await asyncio.to_thread(cluster.stop)
        await _committed(seats, step, state, rng)
        assert "update" not in await _heard(seats[Team.AWAY], QUIET_S)
        await asyncio.to_thread(server.killed)  # the step was never committed, nor told
        found.update(seat=seat, step=step, state=state)
        for line in (*seats.values(), watcher):
            await line.close()

    async def second(server: Running) -> None:
        seat = found["seat"]
        async with connect(server.url) as host:
            await host.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seat["code"], seat["token"],
                                              found["step"])))
            assert (await receive(host))["type"] == "seated"
            start = await receive(host)
            found["resumed_at"] = start["step"]

    with Running("--postgres", cluster.url) as server:
        run(lambda: first(server))
    cluster.start_again()
    with Running("--postgres", cluster.url) as again:
        run(lambda: second(again))
        again.stopped()
    assert found["resumed_at"] == found["step"]  # the last committed step: nothing invented


def test_postgres_restarted_immediately_as_a_step_is_committed_loses_nothing_and_tells_once(
        cluster: PostgresCluster) -> None:
    """`pg_ctl restart -m immediate` (a crash: every connection cut, the log replayed) begun
    just before both seats commit a step, for several steps in a row: each step reaches both
    seats and the spectator exactly once, in order, and `busy`, when it is said at all, is
    followed by one `steady` before the step's update."""
    heard: dict[str, list[list[str]]] = {"seats": [], "watcher": []}

    async def scenario(server: Running) -> None:
        seats, watcher, _seat = await _seated(server.url)
        step, state, rng = 0, GameState(), random.Random(11)
        while step < 2:
            step, state = await _updated(seats, step, state, rng)
        await _heard(watcher, 0.3)
        for _ in range(3):
            restarting = asyncio.ensure_future(asyncio.to_thread(cluster.restart, "immediate"))
            await asyncio.sleep(0.05)
            before = step
            await _committed(seats, step, state, rng)
            await restarting
            heard["seats"] += await asyncio.gather(
                *(_heard(line, QUIET_S * 3) for line in seats.values()))
            heard["watcher"].append(await _heard(watcher, 0.5))  # after the seats heard it
            async with connect(server.url) as probe:  # where the server has the game now
                await probe.send(p.encode(p.Watch(p.PROTOCOL_VERSION, _seat["code"])))
                now = await receive(probe, timeout=30)
            step, state = now["step"], state_from_dict(now["state"])
            assert step == before + 1, (before, now["step"], heard)
        for line in (*seats.values(), watcher):
            await line.close()

    with Running("--postgres", cluster.url) as server:
        run(lambda: scenario(server))
        log = server.stopped()
    assert "Traceback" not in log
    for kinds in heard["seats"] + heard["watcher"]:
        updates = [kind for kind in kinds if kind == "update"]
        assert len(updates) == 1, heard
        waits = [kind for kind in kinds if kind in ("busy", "steady")]
        assert waits in ([], ["busy", "steady"]), heard
        if waits:
            assert kinds.index("steady") < kinds.index("update"), heard
