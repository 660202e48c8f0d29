"""benchmarks/lobby_cost.py, short: with enough processes one merges the lobby for all, every
process sees the others, and each reads fewer bytes a second than when each reads every other
process's entries itself (issue 73)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from valkey_server import require_valkey

from sudden_death.server.cluster import valkey_lobby

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.timeout(240)


@pytest.mark.bench
def test_the_lobby_benchmark_counts_valkeys_work_merged_and_not() -> None:
    require_valkey()
    many = valkey_lobby.MERGE_FROM + 1
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lobby_cost.py"),
                           "--processes", "2", str(many), "--unmerged", str(many),
                           "--window", "2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    few, merged, unmerged = results
    assert (few["mergers"], merged["mergers"], unmerged["mergers"]) == (0, 1, 0)
    for result in results:
        assert result["readers_seeing_others"] == result["processes"]
        assert result["commands_per_s"] > 0 and result["entry_kb"] > 0
    assert merged["merged_kb"] > 0
    assert merged["out_kb_per_s_per_process"] < unmerged["out_kb_per_s_per_process"]
