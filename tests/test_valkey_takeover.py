"""A server process lost mid-game, the game goes on (issue 63): with `--postgres URL --valkey URL`,
a process SIGKILLed leaves its tables in PostgreSQL and its routes in Valkey; once its lease
runs out (4 s), a seat that comes back through another process has the table taken over there
(the claim moved in one statement, the table read as last committed) and plays on.

Real processes on a real PostgreSQL and Valkey. The table's game is compared with the same
seeded game played on one process that nobody killed: the same states at every step heard,
the same end. The table's host sat on the killed process directly and its guest through
another process's relay, so both kinds of line are lost with it.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_process import Running
from table_bots import BotTable, Stats
from valkey_server import ValkeyServer

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(180),
]

SEED = "7"
BOT_SEED = 2026


def table(url: str, comeback: list[str], guest_url: str | None = None) -> BotTable:
    return BotTable(url, random.Random(BOT_SEED), Stats(), comeback_s=30.0,
                    comeback_urls=comeback, guest_url=guest_url)


async def played_with_a_kill(bot: BotTable, kill: Running, at: int) -> float:
    """The table played, its holder SIGKILLed once `at` steps were heard; returns when the
    kill came (perf_counter)."""
    bot.pause_at = at  # stopped between two steps, however fast or loaded the machine
    playing = asyncio.ensure_future(bot.run())
    await asyncio.wait({playing, asyncio.ensure_future(bot.paused.wait())},
                       return_when=asyncio.FIRST_COMPLETED)
    assert bot.paused.is_set(), bot.stats.errors
    killed_at = time.perf_counter()
    await asyncio.to_thread(kill.killed)
    bot.go_on.set()
    await playing
    return killed_at


def test_a_table_whose_process_is_killed_plays_on_elsewhere_as_it_would_have(
        postgres_server: PostgresCluster, valkey: ValkeyServer) -> None:  # noqa: F811
    with Running("--postgres", new_database(postgres_server), "--seed", SEED) as alone:
        reference = table(alone.url, [alone.url])
        asyncio.run(reference.run())
        assert "Traceback" not in alone.stopped()
    assert not reference.stats.errors and reference.stats.games == 1
    assert reference.stats.steps >= 6, reference.stats  # a game long enough to cut in two

    common = ("--postgres", new_database(postgres_server), "--valkey", valkey.url)
    with Running(*common, "--name", "a", "--seed", SEED) as a, \
            Running(*common, "--name", "b") as b, Running(*common, "--name", "c") as c:
        bot = table(a.url, [b.url, c.url], guest_url=b.url)
        asyncio.run(played_with_a_kill(bot, a, reference.stats.steps // 2))
        logs = [b.stopped(), c.stopped()]
    assert not bot.stats.errors and bot.stats.games == 1
    assert bot.stats.resumed == 2  # both seats came back, through the others
    assert sum("taken over from a" in log for log in logs) == 1, logs
    assert all("Traceback" not in log for log in logs), logs
    # Every step either run heard is the same state, and the end is the same.
    assert bot.played, bot.played
    for step, state in bot.played.items():
        assert reference.played.get(step) == state, step
    assert max(bot.played) == max(reference.played)
    # Back within the lease (4 s) and a few tries, on a loaded machine too.
    assert bot.back_after and max(bot.back_after) < 15


@pytest.mark.bench
def test_the_node_loss_benchmark_matches_every_game_with_its_twin() -> None:
    """benchmarks/node_loss.py, small: a process killed, every game as its unkilled twin's."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import node_loss

    assert node_loss.main(["--tables", "6", "--step", "0.02"]) == 0


@pytest.mark.bench
def test_the_node_loss_benchmark_restarts_every_process_and_matches_every_game() -> None:
    """benchmarks/node_loss.py --stop term, small: a rolling restart, every game as its twin's,
    every process's log clean."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import node_loss

    assert node_loss.main(["--stop", "term", "--tables", "6", "--step", "0.05"]) == 0
