"""The computer in a dropped player's seat (issue 49): the player who stayed hears it and
plays on; the one who dropped gets the seat back on resuming (hearing every step the computer
played for them); and one gone past the seat wait has the game finished for them, which then
counts for the side that stayed. Real WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from server_lab import Lab, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.snapshot import state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p
from sudden_death.wire.values import action_to_wire

GUEST = Team.HOME  # the guest sits home; the host (away) is the one who drops


async def until(client: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != kind:
        pass
    return message


async def play_on(guest: ClientConnection, state: GameState, step: int,
                  steps: int = 1000) -> tuple[GameState, int, list[str]]:
    """The guest plays its first legal action (never a concession) whenever it is to act,
    until `steps` have been played or the game is over; returns the state, the step, and
    every message type heard."""
    heard: list[str] = []
    played = 0
    while state.outcome is None and played < steps:
        if GUEST in actors(state):
            action = next(a for a in legal_actions(state, GUEST) if not isinstance(a, Concede))
            await guest.send(p.encode(p.Act(step, [action_to_wire(action)])))
        message = await until_update(guest, heard)
        state, step = state_from_dict(message["state"]), message["step"]
        played += 1
    return state, step, heard


async def until_update(client: ClientConnection, heard: list[str]) -> dict[str, Any]:
    while (message := await receive(client, 10))["type"] != "update":
        heard.append(message["type"])
        assert message["type"] in ("committed", "computer", "back", "away"), message
    heard.append("update")
    return message


async def dropped_pair(lab: Lab, wait_s: int | None = None
                       ) -> tuple[ClientConnection, dict, dict, GameState]:
    """Host and guest seated; then the host's line drops. Returns the guest, both seats and
    the state at the start."""
    host, guest, host_seat, guest_seat = await seated_pair(lab)
    table = lab.service.tables[host_seat["code"]]
    if wait_s is not None:
        table.seat_wait_s = wait_s  # shorter than any host may ask, for the test's sake
    state = table.game.state
    await host.close()
    away = await until(guest, "away")
    assert away["name"] == "Hawks"
    return guest, host_seat, guest_seat, state


def test_the_computer_plays_for_a_dropped_player_who_gets_the_seat_back() -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.seats.stand_in_after_s = 0.2
            guest, host_seat, _guest_seat, state = await dropped_pair(lab)
            stood = await until(guest, "computer")
            assert stood == {"type": "computer", "name": "Hawks", "reason": "away"}
            state, step, heard = await play_on(guest, state, 0, steps=6)
            assert step == 6 and heard.count("update") == 6  # the game went on without them
            back = await lab.connect()
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, host_seat["code"],
                                              host_seat["token"], 0)))
            assert (await receive(back))["type"] == "seated"
            resumed = await receive(back)
            assert resumed["type"] == "start" and resumed["step"] == 6
            assert len(resumed["events"]) > 6  # every step the computer played, to be told
            assert (await until(guest, "back"))["name"] == "Hawks"
            table = lab.service.tables[host_seat["code"]]
            assert Team.AWAY not in table.computer  # the player plays again
            if Team.AWAY in actors(table.game.state) and GUEST in actors(table.game.state):
                action = next(a for a in legal_actions(table.game.state, GUEST)
                              if not isinstance(a, Concede))
                await guest.send(p.encode(p.Act(step, [action_to_wire(action)])))
                assert (await until(guest, "committed"))["seat"] == int(GUEST)
                await asyncio.sleep(0.3)
                assert table.step == step  # the step waits for the player now

    run(scenario)


def test_a_player_gone_past_the_seat_wait_has_the_game_finished_and_it_counts_for_the_other(
        ) -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.seats.stand_in_after_s = 0.1
            for name in ("Anna", "Ben"):
                lab.service.accounts.sign_up(name, "password one")
            host = await lab.connect()
            await host.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", "password one")))
            await receive(host)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            host_seat = await receive(host)
            guest = await lab.connect()
            await guest.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Ben", "password one")))
            await receive(guest)
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, host_seat["code"], "Bears")))
            await receive(guest)
            start = await until(guest, "start")
            await until(host, "start")
            table = lab.service.tables[host_seat["code"]]
            table.seat_wait_s = 1
            await host.close()
            assert (await until(guest, "computer"))["reason"] == "away"
            assert (await until(guest, "computer", timeout=5))["reason"] == "gone"
            late = await lab.connect()  # too late: the seat is the computer's to the end
            await late.send(p.encode(p.Resume(p.PROTOCOL_VERSION, host_seat["code"],
                                              host_seat["token"], 0)))
            refused = await until(late, "refused")
            assert refused["code"] == p.OVER and refused["fatal"]
            state, _step, _heard = await play_on(guest, state_from_dict(start["state"]), 0)
            assert state.outcome is not None  # the computer played the Hawks to the end
            for _ in range(100):  # rated on a thread
                if lab.service.desk.store.standing("ben") is not None:
                    break
                await asyncio.sleep(0.02)
            ladder = lab.service.desk.store
            ben, anna = ladder.standing("ben"), ladder.standing("anna")
            assert ben is not None and anna is not None
            assert ben.recent[0].score == 1.0 and anna.recent[0].score == 0.0  # whatever the
            # score: the game counts for the one who stayed

    run(scenario)


def test_a_host_may_play_the_computer_which_plays_at_once_rematches_and_is_never_rated(
        ) -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.accounts.sign_up("Anna", "password one")
            host = await lab.connect()
            await host.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", "password one")))
            await receive(host)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True,
                                            computer="Bears")))
            seated = await receive(host)
            assert seated["seat"] == int(Team.AWAY)
            start = await until(host, "start")
            assert start["names"] == ["Bears", "Hawks"]  # the computer is home: it called
            table = lab.service.tables[seated["code"]]
            assert table.step >= 1  # the toss, called by the computer at once
            state, step = table.game.state, table.step
            while state.outcome is None:
                if Team.AWAY in actors(state):
                    action = next(a for a in legal_actions(state, Team.AWAY)
                                  if not isinstance(a, Concede))
                    await host.send(p.encode(p.Act(step, [action_to_wire(action)])))
                update = await until(host, "update")
                state, step = state_from_dict(update["state"]), update["step"]
            await host.send(p.encode(p.Rematch()))  # the computer always plays again
            again = await until(host, "start")
            assert again["step"] == 0  # a new game, whose toss the computer calls at once:
            assert (await until(host, "update"))["step"] == 1
            await asyncio.sleep(0.2)
            assert lab.service.desk.store.standing("anna") is None  # never rated
            clash = await lab.connect()
            await clash.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="hawks")))
            assert (await until(clash, "refused"))["code"] == p.SAME_NAME

    run(scenario)
