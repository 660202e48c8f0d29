"""Many server processes, one set of tables (issue 62): with `--postgres URL --valkey URL`, a
line that joins, resumes or watches a table another process holds is relayed to it.

Real processes on a real PostgreSQL and Valkey, as an operator runs them: a table hosted on
A, its guest joining through B and a spectator watching through C play steps in which both
seats and the spectator hear every update in the same order; the guest's line dropped, it
resumes through C and the game goes on; the relay port refuses a line with no ticket, a
forged one and a used one; A killed, the lines relayed to it are closed with 1013 (try again),
never left hanging.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from redis.asyncio import Redis
from server_lab import receive, run
from server_process import Running
from table_driver import free_port
from valkey_server import ValkeyServer
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.cluster.relay import TICKET_HEADER, UNREACHABLE
from sudden_death.wire import protocol as p

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(120),
]


@pytest.fixture
def database(postgres_server: PostgresCluster) -> str:  # noqa: F811
    return new_database(postgres_server)


@pytest.fixture
def three(database: str, valkey: ValkeyServer) -> Iterator[tuple[Running, Running, Running,
                                                                  int]]:
    """Three processes on one database and one Valkey; A's relay port is known."""
    relay_port = free_port()
    common = ("--postgres", database, "--valkey", valkey.url)
    with Running(*common, "--name", "a", "--relay-port", str(relay_port)) as a, \
            Running(*common, "--name", "b") as b, Running(*common, "--name", "c") as c:
        yield a, b, c, relay_port


async def until_listed(url: str, check: Callable[[dict[str, Any]], bool],
                       timeout: float = 10) -> None:
    """Until the lobby of the server at `url` lists what `check` wants: its copy of the
    other processes' entries is at most about a second old (longer on a loaded machine)."""
    async with connect(url) as line:
        await line.send(p.encode(p.Lobby()))
        deadline = time.monotonic() + timeout
        while not check(message := await receive(line, timeout)):
            assert message["type"] == "lobby" and time.monotonic() < deadline, message


async def _until_routed(valkey: ValkeyServer, code: str) -> None:
    """A's new table is routed in Valkey within SOON_S (a join before then is refused)."""
    client = Redis.from_url(valkey.url)
    try:
        for _ in range(50):
            if await client.exists(f"sd:table:{code}"):
                return
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()
    raise AssertionError(f"table {code} was never routed")


async def _played(seats: dict[Team, ClientConnection], watcher: ClientConnection,
                  state: GameState, step: int, rng: random.Random,
                  steps: int) -> tuple[GameState, int]:
    """Up to `steps` steps (fewer if the game ends), each heard the same by both seats and
    the spectator."""
    for _ in range(steps):
        if not actors(state):
            break  # the game is over
        for team in actors(state):
            choice = rng.choice(legal_actions(state, team))
            await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
        heard: list[dict[str, Any]] = []
        for line in (*seats.values(), watcher):
            while (message := await receive(line))["type"] != "update":
                assert message["type"] in ("committed", "watching", "back"), message
            heard.append(message)
        assert all(each == heard[0] for each in heard), heard
        step, state = heard[0]["step"], state_from_dict(heard[0]["state"])
    return state, step


def test_two_seats_and_a_spectator_on_three_processes_play_one_table(
        three: tuple[Running, Running, Running, int], valkey: ValkeyServer) -> None:
    a, b, c, _relay_port = three

    async def scenario() -> None:
        host = await connect(a.url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        seated = await receive(host)
        code = seated["code"]
        await _until_routed(valkey, code)
        guest = await connect(b.url)  # through B: relayed to A
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        joined = await receive(guest)
        assert joined["type"] == "seated" and joined["code"] == code, joined
        for line in (host, guest):
            assert (await receive(line))["type"] == "start"
        watcher = await connect(c.url)  # through C: relayed to A
        await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Owls")))
        assert (await receive(watcher))["type"] == "start"
        seats = {Team.AWAY: host, Team.HOME: guest}
        rng = random.Random(3)
        state, step = await _played(seats, watcher, GameState(), 0, rng, 2)
        assert step == 2 and actors(state)

        await guest.close()  # dropped: it comes back through C, with its seat's token
        assert (await receive(host))["type"] == "away"
        back = await connect(c.url)
        await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, joined["token"])))
        resumed = await receive(back)
        assert resumed["type"] == "seated" and resumed["seat"] == int(Team.HOME), resumed
        assert (await receive(back))["type"] == "start"
        seats[Team.HOME] = back
        state, step = await _played(seats, watcher, state, step, rng, 500)
        assert not actors(state) and state.outcome is not None  # played to its end
        for line in (host, back, watcher):
            await line.close()

    run(scenario)
    for server in (a, b, c):
        log = server.stopped()
        assert "Traceback" not in log, log


def test_the_relay_port_takes_a_line_from_a_process_of_the_cluster_only(
        three: tuple[Running, Running, Running, int], valkey: ValkeyServer) -> None:
    a, b, _c, relay_port = three
    relay_url = f"ws://127.0.0.1:{relay_port}"

    async def refused(headers: dict[str, str]) -> int:
        with pytest.raises(InvalidStatus) as caught:
            async with connect(relay_url, additional_headers=headers):
                pass
        return caught.value.response.status_code

    async def scenario() -> None:
        assert await refused({}) == 403
        assert await refused({TICKET_HEADER: "x" * 32}) == 403  # forged

        host = await connect(a.url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        code = (await receive(host))["code"]
        await _until_routed(valkey, code)
        guest = await connect(b.url)
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        assert (await receive(guest))["type"] == "seated"
        assert (await receive(guest))["type"] == "start"

        a.killed()  # the holder lost: B closes the relayed line to try again, at once
        with pytest.raises(ConnectionClosed) as closed:
            await receive(guest, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == UNREACHABLE
        await host.close()

    run(scenario)
    assert "Traceback" not in b.stopped()


@pytest.mark.bench
def test_the_relay_benchmark_measures_a_direct_and_a_relayed_seat(valkey: ValkeyServer) -> None:
    """benchmarks/relay_hop.py's run, short: each kind measured as many times as asked."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "relay_hop.py"),
                           "--steps", "12"], cwd=ROOT, capture_output=True, text=True,
                          timeout=100)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    for kind in ("direct", "relayed"):
        assert result[kind]["n"] == 12 and 0 < result[kind]["p50_ms"] <= result[kind]["max_ms"]
    assert result["relayed_over_direct_p50"] > 0


def test_a_quick_game_pairs_two_players_who_reached_different_processes(
        three: tuple[Running, Running, Running, int], valkey: ValkeyServer) -> None:
    """The first quick player waits at a table on A; a quick player who reached B at once
    (no waiting for the lobby's copy of the others' entries: valkey_quick.py) is sent to A and
    paired there; a third, on C with nobody waiting now, gets a table of its own."""
    a, b, c, _relay_port = three

    async def scenario() -> None:
        first = await connect(a.url)
        await first.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks")))
        waiting = await receive(first)
        assert waiting["type"] == "seated", waiting
        second = await connect(b.url)
        await second.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Bears")))
        paired = await receive(second)
        assert paired["type"] == "seated" and paired["code"] == waiting["code"], paired
        for line in (first, second):
            started = await receive(line)
            assert started["type"] == "start" and started["names"] == ["Bears", "Hawks"]
        third = await connect(c.url)  # nobody waits now: a quick table of its own
        await third.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Owls")))
        alone = await receive(third)
        assert alone["type"] == "seated" and alone["code"] != waiting["code"]
        for line in (first, second, third):
            await line.close()

    run(scenario)
    for server in (a, b, c):
        assert "Traceback" not in server.stopped()


def test_two_quick_players_at_the_same_moment_on_two_processes_play_each_other(
        three: tuple[Running, Running, Running, int], valkey: ValkeyServer) -> None:
    """Nobody waits; two quick players press at once, one on B and one on C: one of them
    waits and the other is sent to it (the cluster's quick tables are one set in Valkey,
    taken or reserved in one step), never both waiting alone. Three times over."""
    _a, b, c, _relay_port = three

    async def scenario() -> None:
        client = Redis.from_url(valkey.url)
        try:
            for _ in range(3):
                lines = [await connect(b.url), await connect(c.url)]
                await asyncio.gather(*(line.send(p.encode(p.Quick(p.PROTOCOL_VERSION, name)))
                                       for line, name in zip(lines, ("Hawks", "Bears"),
                                                             strict=True)))
                seated = [await receive(line) for line in lines]
                assert [each["type"] for each in seated] == ["seated", "seated"], seated
                assert seated[0]["code"] == seated[1]["code"], seated
                for line in lines:
                    assert (await receive(line))["type"] == "start"
                    await line.close()
                for _ in range(100):  # the next two find nothing left of these
                    if not await client.exists("sd:quick"):
                        break
                    await asyncio.sleep(0.05)
                assert not await client.exists("sd:quick")
        finally:
            await client.aclose()

    run(scenario)


def test_a_join_sent_the_moment_a_table_opens_elsewhere_is_seated(
        three: tuple[Running, Running, Running, int]) -> None:
    """The route of a new table is written within a fraction of a second; a join that comes
    sooner (a script, or a friend quicker than that) is looked up once more, not refused."""
    a, b, _c, _relay_port = three

    async def scenario() -> None:
        for _ in range(3):
            host = await connect(a.url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            guest = await connect(b.url)  # at once: its route may not be written yet
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            joined = await receive(guest)
            assert joined["type"] == "seated" and joined["code"] == code, joined
            for line in (host, guest):
                await line.close()

    run(scenario)
