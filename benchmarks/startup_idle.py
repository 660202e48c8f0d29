"""Startup and idle cost of the game: time to the first spoken word, and CPU while waiting.

Launches `python -m sudden_death --headless --transcript -` several times, takes the wall time
from launch until the first speech line arrives (and the transcript's own "t"), then samples the
process's CPU time over a few idle seconds. Prints medians. Targets: first word < 0.5 s, idle
CPU < 2 % of one core. Run: `python benchmarks/startup_idle.py [--runs 5] [--idle 3] [--no-sound]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a running process (Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def one_run(idle: float, no_sound: bool, settle: float) -> tuple[float, float, float | None]:
    command = [sys.executable, "-m", "sudden_death", "--headless", "--transcript", "-"]
    if no_sound:
        command.append("--no-sound")
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the game exited before speaking")
            record = json.loads(line)
            if record.get("kind") == "speech":
                wall = time.perf_counter() - started
                break
        # Idle means nothing to do: wait until start-up work is done and the welcome has been
        # spoken (the mixer mixes while speech plays, which is not idling).
        time.sleep(settle)
        before = cpu_seconds(proc.pid)
        time.sleep(idle)
        after = cpu_seconds(proc.pid)
        share = None if before is None or after is None else (after - before) / idle * 100
        return wall, float(record["t"]), share
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=3.0, help="idle seconds sampled per run")
    parser.add_argument(
        "--settle", type=float, default=20.0,
        help="seconds after the first word before sampling (the welcome finishes speaking)",
    )
    parser.add_argument("--no-sound", action="store_true")
    args = parser.parse_args(argv)
    walls, stamps, shares = [], [], []
    for _ in range(args.runs):
        wall, stamp, share = one_run(args.idle, args.no_sound, args.settle)
        walls.append(wall)
        stamps.append(stamp)
        if share is not None:
            shares.append(share)
    print(f"first spoken word: median {statistics.median(walls):.3f} s from launch "
          f"(transcript t {statistics.median(stamps):.3f} s after the loop started); "
          f"target < 0.5 s")
    if shares:
        print(f"idle CPU: median {statistics.median(shares):.2f} % of one core; target < 2 %")
    else:
        print("idle CPU: unavailable on this platform (needs /proc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
