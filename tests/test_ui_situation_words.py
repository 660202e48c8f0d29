"""What S says, what a side needs on the last drive and the final result, word for word. The
needs are worked by hand from the seed's scoring: a field goal is 3, a touchdown 6 and its extra
point 1 more, so 3 behind ties with a field goal and wins with a touchdown, 7 behind needs the
touchdown and the extra point just to tie, and 8 or more behind cannot be caught in one drive."""

from __future__ import annotations

import pytest

from sudden_death.engine import GameState, Team
from sudden_death.engine.field import Down
from sudden_death.engine.state import GameEnd, Outcome
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import (
    human_spots,
    needs_words,
    outcome_words,
    situation_words,
)

NAMES = Names("Hawks", "Bears")  # the player is the Hawks (home)
BOTH = GameEnd.BOTH_DRIVES  # the game ended after its two drives


def last_drive(behind: int, offense: Team = Team.HOME) -> GameState:
    """The last drive, with the side on offense `behind` points (negative: ahead)."""
    ahead = (0, behind) if behind >= 0 else (-behind, 0)
    scores = ahead if offense is Team.HOME else (ahead[1], ahead[0])
    return GameState(scores=scores, drive=2, offense=offense, down=Down(1, 25, 35))


@pytest.mark.parametrize(("behind", "yours", "theirs"), [
    (-1, "You need nothing more: a stop or any score still wins.",
     "The Bears need nothing more: a stop or any score still wins."),
    (0, "You need any score to win; without one it's a tie.",
     "The Bears need any score to win; without one it's a tie."),
    (1, "You need a field goal to win.", "The Bears need a field goal to win."),
    (2, "You need a field goal to win.", "The Bears need a field goal to win."),
    (3, "You need a field goal to tie, a touchdown to win.",
     "The Bears need a field goal to tie, a touchdown to win."),
    (4, "You need a touchdown to win.", "The Bears need a touchdown to win."),
    (5, "You need a touchdown to win.", "The Bears need a touchdown to win."),
    (6, "You need a touchdown to tie, a touchdown and the extra point to win.",
     "The Bears need a touchdown to tie, a touchdown and the extra point to win."),
    (7, "You need a touchdown and the extra point just to tie; nothing wins it.",
     "The Bears need a touchdown and the extra point just to tie; nothing wins it."),
])
def test_what_the_side_with_the_ball_needs(behind: int, yours: str, theirs: str) -> None:
    assert needs_words(last_drive(behind, Team.HOME), NAMES) == yours
    assert needs_words(last_drive(behind, Team.AWAY), NAMES) == theirs


def test_the_needs_are_said_only_on_the_last_drive_of_a_game_going_on() -> None:
    first = GameState(scores=(0, 3), drive=1, offense=Team.HOME, down=Down(1, 25, 35))
    assert needs_words(first, NAMES) == ""
    over = GameState(scores=(0, 3), drive=2, offense=Team.HOME, down=Down(1, 25, 35),
                     outcome=Outcome((0, 3), Team.AWAY, BOTH))
    assert needs_words(over, NAMES) == ""
    assert needs_words(GameState(scores=(0, 3), drive=2), NAMES) == ""  # no offense yet


def test_s_on_offense_on_the_last_drive() -> None:
    state = GameState(scores=(0, 3), drive=2, offense=Team.HOME, down=Down(2, 31, 38))
    assert situation_words(state, NAMES) == (
        "Score: Hawks 0, Bears 3. Drive 2 of 2, you are on offense. Hawks ball, 2nd and 7 at "
        "your own 31. You need a field goal to tie, a touchdown to win.")


def test_s_on_defense_on_the_first_drive() -> None:
    state = GameState(scores=(0, 0), drive=1, offense=Team.AWAY, down=Down(1, 25, 35))
    assert situation_words(state, NAMES) == (
        "Score: Hawks 0, Bears 0. Drive 1 of 2, you are on defense. Bears ball, 1st and 10 at "
        "their own 25.")


def test_s_before_the_kickoff_and_after_the_end() -> None:
    assert situation_words(GameState(scores=(0, 0), drive=0), NAMES) == (
        "Score: Hawks 0, Bears 0. The game has not kicked off yet.")
    over = GameState(scores=(7, 3), drive=2, outcome=Outcome((7, 3), Team.HOME, BOTH))
    assert situation_words(over, NAMES) == "Score: Hawks 7, Bears 3. The game is over."
    between = GameState(scores=(7, 0), drive=2, offense=Team.AWAY)  # no down: between plays
    assert situation_words(between, NAMES) == (
        "Score: Hawks 7, Bears 0. Drive 2 of 2, you are on defense. The Bears need a touchdown "
        "and the extra point just to tie; nothing wins it.")


@pytest.mark.parametrize(("outcome", "words"), [
    (Outcome((7, 3), Team.HOME, BOTH), "Final score: Hawks 7, Bears 3. The Hawks win "
     "it!"),
    (Outcome((3, 7), Team.AWAY, BOTH), "Final score: Hawks 3, Bears 7. The Bears hold "
     "on and win."),
    (Outcome((3, 3), None, BOTH), "Final score: Hawks 3, Bears 3. It ends in a tie."),
    (Outcome((0, 2), Team.AWAY, GameEnd.SAFETY), "Final score: Hawks 0, Bears 2. It ended on a "
     "safety. The Bears hold on and win."),
    (Outcome((0, 0), Team.AWAY, GameEnd.CONCEDED), "Final score: Hawks 0, Bears 0. The Hawks "
     "conceded. The Bears hold on and win."),
    (Outcome((0, 0), Team.HOME, GameEnd.CONCEDED), "Final score: Hawks 0, Bears 0. The Bears "
     "conceded. The Hawks win it!"),
])
def test_the_final_result(outcome: Outcome, words: str) -> None:
    assert outcome_words(outcome, NAMES) == words


def test_spots_are_counted_from_the_players_own_goal() -> None:
    mine = GameState(scores=(0, 0), drive=1, offense=Team.HOME, down=Down(1, 25, 35))
    theirs = GameState(scores=(0, 0), drive=1, offense=Team.AWAY, down=Down(1, 25, 35))
    assert human_spots(mine, Team.HOME) == (25, 35, True)
    assert human_spots(theirs, Team.HOME) == (75, 65, False)
    assert human_spots(GameState(scores=(0, 0), drive=0), Team.HOME) is None
    no_offense = GameState(scores=(0, 0), drive=1, down=Down(1, 25, 35))
    assert human_spots(no_offense, Team.HOME) is None


def test_the_needs_name_the_other_side_when_the_player_is_away() -> None:
    away = Names("Hawks", "Bears", you=Team.AWAY)  # the player is the Bears
    hawks_behind = GameState(scores=(0, 3), drive=2, offense=Team.HOME, down=Down(1, 25, 35))
    assert needs_words(hawks_behind, away) == (
        "The Hawks need a field goal to tie, a touchdown to win.")
    bears_behind = GameState(scores=(3, 0), drive=2, offense=Team.AWAY, down=Down(1, 25, 35))
    assert needs_words(bears_behind, away) == "You need a field goal to tie, a touchdown to win."
