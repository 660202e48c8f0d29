"""A table server behind PgBouncer in transaction pooling (issue 73): the pooler that lets many
server processes share a database's few connections. Each transaction may run on another of
the database's connections, where a statement prepared on one is unknown: the server prepares
none (psycopg's `prepare_threshold` off), so a game of many steps, a restart that restores
it, and the players' accounts all work through it."""

from __future__ import annotations

import asyncio
import random
import sys

import psycopg
import pytest
from pgbouncer_server import pgbouncer
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_lab import receive, run
from server_process import Running
from test_postgres_server_cli import _updated
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="Debian's PostgreSQL and PgBouncer"),
    pytest.mark.timeout(240),
]


def test_a_game_of_many_steps_and_its_restart_through_pgbouncer(
        postgres_server: PostgresCluster) -> None:  # noqa: F811 (the imported fixture)
    database = new_database(postgres_server)
    name = database.rsplit("/", 1)[1]
    seen: dict[str, int] = {}
    with pgbouncer(postgres_server, pool_size=2) as port:
        pooled = f"postgresql://postgres@127.0.0.1:{port}/{name}"

        async def table(server: Running, steps: int, seed: int) -> tuple[str, int, list[
                ClientConnection]]:
            """A table played `steps` steps (or to its end): its code, its step, its lines."""
            host = await connect(server.url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seated = await receive(host, timeout=30)
            guest = await connect(server.url)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
            await receive(guest, timeout=30)
            for line in (host, guest):
                assert (await receive(line, timeout=30))["type"] == "start"
            seats = {Team.AWAY: host, Team.HOME: guest}
            step, state, rng = 0, GameState(), random.Random(seed)
            while step < steps and state.outcome is None:
                step, state = await _updated(seats, step, state, rng)
            return seated["code"], step, [host, guest]

        async def play(server: Running) -> None:
            async with connect(server.url) as account:
                await account.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna",
                                                     "a long password")))
                assert (await receive(account, timeout=30))["type"] == "signed_in"
            # Eight whole games at once, on more of the server's connections than the pooler
            # has of the database's: each statement many times, on every connection.
            played = await asyncio.gather(*(table(server, 1000, seed) for seed in range(8)))
            seen["steps"] = sum(step for _code, step, _lines in played)
            _code, seen["step"], lines = await table(server, 4, 99)
            await asyncio.to_thread(server.killed)
            for line in [line for _c, _s, each in played for line in each] + lines:
                await line.close()

        with Running("--postgres", pooled, "--seed", "4") as first:
            run(lambda: play(first))
        with Running("--postgres", pooled) as again:
            log = again.stopped()
    assert seen["steps"] >= 40 and seen["step"] == 4
    assert "1 tables restored" in log and "Traceback" not in log, log
    with psycopg.connect(database) as db:
        assert db.execute("SELECT count(*) FROM steps").fetchone() == (seen["steps"] + 4,)
        assert db.execute("SELECT name FROM accounts").fetchall() == [("Anna",)]
