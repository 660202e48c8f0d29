"""Who is here and the lobby's chat across processes (issue 62, `--valkey URL`).

The merge of several processes' `here` lists each player once, sorted and capped, and an older
process's entries (without `here`) still read. Real server processes on a real, private Valkey:
a player signed in in the lobby of A is listed in the lobby of B, and leaves it when they leave
A; a chat line said on A is heard by the lobby lines of A and B, never by the one who said it,
and only the chat crosses Valkey (each process tells its own lines its own lobby list); Valkey
stopped, the chat stays on A's lines, with no traceback, and crosses again once it is back.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio import Redis
from server_lab import receive, run
from server_process import Running
from valkey_server import ValkeyServer, require_valkey, valkey_server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.server.cluster.lobby_entries import Listed
from sudden_death.server.roles.lobby import merged, present
from sudden_death.server.service import TableService
from sudden_death.wire import protocol as p
from sudden_death.wire.names import folded

Message = dict[str, Any]

NAMES = st.text(alphabet="AaBbÅåÉé ", min_size=1, max_size=4)


@given(st.lists(st.lists(NAMES, max_size=40), max_size=5))
def test_a_merged_here_is_sorted_each_player_once_and_capped(parts: list[list[str]]) -> None:
    here = merged(Listed(here=present(names)) for names in parts).here
    everyone = [name for names in parts for name in names if name]
    assert here == sorted(here) and len(here) <= p.MAX_LISTED_HERE
    assert len({folded(name) for name in here}) == len(here)
    # The first of everyone, by name, each player once: a cap per process loses none of them.
    assert here == present(everyone)
    assert {folded(name) for name in everyone} <= {folded(name) for name in here} or \
        len(here) == p.MAX_LISTED_HERE


def test_the_merge_lists_a_player_on_two_processes_once_and_caps_the_union() -> None:
    own = Listed(here=["Anna", "Cleo"])
    other = Listed(here=["anna", "Ben"])  # Anna's account, folded the same
    assert merged([own, other]).here == ["Anna", "Ben", "Cleo"]
    many = [Listed(here=present(f"P{process}-{n:03d}" for n in range(p.MAX_LISTED_HERE)))
            for process in range(3)]
    assert merged(many).here == [f"P0-{n:03d}" for n in range(p.MAX_LISTED_HERE)]
    assert merged([]).here == []


def test_an_older_processs_entries_without_here_still_read() -> None:
    old = b'{"tables":[],"games":[],"open":2,"playing":1}'
    assert msgspec.json.decode(old, type=Listed) == Listed(open=2, playing=1)


def test_the_lobby_lists_its_own_players_and_the_other_processes() -> None:
    service = TableService(seed=1)
    lobby = service.lobby
    lines: dict[Any, str] = {object(): "Cleo", object(): "", object(): "Anna",
                             object(): "Anna"}  # Anna on two lines: listed once
    lobby.lines = lines
    assert lobby.own().here == ["Anna", "Cleo"]
    assert lobby.listing().here == ["Anna", "Cleo"]
    lobby.elsewhere = lambda: [Listed(here=["Ben", "anna"])]
    assert lobby.listing().here == ["Anna", "Ben", "Cleo"]
    service.close()


# Real processes on a real Valkey.

REAL = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines")


async def until(line: ClientConnection, check: Callable[[Message], bool],
                timeout: float = 10, seen: list[Message] | None = None) -> Message:
    """The first message heard on `line` for which `check` holds, within `timeout` (each one
    heard meanwhile is added to `seen`): the other processes' entries are read at most about
    once a second, longer on a loaded machine."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "not heard in the time allowed"
        message = await receive(line, left)
        if seen is not None:
            seen.append(message)
        if check(message):
            return message


async def no_chat(line: ClientConnection, quiet: float = 1.0) -> bool:
    """Whether `line` hears no chat line for `quiet` seconds (lobby lists may come)."""
    deadline = time.monotonic() + quiet
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await receive(line, left)
        except (asyncio.TimeoutError, TimeoutError):
            return True
        if message["type"] == "said":
            return False
    return True


async def in_lobby(url: str, name: str = "") -> ClientConnection:
    """A line in the lobby of the server at `url`, its player signed up as `name` (none: "")."""
    line = await connect(url)
    if name:
        await line.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, "password one")))
        assert (await receive(line))["type"] == "signed_in"
    await line.send(p.encode(p.Lobby()))
    assert (await receive(line))["type"] == "lobby"
    return line


def said(text: str) -> Callable[[Message], bool]:
    return lambda message: message == {"type": "said", "name": "Pia", "text": text}


def here(name: str, present: bool = True) -> Callable[[Message], bool]:
    return lambda message: message["type"] == "lobby" and (name in message["here"]) == present


def two(engine: ValkeyServer, tmp_path: Path) -> tuple[Running, Running]:
    """Two processes on `engine`, each its own --data, with names no other test's use (the
    session's engine outlives each test, and a killed process's entries expire only in 3 s)."""
    tag = secrets.token_hex(3)

    def one(name: str) -> Running:
        return Running("--valkey", engine.url, "--data", str(tmp_path / name),
                       "--name", f"{name}-{tag}")

    a = one("a")
    try:
        return a, one("b")
    except BaseException:
        a.__exit__()
        raise


@REAL
@pytest.mark.timeout(120)
def test_a_player_in_one_lobby_is_listed_and_heard_in_the_other(valkey: ValkeyServer,
                                                               tmp_path: Path) -> None:
    a, b = two(valkey, tmp_path)
    with a, b:
        async def scenario() -> None:
            crossed: list[Any] = []
            watcher = Redis.from_url(valkey.url)
            pubsub = watcher.pubsub()
            await pubsub.psubscribe("sd:*")  # every message that crosses the processes
            began = time.monotonic()
            on_b = await in_lobby(b.url)  # nobody signed in: may listen, not say
            heard_on_b: list[Message] = []
            pia = await in_lobby(a.url, "Pia")
            on_a = await in_lobby(a.url)
            await until(on_b, here("Pia"), seen=heard_on_b)

            await pia.send(p.encode(p.Chat("  hello   from A ")))
            await until(on_b, said("hello from A"), seen=heard_on_b)
            await until(on_a, said("hello from A"))
            assert await no_chat(pia)  # the one who said it hears it from nobody

            await pia.close()  # gone from A's lobby: gone from B's list too
            await until(on_b, here("Pia", present=False), seen=heard_on_b)
            took = time.monotonic() - began
            while (message := await pubsub.get_message(timeout=0.5)) is not None:
                if message["type"] == "pmessage":  # not the answer to psubscribe
                    crossed.append(message)
            await pubsub.aclose()
            await watcher.aclose()
            # Only the chat crossed: each process told its own lines its own lists.
            assert [(m["channel"], json.loads(m["data"].partition(b"\n")[2]))
                    for m in crossed] == [
                (b"sd:lobby-chat", {"type": "said", "name": "Pia", "text": "hello from A"})]
            lists = [message for message in heard_on_b if message["type"] == "lobby"]
            assert len(lists) <= took + 2  # B's own, at most one a second after the first
            for line in (on_a, on_b):
                await line.close()

        run(scenario)
        logs = a.stopped(), b.stopped()
    for log in logs:
        assert "Traceback" not in log, log


@REAL
@pytest.mark.timeout(120)
def test_valkey_stopped_the_chat_stays_on_its_process_and_crosses_again_once_back(
        tmp_path: Path) -> None:
    require_valkey()
    with valkey_server() as engine:  # an outage of its own: not the session's engine
        a, b = two(engine, tmp_path)
        with a, b:
            async def scenario() -> None:
                on_b = await in_lobby(b.url)
                pia = await in_lobby(a.url, "Pia")
                on_a = await in_lobby(a.url)
                await until(on_b, here("Pia"))
                await pia.send(p.encode(p.Chat("before")))
                await until(on_b, said("before"))

                engine.stop()
                await pia.send(p.encode(p.Chat("during")))
                await until(on_a, said("during"))  # A's own lines still hear it, at once
                heard_on_b: list[Message] = []
                await until(on_b, here("Pia", present=False), seen=heard_on_b)  # forgotten
                assert await no_chat(on_b)  # nor does B hear it later: dropped, never queued
                assert all(message["type"] == "lobby" for message in heard_on_b), heard_on_b

                engine.start()  # empty, on the same port: the subscriptions taken up again
                await until(on_b, here("Pia"), timeout=15)
                crossed = False
                for attempt in range(15):  # the listening connection backs off up to 2 s
                    await pia.send(p.encode(p.Chat(f"after {attempt}")))
                    await until(on_a, said(f"after {attempt}"))
                    if not await no_chat(on_b, 1.2):
                        crossed = True
                        break
                assert crossed
                for line in (pia, on_a, on_b):
                    await line.close()

            run(scenario)
            logs = a.stopped(), b.stopped()
    for log in logs:
        assert "Traceback" not in log, log
        for words in ("messages for the other server processes are dropped until it is back",
                      "its subscriptions are taken up again"):
            assert sum(words in line for line in log.splitlines()) == 1, log
