"""Illegal input raises a named error and leaves the state (and the dice) untouched."""

from __future__ import annotations

import random

import pytest
from engine_helpers import final_call_game, snap_game, step, step_actions

from sudden_death.engine import (
    CallCoin,
    ChooseSnap,
    Concede,
    DefCall,
    Game,
    GameOverError,
    Hand,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    IllegalSubstitutionError,
    OffCall,
    Phase,
    PickFinal,
    PickHand,
    PickSwap,
    Player,
    RulesError,
    SnapChoice,
    Swap,
    Team,
    WrongPhaseError,
)

OFFENSE = Hand(
    (Player.POWER_BACK, Player.SCATBACK), (OffCall.INSIDE_RUN, OffCall.DRAW, OffCall.SCREEN)
)
DEFENSE = Hand(
    (Player.NOSE_TACKLE, Player.EDGE_SETTER),
    (DefCall.BLITZ, DefCall.PREVENT, DefCall.CONTAIN),
)


def selection_game() -> Game:
    game = Game.from_kickoff(random.Random(3), Team.HOME)
    step(game, ChooseSnap(SnapChoice.PLAY))
    assert game.phase is Phase.SELECTION
    return game


def assert_refused(
    game: Game, error: type[RulesError], first: object, second: object = None
) -> None:
    """The step of `first` (and `second` for the defense) raises exactly `error` and changes
    nothing, dice included."""
    actions = step_actions(game, first, second)
    state, log, dice = game.state, list(game.log), game.rng.getstate()
    with pytest.raises(error) as raised:
        game.apply(actions)
    assert type(raised.value) is error
    assert game.state is state and game.log == log and game.rng.getstate() == dice


@pytest.mark.parametrize(
    "offense",
    [
        Hand((Player.POWER_BACK, Player.SCATBACK, Player.DEEP_THREAT), OFFENSE.calls),
        Hand((Player.POWER_BACK,), OFFENSE.calls),
        Hand(OFFENSE.players, (OffCall.INSIDE_RUN, OffCall.DRAW)),
        Hand(OFFENSE.players, (*OFFENSE.calls, OffCall.DEEP_PASS)),
        Hand((Player.POWER_BACK, Player.POWER_BACK), OFFENSE.calls),
        Hand(OFFENSE.players, (OffCall.DRAW, OffCall.DRAW, OffCall.SCREEN)),
        Hand((Player.POWER_BACK, Player.NOSE_TACKLE), OFFENSE.calls),
        Hand(OFFENSE.players, (OffCall.DRAW, OffCall.SCREEN, DefCall.BLITZ)),
    ],
    ids=[
        "three players",
        "one player",
        "two calls",
        "four calls",
        "same player twice",
        "same call twice",
        "defensive player",
        "defensive call",
    ],
)
def test_illegal_selections_are_refused(offense):
    game = selection_game()
    assert_refused(game, IllegalSelectionError, PickHand(offense), PickHand(DEFENSE))


def test_defense_selection_is_checked_too():
    game = selection_game()
    bad = Hand(DEFENSE.players, (DefCall.BLITZ, DefCall.PREVENT, OffCall.DRAW))
    assert_refused(game, IllegalSelectionError, PickHand(OFFENSE), PickHand(bad))
    assert_refused(game, IllegalSelectionError, PickHand(OFFENSE), PickHand(Swap.keep()))
    # a bare value where the defense's action belongs is not an action at all
    assert_refused(game, IllegalChoiceError, PickHand(OFFENSE), DEFENSE)


@pytest.mark.parametrize(
    "swap",
    [
        Swap.player(Player.DEEP_THREAT, Player.SLOT_RECEIVER),  # not held
        Swap.player(Player.POWER_BACK, Player.SCATBACK),  # already held
        Swap.player(Player.POWER_BACK, Player.NOSE_TACKLE),  # wrong side
        Swap.call(OffCall.DEEP_PASS, OffCall.QUICK_SLANT),  # not held
        Swap.call(OffCall.DRAW, OffCall.SCREEN),  # already held
        Swap.call(OffCall.DRAW, DefCall.BLITZ),  # wrong side
        Swap(Swap.keep().kind, OffCall.DRAW, OffCall.DEEP_PASS),  # keep that replaces
    ],
)
def test_illegal_substitutions_are_refused(swap):
    game = selection_game()
    step(game, PickHand(OFFENSE), PickHand(DEFENSE))
    assert_refused(game, IllegalSubstitutionError, PickSwap(swap), PickSwap(Swap.keep()))


def test_a_legal_substitution_replaces_in_place():
    game = selection_game()
    step(game, PickHand(OFFENSE), PickHand(DEFENSE))
    step(
        game,
        PickSwap(Swap.call(OffCall.DRAW, OffCall.DEEP_PASS)),
        PickSwap(Swap.player(Player.NOSE_TACKLE, Player.CENTER_FIELDER)),
    )
    assert game.state.offense_hand.calls == (OffCall.INSIDE_RUN, OffCall.DEEP_PASS, OffCall.SCREEN)
    assert game.state.defense_hand.players == (Player.CENTER_FIELDER, Player.EDGE_SETTER)


def test_a_final_call_not_in_the_hand_is_refused():
    game = final_call_game(30, OffCall.INSIDE_RUN, DefCall.ZONE_COVERAGE, [])
    assert_refused(
        game, IllegalCallError, PickFinal(OffCall.DEEP_PASS), PickFinal(DefCall.ZONE_COVERAGE)
    )
    assert_refused(
        game, IllegalCallError, PickFinal(OffCall.INSIDE_RUN), PickFinal(DefCall.CONTAIN)
    )


def test_a_field_goal_from_70_yards_is_refused():
    from sudden_death.engine import KickUnavailableError

    game = snap_game(47)  # 53 to go + 17 = 70 yards
    assert_refused(game, KickUnavailableError, ChooseSnap(SnapChoice.FIELD_GOAL))


def test_actions_out_of_turn_are_refused():
    game = selection_game()
    assert_refused(game, WrongPhaseError, ChooseSnap(SnapChoice.PUNT))
    assert_refused(game, WrongPhaseError, PickFinal(OffCall.DRAW), PickFinal(DefCall.BLITZ))
    assert_refused(Game(random.Random(1)), IllegalChoiceError, CallCoin("edge"))


def test_nothing_is_accepted_after_the_game_ends():
    game = snap_game(30)
    game.apply({Team.AWAY: Concede()})
    assert_refused(game, GameOverError, Concede())  # by the home team
    assert_refused(game, GameOverError, ChooseSnap(SnapChoice.PLAY))


def test_a_misspelt_state_field_is_refused() -> None:
    """evolve() skips dataclasses.replace's checks for speed, so it checks names itself."""
    import pytest

    from sudden_death.engine.state import evolve

    state = snap_game(25).state
    assert evolve(state, phase=state.phase) == state
    with pytest.raises(TypeError, match="GameState has no field scroes"):
        evolve(state, scroes=(7, 0))
