"""The private Valkey the cluster's tests run against (tests/valkey_server.py): it starts on its
own loopback port, answers PING, comes back on the same port after a stop or a kill, and leaves
nothing behind: no process, no folder.

Valkey (or Redis) is needed: CI sets SUDDEN_DEATH_REQUIRE_VALKEY=1 (tests/valkey_server.py then
installs redis-server with apt and a missing one fails); elsewhere these tests skip without it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import valkey_server
from valkey_server import (
    REQUIRE_ENV,
    ValkeyServer,
    find_valkey,
    ping,
    process_alive,
    require_valkey,
    server_pid,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the server is Debian's, its processes seen in /proc")


def test_valkey_starts_answers_and_leaves_no_process_and_no_folder() -> None:
    require_valkey()
    with valkey_server.valkey_server() as server:
        pid = server.pid
        assert pid is not None and process_alive(pid)
        assert server.url == f"redis://127.0.0.1:{server.port}/0"
        assert ping(server.port)
        folder = server.folder
        assert folder.is_dir()
        assert list(folder.iterdir()) == [server.log]  # no snapshot, no append-only file
    assert not process_alive(pid)
    assert not ping(server.port)
    assert not folder.exists()


def test_valkey_comes_back_on_the_same_port_after_a_kill_or_a_stop() -> None:
    require_valkey()
    with valkey_server.valkey_server() as server:
        port, first = server.port, server.pid
        assert first is not None
        server.kill()
        assert server.pid is None and not process_alive(first) and not ping(port)
        server.start()
        second = server.pid
        assert server.port == port and ping(port) and second not in (None, first)
        server.restart()  # a clean stop, then a start
        assert server.port == port and ping(port) and server.pid not in (None, second)
        server.restart(kill=True)
        assert server.port == port and ping(port)
        last = server.pid
    assert last is not None and not process_alive(last)


def test_valkey_stop_is_idempotent_and_two_servers_are_apart() -> None:
    require_valkey()
    with valkey_server.valkey_server() as one, valkey_server.valkey_server() as two:
        assert one.port != two.port and one.folder != two.folder
        one.stop()
        one.stop()
        one.kill()  # nothing left to stop: no error
        assert not ping(one.port) and ping(two.port)


def test_a_port_another_server_took_first_is_left_for_another(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Two workers' free ports can be the same: the second server exits at once, but the first
    # answers PING meanwhile, and must not be taken for it (a test then shared its engine).
    binary = require_valkey()
    with valkey_server.valkey_server() as first:
        assert first.pid is not None and server_pid(first.port) == first.pid
        ports, free = iter([first.port]), valkey_server.free_port
        monkeypatch.setattr(valkey_server, "free_port", lambda: next(ports, 0) or free())
        second = ValkeyServer(binary, tmp_path)
        try:
            second.start()
            assert second.port != first.port and second.pid is not None
            assert server_pid(second.port) == second.pid != first.pid
        finally:
            second.stop()
        assert server_pid(first.port) == first.pid


def test_valkey_finder_prefers_valkey_then_redis(tmp_path: Path) -> None:
    assert find_valkey(str(tmp_path)) is None
    for name in ("redis-server", "valkey-server"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
        assert find_valkey(str(tmp_path)) == tmp_path / name


def test_valkey_that_cannot_start_says_why(tmp_path: Path) -> None:
    fake = tmp_path / "valkey-server"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    server = ValkeyServer(fake, tmp_path)
    with pytest.raises(RuntimeError, match="did not start"):
        server.start()
    assert server.pid is None


def test_valkey_missing_skips_unless_required(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    installs: list[tuple[str, ...]] = []

    def no_apt(packages: tuple[str, ...], require_env: str, present: object) -> bool:
        installs.append(packages)
        return False

    monkeypatch.setattr(valkey_server, "ensure_packages", no_apt)
    empty = str(tmp_path)
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        require_valkey(empty)
    monkeypatch.setenv(REQUIRE_ENV, "0")
    with pytest.raises(pytest.skip.Exception):
        require_valkey(empty)
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="required"):
        require_valkey(empty)
    assert installs == [("redis-server",)] * 3
    with pytest.raises(RuntimeError, match="not installed"):
        valkey_server.valkey_server(empty).__enter__()
