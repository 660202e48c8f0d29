"""A process stalled past its lease writes nothing of a table taken over meanwhile: with
`--postgres URL --valkey URL`, process a is SIGSTOPped with a table's two seats on it, its lease
runs out, and a seat coming back through process b has the table taken over there. Then a is
SIGCONTed, and the seat still on it sends a real step: a's save is fenced (stores.TakenOver),
so the store keeps the table exactly as b has it, nobody is told of the step, and a drops the
table and closes its lines with 1013. The seat's game, trying again through a, is relayed to b
(a's rewritten routes never overwrite b's), and the game goes on there.

Real processes on a real PostgreSQL and Valkey.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_lab import first_legal
from server_process import Running
from test_server_fenced import heard_until_closed
from valkey_server import ValkeyServer
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.state import GameState, Team
from sudden_death.server.cluster.valkey_routes import LEASE_MS
from sudden_death.server.stores.postgres_tables import PgTableStore
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(120),
]

TRY_AGAIN = 1013


async def heard(line: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of type `kind` the line hears (others before it passed over)."""
    async def wait() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await line.recv())
            if message["type"] == kind:
                return message
    return await asyncio.wait_for(wait(), timeout)


async def kept(url: str, code: str) -> tuple[str, int, list[Any]]:
    """The table as the store has it: its header, its step and its steps' actions."""
    store = await PgTableStore.open(url, min_size=1, max_size=1)
    try:
        table = await store.table(code)
        assert table is not None
        return table.header_record(), table.step, list(table.log)
    finally:
        await store.close()


async def scenario(a: Running, b: Running, url: str) -> None:
    host = await connect(a.url)
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
    seated = await heard(host, "seated")
    code, host_token = seated["code"], seated["token"]
    guest = await connect(a.url)
    await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
    guest_token = (await heard(guest, "seated"))["token"]
    for line in (host, guest):
        await heard(line, "start")
    await asyncio.sleep(0.5)  # a's route for the table written (valkey_routes.SOON_S)
    os.kill(a.proc.pid, signal.SIGSTOP)
    await asyncio.sleep(LEASE_MS / 1000 + 1.5)  # a's lease runs out; its lines stay open
    # The host comes back through b: a is lost to b, which takes the table over.
    host_again = await connect(b.url)
    await host_again.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, host_token)))
    await heard(host_again, "seated")
    await heard(host_again, "start")
    as_b_has_it = await kept(url, code)
    assert as_b_has_it[1] == 0
    os.kill(a.proc.pid, signal.SIGCONT)
    # The guest, still on a, calls the toss: a real step, which a cannot save.
    toss = first_legal(GameState(), Team.HOME)
    await guest.send(p.encode(p.Act(0, [toss])))
    told = await asyncio.gather(heard_until_closed(guest), heard_until_closed(host))
    assert "update" not in told[0] + told[1], told
    assert (guest.close_code, host.close_code) == (TRY_AGAIN, TRY_AGAIN)
    assert await kept(url, code) == as_b_has_it  # nothing of a's reached the store
    # The guest's game tries again through a, as before: it is relayed to b, which plays on.
    guest_again = await connect(a.url)
    await guest_again.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, guest_token)))
    await heard(guest_again, "seated")
    await heard(guest_again, "start")
    await guest_again.send(p.encode(p.Act(0, [toss])))
    await heard(host_again, "update")
    _header, step, _log = await kept(url, code)
    assert step == 1  # b's step, kept by b
    for line in (host_again, guest_again):
        await line.close()


def test_a_process_stalled_past_its_lease_writes_nothing_of_a_table_taken_over(
        postgres_server: PostgresCluster, valkey: ValkeyServer) -> None:  # noqa: F811
    url = new_database(postgres_server)
    common = ("--postgres", url, "--valkey", valkey.url)
    with Running(*common, "--name", "a", "--seed", "7") as a, \
            Running(*common, "--name", "b") as b:
        try:
            asyncio.run(asyncio.wait_for(scenario(a, b, url), 90))
        finally:
            if a.proc.poll() is None:
                os.kill(a.proc.pid, signal.SIGCONT)
        logs = a.stopped(), b.stopped()
    assert "another took the table over" in logs[0], logs[0]
    assert "taken over from a" in logs[1], logs[1]
    assert all("Traceback" not in log for log in logs), logs
