"""Launch to first speech of the Windows game under Wine: how long a player of the .exe waits.

Why: the Windows build is checked only under Wine here, so this is the one figure we can give
for it. Each run starts `wine dist/windows/sudden-death/sudden-death.exe --headless --keys -`
with sound on and SUDDEN_DEATH_DIAGNOSTICS, waits until the first utterance starts playing
(`first_playback_unix`, wall clock, written by the game) and then closes its input, which ends
the game. The first run starts Wine's server (as a player's first start after logging in would);
later runs find it running, so both are reported. Medians shown.

    .venv/bin/python benchmarks/windows_startup.py [--runs 7] [--dist dist/windows]

Build first with `python3 tasks.py build-windows`. Where it could mislead: Wine's start-up
(process creation, DLL loading) differs from Windows', in both directions, and the SDL dummy
audio driver stands in for a sound card, so the figure is the game's own start plus Wine's, up to
the mixer taking the first buffer, not a measurement of real Windows hardware.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _windows_build() -> ModuleType:
    """tools/windows_build.py as a module (tools/ is not a package; it imports build_check)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import windows_build

    return windows_build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist" / "windows")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "windows-cache")
    args = parser.parse_args(argv)
    wb = _windows_build()
    folder = args.dist.resolve() / "sudden-death"
    exe = folder / "sudden-death.exe"
    if not exe.exists():
        print(f"no {exe}: run python3 tasks.py build-windows first", file=sys.stderr)
        return 2
    wine = wb.Wine(wb.ensure_wine(), args.cache.resolve() / "prefix")
    wine.stop()  # the first run starts Wine's server itself
    seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="sudden-death-winstart-") as scratch:
        for run in range(args.runs):
            work = Path(scratch) / str(run)
            work.mkdir()
            diagnostics, transcript = work / "diagnostics.json", work / "transcript.jsonl"
            command = [wine.executable, str(exe), "--headless", "--seed", "0", "--keys", "-",
                       "--transcript", wb.windows_path(transcript),
                       "--config", wb.windows_path(work / "config")]
            env = wine.env(SUDDEN_DEATH_DIAGNOSTICS=wb.windows_path(diagnostics))
            played = wb.play_scripted(command, env, work, [], diagnostics, transcript,
                                      sound=True, stop=wine)
            first = played.diagnostics.get("first_playback_unix")
            if not isinstance(first, float):
                print(f"run {run}: no speech played: {played.diagnostics}", file=sys.stderr)
                return 1
            seconds.append(first - played.launched_unix)
            print(f"run {run}: launch to first speech {seconds[-1]:.3f} s", flush=True)
    later = seconds[1:] or seconds
    print(f"first run (Wine server starting): {seconds[0]:.3f} s")
    print(f"later runs: median {statistics.median(later):.3f} s, "
          f"min {min(later):.3f} s, max {max(later):.3f} s ({len(later)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
