"""Valkey away for a few seconds, no fatal refusal (issue 70): a passing fault is "try again",
never "no such table".

Two real processes on a PostgreSQL and a private Valkey held still with SIGSTOP (its commands
hang, as behind a cut cable, for longer than the processes' leases). A seat that comes back
through the process that does not hold its table, and a new spectator there, are refused
`busy`, not fatal, their lines closed with 1013, within a few seconds (not after the outage);
the seat asking again as the game does is seated once Valkey is let go, by the process that
held its table all along (no take-over of a live process's table: its lease ran out only
because Valkey was away). Two quick players who came to the two processes during the outage
are paired with each other once it is over, not left waiting on two tables.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from outages import come_back, first_answer, held
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_lab import receive, run
from server_process import Running
from valkey_server import ValkeyServer, require_valkey, valkey_server
from websockets.asyncio.client import connect

from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(180),
]

AWAY_S = 6.0  # past a lease (4 s): the holder's lease runs out while Valkey is held
REFUSED_WITHIN_S = 4.0  # a greeting's answer while Valkey is away (its commands time out at 1 s)
BACK_WITHIN_S = 6.0  # a seat back after Valkey's return (the game asks again within 1 s)


@pytest.fixture
def own_valkey() -> Iterator[ValkeyServer]:
    require_valkey()
    with valkey_server() as server:
        yield server


@pytest.fixture
def two(postgres_server: PostgresCluster,  # noqa: F811
        own_valkey: ValkeyServer) -> Iterator[tuple[Running, Running]]:
    common = ("--postgres", new_database(postgres_server), "--valkey", own_valkey.url)
    with Running(*common, "--name", "a") as a, Running(*common, "--name", "b") as b:
        yield a, b


def test_a_seat_and_a_spectator_through_another_process_hear_try_again_then_come_back(
        two: tuple[Running, Running], own_valkey: ValkeyServer) -> None:
    a, b = two
    found: dict[str, Any] = {}

    async def scenario() -> None:
        host = await connect(a.url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        seat = await receive(host)
        guest = await connect(b.url)  # relayed to A, which holds the table
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
        guest_seat = await receive(guest)
        for line in (host, guest):
            assert (await receive(line))["type"] == "start"
        await guest.close()  # the guest's line drops: it comes back through B
        assert (await receive(host))["type"] == "away"
        resume = p.Resume(p.PROTOCOL_VERSION, seat["code"], guest_seat["token"])
        pid = own_valkey.pid
        assert pid is not None
        with held([pid]):
            stopped = time.monotonic()
            async with connect(b.url) as line:
                found["resume"] = await first_answer(line, resume, REFUSED_WITHIN_S * 3)
            found["resume_s"] = time.monotonic() - stopped
            async with connect(b.url) as line:
                found["watch"] = await first_answer(line, p.Watch(
                    p.PROTOCOL_VERSION, seat["code"], "Owls"), REFUSED_WITHIN_S * 3)
            await asyncio.sleep(max(0.0, AWAY_S - (time.monotonic() - stopped)))
            let_go = time.monotonic()
        comeback, line = await come_back(b.url, resume, BACK_WITHIN_S * 3)
        found["comeback"] = comeback
        found["back_s"] = None if comeback.seated_at is None else comeback.seated_at - let_go
        assert line is not None, comeback.answers
        assert (await receive(host))["type"] == "back"
        for each in (host, line):
            await each.close()

    run(scenario)
    logs = [a.stopped(), b.stopped()]
    print(f"\nValkey held {AWAY_S:g} s: resume answered after {found['resume_s']:.2f} s; "
          f"seated {found['back_s']:.2f} s after Valkey's return")
    for kind in ("resume", "watch"):
        answer = found[kind]
        assert answer["type"] == "refused" and answer["code"] == p.BUSY, answer
        assert answer["fatal"] is False and answer["closed"] == 1013, answer
    assert found["resume_s"] < REFUSED_WITHIN_S
    assert not found["comeback"].fatal, found["comeback"].answers
    assert found["back_s"] is not None and found["back_s"] < BACK_WITHIN_S
    assert all("taken over" not in log for log in logs), logs  # A held it all along
    assert all("Traceback" not in log for log in logs), logs


def test_two_quick_players_on_two_processes_during_an_outage_are_paired_once_it_is_over(
        two: tuple[Running, Running], own_valkey: ValkeyServer) -> None:
    a, b = two
    found: dict[str, Any] = {}

    async def scenario() -> None:
        lines = [await connect(a.url), await connect(b.url)]
        pid = own_valkey.pid
        assert pid is not None
        with held([pid]):
            for line, name in zip(lines, ("Hawks", "Bears"), strict=True):
                await line.send(p.encode(p.Quick(p.PROTOCOL_VERSION, name)))
            await asyncio.sleep(3.0)
            let_go = time.monotonic()
        seated = [await receive(line, 30) for line in lines]
        found["paired_s"] = time.monotonic() - let_go
        found["seated"] = seated
        found["started"] = [await receive(line, 10) for line in lines]
        for line in lines:
            await line.close()

    run(scenario)
    for server in (a, b):
        assert "Traceback" not in server.stopped()
    print(f"\nquick players paired {found['paired_s']:.2f} s after Valkey's return")
    seated = found["seated"]
    assert [each["type"] for each in seated] == ["seated", "seated"], seated
    assert seated[0]["code"] == seated[1]["code"], seated  # one table, not two waiting
    for started in found["started"]:
        assert started["type"] == "start" and sorted(started["names"]) == ["Bears", "Hawks"]
    assert found["paired_s"] < BACK_WITHIN_S
