"""What a cluster of table servers costs and holds (issue 62): N processes on one port with a
private PostgreSQL and Valkey, against one process on SQLite, with the same bots.

    python benchmarks/cluster_load.py [--processes 1 2 4] [--tables 500] [--ramp 20] [--window 20]
                                      [--fsync] [--repeat N] [--count-calls]

For each count of processes: that many `python -m sudden_death.server --reuse-port --postgres
URL --valkey URL` on one loopback port (the kernel spreads the bots' lines over them; a seat
whose table another process holds is relayed there), a fresh database each time; first, the
baseline, one process with `--data` (SQLite), as a server on its own runs. The bots
(tests/table_bots.py: two seats a table, random legal actions, a seat thinking 0 to `--step`
seconds) all connect to the one address, from this process. In the window, measured:
steps per second; the round trip (from a step's last commit sent to both updates received:
what a player waits for the reveal, p50 to max); errors; the servers' CPU (all processes
together, as a share of one core, and in milliseconds per step: what the cluster costs a
step against the baseline), their resident memory per 1,000 tables; Valkey's and
PostgreSQL's CPU share; PostgreSQL's transactions a step, three ways (issue 73):
`commits_per_step`, its database's `xact_commit` (every transaction, the saves' group commits
and the claims, accounts and ratings too, and read-only ones, such as an empty query);
`write_commits_per_step`, the transactions that wrote (transaction ids handed out: each such
COMMIT waits for the log to be flushed, or for another's flush to cover it); and with
`--fsync`, `wal_flushes_per_step`, the log's flushes to the disk (pg_stat_wal's `wal_sync`:
what the disk bears); and Valkey's commands a step, `valkey_commands_per_step` (`INFO
commandstats`, all processes' together).

Where it could mislead: the bots, both engines and every server share this machine's 2
cores, so more processes compete for the same cores instead of adding any (the CPU per step
is the figure that carries over to more machines, not the steps per second); loopback only;
PostgreSQL with fsync off (a private throwaway cluster, as the tests run it) unless `--fsync`;
PostgreSQL counts a backend's commits and flushes in its statistics within about a second
(up to 10 s for one gone idle), so a short window's figures may be a little low or high; the
transaction ids are counted at once. One run's CPU a step moves by a fifth from run to run on
this machine: `--repeat N` runs every configuration N times in turn and gives medians.
`--count-calls` runs each server under cProfile (profiled_server.py), counting the window
only, and prints its Python calls and the event loop's turns a step: counts, which hold on
any machine where CPU time does not (four processes on two cores share their caches and are
switched more), though the profiler slows each call, so a loaded process batches more.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measures import cluster_cpu_s, cpu_ticks, percentiles
from postgres_server import postgres_cluster
from table_bots import Stats, play_tables
from table_driver import free_port
from valkey_server import valkey_server

ROOT = Path(__file__).resolve().parent.parent
PER_ADDRESS = "1000000"  # every bot comes from 127.0.0.1


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@contextlib.contextmanager
def servers(count: int, args: Callable[[int], list[str]], profiles: Path | None = None
            ) -> Iterator[tuple[str, list[int]]]:
    """`count` server processes on one free port; yields its URL and their pids. With
    `profiles`, each runs under cProfile (profiled_server.py: `measure` has it count the
    window only, and write its counts there)."""
    port = free_port()
    started: list[subprocess.Popen[str]] = []
    try:
        url = ""
        for index in range(count):
            server = (["-m", "sudden_death.server"] if profiles is None else
                      [str(ROOT / "benchmarks" / "profiled_server.py"),
                       str(profiles / f"{index}.prof")])
            process = subprocess.Popen(
                [sys.executable, *server, "--port", str(port),
                 "--per-address", PER_ADDRESS, *args(index)], cwd=ROOT,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            started.append(process)
            assert process.stdout is not None
            url = json.loads(process.stdout.readline())["listening"]
        yield url, [process.pid for process in started]
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _valkey_commands(url: str) -> int:
    """Every command Valkey has run so far (`INFO commandstats`, summed: this one's too)."""
    client = redis.Redis.from_url(url)
    try:
        return sum(int(stat["calls"]) for stat in client.info("commandstats").values())
    finally:
        client.close()


def measure(url: str, pids: list[int], tables: int, ramp_s: float, window_s: float,
            step_s: float, seed: int, engines: Callable[[], float],
            commits: Callable[[], dict[str, int]] = dict,
            profiles: Path | None = None) -> dict[str, Any]:
    """The bots on `url` for one window; `engines`: Valkey's and PostgreSQL's CPU seconds;
    `commits`: the database's counts so far (`transactions`, `writes`, `flushes`; none: no
    database); `profiles`: the servers are profiled_server.py's, told to count the window
    (`counted_calls`)."""
    stats = Stats()
    tick = os.sysconf("SC_CLK_TCK")

    async def bots() -> dict[str, Any]:
        playing = asyncio.ensure_future(play_tables(
            url, tables, seed, games=10**6, think=lambda rng: rng.uniform(0.0, step_s),
            ramp_s=ramp_s, stats=stats))
        await asyncio.sleep(ramp_s + min(5.0, ramp_s / 6))
        cpu = sum(cpu_ticks(pid) for pid in pids)
        engine_cpu, committed = engines(), commits()
        steps, trips, started = stats.steps, len(stats.round_trips), time.perf_counter()
        errors = len(stats.errors)
        if profiles is not None:
            _signal(pids, signal.SIGUSR2)  # counting from now
        await asyncio.sleep(window_s)
        if profiles is not None:
            _signal(pids, signal.SIGUSR1)  # and written
        seconds = time.perf_counter() - started
        window = {"steps": stats.steps - steps, "trips": stats.round_trips[trips:],
                  "cpu_s": (sum(cpu_ticks(pid) for pid in pids) - cpu) / tick,
                  "engines_s": engines() - engine_cpu, "seconds": seconds,
                  "commits": {name: count - committed.get(name, 0)
                              for name, count in commits().items()},
                  "errors": stats.errors[errors:],
                  "rss_kib": sum(_rss_kib(pid) for pid in pids)}
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
        return window

    window = asyncio.run(bots())
    errors = [error for error in window["errors"] if "CancelledError" not in error]
    return {
        "tables": tables,
        "steps_per_s": round(window["steps"] / window["seconds"], 1),
        "round_trip": percentiles(window["trips"]),
        "errors": len(errors), "first_errors": errors[:3],
        "server_cpu_share": round(window["cpu_s"] / window["seconds"], 3),
        "server_cpu_ms_per_step": round(window["cpu_s"] * 1000 / max(1, window["steps"]), 3),
        "server_rss_mb": round(window["rss_kib"] / 1024, 1),
        "server_rss_mb_per_1000_tables": round(window["rss_kib"] / 1024 * 1000 / tables, 1),
        "engines_cpu_share": round(window["engines_s"] / window["seconds"], 3),
        **{f"{name}_per_step": round(count / max(1, window["steps"]), 3)
           for name, count in window["commits"].items()},
        **(counted_calls(profiles, pids, window["steps"]) if profiles is not None else {}),
    }


def _signal(pids: list[int], signum: int) -> None:
    for pid in pids:
        os.kill(pid, signum)


def counted_calls(profiles: Path, pids: list[int], steps: int) -> dict[str, float]:
    """What the servers' profiles counted in the window, a step: Python calls (functions and
    built-ins, each coroutine resumption one) and the event loop's turns. Counts, not times:
    they hold on any machine, however loaded. Each process's is awaited (written at SIGUSR1)."""
    stats = []
    for index in range(len(pids)):
        path = profiles / f"{index}.prof"
        for _ in range(100):  # a process writes its counts at its next turn: 10 s at most
            if path.exists():
                stats.append(pstats.Stats(str(path)))
                break
            time.sleep(0.1)
    calls = turns = 0
    for each in stats:
        counted = each.stats  # type: ignore[attr-defined]
        for (_file, _line, name), (_primitive, total, *_rest) in counted.items():
            calls += total
            if name == "_run_once":
                turns += total
    return {"profiles": len(stats), "calls_per_step": round(calls / max(1, steps), 1),
            "loop_turns_per_step": round(turns / max(1, steps), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--ramp", type=float, default=20.0)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--step", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fsync", action="store_true",
                        help="PostgreSQL with fsync on (each COMMIT waits for the disk)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="N rounds, each every configuration in turn; the summary gives "
                             "each figure's median over the rounds, and the ratios' medians")
    parser.add_argument("--count-calls", action="store_true",
                        help="run every server under cProfile and print its Python calls and "
                             "loop turns a step (the CPU figures are then the profiled ones)")
    options = parser.parse_args(argv)
    rounds: list[list[dict[str, Any]]] = []
    common = (options.tables, options.ramp, options.window, options.step, options.seed)
    with postgres_cluster(fsync=options.fsync) as postgres, valkey_server() as valkey:
        for number in range(options.repeat):
            results = []
            with tempfile.TemporaryDirectory(prefix="sudden-death-cluster-load-") as folder:
                profiles = Path(folder) / "profiles" if options.count_calls else None
                if profiles is not None:
                    profiles.mkdir()
                with servers(1, lambda _i: ["--data", folder], profiles) as (url, pids):
                    result = measure(url, pids, *common, engines=lambda: 0.0,
                                     profiles=profiles)
                result.update(kind="one process, SQLite", processes=1, round=number + 1)
                results.append(result)
                print(json.dumps(result), flush=True)
            for count in options.processes:
                result = _cluster_run(postgres, valkey, count, number, options.fsync, common,
                                      options.count_calls)
                results.append(result)
                print(json.dumps(result), flush=True)
            rounds.append(results)
    _summary(rounds, options.tables)
    return 0 if all(result["errors"] == 0 for results in rounds for result in results) else 1


def _cluster_run(postgres: Any, valkey: Any, count: int, number: int, fsync: bool,
                 common: tuple[int, float, float, float, int],
                 count_calls: bool = False) -> dict[str, Any]:
    """One window of `count` processes on a fresh database of the cluster (with
    `count_calls`, each process profiled: `counted_calls`)."""
    database = f"cluster_{count}_{number}"
    with contextlib.closing(psycopg.connect(postgres.url, autocommit=True)) as connection:
        connection.execute(f"CREATE DATABASE {database}")
    where = postgres.url.rsplit("/", 1)[0] + "/" + database

    def args(index: int) -> list[str]:
        return ["--reuse-port", "--postgres", where, "--valkey", valkey.url,
                "--name", f"node{index}"]

    def engines() -> float:
        pid = valkey.pid
        valkey_s = cpu_ticks(pid) / os.sysconf("SC_CLK_TCK") if pid else 0.0
        return cluster_cpu_s(postgres) + valkey_s

    def commits() -> dict[str, int]:
        """The database's transactions, those that wrote (the next transaction id: reading
        it hands none out) and the log's flushes, so far."""
        with contextlib.closing(psycopg.connect(where, autocommit=True)) as reader:
            row = reader.execute(
                "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = %s),"
                " pg_snapshot_xmax(pg_current_snapshot())::text::bigint,"
                " (SELECT wal_sync FROM pg_stat_wal)", (database,)).fetchone()
        assert row is not None
        counts = {"commits": int(row[0] or 0), "write_commits": int(row[1]),
                  "valkey_commands": _valkey_commands(valkey.url)}
        if fsync:  # with fsync off nothing is flushed
            counts["wal_flushes"] = int(row[2])
        return counts

    with tempfile.TemporaryDirectory(prefix="sudden-death-profiles-") as folder:
        profiles = Path(folder) if count_calls else None
        with servers(count, args, profiles) as (url, pids):
            result = measure(url, pids, *common, engines=engines, commits=commits,
                             profiles=profiles)
    result.update(kind="cluster: PostgreSQL and Valkey", processes=count, fsync=fsync,
                  round=number + 1)
    return result


def _ratio(rounds: list[list[dict[str, Any]]], index: int, base: int) -> float:
    """The median over the rounds of configuration `index`'s CPU a step over `base`'s."""
    return statistics.median(results[index]["server_cpu_ms_per_step"]
                             / max(1e-9, results[base]["server_cpu_ms_per_step"])
                             for results in rounds)


def _summary(rounds: list[list[dict[str, Any]]], tables: int) -> None:
    """Each configuration's figures, as medians over the rounds (one round: its own), and
    its CPU a step against SQLite's and against one process's, each the median of the
    rounds' own ratios (a round's configurations ran one after the other, so each ratio
    compares runs minutes apart, not hours)."""
    print(f"\nsummary ({tables} tables, {len(rounds)} round(s), medians; the bots, servers and "
          "engines share 2 cores):")
    one = next((i for i, r in enumerate(rounds[0]) if i and r["processes"] == 1), None)
    for index, result in enumerate(rounds[0]):
        runs = [results[index] for results in rounds]

        def median(name: str, runs: list[dict[str, Any]] = runs) -> float:
            return round(statistics.median(run.get(name, 0) for run in runs), 3)

        cpu = [run["server_cpu_ms_per_step"] for run in runs]
        to_one = ("" if one is None or index == 0
                  else f" x{_ratio(rounds, index, one):.2f} one process")
        to_sqlite = _ratio(rounds, index, 0)
        trip = statistics.median(run["round_trip"].get("p50_ms", 0) for run in runs)
        print(f"  {result['kind']:>31} x{result['processes']}: {median('steps_per_s')} steps/s, "
              f"round trip p50 {trip} ms, {median('server_cpu_ms_per_step')} ms CPU a step "
              f"(runs {min(cpu)} to {max(cpu)}; x{to_sqlite:.2f} SQLite{to_one}), servers "
              f"{median('server_cpu_share'):.0%} CPU, {median('server_rss_mb_per_1000_tables')} "
              f"MB per 1,000 tables, engines {median('engines_cpu_share'):.0%} CPU, "
              f"{median('commits_per_step')} commits a step "
              f"({median('write_commits_per_step')} that wrote, "
              f"{median('wal_flushes_per_step')} log flushes), "
              f"{median('valkey_commands_per_step')} Valkey commands a step, "
              f"errors {sum(run['errors'] for run in runs)}"
              + (f", {median('calls_per_step')} Python calls and "
                 f"{median('loop_turns_per_step')} loop turns a step (profiled)"
                 if "calls_per_step" in result else ""))


if __name__ == "__main__":
    sys.exit(main())
