"""A server process lost mid-game (issue 63): how long its tables take to come back, and
whether every game ends as it would have.

    python benchmarks/node_loss.py [--tables 100] [--processes 3] [--step 0.05] [--seed 1]

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

Printed: the take-over time, from the kill to the last dropped seat's next update heard
(and the median table's); how many tables lost a line; and, table by table, whether every
state either run heard at a step is the same and the game ended at the same step with the
same state (`matched`). Where it could mislead: loopback only, the bots and every process on
this machine's 2 cores; the take-over time is mostly the lease (4 s after its last renewal,
so 3 to 4 s after a kill) plus the seats' retry pace (0.2 s), not the work of taking over.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from postgres_server import postgres_cluster
from table_bots import BotTable, Stats
from valkey_server import valkey_server

ROOT = Path(__file__).resolve().parent.parent
PER_ADDRESS = "1000000"  # every bot comes from 127.0.0.1
COMEBACK_S = 60.0


@contextlib.contextmanager
def servers(count: int, postgres: str, valkey: str, seed: int
            ) -> Iterator[list[tuple[subprocess.Popen[str], str]]]:
    """`count` server processes of one cluster, each on its own free port."""
    started: list[tuple[subprocess.Popen[str], str]] = []
    try:
        for index in range(count):
            process = subprocess.Popen(
                [sys.executable, "-m", "sudden_death.server", "--port", "0",
                 "--per-address", PER_ADDRESS, "--postgres", postgres, "--valkey", valkey,
                 "--name", f"node{index}", "--seed", str(seed + index * 100_000)],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert process.stdout is not None
            started.append((process, json.loads(process.stdout.readline())["listening"]))
        yield started
    finally:
        for process, _url in started:
            if process.poll() is None:
                process.terminate()
        for process, _url in started:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()


def one_run(options: argparse.Namespace, kill: bool) -> dict[str, Any]:
    """One run; with `kill`, process 0 is SIGKILLed halfway through (see the docstring)."""
    with postgres_cluster() as postgres, valkey_server() as valkey:
        with contextlib.closing(psycopg.connect(postgres.url, autocommit=True)) as connection:
            connection.execute("CREATE DATABASE node_loss")
        where = postgres.url.rsplit("/", 1)[0] + "/node_loss"
        with servers(options.processes, where, valkey.url, options.seed) as started:
            urls = [url for _process, url in started]
            return asyncio.run(play(options, urls, started[0][0] if kill else None))


async def play(options: argparse.Namespace, urls: list[str],
               victim: subprocess.Popen[str] | None) -> dict[str, Any]:
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
    killed_at = None
    if victim is not None:
        while stats.steps < options.kill_after and not playing.done():
            await asyncio.sleep(0.01)
        killed_at = time.perf_counter()
        victim.kill()
        victim.wait()
    await playing
    return {"bots": bots, "stats": stats, "killed_at": killed_at}


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
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--step", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    twin = one_run(options, kill=False)
    twin_stats: Stats = twin["stats"]
    if twin_stats.errors:
        print(json.dumps({"twin_errors": twin_stats.errors[:5]}))
        return 1
    options.kill_after = twin_stats.steps // 3
    killed = one_run(options, kill=True)
    stats: Stats = killed["stats"]
    dropped = [bot for bot in killed["bots"] if bot.back_at]
    back = [max(bot.back_at) - killed["killed_at"] for bot in dropped]
    differed = compare(twin["bots"], killed["bots"])
    result = {
        "tables": options.tables, "processes": options.processes,
        "steps_twin": twin_stats.steps, "killed_after_steps": options.kill_after,
        "tables_with_a_dropped_line": len(dropped), "seats_resumed": stats.resumed,
        "dropped": [number for number, bot in enumerate(killed["bots"]) if bot.back_at],
        "takeover_s_last": round(max(back), 2) if back else None,
        "takeover_s_median_table": round(statistics.median(back), 2) if back else None,
        "matched": options.tables - len(differed), "differed": differed[:5],
        "errors": len(stats.errors), "first_errors": stats.errors[:3],
    }
    print(json.dumps(result), flush=True)
    print(f"\n{options.processes} processes, {options.tables} tables; process 0 SIGKILLed "
          f"after {options.kill_after} of {twin_stats.steps} steps: "
          f"{len(dropped)} tables lost a line, the last dropped seat heard its next update "
          f"{result['takeover_s_last']} s after the kill (median table "
          f"{result['takeover_s_median_table']} s); {result['matched']} of {options.tables} "
          f"games matched their unkilled twin; {len(stats.errors)} errors")
    return 0 if not differed and not stats.errors and dropped else 1


if __name__ == "__main__":
    sys.exit(main())
