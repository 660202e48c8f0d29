"""benchmarks/cluster_load.py (and server_load.py --processes), short: one process on SQLite,
then a cluster of two on a private PostgreSQL and Valkey, each measured with bots that play
without an error, its CPU a step and memory said."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_postgres_server import require_postgres
from valkey_server import require_valkey

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines, /proc"),
    pytest.mark.timeout(240),
]


def _benchmark(script: str, *args: str) -> tuple[subprocess.CompletedProcess[str],
                                                 list[dict[str, Any]]]:
    """The benchmark run to its end without an error, and the results it printed."""
    require_postgres()
    require_valkey()
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    return done, [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@pytest.mark.bench
def test_the_cluster_benchmark_measures_one_process_and_a_cluster() -> None:
    done, results = _benchmark("server_load.py", "--processes", "2", "--tables", "6",
                               "--ramp", "1", "--window", "3", "--step", "0.2")
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


@pytest.mark.bench
def test_repeated_rounds_give_medians_and_profiled_servers_their_calls_a_step() -> None:
    done, results = _benchmark("cluster_load.py", "--processes", "1", "--tables", "4",
                               "--ramp", "1", "--window", "2", "--step", "0.2", "--repeat", "2",
                               "--count-calls")
    assert [(each["round"], each["kind"]) for each in results] == [
        (1, "one process, SQLite"), (1, "cluster: PostgreSQL and Valkey"),
        (2, "one process, SQLite"), (2, "cluster: PostgreSQL and Valkey")]
    summary = done.stdout.split("summary", 1)[1]
    assert "2 round(s), medians" in summary
    cluster = next(line for line in summary.splitlines() if "cluster" in line)
    cpu = sorted(each["server_cpu_ms_per_step"] for each in results[1::2])
    assert f"runs {cpu[0]} to {cpu[1]}" in cluster and "x1.00 one process" in cluster
    # Each server profiled from start to stop: its calls and the loop's turns, a step
    for each in results:
        assert each["profiles"] == 1, each
        assert each["calls_per_step"] > 100 and each["loop_turns_per_step"] > 1, each
    assert "Python calls and" in cluster
