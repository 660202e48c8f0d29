"""What keeping games costs the loop: the save after every step, the record at a game's end,
and opening Your record with a long history.

    python benchmarks/keeping.py [--games 20] [--history 500]

All three run on the game's event loop (a local file, never a network service), so each is a
pause between a key and its answer. Measured on real files in a temporary folder, with the
game's own functions, for seeded whole games against the computer:

- save: `save_game` after one step (the atomic write and its fsync), each step of each game;
- record: `Record.add` when a game ends (one SQLite transaction: the game, its drives, its
  events step by step), each game;
- open: `Record.games()` and the standings with `--history` games kept, as Your record does
  on Enter.

Prints median, p95 and max in milliseconds, then one machine-readable line each. The disk of
this machine (and its cache) is what is measured: a slow or network disk takes longer, and
fsync is the largest part of a save.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudden_death.engine.match import Match  # noqa: E402
from sudden_death.engine.snapshot import action_to_dict  # noqa: E402
from sudden_death.engine.state import Team  # noqa: E402
from sudden_death.storage.game_file import SavedGame, save_game  # noqa: E402
from sudden_death.storage.record import Opponent, Record, standings  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def row(name: str, values: list[float]) -> dict[str, object]:
    figures = {"what": name, "count": len(values),
               "median_ms": round(statistics.median(values), 3),
               "p95_ms": round(percentile(values, 0.95), 3), "max_ms": round(max(values), 3)}
    print(f"{name:8} {len(values):6} {figures['median_ms']:10} {figures['p95_ms']:10} "
          f"{figures['max_ms']:10}")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--history", type=int, default=500)
    args = parser.parse_args(argv)
    saves: list[float] = []
    adds: list[float] = []
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        record = Record(folder)
        kept: list[list] = []
        for seed in range(args.games):
            match = Match.against_computer(seed)
            rng = random.Random(seed)
            steps, actions = [match.advance()], []
            while not match.is_over:
                action = rng.choice(match.legal_actions())
                played, _ = match.play([action])
                steps.append(played)
                actions.append(action_to_dict(action))
                saved = SavedGame(seed, "random", "Hawks", "Bears", list(actions),
                                  match.to_json())
                started = time.perf_counter()
                save_game(folder, saved)
                saves.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            record.add(when, Opponent.COMPUTER, "Hawks", "Bears", Team.HOME, steps, "story")
            adds.append((time.perf_counter() - started) * 1000)
            kept.append(steps)
        while len(record.games()) < args.history:  # a long history, from the same games
            steps = kept[len(adds) % len(kept)]
            record.add(when, Opponent.COACH, "Hawks", "Bears", Team.HOME, steps, "story")
            adds.append(0.0)  # not timed: only the first --games adds are
        del adds[args.games:]
        opens: list[float] = []
        for _ in range(20):
            started = time.perf_counter()
            standings(record.games())
            opens.append((time.perf_counter() - started) * 1000)
    print(f"{'what':8} {'count':>6} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    rows = [row("save", saves), row("record", adds), row("open", opens)]
    for figures in rows:
        print("keeping", json.dumps({**figures, "history": args.history}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
