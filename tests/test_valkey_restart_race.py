"""A process restarted under its name while another takes its tables over (issue 70): its clean
stop left its claims, so it restores the tables nobody has taken yet, and a process a seat
reached before its lease was back may take one of them over in between. Seen in the rolling
restart (test_valkey_drain.py, one run in five under load): the restarted process wrote its
route over the taker's, then, its copy fenced at its next save, took that route out, and the
table was left with none; a seat resuming it through the third process was told `no_table`.

Two paths, each tested alone: a restored table's route is written only where no other live
process's stands (valkey_routes._SET_UNLESS_LIVE), and in a cluster a resume of a table the
store has open but this process does not hold is asked to try again (busy, not fatal, the line
closed with 1013), never told the table is unknown.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sys
from pathlib import Path

import pytest
from redis.asyncio import Redis
from server_lab import receive, run
from valkey_server import ValkeyServer
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sudden_death.server.cluster.valkey_routes import ValkeyRoutes
from sudden_death.server.lines.try_again import TRY_AGAIN
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.stores.sqlite_tables import TableStore
from sudden_death.wire import protocol as p

pytestmark = [pytest.mark.timeout(120)]


def test_a_restored_tables_route_never_overwrites_a_live_takers(
        valkey: ValkeyServer) -> None:
    """`a` restarted holds three restored tables: one whose route names `b` (alive: it took
    the table over while `a` restored), one whose route names `a` itself (left by its clean
    stop), one whose route names `gone` (a process whose lease ran out). Only the first keeps
    its route; a table opened after `open` is routed to `a` whatever its route said."""
    if not sys.platform.startswith("linux"):
        pytest.skip("real Valkey")

    async def scenario() -> dict[str, str | None]:
        prefix = f"t{secrets.token_hex(4)}:"
        client = Redis.from_url(valkey.url)
        codes = {"111111", "222222", "333333"}
        routes = None
        try:
            await client.set(f"{prefix}process:b", "ws://b")  # b's lease, alive
            for code, holder in (("111111", "b"), ("222222", "a"), ("333333", "gone"),
                                 ("444444", "b")):
                await client.set(f"{prefix}table:{code}", holder)
            routes = await ValkeyRoutes.open(valkey.url, "a", "ws://a", lambda: codes,
                                             prefix)
            codes.add("444444")  # taken over by `a` (adopt) after open: b's route replaced
            for _ in range(100):
                if await client.get(f"{prefix}table:444444") == b"a":
                    break
                await asyncio.sleep(0.05)
            found = {}
            for code in sorted(codes):
                held = await client.get(f"{prefix}table:{code}")
                found[code] = None if held is None else held.decode()
            return found
        finally:
            if routes is not None:
                await routes.close()
            await client.aclose()

    assert run(scenario) == {"111111": "b", "222222": "a", "333333": "a", "444444": "a"}


async def _hosted_elsewhere(folder: Path) -> tuple[str, str]:
    """A table opened on the process named `b` on `folder`, left open: its code and the
    host seat's token."""
    service = TableService(seed=1, store=TableStore(folder), name="b")
    service.restore()
    running = await start(service, "127.0.0.1", 0)
    try:
        async with connect(address(running, tls=False)) as host:
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seated = await receive(host)
            assert seated["type"] == "seated", seated
        await asyncio.sleep(0.05)
        return str(seated["code"]), str(seated["token"])
    finally:
        await stop(running)
        service.close()


def test_a_resume_of_a_table_held_by_another_process_is_asked_to_try_again(
        tmp_path: Path) -> None:
    """Process `c` of a cluster shares the store with `b`, which holds the table (its claim);
    no route led the seat to `b` (being rewritten, or lost in a restart's race). `c` answers
    busy, not fatal, and closes the line with 1013: the seat tries again, and its next try
    finds the table's holder. Outside a cluster the same resume is still `no_table`."""

    async def scenario() -> tuple[dict[str, object], int | None, dict[str, object]]:
        code, token = await _hosted_elsewhere(tmp_path)
        answers: list[dict[str, object]] = []
        closes: list[int | None] = []
        for shared in (True, False):
            service = TableService(store=TableStore(tmp_path), name="c")
            service.restore()
            assert code not in service.seats.tables  # b's, by its claim
            service.seats.shared = shared
            running = await start(service, "127.0.0.1", 0)
            try:
                async with connect(address(running, tls=False)) as seat:
                    await seat.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, token)))
                    answers.append(await receive(seat))
                    with contextlib.suppress(ConnectionClosed):
                        await asyncio.wait_for(seat.recv(), 5)
                    closes.append(seat.close_code)
            finally:
                await stop(running)
                for handle in service.seats.waits.values():
                    handle.cancel()
                service.close()
        return answers[0], closes[0], answers[1]

    in_cluster, closed, alone = run(scenario)
    assert in_cluster["type"] == "refused" and in_cluster["code"] == p.BUSY, in_cluster
    assert in_cluster["fatal"] is False
    assert closed == TRY_AGAIN
    assert alone["type"] == "refused" and alone["code"] == p.NO_TABLE, alone
