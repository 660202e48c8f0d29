"""The PostgreSQL schema of what a table server keeps (issue 61): numbered migrations, the SQL
files in migrations/ beside this module (001_tables.sql, 002_accounts.sql...), applied in order
above the version the database records in `schema_version`. Only the server's --postgres path
imports this module (psycopg is the `server` extra's), so nothing else in the package may.

`migrate` runs in one transaction under a transaction-level advisory lock: of two servers
starting at once on one database, the second waits for the first to commit and then finds
nothing left to do; a migration that fails leaves the database as it was. A database newer than
this server's newest migration is refused (SchemaTooNew), never written to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import tuple_row

# The advisory lock's key: any fixed 64-bit number, the same in every server of the game.
LOCK_KEY = 0x5D_61_5C_E3_A0_00_00_61
FILE_NAME = re.compile(r"(\d{3})_[a-z0-9_]+\.sql")


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer server than this one."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"the database's schema is version {found}; this server knows up to "
                         f"{known}: upgrade the server")
        self.found = found
        self.known = known


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """Every migration file in order, numbered 1, 2, 3... without a gap (a gap or a repeated
    number is a packaging mistake, so it raises ValueError rather than skip a step)."""
    folder = resources.files(__package__ or "sudden_death.server") / "migrations"
    found = sorted(
        (Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8"))
         for entry in folder.iterdir() if (match := FILE_NAME.fullmatch(entry.name))),
        key=lambda migration: migration.version)
    numbers = [migration.version for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"the migrations are numbered {numbers}, not 1 to {len(found)}")
    return found


def newest() -> int:
    """The version a database has once this server has migrated it."""
    return len(migrations())


async def migrate(connection: psycopg.AsyncConnection[Any]) -> int:
    """Bring the database to the newest schema, in one transaction, and return its version:
    `schema_version` (one row) is made if missing, then every migration numbered above the
    version it holds is applied in order. SchemaTooNew when the database is already newer."""
    steps = migrations()
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (one boolean PRIMARY KEY DEFAULT true "
            "CHECK (one), version integer NOT NULL CHECK (version >= 0))")
        await connection.execute("INSERT INTO schema_version (one, version) VALUES (true, 0) "
                                 "ON CONFLICT (one) DO NOTHING")
        # Tuple rows whatever the connection's own row factory is.
        cursor = connection.cursor(row_factory=tuple_row)
        await cursor.execute("SELECT version FROM schema_version")
        row = await cursor.fetchone()
        assert row is not None  # the row was just made if it was missing
        version = int(row[0])
        if version > len(steps):
            raise SchemaTooNew(version, len(steps))
        for migration in steps[version:]:
            # bytes, not str: a file's text is not a literal, and with no parameters psycopg
            # sends the whole file, several statements, at once.
            await connection.execute(migration.sql.encode("utf-8"))
            version = migration.version
        await connection.execute("UPDATE schema_version SET version = %s", (version,))
    return version
