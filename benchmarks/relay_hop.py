"""What the relay costs a seat (issue 62): a step's round trip for a guest on the table's own
process against a guest whose line another process relays there.

    python benchmarks/relay_hop.py [--steps 400] [--seed 1]

Two real server processes (`python -m sudden_death.server --valkey URL --name a|b`) on a
private Valkey (tests/valkey_server.py), on this machine's loopback. Two tables, both held by
A, played side by side one step at a time: the "direct" table's guest joined A itself, the
"relayed" table's guest joined through B (server/cluster/relay.py). At each step both seats of a
table commit random legal actions; the round trip runs from the last commit sent to both
seats' updates received, the same moment the players hear the reveal. Games that end are
replaced by new tables. Printed: the count, p50, p95, p99 and max of each, and the ratio of
the relayed to the direct p50 and p99.

Where it could mislead: loopback only (a relay between machines adds the network's round
trip twice); one table at a time, so no load: the hop's own cost, not its cost under load;
the seats' client, both servers and Valkey share this machine's two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from server_process import Running
from valkey_server import valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

ROUTED_WAIT_S = 0.5  # a new table's route is written within 0.2 s (valkey_routes.SOON_S)


class Table:
    """One table held by A: its host on A, its guest on `guest_url`."""

    def __init__(self, seats: dict[Team, ClientConnection]) -> None:
        self.seats = seats
        self.state = GameState()
        self.step = 0

    @classmethod
    async def open(cls, host_url: str, guest_url: str) -> Table:
        host = await connect(host_url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        code = json.loads(await host.recv())["code"]
        await asyncio.sleep(ROUTED_WAIT_S)
        guest = await connect(guest_url)
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        seated = json.loads(await guest.recv())
        assert seated["type"] == "seated", seated
        for line in (host, guest):
            assert json.loads(await line.recv())["type"] == "start"
        return cls({Team.AWAY: host, Team.HOME: guest})

    async def close(self) -> None:
        for line in self.seats.values():
            await line.close()

    async def round_trip(self, rng: random.Random) -> float:
        """One step: from the last commit sent to both updates received, in seconds."""
        for team in actors(self.state):
            choice = rng.choice(legal_actions(self.state, team))
            await self.seats[team].send(p.encode(p.Act(self.step, [action_to_dict(choice)])))
        sent = time.perf_counter()
        update: dict[str, Any] = {}
        for line in self.seats.values():
            while (update := json.loads(await line.recv()))["type"] != "update":
                pass
        took = time.perf_counter() - sent
        self.step, self.state = update["step"], state_from_dict(update["state"])
        return took


def summary(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {"n": len(samples), "p50_ms": round(cuts[49] * 1000, 3),
            "p95_ms": round(cuts[94] * 1000, 3), "p99_ms": round(cuts[98] * 1000, 3),
            "max_ms": round(max(samples) * 1000, 3)}


async def measure(a_url: str, b_url: str, steps: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    kinds = {"direct": a_url, "relayed": b_url}
    tables = {kind: await Table.open(a_url, url) for kind, url in kinds.items()}
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    while min(len(each) for each in times.values()) < steps:
        for kind, table in list(tables.items()):
            if not actors(table.state):  # over: a new table in its place
                await table.close()
                table = tables[kind] = await Table.open(a_url, kinds[kind])
            times[kind].append(await table.round_trip(rng))
    for table in tables.values():
        await table.close()
    result: dict[str, Any] = {kind: summary(each[:steps]) for kind, each in times.items()}
    for cut in ("p50_ms", "p99_ms"):
        result[f"relayed_over_direct_{cut[:3]}"] = round(
            result["relayed"][cut] / max(1e-9, result["direct"][cut]), 2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400, help="steps measured of each kind")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    # Many short games open many lines from loopback: the limits of one player's address
    # would refuse them, as they should a stranger's.
    common = ("--per-address", "1000")
    with valkey_server() as engine, \
            Running("--valkey", engine.url, "--name", "a", *common) as a, \
            Running("--valkey", engine.url, "--name", "b", *common) as b:
        result = asyncio.run(measure(a.url, b.url, options.steps, options.seed))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
