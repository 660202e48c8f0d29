"""The computer in a dropped player's seat (issue 49): the player who stayed hears it and
plays on; the one who dropped gets the seat back on resuming (hearing every step the computer
played for them); and one gone past the seat wait has the game finished for them, which then
counts for the side that stayed. Real WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_lab import Lab, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.computers import RANDOM, make_computer
from sudden_death.engine.game import Game
from sudden_death.engine.smart import SmartPolicy
from sudden_death.engine.snapshot import action_from_dict, state_from_dict
from sudden_death.engine.state import GameState, Phase, Team
from sudden_death.server.roles.stand_in import stand_in_moves
from sudden_death.server.tables import Seat, Table, new_game
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


# -- the host's own computer (issue 69): the rules' random one or the coach, in either seat ----


def computer_choices(table: Table) -> list[tuple[Team, Any, Any]]:
    """Each choice a seat the computer plays made in `table`'s game, with the computer that
    must have made it: the host's choice of computer in its seat, the coach in any other."""
    game = Game.from_json(table.first)
    made = []
    for step, entry in enumerate(table.log):
        state = game.state
        for team in sorted(table.computer, key=int):
            if team.name not in entry:
                continue
            legal = tuple(a for a in legal_actions(state, team) if not isinstance(a, Concede))
            rng = random.Random(f"{table.code}:{step}:{team.name}")
            computer = (make_computer(table.opponent, rng) if team is table.opponent_seat
                        else SmartPolicy(rng))
            made.append((team, computer.choose(state, team, legal),
                         action_from_dict(entry[team.name])))
        game.apply({Team[name]: action_from_dict(kept) for name, kept in entry.items()})
    return made


def test_the_host_s_computer_seat_plays_its_choice_and_a_stand_in_the_coach() -> None:
    """A table whose host chose the rules' random computer for the away seat, and whose home
    player's seat the coach stands in for: each plays its own, step after step, to the end,
    from the seed a restarted server would use again."""
    table = Table("314159", new_game(7), {Team.HOME: Seat("Hawks"), Team.AWAY: Seat("Bears")},
                  computer={Team.HOME, Team.AWAY}, opponent_seat=Team.AWAY, opponent=RANDOM)
    stand_in_moves(table)
    assert table.game.is_over
    made = computer_choices(table)
    assert {team for team, _want, _got in made} == {Team.HOME, Team.AWAY}
    assert all(want == got for _team, want, got in made)
    # The random computer is not the coach: over a whole game they choose differently.
    game, differ = Game.from_json(table.first), 0
    for step, entry in enumerate(table.log):
        if Team.AWAY.name in entry:
            state = game.state
            legal = tuple(a for a in legal_actions(state, Team.AWAY)
                          if not isinstance(a, Concede))
            coach = SmartPolicy(random.Random(f"{table.code}:{step}:AWAY"))
            differ += coach.choose(state, Team.AWAY, legal) != action_from_dict(entry["AWAY"])
        game.apply({Team[name]: action_from_dict(kept) for name, kept in entry.items()})
    assert differ > 0


def test_the_host_s_choice_of_computer_survives_a_restart() -> None:
    table = Table("271828", new_game(3), {Team.HOME: Seat("Hawks"), Team.AWAY: Seat("Bears")},
                  computer={Team.AWAY}, opponent_seat=Team.AWAY, opponent=RANDOM)
    kept = Table.from_record(table.to_record())
    assert (kept.opponent_seat, kept.opponent) == (Team.AWAY, RANDOM)
    parts = Table.from_parts(table.header_record(), table.first, [])
    assert (parts.opponent_seat, parts.opponent) == (Team.AWAY, RANDOM)
    older = json.loads(table.to_record())  # a record kept before the choice was
    del older["opponent_seat"], older["opponent"]
    old = Table.from_record(json.dumps(older))
    assert (old.opponent_seat, old.opponent) == (None, "")  # the coach, as it was then


@pytest.mark.parametrize(("opponent", "home", "kept"), [
    ("random", True, "random"), ("coach", True, "coach"), ("", False, "coach"),
    ("random", False, "random")])
def test_a_host_plays_the_computer_it_chose_from_the_seat_it_chose(
        opponent: str, home: bool, kept: str) -> None:
    """Hosted from the home seat, the player calls the coin; the computer's every choice is
    the one its name and seed make; "" is the coach, as before the choice was offered."""
    async def scenario() -> None:
        async with server(seed=21) as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears",
                                            opponent=opponent, home=home)))
            seated = await receive(host)
            mine = Team.HOME if home else Team.AWAY
            assert seated["type"] == "seated" and seated["seat"] == int(mine)
            table = lab.service.tables[seated["code"]]
            assert (table.opponent_seat, table.opponent) == (mine.other, kept)
            assert table.computer == {mine.other} and table.seats[mine.other].name == "Bears"
            start = await until(host, "start")
            state = state_from_dict(start["state"])
            if home:  # the home seat calls the toss: the player's to call
                assert state.phase is Phase.COIN_TOSS and actors(state) == (mine,)
            step = 0
            while state.outcome is None and step < 60:
                if mine in actors(state) and mine not in table.held:
                    action = next(a for a in legal_actions(state, mine)
                                  if not isinstance(a, Concede))
                    await host.send(p.encode(p.Act(step, [action_to_wire(action)])))
                message = await until(host, "update")
                state, step = state_from_dict(message["state"]), message["step"]
            made = computer_choices(table)
            assert len(made) > 10 and all(want == got for _team, want, got in made)

    run(scenario)


def test_an_unknown_computer_is_refused_and_home_without_one_is_the_away_seat() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears",
                                            opponent="genius", home=True)))
            refused = await receive(host)
            assert refused["type"] == "refused" and refused["code"] == p.BAD_MESSAGE
            assert not lab.service.tables
            friend = await lab.connect()  # a friend's table: the host sits away, as ever
            await friend.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", home=True)))
            seated = await receive(friend)
            assert seated["seat"] == int(Team.AWAY)
            assert lab.service.tables[seated["code"]].opponent_seat is None

    run(scenario)
