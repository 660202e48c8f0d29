"""Where a table server keeps its tables in PostgreSQL (`--postgres URL`, issue 61): the second
implementation of `stores.TableStore`, with store.py's records in migrations/001_tables.sql's
tables (a header row a table, a row a game, a row a step, and the claims; 003_holder.sql adds
the header's holder).

Every call that reaches the database returns an awaitable (a coroutine, which does nothing
until awaited), over psycopg 3's async connections from a psycopg-pool pool, so no call blocks
the event loop. A save is made in two halves: at the call, on the loop, the table's records are
taken as they are now (the header, and the steps of its game not yet known to be kept); awaited,
it joins a group commit (issue 73): one transaction for every save due when it starts, which
upserts the headers, writes the games new to this store and appends the steps not yet
committed, each statement for all the group's tables at once (unnest), and answers each save
once the COMMIT has returned (the rows and statements are postgres_group.py's: a group with no
new table or game in it, nearly every one, is a single statement, one round trip). Up to
GROUP_LANES groups are written at once, so while a lane is free a save goes at once, alone,
and only once every lane is busy do the saves that come share the next COMMIT. A table's
save is never in a group with another of its own, nor written while one of its own is, so its
saves stay in order.

A deferred save (`defer`: a change no seat depends on being kept, a held choice) commits no
transaction of its own while it can help it: it rides in the next group that starts anyway,
or starts one after LAZY_S, and a save of its table made first replaces it (the header is
written whole, so nothing of it is lost). At a light load, where each step's save goes alone,
that is what keeps a step to one COMMIT rather than two (the held choice's, then the step's).
Fenced
(`save(table, owner)`), the headers' upsert comes first and writes only where a header's
`holder` is `owner` (and a new header only while `owner` holds the claim); a table whose header
it does not write has nothing else written and its save raises stores.TakenOver, while the
group's other tables commit. A claim made or taken over writes the holder into the header in its own
transaction, so the two meet on the header's row lock: a take-over waits for a save under way to
commit, and a save that comes after (or waited for it) finds the holder changed. That is the
lock the save takes anyway, where the fence before it (the claim read FOR SHARE) added a
statement and wrote a lock at every save (docs/server.md). What a table has
committed (its game and number of steps) is noted only once the COMMIT has returned, so a save
that fails leaves the table as last saved, and the next one writes everything since then. Saves
of one table are awaited one at a time, in order (keeping.Keeper does), so they never
interleave; different tables' saves run at once, on the pool's connections.

Any error of psycopg's is raised as stores.StoreError from it: keeping.py and the seats role
count it as a storage failure without importing psycopg (only the --postgres path may load it:
tests/test_structure.py).
"""

from __future__ import annotations

import asyncio
import logging
import select
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from ...engine.errors import SnapshotError
from ..tables import Table
from .pool_log import quieted
from .postgres_group import Records, Row, written
from .postgres_schema import SchemaTooNew, migrate
from .seam import StoreError, TakenOver

__all__ = ["PgTableStore", "SchemaTooNew", "opened"]

LOG = logging.getLogger("sudden_death.server")
CONNECT_TIMEOUT_S = 10  # a first connection that cannot be made says so, rather than hang
POOL_SIZE = (1, 8)  # connections kept open, and the most at once: tables saving together
GROUP_MOST = 256  # saves written in one transaction at most (its statements' arrays' length)
GROUP_LANES = 4  # groups written at once, each on its own connection (half the pool's most)
LAZY_S = 1.0  # a deferred save waits this long at most for another group to ride in


@dataclass
class _Due:
    """A save waiting for its group's COMMIT: `done` answers its caller. A deferred one's
    (`lazy`) is never failed: nobody waits on it, and its table's next save writes it."""

    records: Records
    owner: str | None
    done: asyncio.Future[None]
    lazy: bool = False


@dataclass
class PgTableStore:
    """The tables of one PostgreSQL database, through a pool used from one event loop. Made
    by `open` (or `opened`), which migrates the database first."""

    pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]]
    where: str = "the database"  # for the log: the URL without its password
    # code: (game, steps) committed by this store, or loaded from the database
    kept: dict[str, tuple[int, int]] = field(default_factory=dict)
    writing: set[str] = field(default_factory=set)  # tables whose save is being awaited
    due: list[_Due] = field(default_factory=list)  # saves waiting for the next group commit
    lanes: set[asyncio.Task[None]] = field(default_factory=set)  # groups being written
    writing_groups: int = 0  # how many (at most GROUP_LANES)
    gathering: bool = False  # a lane has started and not yet taken its group: saves join it
    flying: set[str] = field(default_factory=set)  # tables in a group being written
    lazy: dict[str, _Due] = field(default_factory=dict)  # deferred saves, by table
    lazy_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    lazy_s: float = LAZY_S
    commits: int = 0  # transactions committed by saves (the benchmarks' commits a step)

    @classmethod
    async def open(cls, url: str, min_size: int = POOL_SIZE[0],
                   max_size: int = POOL_SIZE[1]) -> PgTableStore:
        """Connect, migrate the database to this server's schema (postgres_schema.migrate:
        SchemaTooNew for a newer one), then open the pool. StoreError when the URL is wrong or
        the database cannot be reached or refuses."""
        return cls(*await _pooled(url, min_size, max_size))

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection (autocommit: one statement, or an explicit transaction);
        psycopg's errors become StoreError."""
        try:
            async with self.pool.connection(timeout=CONNECT_TIMEOUT_S) as connection:
                yield connection
        except psycopg.Error as error:
            raise StoreError(_said(error)) from error

    # -- saves -----------------------------------------------------------------------------

    def save(self, table: Table, owner: str | None = None) -> Coroutine[Any, Any, None]:
        """The table's records now, written when awaited, fenced by `owner`'s claim when
        given (stores.TableStore.save). A deferred save of the table still waiting is
        replaced by this one, which holds all of it."""
        self._replaced(table.code)
        return self._write(self._records(table), owner)

    def defer(self, table: Table, owner: str | None = None) -> asyncio.Future[None]:
        """The table's records now, written with the next group that starts, or alone after
        `lazy_s`, unless a save of the table comes first (stores.TableStore.defer). The
        future is answered once it is written or replaced, never with an error: a write
        that fails is the next save's to make."""
        code = table.code
        self._replaced(code)
        loop = asyncio.get_running_loop()
        due = _Due(self._records(table), owner, loop.create_future(), lazy=True)
        self.lazy[code] = due
        self.lazy_timers[code] = loop.call_later(self.lazy_s, self._ripe, code)
        return due.done

    def _records(self, table: Table) -> Records:
        code, game = table.code, table.games
        kept_game, kept_steps = self.kept.get(code, (-1, 0))
        fresh = kept_game != game or kept_steps > table.step
        start = 0 if fresh else kept_steps
        return Records(code, game, table.step, table.first, table.header_record(),
                        table.over, table.left, start,
                        [(index, *table.step_record(index))
                         for index in range(start, table.step)])

    def _replaced(self, code: str) -> None:
        """A deferred save of `code` not yet being written, dropped: a later save holds it."""
        due = self._unlazy(code)
        if due is not None and not due.done.done():
            due.done.set_result(None)

    def _unlazy(self, code: str) -> _Due | None:
        timer = self.lazy_timers.pop(code, None)
        if timer is not None:
            timer.cancel()
        return self.lazy.pop(code, None)

    def _ripe(self, code: str) -> None:
        """A deferred save that found no group to ride in: written now, in a group of its
        own if nothing else is due."""
        due = self._unlazy(code)
        if due is not None:
            self.due.append(due)
            self._lanes()

    async def _write(self, records: Records, owner: str | None) -> None:
        """Queue the save for the next group commit and wait for its answer (see `_lanes`)."""
        code = records.code
        if code in self.writing:  # the caller's mistake: the Protocol says one at a time
            raise RuntimeError(f"table {code} is already being saved")
        self.writing.add(code)
        try:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.due.append(_Due(records, owner, done))
            self._lanes()
            await done
        finally:
            self.writing.discard(code)

    def _lanes(self) -> None:
        """Group commit: up to GROUP_LANES transactions at once, each on a connection of its
        own, each writing every save due when it starts (at most GROUP_MOST). While a lane is
        free a save is written at the loop's next turn, alone or with the saves of that turn,
        as fast as it would be without grouping (and the database's own WAL flushes still
        serve concurrent commits); once every lane is busy, the saves that come wait for the
        next free one and share its COMMIT, so under load many tables' steps share one while
        each seat still hears of its step only once it is durable. One lane gathers at a
        time: the saves made before it takes its group all join it."""
        if (not self.gathering and self.writing_groups < GROUP_LANES
                and any(due.records.code not in self.flying for due in self.due)):
            self.gathering = True
            self.writing_groups += 1
            lane = asyncio.create_task(self._lane())
            self.lanes.add(lane)
            lane.add_done_callback(self.lanes.discard)

    async def _lane(self) -> None:
        codes: set[str] = set()
        gathering = True
        try:
            await asyncio.sleep(0)  # the saves made in this turn of the loop join this one
            self.gathering = gathering = False
            batch = self._group(codes)
            self._lanes()  # more due than one group takes: the next lane gathers them
            if batch:
                await self._answered(batch)
        finally:
            if gathering:  # stopped before it took its group
                self.gathering = False
            self.flying -= codes
            self.writing_groups -= 1
            self._lanes()  # the saves that came while every lane was busy

    def _group(self, codes: set[str]) -> list[_Due]:
        """The saves a group writes, their tables added to `codes` and `flying`: each due
        save of a table not already in a group (a table once a transaction, and never in two
        at once: its saves stay in order), then the deferred saves waiting, which ride along
        rather than commit on their own."""
        batch: list[_Due] = []
        later: list[_Due] = []
        for due in self.due:
            if (due.records.code in codes or due.records.code in self.flying
                    or len(batch) >= GROUP_MOST):
                later.append(due)
            else:
                codes.add(due.records.code)
                batch.append(due)
        self.due = later
        for code in list(self.lazy):
            if len(batch) >= GROUP_MOST:
                break
            if code not in codes and code not in self.flying:
                riding = self._unlazy(code)
                if riding is not None:
                    codes.add(code)
                    batch.append(riding)
        self.flying |= codes
        return batch

    async def _answered(self, batch: list[_Due]) -> None:
        """`batch` written in one transaction, and each of its saves answered (a deferred
        one always with None: its table's next save writes whatever it could not)."""
        try:
            taken = await self._write_group(batch)
        except StoreError as error:
            for due in batch:  # each its own error, with the database's as its cause
                failed = StoreError(str(error))
                failed.__cause__ = error.__cause__
                _answer(due, failed)
            return
        except BaseException:
            for due in batch:
                _answer(due, StoreError("the save was stopped"))
            raise
        for due in batch:
            if due.records.code in taken:
                _answer(due, taken[due.records.code])
                continue
            if due.records.left:  # final: no rematch follows, so nothing more to append
                self.kept.pop(due.records.code, None)
            else:  # only once committed
                self.kept[due.records.code] = (due.records.game, due.records.step)
            _answer(due, None)

    async def _write_group(self, batch: list[_Due]) -> dict[str, TakenOver]:
        """One transaction for every save of `batch` (postgres_group.written); the tables
        taken over, of which nothing was written."""
        rows = sorted((Row.of(due.records, due.owner, self.kept) for due in batch),
                      key=lambda row: row.code)
        async with self._connection() as connection:
            taken = await written(connection, rows)
        self.commits += 1
        return taken

    # -- reads -----------------------------------------------------------------------------

    def open_tables(self) -> Coroutine[Any, Any, list[Table]]:
        """Every table still being played, when awaited; damaged ones are named in the log
        and skipped (stores.TableStore.open_tables)."""
        return self._open_tables()

    async def _open_tables(self) -> list[Table]:
        found = []
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT code, record, game FROM tables WHERE NOT over ORDER BY code")
            for code, record, game in await cursor.fetchall():
                try:
                    found.append(await self._load(connection, code, record, game))
                except SnapshotError as error:
                    LOG.warning("table %s in %s is damaged and set aside: %s", code,
                                self.where, error)
        return found

    def ended(self, code: str) -> Coroutine[Any, Any, Table | None]:
        """The ended table with `code`, or None, when awaited (stores.TableStore.ended)."""
        return self._found(code, over=True)

    def table(self, code: str) -> Coroutine[Any, Any, Table | None]:
        """The table with `code` still being played, or None, when awaited
        (stores.TableStore.table)."""
        return self._found(code, over=False)

    async def _found(self, code: str, over: bool) -> Table | None:
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT record, game FROM tables WHERE code = %s AND over = %s", (code, over))
            row = await cursor.fetchone()
            if row is None:
                return None
            try:
                return await self._load(connection, code, row[0], row[1])
            except SnapshotError as error:
                LOG.warning("table %s in %s is damaged: %s", code, self.where, error)
                return None

    async def _load(self, connection: psycopg.AsyncConnection[Any], code: str, record: str,
                    game: int) -> Table:
        table = await _loaded(connection, code, record, game)
        self.kept[code] = (game, table.step)
        return table

    # -- claims ----------------------------------------------------------------------------

    def claim(self, code: str, owner: str) -> Coroutine[Any, Any, bool]:
        """Whether `owner` holds `code`, when awaited (stores.TableStore.claim)."""
        return self._claim(code, owner)

    async def _claim(self, code: str, owner: str) -> bool:
        async with self._connection() as connection, connection.transaction():
            return await _claimed(connection, code, owner)

    def take_over(self, code: str, owner: str, lost: str) -> Coroutine[Any, Any, bool]:
        """Whether `owner` holds `code` in place of `lost`, when awaited
        (stores.TableStore.take_over)."""
        return self._take_over(code, owner, lost)

    async def _take_over(self, code: str, owner: str, lost: str) -> bool:
        async with self._connection() as connection, connection.transaction():
            return await _taken_over(connection, code, owner, lost)

    def release(self, code: str, owner: str) -> Coroutine[Any, Any, None]:
        """`owner` lets go of `code`, when awaited (stores.TableStore.release)."""
        return self._release(code, owner)

    async def _release(self, code: str, owner: str) -> None:
        async with self._connection() as connection:
            await connection.execute("DELETE FROM claims WHERE code = %s AND owner = %s",
                                     (code, owner))

    def close(self) -> Coroutine[Any, Any, None]:
        """The deferred saves still waiting written, then the pool's connections closed,
        when awaited."""
        return self._close()

    async def _close(self) -> None:
        for code in list(self.lazy):
            self._ripe(code)
        while self.lanes:
            await asyncio.wait(set(self.lanes))
        await self.pool.close()


async def _pooled(url: str, min_size: int, max_size: int
                  ) -> tuple[AsyncConnectionPool[psycopg.AsyncConnection[Any]], str]:
    """PgTableStore.open's pool on `url`, the database migrated first, and where it is."""
    try:
        connection = await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
            prepare_threshold=None)
        async with connection:
            await migrate(connection)
            where = _described(connection)
    except psycopg.Error as error:
        raise StoreError(_said(error)) from error
    quieted()  # the pool's warnings once an outage (pool_log.py)
    pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
        url, min_size=min_size, max_size=max_size, open=False,
        # No statement prepared on the server: behind a pooler in transaction pooling
        # (PgBouncer), the next transaction may run on a connection that never saw it.
        kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S,
                "prepare_threshold": None},
        # Each connection checked as it is taken: after a database restart every pooled
        # connection is cut, and unchecked each would fail one save (then one retry,
        # seconds apart) before the pool replaced it. Only one that heard something
        # while idle is asked (`_checked`).
        check=_checked)
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as error:
        await pool.close()
        raise StoreError(_said(error)) from error
    return pool, where


async def _claimed(connection: psycopg.AsyncConnection[Any], code: str, owner: str) -> bool:
    """PgTableStore.claim's statements, in the transaction of `connection`."""
    # A new claim is inserted, or the row already there is locked and its owner returned
    # unchanged; of two servers at once, the second waits for the first's row and reads its
    # owner. The claimant's header (if the table was ever saved) names it the holder, which
    # its fenced saves check.
    cursor = await connection.execute(
        "INSERT INTO claims (code, owner) VALUES (%s, %s) ON CONFLICT (code) "
        "DO UPDATE SET owner = claims.owner RETURNING owner", (code, owner))
    row = await cursor.fetchone()
    held = row is not None and row[0] == owner
    if held:
        await connection.execute(
            "UPDATE tables SET holder = %s WHERE code = %s "
            "AND holder IS DISTINCT FROM %s", (owner, code, owner))
    return held


async def _taken_over(connection: psycopg.AsyncConnection[Any], code: str, owner: str,
                      lost: str) -> bool:
    """PgTableStore.take_over's statements, in the transaction of `connection`."""
    # Of two servers at once, the second waits for the first's claim row and finds it no
    # longer `lost`'s. The header's holder follows, after any save of `lost`'s under way (it
    # holds the header's row until it commits): no save of `lost`'s writes after this commits.
    cursor = await connection.execute(
        "UPDATE claims SET owner = %s, since = now() WHERE code = %s AND owner IN "
        "(%s, %s) RETURNING owner", (owner, code, lost, owner))
    row = await cursor.fetchone()
    if row is not None:
        await connection.execute("UPDATE tables SET holder = %s WHERE code = %s",
                                 (owner, code))
    return row is not None


async def _loaded(connection: psycopg.AsyncConnection[Any], code: str, record: str,
                  game: int) -> Table:
    """A table from its header's `record` and its game's rows (SnapshotError if damaged)."""
    cursor = await connection.execute(
        "SELECT first FROM games WHERE code = %s AND game = %s", (code, game))
    first = await cursor.fetchone()
    cursor = await connection.execute(
        "SELECT step, actions, told FROM steps WHERE code = %s AND game = %s "
        "ORDER BY step", (code, game))
    rows = await cursor.fetchall()
    return Table.from_rows(record, game, None if first is None else first[0], rows)


def _answer(due: _Due, error: BaseException | None) -> None:
    """A save's caller answered, once: `error` raised to it, else done. A deferred save has
    no caller waiting, so it is never failed (its failure would go unread)."""
    if due.done.done():
        return
    if error is None or due.lazy:
        due.done.set_result(None)
    else:
        due.done.set_exception(error)


async def opened(url: str) -> PgTableStore:
    """A store on the database at `url` (migrated first): the contract tests' factory."""
    return await PgTableStore.open(url)


async def _checked(connection: psycopg.AsyncConnection[Any]) -> None:
    """The pool's check of a connection it hands out, asked of the database (an empty query)
    only when the connection's socket has something to read while it sat idle: a database
    that restarted, stopped or cut the connection closes it, which makes it readable, and
    one that did not has said nothing. The empty query, made at every save, was a round trip
    and a transaction of its own (half of pg_stat_database's xact_commit), for nothing."""
    try:
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        readable = [True]  # no socket to look at: the database says what is wrong
    if readable:
        await AsyncConnectionPool.check_connection(connection)


def _described(connection: psycopg.AsyncConnection[Any]) -> str:
    """The database as the log names it: user, host, port and name, never a password."""
    info = connection.info
    return f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname}"


def _said(error: psycopg.Error) -> str:
    """psycopg's message on one line (libpq's may span several)."""
    return " ".join(str(error).split()) or type(error).__name__
