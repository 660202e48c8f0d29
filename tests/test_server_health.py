"""Seen from outside (issue 70): `GET /healthz`, `GET /readyz` and `GET /metrics` on the
server's own port, asked of real server processes with real HTTP requests.

One process on SQLite answers its probes (also with --no-page), serves its metrics to the
operator's address only (403 to another loopback address, 404 without --metrics-from), counts
the steps, their latency and a refusal played through it, and never lets probes spend the new
lines a player's address is allowed. Two processes on a real PostgreSQL and Valkey are ready,
turn not ready (503, naming Valkey) while Valkey is SIGSTOPped, stay alive meanwhile, and are
ready again after SIGCONT. Readiness itself, in one loop: a probe flood asks each check once, a
check that hangs is waited for a second and asked no second time, and a draining process is
not ready whatever its checks say.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from server_lab import receive, run
from server_process import Running
from table_driver import free_port
from valkey_server import require_valkey, valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.operations.health import Check, Readiness
from sudden_death.wire import protocol as p

pytestmark = [pytest.mark.timeout(120)]
REAL_ENGINES = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines")
PROBE_TIMEOUT_S = 5.0  # a probe's own timeout: every answer must come well within it
TURNS_WITHIN_S = 6.0  # readiness follows Valkey (a 1 s check, a verdict kept 1 s) within this


def get(url: str, path: str, source: str = "") -> tuple[int, str]:
    """GET `path` of the server at `url` (ws://HOST:PORT), from loopback address `source`;
    (status, body)."""
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port,
                                            timeout=PROBE_TIMEOUT_S,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def sample(page: str, name: str) -> float:
    """The value of the sample `name` (labels included, as written) in a metrics page."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", page, re.MULTILINE)
    assert found is not None, f"{name} not in the metrics:\n{page}"
    return float(found.group(1))


async def seated_pair(url: str) -> tuple[str, dict[Team, ClientConnection]]:
    host = await connect(url)
    await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
    code = (await receive(host))["code"]
    guest = await connect(url)
    await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
    assert (await receive(guest))["type"] == "seated"
    for line in (host, guest):
        assert (await receive(line))["type"] == "start"
    return code, {Team.AWAY: host, Team.HOME: guest}


async def played(seats: dict[Team, ClientConnection], steps: int) -> int:
    """`steps` steps of a seeded random game; the last step's number."""
    state, step, rng = GameState(), 0, random.Random(5)
    for _ in range(steps):
        for team in actors(state):
            choice = rng.choice(legal_actions(state, team))
            await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
        for line in seats.values():
            while (message := await receive(line))["type"] != "update":
                assert message["type"] == "committed", message
        step, state = message["step"], state_from_dict(message["state"])
    return step


def test_one_server_answers_its_probes_and_shows_its_metrics_to_the_operator_alone(
        tmp_path: Path) -> None:
    with Running("--data", str(tmp_path), "--metrics-from", "127.0.0.1/32") as server:
        assert get(server.url, "/healthz") == (200, "ok\n")
        assert get(server.url, "/readyz") == (200, "ready\n")
        assert get(server.url, "/metrics", source="127.0.0.2")[0] == 403

        async def scenario() -> int:
            _code, seats = await seated_pair(server.url)
            step = await played(seats, 6)
            stranger = await connect(server.url)
            await stranger.send(p.encode(p.Join(p.PROTOCOL_VERSION, "ZZZZZZ", "Owls")))
            assert (await receive(stranger))["code"] == p.NO_TABLE
            for line in (*seats.values(), stranger):
                await line.close()
            return step

        step = run(scenario)
        status, page = get(server.url, "/metrics")
        assert status == 200
        assert sample(page, "sudden_death_steps_total") == step
        assert sample(page, "sudden_death_step_seconds_count") >= step - 1  # a step's act
        assert sample(page, f'sudden_death_refusals_total{{code="{p.NO_TABLE}"}}') == 1
        assert sample(page, 'sudden_death_tables{state="playing"}') == 1
        assert sample(page, 'sudden_death_seats{state="away"}') == 2  # both lines closed
        assert "sudden_death_store_errors_total{" not in page  # no call failed
        assert sample(page, 'sudden_death_store_seconds_count{call="save"}') >= step
        assert sample(page, "sudden_death_ready") == 1
        for name in ("sudden_death_loop_lag_seconds_count", "sudden_death_spectators",
                     "sudden_death_open_lines", "sudden_death_lobby_lines",
                     "sudden_death_draining",
                     "sudden_death_tables_waiting_on_store", "process_resident_memory_bytes"):
            sample(page, name)
        assert "sudden_death_gc_pause_seconds_bucket" in page
        server.stopped()


def test_metrics_are_off_by_default_and_the_probes_need_no_page() -> None:
    with Running("--no-page") as server:
        assert get(server.url, "/healthz") == (200, "ok\n")
        assert get(server.url, "/readyz") == (200, "ready\n")
        assert get(server.url, "/metrics")[0] == 404
        assert get(server.url, "/")[0] == 426  # no page (an upgrade asked): probes all the same
        server.stopped()


def test_a_metrics_port_shows_one_process_alone_and_the_players_port_no_metrics() -> None:
    """--metrics-port: with --reuse-port the players' port reaches any process of the host,
    so each process's metrics (and probes) are also on a port of its own."""
    with Running("--metrics-from", "127.0.0.1", "--metrics-port", "0") as server:
        own = server.said["metrics"].removesuffix("/metrics").replace("http", "ws", 1)
        assert get(server.url, "/metrics")[0] == 404
        assert get(server.url, "/healthz") == (200, "ok\n")
        status, page = get(own, "/metrics")
        assert status == 200 and "sudden_death_steps_total 0.0" in page
        assert get(own, "/metrics", source="127.0.0.2")[0] == 403
        assert get(own, "/readyz") == (200, "ready\n")
        assert get(own, "/")[0] == 404  # nothing else: no page, no table
        server.stopped()


def test_probes_never_spend_the_new_lines_a_players_address_is_allowed() -> None:
    """Past its burst (20 new lines) an address is answered 429; sixty probes from the
    player's own address leave its burst whole, where page loads spend it (not blind)."""
    with Running() as server:
        for index in range(60):
            assert get(server.url, "/readyz" if index % 2 else "/healthz")[0] == 200

        async def greeted() -> str:
            line = await connect(server.url)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            said = (await receive(line))["type"]
            await line.close()
            return said

        assert run(greeted) == "seated"
        statuses = [get(server.url, "/")[0] for _ in range(40)]
        assert 429 in statuses, statuses
        server.stopped()


@REAL_ENGINES
def test_a_cluster_is_not_ready_while_valkey_is_stopped_and_ready_again_after(
        postgres_server: PostgresCluster) -> None:  # noqa: F811
    require_valkey()
    with valkey_server() as valkey:
        common = ("--postgres", new_database(postgres_server), "--valkey", valkey.url,
                  "--metrics-from", "127.0.0.1")
        with Running(*common, "--name", "a") as a, Running(*common, "--name", "b") as b:
            for server in (a, b):
                assert get(server.url, "/readyz") == (200, "ready\n")
            assert valkey.pid is not None
            os.kill(valkey.pid, signal.SIGSTOP)
            try:
                for server in (a, b):
                    started = time.monotonic()
                    while (answer := get(server.url, "/readyz"))[0] == 200:
                        assert time.monotonic() - started < TURNS_WITHIN_S, "still ready"
                        time.sleep(0.2)
                    assert answer[0] == 503 and "Valkey" in answer[1], answer
                    assert answer[1].count("\n") == 1  # one line
                    asked = time.monotonic()
                    assert get(server.url, "/healthz") == (200, "ok\n")  # alive all along
                    assert time.monotonic() - asked < 0.5
            finally:
                os.kill(valkey.pid, signal.SIGCONT)
            for server in (a, b):
                started = time.monotonic()
                while get(server.url, "/readyz") != (200, "ready\n"):
                    assert time.monotonic() - started < TURNS_WITHIN_S, "not ready again"
                    time.sleep(0.2)
            page = get(a.url, "/metrics")[1]
            assert sample(page, 'sudden_death_check_errors_total{check="valkey"}') >= 1
            assert sample(page, 'sudden_death_check_seconds_count{check="store"}') >= 1
            for server in (a, b):
                assert "Traceback" not in server.stopped()


@REAL_ENGINES
def test_a_valkey_password_is_taken_from_the_url_and_never_said(tmp_path: Path) -> None:
    """redis-server --requirepass: the right password in --valkey's URL serves; a wrong one
    stops the server with exit 2, its reason on stderr without the password."""
    binary = require_valkey()
    port = free_port()
    engine = subprocess.Popen(
        [str(binary), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path), "--requirepass", "s3cret-pw"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = time.monotonic()
        while not _answers_auth(port):
            assert time.monotonic() - started < 10, "the password-protected Valkey did not start"
            time.sleep(0.05)
        url = f"redis://:s3cret-pw@127.0.0.1:{port}/0"
        with Running("--valkey", url, "--name", "pw") as server:
            assert get(server.url, "/readyz") == (200, "ready\n")
            assert "s3cret-pw" not in server.stopped()
        refused = subprocess.run(
            [sys.executable, "-m", "sudden_death.server", "--port", "0", "--valkey",
             f"redis://:wrong-pw@127.0.0.1:{port}/0", "--name", "wrong"],
            capture_output=True, text=True, timeout=60, cwd=Path(__file__).parent.parent)
        assert refused.returncode == 2, refused.stderr
        assert "wrong-pw" not in refused.stderr and "Traceback" not in refused.stderr
        assert refused.stderr.count("\n") == 1, refused.stderr
    finally:
        engine.kill()
        engine.wait()


@REAL_ENGINES
def test_valkey_over_tls_with_a_password_is_one_rediss_url(tmp_path: Path) -> None:
    """rediss:// (redis-py's TLS), the engine's certificate checked against a CA file named in
    the URL, and a password: the server starts on it and is ready."""
    binary = require_valkey()
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: no certificate to make")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    port = free_port()
    engine = subprocess.Popen(
        [str(binary), "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1",
         "--tls-cert-file", str(cert), "--tls-key-file", str(key), "--tls-ca-cert-file",
         str(cert), "--tls-auth-clients", "no", "--requirepass", "tls-pw", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"rediss://:tls-pw@127.0.0.1:{port}/0?ssl_ca_certs={cert}"
        started = time.monotonic()
        while True:  # the engine takes a moment to listen
            try:
                with Running("--valkey", url, "--name", "tls") as server:
                    assert get(server.url, "/readyz") == (200, "ready\n")
                    assert "tls-pw" not in server.stopped()
                break
            except AssertionError as error:
                assert "no listening line" in str(error), error
                assert time.monotonic() - started < 10, error
                time.sleep(0.2)
    finally:
        engine.kill()
        engine.wait()


def _answers_auth(port: int) -> bool:
    """Whether a Valkey on `port` answers, asking for its password."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"-NOAUTH")
    except OSError:
        return False


def test_readiness_asks_each_check_once_for_a_probe_flood_and_never_waits_on_a_hang() -> None:
    async def scenario() -> None:
        asked = {"store": 0, "valkey": 0}
        hang = asyncio.Event()

        async def store() -> object:
            asked["store"] += 1
            return None

        async def valkey() -> object:
            asked["valkey"] += 1
            await hang.wait()
            return True

        draining = False
        readiness = Readiness(draining=lambda: draining, restored=True,
                              checks=[Check("the tables store", "store", store),
                                      Check("Valkey", "valkey", valkey)],
                              timeout_s=0.3, kept_s=0.5)
        started = time.monotonic()
        reasons = await asyncio.gather(*(readiness.reason() for _ in range(200)))
        assert time.monotonic() - started < 1.0  # a probe waits the check's timeout at most
        assert set(reasons) == {"Valkey did not answer within 0.3 s"}
        assert asked == {"store": 1, "valkey": 1}
        await asyncio.sleep(0.6)  # the verdict is old: asked again, but the hang is not
        assert await readiness.reason() == "Valkey did not answer within 0.3 s"
        assert asked == {"store": 2, "valkey": 1}
        hang.set()
        await asyncio.sleep(0.6)
        assert await readiness.reason() is None
        draining = True
        assert await readiness.reason() == "draining: this process is stopping"
        await readiness.close()

    asyncio.run(scenario())
