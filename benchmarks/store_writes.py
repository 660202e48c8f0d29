"""What keeping a table costs the server at every step: the save after one step, before and
after the table store kept one row per step (issue 60), and what loading costs after a restart.

    python benchmarks/store_writes.py [--tables 20] [--folder DIR]

Each table is a game played by the engine's coach from a seed (seeds whose game lasts 40 steps
or more), saved after each of its first 40 steps, as the service saves before it sends:

- whole: the store as it was (one row a table, the whole record rewritten at every save);
- parts: `server/stores/sqlite_tables.py` now (the header rewritten, the step appended);
- parts+game: the same with the game state kept in the header, which loading would otherwise
  rebuild by replaying the steps (the choice `store.py`'s docstring gives the reason for).

Per save: median and p95 in microseconds, and bytes per step: what the process handed to
write() during the save (/proc/self/io `wchar`: the WAL's frames, whole 4 KB pages, and any
checkpoint that save ran). Then the milliseconds to load one 40-step table (as a restarted
server does for each open one), and of them the replay of its steps (parts+game would skip
it; its loading is not built, so not timed). Prints one machine-readable line each too.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from coach_steps import advance  # noqa: E402

from sudden_death.engine.game import Game  # noqa: E402
from sudden_death.engine.snapshot import action_from_dict  # noqa: E402
from sudden_death.engine.state import Team  # noqa: E402
from sudden_death.server.stores.sqlite_tables import TableStore  # noqa: E402
from sudden_death.server.tables import Seat, Table, new_game  # noqa: E402

STEPS = 40


class WholeStore:
    """The table store before issue 60 (as at commit 604d118): one row a table, the whole
    record written at every save."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(folder / "tables.sqlite3", isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, "
                         "record TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0)")

    def save(self, table: Table) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO tables (code, record, over) "
                             "VALUES (?, ?, ?)", (table.code, table.to_record(), table.over))

    def open_tables(self) -> list[Table]:
        return [Table.from_record(record) for (record,) in
                self._db.execute("SELECT record FROM tables WHERE over = 0")]

    def close(self) -> None:
        self._db.close()


class GameInHeader(Table):
    """A table whose header also keeps the game state (7.6 KB of JSON), for the comparison."""

    def header_record(self) -> str:
        return f'{super().header_record()[:-1]}, "game": {json.dumps(self.game.to_json())}}}'


def long_seeds(count: int) -> list[int]:
    """The first `count` seeds whose game lasts at least STEPS steps."""
    found: list[int] = []
    seed = 0
    while len(found) < count:
        table = Table("000000", new_game(seed), {Team.HOME: Seat("A"), Team.AWAY: Seat("B")})
        while table.step < STEPS and advance(table):
            pass
        if table.step >= STEPS:
            found.append(seed)
        seed += 1
    return found


def written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def measure(name: str, store: Any, kind: Callable[..., Table], seeds: list[int],
            folder: Path) -> dict[str, object]:
    times: list[float] = []
    sizes: list[int] = []
    for number, seed in enumerate(seeds):
        table = kind(f"{number + 100000}", new_game(seed),
                     {Team.HOME: Seat("Hawks"), Team.AWAY: Seat("Bears")})
        store.save(table)  # seated: the seats' tokens sealed once, not timed
        while table.step < STEPS:
            advance(table)
            bytes_before = written()
            start = time.perf_counter()
            store.save(table)
            times.append((time.perf_counter() - start) * 1e6)
            sizes.append(written() - bytes_before)
    store.close()
    ordered = sorted(times)
    row: dict[str, object] = {
        "what": name, "saves": len(times), "median_us": round(statistics.median(times), 1),
        "p95_us": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "bytes_per_step": round(statistics.mean(sizes)),
        "file_bytes": sum(path.stat().st_size for path in folder.iterdir())}
    if kind is GameInHeader:  # loading would read the game, not replay: not built, not timed
        return {**row, "load_ms_per_table": None, "replay_ms_per_table": None}
    reopened = WholeStore(folder) if name == "whole" else TableStore(folder)
    start = time.perf_counter()
    loaded = reopened.open_tables()
    load_ms = (time.perf_counter() - start) * 1e3 / max(1, len(loaded))
    reopened.close()
    start = time.perf_counter()  # the part of loading that keeping the game would save
    for table in loaded:
        game = Game.from_json(table.first)
        for entry in table.log:
            game.apply({Team[team]: action_from_dict(kept) for team, kept in entry.items()})
    replay_ms = (time.perf_counter() - start) * 1e3 / max(1, len(loaded))
    return {**row, "load_ms_per_table": round(load_ms, 3),
            "replay_ms_per_table": round(replay_ms, 3), "tables_loaded": len(loaded)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--folder", type=Path, default=None,
                        help="where to write (default: a temporary folder)")
    options = parser.parse_args()
    seeds = long_seeds(options.tables)
    with tempfile.TemporaryDirectory(dir=options.folder) as where:
        rows = [measure("whole", WholeStore(Path(where) / "whole"), Table, seeds,
                        Path(where) / "whole"),
                measure("parts", TableStore(Path(where) / "parts"), Table, seeds,
                        Path(where) / "parts"),
                measure("parts+game", TableStore(Path(where) / "game"), GameInHeader, seeds,
                        Path(where) / "game")]
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    print(f"{'layout':<12}{'median us':>11}{'p95 us':>9}{'bytes/step':>12}{'load ms':>9}"
          f"{'replay ms':>11}")
    for row in rows:
        print(f"{row['what']:<12}{row['median_us']:>11}{row['p95_us']:>9}"
              f"{row['bytes_per_step']:>12}{row['load_ms_per_table'] or '-':>9}"
              f"{row['replay_ms_per_table'] or '-':>11}")
    for row in rows:
        print(json.dumps({"date": when, "tables": options.tables, "steps": STEPS, **row}))


if __name__ == "__main__":
    main()
