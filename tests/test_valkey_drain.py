"""A clean stop hands the tables over (issue 70): with `--postgres URL --valkey URL`, a process
sent SIGTERM writes every step, closes its seats' lines to try again and takes its lease out, so
the next process a seat reaches takes each table over at once; then it exits 0 within the
bound docs/server.md states (server/operations/draining.py).

Real processes on a real PostgreSQL and Valkey, real WebSocket clients and two real desktop
games. A rolling restart (each of three processes SIGTERMed mid-game in turn and started
again on its port) ends every game as its twin, the same tables with the same seeds on one
process nobody stopped; no seat is refused on the way. And all three SIGTERMed together, after
seats resumed through relays, exit 0 with every step a seat heard in PostgreSQL and nothing
in their logs of a write after the pool closed or a task left pending.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from cluster_node import Node
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from table_bots import BotTable, Stats
from table_driver import Seat, Server, final_score, free_port, sit_down, start_playing
from valkey_server import ValkeyServer

from sudden_death.server.operations.draining import STOP_BOUND_S

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(900),
]

SEED = 11
BOT_TABLES = 6
THINK_S = 1.0  # a seat thinks 0 to this long: a game (7 to 30 steps) outlasts a restart or two
PER_ADDRESS = "1000"  # every seat comes from 127.0.0.1


def bots(stats: Stats, host: str, guests: list[str], comeback: list[str],
         comeback_s: float = 60.0) -> list[BotTable]:
    """BOT_TABLES tables hosted at `host`, their guests joining through `guests` in turn."""
    master = random.Random(SEED)
    return [BotTable(host, random.Random(master.randrange(2**32)), stats,
                     think=lambda rng: rng.uniform(0.0, THINK_S), comeback_s=comeback_s,
                     comeback_urls=comeback, guest_url=guests[number % len(guests)])
            for number in range(BOT_TABLES)]


@contextlib.contextmanager
def cluster(tmp: Path, database: str, valkey: ValkeyServer) -> Iterator[list[Node]]:
    """Processes a, b and c of one cluster, each on a port of its own, a with --seed SEED."""
    common = ("--postgres", database, "--valkey", valkey.url, "--per-address", PER_ADDRESS)
    with contextlib.ExitStack() as stack:
        nodes = [stack.enter_context(Node(name, free_port(), (*common, *seeded),
                                          tmp / f"{name}.log"))
                 for name, seeded in (("a", ("--seed", str(SEED))), ("b", ()), ("c", ()))]
        yield nodes


def twin(tmp: Path, database: str) -> tuple[dict[str, int] | None, list[BotTable]]:
    """The same tables, sat in the same order, on one process nobody stops: the desktop
    games' final score and the bots' games."""
    stats = Stats()
    with Server("--postgres", database, "--seed", str(SEED), "--per-address",
                PER_ADDRESS) as server, Seat(tmp / "twin-host", "--server", server.url) as host, \
            Seat(tmp / "twin-guest", "--server", server.url) as guest:
        sit_down(host, guest)
        host.next("turn")  # the game has started: its table is the server's first
        tables = bots(stats, server.url, [server.url], [server.url])
        games = start_playing(host, guest)

        async def play() -> None:
            for bot in tables:
                await bot.sit()
            await asyncio.gather(*(bot.run() for bot in tables))

        asyncio.run(play())
        for game in games:
            game.join(600)
    assert not stats.errors, stats.errors
    return final_score(host.speech()), tables


def same_games(one: list[BotTable], other: list[BotTable]) -> list[str]:
    """The tables whose game differed from its twin's (benchmarks/node_loss.py's compare)."""
    return [f"table {number} ({b.code})" for number, (a, b) in enumerate(zip(one, other,
                                                                            strict=True))
            if max(a.played) != max(b.played)
            or any(a.played.get(step) != state for step, state in b.played.items())]


def test_a_rolling_restart_ends_every_game_as_its_unrestarted_twin(
        postgres_server: PostgresCluster, valkey: ValkeyServer,  # noqa: F811
        tmp_path: Path) -> None:
    expected_score, expected = twin(tmp_path, new_database(postgres_server))
    assert expected_score is not None

    stats = Stats()
    with cluster(tmp_path, new_database(postgres_server), valkey) as nodes:
        a, b, c = nodes
        urls = [node.url for node in nodes]
        with Seat(tmp_path / "host", "--server", a.url) as host, \
                Seat(tmp_path / "guest", "--server", b.url) as guest:
            sit_down(host, guest)  # the host's table on a, its guest relayed from b
            host.next("turn")
            tables = bots(stats, a.url, [b.url, c.url], urls)
            host.pause_at = 3  # its game held mid-way through every restart (it plays fast)
            games = start_playing(host, guest)
            stops: list[tuple[str, int, float]] = []

            async def play() -> None:
                for bot in tables:
                    await bot.sit()
                playing = asyncio.ensure_future(asyncio.gather(*(bot.run() for bot in tables)))
                assert await asyncio.to_thread(host.paused.wait, 120)
                for node in nodes:  # every table is on a first; then wherever it went
                    await asyncio.sleep(1.0)
                    code, took = await asyncio.to_thread(node.terminate)
                    stops.append((node.name, code, took))
                    await asyncio.to_thread(node.start)
                host.go_on.set()
                await playing

            asyncio.run(play())
            for game in games:
                game.join(600)
            host_said, guest_said = host.speech(), guest.speech()
        for node in nodes:
            stops.append((node.name, *node.terminate()))
        faults = [fault for node in nodes for fault in node.faults()]
    assert not faults, faults
    assert all(code == 0 and took < STOP_BOUND_S for _name, code, took in stops), stops
    assert not stats.errors, stats.errors
    assert not stats.refused, stats.refused  # no seat was told its table is gone
    assert stats.resumed >= 2 * BOT_TABLES  # every table's seats came back at least once
    assert not same_games(expected, tables)
    for said in (host_said, guest_said):
        assert "Connected again." in said, "\n".join(said)  # its line dropped, came back
        assert not [line for line in said if line.startswith("No open table")]
    assert final_score(host_said) == final_score(guest_said) == expected_score


def test_every_process_stopped_together_keeps_every_step_heard_and_stops_in_order(
        postgres_server: PostgresCluster, valkey: ValkeyServer,  # noqa: F811
        tmp_path: Path) -> None:
    database = new_database(postgres_server)
    stats = Stats()
    with cluster(tmp_path, database, valkey) as nodes:
        a, b, c = nodes
        urls = [node.url for node in nodes]
        tables = bots(stats, a.url, [b.url, c.url], [b.url, c.url], comeback_s=3.0)
        stopped: list[tuple[int, float]] = []

        async def play() -> None:
            for bot in tables:
                await bot.sit()
            playing = asyncio.ensure_future(asyncio.gather(*(bot.run() for bot in tables)))
            await asyncio.sleep(0.5)
            # a's tables handed over: their seats resume through b or c, half relayed.
            stopped.append(await asyncio.to_thread(a.terminate))
            while stats.resumed < BOT_TABLES and not playing.done():
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # a few steps on the relayed lines
            together = [threading.Thread(target=lambda node=node: stopped.append(
                node.terminate())) for node in (b, c)]
            for thread in together:
                thread.start()
            for thread in together:
                await asyncio.to_thread(thread.join)
            await playing

        asyncio.run(play())
        faults = [fault for node in nodes for fault in node.faults()]
    assert urls and stats.resumed >= BOT_TABLES, stats
    assert not faults, faults
    assert all(code == 0 and took < STOP_BOUND_S for code, took in stopped), stopped
    with contextlib.closing(psycopg.connect(database)) as db:
        for bot in tables:
            kept = db.execute("SELECT count(*) FROM steps WHERE code = %s AND game = "
                              "(SELECT game FROM tables WHERE code = %s)",
                              (bot.code, bot.code)).fetchone()
            assert kept is not None and kept[0] >= max(bot.played), (bot.code, kept)
