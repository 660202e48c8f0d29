"""The engine's values on the wire (`wire/values.py`): every action, event and state of whole
seeded games comes back equal through the protocol's own decoders, in the engine's JSON form,
and a value a hostile client shapes wrongly is refused while it decodes."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import Game
from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.errors import SnapshotError
from sudden_death.engine.event_codec import events_to_list
from sudden_death.engine.snapshot import action_to_dict, state_to_dict
from sudden_death.wire import protocol as p
from sudden_death.wire.values import (
    action_from_wire,
    action_to_wire,
    events_from_wire,
    events_to_wire,
    state_from_wire,
    state_to_wire,
)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_whole_games_cross_the_wire_unchanged_in_the_engines_own_json(seed: int) -> None:
    game, rng = Game(random.Random(seed)), random.Random(seed)
    while not game.is_over:
        state = game.state
        actions = {team: rng.choice(legal_actions(state, team)) for team in actors(state)}
        act = p.decode_client(p.encode(p.Act(3, [action_to_wire(a) for a in actions.values()])))
        assert isinstance(act, p.Act)
        assert [action_from_wire(wire) for wire in act.actions] == list(actions.values())
        assert json.loads(p.encode(act))["actions"] == [action_to_dict(a)
                                                         for a in actions.values()]
        events = game.apply(actions)
        update = p.decode_server(p.encode(p.Update(1, state_to_wire(game.state),
                                                   events_to_wire(events))))
        assert isinstance(update, p.Update)
        assert events_from_wire(update.events) == events
        assert state_from_wire(update.state) == game.state
        sent = json.loads(p.encode(update))
        assert sent["events"] == events_to_list(events)
        assert {**state_to_dict(game.state), "overtime": game.state.overtime} == sent["state"]


def act_frame(*actions: object) -> str:
    return json.dumps({"type": "act", "step": 0, "actions": list(actions)})


@pytest.mark.parametrize("action", [
    {"action": "Cheat"},  # no such action
    {"action": "CallCoin"},  # its face missing
    {"action": "CallCoin", "face": "edge"},  # not a face
    {"action": "CallCoin", "face": "heads", "peek": True},  # a field it does not have
    {"action": "PickFinal", "call": 3},  # not a card
    {"action": "PickFinal", "call": "run"},  # a card without its kind
    {"action": "PickHand", "hand": {"players": "Player.qb", "calls": []}},  # not a list
    {"action": "PickHand", "hand": {"players": []}},  # its calls missing
    {"action": "PickSwap", "swap": {"kind": "steal"}},  # no such kind of swap
])
def test_an_action_shaped_wrongly_is_refused_while_it_decodes(action: object) -> None:
    with pytest.raises(p.ProtocolError) as refused:
        p.decode_client(act_frame(action))
    assert refused.value.code == p.BAD_MESSAGE


def test_more_actions_than_an_act_carries_are_refused() -> None:
    coin = {"action": "CallCoin", "face": "heads"}
    assert isinstance(p.decode_client(act_frame(*[coin] * p.MAX_ACTIONS)), p.Act)
    with pytest.raises(p.ProtocolError):
        p.decode_client(act_frame(*[coin] * (p.MAX_ACTIONS + 1)))


def test_a_card_of_the_wrong_kind_decodes_but_is_no_action() -> None:
    """Shaped as a card, but a player where a call belongs: the engine's value is refused."""
    act = p.decode_client(act_frame({"action": "PickFinal", "call": "Player.qb"}))
    assert isinstance(act, p.Act)
    with pytest.raises(SnapshotError):
        action_from_wire(act.actions[0])


def test_a_server_event_of_no_known_kind_is_refused() -> None:
    frame = json.dumps({"type": "update", "step": 1, "state": json.loads(p.encode(
        p.Update(0, state_to_wire(Game(random.Random(1)).state), [])))["state"],
        "events": [{"event": "cards_leaked", "cards": ["OffCall.run"]}]})
    with pytest.raises(p.ProtocolError):
        p.decode_server(frame)
    assert msgspec.json.decode(frame)["events"]  # the frame itself is good JSON
