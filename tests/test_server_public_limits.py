"""The limits of a server open to strangers that a client cannot get around (issue 63): a line
counts against its address from its TCP accept, not only once its handshake is done, and an
IPv6 client is counted by its /64, since it could take a new address of it for every line.

Real sockets on loopback against a real server: raw TCP connections that never begin their
WebSocket handshake, beside a table that plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_lab import Lab, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidMessage

from sudden_death.server.lines.limits import Addresses, Limits, Place
from sudden_death.server.lines.line import grouped
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.wire import protocol as p

SOURCE = "127.0.0.9"  # the raw connections' address (the table's lines come from 127.0.0.1)


async def raw_line(lab: Lab) -> socket.socket:
    """A TCP connection from SOURCE that never sends a byte."""
    line = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    line.setblocking(False)
    line.bind((SOURCE, 0))
    await asyncio.get_running_loop().sock_connect(
        line, ("127.0.0.1", int(lab.url.rsplit(":", 1)[1])))
    return line


async def closed_within(line: socket.socket, seconds: float) -> bool:
    """Whether the server closes `line` within `seconds`."""
    try:
        data = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(line, 1), seconds)
    except (asyncio.TimeoutError, TimeoutError):
        return False
    except ConnectionResetError:
        return True
    return data == b""


async def counted(lab: Lab, count: int) -> None:
    """Wait until the server counts `count` lines from SOURCE."""
    for _ in range(250):
        if lab.service.addresses.lines.get(SOURCE, 0) == count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{lab.service.addresses.lines.get(SOURCE, 0)} counted, not {count}")


async def one_step(host: ClientConnection, guest: ClientConnection) -> None:
    """The coin toss of a fresh table: both seats hear the same update."""
    await guest.send(p.encode(p.Act(0, [{"action": "CallCoin", "face": "heads"}])))
    updates = [await receive(seat) for seat in (host, guest)]
    assert updates[0] == updates[1] and updates[0]["type"] == "update", updates


def test_connections_in_their_handshake_count_against_their_address(
        caplog: pytest.LogCaptureFixture) -> None:
    """Up to `per_address` raw connections are held, and one more (which would hear `busy`
    in words once its handshake is done); the next are closed at once, logged once; a table
    elsewhere plays on; closing raw connections frees places."""
    caplog.set_level(logging.INFO, logger="sudden_death.server")

    async def scenario() -> None:
        async with server(limits=Limits(per_address=3, handshake_s=30)) as lab:
            host, guest, _, _ = await seated_pair(lab)
            held = []
            for count in range(1, 5):
                held.append(await raw_line(lab))
                await counted(lab, count)
            extras = [await raw_line(lab) for _ in range(3)]
            try:
                for extra in extras:
                    assert await closed_within(extra, 2)
                still = await asyncio.gather(*(closed_within(line, 0.3) for line in held))
                assert not any(still)
                with pytest.raises((InvalidMessage, OSError)):  # a game's line too
                    await connect(lab.url, local_addr=(SOURCE, 0), open_timeout=2)
                await one_step(host, guest)  # the table elsewhere never noticed
                for line in held[:2]:
                    line.close()
                await counted(lab, 2)
                again = await lab.connect(SOURCE)
                await again.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
                assert (await receive(again))["type"] == "seated"
            finally:
                for line in held + extras:
                    line.close()
            await counted(lab, 1)  # only the game's line is left

    run(scenario)
    said = [record for record in caplog.records if "closed at once" in record.getMessage()]
    assert len(said) == 1 and SOURCE in said[0].getMessage()
    assert not any(record.exc_info for record in caplog.records)


def test_a_line_is_counted_once_from_its_accept_to_its_close() -> None:
    """A game's lines: counted at accept, not again once greeted, and given back on close;
    the one past the limit hears `busy` in words (tests/test_server_hostile.py too)."""
    async def scenario() -> None:
        async with server(limits=Limits(per_address=2)) as lab:
            lines = [await lab.connect(SOURCE) for _ in range(2)]
            await lines[0].send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            assert (await receive(lines[0]))["type"] == "seated"
            await counted(lab, 2)
            told = await lab.connect(SOURCE)
            refusal = await receive(told)
            assert refusal["type"] == "refused" and refusal["code"] == p.BUSY
            with contextlib.suppress(Exception):
                await told.recv()
            await counted(lab, 2)
            for line in lines:
                await line.close()
            await counted(lab, 0)

    run(scenario)


def test_the_places_of_an_address_s_lines() -> None:
    book = Addresses(Limits(per_address=2))
    assert [book.accept("a")[0] for _ in range(4)] == [Place.IN, Place.IN, Place.TOLD,
                                                        Place.OUT]
    assert book.lines["a"] == 3  # the one shut out is not counted
    book.closing("a")
    assert book.accept("a") == (Place.TOLD, 2)
    assert book.first_said("a") and not book.first_said("a") and book.first_said("b")


# -- IPv6 addresses are counted by their /64 ---------------------------------------------------

ipv6 = st.integers(min_value=0, max_value=2**128 - 1).map(ipaddress.IPv6Address).filter(
    lambda ip: ip.ipv4_mapped is None)


@given(ipv6, st.integers(min_value=0, max_value=2**64 - 1))
def test_every_address_of_one_64_is_one_key(ip: ipaddress.IPv6Address, host: int) -> None:
    neighbour = ipaddress.IPv6Address(int(ip) >> 64 << 64 | host)
    if neighbour.ipv4_mapped is None:
        assert grouped(str(ip)) == grouped(str(neighbour)) == grouped(ip.exploded)
    assert grouped(str(ip)).endswith("/64")


@given(ipv6, ipv6)
def test_different_64s_are_different_keys(one: ipaddress.IPv6Address,
                                          other: ipaddress.IPv6Address) -> None:
    assert (grouped(str(one)) == grouped(str(other))) == (int(one) >> 64 == int(other) >> 64)


@given(st.integers(min_value=0, max_value=2**32 - 1).map(ipaddress.IPv4Address))
def test_ipv4_stays_per_address_mapped_or_not(ip: ipaddress.IPv4Address) -> None:
    assert grouped(str(ip)) == str(ip)
    assert grouped(f"::ffff:{ip}") == str(ip)


def test_what_is_not_an_address_is_kept_as_it_is() -> None:
    for odd in ("unknown", "", "localhost", "1.2.3", "::g", "2001:db8::1/64"):
        assert grouped(odd) == odd
    assert grouped("2001:db8:0:0:ffff:1:2:3") == "2001:db8::/64"
    assert grouped("fe80::1%eth0") == "fe80::/64"


def test_a_client_on_ipv6_loopback_is_counted_by_its_64() -> None:
    """End to end on `::1`: its lines are counted as `::/64`, and the limit holds for it."""
    async def scenario() -> None:
        service = TableService(seed=11, limits=Limits(per_address=2))
        try:
            running = await start(service, "::1", 0)
        except OSError:
            pytest.skip("no IPv6 loopback here")
        lab = Lab(service, address(running, tls=False))
        try:
            for _ in range(2):
                await lab.connect()
            for _ in range(100):
                if service.addresses.lines.get("::/64") == 2:
                    break
                await asyncio.sleep(0.02)
            assert service.addresses.lines == {"::/64": 2}
            refusal = await receive(await lab.connect())
            assert refusal["code"] == p.BUSY
        finally:
            for client in lab.clients:
                await client.close()
            await stop(running)
            service.close()

    run(scenario)
