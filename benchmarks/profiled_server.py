"""A table server under cProfile for the window a benchmark measures (cluster_load.py
--count-calls): `python benchmarks/profiled_server.py OUT SERVER-ARGS...` runs
`python -m sudden_death.server SERVER-ARGS...`; SIGUSR2 starts counting, SIGUSR1 stops and
writes the counts to OUT (whole, then renamed: a reader never finds half a file). Outside
the server, so it carries no profiler; by signals, so the counts cover the window only, not
the start, the ramp or the stop."""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    out = sys.argv[1]
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    sys.path.insert(0, str(ROOT))  # this checkout's server, as `-m` from its folder runs
    profile = cProfile.Profile()

    def start(_signum: int, _frame: FrameType | None) -> None:
        profile.enable()

    def written(_signum: int, _frame: FrameType | None) -> None:
        profile.disable()
        profile.dump_stats(out + ".part")
        os.replace(out + ".part", out)

    signal.signal(signal.SIGUSR2, start)
    signal.signal(signal.SIGUSR1, written)
    runpy.run_module("sudden_death.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
