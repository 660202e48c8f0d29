"""A whole online game across a cluster, by real game processes (issue 62): three table
servers on one PostgreSQL and one Valkey (`--postgres URL --valkey URL`), each game on a
process of its own. Anna signs up on A and waits at a quick table; Ben signs up on B and his
quick game pairs him with Anna's table on A; Cleo, on C, finds the game in her lobby and
watches it. They play it out by their key scripts, and it ends as the same seeded game ends on
one process (tests/test_online_game.py): the Hawks 7, the Bears 0, both players rated once,
with the ratings one process gives that result.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from table_driver import Seat, Server, final_score, start_playing
from test_online_game import PLAY_ONLINE, SEED, sign_up
from test_valkey_relay import until_listed
from valkey_server import ValkeyServer, flushed

from sudden_death.server.stores.ratings import rated
from sudden_death.server.stores.seam import START, Rating

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def database(postgres_server: PostgresCluster) -> str:  # noqa: F811
    return new_database(postgres_server)


def listed(url: str, check: Callable[[dict[str, Any]], bool]) -> None:
    """Until the lobby of the server at `url` lists what `check` wants (test_valkey_relay's
    `until_listed`, from a thread of its own)."""
    asyncio.run(until_listed(url, check))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, database: str,
           valkey_engine: ValkeyServer) -> Iterator[tuple[Seat, Seat, Seat]]:
    tmp = tmp_path_factory.mktemp("cluster")
    assert flushed(valkey_engine.port)  # no counts of 127.0.0.1 left by the tests before
    common = ("--seed", str(SEED), "--postgres", database, "--valkey", valkey_engine.url)
    with Server(*common, "--name", "a") as a, Server(*common, "--name", "b") as b, \
            Server(*common, "--name", "c") as c:
        anna = Seat(tmp / "anna", "--server", a.url)
        ben = Seat(tmp / "ben", "--server", b.url)
        cleo = Seat(tmp / "cleo", "--server", c.url)
        with anna, ben, cleo:
            sign_up(anna, "Anna")
            anna.send("return")  # Quick game: nobody waits, so Anna's table waits, on A
            anna.until_said("Waiting for a player.")
            sign_up(ben, "Ben")
            # B reads the other processes' entries at most once a second: until it has A's
            # with Anna's table, Ben's quick game would open a table of its own on B.
            listed(b.url, lambda lobby: lobby["open"] == 1)
            anna.pause_at = 3  # a few steps in, Cleo comes to watch
            ben.send("return")  # Quick game, on B: sent to Anna's table on A
            threads = start_playing(anna, ben)
            assert anna.paused.wait(120)
            listed(c.url, lambda lobby: lobby["playing"] == 1)  # C has A's news too
            cleo.send(*PLAY_ONLINE)
            cleo.until_said("Your name on this server: A new name, 1 of 4")
            cleo.send("down", "down", "return")  # Play without a name: the lobby, on C
            cleo.said_starting("Lobby: 0 open, 1 playing.")
            cleo.send("type b", "return")  # B: Ben's game, held by A
            cleo.until_said("Watching the Bears and the Hawks.")
            anna.go_on.set()
            for thread in threads:
                thread.join(600)
            cleo.until_said("Back to the lobby, 1 of 2")
            yield anna, ben, cleo
        for server in (a, b, c):
            server.stop()
            assert "Traceback" not in server.log, server.log


def test_a_quick_game_across_three_processes_ends_as_on_one(
        played: tuple[Seat, Seat, Seat], database: str) -> None:
    anna, ben, cleo = played
    assert "You are the Hawks; Ben plays the Bears." in anna.speech()
    assert "You are the Bears; Anna plays the Hawks." in ben.speech()
    assert final_score(anna.speech()) == final_score(ben.speech()) == {"Hawks": 7, "Bears": 0}
    said = cleo.speech()
    watched = said[said.index("Watching the Bears and the Hawks."):]
    assert final_score(watched) == {"Bears": 0, "Hawks": 7}  # as both players heard it
    assert "Someone is watching your game." in anna.speech()
    deadline = time.monotonic() + 15  # the server rates a finished game on a thread after
    while True:  # telling its seats: on a busy machine the row comes a moment after the score
        with contextlib.closing(psycopg.connect(database)) as db:
            games = db.execute("SELECT first, second, score FROM rated_games").fetchall()
            ratings = {name: Rating(rating, deviation, volatility)
                       for name, rating, deviation, volatility in db.execute(
                           "SELECT folded, rating, deviation, volatility FROM ratings")}
        if games or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(games) == 1 and {games[0][0], games[0][1]} == {"anna", "ben"}
    first, second, score = games[0]
    expected = dict(zip((first, second), rated(Rating(*START), Rating(*START), score),
                        strict=True))
    assert set(ratings) == set(expected)
    for name, rating in expected.items():  # what one process's Glicko-2 gives that game
        assert (ratings[name].rating, ratings[name].deviation, ratings[name].volatility) == \
            pytest.approx((rating.rating, rating.deviation, rating.volatility))
    assert ratings["anna"].rating > 1500 > ratings["ben"].rating  # the winner up
