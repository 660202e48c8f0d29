"""PostgreSQL away for a few seconds, answered at once (issue 70): a new table is refused
`no_room` and a resume `busy`, neither fatal, within about a second, while the game's step
waits and goes on within a second or two of the database's return; the log says the outage
once, not once a connection attempt.

A server run as an operator runs it, on a private cluster held still with SIGSTOP (its
connections hang, as behind a cut cable) or stopped and started again (its connections cut and
refused). And on a cluster of two processes with Valkey, a process killed and started again at
once while its restore is held (a lock on its tables): it answers for no table until it has
restored them, so a seat that comes back meanwhile is asked to try again, never refused as
unknown by the very process that holds its table.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from typing import Any

import psycopg
import pytest
from outages import come_back, first_answer, held
from postgres_server import PostgresCluster
from server_lab import receive, run
from server_process import Running
from test_postgres_restart import (
    _committed,
    _heard,
    _two_seats,
    cluster,  # noqa: F401 (a fixture: a cluster of the test's own)
)
from test_postgres_server_cli import _updated
from test_valkey_relay import _until_routed
from valkey_server import ValkeyServer
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(240),
]
AWAY_S = 5.0
REFUSED_WITHIN_S = 3.0  # "at once": about a second, measured; generous for a loaded machine
BACK_WITHIN_S = 4.0  # the step told after the database's return (retries at most 1 s apart)
POOL_WARNINGS = 2  # at most one a pool (the tables' and the accounts'), not one an attempt


async def _told(line: ClientConnection, kind: str, timeout: float) -> float:
    """When (time.monotonic) `line` hears a message of `kind`."""
    while (await receive(line, timeout))["type"] != kind:
        pass
    return time.monotonic()


def _pool_warnings(log: str) -> int:
    return sum("error connecting in" in line or "returned connection" in line
               or "discarding" in line for line in log.splitlines())


def test_held_database_a_new_table_and_a_resume_are_answered_at_once_and_play_goes_on(
        cluster: PostgresCluster) -> None:  # noqa: F811 (the fixture)
    found: dict[str, Any] = {}

    async def scenario(server: Running) -> None:
        seats, seat, guest_seat = await _two_seats(server.url)
        step, state, rng = 0, GameState(), random.Random(3)
        while step < 2:
            step, state = await _updated(seats, step, state, rng)
        host = seats[Team.AWAY]
        with held(cluster.pids()):
            await _committed(seats, step, state, rng)  # kept only once the database is back
            await seats[Team.HOME].close()  # and the guest's line drops meanwhile
            asked = time.monotonic()
            async with connect(server.url) as line:
                found["host"] = await first_answer(line, p.Host(p.PROTOCOL_VERSION, "Owls"),
                                                   REFUSED_WITHIN_S * 5)
            found["host_s"] = time.monotonic() - asked
            resume = p.Resume(p.PROTOCOL_VERSION, seat["code"], guest_seat["token"], step)
            asked = time.monotonic()
            async with connect(server.url) as line:
                found["resume"] = await first_answer(line, resume, REFUSED_WITHIN_S * 5)
            found["resume_s"] = time.monotonic() - asked
            found["away"] = await _heard(host, 0.5)
            await asyncio.sleep(max(0.0, AWAY_S - 2))
            let_go = time.monotonic()
        found["update_s"] = await _told(host, "update", BACK_WITHIN_S * 5) - let_go
        comeback, line = await come_back(server.url, resume, BACK_WITHIN_S * 5)
        found["comeback"] = comeback
        assert line is not None and comeback.seated_at is not None, comeback.answers
        found["back_s"] = comeback.seated_at - let_go
        for each in (host, line):
            await each.close()

    with Running("--postgres", cluster.url) as server:
        run(lambda: scenario(server))
        log = server.stopped()
    print(f"\nPostgreSQL held: new table refused after {found['host_s']:.2f} s, resume after "
          f"{found['resume_s']:.2f} s; the step told {found['update_s']:.2f} s and the seat "
          f"back {found['back_s']:.2f} s after the database's return; "
          f"{_pool_warnings(log)} pool warnings")
    assert found["host"]["type"] == "refused" and found["host"]["code"] == p.NO_ROOM
    assert found["resume"]["type"] == "refused" and found["resume"]["code"] == p.BUSY
    for kind in ("host", "resume"):
        assert found[kind]["fatal"] is False and found[kind]["closed"] == 1013, found[kind]
        assert found[f"{kind}_s"] < REFUSED_WITHIN_S, found
    assert "busy" in found["away"] and "update" not in found["away"], found["away"]
    assert found["update_s"] < BACK_WITHIN_S and found["back_s"] < BACK_WITHIN_S, found
    assert not found["comeback"].fatal
    assert "Traceback" not in log and "data folder" not in log, log
    assert _pool_warnings(log) <= POOL_WARNINGS, log


def test_stopped_database_play_goes_on_within_about_a_second_of_its_return_said_once(
        cluster: PostgresCluster) -> None:  # noqa: F811 (the fixture)
    found: dict[str, Any] = {}

    async def scenario(server: Running) -> None:
        seats, _seat, _guest_seat = await _two_seats(server.url)
        step, state, rng = 0, GameState(), random.Random(4)
        while step < 2:
            step, state = await _updated(seats, step, state, rng)
        await asyncio.to_thread(cluster.stop)
        await _committed(seats, step, state, rng)
        await asyncio.sleep(AWAY_S)
        await asyncio.to_thread(cluster.start_again)  # returns once it takes connections
        back = time.monotonic()
        found["update_s"] = await _told(seats[Team.AWAY], "update", BACK_WITHIN_S * 5) - back
        for line in seats.values():
            await line.close()

    with Running("--postgres", cluster.url) as server:
        run(lambda: scenario(server))
        log = server.stopped()
    print(f"\nPostgreSQL stopped {AWAY_S:g} s: the step told {found['update_s']:.2f} s after "
          f"it took connections again; {_pool_warnings(log)} pool warnings")
    assert found["update_s"] < BACK_WITHIN_S, found
    assert "Traceback" not in log and "data folder" not in log, log
    assert _pool_warnings(log) <= POOL_WARNINGS, log
    assert log.count("writes are waiting on the store") == 1, log


def _restore_held(url: str) -> psycopg.Connection[Any]:
    """A transaction holding the tables' header table: a restore's first read waits on it."""
    holding = psycopg.connect(url)
    holding.execute("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE")
    return holding


def _waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as probe:
        row = probe.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()
    return row is not None and row[0] > 0


def test_a_process_restarted_at_once_answers_for_its_tables_only_once_restored(
        cluster: PostgresCluster, valkey: ValkeyServer) -> None:  # noqa: F811 (the fixture)
    """A killed and started again at once, its restore held: the guest coming back through B
    meanwhile is never refused `no_table` (fatal) by A, and is seated once A has restored."""
    common = ("--postgres", cluster.url, "--valkey", valkey.url)
    found: dict[str, Any] = {}

    async def first(a: Running, b: Running) -> None:
        seats, seat, guest_seat = await _two_seats(a.url)
        step, state, rng = 0, GameState(), random.Random(6)
        while step < 2:
            step, state = await _updated(seats, step, state, rng)
        await _until_routed(valkey, seat["code"])  # the others know A holds it
        await asyncio.to_thread(a.killed)
        found.update(resume=p.Resume(p.PROTOCOL_VERSION, seat["code"], guest_seat["token"],
                                     step))
        for line in seats.values():
            await line.close()

    async def second(b: Running, holding: psycopg.Connection[Any]) -> None:
        comeback_task = asyncio.ensure_future(come_back(b.url, found["resume"], 60))
        await asyncio.sleep(2.0)  # tries while A is restoring (held)
        holding.rollback()  # the restore goes on
        comeback, line = await comeback_task
        found["comeback"] = comeback
        if line is not None:
            await line.close()

    with Running(*common, "--name", "b") as b:
        with Running(*common, "--name", "a") as a:
            run(lambda: first(a, b))
        holding = _restore_held(cluster.url)
        try:
            restarting = Running(*common, "--name", "a", wait=False)
            deadline = time.monotonic() + 30
            while not _waiting_on_a_lock(cluster.url):  # A's restore waits on the lock
                assert time.monotonic() < deadline and restarting.proc.poll() is None
                time.sleep(0.05)
            run(lambda: second(b, holding))
        finally:
            holding.close()
        restarting.listening()
        logs = [restarting.stopped(), b.stopped()]
    comeback = found["comeback"]
    print(f"\nrestore held: {len(comeback.answers)} tries before the seat was back: "
          f"{[answer.get('code', answer['type']) for _at, answer in comeback.answers]}")
    assert not comeback.fatal, comeback.answers
    assert comeback.seated_at is not None, comeback.answers
    assert all("Traceback" not in log for log in logs), logs

