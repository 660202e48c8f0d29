"""Tables spread over several databases by their code (issue 73, `--tables-on URL` given more
than once): each table lives in one database, the one its code hashes to, and every call about
a table goes to that database alone; the players' accounts and ratings stay in `--postgres`'s.

Why by code: every call of the tables' seam names its table's code (a save carries its table),
so no call ever needs two databases but `open_tables` (a restart's, reading each in turn), and
a table's save, claim and take-over meet in one database's transaction as before. The hash is
blake2b's, the same in every process and every run (Python's own `hash` of a string is not),
so every process of a cluster finds a table where another put it, as long as they are given
the same databases in the same order: `open_tables` checks that each table it reads is in the
database its code belongs to, and says which one is not (`Misplaced`), so a list given in
another order or with a database added is refused at start rather than losing tables.

It holds no store of its own and imports none: it is given the shards (stores whose every
call returns an awaitable, `postgres_tables.PgTableStore`), and meets the same seam
(stores/seam.py's `TableStore`, its contract in tests/test_contract_stores.py).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol

from ..tables import Table
from .seam import StoreError


class Misplaced(StoreError):
    """A table found in a database its code does not belong to: the databases were given in
    another order, or with one added or taken away."""


class Shard(Protocol):
    """A tables store on a database server: every call answered with an awaitable."""

    def save(self, table: Table, owner: str | None = None) -> Awaitable[None]: ...
    def defer(self, table: Table, owner: str | None = None) -> Awaitable[None]: ...
    def open_tables(self) -> Awaitable[list[Table]]: ...
    def ended(self, code: str) -> Awaitable[Table | None]: ...
    def table(self, code: str) -> Awaitable[Table | None]: ...
    def claim(self, code: str, owner: str) -> Awaitable[bool]: ...
    def take_over(self, code: str, owner: str, lost: str) -> Awaitable[bool]: ...
    def release(self, code: str, owner: str) -> Awaitable[None]: ...
    def close(self) -> Awaitable[None]: ...


def shard_of(code: str, count: int) -> int:
    """The database (0 to `count` - 1) the table with `code` lives in."""
    digest = hashlib.blake2b(code.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


class ShardedTables:
    """The tables' seam over `shards`, in the order the operator gave them."""

    def __init__(self, shards: Sequence[Shard]) -> None:
        if not shards:
            raise ValueError("a sharded store needs at least one database")
        self.shards = list(shards)

    def of(self, code: str) -> Shard:
        return self.shards[shard_of(code, len(self.shards))]

    def save(self, table: Table, owner: str | None = None) -> Awaitable[None]:
        return self.of(table.code).save(table, owner)

    def defer(self, table: Table, owner: str | None = None) -> Awaitable[None]:
        """Deferred in the table's own database: it rides in that database's next group."""
        return self.of(table.code).defer(table, owner)

    def open_tables(self) -> Awaitable[list[Table]]:
        return self._open_tables()

    async def _open_tables(self) -> list[Table]:
        found = await asyncio.gather(*(shard.open_tables() for shard in self.shards))
        for index, tables in enumerate(found):
            for table in tables:
                home = shard_of(table.code, len(self.shards))
                if home != index:
                    raise Misplaced(
                        f"table {table.code} is in tables database {index + 1} of "
                        f"{len(self.shards)}, but its code belongs in database {home + 1}: "
                        "give the databases in the order they were first given, and as "
                        "many")
        return [table for tables in found for table in tables]

    def ended(self, code: str) -> Awaitable[Table | None]:
        return self.of(code).ended(code)

    def table(self, code: str) -> Awaitable[Table | None]:
        return self.of(code).table(code)

    def claim(self, code: str, owner: str) -> Awaitable[bool]:
        return self.of(code).claim(code, owner)

    def take_over(self, code: str, owner: str, lost: str) -> Awaitable[bool]:
        return self.of(code).take_over(code, owner, lost)

    def release(self, code: str, owner: str) -> Awaitable[None]:
        return self.of(code).release(code, owner)

    def close(self) -> Awaitable[None]:
        return self._close()

    async def _close(self) -> None:
        results: list[Any] = await asyncio.gather(
            *(shard.close() for shard in self.shards), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result
