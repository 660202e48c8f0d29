"""Events survive the trip to JSON and back unchanged (what a table server sends both seats),
and a hostile or damaged event is a SnapshotError naming what is wrong, never another error."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import events as ev
from sudden_death.engine.computers import make_computer
from sudden_death.engine.errors import SnapshotError
from sudden_death.engine.event_codec import (
    EVENT_KINDS,
    event_from_dict,
    event_to_dict,
    events_from_list,
    events_to_list,
)
from sudden_death.engine.game import Game
from sudden_death.engine.match import Match
from sudden_death.engine.state import Team


def whole_game(seed: int, computer: str = "random") -> list[ev.Event]:
    """A whole game between two computers, every event it produced."""
    policies = {team: make_computer(computer, random.Random(f"{team.name}:{seed}"))
                for team in Team}
    return Match(Game(random.Random(seed)), policies).advance()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), coach=st.booleans())
def test_every_event_of_a_game_comes_back_equal_through_json(seed: int, coach: bool) -> None:
    events = whole_game(seed, "coach" if coach else "random")
    assert isinstance(events[-1], ev.GameOver)
    text = json.dumps(events_to_list(events))
    assert events_from_list(json.loads(text)) == events


def test_every_event_kind_is_known_by_its_name() -> None:
    # Conceded never happens between computers; every other kind does within a few hundred
    # games, and each of them comes back equal.
    seen = {"conceded"}
    for seed in range(3000):  # the coach goes for it on 4th down, so turns over on downs
        for event in whole_game(seed, "coach" if seed % 2 else "random"):
            if event.kind not in seen:
                seen.add(event.kind)
                assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
        if seen == set(EVENT_KINDS):
            break
    assert seen == set(EVENT_KINDS)
    assert event_from_dict(event_to_dict(ev.Conceded(Team.AWAY))) == ev.Conceded(Team.AWAY)


def test_a_written_event_names_cards_with_their_kind_and_teams_by_number() -> None:
    revealed = next(e for e in whole_game(1) if isinstance(e, ev.FinalCallsRevealed))
    data = event_to_dict(revealed)
    assert data["event"] == "final_calls_revealed"
    assert data["offense_call"].startswith("OffCall.")
    assert data["defense_call"].startswith("DefCall.")
    assert event_to_dict(ev.Touchdown(Team.AWAY)) == {"event": "touchdown", "team": 1}


@pytest.mark.parametrize("bad", [
    None, [], "touchdown", {"event": "no_such_event"}, {"event": "touchdown"},
    {"event": "touchdown", "team": 5}, {"event": "touchdown", "team": "1"},
    {"event": "touchdown", "team": 1, "extra": 2},
    {"event": "final_calls_revealed", "offense_call": "DefCall.blitz",
     "defense_call": "DefCall.blitz"},
    {"event": "score_changed", "team": 0, "points": 7, "scores": [7]},
    {"event": "extra_point", "team": 0, "roll": {"dice": "six"}, "needed": 2, "good": True},
    {"event": "extra_point", "team": 0, "roll": {"dice": [6], "sides": 6}, "needed": 2,
     "good": 1},
    {"event": "game_over", "outcome": {"scores": [0, 0], "winner": None, "end": "boredom"}},
    {"event": "down_started", "offense": 0, "down": [1, 2]},
])
def test_a_damaged_event_is_refused_in_words(bad: object) -> None:
    with pytest.raises(SnapshotError):
        event_from_dict(bad)
