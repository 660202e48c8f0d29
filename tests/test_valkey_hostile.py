"""Hostile clients against a cluster (issue 63): the one-process hostile tests' essentials on
three real server processes sharing a PostgreSQL and a Valkey, with a table's seats and
spectators on different processes, so their lines are relayed to the table's holder.

Nonsense frames sent through a relaying process are refused in words as on one process, a
frame too big closes that line alone, and the table plays on; 10,000 fuzzed messages from
seats relayed through other processes never let a seat or a spectator (relayed too) hear a
card before its reveal (test_server_secrets.py's leak hunt, imported); a flood from a seat or
a spectator relayed through another process is cut off as on one process. No process logs a
traceback.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from redis import Redis
from server_lab import receive, run
from server_process import Running
from test_server_hostile import closed_within, next_refusal
from test_server_secrets import UNLIMITED, Places, hunt_leaks
from valkey_server import ValkeyServer, require_valkey, valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import GameState
from sudden_death.server.lines.limits import Limits
from sudden_death.wire import protocol as p

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(180),
]

Three = tuple[Running, Running, Running]


def cluster(database: str, valkey: ValkeyServer, limits: Limits | None = None,
            ) -> Iterator[Three]:
    """Three processes on one database and one Valkey, each with `limits` (None: the
    operator's defaults); every log checked for a traceback once stopped."""
    common = ("--postgres", database, "--valkey", valkey.url)
    with Running(*common, "--name", "a", limits=limits) as a, \
            Running(*common, "--name", "b", limits=limits) as b, \
            Running(*common, "--name", "c", limits=limits) as c:
        yield a, b, c
        for server in (a, b, c):
            log = server.stopped()
            assert "Traceback" not in log, log
    client = Redis.from_url(valkey.url)  # the next test's servers may share this Valkey:
    try:  # the lines and tries counted for 127.0.0.1 here are not theirs
        for key in client.scan_iter("sd:limit:*"):
            client.delete(key)
    finally:
        client.close()


@pytest.fixture
def three(postgres_server: PostgresCluster, valkey: ValkeyServer) -> Iterator[Three]:  # noqa: F811
    yield from cluster(new_database(postgres_server), valkey)


@pytest.fixture
def three_unlimited(postgres_server: PostgresCluster) -> Iterator[Three]:  # noqa: F811
    """With the one-process leak hunt's limits (none to speak of), on a Valkey of their own:
    the hundreds of lines they count for 127.0.0.1 never meet another test's servers."""
    require_valkey()
    with valkey_server() as own:
        yield from cluster(new_database(postgres_server), own, UNLIMITED)


async def relayed_table(a: Running, b: Running, c: Running,
                        ) -> tuple[ClientConnection, ClientConnection, ClientConnection,
                                   dict[str, Any]]:
    """A table held by A: its host on A, its guest joined through B and a spectator watching
    through C (both relayed to A), past their start; returns the lines and the guest's seat."""
    host = await connect(a.url)
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
    code = (await receive(host))["code"]
    guest = await connect(b.url)  # a join before the route is written is looked up again
    await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
    seat = await receive(guest)
    assert seat["type"] == "seated" and seat["code"] == code, seat
    for line in (host, guest):
        assert (await receive(line))["type"] == "start"
    watcher = await connect(c.url)
    await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Owls")))
    assert (await receive(watcher))["type"] == "start"
    for line in (host, guest):
        assert (await receive(line))["type"] == "watching"
    return host, guest, watcher, seat


async def coin_toss(guest: ClientConnection, others: list[ClientConnection]) -> None:
    """The table plays on: the guest calls the toss, everyone hears the same update."""
    await guest.send(p.encode(p.Act(0, [{"action": "CallCoin", "face": "heads"}])))
    heard = []
    for line in (guest, *others):
        while (message := await receive(line, 10))["type"] != "update":
            assert message["type"] in ("committed", "away", "back"), message
        heard.append(message)
    assert all(each == heard[0] for each in heard), heard
    assert heard[0]["step"] == 1 and state_from_dict(heard[0]["state"]) != GameState()


NONSENSE: tuple[str | bytes, ...] = (
    b"\x00\x01binary", "not json", "[" * 5000 + "]" * 5000, '{"type": "peek"}',
    '{"type": "act", "step": 0}', '{"type": "act", "step": "now", "actions": 3}', "",
    '{"type": "act", "step": 0, "actions": [{"action": "PickHand", "players": ["?"]}]}')


def test_nonsense_through_a_relaying_process_is_refused_as_on_one_and_the_table_plays_on(
        three: Three) -> None:
    a, b, c = three

    async def scenario() -> None:
        host, guest, watcher, seat = await relayed_table(a, b, c)
        for line in (guest, watcher):  # relayed to A: A answers, through B and C
            for nonsense in NONSENSE:
                await line.send(nonsense)
                refusal = await receive(line)
                assert refusal["type"] == "refused", (nonsense, refusal)
                assert refusal["code"] in (p.BAD_MESSAGE, p.NOT_NOW), (nonsense, refusal)
                assert refusal["fatal"] is False  # a seated or watching line stays open
        # A greeting that is nonsense, to B itself (nothing to relay yet): refused, closed.
        for nonsense in NONSENSE[:4]:
            stranger = await connect(b.url)
            await stranger.send(nonsense)
            refusal = await receive(stranger)
            assert refusal["code"] == p.BAD_MESSAGE and refusal["fatal"] is True, refusal
            assert await closed_within(stranger, 5)
        # A frame over 64 KiB through B: that line closed as "too big", the others stay.
        await guest.send(p.encode(p.Chat("x")).replace('"x"', '"' + "x" * 70_000 + '"'))
        assert await closed_within(guest, 5)
        assert guest.close_code == 1009
        assert (await receive(host))["type"] == "away"
        back = await connect(c.url)  # the guest comes back through C, and the game goes on
        await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seat["code"], seat["token"])))
        assert (await receive(back))["type"] == "seated"
        assert (await receive(back))["type"] == "start"
        await coin_toss(back, [host, watcher])
        for line in (host, back, watcher):
            await line.close()

    run(scenario)


def test_ten_thousand_fuzzed_relayed_messages_never_let_anyone_hear_a_card_early(
        three_unlimited: Three) -> None:
    """test_server_secrets.py's hunt with its host on A, its guest through B, each line that
    resumes a seat through C, A or B in turn, and spectators through C and B."""
    a, b, c = three_unlimited

    async def scenario() -> None:
        places = Places(a.url, b.url, (c.url, a.url, b.url), watch=(c.url, b.url))
        try:
            sent, checked, games = await hunt_leaks(places, random.Random(63))
        finally:
            for line in places.opened:
                await line.close()
        assert sent >= 10_000 and games >= 2 and checked > 1_000
        assert places.resumed > 100  # a seat came back through every process, many times

    started = time.perf_counter()
    run(scenario)
    print(f"leak hunt on three processes: {time.perf_counter() - started:.1f} s")


def test_a_flood_from_a_relayed_seat_or_spectator_is_cut_off_as_on_one_process(
        three: Three) -> None:
    """The operator's limits (10 messages a second, a burst of 40): the guest's chat flood,
    through B, is refused and closed by A, and the host hears only the burst; the same from
    the spectator through C; the table plays on with the guest back."""
    a, b, c = three
    limits = Limits()

    async def scenario() -> None:
        host, guest, watcher, seat = await relayed_table(a, b, c)
        for _ in range(limits.burst + 20):
            await guest.send(p.encode(p.Chat("spam")))
        refusal = await next_refusal(guest)
        assert refusal["code"] == p.FLOOD and refusal["fatal"] is True, refusal
        assert "messages a second" in str(refusal["text"])
        assert await closed_within(guest, 5) and guest.close_code == 1008
        said = 0
        while (message := await receive(host))["type"] == "said":
            said += 1
        assert limits.burst <= said <= limits.burst + 2  # the burst, then nothing passed on
        assert message["type"] == "away", message

        for _ in range(limits.burst + 20):
            await watcher.send(p.encode(p.Chat("spam")))
        refusal = await next_refusal(watcher)
        while refusal["code"] != p.FLOOD:  # its chat is refused for its own rate first
            refusal = await next_refusal(watcher)
        assert refusal["fatal"] is True, refusal
        assert await closed_within(watcher, 5) and watcher.close_code == 1008

        back = await connect(c.url)
        await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seat["code"], seat["token"])))
        assert (await receive(back))["type"] == "seated"
        assert (await receive(back))["type"] == "start"
        await coin_toss(back, [host])
        for line in (host, back):
            await line.close()

    run(scenario)
