"""What a hostile client written from docs/protocol.md alone found on the table server, each
mended and shown here against a real server on loopback with real WebSocket clients (and, where
the player's game is at stake, the game's own line, `TableLink`)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest
from server_lab import Lab, first_legal, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from sudden_death.engine.actions import actors
from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import Team
from sudden_death.net.link import TableLink
from sudden_death.net.news import Lost, Reconnecting
from sudden_death.server.service import TableService
from sudden_death.server.stores.sqlite_tables import TableStore
from sudden_death.server.tables import Seat, Table, new_game
from sudden_death.wire import protocol as p

TOSS = {"action": "CallCoin", "face": "heads"}


async def resumed(lab: Lab, seat: dict[str, object], step: int = 0) -> ClientConnection:
    back = await lab.connect()
    await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, str(seat["code"]),
                                      str(seat["token"]), step)))
    return back


async def closes(connection: ClientConnection) -> list[dict[str, object]]:
    """Everything the server sends `connection` until it closes the line (at most 5 s)."""
    heard: list[dict[str, object]] = []

    async def drain() -> None:
        try:
            async for frame in connection:
                heard.append(json.loads(frame))
        except ConnectionClosed:
            pass

    await asyncio.wait_for(drain(), 5)
    return heard


def test_a_seat_away_when_the_other_leaves_hears_on_return_who_left_and_then_is_let_go() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, guest_seat = await seated_pair(lab)
            await guest.close()
            assert (await receive(host))["type"] == "away"
            await host.send(p.encode(p.Leave()))
            back = await resumed(lab, guest_seat)
            assert (await receive(back))["type"] == "seated"
            start_message = await receive(back)
            assert start_message["type"] == "start"
            assert state_from_dict(start_message["state"]).outcome is None  # left, not played
            assert await receive(back) == {"type": "left", "name": "Hawks", "reason": "left"}
            await back.send(p.encode(p.Act(start_message["step"], [TOSS])))
            # Its act is answered in words before the line closes, not closed without one.
            assert await closes(back) == [{"type": "refused", "code": p.OVER, "fatal": True,
                                           "text": "the game at this table is over"}]

    run(scenario)


def test_the_game_told_the_other_seat_left_while_it_was_away_stops_coming_back() -> None:
    """The player's own line, resuming a table the other seat left meanwhile: it hears the
    start, then who left, and never tries the line again (it used to, for ever)."""
    async def scenario() -> list[object]:
        async with server() as lab:
            host, guest, _, guest_seat = await seated_pair(lab)
            await guest.close()
            assert (await receive(host))["type"] == "away"
            await host.send(p.encode(p.Leave()))
            await asyncio.sleep(0.1)
            link = TableLink(lab.url, p.Resume(p.PROTOCOL_VERSION, guest_seat["code"],
                                               guest_seat["token"], 0))
            link.start()
            news: list[object] = []
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                news += link.poll()
                await asyncio.sleep(0.05)
            link.close()
            return news

    news = run(scenario)
    kinds = [type(item).__name__ for item in news]
    assert kinds[:4] == ["Connected", "Seated", "Start", "Left"], kinds
    assert not any(isinstance(item, Reconnecting) for item in news), kinds
    assert sum(isinstance(item, p.Left) for item in news) == 1
    assert all(isinstance(item, (p.Refused, Lost)) for item in news[4:]), kinds


def test_a_line_displaced_by_a_second_resume_is_told_why_before_it_closes() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, guest_seat = await seated_pair(lab)
            second = await resumed(lab, guest_seat)
            assert (await receive(second))["type"] == "seated"
            heard = await closes(guest)
            assert heard[-1]["type"] == "refused" and heard[-1]["code"] == p.ELSEWHERE
            assert heard[-1]["fatal"] is True
            # The new line has the seat: it plays.
            await second.send(p.encode(p.Act(0, [TOSS])))
            assert (await receive(second))["type"] == "start"  # the resume's
            assert (await receive(second))["type"] == "update"
            assert (await receive(host))["type"] == "update"

    run(scenario)


def test_a_repeated_step_and_an_empty_act_are_answered_as_the_document_promises() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            await guest.send(p.encode(p.Act(0, [TOSS])))
            for seat in (host, guest):
                assert (await receive(seat))["type"] == "update"
            await guest.send(p.encode(p.Act(0, [TOSS])))  # the step it just played
            refusal = await receive(guest)
            assert refusal["type"] == "refused" and refusal["code"] == p.NOT_NOW
            (table,) = lab.service.tables.values()
            while table.game.state.phase.value != "selection":  # on to a held card step
                state = table.game.state
                (team,) = actors(state)
                seat = guest if team is Team.HOME else host
                await seat.send(p.encode(p.Act(table.step, [first_legal(state, team)])))
                for each in (host, guest):
                    assert (await receive(each))["type"] == "update"
            state, step = table.game.state, table.step
            offense = actors(state)[0]
            mine = guest if offense is Team.HOME else host
            await mine.send(p.encode(p.Act(step, [first_legal(state, offense)])))
            assert await receive(mine) == {"type": "committed", "step": step,
                                           "seat": int(offense)}
            await mine.send(p.encode(p.Act(step, [first_legal(state, offense)])))
            assert (await receive(mine))["code"] == p.NOT_NOW  # held already
            await mine.send(p.encode(p.Act(step, [])))
            assert (await receive(mine))["code"] == p.BAD_MESSAGE
            assert table.step == step and offense in table.held  # nothing moved

    run(scenario)


@pytest.mark.parametrize("name", ["Hawks\nBears", "Hawks\tBears", "Hawks\u2028Bears",
                                  "Hawks\u202eBears", "\u2066Hawks", "Hawks\u00a0"])
def test_a_name_with_a_control_a_separator_or_a_direction_mark_is_refused(name: str) -> None:
    async def scenario() -> dict[str, object]:
        async with server() as lab:
            client = await lab.connect()
            await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, name)))
            return await receive(client)

    answer = run(scenario)
    assert answer["type"] == "refused" and answer["code"] == p.BAD_NAME, answer


def test_spaces_in_a_name_and_a_chat_line_are_made_one_but_a_line_break_is_refused() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "  Big   Hawks ")))
            seat = await receive(host)
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
            await receive(guest)
            assert (await receive(host))["names"] == ["Bears", "Big Hawks"]
            await receive(guest)
            await guest.send(p.encode(p.Chat("good   luck ")))
            assert await receive(host) == {"type": "said", "name": "Bears", "text": "good luck"}
            for text in ("good\nluck", "a\u2029b", "\u202ekcul"):
                await guest.send(p.encode(p.Chat(text)))
                assert (await receive(guest))["code"] == p.BAD_MESSAGE

    run(scenario)


@pytest.mark.parametrize("wait_s", [p.MIN_SEAT_WAIT_S - 1, p.MAX_SEAT_WAIT_S + 1, -5])
def test_a_seat_wait_outside_its_range_is_refused_not_quietly_clamped(wait_s: int) -> None:
    async def scenario() -> tuple[dict[str, object], int]:
        async with server() as lab:
            client = await lab.connect()
            await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", seat_wait_s=wait_s)))
            return await receive(client), len(lab.service.tables)

    answer, tables = run(scenario)
    assert answer["type"] == "refused" and answer["code"] == p.BAD_MESSAGE
    assert str(p.MAX_SEAT_WAIT_S) in str(answer["text"]) and tables == 0


def test_the_log_says_when_a_table_ends_and_how(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> list[str]:
        async with server() as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            await guest.send(p.encode(p.Act(0, [{"action": "Concede"}])))
            for seat in (host, guest):
                assert (await receive(seat))["type"] == "update"
            other_host, other_guest, other_seat, _ = await seated_pair(lab)
            await other_host.close()  # nobody left to play on with: the leave ends the table
            assert (await receive(other_guest))["type"] == "away"
            await other_guest.send(p.encode(p.Leave()))
            for _ in range(100):
                if other_seat["code"] not in lab.service.tables:
                    break
                await asyncio.sleep(0.01)
            return [str(host_seat["code"]), str(other_seat["code"])]

    with caplog.at_level(logging.INFO, logger="sudden_death.server"):
        played, left = run(scenario)
    lines = [record.getMessage() for record in caplog.records]
    assert f"table {played} ended: game over after 1 steps" in lines, lines
    assert f"table {left} ended: the home seat left" in lines, lines


def test_a_seat_away_before_a_restart_is_waited_for_from_when_it_left(tmp_path: Path) -> None:
    """A seat that dropped 590 s into a 600 s wait has 10 s left after the restart, not 600;
    one the server never saw drop (connected at the crash) is waited for from the restart."""
    now = 1_000_000.0
    store = TableStore(tmp_path)
    table = Table("123456", new_game(4), {Team.AWAY: Seat("Hawks", away_since=now - 590),
                                          Team.HOME: Seat("Bears")}, seat_wait_s=600)
    store.save(table)
    store.close()

    async def scenario() -> dict[Team, float]:
        service = TableService(store=TableStore(tmp_path), clock=lambda: now)
        service.restore()
        loop = asyncio.get_running_loop()
        left = {team: handle.when() - loop.time()
                for (_code, team), handle in service.seats.waits.items()}
        for handle in service.seats.waits.values():
            handle.cancel()
        service.close()
        return left

    left = run(scenario)
    assert 9.0 <= left[Team.AWAY] <= 10.0, left
    assert 599.0 <= left[Team.HOME] <= 600.0, left


def test_a_table_record_written_before_these_fields_still_loads() -> None:
    table = Table("123456", new_game(4), {Team.AWAY: Seat("Hawks"), Team.HOME: Seat("Bears")})
    table.leave(Team.AWAY)
    record = json.loads(table.to_record())
    record["seats"] = {name: kept[:2] for name, kept in record["seats"].items()}
    del record["left_by"], record["left_why"]
    old = Table.from_record(json.dumps(record))
    assert old.left and old.left_by is None
    assert all(seat.away_since is None for seat in old.seats.values())
    # A seat coming back to such a table still hears that the other one left.
    assert old.ending(Team.HOME) == [p.Left("Hawks", "left")]


def test_a_returning_seat_hears_what_it_missed_without_the_game_being_replayed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step's events are kept as they were sent; a resume reads them, and only a record
    written before they were kept is replayed, once, as it loads."""
    table = Table("123456", new_game(4), {Team.AWAY: Seat("Hawks"), Team.HOME: Seat("Bears")})
    sent = []
    while table.step < 6:
        state = table.game.state
        for team in actors(state):
            out = table.act(team, table.step, [first_legal(state, team)])
        sent += [message.events for _, message in out if isinstance(message, p.Update)][:1]
    old = json.loads(table.to_record())
    del old["told"]
    kept = Table.from_record(table.to_record())

    def no_replay(text: str) -> object:
        raise AssertionError("the game was replayed")

    monkeypatch.setattr("sudden_death.server.tables.Game.from_json", no_replay)
    start_message = table.resumed(Team.HOME, 2)
    assert start_message.events == [event for step in sent[2:] for event in step]
    assert kept.resumed(Team.HOME, 2).events == start_message.events
    monkeypatch.undo()
    assert Table.from_record(json.dumps(old)).told == table.told  # rebuilt by a replay


@pytest.mark.parametrize("last", ["leave", "rematch"])
def test_after_the_game_and_the_friend_gone_a_seats_last_message_is_answered_not_crashed(
        last: str, caplog: pytest.LogCaptureFixture) -> None:
    """The game played out, one seat quits: the table is forgotten while the other is still
    on the line. Its leave closes the line; a rematch is told the table is over."""
    async def scenario() -> list[dict[str, object]]:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            await guest.send(p.encode(p.Act(0, [{"action": "Concede"}])))
            for seat in (host, guest):
                assert (await receive(seat))["type"] == "update"
            await host.send(p.encode(p.Leave()))
            assert await receive(guest) == {"type": "left", "name": "Hawks", "reason": "left"}
            for _ in range(100):
                if not lab.service.tables:
                    break
                await asyncio.sleep(0.01)
            message = p.Leave() if last == "leave" else p.Rematch()
            await guest.send(p.encode(message))
            return await closes(guest)

    with caplog.at_level(logging.INFO, logger="sudden_death"):
        heard = run(scenario)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    if last == "leave":
        assert heard == []
    else:
        assert [message["code"] for message in heard] == [p.OVER]


@pytest.mark.parametrize(("guest", "refused"), [
    ("Hawks", True), ("HAWKS", True), ("Hâwks", True), ("Ha wks", True), ("Bears", False),
    ("Hawk", False),
])
def test_a_second_seat_with_the_first_ones_name_is_refused_with_its_own_code(
        guest: str, refused: bool) -> None:
    async def scenario() -> dict[str, object]:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            joining = await lab.connect()
            await joining.send(p.encode(p.Join(p.PROTOCOL_VERSION, str(code), guest)))
            return await receive(joining)

    answer = run(scenario)
    if refused:
        assert answer["type"] == "refused" and answer["code"] == p.SAME_NAME, answer
    else:
        assert answer["type"] == "seated", answer


def test_a_table_password_is_kept_as_argon2id_and_an_older_lock_still_opens() -> None:
    import hashlib

    from sudden_death.server.tables import lock, unlocks

    kept = lock("blue 42")
    assert kept.startswith("$argon2id$") and "blue 42" not in kept
    assert unlocks(kept, "blue 42") and not unlocks(kept, "blue 4")
    assert not unlocks("$argon2id$v=19$damaged", "blue 42")  # a broken lock opens to nothing
    salt = "00" * 16  # the salted SHA-256 an older server kept, in a table record
    older = f"{salt}${hashlib.sha256((salt + 'blue 42').encode()).hexdigest()}"
    assert unlocks(older, "blue 42") and not unlocks(older, "blue 4")


def test_the_slow_password_hash_runs_off_the_servers_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id costs tens of milliseconds by design: on the loop it would hold up every other
    table's reveal, so the service hashes and checks on a thread."""
    import threading

    from sudden_death.server import tables
    from sudden_death.server.roles import seats

    threads: list[int] = []

    def recorded(real):  # type: ignore[no-untyped-def]
        def call(*args: object) -> object:
            threads.append(threading.get_ident())
            return real(*args)
        return call

    monkeypatch.setattr(seats, "lock", recorded(tables.lock))
    monkeypatch.setattr(seats, "unlocks", recorded(tables.unlocks))

    async def scenario() -> int:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", password="blue 42")))
            code = (await receive(host))["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, str(code), "Bears",
                                             password="blue 42")))
            assert (await receive(guest))["type"] == "seated"
            return threading.get_ident()

    loop_thread = run(scenario)
    assert len(threads) == 2 and loop_thread not in threads


def test_the_store_keeps_no_seat_token_and_a_restarted_server_still_knows_the_seat(
        tmp_path: Path) -> None:
    """Every secret the server keeps is hashed: a seat's token is in its record only as
    argon2id, and after a restart (no token in memory) a resume is checked against it."""
    from sudden_death.server.service import address, start, stop

    async def scenario() -> tuple[str, str, dict[str, object]]:
        store = TableStore(tmp_path)
        service = TableService(seed=3, store=store)
        running = await start(service, "127.0.0.1", 0)
        url = address(running, tls=False)
        lab = Lab(service, url)
        try:
            host, _guest, host_seat, _ = await seated_pair(lab)
            await host.close()
        finally:
            for client in lab.clients:
                await client.close()
            await stop(running)
            service.close()
        again = TableService(seed=3, store=TableStore(tmp_path))
        again.restore()
        running = await start(again, "127.0.0.1", 0)
        lab = Lab(again, address(running, tls=False))
        try:
            back = await resumed(lab, host_seat)
            answer = await receive(back)
        finally:
            for client in lab.clients:
                await client.close()
            await stop(running)
            for handle in again.seats.waits.values():
                handle.cancel()
            again.close()
        return str(host_seat["token"]), str(host_seat["code"]), answer

    token, code, answer = run(scenario)
    kept = (tmp_path / "tables.sqlite3").read_bytes()
    for suffix in ("-wal",):
        extra = tmp_path / f"tables.sqlite3{suffix}"
        if extra.exists():
            kept += extra.read_bytes()
    assert token.encode() not in kept and b"$argon2id$" in kept
    assert answer == {"type": "seated", "code": code, "seat": 1, "token": token}
