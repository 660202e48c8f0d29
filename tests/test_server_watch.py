"""Spectators on the table server (issue 49): a spectator hears the game as both seats do, from
its start, and never a choice before its reveal; it cannot act; the players hear who watches;
the lobby counts them. Real WebSocket clients against a real server on loopback."""

from __future__ import annotations

import json
import random
from typing import Any

from server_lab import first_legal, nothing_comes, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.event_codec import events_from_list
from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import GameState, Team
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
            await spectator.send(p.encode(p.Chat("hello")))  # ...or talk at the table
            assert (await receive(spectator))["code"] == p.NOT_NOW  # it cannot act or talk
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
            lab.service.lobby_every_s = 0.01
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True)))
            code = (await receive(host))["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            await receive(guest)
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
