"""Players' accounts, sign-in tokens, ratings and rated games in PostgreSQL (issue 61): the
second `stores.AccountStore`, for an operator who keeps what must last in a database server.
It behaves as the embedded store (ratings.py's RatedAccounts over accounts.py) does, because it
runs the same rules (accounts.py's `signed_up`, `signed_in`, `account_of`; ratings.py's `rated`
and `standing_of`) over its own rows (migrations/002_accounts.sql); only the queries differ.

Synchronous on purpose: the service calls an account store on threads (account_desk.py,
`asyncio.to_thread` and the hashing lanes), never on its event loop, and each call may hash
for tens of milliseconds anyway; so psycopg 3's blocking API with a thread-safe
`psycopg_pool.ConnectionPool` is the simple fit, and no call holds a connection while it hashes
(each row operation takes one from the pool and is one transaction).

A failure of the database (down, restarting, refusing) reaches the service as DatabaseFailed,
an OSError, so it is one of keeping.STORE_ERRORS and the player hears a refusal in words, as
for a failing SQLite file. Only the --postgres path imports this module (psycopg is the
`server` extra's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import psycopg
from argon2 import PasswordHasher
from psycopg import sql
from psycopg_pool import ConnectionPool

from .accounts import TOKENS_KEPT, SignedIn, account_of, signed_in, signed_up
from .pool_log import quieted
from .postgres_schema import migrate
from .ratings import RECENT, START, Rating, Standing, placed, rated, standing_of

WAIT_S = 5.0  # how long a call waits for a connection (and a connection for the server)
POOL_SIZE = 4  # connections at most: a call holds one for a few queries, never for a hash
# Sign-ups take this transaction-level advisory lock, so the look-alike check and the insert
# are one step across servers (a skeleton is not unique in the table: see 002_accounts.sql).
SIGN_UP_LOCK = 0x5D_61_5C_E3_A0_00_02_61
LOOKUP_COLUMNS = frozenset({"folded", "skeleton", "skeleton_folded"})


class DatabaseFailed(OSError):
    """PostgreSQL failed or could not be reached: an OSError, so the service treats it as a
    failing file (keeping.STORE_ERRORS), with its reason in one line."""


@contextmanager
def _said() -> Iterator[None]:
    """Any psycopg error (the pool's timeouts included) as DatabaseFailed, in one line."""
    try:
        yield
    except psycopg.Error as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise DatabaseFailed(f"the accounts database failed: {reason}") from error


def migrated(url: str) -> int:
    """Bring the database at `url` to the newest schema (postgres_schema.migrate, which is
    async) and return its version. It runs on a thread of its own with its own event loop, so
    this works the same whether or not the caller's thread runs a loop (asyncio.run would
    refuse inside one), and the migration's code is not written twice. A selector loop:
    psycopg's async connections cannot use Windows' default proactor loop."""

    async def run() -> int:
        async with await psycopg.AsyncConnection.connect(
                url, autocommit=True, connect_timeout=int(WAIT_S),
                prepare_threshold=None) as connection:
            return await migrate(connection)

    def in_own_loop() -> int:
        loop = asyncio.SelectorEventLoop()
        try:
            return loop.run_until_complete(run())
        finally:
            loop.close()

    with ThreadPoolExecutor(1, thread_name_prefix="migrate") as worker:
        return worker.submit(in_own_loop).result()


class PgAccounts:
    """The accounts and their ladder in the PostgreSQL database at `url`
    (postgresql://USER@HOST:PORT/DB), migrated when opened. Safe to call from several threads
    (the pool's connections); every completed call is committed. Close it when done."""

    def __init__(self, url: str, pool_size: int = POOL_SIZE, wait_s: float = WAIT_S) -> None:
        """Migrate, then open the pool. A database that cannot be reached or refuses is
        DatabaseFailed; one of a newer schema, postgres_schema.SchemaTooNew."""
        with _said():
            migrated(url)
        self._hasher = PasswordHasher()
        # check: a connection a database restart cut is found before a call uses it, and
        # replaced, so the first call after the restart is not refused for it.
        quieted()  # the pool's warnings once an outage (pool_log.py)
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=False, timeout=wait_s,
            # Nothing prepared on the server, as postgres_tables.py's (a pooler in front).
            kwargs={"connect_timeout": max(1, round(wait_s)), "prepare_threshold": None},
            check=ConnectionPool.check_connection, name="accounts")
        try:
            with _said():
                self.pool.open(wait=True, timeout=wait_s)
        except DatabaseFailed:
            self.pool.close()
            raise

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection for one transaction: committed when the block ends, rolled
        back when it raises."""
        with self.pool.connection() as connection:
            yield connection

    # -- stores.AccountStore ---------------------------------------------------------------------

    def sign_up(self, name: str, password: str) -> SignedIn:
        with _said():
            return signed_up(self, self._hasher, name, password)

    def sign_in(self, name: str, password: str = "", token: str = "") -> SignedIn:
        with _said():
            return signed_in(self, self._hasher, name, password, token)

    def name_of(self, name: str) -> str | None:
        with _said():
            row = account_of(self, name)
        return None if row is None else row[1]

    def rating(self, key: str) -> Rating:
        with _said(), self._transaction() as db:
            row = db.execute("SELECT rating, deviation, volatility FROM ratings "
                             "WHERE folded = %s", (key,)).fetchone()
        return Rating(*START) if row is None else Rating(*map(float, row))

    def record(self, first: str, second: str, score: float) -> tuple[Rating, Rating]:
        """Both ratings and the game in one transaction. The two ratings' rows are locked
        (made first if new, in one order, so two games of the same players wait for each
        other and never deadlock) before they are read: a game recorded at the same time by
        another thread or server is never lost under this one."""
        keys = sorted({first, second})
        with _said(), self._transaction() as db:
            for key in keys:
                db.execute("INSERT INTO ratings (folded, rating, deviation, volatility) "
                           "VALUES (%s, %s, %s, %s) ON CONFLICT (folded) DO NOTHING",
                           (key, *START))
            found = {str(key): Rating(*map(float, values)) for key, *values in db.execute(
                "SELECT folded, rating, deviation, volatility FROM ratings WHERE folded = "
                "ANY(%s) ORDER BY folded FOR UPDATE", (keys,)).fetchall()}
            after = rated(found[first], found[second], score)
            for key, new in zip((first, second), after, strict=True):
                db.execute("UPDATE ratings SET rating = %s, deviation = %s, volatility = %s "
                           "WHERE folded = %s", (new.rating, new.deviation, new.volatility, key))
            db.execute("INSERT INTO rated_games (first, second, score) VALUES (%s, %s, %s)",
                       (first, second, score))
        return after

    def standing(self, key: str) -> Standing | None:
        """One snapshot (repeatable read) for the ladder and the games, as the SQLite store
        reads both under its lock. Ties in rating go by key in byte order (COLLATE "C"), as
        SQLite compares text, whatever the database's own collation."""
        with _said(), self._transaction() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            ladder = [(str(kept), str(name), float(rating)) for kept, name, rating in db.execute(
                "SELECT r.folded, a.name, r.rating FROM ratings r JOIN accounts a "
                "USING (folded) ORDER BY r.rating DESC, r.folded COLLATE \"C\"").fetchall()]
            if not placed(key, ladder):
                return None
            games = [(str(one), str(other), float(score)) for one, other, score in db.execute(
                "SELECT first, second, score FROM rated_games WHERE first = %s OR "
                "second = %s ORDER BY id DESC LIMIT %s", (key, key, RECENT)).fetchall()]
        return standing_of(key, ladder, games)

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> PgAccounts:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- accounts.AccountRows: the database's rows -----------------------------------------------

    def taken(self, key: str, written: str, plain: str) -> bool:
        with self._transaction() as db:
            return _taken(db, key, written, plain)

    def oldest(self, column: str, value: str) -> tuple[str, str, str] | None:
        if column not in LOOKUP_COLUMNS:
            raise ValueError(f"no account column {column!r} to look a name up by")
        query = sql.SQL("SELECT folded, name, password FROM accounts WHERE {} = %s "
                        "ORDER BY created, folded COLLATE \"C\" LIMIT 1").format(
                            sql.Identifier(column))
        with self._transaction() as db:
            row = db.execute(query, (value,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def tokens(self, key: str) -> list[str]:
        with self._transaction() as db:
            return [str(sealed) for (sealed,) in db.execute(
                "SELECT sealed FROM tokens WHERE folded = %s", (key,)).fetchall()]

    def add(self, key: str, name: str, locked: str, written: str, plain: str) -> bool:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SIGN_UP_LOCK,))
            if _taken(db, key, written, plain):
                return False
            return db.execute(
                "INSERT INTO accounts (folded, name, password, skeleton, skeleton_folded) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (folded) DO NOTHING",
                (key, name, locked, written, plain)).rowcount == 1

    def spend(self, key: str, sealed: str) -> bool:
        """The delete is the check: of two transactions deleting one row, the second waits
        for the first and then finds nothing to delete."""
        with self._transaction() as db:
            return db.execute("DELETE FROM tokens WHERE folded = %s AND sealed = %s",
                              (key, sealed)).rowcount == 1

    def rehash(self, key: str, locked: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE accounts SET password = %s WHERE folded = %s", (locked, key))

    def keep_token(self, key: str, sealed: str) -> None:
        """The account's row locked first, so two sign-ins of one account keep their tokens
        one after the other and never more than TOKENS_KEPT stay (NO KEY UPDATE: the tokens'
        own foreign key checks are not blocked by it)."""
        with self._transaction() as db:
            db.execute("SELECT 1 FROM accounts WHERE folded = %s FOR NO KEY UPDATE", (key,))
            db.execute("INSERT INTO tokens (folded, sealed) VALUES (%s, %s)", (key, sealed))
            db.execute("DELETE FROM tokens WHERE folded = %s AND sealed NOT IN (SELECT sealed "
                       "FROM tokens WHERE folded = %s ORDER BY made DESC LIMIT %s)",
                       (key, key, TOKENS_KEPT))


def _taken(db: psycopg.Connection[Any], key: str, written: str, plain: str) -> bool:
    return db.execute("SELECT 1 FROM accounts WHERE folded = %s OR skeleton = %s OR "
                      "skeleton_folded = %s LIMIT 1", (key, written, plain)).fetchone() is not None


if TYPE_CHECKING:  # mypy checks that this store is one the seam accepts
    from .seam import AccountStore

    _ACCOUNTS: type[AccountStore] = PgAccounts
