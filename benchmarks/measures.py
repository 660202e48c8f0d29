"""What the server benchmarks measure alike: percentiles of a list of seconds, and a process's
CPU time from /proc. Their own module, so each benchmark imports it and none imports another
benchmark's measuring (server_load.py runs cluster_load.py, never the other way round)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max, in milliseconds."""
    if len(values) < 2:
        return {"n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"n": len(values), "p50_ms": round(cuts[49] * 1000, 2),
            "p95_ms": round(cuts[94] * 1000, 2), "p99_ms": round(cuts[98] * 1000, 2),
            "max_ms": round(max(values) * 1000, 2)}


def cpu_ticks(pid: int, reaped: bool = False) -> int:
    """A process's CPU time in clock ticks (user and system; with `reaped`, its waited-for
    children's too), from /proc/PID/stat; 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat.rsplit(")", 1)[1].split()  # from the state, the third field, on
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if reaped:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks


def cluster_cpu_s(cluster: Any) -> float:
    """The CPU seconds a PostgreSQL cluster's processes have used: every live one's, and the
    postmaster's reaped children's (backends that have exited)."""
    pids = cluster.pids()
    if not pids:
        return 0.0
    ticks = cpu_ticks(pids[0], reaped=True) + sum(cpu_ticks(pid) for pid in pids[1:])
    return ticks / os.sysconf("SC_CLK_TCK")
