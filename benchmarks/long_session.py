"""Long session: many whole games in one process through the play-again loop.

Plays `--games` games (default 100) in this process with `run_app`, the real event loop and, by
default, the real audio layer (eSpeak NG through pygame.mixer on SDL's dummy device). The keys
come from `tests/game_script.py`, so every game reaches its end. After game 1 and
after the last game it measures resident memory (VmRSS), live threads and open file descriptors,
and prints the figures. Targets: memory growth under 10 MB, no growth in threads or files.

Run: `python benchmarks/long_session.py [--games 100] [--seed 1] [--no-sound] [--json]`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "tests"):  # the package, and the key-script helper beside the tests
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))


def rss_kib() -> int:
    """Resident memory of this process in KiB (Linux); 0 where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_files() -> int:
    """Open file descriptors of this process (Linux); -1 where /proc is missing."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def trim_heap() -> None:
    """Hand freed C heap back to the OS (glibc), so RSS shows memory held, not fragmentation
    left by freed speech buffers; a no-op elsewhere."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def measure() -> dict[str, int]:
    gc.collect()
    trim_heap()
    return {"rss_kib": rss_kib(), "threads": threading.active_count(), "fds": open_files()}


def session_keys(seed: int, games: int) -> list[str]:
    """Keys for `games` games from launch: the first names the teams, the rest Play again."""
    from game_script import plan_game

    keys: list[str] = []
    for index in range(games):
        planned, _events = plan_game(seed + index)
        keys += planned if index == 0 else ["return", *planned[4:]]  # 4 = start and naming
        keys.append(f"#game {index + 1} over")
    return keys


def run_session(games: int = 100, seed: int = 1, sound: bool = True,
                config: Path | None = None, warm: int = 1) -> dict[str, Any]:
    """Play `games` games in one run_app; return figures after game `warm` (1: the first)
    and after the last. A later `warm` leaves out the bounded caches filling up, so the
    growth left is what a leak would add."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import Options
    from sudden_death.ui.run.key_script import KeySource, Step, parse_step

    marks: dict[int, dict[str, int]] = {}
    finals: list[str] = []
    started = time.perf_counter()

    class SessionSource(KeySource):
        """The planned keys; a `#game N over` line takes the measurements at that point."""

        def __init__(self, lines: list[str]) -> None:
            super().__init__([], live=False)
            self.lines = lines

        def next(self, timeout: float | None) -> Step | bool | None:
            while self.lines:
                line = self.lines.pop(0)
                if line.startswith("#game "):
                    number = int(line.split()[1])
                    if number in (warm, games):
                        marks[number] = measure()
                    continue
                return parse_step(line)
            return None

        def empty(self) -> bool:
            return not self.lines

    source = SessionSource(session_keys(seed, games))
    original_source = loop_module._key_source
    original_app = loop_module.App

    class CountingApp(original_app):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            listen: Callable[[Any], None] = lambda m: (  # noqa: E731
                finals.append(m.text) if m.category == "game_over" else None)
            self.speaker.add_listener(listen)

    loop_module._key_source = lambda _keys: source
    loop_module.App = CountingApp
    try:
        with tempfile.TemporaryDirectory() as scratch:
            options = Options(seed=seed, headless=True, keys="session",
                              config=config or Path(scratch), no_sound=not sound)
            code = loop_module.run_app(options)
    finally:
        loop_module._key_source = original_source
        loop_module.App = original_app
    seconds = time.perf_counter() - started
    first, last = marks.get(warm, {}), marks.get(games, {})
    return {
        "games": games,
        "games_finished": len(finals),
        "exit_code": code,
        "seconds": round(seconds, 2),
        "sound": sound,
        f"after_game_{warm}": first,
        f"after_game_{games}": last,
        "warm": warm,
        "rss_growth_mib": round((last.get("rss_kib", 0) - first.get("rss_kib", 0)) / 1024, 2),
        "thread_growth": last.get("threads", 0) - first.get("threads", 0),
        "fd_growth": last.get("fds", 0) - first.get("fds", 0),
        "after_exit": measure(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-sound", action="store_true", help="silent, as the game's --no-sound")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    figures = run_session(args.games, args.seed, sound=not args.no_sound)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    first, last = figures["after_game_1"], figures[f"after_game_{args.games}"]
    print(f"{figures['games_finished']} of {args.games} games finished in "
          f"{figures['seconds']} s ({'real audio' if figures['sound'] else 'no sound'})")
    print(f"memory (VmRSS): {first['rss_kib'] / 1024:.1f} MiB after game 1, "
          f"{last['rss_kib'] / 1024:.1f} MiB after game {args.games}: "
          f"growth {figures['rss_growth_mib']:+.2f} MiB (target < 10)")
    print(f"threads: {first['threads']} -> {last['threads']}; open files: {first['fds']} -> "
          f"{last['fds']}; after exit: {figures['after_exit']['threads']} threads, "
          f"{figures['after_exit']['fds']} files")
    ok = (figures["games_finished"] == args.games and figures["rss_growth_mib"] < 10
          and figures["thread_growth"] <= 0 and figures["fd_growth"] <= 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
