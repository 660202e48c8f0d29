"""A table taken over by another process while this one still plays it (stalled past its
lease in a cluster) is fenced: this process's next save of it is refused (stores.TakenOver),
and the table is dropped here, its seats' and spectators' lines closed with 1013 ("try again
later") so their games reconnect to the process that now plays it, with nothing of this
process's step in the store and no seat told of it. Run on a real server with real WebSocket
clients, against SQLite and PostgreSQL (tests/postgres_places.py: skipped without PostgreSQL,
unless SUDDEN_DEATH_REQUIRE_POSTGRES is set)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from server_lab import first_legal, receive, run, seated_pair, server, until
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from sudden_death.engine.state import GameState, Team
from sudden_death.server.stores.seam import TableStore, answered
from sudden_death.wire import protocol as p

TRY_AGAIN = 1013


async def opened(kind: str, place: Any) -> TableStore:
    """A tables store of `kind` on `place` (a folder, or a database's URL)."""
    if kind == "sqlite":
        from sudden_death.server.stores.sqlite_tables import TableStore as SQLiteTables
        return SQLiteTables(place)
    from sudden_death.server.stores.postgres_tables import PgTableStore
    return await PgTableStore.open(place)


async def heard_until_closed(client: ClientConnection) -> list[str]:
    """The types of every message the client hears until its line is closed."""
    heard = []
    try:
        while True:
            heard.append((await receive(client, timeout=5))["type"])
    except ConnectionClosed:
        return heard


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_table_taken_over_elsewhere_is_dropped_and_its_lines_closed_to_try_again(
        kind: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    place: Any = tmp_path
    if kind == "postgres":
        place = new_database(request.getfixturevalue("postgres_server"))

    async def scenario() -> None:
        other = await opened(kind, place)  # the process that takes the table over
        async with server(store=await opened(kind, place)) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            code = host_seat["code"]
            spectator = await lab.connect()
            await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Owl")))
            assert (await receive(spectator))["type"] == "start"
            for seat in (host, guest):
                assert (await receive(seat))["type"] == "watching"
            before = await answered(other.table(code))
            assert before is not None
            # This process stalled past its lease: another took the table over meanwhile.
            assert await answered(other.take_over(code, "beta", lab.service.name))
            # The guest (home) acts: this process's save of it is refused.
            await guest.send(p.encode(p.Act(0, [first_legal(GameState(), Team.HOME)])))
            heard = await asyncio.gather(*(heard_until_closed(line)
                                           for line in (host, guest, spectator)))
            assert heard == [[], [], []]  # nobody told of a step the table's store lacks
            assert [line.close_code for line in (host, guest, spectator)] == [TRY_AGAIN] * 3
            await until(lambda: code not in lab.service.tables)
            assert not any(key[0] == code for key in lab.service.seats.connections)
            assert code not in lab.service.seats.ended  # this copy is not the table's
            after = await answered(other.table(code))
            assert after is not None
            assert after.header_record() == before.header_record()
            assert (after.step, after.held, after.log) == (before.step, before.held, before.log)
            assert await answered(other.claim(code, "beta"))  # still the taker's
            keeper = lab.service.seats.keeper
            assert not keeper.failing and not keeper.busy  # not an outage to wait out
            # A line of the table's that is greeted here afterwards is not seated here: it is
            # told nothing and closed to try again (the table's holder is reached through the
            # relay, as after a clean stop's hand-over).
            resumer = await lab.connect()
            await resumer.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, host_seat["token"])))
            assert await heard_until_closed(resumer) == []
            assert resumer.close_code == TRY_AGAIN
        closing = other.close()
        if closing is not None:
            await closing

    run(scenario)
