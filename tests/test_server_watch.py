"""Spectators on the table server (issue 49): a spectator hears the game as both seats do, from
its start, and never a choice before its reveal; it cannot act; the players hear who watches;
the lobby counts them. Real WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_lab import first_legal, nothing_comes, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.event_codec import events_from_list
from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.server.lines import postman
from sudden_death.server.lines.limits import Limits
from sudden_death.server.tables import replay
from sudden_death.wire import protocol as p
from sudden_death.wire.values import action_to_wire


async def watcher(client: ClientConnection, code: str, name: str) -> dict[str, Any]:
    await client.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, name)))
    return await receive(client)


def test_a_spectator_hears_the_whole_game_as_the_seats_do_and_no_choice_before_its_reveal(
        ) -> None:
    async def scenario() -> None:
        async with server(seed=23) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            seats = {Team.AWAY: host, Team.HOME: guest}
            spectator = await lab.connect()
            start = await watcher(spectator, host_seat["code"], "Cleo")
            assert start["type"] == "start" and start["names"] == ["Bears", "Hawks"]
            assert start["held"] == [] and start["step"] == 0
            for seat in (host, guest):
                assert await receive(seat) == {"type": "watching", "name": "Cleo", "count": 1}
            await spectator.send(p.encode(p.Act(0, [first_legal(GameState(), Team.HOME)])))
            assert (await receive(spectator))["code"] == p.NOT_NOW  # it cannot act...
            other = await lab.connect()  # a second spectator, Dan
            assert (await watcher(other, host_seat["code"], "Dan"))["type"] == "start"
            for seat in (host, guest):
                assert (await receive(seat))["name"] == "Dan"
            await spectator.send(p.encode(p.Chat("  what  a game ")))  # to the gallery only
            assert await receive(other) == {"type": "said", "name": "Cleo", "text": "what a game"}
            assert await nothing_comes(host) and await nothing_comes(guest)  # never the seats'
            assert await nothing_comes(spectator)  # nor its own line back
            await other.close()
            rng = random.Random(5)
            state, step, heard, commits = GameState(), 0, [], 0
            while state.outcome is None:
                teams = actors(state)
                for number, team in enumerate(teams):
                    choice = rng.choice(legal_actions(state, team))
                    await seats[team].send(p.encode(p.Act(step, [action_to_wire(choice)])))
                    if len(teams) == 2 and number == 0:  # one choice in: only "committed"
                        told = await receive(spectator)
                        assert told == {"type": "committed", "step": step, "seat": int(team)}
                        commits += 1
                        if commits <= 3:
                            assert await nothing_comes(spectator)
                for seat in (host, guest):
                    while (message := await receive(seat))["type"] != "update":
                        assert message["type"] == "committed"
                watched = await receive(spectator)
                assert watched == message  # the very update both seats heard
                heard += events_from_list(watched["events"])
                step, state = watched["step"], state_from_dict(watched["state"])
            (table,) = lab.service.tables.values()
            _, events = replay(23, table.log)
            assert heard == events and commits > 6

    run(scenario)


def test_the_lobby_counts_spectators_and_a_wrong_code_is_no_game() -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.lobby.every_s = 0.01
            host, guest, host_seat, _ = await seated_pair(lab, public=True)
            code = host_seat["code"]
            listener = await lab.connect()
            await listener.send(p.encode(p.Lobby()))
            first = await receive(listener)
            assert first["games"][0]["watching"] == 0
            spectator = await lab.connect()
            await watcher(spectator, code, "")
            while (listed := await receive(listener))["games"][0]["watching"] != 1:
                pass
            assert listed["games"][0]["code"] == code
            for seat in (host, guest):  # no name given: the players hear someone watches
                while (message := await receive(seat))["type"] != "watching":
                    pass
                assert message == {"type": "watching", "name": "", "count": 1}
            await spectator.close()
            while (listed := await receive(listener))["games"][0]["watching"] != 0:
                pass
            stranger = await lab.connect()
            refused = await watcher(stranger, "000000", "Dan")
            assert refused["code"] == p.NO_TABLE and refused["fatal"] is True
            text = json.dumps(listed)
            assert "OffCall" not in text and "DefCall" not in text

    run(scenario)


def test_ten_thousand_fuzzed_messages_from_the_seats_never_reach_a_spectator_or_the_lobby(
        ) -> None:
    """The seats send a seeded mix of legal actions, illegal ones, other steps' numbers, chat
    and junk; the spectator and a lobby listener hear only what both seats heard, and never
    a choice before its reveal (their streams hold no refusal, chat or held action)."""
    rng = random.Random(49)
    junk = ['{"type": "act"}', "not json", '{"type": "act", "step": -1, "actions": []}',
            p.encode(p.Chat("psst, Blitz")), p.encode(p.Rematch()), "[" * 50]

    async def scenario() -> None:
        async with server(seed=5, limits=Limits(messages_per_s=1e6, burst=10**6)) as lab:
            lab.service.lobby.every_s = 0.0
            host, guest, host_seat, _ = await seated_pair(lab, public=True)
            code = host_seat["code"]
            seats = {Team.AWAY: host, Team.HOME: guest}
            spectator, listener = await lab.connect(), await lab.connect()
            await watcher(spectator, code, "Cleo")
            await listener.send(p.encode(p.Lobby()))
            heard: dict[ClientConnection, list[str]] = {c: [] for c in (*seats.values(),
                                                                        spectator, listener)}

            async def collect(client: ClientConnection) -> None:
                async for frame in client:
                    heard[client].append(str(frame))

            readers = [asyncio.ensure_future(collect(client)) for client in heard]
            state, step, sent, games = GameState(), 0, 0, 1
            while sent < 10_000:
                if state.outcome is not None:  # another game at the table, and on
                    for seat in seats.values():
                        await seat.send(p.encode(p.Rematch()))
                    games += 1
                    state, step = GameState(), 0
                team = rng.choice(list(Team))
                roll = rng.random()
                playable = [action for action in legal_actions(state, team)
                            if not isinstance(action, Concede)]
                if roll < 0.5 and team in actors(state) and playable:
                    action = rng.choice(playable)
                    frame = p.encode(p.Act(step, [action_to_wire(action)]))
                elif roll < 0.8:
                    other = rng.choice(legal_actions(state, team) or legal_actions(
                        state, team.other))
                    frame = p.encode(p.Act(step + rng.choice((-1, 0, 1, 7)),
                                           [action_to_wire(other)]))
                else:
                    frame = rng.choice(junk)
                await seats[team].send(frame)
                sent += 1
                if sent % 50 == 0:
                    await lab.service.settled()  # a database's writes kept and told...
                    await asyncio.sleep(0.01)  # ...and the updates come in
                    news = [m for m in map(json.loads, heard[guest])
                            if m["type"] in ("update", "start")]
                    if news:
                        step, state = news[-1]["step"], state_from_dict(news[-1]["state"])
            await lab.service.settled()  # every write kept and told (a database's take time)
            await asyncio.sleep(0.3)
            for reader in readers:
                reader.cancel()
            both = {frame for frame in heard[guest]} & {frame for frame in heard[host]}
            for frame in heard[spectator][1:]:  # after its start
                message = json.loads(frame)
                # busy and steady: a database's write slower than a second (a loaded machine)
                # is said to both seats and their spectators alike.
                assert message["type"] in ("update", "committed", "start", "busy",
                                           "steady"), message
                assert frame in both, message  # a copy of what both seats heard
            for frame in heard[listener]:
                assert json.loads(frame)["type"] == "lobby"
                assert not any(word in frame for word in ("Call.", "Player.", "psst"))
            def updates(client: ClientConnection) -> list[str]:
                return [frame for frame in heard[client] if '"type":"update"' in frame]

            assert updates(spectator) == updates(guest) == updates(host)  # all, in order
            assert sent == 10_000 and len(updates(spectator)) > 10 and games >= 1

    run(scenario)


def test_a_spectator_back_from_a_step_it_heard_is_not_news_to_the_players() -> None:
    """A spectator whose line dropped, or whose table was handed to another process, watches
    again with the last step it heard: it is told the game from there, and the players are
    not told again that someone watches (on the process that now holds the table it would
    be the first watch of that name)."""

    async def scenario() -> None:
        async with server(seed=23) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            spectator = await lab.connect()
            await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, host_seat["code"],
                                                  "Cleo", step=1)))
            assert (await receive(spectator))["type"] == "start"
            assert await nothing_comes(host) and await nothing_comes(guest)
            fresh = await lab.connect()  # a new spectator is news, as before
            assert (await watcher(fresh, host_seat["code"], "Dan"))["type"] == "start"
            for seat in (host, guest):
                assert (await receive(seat))["name"] == "Dan"

    run(scenario)


def test_the_seats_hear_each_step_before_any_spectator_is_written_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 71: a step's frames reach both seats' connections before the first spectator's
    (a step's seats first, then its spectators), and
    every spectator still hears every step, in order; the spectators' copy of a step is
    framed in one call for all of them (issue 73: 250 spectators cost the loop one pass, not
    250). Server-side: the order the postman writes, not when anything arrives."""
    written: list[tuple[Any, str]] = []
    calls: list[tuple[int, str]] = []  # each broadcast: how many lines, what
    real = postman.broadcast

    def recorded(lines: Any, frame: str | bytes, **kind: Any) -> None:
        text = frame if isinstance(frame, str) else frame.decode()
        lines = list(lines)
        written.extend((line, text) for line in lines)
        calls.append((len(lines), text))
        real(lines, frame, **kind)

    monkeypatch.setattr(postman, "broadcast", recorded)

    async def scenario() -> None:
        async with server(seed=23, limits=Limits.shared(64)) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            seats = {Team.AWAY: host, Team.HOME: guest}
            spectators = [await lab.connect() for _ in range(40)]  # more than one turn's
            for spectator in spectators:
                assert (await watcher(spectator, host_seat["code"], ""))["type"] == "start"
            for seat in seats.values():
                assert (await receive(seat))["type"] == "watching"
            seat_lines = set(lab.service.seats.connections.values())
            state, step = GameState(), 0
            for _ in range(4):
                for team in actors(state):
                    await seats[team].send(p.encode(p.Act(step, [first_legal(state, team)])))
                updates = [await receive(seat) for seat in seats.values()]
                while updates[0]["type"] != "update":
                    updates = [await receive(seat) for seat in seats.values()]
                state, step = state_from_dict(updates[0]["state"]), updates[0]["step"]
                for spectator in spectators:
                    while (heard := await receive(spectator))["type"] != "update":
                        assert heard["type"] == "committed"
                    assert heard == updates[0]
            steps = [(line in seat_lines, json.loads(frame)) for line, frame in written]
            updates_written = [(seat, message["step"]) for seat, message in steps
                               if message["type"] == "update"]
            for played in range(1, step + 1):
                order = [seat for seat, at in updates_written if at == played]
                assert order[:2] == [True, True] and order.count(False) == len(spectators)
                assert all(not seat for seat in order[2:])
            spectators_calls = [count for count, frame in calls
                                if json.loads(frame)["type"] == "update" and count > 1]
            assert spectators_calls == [len(spectators)] * step

    run(scenario)
