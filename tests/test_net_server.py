"""The table server through real WebSocket clients on loopback: seats, codes, refusals in
words, and the rule that matters most: nothing one seat commits reaches the other before both
have committed that step."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import warnings

import pytest
from server_lab import first_legal, nothing_comes, receive, run, seated_pair, server, wire_actions
from websockets.asyncio.client import connect

from sudden_death.engine import events as ev
from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.event_codec import events_from_list
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.tables import Seat, replay
from sudden_death.wire import protocol as p


def test_a_host_gets_a_six_digit_code_and_the_away_seat_and_the_guest_the_home_seat() -> None:
    async def scenario() -> None:
        async with server() as lab:
            _host, _guest, host_seat, guest_seat = await seated_pair(lab)
            assert host_seat["type"] == guest_seat["type"] == "seated"
            assert len(host_seat["code"]) == 6 and host_seat["code"].isdigit()
            assert (host_seat["seat"], guest_seat["seat"]) == (Team.AWAY, Team.HOME)
            assert host_seat["token"] != guest_seat["token"]

    run(scenario)


@pytest.mark.parametrize(("greeting", "code"), [
    ({"type": "host", "version": 99, "name": "Hawks"}, p.WRONG_VERSION),
    ({"type": "host", "version": 7, "name": "Hawks", "colour": "red"}, p.WRONG_VERSION),
    # A game of protocol 1 (untyped actions and states) is told the versions differ.
    ({"type": "host", "version": 1, "name": "Hawks"}, p.WRONG_VERSION),
    ({"type": "host", "version": 2, "name": "Hawks"}, p.WRONG_VERSION),  # before accounts
    ({"type": "host", "version": 3, "name": "Hawks"}, p.WRONG_VERSION),  # before stand-ins
    ({"type": "host", "version": 4, "name": "Hawks"}, p.WRONG_VERSION),  # an uncapped lobby
    ({"type": "host", "version": 5, "name": "Hawks"}, p.WRONG_VERSION),  # never told `busy`
    ({"type": "resume", "version": 1, "code": "000000", "token": "t", "step": 3},
     p.WRONG_VERSION),
    ({"type": "join", "version": p.PROTOCOL_VERSION, "code": "000000", "name": "Bears"},
     p.NO_TABLE),
    ({"type": "host", "version": p.PROTOCOL_VERSION, "name": ""}, p.BAD_NAME),
    ({"type": "host", "version": p.PROTOCOL_VERSION, "name": "x" * 25}, p.BAD_NAME),
    # Only variation selectors: a name with nothing to say aloud.
    ({"type": "host", "version": p.PROTOCOL_VERSION, "name": "\ufe0f\ufe0e"}, p.BAD_NAME),
    ({"type": "act", "step": 0, "actions": []}, p.BAD_MESSAGE),
    ({"type": "dance"}, p.BAD_MESSAGE),
    ("not json at all", p.BAD_MESSAGE),
    ("[" * 5000 + "]" * 5000, p.BAD_MESSAGE),
    # Nested past reason in this protocol's own version: not a message, whatever the Python.
    (f'{{"type": "join", "version": {p.PROTOCOL_VERSION}, "code": ' + "[" * 5000 + "]" * 5000
     + "}", p.BAD_MESSAGE),
])
def test_a_bad_greeting_is_refused_with_its_reason_and_the_line_closes(
        greeting: object, code: str) -> None:
    async def scenario() -> None:
        async with server() as lab:
            connection = await lab.connect()
            text = greeting if isinstance(greeting, str) else json.dumps(greeting)
            await connection.send(text)
            refusal = await receive(connection)
            assert refusal["type"] == "refused" and refusal["code"] == code
            assert refusal["fatal"] is True and refusal["text"]
            await asyncio.wait_for(connection.wait_closed(), 5)

    run(scenario)


def test_a_third_player_is_told_the_table_is_full() -> None:
    async def scenario() -> None:
        async with server() as lab:
            _host, _guest, host_seat, _ = await seated_pair(lab)
            third = await lab.connect()
            await third.send(p.encode(p.Join(p.PROTOCOL_VERSION, host_seat["code"], "Owls")))
            refusal = await receive(third)
            assert refusal["code"] == p.TABLE_FULL

    run(scenario)


def test_a_commit_reaches_nobody_until_both_seats_have_committed_then_both_hear_the_same() -> None:
    async def scenario() -> None:
        async with server() as lab:
            service = lab.service
            host, guest, _, _ = await seated_pair(lab)
            seats = {Team.AWAY: host, Team.HOME: guest}
            state, step, reveals = GameState(), 0, 0
            while state.outcome is None:
                teams = actors(state)
                if len(teams) == 2:  # a card step: offense commits first, alone
                    first, second = teams
                    await seats[first].send(p.encode(p.Act(step, [first_legal(state, first)])))
                    held = await receive(seats[first])
                    chosen = {"type": "committed", "step": step, "seat": int(first)}
                    assert held == chosen
                    # The other seat hears that a choice is in, and nothing of it.
                    assert await receive(seats[second]) == chosen
                    if reveals < 9:  # listening costs QUIET_S: the first three downs' steps
                        assert await nothing_comes(seats[second]), "the other seat heard it"
                    await seats[second].send(p.encode(p.Act(step, [first_legal(state, second)])))
                    reveals += 1
                else:
                    (team,) = teams
                    await seats[team].send(p.encode(p.Act(step, [first_legal(state, team)])))
                updates = [await receive(seats[team]) for team in Team]
                assert updates[0] == updates[1] and updates[0]["type"] == "update"
                step, state = updates[0]["step"], state_from_dict(updates[0]["state"])
            assert reveals > 6
            (table,) = service.tables.values()
            game, events = replay(11, table.log)
            assert game.state == table.game.state == state
            assert isinstance(events[-1], ev.GameOver)

    run(scenario)


def test_refusals_go_to_the_asking_seat_alone_and_change_nothing() -> None:
    async def scenario() -> None:
        async with server() as lab:
            service = lab.service
            host, guest, _, _ = await seated_pair(lab)
            (table,) = service.tables.values()
            before = table.game.to_json()
            asks = [
                (host, p.Act(0, [{"action": "CallCoin", "face": "heads"}]), p.NOT_NOW),  # away
                (guest, p.Act(5, [{"action": "CallCoin", "face": "heads"}]), p.NOT_NOW),  # step
                (guest, p.Act(0, [{"action": "CallCoin", "face": "edges"}]), p.BAD_MESSAGE),
                (guest, p.Act(0, [{"action": "ChooseSide", "side": "offense"}]), p.NOT_ALLOWED),
                (guest, p.Act(0, [{"action": "Teleport"}]), p.BAD_MESSAGE),
            ]
            for seat, message, code in asks:
                await seat.send(p.encode(message))
                answer = await receive(seat)
                assert answer["type"] == "refused" and answer["code"] == code, answer
                assert answer["fatal"] is False
            assert await nothing_comes(host)
            assert table.game.to_json() == before and table.step == 0

    run(scenario)


def test_a_seat_that_leaves_mid_game_is_played_out_by_the_computer_and_named_to_the_other(
        ) -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, guest_seat = await seated_pair(lab)
            await guest.send(p.encode(p.Leave()))
            assert await receive(host) == {"type": "computer", "name": "Bears",
                                           "reason": "left"}
            table = lab.service.tables[guest_seat["code"]]
            assert table.gone == table.computer == {Team.HOME} and not table.over
            assert (await receive(host))["type"] == "update"  # the computer called the toss
            back = await lab.connect()  # the seat is no more
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, guest_seat["code"],
                                              guest_seat["token"], 0)))
            assert (await receive(back))["code"] == p.OVER

    run(scenario)


def test_a_seat_that_leaves_with_the_other_away_ends_the_table() -> None:
    async def scenario() -> None:
        async with server() as lab:
            service = lab.service
            host, guest, _, _ = await seated_pair(lab)
            await host.close()
            assert (await receive(guest))["type"] == "away"
            await guest.send(p.encode(p.Leave()))
            for _ in range(50):
                if not service.tables:
                    break
                await asyncio.sleep(0.02)
            assert not service.tables

    run(scenario)


def test_the_events_a_seat_receives_are_the_replayed_games_events() -> None:
    """Every update's events decode to exactly what a local replay of the same seed and
    actions produces (the server's dice are its seed's, and nothing is lost in transit)."""
    async def scenario() -> None:
        async with server(seed=23) as lab:
            service = lab.service
            host, guest, _, _ = await seated_pair(lab)
            seats = {Team.AWAY: host, Team.HOME: guest}
            rng = random.Random(5)
            state, step, heard = GameState(), 0, []
            while state.outcome is None:
                for team in actors(state):
                    choice = rng.choice(legal_actions(state, team))
                    await seats[team].send(p.encode(p.Act(step, [action_to_dict(choice)])))
                for seat in (host, guest):  # each hears "committed" first, for a card step
                    while (message := await receive(seat))["type"] != "update":
                        assert message["type"] == "committed"
                heard += events_from_list(message["events"])
                step, state = message["step"], state_from_dict(message["state"])
            (table,) = service.tables.values()
            _, events = replay(23, table.log)
            assert heard == events

    run(scenario)


def test_a_resume_with_a_token_not_of_the_table_is_refused() -> None:
    async def scenario() -> None:
        async with server() as lab:
            _host, _guest, host_seat, _ = await seated_pair(lab)
            stranger = await lab.connect()
            await stranger.send(p.encode(p.Resume(p.PROTOCOL_VERSION, host_seat["code"],
                                                  "not-the-token", 0)))
            refusal = await receive(stranger)
            assert refusal["code"] == p.BAD_TOKEN and refusal["fatal"] is True

    run(scenario)


def test_a_dropped_seat_is_waited_for_then_the_computer_finishes_and_the_friend_hears_why(
        ) -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            (table,) = lab.service.tables.values()
            table.seat_wait_s = 0  # the host sets it; a test cannot wait ten minutes
            await guest.close()
            assert await receive(host) == {"type": "away", "name": "Bears", "wait_s": 0}
            assert await receive(host) == {"type": "computer", "name": "Bears", "reason": "gone"}
            assert not table.over and table.gone == {Team.HOME}  # the game goes on


def test_a_table_whose_seats_both_dropped_ends_when_the_wait_runs_out() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _, _ = await seated_pair(lab)
            (table,) = lab.service.tables.values()
            table.seat_wait_s = 1
            await guest.close()
            await host.close()
            for _ in range(300):
                if table.over:
                    break
                await asyncio.sleep(0.01)
            assert table.over and table.left_why == "timeout" and not table.computer

    run(scenario)


def test_a_seat_that_comes_back_hears_what_it_missed_and_its_held_choice() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, guest, _host_seat, guest_seat = await seated_pair(lab)
            await guest.send(p.encode(p.Act(0, [{"action": "CallCoin", "face": "heads"}])))
            update = await receive(guest)
            await guest.close()  # the guest drops before hearing anything else
            assert (await receive(host))["type"] == "update"
            assert (await receive(host))["type"] == "away"
            back = await lab.connect()
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, guest_seat["code"],
                                              guest_seat["token"], 0)))
            assert (await receive(back))["type"] == "seated"
            resumed = await receive(back)
            assert resumed["type"] == "start" and resumed["step"] == 1
            assert resumed["events"] == update["events"]  # step 0's coin toss, told again
            assert resumed["held"] == []
            assert await receive(host) == {"type": "back", "name": "Bears"}

    run(scenario)


def test_tables_outlive_the_server_in_its_store_and_a_damaged_one_is_set_aside(
        tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    from sudden_death.server.stores.sqlite_tables import TableStore
    from sudden_death.server.tables import Table, new_game

    store = TableStore(tmp_path)
    table = Table("123456", new_game(4), {Team.AWAY: Seat("Hawks"), Team.HOME: Seat("Bears")})
    out = table.act(Team.HOME, 0, wire_actions({"action": "CallCoin", "face": "tails"}))
    assert out and table.step == 1
    state = table.game.state
    first_team = actors(state)[0]
    table.act(first_team, 1, [first_legal(state, first_team)])
    store.save(table)
    store._db.execute("INSERT INTO tables (code, record) VALUES ('999999', '{broken')")
    store.close()
    again = TableStore(tmp_path)
    with caplog.at_level("WARNING", logger="sudden_death.server"):
        (restored,) = again.open_tables()
    assert "999999" in caplog.text and "set aside" in caplog.text
    assert restored.to_record() == table.to_record()
    assert restored.game.to_json() == table.game.to_json()  # the dice too
    rows = again._db.execute("SELECT count(*) FROM tables").fetchone()
    assert rows == (2,)  # the damaged row is still there
    again.close()


def test_with_a_certificate_the_server_speaks_wss_and_a_game_that_trusts_it_gets_a_seat(
        tmp_path) -> None:
    import ssl
    import subprocess

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True,
                   timeout=60)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))

    async def scenario() -> None:
        service = TableService()
        running = await start(service, "127.0.0.1", 0, served)
        try:
            url = address(running, tls=True)
            assert url.startswith("wss://127.0.0.1:")
            port = url.rsplit(":", 1)[1]
            async with connect(f"wss://localhost:{port}", ssl=trusting) as client:
                await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
                assert (await receive(client))["type"] == "seated"
            # a client that checks the certificate against the system's authorities (as the
            # game does) refuses this self-signed one
            with pytest.raises(ssl.SSLCertVerificationError):
                async with connect(f"wss://localhost:{port}"):
                    pass
        finally:
            await stop(running)
            service.close()

    run(scenario)
    if sys.version_info < (3, 11):
        # Python 3.10's asyncio never marks a TLS transport closed when its peer closed it
        # (its sslproto was rewritten in 3.11), and warns when it is collected, in whatever
        # test runs then. Collect it here, without that one warning.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            gc.collect()


def test_actions_sent_again_count_once_and_are_answered_not_now() -> None:
    """A step sent again, played or held, counts once; the seat hears `not_now` (the game
    itself sends a lost step again only when the server does not hold it)."""
    from sudden_death.server.tables import Table, new_game

    table = Table("123456", new_game(4), {Team.AWAY: Seat("Hawks"), Team.HOME: Seat("Bears")})
    toss = wire_actions({"action": "CallCoin", "face": "tails"})
    out = table.act(Team.HOME, 0, toss)
    assert {type(message) for _, message in out} == {p.Update}
    ((_, again),) = table.act(Team.HOME, 0, toss)  # played already: a repeat
    assert isinstance(again, p.Refused) and again.code == p.NOT_NOW
    assert table.step == 1
    while table.game.state.phase.value != "selection":  # on to the first card step
        state = table.game.state
        (team,) = actors(state)
        table.act(team, table.step, [first_legal(state, team)])
    state, step = table.game.state, table.step
    offense = actors(state)[0]
    pick = [first_legal(state, offense)]
    chosen = p.Committed(step, int(offense))
    assert table.act(offense, step, pick) == [(team, chosen) for team in Team]
    ((_, again),) = table.act(offense, step, pick)  # held already: a repeat
    assert isinstance(again, p.Refused) and again.code == p.NOT_NOW
    assert table.step == step and offense in table.held
    other = wire_actions({"action": "PickHand", "hand": {"players": [], "calls": []}})
    refusal = table.act(offense, step, other)[0][1]
    assert isinstance(refusal, p.Refused) and refusal.code in (p.NOT_NOW, p.BAD_MESSAGE)


@pytest.mark.parametrize(("command", "signum"), [
    (["-m", "sudden_death.server"], "SIGTERM"),
    (["-m", "sudden_death", "--serve"], "SIGINT"),  # what `sudden-death --serve` runs
])
def test_the_server_process_says_where_it_listens_and_stops_cleanly_on_a_signal(
        tmp_path, command: list[str], signum: str) -> None:
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, *command, "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert first["listening"].startswith("ws://127.0.0.1:")

        async def host() -> str:
            async with connect(first["listening"]) as client:
                await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
                return (await receive(client))["code"]

        code = run(host)
        proc.send_signal(getattr(signal, signum))
        _out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    from sudden_death.server.stores.sqlite_tables import TableStore

    store = TableStore(tmp_path)
    assert [table.code for table in store.open_tables()] == [code]  # kept for a restart
    store.close()


def test_a_seat_back_after_its_game_ended_hears_how_it_ended(tmp_path) -> None:
    """Even once the server has forgotten the table (both lines closed), or restarted just
    after its last step, the store still has it for a seat that never heard the end."""
    from sudden_death.server.stores.sqlite_tables import TableStore

    async def scenario() -> None:
        store = TableStore(tmp_path)
        service = TableService(seed=3, store=store)
        running = await start(service, "127.0.0.1", 0)
        url = address(running, tls=False)
        try:
            host = await connect(url)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            seated = await receive(host)
            guest = await connect(url)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
            await receive(guest)
            for connection in (host, guest):
                assert (await receive(connection))["type"] == "start"
            await host.close()  # the host's line drops; then the guest concedes
            assert (await receive(guest))["type"] == "away"
            await guest.send(p.encode(p.Act(0, [{"action": "Concede"}])))
            assert (await receive(guest))["type"] == "update"
            await guest.close()
            for _ in range(100):
                if not service.tables:
                    break
                await asyncio.sleep(0.01)
            assert not service.tables  # forgotten: nobody is connected to it
            back = await connect(url)
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seated["code"],
                                              seated["token"], 0)))
            assert (await receive(back))["type"] == "seated"
            told = await receive(back)
            assert told["type"] == "start" and state_from_dict(told["state"]).outcome
            assert any(event["event"] == "game_over" for event in told["events"])
            await back.close()
        finally:
            await stop(running)
            service.close()  # the store too

    run(scenario)
