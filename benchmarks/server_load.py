"""How many tables one table server process holds: steps per second and reveal latency under
load, with the bots in another process.

    python benchmarks/server_load.py [--tables 10 1000] [--ramp 30] [--window 30] [--step 2]
    python benchmarks/server_load.py --tables 100 --watchers 2   # 200 spectators, 100 games
    python benchmarks/server_load.py --tables 1000 --postgres     # SQLite, then PostgreSQL
    python benchmarks/server_load.py --tables 500 --processes 1 2 4  # a cluster (cluster_load.py)

For each count of tables: one server process (a `TableService` as `python -m
sudden_death.server` runs it, in a process of its own) and, in this process, that many bot
tables (tests/table_bots.py: two WebSocket seats each, random legal actions at every step).
Tables start evenly over `--ramp` seconds; then for `--window` seconds everything is measured.
A seat thinks a random 0 to `--step` seconds before each of its commits (1 s on average), so
a card step, which both seats commit one after the other, takes about `--step` seconds.

Measured, in the window only:
- server latency: inside the server, from a step's second commit being handed to the
  service by websockets to both seats' updates (and every spectator's copy, with
  `--watchers N` spectators a table) queued on their connections (the frames are
  written without waiting for the clients). It leaves out the time a frame waited in the
  kernel and the event loop before websockets decoded it; under load that wait is real, and
  the bots' round trip below includes it.
- round trip: in the bot process, from the second commit sent to both updates received. It
  includes the bot process's own lag, which on this 2-core machine shares the CPU with the
  server: an upper bound on what a player's game would see on loopback.
- steps per second, commits per seat per second, errors (any refusal, stray message or early
  word a bot hears), the server's resident memory (now and its peak) and its CPU time over
  the window as a share of one core.
- each process's event-loop lag (how late a 10 ms timer fires: what any frame waits before
  it is read or sent; p50, p95, p99 and max) and its garbage collector's passes, each
  generation apart (count, longest and total pause): every pass stops the process. The
  server's lag plus its latency is the time from a commit arriving to the reveals sent.
  `loop_lag_own`: each lag less the time the loop's thread waited meanwhile, ready, for a
  processor (the kernel's run-queue delay): the part its own work made, not the machine's
  other processes (on this 2-core machine, the bots). `loop_lag_work`: that less the
  collector's pauses meanwhile: the part the loop's callbacks made. `--bots-nice 10` runs the
  bots below the server, as players' games on their own machines would be.
- after the window, once every bot's line has closed: what one full collection in the server
  finds (`server_cycles_left`, cyclic garbage nothing else would free, since the server runs
  no full pass) and how long it stops the server (`server_full_pass_ms`, what a periodic
  sweep would cost).

Where the tables are kept (`store` in each line):
- "none" (the default): the server keeps nothing, as a game's own server at home; what the
  figures above have always measured.
- "sqlite" (`--sqlite`): a `TableStore` in a temporary folder, as `--data DIR` keeps it (every
  step committed before a seat hears it; synchronous=NORMAL in WAL mode, as the server runs it:
  no fsync at a commit, so durable past a crash of the process, not of the machine).
- "postgres" (`--postgres`, which measures "sqlite" first at each count, then this, so one run
  puts them side by side): `PgTableStore` on a private cluster this benchmark starts
  (tests/postgres_server.py, Debian's PostgreSQL binaries, loopback TCP), with a fresh
  database for each count; fsync on unless `--pg-fsync off` (on is an operator's setting: a
  commit is on the disk before it returns; the line says which, `postgres_fsync`). Its
  default settings otherwise (shared_buffers 128 MB, synchronous_commit on), and the store's
  own pool of 8 connections. The players' accounts stay in memory in every case: the bots do
  not sign in.

With a store, added to each line:
- `server_latency` and `round_trip` as above, now including the step's write: the updates
  are queued only once the store has committed the step (with PostgreSQL, once the awaited
  transaction returns, and after the table's earlier write, the first seat's held choice).
- `store_saves`: saves completed in the window (one or two a step: the first seat's held
  choice, when both seats act, then the step); `store_save`: each save's time in
  milliseconds (p50 to max), from the server's call to its commit: for SQLite the call
  itself, run on the event loop; for PostgreSQL the records taken on the loop plus the
  awaited transaction (waiting for a pooled connection, the round trips, the commit's flush).
- `store_ms_per_step`: the saves' times summed, over the steps the server played in the
  window.
- `store_busy_share`: the saves' times summed, over the window's wall time. For SQLite it is
  the share of the server's event loop spent writing (nothing else runs meanwhile). For
  PostgreSQL it is the mean number of saves in flight, not a share of any CPU: the loop
  serves other tables while they wait, and it may exceed 1 (up to 8, the pool's size, plus
  those waiting for a connection). It counts the time a save waits for a connection or for
  PostgreSQL's CPU, which the bots and the server share on this machine.
- `db_cpu_share` (PostgreSQL only): the CPU time (user and system, from /proc/PID/stat) of
  the cluster's processes over the window, as a share of one core: the postmaster, every
  backend, the WAL writer, checkpointer and autovacuum (a backend that exits during the
  window is counted through the postmaster's reaped children, its time before the window
  included). The I/O waits of an fsync are not CPU and are not in it, only in the saves'
  times. SQLite has no such figure: its work is the server process's own, in
  `server_cpu_share` (with PostgreSQL, `server_cpu_share` is the server without the database).

Each count prints one JSON line (two with `--postgres`); a summary compares each count's p99
with the first one's of the same store.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from measures import cluster_cpu_s, percentiles  # noqa: E402
from table_bots import Stats, play_tables  # noqa: E402


def _memory_kib() -> tuple[int, int]:
    """This process's resident memory now and at its peak (KiB), from /proc."""
    fields = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class TimedStore:
    """A tables store whose saves are timed (`saves`, seconds each) while `on`: the server's
    call to the store's commit, the awaited part included. Everything else is passed on."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.on = False
        self.saves: list[float] = []

    def save(self, table: Any, owner: str | None = None) -> Awaitable[None] | None:
        started = time.perf_counter()
        written = self.store.save(table, owner)
        taken = time.perf_counter() - started
        if written is None:
            if self.on:
                self.saves.append(taken)
            return None
        return self._awaited(written, taken)

    async def _awaited(self, written: Awaitable[None], taken: float) -> None:
        started = time.perf_counter()
        await written
        if self.on:
            self.saves.append(taken + time.perf_counter() - started)

    def defer(self, table: Any, owner: str | None = None) -> Awaitable[None] | None:
        """A held choice, written when the store sees fit: nobody waits on it, so untimed."""
        return self.store.defer(table, owner)

    def open_tables(self) -> Any:
        return self.store.open_tables()

    def ended(self, code: str) -> Any:
        return self.store.ended(code)

    def claim(self, code: str, owner: str) -> Any:
        return self.store.claim(code, owner)

    def release(self, code: str, owner: str) -> Any:
        return self.store.release(code, owner)

    def close(self) -> Any:
        return self.store.close()


async def _opened_store(kind: str, where: str) -> TimedStore | None:
    """The store the server keeps its tables in: none, SQLite in the folder `where`, or
    PostgreSQL at the URL `where` (imported only then: psycopg is the server extra's)."""
    if kind == "none":
        return None
    if kind == "sqlite":
        from sudden_death.server.stores.sqlite_tables import TableStore
        return TimedStore(TableStore(Path(where)))
    from sudden_death.server.stores.postgres_tables import PgTableStore
    return TimedStore(await PgTableStore.open(where))


@dataclass
class _Step:
    """One seat's message being timed: when it reached the service, when its updates were
    queued (None: not yet), and whether it played a step (known once `receive` returns)."""

    started: float
    told: float | None = None
    counts: bool = False
    taken: bool = False


def server_process(pipe: Connection, per_address: int = 1_000_000, store_kind: str = "none",
                   where: str = "") -> None:
    """The server, timing every step it plays; answers the bench's "window" (start timing),
    "samples" (the step latencies since, and stop timing) and "report" (everything, then
    stop). `per_address`: its limit on lines from one address (the bots share one here).
    `store_kind` and `where`: where it keeps its tables (_opened_store)."""
    from sudden_death.server.lines.limits import Limits
    from sudden_death.server.operations.collector import settle, sweep_needed
    from sudden_death.server.service import PLAYED, TableService, address, start, stop

    class TimedService(TableService):
        timing = False
        samples: ClassVar[list[float]] = []  # one service in this process
        steps: ClassVar[list[int]] = [0]  # steps played while timing
        timed: _Step | None = None  # the seat's message being handed over now

        def __post_init__(self) -> None:
            """Every seat's message timed, through the seats role's one entry for them, to
            its updates queued: with a store, they wait for the step's write (keeping.py),
            so the time ends in what the keeper calls once the step is kept."""
            super().__post_init__()
            receive, keep = self.seats.receive, self.seats.keeper.keep

            def take(timed: _Step) -> None:
                if timed.counts and timed.told is not None and not timed.taken:
                    timed.taken = True
                    self.samples.append(timed.told - timed.started)

            def timed_keep(table: Any, tell: Callable[[], None] = lambda: None) -> None:
                timed = self.timed
                if timed is None:
                    keep(table, tell)
                    return

                def told() -> None:
                    tell()
                    timed.told = time.perf_counter()
                    take(timed)

                keep(table, told)

            def timed_receive(code: str, team: Any, frame: str | bytes,
                              connection: Any) -> str:
                timed = _Step(time.perf_counter()) if self.timing else None
                table = self.tables.get(code)
                before = table.step if table is not None else -1
                self.timed = timed
                try:
                    heard = receive(code, team, frame, connection)
                finally:
                    self.timed = None
                if timed is not None and heard == PLAYED and table is not None and \
                        table.step != before:
                    self.steps[0] += 1
                    timed.counts = True
                    take(timed)  # the embedded store: told already, inside `receive`
                return heard

            self.seats.receive = timed_receive  # type: ignore[method-assign]
            self.seats.keeper.keep = timed_keep  # type: ignore[method-assign]

    async def main() -> None:
        store = await _opened_store(store_kind, where)
        service = TimedService(limits=Limits.shared(per_address), store=store)
        running = await start(service, "127.0.0.1", 0)
        # the collector as `python -m sudden_death.server` sets it
        settle(asyncio.get_running_loop(), sweep_needed())
        watch = LagWatch()
        watching = asyncio.ensure_future(watch.run())
        pipe.send(address(running, tls=False))
        loop = asyncio.get_running_loop()
        cpu = wall = used = 0.0
        rss = peak = steps = 0
        saves: list[float] = []
        while True:
            ask = await loop.run_in_executor(None, pipe.recv)
            if ask == "window":
                service.timing, cpu, wall = True, _cpu_s(), time.perf_counter()
                watch.on = True
                if store is not None:
                    store.on = True
            elif ask == "stop":  # the window is over: what follows (the bots' lines all
                # closing at once) is not play, and is not measured
                service.timing = watch.on = False
                used, wall = _cpu_s() - cpu, time.perf_counter() - wall
                rss, peak = _memory_kib()  # at the end of the window, as the bots play
                steps = service.steps[0]
                if store is not None:
                    store.on = False
                    saves = list(store.saves)
                pipe.send("stopped")
            elif ask == "samples":
                pipe.send(list(service.samples))
                service.samples.clear()
                service.timing = False
            elif ask == "report":
                watching.cancel()
                # Every bot's line is closed: what a full collection would still find now
                # is cyclic garbage the server made, which without a sweep nothing frees.
                await _lines_gone(service)
                gc.set_debug(gc.DEBUG_SAVEALL)  # what it finds kept, to be named
                started = time.perf_counter()
                cycles_left = gc.collect()
                full_pass_ms = (time.perf_counter() - started) * 1000
                gc.set_debug(0)
                cycle_kinds = Counter(type(each).__qualname__ for each in gc.garbage)
                cycle_kinds.update(_raised_in(gc.garbage))
                gc.garbage.clear()
                pipe.send({"samples": service.samples, "rss_kib": rss, "peak_kib": peak,
                           "watch": watch.report(),
                           "cpu_share": used / max(1e-9, wall),
                           "wall_s": wall, "steps": steps, "saves": saves,
                           "tables": len(service.tables),
                           "connections": len(service.seats.connections),
                           "cycles_left": cycles_left,
                           "cycle_kinds": dict(cycle_kinds.most_common(30)),
                           "full_pass_ms": round(full_pass_ms, 1)})
                await stop(running)
                await service.settled()  # the last writes, before the store closes
                closing = service.close()
                if closing is not None:
                    await closing
                return

    asyncio.run(main())


def _raised_in(found: list[Any]) -> Counter[str]:
    """Where the exceptions among `found` were raised (the innermost function of each kept
    traceback): what made a cycle of an exception, its traceback and a frame."""
    where: Counter[str] = Counter()
    for each in found:
        if issubclass(type(each), BaseException) and each.__traceback__ is not None:
            tb = each.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            code = tb.tb_frame.f_code
            where[f"{type(each).__name__} in {code.co_name} ({Path(code.co_filename).name})"] += 1
    return where


async def _lines_gone(service: Any, patience_s: float = 30.0) -> None:
    """Wait until the server has seen every bot's line close (or `patience_s`), and a little
    more for the closings' last callbacks."""
    ends = time.monotonic() + patience_s
    while service.seats.connections and time.monotonic() < ends:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)


class LagWatch:
    """How late an event loop runs a 10 ms timer: the time any ready work waits for the loop
    (a frame waiting to be read, a reveal waiting to be sent). Also times every pass of the
    garbage collector, each generation apart: any pass stops the whole process, a young one
    too (its pause grows with what the survivors' generation holds)."""

    TICK_S = 0.01
    GENERATIONS = (0, 1, 2)

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.own_lags: list[float] = []
        self.work_lags: list[float] = []  # own lags less the collector's pauses
        self._gc_total = 0.0
        self.gc_pauses: dict[int, list[float]] = {gen: [] for gen in self.GENERATIONS}
        self._gc_started = 0.0
        self.on = False

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_started
            self._gc_total += pause
            if self.on:
                self.gc_pauses.setdefault(info.get("generation", -1), []).append(pause)

    async def run(self) -> None:
        gc.callbacks.append(self._gc)
        try:
            while True:
                asked, waited, collected = time.perf_counter(), _run_delay_s(), self._gc_total
                await asyncio.sleep(self.TICK_S)
                if self.on:
                    lag = max(0.0, time.perf_counter() - asked - self.TICK_S)
                    self.lags.append(lag)
                    own = max(0.0, lag - (_run_delay_s() - waited))
                    self.own_lags.append(own)
                    self.work_lags.append(max(0.0, own - (self._gc_total - collected)))
        finally:
            gc.callbacks.remove(self._gc)

    def report(self) -> dict[str, Any]:
        full = self.gc_pauses.get(2, [])
        every = [pause for pauses in self.gc_pauses.values() for pause in pauses]
        return {"loop_lag": percentiles(self.lags),
                "loop_lag_own": percentiles(self.own_lags),
                "loop_lag_work": percentiles(self.work_lags),
                "gc": {str(gen): {"passes": len(pauses),
                                  "max_ms": round(max(pauses, default=0.0) * 1000, 2),
                                  "total_ms": round(sum(pauses) * 1000, 1)}
                       for gen, pauses in sorted(self.gc_pauses.items())},
                "longest_gc_ms": round(max(every, default=0.0) * 1000, 2),
                "full_gc_passes": len(full),
                "longest_full_gc_ms": round(max(full, default=0.0) * 1000, 1)}


def _run_delay_s() -> float:
    """Seconds this thread has waited, ready to run, for a processor (the kernel's run-queue
    delay, /proc/thread-self/schedstat's second field; 0 where there is none): a timer that
    fires late while its thread waited for a core was delayed by the machine, not the loop."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def measure(tables: int, ramp_s: float, window_s: float, step_s: float,
            seed: int, watchers: int = 0, store: str = "none", where: str = "",
            database_cpu_s: Callable[[], float] | None = None,
            bots_nice: int = 0) -> dict[str, Any]:
    """One count of tables on one server process keeping its tables in `store` at `where`
    (server_process); `database_cpu_s`: the database's processes' CPU seconds so far, read
    at the window's ends (None: the store is in the server process, or there is none)."""
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=server_process, args=(child, 1_000_000, store, where),
                              daemon=True)
    process.start()
    url = parent.recv()
    if bots_nice:
        os.setpriority(os.PRIO_PROCESS, 0, bots_nice)  # this process only: the server's stays
    stats = Stats()

    watch = LagWatch()

    async def bots() -> dict[str, Any]:
        watching = asyncio.ensure_future(watch.run())
        playing = asyncio.ensure_future(play_tables(
            url, tables, seed, games=10**6, think=lambda rng: rng.uniform(0.0, step_s),
            ramp_s=ramp_s, stats=stats, watchers=watchers))
        await asyncio.sleep(ramp_s + min(5.0, ramp_s / 6))  # every table on, a little settled
        parent.send("window")
        watch.on = True
        db_cpu = database_cpu_s() if database_cpu_s is not None else 0.0
        steps, commits = stats.steps, stats.commits
        trips, started = len(stats.round_trips), time.perf_counter()
        await asyncio.sleep(window_s)
        elapsed = time.perf_counter() - started
        if database_cpu_s is not None:
            db_cpu = database_cpu_s() - db_cpu
        window = {"steps": stats.steps - steps, "commits": stats.commits - commits,
                  "trips": stats.round_trips[trips:],
                  "seconds": elapsed, "connected": stats.connected, "db_cpu_s": db_cpu}
        watch.on = False
        parent.send("stop")  # the server stops measuring before the bots' lines close
        await asyncio.get_running_loop().run_in_executor(None, parent.recv)
        playing.cancel()
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
        return window

    window = asyncio.run(bots())
    parent.send("report")
    served = parent.recv()
    process.join(30)
    errors = [error for error in stats.errors if "CancelledError" not in error]
    result: dict[str, Any] = {
        "tables": tables,
        "store": store,
        "seats_connected": window["connected"],
        "spectators": stats.watching,
        "spectator_messages": stats.watched,
        "steps_per_s": round(window["steps"] / window["seconds"], 1),
        "commits_per_seat_per_s": round(
            window["commits"] / max(1, window["connected"]) / window["seconds"], 3),
        "server_latency": percentiles(served["samples"]),
        "round_trip": percentiles(window["trips"]),
        "errors": len(errors),
        "first_errors": errors[:3],
        "server_rss_mb": round(served["rss_kib"] / 1024, 1),
        "server_peak_rss_mb": round(served["peak_kib"] / 1024, 1),
        "server_cpu_share": round(served["cpu_share"], 3),
        "server_loop": served["watch"],
        "server_cycles_left": served["cycles_left"],
        "server_cycle_kinds": served["cycle_kinds"],
        "server_full_pass_ms": served["full_pass_ms"],
        "bot_loop": watch.report(),
        "ramp_s": ramp_s, "window_s": window_s, "step_s": step_s, "bots_nice": bots_nice,
    }
    if store != "none":
        saves, wall = served["saves"], max(1e-9, served["wall_s"])
        result.update({
            "store_saves": len(saves),
            "store_save": percentiles(saves),
            "store_ms_per_step": round(sum(saves) * 1000 / max(1, served["steps"]), 3),
            "store_busy_share": round(sum(saves) / wall, 3),
        })
    if database_cpu_s is not None:
        result["db_cpu_share"] = round(window["db_cpu_s"] / window["seconds"], 3)
    return result


@contextlib.contextmanager
def postgres_databases(fsync: bool) -> Iterator[tuple[Callable[[str], str], Callable[[], float],
                                                      str, Path]]:
    """A private PostgreSQL cluster for the run (tests/postgres_server.py), stopped and removed
    after: yields a function that makes a fresh database and returns its URL (each count
    starts empty, with no earlier count's rows in its indexes), one that reads the cluster's
    CPU seconds, the server's version, and the cluster's folder (said, so a caller can check
    that this cluster, and no other on the machine, is gone after)."""
    import psycopg
    from postgres_server import postgres_cluster

    with postgres_cluster(fsync=fsync) as cluster:
        with psycopg.connect(cluster.url, autocommit=True) as connection:
            row = connection.execute("SHOW server_version").fetchone()
        version = str(row[0]) if row else "?"
        made: list[str] = []

        def fresh(name: str) -> str:
            name = f"{name}_{len(made)}"
            with psycopg.connect(cluster.url, autocommit=True) as connection:
                connection.execute(f"CREATE DATABASE {name}")
            made.append(name)
            return cluster.url.rsplit("/", 1)[0] + "/" + name

        yield fresh, lambda: cluster_cpu_s(cluster), version, cluster.folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds to start every table")
    parser.add_argument("--window", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--step", type=float, default=2.0,
                        help="a seat thinks 0 to this many seconds before a commit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--watchers", type=int, default=0,
                        help="spectators watching each table (issue 49: 2 with 100 tables)")
    parser.add_argument("--sqlite", action="store_true",
                        help="the server keeps its tables in SQLite in a temporary folder, "
                             "as --data does (default: it keeps nothing)")
    parser.add_argument("--postgres", action="store_true",
                        help="each count measured twice: on SQLite (as --sqlite), then on "
                             "PostgreSQL, a private cluster this run starts (needs Debian's "
                             "postgresql package and psycopg, the server extra)")
    parser.add_argument("--pg-fsync", choices=("on", "off"), default="on",
                        help="the private cluster's fsync (default: on, as an operator runs it)")
    parser.add_argument("--bots-nice", type=int, default=0, metavar="N",
                        help="the bots' process runs at this niceness (the server's stays 0): "
                             "players' games run on their own machines, not on the server's "
                             "cores; 10 lets the server have a core first when both want one")
    parser.add_argument("--processes", type=int, nargs="+", default=None,
                        help="a cluster instead: that many processes on one port with a "
                             "private PostgreSQL and Valkey, against one on SQLite, at the "
                             "first --tables count (benchmarks/cluster_load.py)")
    options = parser.parse_args(argv)
    if options.processes:
        from cluster_load import main as cluster_main  # beside this file

        return cluster_main(["--processes", *map(str, options.processes),
                             "--tables", str(options.tables[0]), "--ramp", str(options.ramp),
                             "--window", str(options.window), "--step", str(options.step),
                             "--seed", str(options.seed)])
    stores = ["sqlite", "postgres"] if options.postgres else \
        ["sqlite"] if options.sqlite else ["none"]
    results = []
    with contextlib.ExitStack() as stack:
        fresh: Callable[[str], str] | None = None
        database_cpu_s: Callable[[], float] | None = None
        if options.postgres:
            fresh, database_cpu_s, version, folder = stack.enter_context(
                postgres_databases(options.pg_fsync == "on"))
            print(f"postgres: a private PostgreSQL {version} cluster on loopback, "
                  f"fsync {options.pg_fsync}, in {folder}", flush=True)
        for tables in options.tables:
            for store in stores:
                where = ""
                if store == "sqlite":
                    where = stack.enter_context(tempfile.TemporaryDirectory(
                        prefix="sudden-death-load-"))
                elif store == "postgres" and fresh is not None:
                    where = fresh(f"load_{tables}")
                result = measure(tables, options.ramp, options.window, options.step,
                                 options.seed + tables, options.watchers, store, where,
                                 database_cpu_s if store == "postgres" else None,
                                 options.bots_nice)
                if store == "postgres":
                    result["postgres_fsync"] = options.pg_fsync == "on"
                results.append(result)
                print(json.dumps(result), flush=True)
    print(f"\nsummary (ratios against {results[0]['tables']} tables, the same store's):")
    for result in results:
        base = next(each for each in results if each["store"] == result["store"])
        line = [f"{result['tables']:>5} tables", f"{result['store']:>8}",
                f"{result['steps_per_s']:>7} steps/s"]
        for name in ("server_latency", "round_trip"):
            figures, first = result[name], base[name]
            if "p99_ms" in figures and "p99_ms" in first:
                ratio = figures["p99_ms"] / max(1e-9, first["p99_ms"])
                line.append(f"{name} p50 {figures['p50_ms']} p95 {figures['p95_ms']} "
                            f"p99 {figures['p99_ms']} max {figures['max_ms']} ms "
                            f"(p99 x{ratio:.2f})")
        line.append(f"rss {result['server_rss_mb']} MB, cpu {result['server_cpu_share']:.0%}, "
                    f"errors {result['errors']}")
        if "store_saves" in result:
            saved = result["store_save"]
            line.append(f"store {result['store_saves']} saves, p99 "
                        f"{saved.get('p99_ms', '-')} ms, {result['store_ms_per_step']} ms/step, "
                        f"busy {result['store_busy_share']}")
        if "db_cpu_share" in result:
            line.append(f"database cpu {result['db_cpu_share']:.0%} (fsync "
                        f"{'on' if result['postgres_fsync'] else 'off'})")
        for name in ("server_loop", "bot_loop"):
            lag = result[name]["loop_lag"]
            if "p99_ms" in lag:
                passes = ", ".join(f"gen {gen}: {each['passes']} x max {each['max_ms']} ms"
                                   for gen, each in result[name]["gc"].items())
                own = result[name]["loop_lag_own"]
                line.append(f"{name} lag p50 {lag['p50_ms']} p99 {lag['p99_ms']} "
                            f"max {lag['max_ms']} ms (its own work: p99 "
                            f"{own.get('p99_ms', '-')} max {own.get('max_ms', '-')} ms; "
                            f"less the collector: p99 "
                            f"{result[name]['loop_lag_work'].get('p99_ms', '-')} ms), "
                            f"GC {passes} "
                            f"(longest {result[name]['longest_gc_ms']} ms)")
        print("  " + " | ".join(line))
    return 0 if all(result["errors"] == 0 for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
