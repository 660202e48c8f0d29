"""Where a table server keeps its tables: one SQLite file in `--data DIR`, the embedded
implementation of `stores.TableStore`.

A table is a header row in `tables` (seats, flags, held choices, counters:
`Table.header_record`), the game as it began in `games` (one row a game: a rematch starts a new
game at the same table, `Table.games`), and ONE ROW PER STEP in `steps` (code, game, step: its
actions and the events the seats were told). A save is one transaction, in WAL mode: the
header rewritten, and only the steps this store has not yet written appended (it remembers,
per table, the game and the number of steps it wrote). A server killed at any moment (SIGKILL
included) restarts with every committed step.

The current game is not kept: loading replays the steps' actions from the game as it began.
Measured (benchmarks/store_writes.py, docs/server.md): the game state is 7.6 KB of JSON, and
keeping it in the header more than doubles what every save writes (33 KB a step instead of
14 KB, about 350 us instead of 130 us), where the replay costs about 1.8 ms for a 40-step game,
once, when a restarted server loads the table: saves come at every step of every table, loads
once a restart.

Tables kept before (one row with the whole record: layout 0) still load as they are, and are
kept in parts from their next save. A row that no longer decodes is named in the log and left
in the file, never deleted. `claims` says which server plays which table (`claim`,
`release`); a save fenced with its owner (`save(table, owner)`: the seats' are) writes only
while that owner holds the claim, checked inside the save's transaction (its write lock held,
so no take-over comes between), else raises stores.TakenOver and writes nothing.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ...engine.errors import SnapshotError
from ..tables import Table
from . import seam
from .seam import TakenOver

LOG = logging.getLogger("sudden_death.server")
FILE_NAME = "tables.sqlite3"
WHOLE, PARTS = 0, 1  # a `tables` row's layout: today's whole record, or a header and its steps

SCHEMA = (
    # `record` is the whole table (layout 0, kept before steps had rows) or its header.
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, record TEXT NOT NULL, "
    "over INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS games (code TEXT NOT NULL, game INTEGER NOT NULL, "
    "first TEXT NOT NULL, PRIMARY KEY (code, game)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS steps (code TEXT NOT NULL, game INTEGER NOT NULL, "
    "step INTEGER NOT NULL, actions TEXT NOT NULL, told TEXT NOT NULL, "
    "PRIMARY KEY (code, game, step)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS claims (code TEXT PRIMARY KEY, owner TEXT NOT NULL, "
    "since REAL NOT NULL)",
)


class TableStore:
    """The tables of one data folder. One connection, used from the service's event loop only
    (a save takes well under a millisecond: benchmarks/store_writes.py)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        # Autocommit, with explicit BEGIN IMMEDIATE: a save is one transaction of several
        # statements, and another process's writer waits up to the timeout, never fails.
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # durable past a crash of this process
        with self._transaction():
            for statement in SCHEMA:
                self._db.execute(statement)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            for column in ("layout", "game"):  # a file from before steps had rows: layout 0
                if column not in columns:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} INTEGER NOT NULL "
                                     "DEFAULT 0")
        # The schema (and whatever a previous process left in the WAL) into the main file, so
        # the WAL starts empty: a new file's first save must fit a nearly full disk.
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._written: dict[str, tuple[int, int]] = {}  # code: (game, steps) this store wrote

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction; whatever fails in it, the COMMIT included (a full disk), is rolled
        back, so the next save starts clean once the disk can be written again."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def defer(self, table: Table, owner: str | None = None) -> None:
        """Written now, as `save`: well under a millisecond on the loop, so nothing is worth
        putting off, and the one-process server keeps every change as it comes
        (stores.TableStore.defer)."""
        self.save(table, owner)

    def save(self, table: Table, owner: str | None = None) -> None:
        """The header, and the steps of the table's game not yet written, in one transaction,
        fenced by `owner`'s claim when given (stores.TableStore.save)."""
        code, game = table.code, table.games
        kept_game, kept_steps = self._written.get(code, (-1, 0))
        # A new table, a new game, one loaded from a whole record: its start and every step.
        fresh = kept_game != game or kept_steps > table.step
        start = 0 if fresh else kept_steps
        # Made before the transaction: sealing a new seat's token hashes (milliseconds), and
        # the file's write lock is not held meanwhile.
        header = table.header_record()
        steps = [(code, game, index, *table.step_record(index))
                 for index in range(start, table.step)]
        with self._transaction() as db:
            if owner is not None:
                held = db.execute("SELECT owner FROM claims WHERE code = ?", (code,)).fetchone()
                if held is None or held[0] != owner:
                    raise TakenOver(code, owner, None if held is None else held[0])
            if fresh:
                db.execute("INSERT OR REPLACE INTO games (code, game, first) VALUES (?, ?, ?)",
                           (code, game, table.first))
                db.execute("DELETE FROM steps WHERE code = ? AND game = ? AND step >= ?",
                           (code, game, table.step))
            db.executemany("INSERT OR REPLACE INTO steps (code, game, step, actions, told) "
                           "VALUES (?, ?, ?, ?, ?)", steps)
            # An upsert, not a replace: the row changes in place, its key's index page not.
            db.execute("INSERT INTO tables (code, record, over, layout, game) VALUES "
                       "(?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET record = "
                       "excluded.record, over = excluded.over, layout = excluded.layout, "
                       "game = excluded.game",
                       (code, header, table.over, PARTS, game))
        if table.left:  # final: no rematch follows, so nothing more to append
            self._written.pop(code, None)
        else:
            self._written[code] = (game, table.step)  # only once committed

    def open_tables(self) -> list[Table]:
        """Every table still being played; damaged rows are named in the log and skipped."""
        found = []
        for code, record, layout, game in self._db.execute(
                "SELECT code, record, layout, game FROM tables WHERE over = 0").fetchall():
            try:
                found.append(self._load(code, record, layout, game))
            except SnapshotError as error:
                LOG.warning("table %s in %s is damaged and set aside: %s", code, self.path,
                            error)
        return found

    def ended(self, code: str) -> Table | None:
        """The ended table with `code`, for a seat that comes back to hear how it ended."""
        return self._found(code, over=True)

    def table(self, code: str) -> Table | None:
        """The table with `code` still being played (stores.TableStore.table)."""
        return self._found(code, over=False)

    def _found(self, code: str, over: bool) -> Table | None:
        row = self._db.execute("SELECT record, layout, game FROM tables WHERE code = ? AND "
                               "over = ?", (code, int(over))).fetchone()
        if row is None:
            return None
        try:
            return self._load(code, *row)
        except SnapshotError as error:
            LOG.warning("table %s in %s is damaged: %s", code, self.path, error)
            return None

    def _load(self, code: str, record: str, layout: int, game: int) -> Table:
        if layout == WHOLE:
            table = Table.from_record(record)
            self._written.pop(code, None)  # its next save writes every step in rows
            return table
        first = self._db.execute("SELECT first FROM games WHERE code = ? AND game = ?",
                                 (code, game)).fetchone()
        rows = self._db.execute("SELECT step, actions, told FROM steps WHERE code = ? AND "
                                "game = ? ORDER BY step", (code, game)).fetchall()
        table = Table.from_rows(record, game, None if first is None else first[0], rows)
        self._written[code] = (game, table.step)
        return table

    def claim(self, code: str, owner: str) -> bool:
        """Whether `owner` holds `code` now (stores.TableStore.claim)."""
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO claims (code, owner, since) VALUES (?, ?, ?)",
                       (code, owner, time.time()))
            held = db.execute("SELECT owner FROM claims WHERE code = ?", (code,)).fetchone()
        return bool(held[0] == owner)

    def take_over(self, code: str, owner: str, lost: str) -> bool:
        """Whether `owner` holds `code` in place of `lost` (stores.TableStore.take_over)."""
        with self._transaction() as db:
            db.execute("UPDATE claims SET owner = ?, since = ? WHERE code = ? AND owner = ?",
                       (owner, time.time(), code, lost))
            held = db.execute("SELECT owner FROM claims WHERE code = ?", (code,)).fetchone()
        return held is not None and held[0] == owner

    def release(self, code: str, owner: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM claims WHERE code = ? AND owner = ?", (code, owner))

    def close(self) -> None:
        self._db.close()


if TYPE_CHECKING:  # mypy checks that this store is one the seam accepts
    _TABLES: type[seam.TableStore] = TableStore
