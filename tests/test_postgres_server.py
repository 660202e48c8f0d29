"""The private PostgreSQL cluster the store's tests will run against (tests/postgres_server.py):
it starts, psycopg's async connection writes and reads through it, a committed row survives an
immediate (crash) restart while the connection it cut fails at once, and nothing of the cluster
is left after it: no process, no folder.

PostgreSQL is needed: CI sets SUDDEN_DEATH_REQUIRE_POSTGRES=1 (tests/postgres_server.py then
installs it with apt and a missing one fails); elsewhere these tests skip without it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import postgres_server
import psycopg
import pytest
from postgres_server import (
    REQUIRE_ENV,
    PostgresCluster,
    ensure_postgres,
    find_postgres_bin,
    postgres_cluster,
    process_alive,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the cluster is Debian's PostgreSQL, driven through /proc")

ANSWER_TIMEOUT = 10.0  # a cut connection must fail within this, not hang


def require_postgres(lib_root: Path = postgres_server.LIB_ROOT) -> Path:
    """The PostgreSQL bin folder; skip without it, or fail when CI requires it."""
    bin_dir = ensure_postgres(lib_root)
    if bin_dir is None:
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail("PostgreSQL is required (SUDDEN_DEATH_REQUIRE_POSTGRES) but could not "
                        "be installed")
        pytest.skip("PostgreSQL is not installed (SUDDEN_DEATH_REQUIRE_POSTGRES=1 installs it)")
    return bin_dir


@pytest.fixture
def postgres() -> Iterator[PostgresCluster]:
    require_postgres()
    with postgres_cluster() as cluster:
        yield cluster


async def _write_and_read(url: str) -> list[tuple[int, str]]:
    async with await psycopg.AsyncConnection.connect(url) as connection:
        await connection.execute("CREATE TABLE kept (id integer PRIMARY KEY, name text)")
        await connection.execute("INSERT INTO kept VALUES (%s, %s)", (7, "Sudden Death"))
        await connection.commit()
        cursor = await connection.execute("SELECT id, name FROM kept")
        return await cursor.fetchall()


async def _read(url: str) -> list[tuple[int, str]]:
    async with await psycopg.AsyncConnection.connect(url) as connection:
        cursor = await connection.execute("SELECT id, name FROM kept")
        return await cursor.fetchall()


def test_postgres_cluster_takes_a_row_and_gives_it_back(postgres: PostgresCluster) -> None:
    assert postgres.url == f"postgresql://postgres@127.0.0.1:{postgres.port}/postgres"
    assert asyncio.run(_write_and_read(postgres.url)) == [(7, "Sudden Death")]


@pytest.mark.timeout(120)  # a connection cut by the restart must not hang
def test_postgres_committed_row_survives_an_immediate_restart(postgres: PostgresCluster) -> None:
    async def scenario() -> None:
        old = await psycopg.AsyncConnection.connect(postgres.url, autocommit=True)
        try:
            await old.execute("CREATE TABLE kept (id integer PRIMARY KEY, name text)")
            await old.execute("INSERT INTO kept VALUES (1, 'committed')")
            before = postgres.postmaster_pid()
            await asyncio.to_thread(postgres.restart, "immediate")
            assert postgres.postmaster_pid() not in (None, before)
            # The server that held this connection is gone: the next query fails, promptly.
            with pytest.raises(psycopg.OperationalError):
                await asyncio.wait_for(old.execute("SELECT 1"), ANSWER_TIMEOUT)
        finally:
            await old.close()
        rows = await asyncio.wait_for(_read(postgres.url), ANSWER_TIMEOUT)
        assert rows == [(1, "committed")]

    asyncio.run(scenario())


def test_postgres_cluster_leaves_no_process_and_no_folder() -> None:
    require_postgres()
    started = time.monotonic()
    with postgres_cluster() as cluster:
        up = time.monotonic() - started
        pids = cluster.pids()
        folder = cluster.folder
        assert len(pids) > 1  # the postmaster and its helpers (checkpointer, WAL writer...)
        assert all(process_alive(pid) for pid in pids)
        assert folder.is_dir()
        stopping = time.monotonic()
    down = time.monotonic() - stopping
    print(f"cluster up in {up:.2f} s, stopped and removed in {down:.2f} s")
    assert [pid for pid in pids if process_alive(pid)] == []
    assert not folder.exists()


def test_postgres_stop_is_idempotent_and_kills_what_pg_ctl_leaves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    require_postgres()
    with postgres_cluster() as cluster:
        pids = cluster.pids()
        # pg_ctl stop failing (here: doing nothing) must not leave the server running.
        real_run = PostgresCluster._run

        def run_without_stop(self: PostgresCluster, tool: str, *args: str,
                             check: bool = True) -> object:
            if "stop" in args:
                return None
            return real_run(self, tool, *args, check=check)

        monkeypatch.setattr(PostgresCluster, "_run", run_without_stop)
        monkeypatch.setattr(postgres_server, "STOP_GRACE", 0.2)
        cluster.stop()
        deadline = time.monotonic() + 5.0
        while any(process_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in pids if process_alive(pid)] == []
        cluster.stop()  # again, as the context's exit does: nothing left to stop


def _fake_version(lib_root: Path, version: str, tools: tuple[str, ...]) -> Path:
    bin_dir = lib_root / version / "bin"
    bin_dir.mkdir(parents=True)
    for tool in tools:
        (bin_dir / tool).write_text("#!/bin/sh\n")
        (bin_dir / tool).chmod(0o755)
    return bin_dir


def test_postgres_finder_finds_nothing_in_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert find_postgres_bin(tmp_path) is None
    assert find_postgres_bin(tmp_path / "absent") is None
    _fake_version(tmp_path, "15", ("initdb", "pg_ctl"))  # no `postgres`: not a usable server
    assert find_postgres_bin(tmp_path) is None


def test_postgres_finder_takes_the_newest_complete_version(tmp_path: Path) -> None:
    _fake_version(tmp_path, "9.6", postgres_server.TOOLS)
    newest = _fake_version(tmp_path, "16", postgres_server.TOOLS)
    _fake_version(tmp_path, "17", ("initdb",))  # half installed: passed over
    (tmp_path / "common").mkdir()
    assert find_postgres_bin(tmp_path) == newest


def test_postgres_missing_skips_unless_required(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    installs: list[tuple[str, ...]] = []

    def no_apt(packages: tuple[str, ...], require_env: str, present: object) -> bool:
        installs.append(packages)
        return False

    monkeypatch.setattr(postgres_server, "ensure_packages", no_apt)
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        require_postgres(tmp_path)
    monkeypatch.setenv(REQUIRE_ENV, "0")
    with pytest.raises(pytest.skip.Exception):
        require_postgres(tmp_path)
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="required"):
        require_postgres(tmp_path)
    assert installs == [("postgresql",)] * 3
    with pytest.raises(RuntimeError, match="not installed"):
        postgres_cluster(tmp_path).__enter__()
