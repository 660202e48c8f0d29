"""A table is played by one server: each claims the tables it opens and restores in the store
(stores.TableStore.claim), under a name that stays the same across its restarts, and lets an
ended table go. Two servers sharing one data folder never both play a table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from server_lab import receive, run
from test_server_load import ServerProcess
from websockets.asyncio.client import connect

from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.stores.sqlite_tables import TableStore
from sudden_death.wire import protocol as p


async def hosted(folder: Path, name: str, leave: bool = False) -> str:
    """A server named `name` on `folder`: a table opened on it (and left, with `leave`),
    then the server stopped with the table as it is."""
    service = TableService(seed=1, store=TableStore(folder), name=name)
    service.restore()
    running = await start(service, "127.0.0.1", 0)
    try:
        async with connect(address(running, tls=False)) as host:
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = str((await receive(host))["code"])
            if leave:
                await host.send(p.encode(p.Leave()))
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
        return code
    finally:
        await stop(running)
        service.close()


async def restored(folder: Path, name: str) -> dict[str, Any]:
    service = TableService(store=TableStore(folder), name=name)
    try:
        service.restore()
        return dict(service.tables)
    finally:
        for handle in service.seats.waits.values():
            handle.cancel()
        service.close()


def test_a_table_is_restored_only_by_the_server_that_claimed_it(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, dict[str, Any], dict[str, Any]]:
        code = await hosted(tmp_path, "server one")
        return code, await restored(tmp_path, "server two"), \
            await restored(tmp_path, "server one")

    code, other, same = run(scenario)
    assert other == {}  # the other server leaves it alone
    assert list(same) == [code]  # the server that opened it, restarted, takes it back


def test_an_ended_table_is_let_go_and_two_servers_never_share_a_code(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, str, bool]:
        ended = await hosted(tmp_path, "server one", leave=True)
        held = await hosted(tmp_path, "server one")
        store = TableStore(tmp_path)
        try:
            free = store.claim(ended, "server two")  # let go when it ended
            taken = not store.claim(held, "server two")  # still server one's
        finally:
            store.close()
        return ended, held, free and taken

    ended, held, both = run(scenario)
    assert ended != held and both


def test_a_server_process_takes_back_only_the_tables_claimed_under_its_name(
        tmp_path: Path) -> None:
    """`--name`: two server processes on one data folder, one after the other; the table the
    first opened is restored by it, restarted, and not by the other."""
    def started(name: str) -> ServerProcess:
        return ServerProcess("--data", str(tmp_path), "--name", name)

    async def hosted_on(url: str) -> str:
        async with connect(url) as host:
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            return str((await receive(host))["code"])

    first = started("tables-1")
    try:
        code = asyncio.run(hosted_on(first.url))
    finally:
        assert first.stop() == 0
    other, again = started("tables-2"), None
    try:
        assert other.stop() == 0
        again = started("tables-1")
    finally:
        if again is not None:
            assert again.stop() == 0
    restored = [json.loads(line)["message"] for log in (other.log, again.log if again else "")
                for line in log.splitlines() if "restored" in line]
    assert restored == ["0 tables restored", "1 tables restored"], restored
    assert f"table {code} opened" in first.log
