"""Fresh PostgreSQL databases for the tests of what a table server keeps in PostgreSQL (issue
61): one private cluster per test process (a pytest-xdist worker), started the first time a
test asks for it and stopped at the end of the session, and a new, empty database in it for
each place a test asks for (CREATE DATABASE: tens of milliseconds, where a cluster takes
seconds). A test module uses the `postgres_server` fixture by importing it.

Without PostgreSQL the tests that ask for it skip, unless SUDDEN_DEATH_REQUIRE_POSTGRES is set,
when they fail (test_postgres_server.require_postgres).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import psycopg
import pytest
from postgres_server import PostgresCluster, postgres_cluster
from psycopg import sql
from test_postgres_server import require_postgres

from sudden_death.server.stores.postgres_tables import PgTableStore
from sudden_death.server.stores.sharded_tables import ShardedTables

_NUMBERS = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresCluster]:
    """This test process's own cluster, for the whole session."""
    require_postgres()
    with postgres_cluster() as cluster:
        yield cluster


def new_database(cluster: PostgresCluster) -> str:
    """A new empty database in `cluster`, and its URL."""
    name = f"place_{os.getpid()}_{next(_NUMBERS)}"
    with psycopg.connect(cluster.url, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return cluster.url.rsplit("/", 1)[0] + "/" + name


async def sharded_opened(place: str) -> ShardedTables:
    """A tables store spread over the databases of `place` (their URLs, separated by spaces):
    the contract tests' factory for the sharded kind."""
    return ShardedTables([await PgTableStore.open(url) for url in place.split()])
