"""The limits counted across a cluster's processes on a real Valkey (server/cluster/valkey_tally.py,
issue 62): a client meets the same per-address limits, and a name the same limit on tries,
whichever process it reaches; an engine away is each process holding its own, never a
refusal and never a wait.

The processes here are `ValkeyTally`s in one test, each with a lease written as its routes
would (`sd:process:<name>`), under the limits' own `Addresses`; the whole path, real server
processes and their lines, is the last tests.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from redis.asyncio import Redis
from server_lab import receive, run, until
from server_process import Running
from valkey_server import ValkeyServer, valkey_server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from sudden_death.server.cluster import valkey_tally
from sudden_death.server.cluster.valkey_tally import ValkeyTally
from sudden_death.server.lines.limits import Addresses, Limits
from sudden_death.wire import protocol as p

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real Valkey"),
              pytest.mark.timeout(120)]

CLIENT = "203.0.113.7"


class Processes:
    """Tallies named as asked, each with a lease, on one Valkey under the test's own prefix."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"t{secrets.token_hex(4)}:"
        self.client = Redis.from_url(url)
        self.open: list[ValkeyTally] = []

    async def tally(self, name: str) -> ValkeyTally:
        await self.client.set(f"{self.prefix}process:{name}", f"relay://{name}")
        tally = await ValkeyTally.open(self.url, name, self.prefix)
        self.open.append(tally)
        return tally

    async def close(self) -> None:
        for tally in self.open:
            await tally.close()
        await self.client.aclose()


def test_events_are_the_others_own_and_given_back(valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        processes = Processes(valkey.url)
        try:
            a, b = await processes.tally("a"), await processes.tally("b")
            for _ in range(3):
                a.add("fail", CLIENT)

            async def b_hears(count: int) -> bool:
                return len(await b.ages("fail", CLIENT, 60)) == count

            await until(lambda: b_hears(3))
            assert await a.ages("fail", CLIENT, 60) == []  # its own are counted in memory
            assert all(0 <= age < 5 for age in await b.ages("fail", CLIENT, 60))
            assert await b.ages("fail", "198.51.100.1", 60) == []  # another address
            assert await b.ages("name", CLIENT, 60) == []  # another kind
            a.take_back("fail", CLIENT)
            await until(lambda: b_hears(2))
            await asyncio.sleep(0.3)
            assert await b.ages("fail", CLIENT, 0.2) == []  # older than the window asked
        finally:
            await processes.close()

    run(scenario)


def test_gauges_count_live_processes_only(valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        processes = Processes(valkey.url)
        try:
            a, b, c = [await processes.tally(name) for name in "abc"]
            a.gauge("lines", CLIENT, 5)
            b.gauge("lines", CLIENT, 2)

            async def c_sees(count: int) -> bool:
                return await c.elsewhere("lines", CLIENT) == count

            await until(lambda: c_sees(7))
            assert await a.elsewhere("lines", CLIENT) == 2
            b.gauge("lines", CLIENT, 0)
            await until(lambda: c_sees(5))
            await processes.client.delete(f"{processes.prefix}process:a")  # a lost
            await until(lambda: c_sees(0))
            await a.close()  # its gauge taken out on the way
            assert await processes.client.zcard(f"{processes.prefix}limit:lines:{CLIENT}") == 0
        finally:
            await processes.close()

    run(scenario)


def test_one_address_meets_each_limit_once_across_processes(valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        processes = Processes(valkey.url)
        try:
            limits = Limits(per_address=3, failed_tries=3, connect_burst=4, connects_per_s=0.01)
            a, b = [Addresses(limits, tally=await processes.tally(name)) for name in "ab"]
            # Lines open at once: two here, one there, and no fourth anywhere.
            assert await a.opening(CLIENT) and await a.opening(CLIENT)
            await until(lambda: _true(b.tally.elsewhere("lines", CLIENT), 2))
            assert await b.opening(CLIENT)
            await until(lambda: _true(a.tally.elsewhere("lines", CLIENT), 1))
            assert not await a.opening(CLIENT) and not await b.opening(CLIENT)
            a.closing(CLIENT)
            await until(lambda: _true(b.tally.elsewhere("lines", CLIENT), 1))
            assert await b.opening(CLIENT)
            # Wrong tries: two here and one there, and both are slowed down.
            a.failed(CLIENT)
            a.failed(CLIENT)
            assert await b.waiting(CLIENT) == 0
            b.failed(CLIENT)
            await until(lambda: _true(a.tally.ages("fail", CLIENT, 60), 1, len))
            assert 59 < await a.waiting(CLIENT) <= 60
            assert 59 < await b.waiting(CLIENT) <= 60
            b.refund(CLIENT)  # a try that proved right is given back everywhere
            await until(lambda: _true(a.tally.ages("fail", CLIENT, 60), 0, len))
            assert await a.waiting(CLIENT) == 0
            # New lines: a burst of four in all, whichever process they reach.
            assert await a.arriving(CLIENT) and await a.arriving(CLIENT)
            await until(lambda: _true(b.tally.ages("arrive", CLIENT, 400), 2, len))
            assert await b.arriving(CLIENT) and await b.arriving(CLIENT)
            await until(lambda: _true(a.tally.ages("arrive", CLIENT, 400), 2, len))
            assert not await a.arriving(CLIENT) and not await b.arriving(CLIENT)
            assert await a.arriving("198.51.100.1")  # another address is not slowed
        finally:
            await processes.close()

    run(scenario)


async def _true(asked: Coroutine[Any, Any, Any], wanted: int,
                measure: Callable[[Any], int] = int) -> bool:
    return measure(await asked) == wanted


async def _at_most(asked: Coroutine[Any, Any, Any], most: int,
                   measure: Callable[[Any], int] = int) -> bool:
    return measure(await asked) <= most


def test_valkey_away_each_process_holds_its_own_without_waiting(
        caplog: pytest.LogCaptureFixture) -> None:
    with valkey_server() as own:
        async def scenario() -> None:
            tally = await ValkeyTally.open(own.url, "a")
            book = Addresses(Limits(per_address=2), tally=tally)
            try:
                own.kill()
                with caplog.at_level(logging.WARNING, logger="sudden_death.server"):
                    started = time.monotonic()
                    assert await book.opening(CLIENT) and await book.opening(CLIENT)
                    assert not await book.opening(CLIENT)  # its own limit still holds
                    book.failed(CLIENT)
                    assert await book.waiting(CLIENT) == 0
                    assert time.monotonic() - started < valkey_tally.TIMEOUT_S * 3
                said = [record.getMessage() for record in caplog.records
                        if "each process counts its own" in record.getMessage()]
                assert len(said) == 1
                own.start()
                client = Redis.from_url(own.url)
                try:
                    await asyncio.sleep(valkey_tally.RETRY_S)
                    await book.waiting(CLIENT)  # a read tried again: back, gauges rewritten

                    async def written() -> bool:
                        return await client.zscore(f"sd:limit:lines:{CLIENT}", "a") == 2

                    await until(written, timeout=valkey_tally.RETRY_S * 3 + 2)
                finally:
                    await client.aclose()
            finally:
                await tally.close()

        run(scenario)


@pytest.fixture
def database(postgres_server: PostgresCluster) -> str:  # noqa: F811
    return new_database(postgres_server)


@pytest.fixture
def two(database: str, valkey: ValkeyServer) -> Iterator[tuple[Running, Running]]:
    # Names of their own: the worker's other tests share this Valkey, and a process of theirs
    # named alike, killed, could leave counts under a name a live process now has.
    common = ("--postgres", database, "--valkey", valkey.url)
    names = [f"{name}-{secrets.token_hex(3)}" for name in "ab"]
    with Running(*common, "--name", names[0]) as a, Running(*common, "--name", names[1]) as b:
        a.name, b.name = names  # type: ignore[attr-defined]
        yield a, b


def test_a_guesser_meets_one_limit_on_two_real_processes(two: tuple[Running, Running],
                                                         valkey: ValkeyServer) -> None:
    """Wrong codes from one address, half to each process: after `failed_tries` in all,
    both slow it down (alone, each would have allowed as many again)."""
    a, b = two
    tries = Limits().failed_tries

    async def scenario() -> None:
        client = Redis.from_url(valkey.url)
        try:
            for n in range(tries):
                async with connect((a, b)[n % 2].url) as line:
                    await line.send(p.encode(p.Join(p.PROTOCOL_VERSION, "000000", "Bears")))
                    refused = await receive(line)
                    assert refused["type"] == "refused" and refused["code"] == p.NO_TABLE
            for _ in range(100):  # each process's tries written for the other (queued)
                if await client.zcard("sd:limit:fail:127.0.0.1") == tries:
                    break
                await asyncio.sleep(0.05)
            for server in (a, b):
                async with connect(server.url) as line:
                    await line.send(p.encode(p.Join(p.PROTOCOL_VERSION, "000000", "Bears")))
                    refused = await receive(line)
                    assert refused["code"] == p.SLOW_DOWN, refused
        finally:  # the next test's servers share this Valkey: its tries are not theirs
            await client.delete("sd:limit:fail:127.0.0.1")
            await client.aclose()

    run(scenario)
    for server in two:
        assert "Traceback" not in server.stopped()


def test_new_lines_from_one_address_meet_one_burst_on_two_real_processes(
        two: tuple[Running, Running], valkey: ValkeyServer) -> None:
    """The connect burst is the cluster's, not each process's: past it, 429 on either (each
    line closed at once: the lines open at a time are another limit)."""
    a, b = two
    burst = Limits.shared(Limits.per_address).connect_burst  # a server's default

    async def scenario() -> None:
        client = Redis.from_url(valkey.url)
        try:
            for n in range(burst):
                async with connect((a, b)[n % 2].url):
                    pass
            for _ in range(100):  # each process's arrivals written for the other (queued)
                if await client.zcard("sd:limit:arrive:127.0.0.1") == burst:
                    break
                await asyncio.sleep(0.05)
            for server in (a, b):
                with pytest.raises(InvalidStatus) as refused:
                    await connect(server.url)
                assert refused.value.response.status_code == 429
        finally:  # the next test's servers share this Valkey: its arrivals are not theirs
            await client.delete("sd:limit:arrive:127.0.0.1")
            await client.aclose()

    run(scenario)


def test_connections_in_their_handshake_meet_one_limit_on_two_real_processes(
        two: tuple[Running, Running], valkey: ValkeyServer) -> None:
    """Raw TCP connections that never begin a handshake count for the whole cluster: with
    one address's lines all held by one process (and the one let through to hear `busy`),
    the other closes the next at once; closing some frees places on either."""
    a, b = two
    limit = Limits().per_address
    gauge = "sd:limit:lines:127.0.0.1"

    def score(found: float | None) -> int:
        return int(found or 0)

    async def raw(server: Running) -> socket.socket:
        line = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        line.setblocking(False)
        host, port = server.url.rsplit("/", 1)[1].rsplit(":", 1)
        await asyncio.get_running_loop().sock_connect(line, (host, int(port)))
        return line

    async def closed_within(line: socket.socket, seconds: float) -> bool:
        try:
            found = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(line, 1),
                                           seconds)
        except (asyncio.TimeoutError, TimeoutError):
            return False
        except ConnectionResetError:
            return True
        return found == b""

    def alive(line: socket.socket) -> bool:
        """Whether the server still holds `line` open (peeked: nothing is read)."""
        try:
            return line.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    async def scenario() -> None:
        client = Redis.from_url(valkey.url)
        held: list[socket.socket] = []

        async def hold() -> None:
            """A's limit and its one told line held (again, once A let them go)."""
            for line in held:
                line.close()
            held.clear()
            await until(lambda: _at_most(client.zscore(gauge, a.name), 0, score), 20)
            for _ in range(limit + 1):
                held.append(await raw(a))
            await until(lambda: _true(client.zscore(gauge, a.name), limit + 1, score), 20)

        try:
            await hold()
            for server in (a, b):  # A's own count first
                # A process that found Valkey slower than the limits' read timeout (0.5 s,
                # a busy machine) counts alone for a moment, by design, and lets one in.
                # A try counts only while A held every line throughout: on a starved machine
                # the held lines' handshake time (10 s) ran out before B's turn, A closed
                # them, and B then rightly let lines in (a busy .ci/run, issue 71); they are
                # held again and B tried again. Six honest misses fail.
                misses = 0
                while True:
                    extra = await raw(server)
                    shut = await closed_within(extra, 3)
                    extra.close()
                    if shut:
                        break
                    if not all(alive(line) for line in held):
                        await hold()
                        continue
                    misses += 1
                    assert misses < 6, f"{server.name} let in {misses} lines past the limit"
            for line in held[:2]:
                line.close()
            # At most: on a starved machine the held lines' handshake time (10 s) can run
            # out first, and A closes the rest itself; either way places are free again.
            await until(lambda: _at_most(client.zscore(gauge, a.name), limit - 1, score))
            again = await raw(b)
            held.append(again)
            assert not await closed_within(again, 0.5)
        finally:
            for line in held:
                line.close()
            await client.aclose()

    run(scenario)
    for server in two:
        assert "Traceback" not in server.stopped()


def test_tables_waiting_from_one_address_meet_one_cap_on_two_real_processes(
        two: tuple[Running, Running], valkey: ValkeyServer) -> None:
    """The tables one address may have waiting are the cluster's: with them all on A, B
    refuses one more (`tables`); once one of A's fills, B opens one."""
    a, b = two
    cap = Limits.shared(Limits.per_address).open_tables  # a server's default

    async def hosted(server: Running) -> tuple[ClientConnection, dict[str, Any]]:
        line = await connect(server.url)
        await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        return line, await receive(line)

    async def scenario() -> None:
        lines: list[ClientConnection] = []
        client = Redis.from_url(valkey.url)
        try:
            codes = []
            for _ in range(cap):
                line, seated = await hosted(a)
                lines.append(line)
                assert seated["type"] == "seated", seated
                codes.append(seated["code"])
            await until(lambda: _true(client.zscore("sd:limit:tables:127.0.0.1", a.name), cap,
                                      lambda found: int(found or 0)))
            line, refused = await hosted(b)
            lines.append(line)
            assert refused["type"] == "refused" and refused["code"] == p.TABLES, refused
            guest = await connect(a.url)  # one of A's tables fills: no longer waiting
            lines.append(guest)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, codes[0], "Bears")))
            assert (await receive(guest))["type"] == "seated"
            await until(lambda: _true(client.zscore("sd:limit:tables:127.0.0.1", a.name),
                                      cap - 1, lambda found: int(found or 0)))
            line, seated = await hosted(b)
            lines.append(line)
            assert seated["type"] == "seated", seated
        finally:
            for line in lines:
                await line.close()
            await client.aclose()

    run(scenario)
    for server in two:
        assert "Traceback" not in server.stopped()
