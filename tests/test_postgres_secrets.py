"""The leak suites once more with the tables kept in PostgreSQL (issue 61): no seat hears the
other's choice before its reveal over ten thousand tries, and no spectator or lobby listener
hears anything of the seats' fuzzed messages, when every change (a held choice included) is
a committed transaction awaited before any word goes out. The tests are test_server_secrets'
and test_server_watch's own, collected here; their lab server gets a PgTableStore on a fresh
database of this worker's private cluster (tests/postgres_places.py)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import pytest
import server_lab
import test_server_secrets
import test_server_watch
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from test_server_secrets import (  # noqa: F401
    test_no_seat_hears_the_others_choice_before_the_reveal_over_ten_thousand_tries,
)
from test_server_watch import (  # noqa: F401
    test_a_spectator_hears_the_whole_game_as_the_seats_do_and_no_choice_before_its_reveal,
    test_ten_thousand_fuzzed_messages_from_the_seats_never_reach_a_spectator_or_the_lobby,
)

from sudden_death.server.stores.postgres_tables import PgTableStore

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the cluster is Debian's PostgreSQL, driven through /proc"),
    pytest.mark.timeout(600),
    pytest.mark.soak,  # the same suites by volume: the default Python runs them (tasks.py)
]


@pytest.fixture(autouse=True)
def on_postgres(request: pytest.FixtureRequest,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The suites' `server(...)` keeps its tables in a new PostgreSQL database each time; at
    the end, each of those databases holds the steps played (the store was really used)."""
    cluster: PostgresCluster = request.getfixturevalue("postgres_server")
    used: list[str] = []

    @asynccontextmanager
    async def kept_in_postgres(*args: Any, **kwargs: Any) -> AsyncIterator[server_lab.Lab]:
        url = new_database(cluster)
        used.append(url)
        store = await PgTableStore.open(url)
        async with server_lab.server(*args, store=store, **kwargs) as lab:
            yield lab

    lab_server: Callable[..., Any] = kept_in_postgres
    for module in (test_server_secrets, test_server_watch):
        monkeypatch.setattr(module, "server", lab_server)
    yield
    assert used
    for url in used:
        with psycopg.connect(url) as db:
            (steps,) = db.execute("SELECT count(*) FROM steps").fetchone() or (0,)
        assert steps > 0, url
