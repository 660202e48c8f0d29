"""What the cluster's lobby costs Valkey (issue 73): commands and bytes a second for N server
processes' lobbies, with and without one process merging the lobby for all.

    python benchmarks/lobby_cost.py [--processes 2 4 20 175] [--window 10] [--unmerged 2 4 20]

Each process is simulated by its own `ValkeyLobby` (its own client, its own background task, as
in a server process) in this one process, against a private Valkey (tests/valkey_server.py),
each with full lobby entries (the lists at their caps: 50 open tables, 50 games, 100 players
here; the largest entry a process writes). After a warm-up of twice the entries' time to live,
Valkey's own counters over `--window` seconds: commands processed, bytes sent out and taken in,
each a second, in all and per process; and the bytes of one process's entries and of the merged
value. `--unmerged` counts are measured again with no merging (each process reads every other's
entries, as before issue 73).

Where it could mislead: every simulated process shares this one Python process and its event
loop, and every entry is the same size and never changes (a real lobby's change, which makes
its readers decode it again, is left out); unmerged at many processes the readers cannot keep
up with what they would read (each reads every other entry a second) and read less than a
server would, so the unmerged figures are measured only where they keep up (the default 2, 4,
20), and the square growth beyond is arithmetic, not a measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import msgspec
from redis.asyncio import Redis
from valkey_server import valkey_server

from sudden_death.server.cluster import valkey_lobby
from sudden_death.server.cluster.lobby_entries import Listed
from sudden_death.server.cluster.valkey_lobby import ValkeyLobby
from sudden_death.wire import protocol as p

COUNTERS = ("total_commands_processed", "total_net_output_bytes", "total_net_input_bytes")


def full_entries(number: int) -> Listed:
    """A process's lobby at every cap, its names its own."""
    return Listed(
        [p.OpenTable(f"{number:03d}{n:03d}", f"Host {number} {n}", 3)
         for n in range(p.MAX_LISTED_TABLES)],
        [p.GamePlayed(f"{number:03d}{n:03d}", [f"Hawks {n}", f"Bears {n}"], [14, 7], 3, 2,
                      [f"Ann {number}.{n}", f"Bo {number}.{n}"])
         for n in range(p.MAX_LISTED_GAMES)],
        200, 300, [f"Player {number}.{n:03d}" for n in range(p.MAX_LISTED_HERE)])


async def counters(client: Redis) -> dict[str, int]:
    stats = await client.info("stats")
    return {name: int(stats[name]) for name in COUNTERS}


async def measure(url: str, processes: int, window_s: float, merge: bool) -> dict[str, Any]:
    prefix = f"bench{secrets.token_hex(4)}:"
    merge_from = valkey_lobby.MERGE_FROM if merge else 10**9
    lobbies = []
    for number in range(processes):
        entries = full_entries(number)
        lobbies.append(await ValkeyLobby.open(url, f"p{number:03d}", lambda e=entries: e,
                                              lambda: None, prefix, merge_from))
    watcher = Redis.from_url(url)
    try:
        await asyncio.sleep(2 * valkey_lobby.TTL_MS / 1000)  # every process written and read
        before, started = await counters(watcher), time.perf_counter()
        await asyncio.sleep(window_s)
        after, seconds = await counters(watcher), time.perf_counter() - started
        seen = [len(lobby.others()) for lobby in lobbies]
        merged = await watcher.get(f"{prefix}lobby-merged")
    finally:
        await watcher.aclose()
        for lobby in lobbies:
            await lobby.close()
    rates = {name: (after[name] - before[name]) / seconds for name in COUNTERS}
    return {
        "processes": processes, "merged": merge,
        "mergers": sum(lobby.merging for lobby in lobbies),
        "commands_per_s": round(rates["total_commands_processed"]),
        "commands_per_s_per_process": round(rates["total_commands_processed"] / processes, 2),
        "out_kb_per_s": round(rates["total_net_output_bytes"] / 1000, 1),
        "out_kb_per_s_per_process": round(rates["total_net_output_bytes"] / 1000 / processes,
                                          1),
        "in_kb_per_s": round(rates["total_net_input_bytes"] / 1000, 1),
        "entry_kb": round(len(msgspec.json.encode(full_entries(0))) / 1000, 1),
        "merged_kb": round(len(merged) / 1000, 1) if merged else 0.0,
        "readers_seeing_others": sum(bool(count) for count in seen),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[2, 4, 20, 175])
    parser.add_argument("--unmerged", type=int, nargs="*", default=[2, 4, 20])
    parser.add_argument("--window", type=float, default=10.0)
    options = parser.parse_args(argv)
    results = []
    with valkey_server() as valkey:
        for count in options.processes:
            results.append(asyncio.run(measure(valkey.url, count, options.window, True)))
            print(json.dumps(results[-1]), flush=True)
        for count in options.unmerged:
            results.append(asyncio.run(measure(valkey.url, count, options.window, False)))
            print(json.dumps(results[-1]), flush=True)
    print(f"\nsummary (merging from {valkey_lobby.MERGE_FROM} processes; a {options.window:g} s "
          "window each):")
    for result in results:
        kind = "merged  " if result["merged"] else "unmerged"
        print(f"  {result['processes']:>4} processes, {kind}: {result['commands_per_s']} "
              "commands/s "
              f"({result['commands_per_s_per_process']} a process), "
              f"{result['out_kb_per_s']} kB/s out ({result['out_kb_per_s_per_process']} a "
              f"process), mergers {result['mergers']}")
    return 0 if all(result["readers_seeing_others"] == result["processes"]
                    for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
