"""Where a table server keeps its tables: one SQLite file in `--data DIR`.

Each table is one row, written in one transaction after every change (a seat, a held
choice, a step), in WAL mode: a server killed at any moment (SIGKILL included) restarts with
every committed step. SQLite is in the standard library, and its transactions are exactly the
atomic write this needs. A row that no longer decodes is named in the log and left in the
file, never deleted.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from ..engine.errors import SnapshotError
from .tables import Table

LOG = logging.getLogger("sudden_death.server")
FILE_NAME = "tables.sqlite3"


class TableStore:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / FILE_NAME
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # durable past a crash of this process
        self._db.execute("CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, "
                         "record TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0)")

    def save(self, table: Table) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO tables (code, record, over) "
                             "VALUES (?, ?, ?)", (table.code, table.to_record(), table.over))

    def open_tables(self) -> list[Table]:
        """Every table still being played; damaged rows are named in the log and skipped."""
        found = []
        for code, record in self._db.execute("SELECT code, record FROM tables WHERE over = 0"):
            try:
                found.append(Table.from_record(record))
            except SnapshotError as error:
                LOG.warning("table %s in %s is damaged and set aside: %s", code, self.path,
                            error)
        return found

    def ended(self, code: str) -> Table | None:
        """The ended table with `code`, for a seat that comes back to hear how it ended."""
        row = self._db.execute("SELECT record FROM tables WHERE code = ? AND over = 1",
                               (code,)).fetchone()
        if row is None:
            return None
        try:
            return Table.from_record(row[0])
        except SnapshotError as error:
            LOG.warning("table %s in %s is damaged: %s", code, self.path, error)
            return None

    def close(self) -> None:
        self._db.close()
