"""What an idle game costs: CPU on the title screen, and seated at a table waiting for a friend.

    python benchmarks/idle_cpu.py [--runs 3] [--seconds 10] [--window 1] [--no-sound]

Each run starts `python -m sudden_death --headless --keys - --transcript -` (SDL's dummy
drivers, the real speech and cues unless --no-sound) in a folder of its own, twice: once left
on the title screen, and once seated at a table it hosts on a real table server on loopback
(`python -m sudden_death.server --port 0`, tests/table_driver.py's Server), with no friend
joining. Each game is silenced (Ctrl) once its words are said (the welcome, the table's code)
and left to settle; then the CPU time of all of the game's threads (the loop, the speech worker,
the mixer, the table's link) is read from Linux's /proc/PID/task/*/schedstat, in nanoseconds,
every `--window` seconds for `--seconds`. A window's share is its CPU time over its wall time.

Prints, for each place, the median and p95 share of one core over every window of every run,
and the ratio of the table's median to the title screen's. Goal: the table at most 1.2 times
the title screen, and at most 1 % of a core. Where it could mislead: the machine's other work
lands in the windows too (the medians resist it, p95 shows it); with sound on, SDL's dummy
audio thread mixes silence in both places alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
SETTLE_S = 3.0  # after the words are silenced: start-up work and the last mix are done
HOST_KEYS = ["end", "up", "return", "return", "type Hawks", "return"]  # Play a friend, Host


def cpu_ns(pid: int) -> int | None:
    """CPU time of every thread of `pid` so far, in nanoseconds (None: no /proc here). A
    thread that ended between two readings takes its time with it: the game's threads last."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile
    return total


def shares(pid: int, seconds: float, window: float) -> list[float]:
    """The process's share of one core (%) in each window of `window` seconds."""
    found: list[float] = []
    before, started = cpu_ns(pid), time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        time.sleep(window)
        after, now = cpu_ns(pid), time.perf_counter()
        if before is None or after is None:
            return []
        found.append((after - before) / 1e9 / (now - started) * 100)
        before, started = after, now
    return found


def one_place(config: Path, at_table: str | None, seconds: float, window: float,
              no_sound: bool) -> tuple[list[float], int]:
    """The windows' shares for one game, on the title screen (`at_table` None) or hosting a
    table at the server `at_table`; and how many lines it said while measured."""
    from table_driver import Seat

    command = [sys.executable, "-m", "sudden_death", *(["--no-sound"] if no_sound else [])]
    server = [] if at_table is None else ["--server", at_table]
    seat = Seat(config, *server, command=command)
    try:
        seat.next("speech")  # the welcome: the loop is running
        if at_table is not None:
            seat.send(*HOST_KEYS)
            seat.next("table")  # seated: the server gave the table its code
            seat.next("speech")  # the code, said
        seat.send("ctrl")  # silenced: idling is not speaking
        time.sleep(SETTLE_S)
        said = len(seat.speech())
        found = shares(seat.proc.pid, seconds, window)
        return found, len(seat.speech()) - said
    finally:
        seat.kill()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured per place, per run")
    parser.add_argument("--window", type=float, default=1.0, help="seconds per sample")
    parser.add_argument("--no-sound", action="store_true")
    args = parser.parse_args(argv)
    from table_driver import Server

    title: list[float] = []
    table: list[float] = []
    spoke = 0
    with Server() as server, tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            for place, found in (("title", title), ("table", table)):
                config = Path(folder) / f"{place}-{run}"
                windows, said = one_place(config, server.url if place == "table" else None,
                                          args.seconds, args.window, args.no_sound)
                if not windows:
                    print("idle CPU: unavailable on this platform (needs /proc)")
                    return 1
                found.extend(windows)
                spoke += said
    sound = "without sound" if args.no_sound else "with speech and cues"
    print(f"idle CPU ({sound}; {args.runs} runs x {args.seconds:g} s in {args.window:g} s "
          f"windows, all threads, /proc schedstat):")
    for name, found in (("title screen", title), ("seated at a table", table)):
        print(f"  {name:18} median {statistics.median(found):.2f} %  "
              f"p95 {p95(found):.2f} % of one core")
    ratio = statistics.median(table) / max(statistics.median(title), 1e-9)
    print(f"  table / title: {ratio:.2f} (goal <= 1.2; and the table <= 1 % of a core)")
    if spoke:
        print(f"  note: {spoke} lines were said while measured (not quite idle)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
