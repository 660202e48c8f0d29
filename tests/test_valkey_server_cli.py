"""`python -m sudden_death.server --valkey URL` as an operator runs it, in real processes: two
servers on one private Valkey, each its own `--data` and `--name`. A public table hosted on one
is in the lobby heard on the other within two seconds, with the totals of both, and leaves it
when it ends; Valkey killed, the lobby still answers with the process's own tables and its log
says so in one line, never a traceback; Valkey back, the other's tables come back.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server_lab import receive, run
from server_process import Running
from table_driver import free_port
from valkey_server import require_valkey, valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.wire import protocol as p

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 60
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a real Valkey process"),
    pytest.mark.timeout(120),
]


async def heard(lobby: ClientConnection, check: Any, timeout: float) -> dict[str, Any]:
    """The first lobby list heard on `lobby` for which `check` holds, within `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "not heard in the time allowed"
        message = await receive(lobby, left)
        if message["type"] == "lobby" and check(message):
            return message


def codes(listing: dict[str, Any]) -> set[str]:
    return {table["code"] for table in listing["tables"]}


async def hosted(url: str, name: str) -> tuple[ClientConnection, str]:
    """A public table opened on the server at `url`: its host's line and its code."""
    host = await connect(url)
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, name, public=True)))
    seated = await receive(host)
    assert seated["type"] == "seated", seated
    return host, seated["code"]


def test_the_lobby_of_one_process_lists_the_others_and_outlives_valkey(tmp_path: Path) -> None:
    require_valkey()
    with valkey_server() as engine, \
            Running("--valkey", engine.url, "--data", str(tmp_path / "a"), "--name", "a") as a, \
            Running("--valkey", engine.url, "--data", str(tmp_path / "b"), "--name", "b") as b:

        async def scenario() -> None:
            host_a, code_a = await hosted(a.url, "Hawks")
            lobby = await connect(a.url)
            await lobby.send(p.encode(p.Lobby()))
            first = await heard(lobby, lambda _m: True, 5)
            assert codes(first) == {code_a} and first["open"] == 1
            host_b, code_b = await hosted(b.url, "Bears")
            start = time.monotonic()
            both = await heard(lobby, lambda m: code_b in codes(m), 2)
            assert time.monotonic() - start < 2
            assert codes(both) == {code_a, code_b}
            assert (both["open"], both["playing"]) == (2, 0)

            engine.kill()  # Valkey lost: A lists its own tables only, and still answers
            alone = await heard(lobby, lambda m: code_b not in codes(m), 8)
            assert codes(alone) == {code_a} and alone["open"] == 1
            again = await connect(a.url)
            await again.send(p.encode(p.Lobby()))
            answer = await receive(again, 5)
            assert answer["type"] == "lobby" and codes(answer) == {code_a}
            await again.close()

            engine.start()  # back, empty: B writes its entries again, A reads them
            back = await heard(lobby, lambda m: code_b in codes(m), 8)
            assert (back["open"], back["playing"]) == (2, 0)

            await host_b.close()  # its host gone before anyone came: the table ends
            ended = await heard(lobby, lambda m: code_b not in codes(m), 4)
            assert codes(ended) == {code_a} and ended["open"] == 1
            for line in (lobby, host_a):
                await line.close()

        run(scenario)
        log_a, log_b = a.stopped(), b.stopped()
    for log in (log_a, log_b):
        assert "Traceback" not in log, log
        # Said once when lost and once when back, by each part that uses Valkey: the lobby,
        # its chat, and the routes to the other processes' tables.
        for words in ("the lobby lists this process's tables only",
                      "the lobby lists the other processes' tables again",
                      "messages for the other server processes are dropped until it is back",
                      "its subscriptions are taken up again",
                      "the tables of the other server processes cannot be reached",
                      "the other processes' tables are reached again"):
            assert sum(words in line for line in log.splitlines()) == 1, log
        # The limits' counts, once each at most: only a line's arrival or end during the
        # outage finds it.
        lost, back = (sum(words in line for line in log.splitlines()) for words in (
            "each process counts its own clients' limits",
            "the limits are counted across the processes again"))
        assert lost <= 1 and back <= 1, log
        assert sum("cannot be reached" in line for line in log.splitlines()) == 3 + lost, log
        assert sum("is reached again" in line for line in log.splitlines()) == 3 + back, log


def test_a_valkey_that_cannot_be_reached_at_start_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0",
                           "--valkey", f"redis://127.0.0.1:{free_port()}/0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=START_TIMEOUT_S)
    assert done.returncode == 2 and done.stdout == "", done
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "sudden_death.server: Valkey at 127.0.0.1:"), done.stderr


def test_valkey_and_the_relay_are_in_the_servers_help() -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=START_TIMEOUT_S, check=True)
    said = " ".join(done.stdout.split())
    assert "--valkey URL" in said and "sudden-death[server]" in said
    assert "relayed there" in said and "--relay-port PORT" in said
    assert "--relay-address HOST" in said and "keep it off the internet" in said
