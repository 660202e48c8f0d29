"""How long a quick game takes to pair, and how soon a lobby listener hears a new table, at a
real table server process on loopback.

    python benchmarks/lobby_quick.py [--rounds 200] [--listeners 50]

One server process (`python -m sudden_death.server --port 0 --data TMP --per-address 2000`,
since every client here comes from one address), and in this
process `--listeners` lines listening to the lobby plus pairs of quick players. Each round:
the first quick player is seated (it waits), then the second sends `quick`, and this times:
- pairing: from the second player's `quick` sent to both players' `start` received (what a
  player waits between pressing Enter on Quick game and the game beginning, when someone
  waits already);
- lobby: from a `host` with `public` sent to the last listener receiving the lobby list that
  has the new table (the lobby gathers changes into one list a second, so this is at most
  about a second by design; it measures that the gathering holds under many listeners).

Where it could mislead: the clients share this 2-core machine with the server, so their own
event loop adds to every figure; the words a game would speak after `start` are not included
(benchmarks/network_latency.py measures reveal to first audible sample).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudden_death.wire import protocol as p  # noqa: E402


async def receive(connection: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(connection.recv(), 10))
        if message["type"] == kind:
            return message


async def pairing(url: str, rounds: int) -> list[float]:
    times = []
    for number in range(rounds):
        async with connect(url) as first, connect(url) as second:
            await first.send(p.encode(p.Quick(p.PROTOCOL_VERSION, f"Home {number}")))
            await receive(first, "seated")
            began = time.perf_counter()
            await second.send(p.encode(p.Quick(p.PROTOCOL_VERSION, f"Away {number}")))
            await asyncio.gather(receive(first, "start"), receive(second, "start"))
            times.append(time.perf_counter() - began)
            await first.send(p.encode(p.Leave()))
    return times


async def lobby(url: str, listeners: int, rounds: int) -> list[float]:
    lines = [await connect(url, max_queue=None) for _ in range(listeners)]
    for line in lines:
        await line.send(p.encode(p.Lobby()))
        await receive(line, "lobby")
    times = []
    for number in range(rounds):
        async with connect(url) as host:
            began = time.perf_counter()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, f"Public {number}",
                                            public=True)))
            code = (await receive(host, "seated"))["code"]

            await asyncio.gather(*(hears(line, code) for line in lines))
            times.append(time.perf_counter() - began)
            await host.send(p.encode(p.Leave()))
    for line in lines:
        await line.close()
    return times


async def hears(line: ClientConnection, code: str) -> None:
    """Until a lobby list with the table `code` comes."""
    while not any(table["code"] == code for table in (await receive(line, "lobby"))["tables"]):
        pass


def report(name: str, times: list[float]) -> None:
    ms = sorted(1000 * value for value in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name}: n={len(ms)} median={statistics.median(ms):.1f} ms p95={p95:.1f} ms "
          f"max={ms[-1]:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--listeners", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "sudden_death.server", "--port", "0", "--data", data,
             "--per-address", "2000"],  # every client is on loopback: one address for all
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert server.stdout is not None
        url = json.loads(server.stdout.readline())["listening"]
        try:
            paired = asyncio.run(pairing(url, args.rounds))
            heard = asyncio.run(lobby(url, args.listeners, max(5, args.rounds // 20)))
        finally:
            server.terminate()
            server.wait(timeout=20)
    report("quick pairing (second quick sent to both starts)", paired)
    report(f"lobby ({args.listeners} listeners, public host sent to the last one hears it)",
           heard)
    print("lobby_quick " + json.dumps({
        "pairing_median_ms": round(1000 * statistics.median(paired), 2),
        "lobby_median_ms": round(1000 * statistics.median(heard), 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
