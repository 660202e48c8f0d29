"""The table server against hostile clients, each a real WebSocket (or TCP) client on loopback:
every one is refused in words or cut off, and a table played beside it never notices.

Limits are set low where a test needs to reach them quickly (`Limits`); the defaults are the
ones `python -m sudden_death.server` runs with.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time

import pytest
from server_lab import Lab, first_legal, nothing_comes, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from sudden_death.engine.actions import actors
from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.lines.limits import SWEEP_AT, Addresses, Bucket, Limits
from sudden_death.server.tables import lock, unlocks
from sudden_death.wire import protocol as p


async def closed_within(connection: ClientConnection, seconds: float) -> bool:
    """Whether the server closes `connection` within `seconds` (what it sends is drained)."""
    async def drain() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _frame in connection:
                pass

    try:
        await asyncio.wait_for(drain(), seconds)
    except (asyncio.TimeoutError, TimeoutError):
        return False
    return True


async def one_step_is_played(lab: Lab, host: ClientConnection, guest: ClientConnection) -> None:
    """The coin toss of a fresh table: the guest calls, both hear the same update."""
    await guest.send(p.encode(p.Act(0, [{"action": "CallCoin", "face": "heads"}])))
    updates = [await receive(seat) for seat in (host, guest)]
    assert updates[0] == updates[1] and updates[0]["type"] == "update", updates


async def next_refusal(connection: ClientConnection) -> dict[str, object]:
    while True:
        message = await receive(connection)
        if message["type"] == "refused":
            return message


def test_a_flood_of_messages_is_refused_then_cut_off_and_the_next_table_plays_on() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(messages_per_s=5, burst=10)) as lab:
            host, guest, _, _ = await seated_pair(lab)
            other_host, other_guest, _, _ = await seated_pair(lab)
            for _ in range(40):
                await host.send(p.encode(p.Chat("spam")))
            refusal = await next_refusal(host)
            assert refusal["code"] == p.FLOOD and refusal["fatal"] is True
            assert "messages a second" in str(refusal["text"])
            assert await closed_within(host, 5)
            said = []
            while (message := await receive(guest))["type"] == "said":
                said.append(message)
            assert 10 <= len(said) <= 12  # the burst, then nothing more was passed on
            assert message == {"type": "away", "name": "Hawks", "wait_s": 600}
            await one_step_is_played(lab, other_host, other_guest)

    run(scenario)


def test_a_flooding_spectator_or_lobby_line_is_closed_at_once_not_after_a_timeout() -> None:
    """Cut off for a flood while still sending: closed as a seat's line is, at once (its
    frames read and dropped), not after the close's 10 s wait for an answer never read."""
    async def scenario() -> None:
        async with server() as lab:
            _host, _guest, host_seat, _ = await seated_pair(lab)
            watcher, lobby = await lab.connect(), await lab.connect()
            await watcher.send(p.encode(p.Watch(p.PROTOCOL_VERSION, host_seat["code"], "Owls")))
            assert (await receive(watcher))["type"] == "start"
            await lobby.send(p.encode(p.Lobby()))
            for line in (watcher, lobby):
                for _ in range(60):
                    await line.send(p.encode(p.Chat("spam")))
                while (refusal := await next_refusal(line))["code"] != p.FLOOD:
                    pass  # its chat's own rate is met first
                assert refusal["fatal"] is True
                assert await closed_within(line, 3) and line.close_code == 1008

    run(scenario)


def test_a_whole_game_played_as_fast_as_the_line_allows_is_no_flood() -> None:
    """A seat's moves go only as fast as both seats: they are never counted as a flood."""
    async def scenario() -> None:
        async with server(limits=Limits(messages_per_s=1, burst=2)) as lab:
            host, guest, _, _ = await seated_pair(lab)
            seats = {Team.AWAY: host, Team.HOME: guest}
            state, step = GameState(), 0
            while state.outcome is None:
                for team in actors(state):
                    await seats[team].send(p.encode(p.Act(step, [first_legal(state, team)])))
                updates = []
                for team in Team:  # a commit held for the other seat is heard first
                    while (message := await receive(seats[team]))["type"] == "committed":
                        pass
                    updates.append(message)
                assert updates[0] == updates[1] and updates[0]["type"] == "update", updates
                step, state = updates[0]["step"], state_from_dict(updates[0]["state"])
            assert step > 20

    run(scenario)


def test_too_many_lines_from_one_address_are_refused_and_a_closed_one_frees_a_place() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(per_address=3)) as lab:
            lines = [await lab.connect() for _ in range(3)]
            extra = await lab.connect()
            refusal = await receive(extra)
            assert refusal["code"] == p.BUSY and refusal["fatal"] is True
            assert "at most 3 connections" in str(refusal["text"])
            assert await closed_within(extra, 5)
            await lines[0].close()
            await asyncio.sleep(0.1)
            again = await lab.connect()
            await again.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            assert (await receive(again))["type"] == "seated"

    run(scenario)


def test_a_client_reconnecting_in_a_loop_is_refused_before_the_handshake() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(connects_per_s=1, connect_burst=5)) as lab:
            for _ in range(5):
                await lab.connect()  # the burst: opened
            with pytest.raises(InvalidStatus) as refused:
                await lab.connect()
            assert refused.value.response.status_code == 429
            assert b"Too many new connections" in refused.value.response.body
            await asyncio.sleep(1.1)  # the rate refills it
            line = await lab.connect()
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            assert (await receive(line))["type"] == "seated"

    run(scenario)
    shared = Limits.shared(600)  # behind a proxy: every per-address limit grows with it
    assert (shared.per_address, shared.connect_burst) == (600, 600)
    assert shared.connects_per_s == 600 / 16 and shared.failed_tries == 200
    assert Limits.shared(1) == Limits()


def test_a_greeting_that_never_comes_and_a_handshake_that_never_ends_are_timed_out() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(greeting_s=0.5, handshake_s=0.5)) as lab:
            silent = await lab.connect()  # opened, then says nothing
            started = time.monotonic()
            assert await closed_within(silent, 5)
            assert time.monotonic() - started < 3
            port = int(lab.url.rsplit(":", 1)[1])
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # a request never finished
            started = time.monotonic()
            rest = await asyncio.wait_for(reader.read(), 5)  # the server closes the socket
            assert time.monotonic() - started < 3
            assert rest == b"" or rest.startswith(b"HTTP/1.1 ")
            writer.close()
            # and a normal table meanwhile
            host, guest, _, _ = await seated_pair(lab)
            await one_step_is_played(lab, host, guest)

    run(scenario)


def test_wrong_codes_from_one_address_are_counted_and_then_not_heard_for_a_while() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=3)) as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seated = await receive(host)
            code = seated["code"]
            wrong = [f"{(int(code) + n) % 10**6:06d}" for n in (1, 2)]
            for guess in wrong:
                guesser = await lab.connect()
                await guesser.send(p.encode(p.Join(p.PROTOCOL_VERSION, guess, "Owls")))
                assert (await receive(guesser))["code"] == p.NO_TABLE
            tokens = await lab.connect()  # a wrong token counts the same
            await tokens.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, "guess", 0)))
            assert (await receive(tokens))["code"] == p.BAD_TOKEN
            late = await lab.connect()  # now even the right code is not heard
            await late.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            refusal = await receive(late)
            assert refusal["code"] == p.SLOW_DOWN and "try again in" in str(refusal["text"])
            stranger = await lab.connect()  # a wrong token now: not heard either
            await stranger.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, "guess", 0)))
            assert (await receive(stranger))["code"] == p.SLOW_DOWN
            (table,) = lab.service.tables.values()
            assert not table.full  # the guesses touched nothing
            assert await nothing_comes(host)
            back = await lab.connect()  # but a seat whose line dropped comes back with its token
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, seated["token"], 0)))
            assert (await receive(back))["type"] == "seated"
            other = await lab.connect()  # hosting is not a try: it is never refused
            await other.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Owls")))
            assert (await receive(other))["type"] == "seated"

    run(scenario)


def test_failed_tries_are_forgotten_once_their_window_has_passed() -> None:
    now = [100.0]
    book = Addresses(Limits(failed_tries=2, tries_window_s=60), clock=lambda: now[0])
    book.failed("10.0.0.9")
    now[0] += 30
    book.failed("10.0.0.9")
    assert book.blocked_for("10.0.0.9") == pytest.approx(30)
    assert book.blocked_for("10.0.0.8") == 0  # another address is not held back
    now[0] += 30
    assert book.blocked_for("10.0.0.9") == 0  # the first try has aged out
    now[0] += 60
    assert book.blocked_for("10.0.0.9") == 0 and "10.0.0.9" not in book.failures


def test_failed_tries_from_many_addresses_do_not_pile_up_for_ever() -> None:
    now = [0.0]
    book = Addresses(Limits(tries_window_s=60), clock=lambda: now[0])
    for number in range(SWEEP_AT):
        book.failed(f"10.{number // 65536}.{number // 256 % 256}.{number % 256}")
    now[0] += 61
    book.failed("192.0.2.1")  # past the sweep mark: the stale ones go
    assert list(book.failures) == ["192.0.2.1"]


def test_a_token_bucket_allows_its_burst_then_its_rate() -> None:
    now = [0.0]
    bucket = Bucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert bucket.take() and not bucket.take()
    now[0] += 100
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]  # never past burst


def test_a_table_with_a_password_opens_only_to_it_and_keeps_no_copy_of_it() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", password="blue 42")))
            code = (await receive(host))["code"]
            for tried in ("", "blue 41"):
                guest = await lab.connect()
                await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears",
                                                 password=tried)))
                refusal = await receive(guest)
                assert refusal["code"] == p.BAD_PASSWORD and refusal["fatal"] is True
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears",
                                             password="blue 42")))
            assert (await receive(guest))["type"] == "seated"
            (table,) = lab.service.tables.values()
            assert "blue 42" not in table.to_record()
            assert unlocks(table.lock, "blue 42") and not unlocks(table.lock, "blue 4")

    run(scenario)
    assert lock("x") != lock("x")  # salted: one password, two different locks
    assert unlocks("", "anything") and lock("") == ""


def test_actions_duplicated_after_a_concession_or_for_another_table_change_nothing() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            other_host, other_guest, other_seat, _ = await seated_pair(lab)
            toss = p.encode(p.Act(0, [{"action": "CallCoin", "face": "heads"}]))
            await guest.send(toss)
            first = [await receive(seat) for seat in (host, guest)]
            await guest.send(toss)  # the same again: taken once, never played twice
            assert (await receive(guest))["code"] == p.NOT_NOW  # and said so, to it alone
            assert await nothing_comes(guest) and await nothing_comes(host)
            tables = {table.code: table for table in lab.service.tables.values()}
            mine = next(t for c, t in tables.items() if c != other_seat["code"])
            assert mine.step == first[0]["step"] == 1
            # another table's seat from this line: refused, that table untouched
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, other_seat["code"], "Owls")))
            assert (await receive(guest))["code"] == p.NOT_NOW
            assert tables[other_seat["code"]].step == 0
            await one_step_is_played(lab, other_host, other_guest)
            # conceded: the game is over, and what comes after is refused
            team = actors(mine.game.state)[0]
            seat = host if team is Team.AWAY else guest
            await seat.send(p.encode(p.Act(mine.step, [{"action": "Concede"}])))
            over = [await receive(s) for s in (host, guest)]
            assert over[0]["type"] == "update" and mine.game.is_over
            step = mine.step
            await seat.send(p.encode(p.Act(step, [{"action": "Concede"}])))
            assert (await receive(seat))["type"] == "refused"
            assert mine.step == step

    run(scenario)


def test_a_client_that_never_reads_is_dropped_and_its_friend_hears_it_went_away() -> None:
    async def scenario() -> None:
        limits = Limits(messages_per_s=100_000, burst=100_000, send_queue_bytes=32 * 1024)
        async with server(limits=limits) as lab:
            probe = socket.socket()
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            probe.connect(("127.0.0.1", int(lab.url.rsplit(":", 1)[1])))
            # max_queue: the client stops reading its socket after 4 unread frames
            deaf = await connect(lab.url, sock=probe, max_queue=4)
            lab.clients.append(deaf)
            await deaf.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(deaf))["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            line = "x" * p.MAX_CHAT
            for _ in range(4000):  # up to 900 KB to a client that reads none of it
                await guest.send(p.encode(p.Chat(line)))
                await asyncio.sleep(0)  # the server's turn to pass it on
                if lab.service.postman.dropped:
                    break
            assert lab.service.postman.dropped == 1
            while (message := await receive(guest))["type"] != "away":
                pass
            assert message["name"] == "Hawks"
            assert await closed_within(deaf, 5)  # once it reads again: its line was cut
            other_host, other_guest, _, _ = await seated_pair(lab)
            await one_step_is_played(lab, other_host, other_guest)

    run(scenario)


def test_a_frame_over_64_kib_closes_that_line_alone_and_other_nonsense_is_refused() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            other_host, other_guest, _, _ = await seated_pair(lab)
            for nonsense in (b"\x00\x01binary", "not json", "[" * 5000 + "]" * 5000,
                             '{"type": "peek"}', '{"type": "act", "step": 0}'):
                await host.send(nonsense)
                refusal = await receive(host)
                assert refusal["type"] == "refused" and refusal["code"] == p.BAD_MESSAGE
                assert refusal["fatal"] is False  # a seated line stays open
            await host.send(p.encode(p.Chat("x")).replace('"x"', '"' + "x" * 70_000 + '"'))
            assert await closed_within(host, 5)
            assert host.close_code == 1009  # "message too big", the WebSocket way
            assert (await receive(guest))["type"] == "away"
            await one_step_is_played(lab, other_host, other_guest)

    run(scenario)


def test_a_game_refused_for_connecting_too_often_hears_it_as_a_refusal_in_words() -> None:
    from sudden_death.net.link import TableLink
    from sudden_death.ui.words.table import refusal_words

    async def scenario() -> None:
        async with server(limits=Limits(connects_per_s=0.001, connect_burst=1)) as lab:
            await lab.connect()  # the address's one line for now
            link = TableLink(lab.url, p.Host(p.PROTOCOL_VERSION, "Hawks"))
            link.start()
            try:
                deadline = time.monotonic() + 10
                news: list[object] = []
                while not news and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                    news = link.poll()
            finally:
                link.close()
            (refusal,) = news
            assert isinstance(refusal, p.Refused) and refusal.code == p.BUSY and refusal.fatal
            assert refusal_words(refusal.code, refusal.text).startswith(
                "The table server is busy, or has too many connections from this computer")

    run(scenario)
