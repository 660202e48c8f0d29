"""What one group commit of the PostgreSQL table store writes (postgres_tables.py, issue 73):
each save's records as taken at its call (`Records`), as a row against what the store has
committed (`Row`), and the statements that write a group's rows, each for all its tables at
once (unnest, the arrays in binary). A group with no new table or game in it (nearly every
one) is one statement, its own transaction (`AT_ONCE`); one with a new table or game is a
transaction of several (`_written`: the games' starts, and no steps past a new game's start).
Either way a fenced header is written only where its owner holds the table, and a table whose
header is not written has nothing written (`written` returns its TakenOver).

Apart from the store so that it holds the lanes, the deferred saves, the reads and the claims,
and this only what a group's rows and statements are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.array import ListBinaryDumper

from .seam import TakenOver

__all__ = ["Records", "Row", "written"]


@dataclass(frozen=True)
class Records:
    """A save's records, taken from the table at the call: the table goes on changing while
    the write waits its turn."""

    code: str
    game: int
    step: int
    first: str
    header: str
    over: bool
    left: bool
    start: int  # the first step in `steps`
    steps: list[tuple[int, str, str]]  # (step, actions, told) from `start` to `step`


@dataclass(frozen=True)
class Row:
    """A save as its group's statements write it, against what the store had committed when
    the group began (an earlier save of the table may have committed, or failed, since its
    records were taken)."""

    code: str
    header: str
    over: bool
    game: int
    owner: str | None
    first: str
    step: int
    fresh: bool  # a new table, or a new game at it
    steps: list[tuple[str, int, int, str, str]]  # (code, game, step, actions, told)

    @classmethod
    def of(cls, records: Records, owner: str | None, kept: dict[str, tuple[int, int]]) -> Row:
        kept_game, kept_steps = kept.get(records.code, (-1, 0))
        fresh = kept_game != records.game or kept_steps > records.step
        start = records.start if fresh else max(records.start, kept_steps)
        return cls(records.code, records.header, records.over, records.game, owner,
                   records.first, records.step, fresh,
                   [(records.code, records.game, index, actions, told)
                    for index, actions, told in records.steps if index >= start])


class _Texts(list[Any]):
    """A column of text: an array parameter whose type psycopg need not find (_ArrayDumper)."""


class _Integers(list[Any]):
    """A column of integers (int4), as _Texts."""


class _Booleans(list[Any]):
    """A column of booleans, as _Texts."""


class _ArrayDumper(ListBinaryDumper):
    """A column's array in binary, its element type fixed by its class. A plain list makes
    psycopg look for its type twice a parameter (scanning the list for a non-null element
    and asking for its dumper), two fifths of the dumping of a group's parameters in a profile
    (issue 73): fixed here, each column is only its elements' dumping."""


class _TextArrayDumper(_ArrayDumper):
    element_oid, oid = 25, 1009  # text, text[]


class _IntegerArrayDumper(_ArrayDumper):
    element_oid, oid = 23, 1007  # int4, int4[]


class _BooleanArrayDumper(_ArrayDumper):
    element_oid, oid = 16, 1000  # bool, bool[]


# psycopg's default map, which every connection copies when it opens: these three classes
# are this module's own, so nothing else is dumped differently.
for _column, _dumper in ((_Texts, _TextArrayDumper), (_Integers, _IntegerArrayDumper),
                         (_Booleans, _BooleanArrayDumper)):
    psycopg.adapters.register_dumper(_column, _dumper)
_TYPED: dict[str, type[list[Any]]] = {
    "code": _Texts, "header": _Texts, "first": _Texts, "owner": _Texts, "actions": _Texts,
    "told": _Texts, "game": _Integers, "step": _Integers, "over": _Booleans}
_STEP_COLUMNS = ("code", "game", "step", "actions", "told")  # a step's tuple, in order


def _columns(rows: list[Row], *names: str) -> list[list[Any]]:
    """The rows' values of each named field, a list a column: one array a parameter, its
    type fixed by the field's name."""
    return [_TYPED[name](getattr(row, name) for row in rows) for name in names]


def _step_columns(steps: list[tuple[str, int, int, str, str]]) -> list[list[Any]]:
    """The steps' five columns (code, game, step, actions, told), typed as `_columns`."""
    columns = list(zip(*steps, strict=True)) if steps else [()] * len(_STEP_COLUMNS)
    return [_TYPED[name](column) for name, column in zip(_STEP_COLUMNS, columns, strict=True)]


async def _written(connection: psycopg.AsyncConnection[Any],
                   rows: list[Row]) -> dict[str, TakenOver]:
    """A group's saves in the transaction under way, each statement for all its tables at
    once (unnest): the headers (fenced ones only where their owner still holds them), the new
    games, and the steps not yet committed. Returns the tables taken over, of which nothing
    was written. The arrays go in binary (`%b`): in text, psycopg escapes every quote of the
    records' JSON with a regular expression, which was a seventh of the server's CPU."""
    taken: dict[str, TakenOver] = {}
    plain = [row for row in rows if row.owner is None]
    if plain:
        await connection.execute(
            "INSERT INTO tables (code, record, over, game) SELECT * FROM "
            "unnest(%b::text[], %b::text[], %b::boolean[], %b::integer[]) "
            "ON CONFLICT (code) DO UPDATE SET record = excluded.record, "
            "over = excluded.over, game = excluded.game",
            _columns(plain, "code", "header", "over", "game"))
    fenced = [row for row in rows if row.owner is not None]
    if fenced:  # first, and fenced: each header row held until COMMIT
        taken = await _fenced_headers(connection, fenced)
    kept = [row for row in rows if row.code not in taken]
    fresh = [row for row in kept if row.fresh]
    if fresh:  # a new table, or a new game at it: its start, and no later steps
        await connection.execute(
            "INSERT INTO games (code, game, first) SELECT * FROM "
            "unnest(%b::text[], %b::integer[], %b::text[]) "
            "ON CONFLICT (code, game) DO UPDATE SET first = excluded.first",
            _columns(fresh, "code", "game", "first"))
        await connection.execute(
            "DELETE FROM steps USING unnest(%b::text[], %b::integer[], %b::integer[]) "
            "AS u(code, game, step) WHERE steps.code = u.code AND steps.game = u.game "
            "AND steps.step >= u.step", _columns(fresh, "code", "game", "step"))
    steps = [step for row in kept for step in row.steps]
    if steps:
        # A step already there was committed by a save whose answer was lost (the connection
        # cut after COMMIT): the same step, written again.
        await connection.execute(
            "INSERT INTO steps (code, game, step, actions, told) SELECT * FROM "
            "unnest(%b::text[], %b::integer[], %b::integer[], %b::text[], %b::text[]) "
            "ON CONFLICT (code, game, step) DO UPDATE "
            "SET actions = excluded.actions, told = excluded.told", _step_columns(steps))
    return taken


# The fenced headers' upsert (`_fenced_headers`), and the same inside AT_ONCE: a header
# written only where its owner holds the table (the fencing a take-over relies on).
FENCED = (
    "INSERT INTO tables (code, record, over, game, holder) "
    "SELECT u.code, u.record, u.over, u.game, u.owner FROM "
    "unnest(%b::text[], %b::text[], %b::boolean[], %b::integer[], %b::text[]) "
    "AS u(code, record, over, game, owner) WHERE EXISTS "
    "(SELECT 1 FROM claims WHERE claims.code = u.code AND claims.owner = u.owner) "
    "ON CONFLICT (code) DO UPDATE SET record = excluded.record, "
    "over = excluded.over, game = excluded.game WHERE tables.holder = excluded.holder "
    "OR tables.holder IS NULL RETURNING code")

# A group with no new table or game (nearly every one) in one statement, its own transaction
# (autocommit): one round trip, where BEGIN, the statements and COMMIT took four. The same rows
# as `_written` writes: the headers, fenced ones where their owner holds the table (its row
# locked until the statement commits, as a take-over expects), and the steps of the tables
# whose header was written; the codes of the fenced headers written come back.
AT_ONCE = (
    "WITH plain AS (INSERT INTO tables (code, record, over, game) SELECT * FROM "
    "unnest(%b::text[], %b::text[], %b::boolean[], %b::integer[]) "
    "ON CONFLICT (code) DO UPDATE SET record = excluded.record, "
    "over = excluded.over, game = excluded.game RETURNING code), "
    f"fenced AS ({FENCED}), "
    "appended AS (INSERT INTO steps (code, game, step, actions, told) SELECT s.* FROM "
    "unnest(%b::text[], %b::integer[], %b::integer[], %b::text[], %b::text[]) "
    "AS s(code, game, step, actions, told) "
    "WHERE s.code IN (SELECT code FROM plain UNION ALL SELECT code FROM fenced) "
    "ON CONFLICT (code, game, step) DO UPDATE "
    "SET actions = excluded.actions, told = excluded.told) "
    "SELECT code FROM fenced")


async def _written_at_once(connection: psycopg.AsyncConnection[Any],
                           rows: list[Row]) -> dict[str, TakenOver]:
    """`_written`'s rows for a group with nothing fresh, in one statement (AT_ONCE)."""
    plain = [row for row in rows if row.owner is None]
    fenced = [row for row in rows if row.owner is not None]
    steps = [step for row in rows for step in row.steps]
    cursor = await connection.execute(AT_ONCE, [
        *_columns(plain, "code", "header", "over", "game"),
        *_columns(fenced, "code", "header", "over", "game", "owner"),
        *_step_columns(steps)])
    written = {code for (code,) in await cursor.fetchall()}
    return await _taken(connection, [row for row in fenced if row.code not in written])


async def _fenced_headers(connection: psycopg.AsyncConnection[Any],
                          rows: list[Row]) -> dict[str, TakenOver]:
    """Each header upserted only where its `owner` holds the table: an existing header whose
    holder is `owner` (or none: saved unfenced, and claimed by none since), or a new one while
    `owner` holds the claim (a table nobody else has ever loaded: it was never saved). The
    tables whose header was not written, each with its TakenOver naming the claim's owner."""
    cursor = await connection.execute(
        FENCED, _columns(rows, "code", "header", "over", "game", "owner"))
    written = {code for (code,) in await cursor.fetchall()}
    return await _taken(connection, [row for row in rows if row.code not in written])


async def _taken(connection: psycopg.AsyncConnection[Any],
                 lost: list[Row]) -> dict[str, TakenOver]:
    """Each fenced save whose header was not written, with its TakenOver naming the claim's
    owner now."""
    if not lost:
        return {}
    cursor = await connection.execute("SELECT code, owner FROM claims WHERE code = ANY(%s)",
                                      ([row.code for row in lost],))
    holders = dict(await cursor.fetchall())
    return {row.code: TakenOver(row.code, str(row.owner), holders.get(row.code))
            for row in lost}


async def written(connection: psycopg.AsyncConnection[Any],
                  rows: list[Row]) -> dict[str, TakenOver]:
    """A group's rows written, committed once this returns (the connection in autocommit):
    one statement when none is fresh, else one transaction. The tables taken over, of which
    nothing was written."""
    if any(row.fresh for row in rows):
        async with connection.transaction():
            return await _written(connection, rows)
    return await _written_at_once(connection, rows)
