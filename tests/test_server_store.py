"""The SQLite table store's own promises, beside the seam's contract (test_contract_stores.py):
a save appends only the steps it has not written, tables kept whole by an older server still
load (and are kept in parts from their next save), and a damaged row is named in the log,
skipped and left in the file."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_contract_stores import advance, reloaded, same_play, seated

from sudden_death.server.stores.sqlite_tables import FILE_NAME, TableStore
from sudden_death.server.tables import Table


def rows(folder: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    db = sqlite3.connect(folder / FILE_NAME)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def test_a_save_appends_only_the_new_steps_in_one_transaction(tmp_path: Path) -> None:
    store = TableStore(tmp_path)
    table = seated()
    store.save(table)
    changes = []
    for _ in range(12):
        advance(table)
        before = store._db.total_changes
        store.save(table)
        changes.append(store._db.total_changes - before)
    assert changes == [2] * 12  # the header, and this step's row: never the earlier steps
    assert rows(tmp_path, "SELECT step FROM steps ORDER BY step") == [(i,) for i in range(12)]
    assert rows(tmp_path, "PRAGMA journal_mode") == [("wal",)]
    store.close()


def whole_record_file(folder: Path, *tables: Table) -> None:
    """A data folder as the server kept it before steps had rows: one row a table."""
    db = sqlite3.connect(folder / FILE_NAME)
    db.execute("CREATE TABLE tables (code TEXT PRIMARY KEY, record TEXT NOT NULL, over INTEGER "
               "NOT NULL DEFAULT 0)")
    for table in tables:
        record = json.loads(table.to_record())
        del record["games"]  # a field that server did not have
        db.execute("INSERT INTO tables VALUES (?, ?, ?)",
                   (table.code, json.dumps(record), table.over))
    db.commit()
    db.close()


def test_tables_kept_whole_by_an_older_server_load_and_go_on_in_parts(tmp_path: Path) -> None:
    playing, finished = seated("100001"), seated("100002", seed=5)
    for _ in range(7):
        advance(playing)
    while advance(finished):
        pass
    whole_record_file(tmp_path, playing, finished)
    store = TableStore(tmp_path)
    (found,) = store.open_tables()
    same_play(found, playing)
    ended = store.ended("100002")
    assert ended is not None
    same_play(ended, finished)
    advance(found)  # played on, and saved: now in parts, every step in its row
    store.save(found)
    store.close()
    assert rows(tmp_path, "SELECT count(*) FROM steps WHERE code = '100001'") == [(8,)]
    again = TableStore(tmp_path)
    same_play(reloaded(again, "100001"), found)
    again.close()


@pytest.mark.parametrize("damage", [
    "UPDATE tables SET record = 'not json' WHERE code = '100001'",
    "DELETE FROM steps WHERE code = '100001' AND step = 2",
    "UPDATE steps SET actions = '{\"HOME\": {\"action\": \"Nonsense\"}}' WHERE code = "
    "'100001' AND step = 3",
    "DELETE FROM games WHERE code = '100001'",
])
def test_a_damaged_table_is_named_skipped_and_left_in_the_file(
        damage: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = TableStore(tmp_path)
    damaged, sound = seated("100001"), seated("100002", seed=5)
    for table in (damaged, sound):
        for _ in range(5):
            advance(table)
        store.save(table)
    store.close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute(damage)
    db.commit()
    db.close()
    kept = [rows(tmp_path, f"SELECT * FROM {name} ORDER BY 1, 2")
            for name in ("tables", "games", "steps")]
    with caplog.at_level(logging.WARNING, logger="sudden_death.server"):
        again = TableStore(tmp_path)
        assert [table.code for table in again.open_tables()] == ["100002"]
        again.save(sound)
        again.close()
    assert any("100001" in record.getMessage() and "damaged" in record.getMessage()
               for record in caplog.records), caplog.text
    after = [rows(tmp_path, f"SELECT * FROM {name} WHERE code = '100001' ORDER BY 1, 2")
             for name in ("tables", "games", "steps")]
    assert after == [[row for row in table if row[0] == "100001"] for table in kept]


FULL_DISK = """
import json, resource, sqlite3, sys
from pathlib import Path
from test_contract_stores import advance, seated
from sudden_death.server.stores.sqlite_tables import TableStore
folder = Path(sys.argv[1])
store = TableStore(folder)
table = seated()
store.save(table)
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
size = (folder / "tables.sqlite3-wal").stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 20_000, hard))  # the disk is nearly full
failed = None
while failed is None and advance(table):
    try:
        store.save(table)
    except (sqlite3.Error, OSError):
        failed = table.step
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # and has room again
advance(table)
store.save(table)
print(json.dumps({"failed": failed, "step": table.step}))
"""


def test_a_save_the_disk_refused_leaves_the_store_usable_once_it_has_room(
        tmp_path: Path) -> None:
    """A write past the disk's room fails, the save raises, and nothing half-done is left:
    once there is room the next save keeps every step, the ones the failed save held too."""
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(tests.parent)])}
    result = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    said = json.loads(result.stdout)
    assert said["failed"] is not None and said["failed"] < said["step"]
    store = TableStore(tmp_path)
    found = reloaded(store)
    assert found.step == said["step"] and len(found.log) == said["step"]
    store.close()
