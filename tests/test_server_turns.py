"""Turn limits at a table (issue 49): announced in the start, warned before the end, extended
on asking up to ten times a game, and a turn that runs out plays the seat's last cards again
(the coach's choice with none to repeat). Real WebSocket clients against a real server on
loopback; the limit is shortened on the table itself, as no host may ask for two seconds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from server_lab import receive, run, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import Action, ChooseSnap, Concede, PickHand, actors, legal_actions
from sudden_death.engine.state import SnapChoice, Team
from sudden_death.server.roles.stand_in import last_cards
from sudden_death.server.tables import Seat, Table, new_game
from sudden_death.wire import protocol as p
from sudden_death.wire.values import action_to_wire


async def until(client: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != kind:
        pass
    return message


def test_a_turn_is_announced_warned_extended_and_when_it_runs_out_played_for_the_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(p, "TURN_WARNING_S", 1)

    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=60)))
            seated = await receive(host)
            table = lab.service.tables[seated["code"]]
            table.turn_s = 2
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
            await receive(guest)
            for client in (host, guest):
                assert (await until(client, "start"))["turn_s"] == 2  # said to both
            # The guest (home) calls the toss; it waits, and is warned.
            assert await until(guest, "time_warning") == {
                "type": "time_warning", "seconds": 1, "extensions": 10}
            await guest.send(p.encode(p.MoreTime()))
            assert await until(guest, "time_added") == {
                "type": "time_added", "seconds": 2, "extensions": 9}
            assert table.step == 0  # the whole turn again
            assert (await until(guest, "time_warning", 3))["extensions"] == 9
            for client in (host, guest):
                assert await until(client, "time_up", 3) == {"type": "time_up",
                                                             "name": "Bears"}
                assert (await until(client, "update"))["step"] == 1  # the toss, called
            await host.send(p.encode(p.MoreTime()))  # not the host's turn unless it won
            if Team.AWAY not in actors(table.game.state):
                assert (await until(host, "refused"))["code"] == p.NOT_NOW

    run(scenario)


def test_more_time_is_given_ten_times_a_game_and_no_limit_means_no_clock() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=300)))
            seated = await receive(host)
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
            await until(guest, "start")
            for left in range(9, -1, -1):
                await guest.send(p.encode(p.MoreTime()))
                assert (await until(guest, "time_added"))["extensions"] == left
            await guest.send(p.encode(p.MoreTime()))
            assert (await until(guest, "refused"))["code"] == p.NOT_NOW
            free = await lab.connect()  # a table with no limit: nothing to extend
            await free.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Owls")))
            free_seat = await receive(free)
            other = await lab.connect()
            await other.send(p.encode(p.Join(p.PROTOCOL_VERSION, free_seat["code"], "Lions")))
            assert (await until(other, "start"))["turn_s"] == 0
            await other.send(p.encode(p.MoreTime()))
            assert (await until(other, "refused"))["code"] == p.NOT_NOW
            turns = lab.service.seats.turn_clock.turns
            assert not any(key[0] == free_seat["code"] for key in turns)
            odd = await lab.connect()
            await odd.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Owls", turn_s=7)))
            assert (await until(odd, "refused"))["code"] == p.BAD_MESSAGE

    run(scenario)


def test_a_turn_run_out_plays_the_last_pick_again_when_it_can() -> None:
    rng = random.Random(3)
    table = Table("123456", new_game(3), {Team.AWAY: Seat("Hawks"), Team.HOME: Seat("Bears")})
    picks: dict[Team, list[PickHand]] = {Team.HOME: [], Team.AWAY: []}
    while not table.over:
        state = table.game.state
        owed = [team for team in actors(state) if team not in table.held]
        legal: dict[Team, list[Action]] = {
            team: [a for a in legal_actions(state, team) if not isinstance(a, Concede)
                   and not (isinstance(a, ChooseSnap) and a.choice is not SnapChoice.PLAY)]
            or list(legal_actions(state, team)) for team in owed}  # play every down
        if any(isinstance(options[0], PickHand) for options in legal.values()) and \
                all(picks[team] for team in owed):
            for team in owed:
                again = last_cards(table, team)
                assert again == picks[team][-1]  # the same hand as last time
            return
        for team in owed:
            choice = rng.choice(legal[team])
            if isinstance(choice, PickHand):
                picks[team].append(choice)
            table.act(team, table.step, [action_to_wire(choice)])
    pytest.fail("the game never came to a second pick")
