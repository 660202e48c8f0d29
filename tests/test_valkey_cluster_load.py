"""benchmarks/cluster_load.py (and server_load.py --processes), short: one process on SQLite,
then a cluster of two on a private PostgreSQL and Valkey, each measured with bots that play
without an error, its CPU a step and memory said."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_postgres_server import require_postgres
from valkey_server import require_valkey

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines, /proc"),
    pytest.mark.timeout(240),
]


@pytest.mark.bench
def test_the_cluster_benchmark_measures_one_process_and_a_cluster() -> None:
    require_postgres()
    require_valkey()
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "server_load.py"),
                           "--processes", "2", "--tables", "6", "--ramp", "1", "--window", "3",
                           "--step", "0.2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [(each["kind"], each["processes"]) for each in results] == [
        ("one process, SQLite", 1), ("cluster: PostgreSQL and Valkey", 2)]
    for each in results:
        assert each["errors"] == 0 and each["steps_per_s"] > 0, each
        assert each["round_trip"]["n"] > 0 and each["server_cpu_ms_per_step"] > 0
        assert each["server_rss_mb_per_1000_tables"] > 0
    assert results[1]["engines_cpu_share"] > 0  # PostgreSQL and Valkey worked for it
    # The database's own counts: its transactions (counted within a second or so, so a short
    # window may miss some) and those that wrote (counted at once)
    assert "commits_per_step" in results[1]
    assert 0 < results[1]["write_commits_per_step"] <= 3, results[1]
    # Valkey's own count of the commands it ran (its lobby, routes and tally renewals at least)
    assert results[1]["valkey_commands_per_step"] > 0, results[1]
    assert "ms CPU a step" in done.stdout
