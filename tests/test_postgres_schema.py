"""The PostgreSQL schema (sudden_death/server/stores/postgres_schema.py) against a real private
cluster (tests/postgres_server.py): a fresh database gets every table, a second migration changes
nothing, two servers migrating at once both end at the newest version, a database newer than
the server is refused, and one left at version 1 is brought up to the newest.

PostgreSQL is needed: CI sets SUDDEN_DEATH_REQUIRE_POSTGRES=1 (a missing one then fails);
elsewhere these tests skip without it, as tests/test_postgres_server.py's do.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from postgres_server import PostgresCluster, postgres_cluster
from test_postgres_server import require_postgres

from sudden_death.server.stores import postgres_schema
from sudden_death.server.stores.postgres_schema import SchemaTooNew, migrate, migrations, newest

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(120),
]

TABLES_001 = {"tables", "games", "steps", "claims"}
TABLES_002 = {"accounts", "tokens", "ratings", "rated_games"}


@pytest.fixture
def postgres() -> Iterator[PostgresCluster]:
    require_postgres()
    with postgres_cluster() as cluster:
        yield cluster


async def _connect(url: str) -> psycopg.AsyncConnection[Any]:
    return await psycopg.AsyncConnection.connect(url, autocommit=True)


async def _tables(connection: psycopg.AsyncConnection[Any]) -> set[str]:
    cursor = await connection.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    return {str(name) for (name,) in await cursor.fetchall()}


async def _columns(connection: psycopg.AsyncConnection[Any]) -> set[tuple[str, str, str]]:
    cursor = await connection.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public'")
    return {(str(t), str(c), str(d)) for (t, c, d) in await cursor.fetchall()}


async def _stored_version(connection: psycopg.AsyncConnection[Any]) -> list[tuple[Any, ...]]:
    cursor = await connection.execute("SELECT version FROM schema_version")
    return await cursor.fetchall()


def test_postgres_migrations_are_shipped_numbered_from_one() -> None:
    found = migrations()
    assert [(m.version, m.name) for m in found] == [(1, "001_tables.sql"),
                                                    (2, "002_accounts.sql"),
                                                    (3, "003_holder.sql")]
    assert newest() == 3
    assert all("CREATE TABLE" in m.sql for m in found[:2])
    assert "ALTER TABLE tables ADD COLUMN holder" in found[2].sql


def test_postgres_fresh_database_migrates_to_the_newest_with_every_table(
        postgres: PostgresCluster) -> None:
    async def scenario() -> None:
        async with await _connect(postgres.url) as connection:
            assert await _tables(connection) == set()
            assert await migrate(connection) == newest() == 3
            assert await _tables(connection) == {"schema_version"} | TABLES_001 | TABLES_002
            assert await _stored_version(connection) == [(3,)]
            columns = await _columns(connection)
            assert {("steps", "told", "text"), ("tables", "over", "boolean"),
                    ("tables", "holder", "text"),
                    ("claims", "since", "timestamp with time zone"),
                    ("ratings", "rating", "double precision"),
                    ("accounts", "skeleton_folded", "text"),
                    ("rated_games", "score", "double precision")} <= columns
            # The keys hold: a step is kept once, and a game's steps need the game.
            await connection.execute("INSERT INTO tables (code, record) VALUES ('ABCD', '{}')")
            await connection.execute("INSERT INTO games VALUES ('ABCD', 0, 'north')")
            await connection.execute("INSERT INTO steps VALUES ('ABCD', 0, 0, '[]', '[]')")
            with pytest.raises(psycopg.errors.UniqueViolation):
                await connection.execute("INSERT INTO steps VALUES ('ABCD', 0, 0, '[]', '[]')")
            with pytest.raises(psycopg.errors.ForeignKeyViolation):
                await connection.execute("INSERT INTO steps VALUES ('ABCD', 9, 0, '[]', '[]')")

    asyncio.run(scenario())


def test_postgres_migrating_again_changes_nothing(postgres: PostgresCluster) -> None:
    async def scenario() -> None:
        async with await _connect(postgres.url) as connection:
            assert await migrate(connection) == 3
            await connection.execute("INSERT INTO claims (code, owner) VALUES ('WXYZ', 'one')")
            columns = await _columns(connection)
            assert await migrate(connection) == 3
            assert await _columns(connection) == columns
            assert await _stored_version(connection) == [(3,)]
            cursor = await connection.execute("SELECT code, owner FROM claims")
            assert await cursor.fetchall() == [("WXYZ", "one")]

    asyncio.run(scenario())


def test_postgres_two_servers_migrating_at_once_both_end_at_the_newest(
        postgres: PostgresCluster) -> None:
    async def scenario() -> None:
        first, second = await _connect(postgres.url), await _connect(postgres.url)
        try:
            versions = await asyncio.gather(migrate(first), migrate(second))
            assert versions == [3, 3]
            assert await _tables(first) == {"schema_version"} | TABLES_001 | TABLES_002
            assert await _stored_version(second) == [(3,)]
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


def test_postgres_database_newer_than_the_server_is_refused(postgres: PostgresCluster) -> None:
    async def scenario() -> None:
        async with await _connect(postgres.url) as connection:
            assert await migrate(connection) == 3
            await connection.execute("UPDATE schema_version SET version = 7")
            with pytest.raises(SchemaTooNew) as refused:
                await migrate(connection)
            message = str(refused.value)
            assert message == ("the database's schema is version 7; this server knows up to 3: "
                               "upgrade the server")
            assert "\n" not in message
            assert (refused.value.found, refused.value.known) == (7, 3)
            assert await _stored_version(connection) == [(7,)]  # refused, not rewritten

    asyncio.run(scenario())


def test_postgres_database_at_version_one_is_brought_to_the_newest(
        postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        async with await _connect(postgres.url) as connection:
            every = migrations()
            monkeypatch.setattr(postgres_schema, "migrations", lambda: every[:1])
            assert await migrate(connection) == 1
            assert await _tables(connection) == {"schema_version"} | TABLES_001
            await connection.execute("INSERT INTO tables (code, record) VALUES ('ABCD', '{}')")
            await connection.execute("INSERT INTO tables (code, record) VALUES ('EFGH', '{}')")
            await connection.execute("INSERT INTO claims (code, owner) VALUES ('EFGH', 'one')")
            monkeypatch.setattr(postgres_schema, "migrations", lambda: every)
            assert await migrate(connection) == 3
            assert await _tables(connection) == {"schema_version"} | TABLES_001 | TABLES_002
            assert await _stored_version(connection) == [(3,)]
            cursor = await connection.execute("SELECT code, holder FROM tables ORDER BY code")
            # Version 1's rows stay; a claimed table's holder is its claim's owner (the
            # fence its saves check), an unclaimed one's none.
            assert await cursor.fetchall() == [("ABCD", None), ("EFGH", "one")]

    asyncio.run(scenario())


def test_postgres_failed_migration_leaves_the_database_as_it_was(
        postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        broken = postgres_schema.Migration(1, "001_broken.sql",
                                           "CREATE TABLE half (id integer); SELECT nonsense;")
        monkeypatch.setattr(postgres_schema, "migrations", lambda: [broken])
        async with await _connect(postgres.url) as connection:
            with pytest.raises(psycopg.errors.UndefinedColumn):
                await migrate(connection)
            assert await _tables(connection) == set()  # not even schema_version

    asyncio.run(scenario())
