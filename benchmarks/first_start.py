"""A player's first start from source: a fresh clone, then the README's `python3 tasks.py play`,
timed to the first spoken word.

Why: the README promises one command that starts the game on a machine with only Python; what a
newcomer waits for is the clone, the install of the game's own dependencies into `.venv/`, and
the start. Each run clones this repository's committed HEAD into a temporary folder and starts
`python3 tasks.py play --headless --keys - --transcript - --config DIR` with pip's cache off
(PIP_NO_CACHE_DIR=1: a fresh machine has none, so every wheel is fetched again) and
SUDDEN_DEATH_DIAGNOSTICS. Times are taken from the moment `tasks.py` is launched:
- "first line": the first speech line of the transcript arrives on the pipe;
- "first audio": the first synthesized utterance starts playing (`first_playback_unix`), the
  first spoken word (SDL's dummy audio driver here: no sound card).
It also reports what tasks.py printed before the first word (a player's first start should
print only its own progress lines, no warnings) and the size of `.venv/`.

    .venv/bin/python benchmarks/first_start.py [--runs 3]

Where it could mislead: wheels come from this machine's package index over its network, so the
install time is mostly download and unpacking speed, which differs on a player's connection;
the clone is of a local repository (no network), so it is far faster than one from a forge.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 600.0  # a slow index can take minutes for pygame-ce and eSpeak NG's wheel


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*")
               if path.is_file() and not path.is_symlink())


@dataclass(frozen=True)
class Start:
    """One fresh clone's first start: seconds, and what it printed."""

    clone: float
    first_line: float
    first_audio: float
    printed: list[str]  # tasks.py's own lines on stdout before the first word
    stderr: list[str]
    venv_bytes: int


def one_start(work: Path) -> Start:
    """Clone, then `tasks.py play` to the first spoken word; the timings and what it printed."""
    clone = work / "clone"
    started = time.perf_counter()
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True,
                   timeout=TIMEOUT_S)
    cloned = time.perf_counter() - started
    diagnostics, config, home = work / "diagnostics.json", work / "config", work / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))}
    env.update(SUDDEN_DEATH_DIAGNOSTICS=str(diagnostics), PIP_NO_CACHE_DIR="1",
               HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    launched_unix = time.time()
    launched = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "tasks.py", "play", "--headless", "--keys", "-", "--transcript", "-",
         "--config", str(config)],
        cwd=clone, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    printed: list[str] = []
    try:
        assert proc.stdout is not None and proc.stdin is not None
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("tasks.py play exited before speaking")
            try:
                record = json.loads(line)
            except ValueError:
                printed.append(line.rstrip())  # tasks.py's own progress lines
                continue
            if record.get("kind") == "speech":
                first_line = time.perf_counter() - launched
                break
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            try:
                facts = json.loads(diagnostics.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                facts = {}
            if facts.get("first_playback_unix") is not None:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"no speech played within {TIMEOUT_S} s")
            time.sleep(0.005)
        # No more input: the game ends as after a key script (communicate closes stdin).
        _, errors = proc.communicate(input="", timeout=TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return Start(cloned, first_line, float(facts["first_playback_unix"]) - launched_unix,
                 printed, [line for line in errors.splitlines() if line],
                 folder_bytes(clone / ".venv"))


def percentile_95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    runs: list[Start] = []
    for index in range(args.runs):
        work = Path(tempfile.mkdtemp(prefix="sudden-death-first-start-"))
        try:
            runs.append(one_start(work))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        print(f"run {index + 1}: clone {runs[-1].clone:.2f} s, first word "
              f"{runs[-1].first_audio:.1f} s after `tasks.py play`", flush=True)
    print(f"a fresh clone's first `python3 tasks.py play`, {args.runs} runs (pip cache off):")
    print(f"{'':34} {'median':>8} {'p95':>8}")
    columns = {"git clone (local repository)": [run.clone for run in runs],
               "tasks.py play -> first line": [run.first_line for run in runs],
               "tasks.py play -> first word": [run.first_audio for run in runs]}
    for label, values in columns.items():
        print(f"{label:34} {statistics.median(values):7.2f}s {percentile_95(values):7.2f}s")
    gap = [run.first_audio - run.first_line for run in runs]
    print(f"first word after the first line: median {statistics.median(gap):.2f} s")
    print(f".venv: {statistics.median(run.venv_bytes for run in runs) / 1e6:.0f} MB")
    print(f"printed before the first word ({len(runs[-1].printed)} lines): {runs[-1].printed}")
    warnings = [line for run in runs for line in run.stderr if "warning" in line.lower()]
    print(f"warnings on stderr: {len(warnings)}{': ' + warnings[0] if warnings else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
