"""How many tables one table server process holds: steps per second and reveal latency under
load, with the bots in another process.

    python benchmarks/server_load.py [--tables 10 1000] [--ramp 30] [--window 30] [--step 2]
    python benchmarks/server_load.py --tables 100 --watchers 2   # 200 spectators, 100 games

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
- after the window, once every bot's line has closed: what one full collection in the server
  finds (`server_cycles_left`, cyclic garbage nothing else would free, since the server runs
  no full pass) and how long it stops the server (`server_full_pass_ms`, what a periodic
  sweep would cost).

Each count prints one JSON line; a summary compares each count's p99 with the first one's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import resource
import statistics
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

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


def server_process(pipe: Connection, per_address: int = 1_000_000) -> None:
    """The server, timing every step it plays; answers the bench's "window" (start timing),
    "samples" (the step latencies since, and stop timing) and "report" (everything, then
    stop). `per_address`: its limit on lines from one address (the bots share one here)."""
    from sudden_death.server.collector import settle, sweep_needed
    from sudden_death.server.limits import Limits
    from sudden_death.server.service import PLAYED, TableService, address, start, stop

    class TimedService(TableService):
        timing = False
        samples: ClassVar[list[float]] = []  # one service in this process

        def __post_init__(self) -> None:
            """Every seat's message timed, through the seats role's one entry for them."""
            super().__post_init__()
            receive = self.seats.receive

            def timed(code: str, team: Any, frame: str | bytes, connection: Any) -> str:
                started = time.perf_counter()
                table = self.tables.get(code)
                before = table.step if table is not None else -1
                heard = receive(code, team, frame, connection)
                if self.timing and heard == PLAYED and table is not None and \
                        table.step != before:
                    self.samples.append(time.perf_counter() - started)
                return heard

            self.seats.receive = timed  # type: ignore[method-assign]

    async def main() -> None:
        service = TimedService(limits=Limits.shared(per_address))
        running = await start(service, "127.0.0.1", 0)
        # the collector as `python -m sudden_death.server` sets it
        settle(asyncio.get_running_loop(), sweep_needed())
        watch = LagWatch()
        watching = asyncio.ensure_future(watch.run())
        pipe.send(address(running, tls=False))
        loop = asyncio.get_running_loop()
        cpu = wall = used = 0.0
        rss = peak = 0
        while True:
            ask = await loop.run_in_executor(None, pipe.recv)
            if ask == "window":
                service.timing, cpu, wall = True, _cpu_s(), time.perf_counter()
                watch.on = True
            elif ask == "stop":  # the window is over: what follows (the bots' lines all
                # closing at once) is not play, and is not measured
                service.timing = watch.on = False
                used, wall = _cpu_s() - cpu, time.perf_counter() - wall
                rss, peak = _memory_kib()  # at the end of the window, as the bots play
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
                started = time.perf_counter()
                cycles_left = gc.collect()
                full_pass_ms = (time.perf_counter() - started) * 1000
                pipe.send({"samples": service.samples, "rss_kib": rss, "peak_kib": peak,
                           "watch": watch.report(),
                           "cpu_share": used / max(1e-9, wall),
                           "tables": len(service.tables),
                           "connections": len(service.seats.connections),
                           "cycles_left": cycles_left,
                           "full_pass_ms": round(full_pass_ms, 1)})
                await stop(running)
                return

    asyncio.run(main())


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
        self.gc_pauses: dict[int, list[float]] = {gen: [] for gen in self.GENERATIONS}
        self._gc_started = 0.0
        self.on = False

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self.on:
            pause = time.perf_counter() - self._gc_started
            self.gc_pauses.setdefault(info.get("generation", -1), []).append(pause)

    async def run(self) -> None:
        gc.callbacks.append(self._gc)
        try:
            while True:
                asked = time.perf_counter()
                await asyncio.sleep(self.TICK_S)
                if self.on:
                    self.lags.append(max(0.0, time.perf_counter() - asked - self.TICK_S))
        finally:
            gc.callbacks.remove(self._gc)

    def report(self) -> dict[str, Any]:
        full = self.gc_pauses.get(2, [])
        every = [pause for pauses in self.gc_pauses.values() for pause in pauses]
        return {"loop_lag": percentiles(self.lags),
                "gc": {str(gen): {"passes": len(pauses),
                                  "max_ms": round(max(pauses, default=0.0) * 1000, 2),
                                  "total_ms": round(sum(pauses) * 1000, 1)}
                       for gen, pauses in sorted(self.gc_pauses.items())},
                "longest_gc_ms": round(max(every, default=0.0) * 1000, 2),
                "full_gc_passes": len(full),
                "longest_full_gc_ms": round(max(full, default=0.0) * 1000, 1)}


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max, in milliseconds."""
    if len(values) < 2:
        return {"n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"n": len(values), "p50_ms": round(cuts[49] * 1000, 2),
            "p95_ms": round(cuts[94] * 1000, 2), "p99_ms": round(cuts[98] * 1000, 2),
            "max_ms": round(max(values) * 1000, 2)}


def measure(tables: int, ramp_s: float, window_s: float, step_s: float,
            seed: int, watchers: int = 0) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=server_process, args=(child,), daemon=True)
    process.start()
    url = parent.recv()
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
        steps, commits = stats.steps, stats.commits
        trips, started = len(stats.round_trips), time.perf_counter()
        await asyncio.sleep(window_s)
        elapsed = time.perf_counter() - started
        window = {"steps": stats.steps - steps, "commits": stats.commits - commits,
                  "trips": stats.round_trips[trips:],
                  "seconds": elapsed, "connected": stats.connected}
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
    return {
        "tables": tables,
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
        "server_full_pass_ms": served["full_pass_ms"],
        "bot_loop": watch.report(),
        "ramp_s": ramp_s, "window_s": window_s, "step_s": step_s,
    }


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
    options = parser.parse_args(argv)
    results = []
    for tables in options.tables:
        result = measure(tables, options.ramp, options.window, options.step,
                         options.seed + tables, options.watchers)
        results.append(result)
        print(json.dumps(result), flush=True)
    base = results[0]
    print(f"\nsummary (ratios against {base['tables']} tables):")
    for result in results:
        line = [f"{result['tables']:>5} tables", f"{result['steps_per_s']:>7} steps/s"]
        for name in ("server_latency", "round_trip"):
            figures, first = result[name], base[name]
            if "p99_ms" in figures and "p99_ms" in first:
                ratio = figures["p99_ms"] / max(1e-9, first["p99_ms"])
                line.append(f"{name} p50 {figures['p50_ms']} p95 {figures['p95_ms']} "
                            f"p99 {figures['p99_ms']} max {figures['max_ms']} ms "
                            f"(p99 x{ratio:.2f})")
        line.append(f"rss {result['server_rss_mb']} MB, cpu {result['server_cpu_share']:.0%}, "
                    f"errors {result['errors']}")
        for name in ("server_loop", "bot_loop"):
            lag = result[name]["loop_lag"]
            if "p99_ms" in lag:
                passes = ", ".join(f"gen {gen}: {each['passes']} x max {each['max_ms']} ms"
                                   for gen, each in result[name]["gc"].items())
                line.append(f"{name} lag p50 {lag['p50_ms']} p99 {lag['p99_ms']} "
                            f"max {lag['max_ms']} ms, GC {passes} "
                            f"(longest {result[name]['longest_gc_ms']} ms)")
        print("  " + " | ".join(line))
    return 0 if all(result["errors"] == 0 for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
