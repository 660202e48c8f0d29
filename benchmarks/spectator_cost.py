"""What spectators cost the seats (issues 71 and 73): one game's step latency with no
spectators and with many, the spectators in a process of their own.

    python benchmarks/spectator_cost.py [--spectators 0 250] [--steps 400] [--rounds 2]
                                        [--shared]

One real server process (`python -m sudden_death.server`), this process's two seats playing
one table at a time (random legal actions; a game that ends is replaced by a new table), and
a third process holding the spectators' lines (asyncio clients, all watching the table being
played). At each step the first seat commits, `--think` seconds pass, the second commits; the
seats' latency runs from that last act sent to both seats' updates received, the moment the
players hear the reveal. `--pause` seconds then pass before the next step, so each step is
measured with its own fan-out, not the last one's. Each count of spectators is measured for
`--steps` steps in each of `--rounds` rounds, the counts alternating, so a change in the
machine's load falls on both.

Printed, one JSON line: for each count, the seats' latency (p50, p95, p99, max) pooled over
the rounds and each round's p50 and p99 alone; the server's CPU a step; the spectators' own
latency (from the last act sent to a spectator's copy received); and the check that every
spectator heard every update in order, the same frame the seats heard, none before the step's
last act was sent. Then each count's p50 and p99 over the first count's. Exit 1 if any
spectator missed an update, heard one out of order or changed, or heard one early.

The server has a core of its own (`sched_setaffinity`: CPU 0 for the server, the others for
the seats' and the spectators' processes), as a server does whose players and spectators are
on other machines. `--shared` lets all three processes go on any core, as before issue 71
closed: there the seats' process, woken by the server's write, is often put on the server's
own core (the kernel wakes a task near its waker) and waits there until the server has written
to every spectator, a tick of the scheduler (4 ms) at worst: on this 2-core machine that put
the seats' p99 at 2.6x to 3.9x without spectators, while pinned it is 1.0x to 1.2x. That wait
is the test machine's placement, not the server's work: the server writes both seats' frames
before any spectator's (tests/test_server_watch.py), and what spectators cost the server itself
is its CPU a step, printed for each count.

Where it could mislead: the seats' and the spectators' processes still share the other core
(on a 2-core machine), so a spectators' process busy reading 250 frames can delay the seats'
process, which spectators on their own machines would not; loopback only, no network; one
table, so no other table's seats wait behind the spectators' writes; other work on the machine
moves the tails (the rounds alternate to spread it, and each round is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from measures import cpu_ticks, percentiles
from server_process import Running
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

HEARD_ALL_S = 20.0  # how long the spectators may take to hear a table's last update
CLOCK_TICK_S = 0.01  # /proc's CPU times are in 1/100 s


def digest(frame: str | bytes) -> str:
    return hashlib.blake2b(frame if isinstance(frame, bytes) else frame.encode(),
                           digest_size=8).hexdigest()


# -- the spectators' process -----------------------------------------------------------------


class Spectators:
    """`count` lines watching one table; each keeps every update it heard: (step, the frame's
    digest, when), and anything it should not have heard."""

    def __init__(self) -> None:
        self.lines: list[ClientConnection] = []
        self.heard: list[list[tuple[int, str, float]]] = []
        self.stray: list[str] = []
        self.listening: list[asyncio.Task[None]] = []

    async def watch(self, url: str, code: str, count: int) -> None:
        await self.close()
        self.heard = [[] for _ in range(count)]
        for number in range(count):
            # each from a loopback address of its own, as spectators on their own machines
            line = await connect(url, compression=None, max_queue=None, local_addr=(
                f"127.3.{number // 250}.{number % 250 + 1}", 0))
            await line.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code)))
            first = json.loads(await line.recv())
            if first.get("type") != "start":
                raise RuntimeError(f"a spectator was told {first}")
            self.lines.append(line)
            self.listening.append(asyncio.ensure_future(self._listen(line, self.heard[number])))

    async def _listen(self, line: ClientConnection, heard: list[tuple[int, str, float]]) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in line:
                when = time.perf_counter()
                message = json.loads(frame)
                kind = message.get("type")
                if kind == "update":
                    heard.append((int(message["step"]), digest(frame), when))
                elif kind not in ("committed", "busy", "steady", "left"):
                    self.stray.append(str(frame)[:200])

    async def check(self, told: list[tuple[int, str, float]]) -> dict[str, Any]:
        """Against the seats' updates (step, digest, when the step's last act was sent):
        each spectator's must be the same, in the same order, none heard before then."""
        ends = time.monotonic() + HEARD_ALL_S
        while any(len(each) < len(told) for each in self.heard) and time.monotonic() < ends:
            await asyncio.sleep(0.05)
        complete = changed = early = 0
        lags: list[float] = []
        for heard in self.heard:
            same = [(step, seen) for step, seen, _when in heard] == \
                [(step, seen) for step, seen, _sent in told]
            complete += same
            changed += not same
            for (_step, _seen, when), (_s, _d, sent) in zip(heard, told, strict=False):
                early += when < sent
                lags.append(when - sent)
        return {"complete": complete, "changed": changed, "early": early, "lags": lags,
                "stray": list(self.stray)}

    async def close(self) -> None:
        for task in self.listening:
            task.cancel()
        for line in self.lines:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(line.close(), 2)
        self.lines, self.listening = [], []


def spectators_process(pipe: Connection, cores: set[int] | None) -> None:
    """Answers ("watch", url, code, count) with "ready" once every line has its start,
    ("check", told) with what Spectators.check found, and "stop" by closing every line.
    `cores`: the CPUs it may use (None: any)."""
    if cores:
        os.sched_setaffinity(0, cores)

    async def main() -> None:
        spectators = Spectators()
        loop = asyncio.get_running_loop()
        while True:
            ask = await loop.run_in_executor(None, pipe.recv)
            if ask[0] == "watch":
                await spectators.watch(*ask[1:])
                pipe.send("ready")
            elif ask[0] == "check":
                pipe.send(await spectators.check(ask[1]))
            else:
                await spectators.close()
                pipe.send("stopped")
                return

    asyncio.run(main())


# -- the seats, in this process --------------------------------------------------------------


class Table:
    """One table's two seats, playing random legal actions."""

    def __init__(self, code: str, seats: dict[Team, ClientConnection]) -> None:
        self.code, self.seats = code, seats
        self.state, self.step = GameState(), 0

    @classmethod
    async def open(cls, url: str, number: int) -> Table:
        """Table `number`'s seats, each from a loopback address of its own (the server's
        limits on new lines an address are not what is measured here)."""
        def address(seat: int) -> tuple[str, int]:
            line = 2 * number + seat
            return f"127.4.{line // 250 % 250}.{line % 250 + 1}", 0

        host = await connect(url, compression=None, local_addr=address(0))
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        code = json.loads(await host.recv())["code"]
        guest = await connect(url, compression=None, local_addr=address(1))
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        seated = json.loads(await guest.recv())
        if seated["type"] != "seated":
            raise RuntimeError(f"the guest was told {seated}")
        table = cls(code, {Team.AWAY: host, Team.HOME: guest})
        for line in (host, guest):
            start = json.loads(await line.recv())
            if start["type"] != "start":
                raise RuntimeError(f"a seat was told {start}")
            table.state, table.step = state_from_dict(start["state"]), start["step"]
        return table

    async def close(self) -> None:
        for line in self.seats.values():
            await line.close()

    async def play_step(self, rng: random.Random, think_s: float) -> tuple[float, str, float]:
        """One step: the seconds from the last act's send to both updates received, the
        home seat's update frame's digest (what a spectator hears), and when that act was
        sent (no spectator may hear the step before)."""
        teams = list(actors(self.state))
        rng.shuffle(teams)
        sent = 0.0
        for number, team in enumerate(teams):
            if number:
                await asyncio.sleep(think_s)
            act = p.encode(p.Act(self.step, [action_to_dict(
                rng.choice(legal_actions(self.state, team)))]))
            sent = time.perf_counter()  # before the send: nothing can answer it earlier
            await self.seats[team].send(act)
        frames: dict[Team, str | bytes] = {}
        for team, line in self.seats.items():
            while True:
                frame = await line.recv()
                if json.loads(frame)["type"] == "update":
                    frames[team] = frame
                    break
        took = time.perf_counter() - sent
        if frames[Team.HOME] != frames[Team.AWAY]:
            raise RuntimeError("the seats heard different updates")
        update = json.loads(frames[Team.HOME])
        self.step, self.state = update["step"], state_from_dict(update["state"])
        return took, digest(frames[Team.HOME]), sent


async def measure(url: str, server_pid: int, pipe: Connection, count: int, steps: int,
                  rng: random.Random, think_s: float, pause_s: float) -> dict[str, Any]:
    """`steps` steps with `count` spectators watching whichever table is played."""
    loop = asyncio.get_running_loop()

    async def ask(*message: Any) -> Any:
        pipe.send(message)
        return await loop.run_in_executor(None, pipe.recv)

    trips: list[float] = []
    found: dict[str, Any] = {"tables": 0, "complete": 0, "changed": 0, "early": 0, "lags": [],
                             "stray": []}
    cpu = opened = 0
    while len(trips) < steps:
        table = await Table.open(url, opened)
        opened += 1
        await ask("watch", url, table.code, count)
        told: list[tuple[int, str, float]] = []
        before = cpu_ticks(server_pid)
        while actors(table.state) and len(trips) < steps:
            took, seen, sent = await table.play_step(rng, think_s)
            trips.append(took)
            told.append((table.step, seen, sent))
            await asyncio.sleep(pause_s)
        cpu += cpu_ticks(server_pid) - before
        checked = await ask("check", told)
        for key in ("complete", "changed", "early"):
            found[key] += checked[key]
        found["tables"] += 1
        found["lags"] += checked["lags"]
        found["stray"] += checked["stray"]
        await table.close()
    return {"seats": trips, "cpu_ms_per_step": cpu * CLOCK_TICK_S * 1000 / len(trips),
            **found}


def placement(shared: bool) -> tuple[set[int] | None, set[int] | None]:
    """The server's CPUs and the clients' (None, None: anywhere): CPU 0 for the server alone
    where there are two or more and the system lets a process choose."""
    if shared or not hasattr(os, "sched_getaffinity"):
        return None, None
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None, None
    return {cores[0]}, set(cores[1:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, nargs="+", default=[0, 250])
    parser.add_argument("--steps", type=int, default=400, help="steps a count, a round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.02,
                        help="seconds between a step's first act and its second")
    parser.add_argument("--pause", type=float, default=0.05,
                        help="seconds between a step's updates and the next step's first act")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shared", action="store_true",
                        help="let the server share its core with the clients (see above)")
    options = parser.parse_args(argv)
    server_cores, client_cores = placement(options.shared)
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    watching = context.Process(target=spectators_process, args=(child, client_cores),
                               daemon=True)
    watching.start()
    rng = random.Random(options.seed)
    pooled: dict[int, list[dict[str, Any]]] = {count: [] for count in options.spectators}
    with Running() as server:  # an operator's limits: each spectator has its own address
        if server_cores and client_cores:
            os.sched_setaffinity(server.proc.pid, server_cores)
            os.sched_setaffinity(0, client_cores)
        for _round in range(options.rounds):
            for count in options.spectators:
                pooled[count].append(asyncio.run(measure(
                    server.url, server.proc.pid, parent, count, options.steps, rng,
                    options.think, options.pause)))
        parent.send(("stop",))
        parent.recv()
    watching.join(10)
    result: dict[str, Any] = {"steps": options.steps, "rounds": options.rounds,
                              "think_s": options.think, "pause_s": options.pause,
                              "server_cores": sorted(server_cores or ()),
                              "client_cores": sorted(client_cores or ())}
    failed = False
    for count, runs in pooled.items():
        seats = [trip for run in runs for trip in run["seats"]]
        lags = [lag for run in runs for lag in run["lags"]]
        heard = {key: sum(run[key] for run in runs)
                 for key in ("tables", "complete", "changed", "early")}
        stray = [each for run in runs for each in run["stray"]]
        failed |= bool(heard["changed"] or heard["early"] or stray)
        result[str(count)] = {
            "seats": percentiles(seats),
            "rounds": [{cut: percentiles(run["seats"]).get(cut) for cut in ("p50_ms", "p99_ms")}
                       for run in runs],
            "server_cpu_ms_per_step": round(sum(run["cpu_ms_per_step"] for run in runs)
                                            / len(runs), 2),
            "spectators": percentiles(lags), **heard, "stray": stray[:3]}
    first = result[str(options.spectators[0])]["seats"]
    for count in options.spectators[1:]:
        seats = result[str(count)]["seats"]
        for cut in ("p50_ms", "p99_ms"):
            result[f"{count}_over_{options.spectators[0]}_{cut[:3]}"] = round(
                seats[cut] / max(1e-9, first[cut]), 2)
    print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
