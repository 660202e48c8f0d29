"""The one legality check (`Game.check`) and the one commit hold (`engine.hold.Hold`) that a
game against the computer and a table's seats both go through."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import (
    ChooseSnap,
    Game,
    GameState,
    Hand,
    PickHand,
    SnapChoice,
    Team,
    legal_actions,
)
from sudden_death.engine.actions import SIMULTANEOUS, Action, Concede, actors
from sudden_death.engine.errors import NotYourTurnError, RulesError
from sudden_death.engine.hold import AlreadyChosenError, Hold


def same_choice(one: Action, other: Action) -> bool:
    """Equal actions, a hand's cards in any order (the rules do not read the order)."""
    if isinstance(one, PickHand) and isinstance(other, PickHand):
        return (set(one.hand.players), set(one.hand.calls)) == (
            set(other.hand.players), set(other.hand.calls))
    return one == other


def candidates(game: Game, rng: random.Random, seen: list[Action]) -> list[tuple[Team, Action]]:
    """For both teams: the legal actions of the step, the other side's (wrong cards, wrong
    turn), hands with their cards reversed (the same hand), and actions of earlier steps
    (`seen`): what a careless or hostile client would send."""
    state = game.state
    found = [(team, action) for team in Team for action in legal_actions(state, team)[:30]]
    for team in actors(state):
        found += [(team, action) for action in legal_actions(state, team.other)[:10]]
        for action in legal_actions(state, team)[:3]:
            if isinstance(action, PickHand):
                hand = action.hand
                found.append((team, PickHand(Hand(hand.players[::-1], hand.calls[::-1]))))
    found += [(team, action) for action in rng.sample(seen, min(10, len(seen)))
              for team in Team]
    seen += [action for _, action in found]
    rng.shuffle(found)
    return found[:60]


def played(state: GameState, team: Team, rng: random.Random) -> Action:
    """A legal choice that mostly runs plays, so games reach every card step."""
    legal = legal_actions(state, team)
    plays = [action for action in legal if action == ChooseSnap(SnapChoice.PLAY)]
    return plays[0] if plays and rng.random() < 0.9 else rng.choice(legal)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_check_takes_exactly_the_legal_actions_of_the_teams_that_act(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(random.Random(seed))
    seen: list[Action] = []
    taken = refused = 0
    while not game.is_over:
        state = game.state
        for team, action in candidates(game, rng, seen):
            legal = any(same_choice(action, other) for other in legal_actions(state, team))
            try:
                game.check(team, action)
            except RulesError:
                assert not legal, (state.phase, team, action)
                refused += 1
            else:
                assert legal, (state.phase, team, action)
                taken += 1
        assert game.state == state  # checking never changes the game
        game.apply({team: played(state, team, rng) for team in actors(state)})
    assert taken and refused


def test_a_held_choice_waits_unseen_and_the_pair_plays_once_both_are_in() -> None:
    game = Game(random.Random(4))
    hold = Hold(game)
    while game.state.phase not in SIMULTANEOUS:
        (team,) = actors(game.state)
        assert hold.choose(team, legal_actions(game.state, team)[0])  # alone: plays at once
    state = game.state
    first, second = actors(state)
    mine = legal_actions(state, first)[0]
    assert hold.choose(first, mine) is None
    assert game.state == state and hold.held == {first: mine}  # held, not played
    with pytest.raises(AlreadyChosenError):
        hold.choose(first, mine)
    with pytest.raises(RulesError):
        hold.choose(second, legal_actions(state, first)[0])  # the other side's cards
    assert hold.held == {first: mine}  # a refusal changes nothing
    theirs = legal_actions(state, second)[0]
    events = hold.choose(second, theirs)
    assert events and hold.held == {} and hold.played == {first: mine, second: theirs}
    assert game.state != state


def test_a_concession_plays_at_once_and_drops_what_was_held() -> None:
    game = Game(random.Random(9))
    hold = Hold(game)
    while game.state.phase not in SIMULTANEOUS:
        (team,) = actors(game.state)
        hold.choose(team, legal_actions(game.state, team)[0])
    first, second = actors(game.state)
    hold.choose(first, legal_actions(game.state, first)[0])
    events = hold.choose(second, Concede())
    assert events and game.is_over and hold.held == {}
    with pytest.raises(RulesError):
        hold.choose(first, Concede())  # over: nothing more


def test_out_of_turn_is_its_own_refusal() -> None:
    game = Game(random.Random(1))
    with pytest.raises(NotYourTurnError):
        game.check(Team.AWAY, legal_actions(game.state, Team.HOME)[0])  # home calls the toss
