"""A normal table's latency while hostile clients attack the same server process.

    python benchmarks/server_attacks.py [--tables 50] [--window 15]

One server process with the limits `python -m sudden_death.server` runs with (server_load.py's
timed service), and in this process `--tables` bot tables (tests/table_bots.py), each from a
loopback address of its own (127.1.x.y), each seat committing a step about every 2 seconds.
First a quiet window is measured; then, one after the other, each attack runs for a window
in a third process, from its own addresses (127.2.x.y), while the tables play on. The three
processes share this machine's two cores, so an attacker's CPU is taken from both others:

- flood: a seated client sends chat lines as fast as it can; cut off, it comes back and again;
- garbage: a seated client sends malformed, unknown, deeply nested and binary frames;
- guesser: joins with random codes as fast as the server answers, from one address;
- lines: opens connections from one address until refused, again and again;
- stalled: 300 TCP connections from many addresses that never finish the handshake;
- deaf: a table whose host never reads while its guest chats at it;
- abandon: 24 addresses host public tables with the longest seat wait and drop, again and
  again (found online: 8,000 tables in 150 s, a lobby list past 1 MiB that cut every lobby
  line off);
- hashes: 10 addresses send passworded hosts and sign-ups as fast as they are answered (found
  online: a plain new table elsewhere timed out after 15 s, a sign-in took 9.4 s);
- chat: one account on 20 lines chats in the lobby as fast as it can (found online: 160 lines
  a second heard by everyone there);
- flapping: a spectator watches a game and drops, again and again (found online: the seats
  heard `watching` 153 times in 10 s).

For each window: the bot round trip (second commit sent to both updates received, in this
process, which includes its own CPU share) and the server's own step latency, p50 / p99, and
each attack's p99 as a ratio of the quiet one. The goal: within 2x. And what a player in the
lobby meets meanwhile, from addresses of their own (127.3.0.x): a lobby line that listens all
along (cut off or not, its largest list in bytes, the chat lines it heard and the `watching` a
seat heard, each over the whole window), a plain new table every second (seated in how long:
p50 / max) and a sign-in with the right password every two seconds (how long).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import socket
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from measures import percentiles  # noqa: E402
from table_bots import Stats, play_tables  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402

from sudden_death.wire import protocol as p  # noqa: E402

FAILURES = (OSError, asyncio.TimeoutError, TimeoutError, WebSocketException)


def attacker(number: int) -> dict[str, Any]:
    return {"local_addr": (f"127.2.0.{number}", 0)}


async def flood(url: str) -> None:
    while True:
        with contextlib.suppress(*FAILURES):
            async with connect(url, **attacker(1)) as line:
                await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Flood")))
                while True:
                    await line.send(p.encode(p.Chat("x" * 200)))
        await asyncio.sleep(0)


async def garbage(url: str) -> None:
    frames: list[str | bytes] = ["not json", '{"type": "peek"}', "[" * 3000 + "]" * 3000,
                                 b"\x00\xff" * 100, '{"type": "act", "step": "x"}']
    while True:
        with contextlib.suppress(*FAILURES):
            async with connect(url, **attacker(2)) as line:
                await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Junk")))
                while True:
                    for frame in frames:
                        await line.send(frame)
        await asyncio.sleep(0)


async def guesser(url: str) -> None:
    rng = random.Random(5)
    while True:
        with contextlib.suppress(*FAILURES):
            async with connect(url, **attacker(3)) as line:
                await line.send(p.encode(p.Join(p.PROTOCOL_VERSION,
                                                f"{rng.randrange(10**6):06d}", "Guess")))
                await asyncio.wait_for(line.recv(), 5)


async def lines(url: str) -> None:
    while True:
        opened = []
        with contextlib.suppress(*FAILURES):
            for _ in range(40):  # past the 32 a line address may hold
                opened.append(await connect(url, **attacker(4)))
        for line in opened:
            with contextlib.suppress(*FAILURES):
                await line.close()


async def stalled(url: str) -> None:
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sockets = []
    try:
        for number in range(300):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((f"127.2.{1 + number // 250}.{number % 250 + 1}", 0))
            with contextlib.suppress(BlockingIOError):
                sock.connect((host, int(port)))
            sockets.append(sock)
        await asyncio.sleep(3600)  # held open, never a byte sent
    finally:
        for sock in sockets:
            sock.close()


async def deaf(url: str) -> None:
    while True:
        with contextlib.suppress(*FAILURES):
            probe = socket.socket()
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            probe.bind(("127.2.0.5", 0))
            host, port = url.removeprefix("ws://").rsplit(":", 1)
            probe.connect((host, int(port)))
            async with connect(url, sock=probe, max_queue=4) as never_reads:
                await never_reads.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Deaf")))
                code = json.loads(await never_reads.recv())["code"]
                async with connect(url, **attacker(6)) as talker:
                    await talker.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Talk")))
                    while True:  # at the rate the flood limit allows
                        await talker.send(p.encode(p.Chat("y" * 200)))
                        await asyncio.sleep(0.1)
        await asyncio.sleep(0.1)


async def abandon(url: str) -> None:
    async def one(number: int) -> None:
        while True:
            with contextlib.suppress(*FAILURES):
                async with connect(url, **attacker(20 + number)) as line:
                    await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, f"Gone {number}",
                                                    public=True,
                                                    seat_wait_s=p.MAX_SEAT_WAIT_S)))
                    await asyncio.wait_for(line.recv(), 5)
            await asyncio.sleep(0)

    await asyncio.gather(*(one(number) for number in range(24)))


async def hashes(url: str) -> None:
    async def one(number: int) -> None:
        rng = random.Random(number)
        while True:
            with contextlib.suppress(*FAILURES):
                async with connect(url, **attacker(60 + number)) as line:
                    if number % 2:
                        await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hash",
                                                        password="a long password")))
                    else:
                        await line.send(p.encode(p.SignUp(p.PROTOCOL_VERSION,
                                                          f"x{rng.randrange(10**9)}",
                                                          "a long password")))
                    await asyncio.wait_for(line.recv(), 30)
            await asyncio.sleep(0)

    await asyncio.gather(*(one(number) for number in range(10)))


async def chat(url: str) -> None:
    name = f"Loud{random.randrange(10**6)}"
    async with connect(url, **attacker(90)) as first:
        await first.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, "a long password")))
        await asyncio.wait_for(first.recv(), 30)

    async def one(number: int) -> None:
        while True:
            with contextlib.suppress(*FAILURES):
                async with connect(url, **attacker(90 + number % 4)) as line:
                    await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, name,
                                                      "a long password")))
                    await asyncio.wait_for(line.recv(), 30)
                    await line.send(p.encode(p.Lobby()))
                    while True:
                        await line.send(p.encode(p.Chat("loud")))
                        await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)

    await asyncio.gather(*(one(number) for number in range(20)))


async def flapping(url: str) -> None:
    async with connect(url, **attacker(95)) as lobby:
        await lobby.send(p.encode(p.Lobby()))
        codes: list[str] = []
        while not codes:
            listing = json.loads(await asyncio.wait_for(lobby.recv(), 10))
            codes = [game["code"] for game in listing.get("games", [])]
    while True:
        with contextlib.suppress(*FAILURES):
            async with connect(url, **attacker(96)) as line:
                await line.send(p.encode(p.Watch(p.PROTOCOL_VERSION, codes[0], "Flapper")))
                await asyncio.wait_for(line.recv(), 5)
        await asyncio.sleep(0.02)


ATTACKS: dict[str, Callable[[str], Awaitable[None]]] = {
    "flood": flood, "garbage": garbage, "guesser": guesser, "lines": lines,
    "stalled": stalled, "deaf": deaf, "abandon": abandon, "hashes": hashes, "chat": chat,
    "flapping": flapping}


class Player:
    """What a player in the lobby meets while an attack runs, from addresses of their own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cut_off = 0  # lobby lines closed under the listener
        self.largest = 0  # bytes of the largest lobby list heard
        self.said = 0  # chat lines heard in the lobby
        self.watching = 0  # `watching` heard by a seat of the public game below
        self.seated: list[float] = []  # a plain host to its seat, seconds
        self.signed: list[float] = []  # a right sign-in to its answer, seconds
        self.failed = 0  # hosts or sign-ins refused or timed out

    def window(self) -> dict[str, Any]:
        """The window's figures, and a fresh start for the next."""
        row = {"lobby_cut_off": self.cut_off, "largest_list_bytes": self.largest,
               "chat_heard": self.said, "watching_heard": self.watching,
               "host_s": _spread(self.seated), "sign_in_s": _spread(self.signed),
               "player_failures": self.failed}
        self.cut_off = self.largest = self.said = self.watching = self.failed = 0
        self.seated, self.signed = [], []
        return row

    async def run(self) -> None:
        async with connect(self.url, local_addr=("127.3.0.1", 0)) as first:
            await first.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Prober", "password one")))
            await asyncio.wait_for(first.recv(), 30)
        await asyncio.gather(self.listen(), self.hosts(), self.sign_ins(), self.game())

    async def listen(self) -> None:
        while True:
            with contextlib.suppress(*FAILURES):
                async with connect(self.url, local_addr=("127.3.0.2", 0),
                                   max_size=None) as line:
                    await line.send(p.encode(p.Lobby()))
                    async for frame in line:
                        kind = json.loads(frame)["type"]
                        if kind == "lobby":
                            self.largest = max(self.largest, len(frame))
                        self.said += kind == "said"
            self.cut_off += 1
            await asyncio.sleep(0.5)

    async def hosts(self) -> None:
        while True:
            began = time.perf_counter()
            try:
                async with connect(self.url, local_addr=("127.3.0.3", 0)) as line:
                    await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Probe")))
                    seated = json.loads(await asyncio.wait_for(line.recv(), 30))
                    if seated["type"] == "seated":
                        self.seated.append(time.perf_counter() - began)
                        await line.send(p.encode(p.Leave()))  # its place freed for the next
                    else:
                        self.failed += 1
            except FAILURES:
                self.failed += 1
            await asyncio.sleep(1.0)

    async def sign_ins(self) -> None:
        while True:
            began = time.perf_counter()
            try:
                async with connect(self.url, local_addr=("127.3.0.4", 0)) as line:
                    await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Prober",
                                                      "password one")))
                    answer = json.loads(await asyncio.wait_for(line.recv(), 30))
                    if answer["type"] == "signed_in":
                        self.signed.append(time.perf_counter() - began)
                    else:
                        self.failed += 1
            except FAILURES:
                self.failed += 1
            await asyncio.sleep(2.0)

    async def game(self) -> None:
        """A public game nobody plays on, whose host hears who comes to watch."""
        async with connect(self.url, local_addr=("127.3.0.5", 0)) as host, \
                connect(self.url, local_addr=("127.3.0.6", 0)) as guest:
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Watched", public=True,
                                            seat_wait_s=p.MAX_SEAT_WAIT_S)))
            code = json.loads(await host.recv())["code"]
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Watchers")))
            async for frame in host:
                self.watching += json.loads(frame)["type"] == "watching"


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50_s": float("nan"), "max_s": float("nan"), "n": 0}
    return {"p50_s": round(statistics.median(values), 3), "max_s": round(max(values), 3),
            "n": len(values)}


def attack_process(name: str, url: str) -> None:
    """One attack, in a process of its own (as an attacker is: it must not slow the bots)."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(ATTACKS[name](url))


def main(argv: list[str] | None = None) -> int:
    from server_load import server_process

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--window", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--attacks", nargs="+", default=list(ATTACKS), choices=list(ATTACKS))
    parser.add_argument("--decoy", action="store_true",
                        help="aim the attacks at a second server process instead: what is "
                             "left of their effect is the attacker's own share of the CPU")
    options = parser.parse_args(argv)
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=server_process, args=(child, 32), daemon=True)
    process.start()
    url = parent.recv()
    target, decoy = url, None
    if options.decoy:
        decoy_pipe, decoy_child = context.Pipe()
        decoy = context.Process(target=server_process, args=(decoy_child, 32), daemon=True)
        decoy.start()
        target = decoy_pipe.recv()
    stats = Stats()
    rows: list[dict[str, Any]] = []
    player = Player(url)

    async def run() -> None:
        probing = asyncio.ensure_future(player.run())
        playing = asyncio.ensure_future(play_tables(
            url, options.tables, options.seed, games=10**6,
            think=lambda rng: rng.uniform(0.0, 2.0), ramp_s=5.0, stats=stats,
            own_addresses=True))
        await asyncio.sleep(8.0)
        for name in ("quiet", *options.attacks):
            attack = None
            player.window()  # the player's figures count from the attack's start
            if name != "quiet":
                attack = context.Process(target=attack_process, args=(name, target),
                                         daemon=True)
                attack.start()
            await asyncio.sleep(1.5)  # the attack under way
            parent.send("window")
            trips = len(stats.round_trips)
            await asyncio.sleep(options.window)
            parent.send("samples")
            served = parent.recv()
            rows.append({"window": name, "round_trip": percentiles(stats.round_trips[trips:]),
                         "server_latency": percentiles(served), "errors": len(stats.errors),
                         **player.window()})
            print(json.dumps(rows[-1]), flush=True)
            if attack is not None:
                attack.kill()
                attack.join(10)
        for task in (playing, probing):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, *FAILURES):
                await task

    started = time.perf_counter()
    asyncio.run(run())
    parent.send("report")
    parent.recv()
    process.join(30)
    if decoy is not None:
        decoy.kill()
    quiet = rows[0]
    aimed = "a decoy server" if options.decoy else "the measured server"
    print(f"\nsummary (attacks on {aimed}; {options.tables} tables, {options.window:g} s a window, "
          f"{time.perf_counter() - started:.0f} s in all; ratios against quiet):")
    worst = 0.0
    for row in rows:
        trip, server = row["round_trip"], row["server_latency"]
        ratio = trip["p99_ms"] / max(1e-9, quiet["round_trip"]["p99_ms"])
        if row is not quiet:
            worst = max(worst, ratio)
        print(f"  {row['window']:>8}: round trip p50 {trip['p50_ms']} p99 {trip['p99_ms']} ms "
              f"(p99 x{ratio:.2f}) | server p50 {server['p50_ms']} p99 {server['p99_ms']} ms")
        print(f"            lobby: cut off {row['lobby_cut_off']}, largest list "
              f"{row['largest_list_bytes']} B, chat heard {row['chat_heard']}, watching heard "
              f"{row['watching_heard']} | new table {row['host_s']['p50_s']} s (max "
              f"{row['host_s']['max_s']}) | sign-in {row['sign_in_s']['p50_s']} s (max "
              f"{row['sign_in_s']['max_s']}) | refused or timed out {row['player_failures']}")
    print(f"  worst p99 ratio {worst:.2f}; median of the attacks' p50s "
          f"{statistics.median(r['round_trip']['p50_ms'] for r in rows[1:]):.2f} ms; "
          f"bot errors {len(stats.errors)}")
    return 0 if not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
