"""The page's table against the computer with no server (issue 74), in CPython: the desktop
game's games, told in the very frames a table server sends a browser seat, and a clear
refusal for anything else the page might send."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine.event_codec import events_to_list
from sudden_death.engine.game import Game
from sudden_death.engine.snapshot import action_from_dict
from sudden_death.engine.state import Team
from sudden_death.ui.computer_game import ComputerGame
from sudden_death.web.offline_table import OfflineTable
from sudden_death.web.view import Viewer
from sudden_death.wire import protocol as p
from sudden_death.wire.values import events_to_wire, state_to_wire


def first_option(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What a player pressing Enter at every decision sends: the first option, or the first
    players and calls the form lists (after the snap, when the form comes before it)."""
    decision = view["decision"]
    if decision["kind"] == "choice":
        return list(decision["options"][0]["actions"])
    players, calls = decision["limits"]
    hand = {"players": [card["id"] for card in decision["players"][:players]],
            "calls": [card["id"] for card in decision["calls"][:calls]]}
    return [*decision["before"], {"action": "PickHand", "hand": hand}]


def play(table: OfflineTable, pick: Any = first_option, limit: int = 1000
         ) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """A whole game through the table as the page plays it: every frame, and every act's
    actions in order."""
    frames = table.start()
    acts: list[list[dict[str, Any]]] = []
    for _ in range(limit):
        view = [frame for frame in frames if frame["type"] == "view"][-1]
        if view["decision"]["kind"] == "over":
            return frames, acts
        assert view["decision"]["kind"] in ("choice", "hand"), view["decision"]
        actions = pick(view)
        acts.append(actions)
        answer = table.answer(json.dumps({"type": "act", "step": view["step"],
                                          "actions": actions}))
        assert answer and not [f for f in answer if f["type"] == "refused"], answer
        frames += answer
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("seed", "opponent"), [(1, "random"), (2, "coach"), (7, "random")])
def test_a_game_by_the_first_options_is_the_desktop_game_event_for_event(
        seed: int, opponent: str) -> None:
    table = OfflineTable.open(seed, "en", "Hawks", "Bears", opponent)
    frames, acts = play(table)
    desktop = ComputerGame.new(seed, opponent)
    for actions in acts:
        desktop.submit([action_from_dict(action) for action in actions])
    assert desktop.is_over and table.game.is_over
    assert events_to_list(table.game.log) == events_to_list(desktop.match.game.log)
    assert table.game.state.scores == desktop.state.scores
    final = frames[-1]
    assert final["type"] == "view" and final["decision"]["question"].startswith("Final score:")
    home, away = table.game.state.scores
    assert f"Hawks {home}" in final["situation"] and f"Bears {away}" in final["situation"]
    assert len(acts) > 10 and len(table.log) == final["step"]


def server_views(table: OfflineTable, lang: str) -> list[dict[str, Any]]:
    """What a table server's `Viewer` shows a browser seat in the home seat against its
    computer, for the wire's messages of the game `table` played: its start, the computer's
    commits, and each step's update, replayed from the table's log on the game's own dice."""
    viewer = Viewer(lang, computer=Team.AWAY)
    game = Game(random.Random(table.seed + table.games))
    frames = [p.Seated("100001", int(Team.HOME), "token"),
              p.Start(["Hawks", "Bears"], 0, state_to_wire(game.state), [], players=["", ""])]
    for step, actions in enumerate(table.log):
        if len(actions) == 2:
            frames.append(p.Committed(step, int(Team.AWAY)))
        events = game.apply(actions)
        frames.append(p.Update(step + 1, state_to_wire(game.state), events_to_wire(events)))
    shown = [viewer.seen(p.encode(frame)) for frame in frames]
    return [json.loads(frame) for frame in shown if frame is not None]


@pytest.mark.parametrize(("seed", "lang"), [(4, "en"), (5, "es")])
def test_the_frames_are_the_table_server_s_for_the_same_game(seed: int, lang: str) -> None:
    """Each view is the one a server's Viewer makes from the wire for the same game, key for
    key and word for word (Spanish too), and the protocol's own frames the page reads come
    before them with the server's step numbers."""
    rng = random.Random(seed)

    def any_option(view: dict[str, Any]) -> list[dict[str, Any]]:
        decision = view["decision"]
        if decision["kind"] == "choice":
            return list(rng.choice(decision["options"])["actions"])
        hand = {"players": sorted(card["id"] for card in rng.sample(decision["players"], 2)),
                "calls": sorted(card["id"] for card in rng.sample(decision["calls"], 3))}
        return [*decision["before"], {"action": "PickHand", "hand": hand}]

    table = OfflineTable.open(seed, lang, "Hawks", "Bears")
    frames, _acts = play(table, any_option)
    views = [frame for frame in frames if frame["type"] == "view"]
    assert views == server_views(table, lang)
    steps = [frame for frame in frames if frame["type"] != "view"]
    assert steps[0] == {"type": "start", "step": 0}
    assert steps[1:] == [{"type": "update", "step": step} for step in
                         range(1, len(table.log) + 1)]
    assert [frames[index + 1]["type"] for index, frame in enumerate(frames)
            if frame["type"] != "view"] == ["view"] * len(steps)
    kinds = {view["decision"]["kind"] for view in views}
    assert {"choice", "hand", "over"} <= kinds
    english = views[0]["decision"]["question"] == "Coin toss: heads or tails?"
    assert english is (lang == "en")  # the page's language, from the same catalogs


def refusal(frames: list[dict[str, Any]]) -> tuple[str, str]:
    """The refusal's code and the view's words for it: a refusal, and one view saying it."""
    assert [frame["type"] for frame in frames] == ["refused", "view"], frames
    refused, view = frames
    assert refused["fatal"] is False and refused["text"]
    assert view["cues"] == ["menu_error"] and len(view["lines"]) == 1
    return refused["code"], view["lines"][0]


@pytest.mark.parametrize(("sent", "code", "words"), [
    ("{not json", "bad_message", "not JSON"),
    ("[1, 2]", "bad_message", "not an object"),
    ('{"type": "fly"}', "bad_message", "'fly'"),
    ('{"type": "act", "step": 0, "actions": []}', "bad_message", "1 to 8 actions"),
    ('{"type": "act", "step": "0", "actions": [{"action": "Concede"}]}', "bad_message",
     "names its step"),
    ('{"type": "act", "step": 3, "actions": [{"action": "Concede"}]}', "not_now",
     "this is step 0"),
    ('{"type": "act", "step": 0, "actions": [{"action": "Fly"}]}', "bad_message",
     "not a saved action"),
    ('{"type": "act", "step": 0, "actions": [{"action": "ChooseSide", "side": "offense"}]}',
     "not_allowed", "Not allowed: "),
    ('{"type": "rematch"}', "not_now", "after the game"),
])
def test_what_the_page_should_not_send_is_refused_in_words_and_changes_nothing(
        sent: str, code: str, words: str) -> None:
    table = OfflineTable.open(9, "en")
    first = table.start()[-1]
    said = refusal(table.answer(sent))
    assert said[0] == code and words in said[1] and said[1].startswith("Not allowed: ")
    assert table.step == 0 and table.log == []
    again = table.answer(json.dumps({"type": "act", "step": 0,
                                     "actions": first_option(first)}))
    assert [frame["type"] for frame in again][:2] == ["update", "view"]  # it goes on


def test_an_illegal_hand_is_refused_after_the_snap_it_came_with_and_can_be_sent_again() -> None:
    """The page's snap and cards come in one act: a hand the rules refuse stops there (the
    snap still counts, as at a server), and the form asked again takes a good hand."""
    table = OfflineTable.open(2, "en")
    view = table.start()[-1]
    while not view["decision"].get("before"):  # to a down the player snaps
        frames = table.answer(json.dumps({"type": "act", "step": view["step"],
                                          "actions": first_option(view)}))
        view = [frame for frame in frames if frame["type"] == "view"][-1]
    good = first_option(view)
    bad = {"action": "PickHand", "hand": {"players": [c["id"] for c in view["decision"]
                                                      ["players"][:3]],
                                          "calls": good[-1]["hand"]["calls"]}}
    frames = table.answer(json.dumps({"type": "act", "step": view["step"],
                                      "actions": [*view["decision"]["before"], bad]}))
    assert [frame["type"] for frame in frames] == ["update", "view", "refused", "view"]
    assert frames[2]["code"] == "not_allowed"
    assert frames[3]["decision"]["kind"] == "hand" and frames[3]["step"] == view["step"] + 1
    frames = table.answer(json.dumps({"type": "act", "step": frames[3]["step"],
                                      "actions": [good[-1]]}))
    assert frames[0] == {"type": "update", "step": view["step"] + 2}


def test_after_the_game_a_rematch_is_the_next_seed_s_game_and_leaving_says_nothing() -> None:
    table = OfflineTable.open(11, "en", "Owls", "Owls")
    assert (table.names.mine, table.names.theirs) == ("Owls", "Bears")  # never one name twice
    play(table)
    over = table.answer('{"type": "act", "step": 0, "actions": [{"action": "Concede"}]}')
    assert refusal(over)[0] == "not_now"
    assert table.answer('{"type": "leave"}') == [] and table.answer('{"type": "chat"}') == []
    frames = table.answer('{"type": "rematch"}')
    assert frames[0] == {"type": "start", "step": 0} and table.games == 1
    assert frames[1]["lines"] == []  # who plays whom was said at the first game
    assert table.game.to_json() == ComputerGame.new(12).match.game.to_json()


def test_a_concession_ends_the_game_at_once() -> None:
    table = OfflineTable.open(6, "es")
    table.start()
    frames = table.answer('{"type": "act", "step": 0, "actions": [{"action": "Concede"}]}')
    assert [frame["type"] for frame in frames] == ["update", "view"]
    assert table.game.is_over and frames[1]["decision"]["kind"] == "over"
    assert frames[1]["concede"] == ""


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["type", "step", "actions", "action",
                                                       "hand", "face", "x"]), inner,
                                      max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=40), JSON.map(json.dumps),
                 st.builds(lambda step, actions: json.dumps(
                     {"type": "act", "step": step, "actions": actions}),
                     st.integers(-1, 2), st.lists(JSON, max_size=3))))
def test_nothing_the_page_sends_raises(sent: str) -> None:
    table = OfflineTable.open(1, "en")
    table.start()
    frames = table.answer(sent)
    assert all(frame["type"] in ("refused", "view", "update") for frame in frames)
    json.dumps(frames)  # every answer crosses to the page as JSON
