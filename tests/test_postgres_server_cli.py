"""`python -m sudden_death.server --postgres URL` as an operator runs it, in real processes: a
game's steps are in the database before the seats hear them, so a server SIGKILLed just after
an update and started again on the same database gives the seats back their table at that
step; and what can go wrong before it serves (no psycopg, a URL that leads nowhere, a database
a newer server migrated) is one line on stderr and exit 2, never a traceback. The players'
accounts are kept there too.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_lab import receive, run
from server_process import START_TIMEOUT_S, Running
from table_driver import free_port
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.stores.postgres_schema import newest
from sudden_death.server.stores.postgres_tables import PgTableStore
from sudden_death.wire import protocol as p

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(240),
]


@pytest.fixture
def database(postgres_server: PostgresCluster) -> str:  # noqa: F811 (the imported fixture)
    return new_database(postgres_server)


def refused(*args: str, env: dict[str, str] | None = None) -> str:
    """Run a server that must stop before it serves: exit 2, and its one line of stderr."""
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=START_TIMEOUT_S)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


async def _updated(seats: dict[Team, ClientConnection], step: int,
                   state: GameState, rng: random.Random) -> tuple[int, GameState]:
    """One step played by both seats (each acting when it is one of the step's actors); the
    update both heard."""
    for team in actors(state):
        choice = rng.choice(legal_actions(state, team))
        await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
    message: dict[str, Any] = {}
    for seat in seats.values():  # each hears "committed" first, for a card step
        while (message := await receive(seat))["type"] != "update":
            assert message["type"] == "committed"
    return message["step"], state_from_dict(message["state"])


def test_postgres_server_keeps_every_step_told_past_a_sigkill(database: str,
                                                               tmp_path: Path) -> None:
    """Both seats hear an update and the server is SIGKILLed at once: started again on the
    same database, it has the table at that step, and a seat resumes it there. Players'
    names stay in --data's file; the tables are not written there."""
    seen: dict[str, Any] = {}

    async def first_half(server: Running) -> None:
        host = await connect(server.url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        seen["host"] = await receive(host)
        guest = await connect(server.url)
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seen["host"]["code"], "Bears")))
        await receive(guest)
        for connection in (host, guest):
            assert (await receive(connection))["type"] == "start"
        seats = {Team.AWAY: host, Team.HOME: guest}
        step, state, rng = 0, GameState(), random.Random(7)
        while step < 6 and state.outcome is None:
            step, state = await _updated(seats, step, state, rng)
        seen["step"], seen["state"] = step, state
        await asyncio.to_thread(server.killed)  # the moment both have heard: nothing queued
        for connection in (host, guest):
            await connection.close()

    with Running("--postgres", database, "--data", str(tmp_path), "--seed", "3") as server:
        run(lambda: first_half(server))
    assert not (tmp_path / "tables.sqlite3").exists()  # the tables are in the database

    async def stored() -> list[tuple[str, int]]:
        store = await PgTableStore.open(database)
        try:
            return [(table.code, table.step) for table in await store.open_tables()]
        finally:
            await store.close()

    code = seen["host"]["code"]
    assert asyncio.run(stored()) == [(code, seen["step"])]

    async def resumed(url: str) -> dict[str, Any]:
        async with connect(url) as host:
            await host.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, seen["host"]["token"],
                                              seen["step"])))
            assert (await receive(host))["type"] == "seated"
            return await receive(host)

    with Running("--postgres", database, "--data", str(tmp_path)) as again:
        start = run(lambda: resumed(again.url))
        log = again.stopped()
    assert "1 tables restored" in log and "Traceback" not in log, log
    assert start["type"] == "start" and start["step"] == seen["step"]
    assert state_from_dict(start["state"]) == seen["state"]


def test_postgres_without_psycopg_names_the_extra_and_sqlite_still_serves(
        tmp_path: Path) -> None:
    """A psycopg that cannot be imported (as when the server extra is not installed): the
    --postgres server says which extra to install; the server on SQLite never needs it."""
    blocked = tmp_path / "blocked"
    (blocked / "psycopg").mkdir(parents=True)
    (blocked / "psycopg" / "__init__.py").write_text(
        "raise ImportError(\"No module named 'psycopg'\")\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocked), str(ROOT)])}
    line = refused("--postgres", "postgresql://nobody@127.0.0.1:1/none", env=env)
    assert line == ("sudden_death.server: --postgres needs the PostgreSQL client, which the "
                    "game alone does not install: pip install 'sudden-death[server]'")
    with Running("--data", str(tmp_path / "data"), env=env) as server:
        assert server.url.startswith("ws://127.0.0.1:")


@pytest.mark.parametrize("url", [
    "postgresql://postgres@127.0.0.1:{free}/tables",  # nothing listens there
    "postgresql://postgres@127.0.0.1:notaport/tables",  # not a URL libpq takes
    "nonsense",
])
def test_postgres_a_url_that_leads_nowhere_is_one_line(url: str) -> None:
    line = refused("--postgres", url.format(free=free_port()))
    assert line.startswith("sudden_death.server: the PostgreSQL database cannot be used: ")


def test_postgres_a_database_that_does_not_exist_is_one_line(
        postgres_server: PostgresCluster) -> None:  # noqa: F811 (the imported fixture)
    missing = postgres_server.url.rsplit("/", 1)[0] + "/no_such_database"
    line = refused("--postgres", missing)
    assert line.startswith("sudden_death.server: the PostgreSQL database cannot be used: ")
    assert '"no_such_database" does not exist' in line


def test_postgres_a_database_a_newer_server_migrated_is_refused(database: str) -> None:
    async def newer() -> None:
        await (await PgTableStore.open(database)).close()
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as db:
            await db.execute("UPDATE schema_version SET version = 99")

    asyncio.run(newer())
    line = refused("--postgres", database)
    assert line == ("sudden_death.server: the PostgreSQL database cannot be used: the "
                    f"database's schema is version 99; this server knows up to {newest()}: "
                    "upgrade the server")


def test_postgres_is_in_the_servers_help() -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=START_TIMEOUT_S, check=True)
    said = " ".join(done.stdout.split())
    assert "--postgres URL" in said and "sudden-death[server]" in said
    assert "tables and the players' accounts and ratings in PostgreSQL" in said


def test_postgres_keeps_the_players_accounts_past_a_restart(database: str) -> None:
    """With --postgres alone (no --data), a name signed up on one server signs in on the
    next one started on the same database: the accounts are in PostgreSQL, not in memory."""
    async def sign(url: str, message: p.Message) -> dict[str, Any]:
        async with connect(url) as line:
            await line.send(p.encode(message))
            return await receive(line, timeout=30)

    with Running("--postgres", database) as first:
        made = run(lambda: sign(first.url, p.SignUp(p.PROTOCOL_VERSION, "Anna", "a long "
                                                    "password")))
        assert made["type"] == "signed_in"
        first.killed()
    with Running("--postgres", database) as second:
        back = run(lambda: sign(second.url, p.SignIn(p.PROTOCOL_VERSION, "anna", "a long "
                                                     "password")))
        wrong = run(lambda: sign(second.url, p.SignIn(p.PROTOCOL_VERSION, "anna", "not it")))
        second.stopped()
    assert back["type"] == "signed_in" and back["name"] == "Anna"
    assert wrong["type"] == "refused" and wrong["code"] == p.BAD_SIGN_IN
    with psycopg.connect(database) as db:
        (kept,) = db.execute("SELECT name FROM accounts").fetchall()
    assert kept == ("Anna",)


def test_postgres_tables_on_two_databases_each_where_its_code_belongs(
        postgres_server: PostgresCluster) -> None:  # noqa: F811 (the imported fixture)
    """Issue 73: `--tables-on` twice spreads the tables over two databases, the accounts stay
    in --postgres's; the same databases given the other way round stop the next start with
    one line naming a misplaced table, and a tables database that leads nowhere is named."""
    accounts, first, second = (new_database(postgres_server) for _ in range(3))

    async def host_tables(server: Running) -> list[str]:
        """Twenty tables hosted, five from each of four addresses (within the waiting tables
        an address may have), their hosts still there when the server is killed (a table
        whose host leaves before a guest comes is let go). Twenty random codes all in one of
        two databases: one chance in half a million."""
        codes, lines = [], []
        for number in range(20):
            line = await connect(server.url, local_addr=(f"127.6.0.{number % 4 + 1}", 0))
            lines.append(line)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seated = await receive(line, timeout=30)
            assert seated["type"] == "seated", seated
            codes.append(seated["code"])
        server.killed()
        for line in lines:
            await line.close()
        return codes

    with Running("--postgres", accounts, "--tables-on", first, "--tables-on", second) as server:
        codes = run(lambda: host_tables(server))
    kept: dict[str, set[str]] = {}
    for url in (first, second):
        with psycopg.connect(url) as db:
            kept[url] = {code for (code,) in db.execute("SELECT code FROM tables").fetchall()}
    assert kept[first] | kept[second] == set(codes) and kept[first] and kept[second]
    assert not kept[first] & kept[second]
    with psycopg.connect(accounts) as db:
        assert db.execute("SELECT count(*) FROM tables").fetchone() == (0,)
    said = refused("--postgres", accounts, "--tables-on", second, "--tables-on", first)
    assert "in the order they were first given" in said
    nowhere = postgres_server.url.rsplit("/", 1)[0] + "/no_such_database"
    said = refused("--postgres", accounts, "--tables-on", first, "--tables-on", nowhere)
    assert said.startswith("sudden_death.server: tables database 2 of 2:"), said
