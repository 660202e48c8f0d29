"""`python3 tasks.py serve-cluster N` (tools/serve_cluster.py), as someone trying a cluster runs
it: a private PostgreSQL and Valkey and N server processes on one port. Every line reaches the
one address; a host and a friend on it sit at one table and play, whichever process each
reached (the kernel spreads connections; the relay joins them); Ctrl+C stops every process,
each cleanly, and leaves none behind. A server alone cannot share its port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from redis.asyncio import Redis
from server_lab import receive, run
from table_driver import free_port
from test_postgres_server import require_postgres
from valkey_server import process_alive, require_valkey
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT, real engines"),
    pytest.mark.timeout(180),
]


def test_serve_cluster_gives_one_address_for_every_process_and_stops_them_all() -> None:
    require_postgres()
    require_valkey()
    port = free_port()
    # A session of its own: should the test fail, the tool, its servers and its engines are
    # killed together (killed alone, its servers would hold its pipes open, and the port).
    tool = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve_cluster.py"), "3",
                             "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert tool.stdout is not None
        said = json.loads(tool.stdout.readline())
        assert said["cluster"] == f"ws://127.0.0.1:{port}" and len(said["processes"]) == 3
        url = said["cluster"]

        async def scenario() -> None:
            # Twelve tables opened on the one address land on more than one process (the
            # kernel spreads the lines: all twelve on one of three would be 1 in 177,147).
            lines: list[ClientConnection] = []
            try:
                await play_on(lines)
            finally:  # closed whatever happened: a line left open warns in a later test
                for line in lines:
                    await line.close()

        async def play_on(lines: list[ClientConnection]) -> None:
            hosts, codes = [], []
            for number in range(12):
                # Each host from a loopback address of its own: twelve tables waiting from
                # one address are past its cap (refused `tables`, for the whole cluster).
                host = await connect(url, local_addr=(f"127.0.1.{number + 1}", 0))
                await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
                hosts.append(host)
                lines.append(host)
                seated = await receive(host)
                assert seated["type"] == "seated", seated
                codes.append(seated["code"])
            routes = Redis.from_url(said["valkey"])
            try:
                for _ in range(100):  # their routes written (within 0.2 s, later under load)
                    holders = [await routes.get(f"sd:table:{code}") for code in codes]
                    if None not in holders:
                        break
                    await asyncio.sleep(0.1)
            finally:
                await routes.aclose()
            assert len(set(holders)) >= 2 and None not in holders, holders
            # Each joined on the one address, whichever process that reaches, and played.
            for table, (host, code) in enumerate(zip(hosts[:4], codes, strict=False)):
                guest = await connect(url)
                lines.append(guest)
                await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
                assert (await receive(guest))["type"] == "seated"
                for line in (host, guest):
                    assert (await receive(line))["type"] == "start"
                seats, state, step = {Team.AWAY: host, Team.HOME: guest}, GameState(), 0
                rng = random.Random(table)
                for team in actors(state):
                    choice = rng.choice(legal_actions(state, team))
                    await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
                heard = []
                for line in seats.values():
                    while (message := await receive(line))["type"] != "update":
                        pass
                    heard.append(message)
                assert heard[0] == heard[1] and heard[0]["step"] == 1
                assert state_from_dict(heard[0]["state"]) != state

        run(scenario)
        tool.send_signal(signal.SIGINT)  # Ctrl+C
        _out, err = tool.communicate(timeout=60)
    except BaseException:
        # The servers' own log, shown with the failure (pytest prints a failed test's stderr).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(tool.pid, signal.SIGKILL)
        _out, err = tool.communicate(timeout=30)
        print(f"serve-cluster's log:\n{err}", file=sys.stderr)
        raise
    finally:
        if tool.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(tool.pid, signal.SIGKILL)
            tool.communicate(timeout=30)
    assert tool.returncode == 0, err
    assert "give players" in err and "Traceback" not in err, err
    assert not any(process_alive(pid) for pid in said["processes"])


def test_a_server_alone_cannot_share_its_port() -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0",
                           "--reuse-port"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ})
    assert done.returncode == 2 and "--reuse-port needs --valkey" in done.stderr
