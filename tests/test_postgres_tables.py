"""The PostgreSQL table store's own promises, beside the seam's contract (test_contract_stores.py
runs that against it too): a save that fails leaves the table as last saved and the next one
writes everything since; the keeper tells each change only once its transaction is committed,
in order, with no two saves of a table at once; many tables' saves due together share one
COMMIT (a group commit, issue 73), and a table taken over in a group loses only its own save;
of two servers claiming one code at once, one gets it; and the seats role plays a table on it
whose every answer is awaited, to its end and the release of its claim, and finds it again for
a seat that was away. A deferred save (a held choice) commits nothing of its own while another
group comes within LAZY_S, and a step played at a light load costs one commit, not two.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from functools import partial
from typing import Any

import psycopg
import pytest
from coach_steps import hold
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster, postgres_cluster
from psycopg.types.array import ListBinaryDumper
from psycopg_pool import AsyncConnectionPool
from server_lab import receive
from test_contract_stores import advance, same_play, seated
from test_postgres_server import require_postgres
from websockets.asyncio.client import connect

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.stores.keeping import Keeper
from sudden_death.server.stores.postgres_tables import PgTableStore
from sudden_death.server.stores.seam import StoreError, TakenOver
from sudden_death.server.stores.sharded_tables import Misplaced, ShardedTables, shard_of
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(120),
]


@pytest.fixture
def database(postgres_server: PostgresCluster) -> str:  # noqa: F811 (the imported fixture)
    return new_database(postgres_server)


async def _rows(url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        cursor = await connection.execute(query, args)
        return await cursor.fetchall() if cursor.description is not None else []


def test_postgres_a_failed_save_keeps_the_last_and_the_next_writes_the_rest(
        database: str) -> None:
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        table = seated()
        for _ in range(3):
            advance(table)
        await store.save(table)
        # The database refuses step 5 and later: the next save fails at its INSERT.
        await _rows(database, "ALTER TABLE steps ADD CONSTRAINT refused CHECK (step < 5)")
        for _ in range(4):
            advance(table)
        with pytest.raises(StoreError) as failed:
            await store.save(table)
        assert isinstance(failed.value.__cause__, psycopg.errors.CheckViolation)
        reader = await PgTableStore.open(database)
        (kept,) = await reader.open_tables()
        assert kept.step == 3  # the table as last saved: nothing of the failed save
        await _rows(database, "ALTER TABLE steps DROP CONSTRAINT refused")
        advance(table)
        await store.save(table)  # steps 3 to 7: what the failed save had, and one more
        (kept,) = await reader.open_tables()
        same_play(kept, table)
        assert await _rows(database, "SELECT step FROM steps ORDER BY step") == [
            (step,) for step in range(table.step)]
        await reader.close()
        await store.close()

    asyncio.run(scenario())


def test_postgres_saves_due_together_share_one_commit_and_each_is_kept(database: str) -> None:
    """Forty tables saved at once: fewer transactions than saves, and every table found again
    as it was saved; then each saved alone, once the first group is done: one commit each."""
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        tables = [seated(f"{number:06d}", seed=number) for number in range(40)]
        for table in tables:
            for _ in range(3):
                advance(table)
        await asyncio.gather(*(store.save(table) for table in tables))
        grouped = store.commits
        assert 1 <= grouped <= 2, grouped  # all due in one turn of the loop: one group
        reader = await PgTableStore.open(database)
        found = {table.code: table for table in await reader.open_tables()}
        assert sorted(found) == [table.code for table in tables]
        for table in tables:
            same_play(found[table.code], table)
        for table in tables[:5]:
            advance(table)
            await store.save(table)
        assert store.commits == grouped + 5  # one at a time: nothing waits to be grouped
        await reader.close()
        await store.close()

    asyncio.run(scenario())


async def _held_kept(url: str, code: str) -> list[str]:
    """The seats whose choice the table's header in the database holds."""
    (record,) = await _rows(url, "SELECT record FROM tables WHERE code = %s", code)
    return sorted(json.loads(record[0])["held"])


def test_postgres_a_deferred_save_rides_in_the_next_group_or_is_replaced(
        database: str) -> None:
    """Issue 73: a held choice deferred commits nothing of its own while another table's save
    comes (it is written in that save's transaction); one whose table is saved first is
    replaced by that save; one with nothing to ride in is written alone after `lazy_s`."""
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        store.lazy_s = 0.3
        first, second = seated("000001", seed=1), seated("000002", seed=2)
        await asyncio.gather(store.save(first), store.save(second))
        commits = store.commits
        hold(first)
        riding = store.defer(first)
        await asyncio.sleep(0.05)
        assert store.commits == commits and not riding.done()
        assert await _held_kept(database, first.code) == []  # not yet written
        advance(second)
        await store.save(second)
        assert riding.done() and store.commits == commits + 1  # one COMMIT for both
        assert await _held_kept(database, first.code) == sorted(
            team.name for team in first.held)

        advance(first)  # the other seat's choice: the step plays
        hold(first)
        replaced = store.defer(first)
        advance(first)
        await store.save(first)
        assert replaced.done() and store.commits == commits + 2
        await asyncio.sleep(0.5)  # past lazy_s: nothing was left to write
        assert store.commits == commits + 2

        hold(first)
        alone = store.defer(first)
        await asyncio.sleep(0.05)
        assert store.commits == commits + 2
        await asyncio.wait_for(alone, 2)  # after lazy_s, in a group of its own
        assert store.commits == commits + 3
        assert await _held_kept(database, first.code) != []
        await store.close()

    asyncio.run(scenario())


def test_postgres_a_step_at_a_light_load_costs_one_commit(database: str) -> None:
    """Issue 73: one table on a server on its own, its two seats playing a step at a time, the
    second seat of a card step acting 0.1 s after hearing that the first has chosen (well
    within LAZY_S, with no other table's save to ride in): each step costs one COMMIT, the
    held choice's save replaced by the step's (it was two: the held choice, then the step)."""
    async def scenario() -> tuple[int, int, int]:
        store = await PgTableStore.open(database)
        service = TableService(seed=3, store=store)
        running = await start(service, "127.0.0.1", 0)
        url = address(running, tls=False)
        try:
            host = await connect(url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            guest = await connect(url)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            await receive(guest)
            seats = {Team.AWAY: host, Team.HOME: guest}
            for line in seats.values():
                assert (await receive(line))["type"] == "start"
            await asyncio.sleep(0.2)  # the table's start, written
            before = store.commits
            step, state, rng, cards = 0, GameState(), random.Random(4), 0
            while step < 24 and state.outcome is None:
                teams = actors(state)
                for number, team in enumerate(teams):
                    choice = rng.choice([action for action in legal_actions(state, team)
                                         if not isinstance(action, Concede)])
                    await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
                    if number == 0 and len(teams) == 2:
                        for line in seats.values():
                            assert (await receive(line))["type"] == "committed"
                        await asyncio.sleep(0.1)
                        cards += 1
                for line in seats.values():
                    update = await receive(line)
                    assert update["type"] == "update", update
                step, state = update["step"], state_from_dict(update["state"])
            await asyncio.sleep(store.lazy_s + 0.2)  # anything deferred would be written now
            return step, cards, store.commits - before
        finally:
            await stop(running)
            closing = service.close()  # the store, and the accounts' SQLite (3.13 warns)
            assert closing is not None
            await closing

    steps, cards, commits = asyncio.run(scenario())
    assert cards >= 5, cards  # card steps, each with a held choice
    assert commits <= steps, (commits, steps, cards)


def test_postgres_a_pooled_connection_is_asked_only_once_the_database_cut_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 73: the pool hands a connection out without asking the database (an empty query:
    a round trip, and a transaction in its counts) while nothing came on it; after a restart
    of the database (`-m immediate`: every connection cut) it asks, finds the cut ones and
    the save goes on a new connection, without failing."""
    require_postgres()
    asked: list[int] = []
    check = AsyncConnectionPool.check_connection

    async def counted(connection: psycopg.AsyncConnection[Any]) -> None:
        asked.append(1)
        await check(connection)

    monkeypatch.setattr(AsyncConnectionPool, "check_connection", staticmethod(counted))
    with postgres_cluster() as cluster:
        async def scenario() -> None:
            store = await PgTableStore.open(cluster.url)
            table = seated()
            for _ in range(5):
                advance(table)
                await store.save(table)
            assert asked == []
            await asyncio.to_thread(cluster.restart, "immediate")
            advance(table)
            await store.save(table)  # no StoreError: the cut connection was not used
            assert asked
            reader = await PgTableStore.open(cluster.url)
            (found,) = await reader.open_tables()
            same_play(found, table)
            await reader.close()
            await store.close()

        asyncio.run(scenario())


def test_postgres_a_step_s_save_is_one_statement_and_a_new_game_s_one_transaction(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 73: a save with nothing new but its steps and header (nearly every one) is one
    statement, its own transaction: one round trip, where BEGIN, two statements and COMMIT
    were four; a new table's first save (its game's start too) is still one transaction of
    several statements. Both read back the same."""
    calls: list[str] = []
    execute, transaction = psycopg.AsyncConnection.execute, psycopg.AsyncConnection.transaction

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append("execute")
        return execute(self, query, *args, **kwargs)

    def counted_transaction(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append("transaction")
        return transaction(self, *args, **kwargs)

    async def scenario() -> None:
        store = await PgTableStore.open(database)
        table = seated()
        monkeypatch.setattr(psycopg.AsyncConnection, "execute", counted_execute)
        monkeypatch.setattr(psycopg.AsyncConnection, "transaction", counted_transaction)
        await store.save(table)  # a new table: its header, its game, its steps
        assert calls[0] == "transaction" and calls.count("execute") >= 3, calls
        for _ in range(3):
            calls.clear()
            advance(table)
            await store.save(table)
            assert calls == ["execute"]
        monkeypatch.undo()
        reader = await PgTableStore.open(database)
        (found,) = await reader.open_tables()
        same_play(found, table)
        await reader.close()
        await store.close()

    asyncio.run(scenario())


def test_postgres_a_group_s_arrays_go_with_their_types_fixed(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 73: a group's columns are arrays whose element type the store fixes, so psycopg
    never scans a column for a non-null element to find its dumper (two fifths of the
    dumping of a group's parameters): not for a new table's transaction, a step's one
    statement, nor a fenced save; and what is written reads back the same."""
    looked: list[int] = []
    find = ListBinaryDumper._find_list_element

    def counted_find(self: Any, *args: Any, **kwargs: Any) -> Any:
        looked.append(1)
        return find(self, *args, **kwargs)

    async def scenario() -> None:
        store = await PgTableStore.open(database)
        plain, fenced = seated("000001", seed=1), seated("000002", seed=2)
        assert await store.claim(fenced.code, "alpha")
        monkeypatch.setattr(ListBinaryDumper, "_find_list_element", counted_find)
        # New tables: a transaction; then each step: one statement.
        await asyncio.gather(store.save(plain), store.save(fenced, "alpha"))
        for _ in range(3):
            advance(plain)
            advance(fenced)
            await asyncio.gather(store.save(plain), store.save(fenced, "alpha"))
        assert looked == []
        monkeypatch.undo()
        reader = await PgTableStore.open(database)
        found = {table.code: table for table in await reader.open_tables()}
        same_play(found[plain.code], plain)
        same_play(found[fenced.code], fenced)
        await reader.close()
        await store.close()

    asyncio.run(scenario())


def test_postgres_a_table_taken_over_in_a_group_loses_only_its_own_save(database: str) -> None:
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        tables = [seated(f"{number:06d}", seed=number) for number in range(3)]
        for table in tables:
            assert await store.claim(table.code, "alpha")
            advance(table)
        await asyncio.gather(*(store.save(table, "alpha") for table in tables))
        assert await store.take_over(tables[1].code, "beta", "alpha")
        for table in tables:
            advance(table)
        results = await asyncio.gather(*(store.save(table, "alpha") for table in tables),
                                       return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], TakenOver) and "beta" in str(results[1])
        steps = dict(await _rows(database, "SELECT code, max(step) FROM steps GROUP BY code"))
        assert steps == {tables[0].code: tables[0].step - 1, tables[1].code: 0,
                         tables[2].code: tables[2].step - 1}
        await store.close()

    asyncio.run(scenario())


def test_postgres_sharded_tables_live_each_in_its_codes_database_and_order_is_checked(
        postgres_server: PostgresCluster) -> None:  # noqa: F811 (the imported fixture)
    """Issue 73: twenty tables over two databases, each in the one its code hashes to (both
    used), all found again; the same databases given the other way round are refused, naming
    a misplaced table, rather than a table lost."""
    first, second = new_database(postgres_server), new_database(postgres_server)

    async def scenario() -> None:
        store = ShardedTables([await PgTableStore.open(first), await PgTableStore.open(second)])
        tables = [seated(f"{number:06d}", seed=number) for number in range(20)]
        for table in tables:
            advance(table)
        await asyncio.gather(*(store.save(table) for table in tables))
        homes = {shard_of(table.code, 2) for table in tables}
        assert homes == {0, 1}  # the codes spread over both
        for index, url in enumerate((first, second)):
            codes = {code for (code,) in await _rows(url, "SELECT code FROM tables")}
            assert codes == {table.code for table in tables if shard_of(table.code, 2) == index}
        assert sorted(table.code for table in await store.open_tables()) == [
            table.code for table in tables]
        assert await store.claim(tables[0].code, "alpha")
        assert (await store.table(tables[3].code)) is not None
        await store.close()
        reversed_order = ShardedTables([await PgTableStore.open(second),
                                        await PgTableStore.open(first)])
        with pytest.raises(Misplaced, match="in the order they were first given"):
            await reversed_order.open_tables()
        await reversed_order.close()

    asyncio.run(scenario())


def test_postgres_the_keeper_tells_each_change_once_committed_in_order(database: str) -> None:
    """Ten changes of one table handed to the keeper at once: each is told after its own
    commit (the store notes it kept only then), in the order made; none overlapped another."""
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        keeper = Keeper(store)
        table = seated()
        told: list[tuple[int, tuple[int, int] | None]] = []

        def tell(step: int) -> None:
            told.append((step, store.kept.get(table.code)))

        for _ in range(10):
            advance(table)
            keeper.keep(table, partial(tell, table.step))
        while keeper.queues:
            await asyncio.sleep(0.01)
        assert not keeper.failing
        # The table object went on changing while its saves waited: each save wrote it as
        # it was when handed over, and was committed before its words.
        assert [step for step, _ in told] == list(range(1, 11))
        assert all(kept == (0, step) for step, kept in told)
        reader = await PgTableStore.open(database)
        (kept,) = await reader.open_tables()
        same_play(kept, table)
        await reader.close()
        await store.close()

    asyncio.run(scenario())


def test_postgres_of_two_servers_claiming_one_code_at_once_one_gets_it(database: str) -> None:
    async def scenario() -> None:
        first, second = await PgTableStore.open(database), await PgTableStore.open(database)
        for number in range(20):
            code = f"{number:06d}"
            held = await asyncio.gather(first.claim(code, "alpha"), second.claim(code, "beta"))
            assert sorted(held) == [False, True]
        await first.close()
        await second.close()

    asyncio.run(scenario())


def test_postgres_a_table_played_to_its_end_is_released_and_found_for_a_seat_away(
        database: str) -> None:
    """The seats role on a store whose every answer is awaited: a table opened (its code
    claimed), played, ended and forgotten (its claim released after its last save), and a
    seat that was away hears how it ended, read back from the database."""
    async def scenario() -> None:
        store = await PgTableStore.open(database)
        service = TableService(seed=3, store=store)
        running = await start(service, "127.0.0.1", 0)
        url = address(running, tls=False)
        try:
            host = await connect(url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seat = await receive(host)
            assert await _rows(database, "SELECT code, owner FROM claims") == [
                (seat["code"], service.name)]
            guest = await connect(url)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
            await receive(guest)
            for connection in (host, guest):
                assert (await receive(connection))["type"] == "start"
            await host.close()  # the host's line drops; then the guest concedes
            assert (await receive(guest))["type"] == "away"
            await guest.send(p.encode(p.Act(0, [{"action": "Concede"}])))
            assert (await receive(guest))["type"] == "update"
            await guest.close()
            for _ in range(200):
                if not service.tables and not service.seats.keeper.queues:
                    break
                await asyncio.sleep(0.01)
            assert not service.tables  # forgotten: nobody is connected to it
            assert await _rows(database, "SELECT code, over FROM tables") == [
                (seat["code"], True)]
            assert await _rows(database, "SELECT count(*) FROM claims") == [(0,)]
            service.seats.ended.clear()  # as a restarted server: only the database has it
            back = await connect(url)
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seat["code"],
                                              seat["token"], 0)))
            assert (await receive(back))["type"] == "seated"
            told = await receive(back)
            assert told["type"] == "start" and state_from_dict(told["state"]).outcome
            await back.close()
        finally:
            await stop(running)
            closing = service.close()
            assert closing is not None
            await closing

    asyncio.run(scenario())


async def _until_waiting(url: str, count: int) -> None:
    """Until `count` sessions wait on a lock (the statements below them are queued)."""
    for _ in range(500):
        waiting = await _rows(url, "SELECT count(*) FROM pg_stat_activity "
                                   "WHERE wait_event_type = 'Lock'")
        if waiting[0][0] >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} sessions never waited on a lock")


def test_postgres_a_save_that_read_the_claim_before_a_take_over_writes_nothing_after_it(
        database: str) -> None:
    """The fence is the header's holder, under the header's row lock: a stalled holder's save
    that finds the claim still its own, but reaches the header only after a take-over has
    been queued for it, finds the holder changed and writes nothing (a check of the claim
    alone, unlocked, would have let it write over the new holder's table)."""
    async def scenario() -> None:
        alpha, beta = await PgTableStore.open(database), await PgTableStore.open(database)
        table = seated()
        assert await alpha.claim(table.code, "alpha")
        await alpha.save(table, "alpha")
        before = await _rows(database, "SELECT record FROM tables")
        async with await psycopg.AsyncConnection.connect(database) as blocker:
            # Another session holds the header's row, so both below queue on it in order.
            await blocker.execute("SELECT 1 FROM tables WHERE code = %s FOR UPDATE",
                                  (table.code,))
            taking = asyncio.ensure_future(beta.take_over(table.code, "beta", "alpha"))
            await _until_waiting(database, 1)  # beta's claim moved, its header queued first
            for _ in range(3):
                advance(table)
            saving = asyncio.ensure_future(alpha.save(table, "alpha"))
            await _until_waiting(database, 2)  # alpha read the claim, still its own: queued
            await blocker.commit()
        assert await taking
        with pytest.raises(TakenOver):
            await saving
        assert await _rows(database, "SELECT record, holder FROM tables") == [
            (before[0][0], "beta")]
        assert await _rows(database, "SELECT count(*) FROM steps") == [(0,)]
        for store in (alpha, beta):
            await store.close()

    asyncio.run(scenario())
