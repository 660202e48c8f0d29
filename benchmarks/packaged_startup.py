"""Startup of the packaged game versus `python -m sudden_death`, plus build time and size.

Why: players of the executable should not wait longer for the first word than a developer does.
For each run both are started headless with `--keys - --transcript -` (so they wait for input)
and SUDDEN_DEATH_DIAGNOSTICS, and two times are taken from the moment of launch:
- "first line": the first speech line of the transcript arrives on the pipe (text is ready);
- "first audio": the first synthesized utterance starts playing (`first_playback_unix` in the
  diagnostics, wall clock), i.e. the first spoken word.
One untimed warm-up run of each comes first (disk cache); the two are alternated; medians shown.

    .venv/bin/python benchmarks/packaged_startup.py [--runs 7] [--builds 1] [--dist DIR]

Without --dist it builds the onedir app from a clean copy (tools/build_check.py) into a temporary
folder `--builds` times and reports the median build time and the folder size.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 30.0


def _build_check() -> ModuleType:
    """tools/build_check.py as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("build_check", ROOT / "tools" / "build_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def one_run(command: list[str], cwd: Path, work: Path) -> tuple[float, float, float]:
    """(first line s, first audio s, transcript t of the first line) for one launch."""
    diagnostics = work / "diagnostics.json"
    diagnostics.unlink(missing_ok=True)
    env = dict(os.environ, SUDDEN_DEATH_DIAGNOSTICS=str(diagnostics),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    launched_unix = time.time()
    launched = time.perf_counter()
    proc = subprocess.Popen([*command, "--headless", "--keys", "-", "--transcript", "-"],
                            cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{command[0]} exited before speaking")
            record = json.loads(line)
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
                raise RuntimeError(f"{command[0]}: no speech played within {TIMEOUT_S} s")
            time.sleep(0.005)
        proc.stdin.close()  # end of input: the game ends as it does after a key script
        proc.wait(timeout=TIMEOUT_S)
        return first_line, facts["first_playback_unix"] - launched_unix, float(record["t"])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--builds", type=int, default=1)
    parser.add_argument("--dist", type=Path, default=None,
                        help="an existing onedir build folder (skips building)")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="sudden-death-bench-"))
    try:
        if args.dist is not None:
            dist = args.dist.resolve()
            executable = dist / ("sudden-death.exe" if os.name == "nt" else "sudden-death")
        else:
            check = _build_check()
            source = check.clean_copy(ROOT, work / "src")
            seconds = []
            for index in range(args.builds):
                result = check.build(source, work / f"out{index}")
                seconds.append(result.seconds)
            dist, executable = result.dist, result.executable
            print(f"build time (PyInstaller --clean, onedir), median of {args.builds}: "
                  f"{statistics.median(seconds):.1f} s")
            size = check.folder_size(dist)
            files = sum(1 for f in dist.rglob("*") if f.is_file())
            print(f"folder size: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB), {files} files")
        variants = {
            "packaged app": ([str(executable)], work),
            "python -m sudden_death": ([sys.executable, "-m", "sudden_death"], ROOT),
        }
        results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for run in range(args.runs + 1):
            for name, (command, cwd) in variants.items():
                timing = one_run(command, cwd, work)
                if run:  # the first round warms the disk cache and is not counted
                    results[name].append(timing)
        print(f"time from launch to the first spoken word, medians of {args.runs} runs:")
        print(f"{'':24} {'first line':>11} {'first audio':>12} {'transcript t':>13}")
        for name, timings in results.items():
            line, audio, t = (statistics.median(column) for column in zip(*timings, strict=True))
            print(f"{name:24} {line:10.3f}s {audio:11.3f}s {t:12.3f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
