"""A server process lost mid-game (issue 63), or stopped cleanly (issue 70): how long its tables
take to come back, and whether every game ends as it would have.

    python benchmarks/node_loss.py [--stop kill|term] [--tables 100] [--processes 3]
                                   [--step 0.05] [--seed 1]

Two runs on a private PostgreSQL and Valkey each (fresh ones per run), with N server
processes on ports of their own (`--postgres URL --valkey URL --seed S+i`): table t is hosted
on process t mod N and its guest joins through process t+1 mod N (relayed), the tables sat
one by one so each process gives its tables the same dice in both runs; then every table
plays one game at once (tests/table_bots.py: random legal actions from the table's own seed,
each seat thinking 0 to `--step` seconds). The twin run plays on; the other SIGKILLs process
0 once the tables have played a third of their twin's steps (in all: most games are
under way), and every seat whose line
dropped comes back by itself through the other processes (trying each in turn, as a game
does after a lost line), where the table is taken over once the lost process's lease has run
out (4 s).

`--stop term` is a rolling restart instead (issue 70): process i is sent SIGTERM once the
tables have played (i + 1) / (N + 2) of their twin's steps, hands its tables over
(server/operations/draining.py) and exits; it is started again on its port at once, and the next one
is stopped at the next mark. Every process's stderr is kept in a file of its own (named in
the output), and a traceback, a task destroyed while pending or a pool used once closed in
any of them fails the run (exit 1), naming the file and line.

Printed: the take-over time, from each kill or SIGTERM to each dropped table's next update
heard (p50 and max over the tables, and the median table's), with the machine's load
average (1 min) at the start and the end; the SIGTERMed processes' exit times; how many
tables lost a line; and, table by table, whether every state either run heard at a step is
the same and the game ended at the same step with the same state (`matched`). Where it could
mislead: loopback only, the bots and every process on this machine's 2 cores; after a kill
the take-over time is mostly the lease (4 s after its last renewal, so 3 to 4 s after a
kill) plus the seats' retry pace (0.2 s), not the work of taking over; after a SIGTERM there
is no lease to wait out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cluster_node import Node
from postgres_server import postgres_cluster
from table_bots import BotTable, Stats
from table_driver import free_port
from valkey_server import valkey_server

PER_ADDRESS = "1000000"  # every bot comes from 127.0.0.1
COMEBACK_S = 60.0


@contextlib.contextmanager
def servers(count: int, postgres: str, valkey: str, seed: int, logs: Path,
            run: str) -> Iterator[list[Node]]:
    """`count` server processes of one cluster, each on a free port it keeps across a
    restart, its stderr in `logs`/RUN-nodeI.log; stopped with SIGTERM at the end."""
    with contextlib.ExitStack() as stack:
        nodes = [stack.enter_context(Node(
            f"node{index}", free_port(),
            ("--per-address", PER_ADDRESS, "--postgres", postgres, "--valkey", valkey,
             "--seed", str(seed + index * 100_000)), logs / f"{run}-node{index}.log"))
            for index in range(count)]
        try:
            yield nodes
        finally:
            for node in nodes:
                if node.alive():
                    node.terminate()


def one_run(options: argparse.Namespace, stop: str | None, logs: Path) -> dict[str, Any]:
    """One run; with `stop`, process 0 is SIGKILLed a third of the way through ("kill"), or
    every process is SIGTERMed and restarted in turn ("term"; see the docstring)."""
    with postgres_cluster() as postgres, valkey_server() as valkey:
        with contextlib.closing(psycopg.connect(postgres.url, autocommit=True)) as connection:
            connection.execute("CREATE DATABASE node_loss")
        where = postgres.url.rsplit("/", 1)[0] + "/node_loss"
        with servers(options.processes, where, valkey.url, options.seed, logs,
                     stop or "twin") as nodes:
            result = asyncio.run(play(options, nodes, stop))
        result["faults"] = [fault for node in nodes for fault in node.faults()]
        return result


async def stopped(options: argparse.Namespace, nodes: list[Node], stop: str | None,
                  stats: Stats, playing: asyncio.Future[Any]) -> list[dict[str, Any]]:
    """The stops of a run, as they came: when (perf_counter), which process, and for a
    SIGTERM its exit code and how long it took to exit."""
    if stop is None:
        return []
    marks = [options.kill_after] if stop == "kill" else [
        options.twin_steps * (index + 1) // (len(nodes) + 2) for index in range(len(nodes))]
    stops: list[dict[str, Any]] = []
    for node, mark in zip(nodes, marks, strict=False):
        while stats.steps < mark and not playing.done():
            await asyncio.sleep(0.01)
        at = time.perf_counter()
        if stop == "kill":
            await asyncio.to_thread(node.kill)
            stops.append({"at": at, "node": node.name})
            continue
        code, took = await asyncio.to_thread(node.terminate)
        stops.append({"at": at, "node": node.name, "exit": code, "exit_s": round(took, 2)})
        await asyncio.to_thread(node.start)
    return stops


async def play(options: argparse.Namespace, nodes: list[Node],
               stop: str | None) -> dict[str, Any]:
    urls = [node.url for node in nodes]
    stats, count = Stats(), len(urls)
    master = random.Random(options.seed)
    bots = []
    for number in range(options.tables):
        host, guest = urls[number % count], urls[(number + 1) % count]
        bots.append(BotTable(host, random.Random(master.randrange(2**32)), stats,
                             think=lambda rng: rng.uniform(0.0, options.step),
                             comeback_s=COMEBACK_S, guest_url=guest,
                             comeback_urls=urls))
    for bot in bots:  # one by one: each process's tables get their dice in this order
        await bot.sit()
    playing = asyncio.ensure_future(asyncio.gather(*(bot.run() for bot in bots)))
    stops = await stopped(options, nodes, stop, stats, playing)
    await playing
    return {"bots": bots, "stats": stats, "stops": stops}


def comebacks(bots: list[BotTable], stops: list[dict[str, Any]]) -> list[float]:
    """Per table, from the stop before each of its drops to its next update heard (seconds):
    the last seat's, as both seats of a table resume before that update."""
    times = []
    for bot in bots:
        for dropped, back in zip(bot.dropped, bot.back_at, strict=True):
            before = [stop["at"] for stop in stops if stop["at"] <= dropped]
            if before:
                times.append(back - max(before))
    return times


def compare(twin: list[BotTable], killed: list[BotTable]) -> list[str]:
    """The tables whose game differed from its twin's (empty: every one matched)."""
    differed = []
    for number, (one, other) in enumerate(zip(twin, killed, strict=True)):
        same = (max(one.played) == max(other.played)
                and all(one.played.get(step) == state for step, state in other.played.items()))
        if not same:
            differed.append(f"table {number} ({other.code})")
    return differed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stop", choices=("kill", "term"), default="kill",
                        help="SIGKILL process 0, or SIGTERM and restart each in turn")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--step", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    load_start = os.getloadavg()[0]
    logs = Path(tempfile.mkdtemp(prefix="node_loss-"))
    twin = one_run(options, None, logs)
    twin_stats: Stats = twin["stats"]
    if twin_stats.errors or twin["faults"]:
        print(json.dumps({"twin_errors": twin_stats.errors[:5], "faults": twin["faults"][:5]}))
        return 1
    options.twin_steps = twin_stats.steps
    options.kill_after = twin_stats.steps // 3
    stopped_run = one_run(options, options.stop, logs)
    load_end = os.getloadavg()[0]
    stats: Stats = stopped_run["stats"]
    stops = stopped_run["stops"]
    dropped = [bot for bot in stopped_run["bots"] if bot.back_at]
    back = comebacks(stopped_run["bots"], stops)
    differed = compare(twin["bots"], stopped_run["bots"])
    faults = stopped_run["faults"]
    result = {
        "stop": options.stop, "tables": options.tables, "processes": options.processes,
        "steps_twin": twin_stats.steps,
        "stopped": [{key: value for key, value in stop.items() if key != "at"}
                    for stop in stops],
        "tables_with_a_dropped_line": len(dropped), "seats_resumed": stats.resumed,
        "resumes_refused": len(stats.refused),
        "dropped_again": stats.dropped_again,
        "takeover_s_p50": round(statistics.median(back), 2) if back else None,
        "takeover_s_max": round(max(back), 2) if back else None,
        "load_1min_start": round(load_start, 2), "load_1min_end": round(load_end, 2),
        "matched": options.tables - len(differed), "differed": differed[:5],
        "errors": len(stats.errors), "first_errors": stats.errors[:3],
        "logs": str(logs), "faults": faults[:10],
    }
    print(json.dumps(result), flush=True)
    how = ("process 0 SIGKILLed" if options.stop == "kill"
           else f"{options.processes} processes SIGTERMed and restarted in turn")
    print(f"\n{options.processes} processes, {options.tables} tables, {how}: "
          f"{len(dropped)} tables lost a line; from the stop to a dropped table's next update "
          f"p50 {result['takeover_s_p50']} s, max {result['takeover_s_max']} s (load "
          f"{result['load_1min_start']} to {result['load_1min_end']}); {result['matched']} of "
          f"{options.tables} games matched their twin; {len(stats.errors)} errors; "
          f"{len(stats.refused)} resumes refused; {stats.dropped_again} comebacks dropped "
          "again on the way (a table handed over twice in a moment)")
    for fault in faults:
        print(f"fault in a server's log: {fault}", file=sys.stderr)
    ok = not differed and not stats.errors and dropped and not faults
    ok = ok and all(stop.get("exit", 0) == 0 for stop in stops)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
