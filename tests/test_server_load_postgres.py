"""`benchmarks/server_load.py --postgres` runs end to end at a tiny size: its own private
cluster, each count on SQLite then on PostgreSQL, every new field in its lines, and nothing of
the cluster left after. The figures themselves are the benchmark's to report, not checked here
(this machine runs other tests meanwhile).

PostgreSQL is needed: skipped without it, unless SUDDEN_DEATH_REQUIRE_POSTGRES=1 (CI), where
a missing one fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_postgres_server import require_postgres

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the cluster is Debian's PostgreSQL, driven through /proc")


def processes_in(folder: str) -> list[str]:
    """The command lines of the PostgreSQL processes whose arguments name `folder`: one
    cluster's, whatever else runs on the machine (other workers' clusters, another
    engineer's benchmark with fsync on; issue 71: the test once asserted there were none)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
        except OSError:
            continue
        if words and words[0].endswith(b"/postgres") and any(
                word.startswith(folder.encode()) for word in words):
            found.append(b" ".join(words).decode(errors="replace"))
    return found


@pytest.mark.bench
@pytest.mark.timeout(300)
def test_the_load_benchmark_measures_sqlite_and_postgres_side_by_side() -> None:
    require_postgres()
    result = subprocess.run(
        # 10 tables: about 200 commits in the window, so PostgreSQL's CPU (counted in the
        # kernel's 10 ms ticks) is never all under one tick, as it once was with 2 (0.0).
        # 9 s on a quiet machine, 13 s beside four busy loops; a busy .ci/run with a
        # benchmark of four server processes beside it went past 100 s (issue 71): the time
        # allowed is for a hang, not a measure.
        [sys.executable, "benchmarks/server_load.py", "--tables", "10", "--ramp", "0.5",
         "--window", "2", "--step", "0.1", "--postgres"],
        cwd=ROOT, capture_output=True, text=True, timeout=270, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("postgres: a private PostgreSQL") and "fsync on" in lines[0]
    folder = lines[0].rsplit(", in ", 1)[1]  # the benchmark's own cluster
    assert Path(folder).name.startswith("sudden-death-pg-"), lines[0]
    measured = [json.loads(line) for line in lines if line.startswith("{")]
    assert [each["store"] for each in measured] == ["sqlite", "postgres"]
    for each in measured:
        assert each["errors"] == 0 and each["steps_per_s"] > 0
        assert each["server_latency"]["n"] > 0 and "p99_ms" in each["round_trip"]
        assert each["store_saves"] > 0 and "p99_ms" in each["store_save"]
        assert each["store_ms_per_step"] > 0 and each["store_busy_share"] > 0
    sqlite, postgres = measured
    assert "db_cpu_share" not in sqlite and "postgres_fsync" not in sqlite
    assert postgres["db_cpu_share"] > 0 and postgres["postgres_fsync"] is True
    assert "database cpu" in result.stdout and "(fsync on)" in result.stdout  # the summary
    assert processes_in(folder) == []  # the benchmark's cluster is stopped ...
    assert not Path(folder).exists()  # ... and removed
