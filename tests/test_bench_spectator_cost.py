"""benchmarks/spectator_cost.py, short: a few steps with and without spectators, the server on
a core of its own; every spectator hears every update, in order, none early, and the seats'
latency and the server's CPU a step are said for each count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, loopback addresses"),
    pytest.mark.timeout(240),
]


@pytest.mark.bench
def test_the_spectator_benchmark_checks_every_spectator_and_measures_the_seats() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "spectator_cost.py"),
                           "--spectators", "0", "12", "--steps", "15", "--rounds", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    for count in ("0", "12"):
        assert result[count]["seats"]["n"] == 15
        assert result[count]["server_cpu_ms_per_step"] >= 0
    watched = result["12"]
    assert watched["tables"] >= 1 and watched["complete"] == 12 * watched["tables"]
    assert watched["changed"] == watched["early"] == 0 and not watched["stray"]
    assert watched["spectators"]["n"] == 12 * 15  # each heard each step
    assert "12_over_0_p99" in result
    if len(os.sched_getaffinity(0)) >= 2:
        assert result["server_cores"] and result["client_cores"]
