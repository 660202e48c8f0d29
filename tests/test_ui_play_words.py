"""The exact words, cue and dice of each play and kick result, at each verbosity, with the
numbers written by hand: a 35-yard kick is said as 35, a roll of 57 as 57. (test_ui_narration
checks the same lines inside whole narrations, from engine events; this file pins every
branch's wording, so a changed word, number or cue fails here.)"""

from __future__ import annotations

import pytest

from sudden_death import language
from sudden_death.engine import OffCall, Team
from sudden_death.engine import events as ev
from sudden_death.engine.card_model import PlayResult
from sudden_death.engine.dice import Roll
from sudden_death.ui.words.line import Line
from sudden_death.ui.words.narration import Narrator
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.plays import (
    extra_point_line,
    field_goal_line,
    fumble_lines,
    play_line,
    punt_line,
)
from sudden_death.ui.words.verbosity import Telling

NAMES = Names("Hawks", "Bears")  # the player is the Hawks (home)
SHORT, NORMAL, DETAILED = Telling(brief=True), Telling(), Telling(dice=True)


def said(line: Line) -> tuple[str, str | None, tuple[int, ...]]:
    return line.text, line.cue, line.dice


# -- field goals ------------------------------------------------------------------------------

def field_goal(good: bool, team: Team = Team.HOME, distance: int = 35) -> ev.FieldGoal:
    # From the 82 a kick is 100 - 82 + 17 = 35 yards; 2d6 = 4 + 5 = 9 against a need of 7.
    dice = (4, 5) if good else (2, 3)
    return ev.FieldGoal(team=team, line=82, distance=distance, needed=7,
                        roll=Roll(dice, 6), good=good)


@pytest.mark.parametrize(("good", "telling", "words"), [
    (True, SHORT, "Field goal good."),
    (False, SHORT, "Field goal no good."),
    (True, NORMAL, "You kick from 35 yards... it's good!"),
    (False, NORMAL, "You kick from 35 yards... no good."),
    (True, DETAILED, "You kick from 35 yards... Dice 4, 5, total 9, needs 7: it's good!"),
    (False, DETAILED, "You kick from 35 yards... Dice 2, 3, total 5, needs 7: no good."),
])
def test_your_field_goal(good: bool, telling: Telling, words: str) -> None:
    cue = "field_goal_good" if good else "field_goal_no_good"
    dice = (4, 5) if good else (2, 3)
    assert said(field_goal_line(field_goal(good), NAMES, telling)) == (words, cue, dice)


@pytest.mark.parametrize(("good", "telling", "words"), [
    (True, NORMAL, "The Bears kick from 35 yards... it's good!"),
    (False, DETAILED, "The Bears kick from 35 yards... Dice 2, 3, total 5, needs 7: no good."),
])
def test_their_field_goal_names_them(good: bool, telling: Telling, words: str) -> None:
    line = field_goal_line(field_goal(good, Team.AWAY), NAMES, telling)
    assert line.text == words


def test_a_field_goal_from_one_yard_says_yard() -> None:
    line = field_goal_line(field_goal(True, distance=1), NAMES, NORMAL)
    assert line.text == "You kick from 1 yard... it's good!"


# -- extra points -----------------------------------------------------------------------------

@pytest.mark.parametrize(("good", "telling", "words"), [
    (True, SHORT, "Extra point good."),
    (False, SHORT, "Extra point no good."),
    (True, NORMAL, "The extra point is good."),
    (False, NORMAL, "The extra point is no good."),
    (True, DETAILED, "Extra point: dice 6, 2, total 8, needs 3: good."),
    (False, DETAILED, "Extra point: dice 1, 1, total 2, needs 3: no good."),
])
def test_the_extra_point(good: bool, telling: Telling, words: str) -> None:
    dice = (6, 2) if good else (1, 1)
    event = ev.ExtraPoint(team=Team.HOME, roll=Roll(dice, 6), needed=3, good=good)
    cue = "field_goal_good" if good else "field_goal_no_good"
    assert said(extra_point_line(event, NAMES, telling)) == (words, cue, dice)


@pytest.mark.parametrize(("good", "cue"), [(True, "field_goal_theirs"),
                                           (False, "field_goal_no_good")])
def test_their_kicks_sound_like_theirs(good: bool, cue: str) -> None:
    """The other team's kick through the posts falls where the player's rises; a miss is a
    miss for either side."""
    event = ev.ExtraPoint(team=Team.AWAY, roll=Roll((6, 2), 6), needed=3, good=good)
    assert extra_point_line(event, NAMES, NORMAL).cue == cue
    assert field_goal_line(field_goal(good, Team.AWAY), NAMES, NORMAL).cue == cue


# -- punts ------------------------------------------------------------------------------------

def punt(team: Team, net: int, touchback: bool = False) -> ev.Punt:
    return ev.Punt(team=team, line=30, roll=Roll((3, 4), 6), net=net, touchback=touchback,
                   receiving_spot=100 - 30 - net)


@pytest.mark.parametrize(("team", "net", "touchback", "telling", "words"), [
    (Team.HOME, 40, False, SHORT, "Punt, 40 yards."),
    (Team.HOME, 1, False, SHORT, "Punt, 1 yard."),
    (Team.AWAY, 0, True, SHORT, "Punt, a touchback."),
    (Team.HOME, 40, False, NORMAL, "You punt: 40 yards."),
    (Team.AWAY, 40, False, NORMAL, "The Bears punt: 40 yards."),
    (Team.HOME, 0, True, NORMAL, "You punt: a touchback."),
    (Team.HOME, 40, False, DETAILED, "You punt: Dice 3, 4, total 7. 40 yards."),
    (Team.AWAY, 0, True, DETAILED, "The Bears punt: Dice 3, 4, total 7. a touchback."),
])
def test_the_punt(team: Team, net: int, touchback: bool, telling: Telling, words: str) -> None:
    assert said(punt_line(punt(team, net, touchback), NAMES, telling)) == (words, "punt", (3, 4))


# -- plays ------------------------------------------------------------------------------------

def play(result: PlayResult, yards: int, line: int = 40, offense: Team = Team.HOME,
         outcome: Roll | None = None, yardage: Roll | None = None,
         call: OffCall = OffCall.QUICK_SLANT) -> ev.PlayResolved:
    return ev.PlayResolved(offense=offense, call=call, band=0, result=result, line=line,
                           yards=yards, spot=line + yards, outcome_roll=outcome,
                           yardage_roll=yardage)


PASS_57 = Roll((57,), 100)  # a pass roll of 57 out of 100
YARDS_23 = Roll((23,), 100)  # a yardage roll of 23 out of 100
SACK_5 = Roll((2, 3), 6)  # sack dice 2 and 3


@pytest.mark.parametrize(("event", "telling", "words", "cue"), [
    (play(PlayResult.COMPLETE, 5), SHORT, "Complete, 5 yards.", None),
    (play(PlayResult.COMPLETE, 1), SHORT, "Complete, 1 yard.", None),
    (play(PlayResult.COMPLETE, -2), SHORT, "Complete, loss of 2.", None),
    (play(PlayResult.COMPLETE, 0), SHORT, "Complete, no gain.", None),
    (play(PlayResult.COMPLETE, 5), NORMAL, "Complete, a gain of 5 yards.", None),
    (play(PlayResult.COMPLETE, -1), NORMAL, "Complete, a loss of 1 yard.", None),
    (play(PlayResult.COMPLETE, 0), NORMAL, "Complete, no gain.", None),
    (play(PlayResult.RUN, 4), SHORT, "4 yards.", None),
    (play(PlayResult.RUN, 1), SHORT, "1 yard.", None),
    (play(PlayResult.RUN, -3), SHORT, "Loss of 3.", None),
    (play(PlayResult.RUN, 0), SHORT, "No gain.", None),
    (play(PlayResult.RUN, 4), NORMAL, "A gain of 4 yards.", None),
    (play(PlayResult.RUN, 1), NORMAL, "A gain of 1 yard.", None),
    (play(PlayResult.RUN, -3), NORMAL, "A loss of 3 yards.", None),
    (play(PlayResult.RUN, -1), NORMAL, "A loss of 1 yard.", None),
    (play(PlayResult.RUN, 0), NORMAL, "No gain.", None),
    (play(PlayResult.SACK, -7), NORMAL, "Sacked! A loss of 7 yards.", "sack"),
    (play(PlayResult.SACK, -7), SHORT, "Sacked! Loss of 7.", "sack"),
    (play(PlayResult.INCOMPLETE, 0), NORMAL, "Incomplete.", None),
    (play(PlayResult.INTERCEPTION, 0), NORMAL, "Intercepted by the Bears!", "interception"),
    # The player's side picking a pass off is good news, with the takeaway's own sound.
    (play(PlayResult.INTERCEPTION, 0, offense=Team.AWAY), SHORT,
     "Intercepted by the Hawks!", "turnover_won"),
    # Long gains: 15 yards or more have their own cue, and their own call unless short.
    (play(PlayResult.RUN, 15), NORMAL, "Breaks loose for 15 yards!", "big_play"),
    (play(PlayResult.RUN, 14), NORMAL, "A gain of 14 yards.", None),
    (play(PlayResult.COMPLETE, 22), NORMAL, "Big play! Complete for 22 yards!", "big_play"),
    (play(PlayResult.COMPLETE, 22), SHORT, "22 yards!", "big_play"),
    (play(PlayResult.COMPLETE, 22, offense=Team.AWAY), NORMAL,
     "Big play! Complete for 22 yards!", "big_play_theirs"),
    (play(PlayResult.RUN, 15, offense=Team.AWAY), SHORT, "15 yards!", "big_play_theirs"),
    # At the goal lines: only the yards to the line, then where the ball is.
    (play(PlayResult.RUN, 2, line=98), NORMAL, "2 yards, into the end zone!", None),
    (play(PlayResult.RUN, 1, line=99), SHORT, "1 yard, into the end zone!", None),
    (play(PlayResult.COMPLETE, 10, line=90), NORMAL,
     "Complete, 10 yards, into the end zone!", None),
    (play(PlayResult.COMPLETE, 1, line=99), NORMAL,
     "Complete, 1 yard, into the end zone!", None),
    (play(PlayResult.SACK, -3, line=3), NORMAL,
     "Sacked in the end zone, a loss of 3 yards!", "sack"),
    (play(PlayResult.RUN, -2, line=2), NORMAL, "Tackled in the end zone, a loss of 2 yards!",
     None),
])
def test_the_play(event: ev.PlayResolved, telling: Telling, words: str,
                  cue: str | None) -> None:
    line = play_line(event, NAMES, telling)
    assert (line.text, line.cue) == (words, cue)


@pytest.mark.parametrize(("event", "words"), [
    (play(PlayResult.INCOMPLETE, 0, outcome=PASS_57), "Pass roll 57 of 100. Incomplete."),
    (play(PlayResult.COMPLETE, 6, outcome=PASS_57, yardage=YARDS_23),
     "Pass roll 57 of 100, yardage roll 23 of 100. Complete, a gain of 6 yards."),
    (play(PlayResult.SACK, -5, outcome=PASS_57, yardage=SACK_5),
     "Pass roll 57 of 100, sack dice 2, 3, total 5. Sacked! A loss of 5 yards."),
    (play(PlayResult.RUN, 3, yardage=YARDS_23, call=OffCall.INSIDE_RUN),
     "Yardage roll 23 of 100. A gain of 3 yards."),
    (play(PlayResult.SACK, -5, yardage=SACK_5), "Sack dice 2, 3, total 5. Sacked! A loss of 5 "
     "yards."),
    (play(PlayResult.RUN, 0, call=OffCall.INSIDE_RUN), "No gain."),  # no roll: nothing before
])
def test_detailed_plays_say_their_rolls_first(event: ev.PlayResolved, words: str) -> None:
    line = play_line(event, NAMES, DETAILED)
    assert line.text == words
    rolls = [event.outcome_roll, event.yardage_roll]
    assert line.dice == tuple(d for roll in rolls if roll is not None for d in roll.dice)


def test_the_sweep_is_heard_from_the_players_side() -> None:
    assert play_line(play(PlayResult.RUN, 4, line=40), NAMES, NORMAL).sweep == (40, 44)
    theirs = play(PlayResult.RUN, 4, line=40, offense=Team.AWAY)
    assert play_line(theirs, NAMES, NORMAL).sweep == (60, 56)
    assert play_line(play(PlayResult.RUN, 0), NAMES, NORMAL).sweep is None  # it did not move


# -- fumbles ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("lost", "telling", "words"), [
    (True, SHORT, "Bears ball."),
    (False, SHORT, "Hawks ball."),
    (True, NORMAL, "The Bears recover it!"),
    (False, NORMAL, "The Hawks fall on it and keep the ball."),
    (True, DETAILED, "The Bears recover it! Recovery die 5: 1 to 3 stays with the offense, "
     "4 to 6 goes to the defense."),
])
def test_the_fumble(lost: bool, telling: Telling, words: str) -> None:
    event = ev.Fumble(offense=Team.HOME, spot=40, check_roll=Roll((1,), 6),
                      recovery_roll=Roll((5,) if lost else (2,), 6), lost=lost)
    first, second = fumble_lines(event, NAMES, telling)
    assert (first.text, first.cue) == ("Fumble!", "fumble")
    assert said(second) == (words, "turnover" if lost else None, event.recovery_roll.dice)


def test_their_fumble_recovered_by_the_player_is_a_takeaway() -> None:
    event = ev.Fumble(offense=Team.AWAY, spot=40, check_roll=Roll((1,), 6),
                      recovery_roll=Roll((5,), 6), lost=True)
    assert [line.cue for line in fumble_lines(event, NAMES, NORMAL)] == ["fumble",
                                                                         "turnover_won"]


def test_a_loss_to_the_one_is_not_in_the_end_zone() -> None:
    line = play_line(play(PlayResult.RUN, -2, line=3), NAMES, NORMAL)  # to the 1-yard line
    assert line.text == "A loss of 2 yards."
    assert play_line(play(PlayResult.RUN, -3, line=3), NAMES, NORMAL).text == (
        "Tackled in the end zone, a loss of 3 yards!")  # to the goal line itself: 0


AWAY_PLAYER = Names("Hawks", "Bears", you=Team.AWAY)  # the player is the Bears


def test_the_other_side_is_named_when_the_player_is_the_away_team() -> None:
    assert field_goal_line(field_goal(True, Team.HOME), AWAY_PLAYER, NORMAL).text == (
        "The Hawks kick from 35 yards... it's good!")
    assert field_goal_line(field_goal(True, Team.AWAY), AWAY_PLAYER, NORMAL).text == (
        "You kick from 35 yards... it's good!")
    assert punt_line(punt(Team.HOME, 40), AWAY_PLAYER, NORMAL).text == "The Hawks punt: 40 yards."
    assert punt_line(punt(Team.AWAY, 40), AWAY_PLAYER, NORMAL).text == "You punt: 40 yards."


def test_a_long_gain_at_short_verbosity_is_translated() -> None:
    # The Spanish catalog finds the words by their English singular: a changed one would
    # leave a Spanish player hearing English.
    with language.using(language.load("es")):
        line = play_line(play(PlayResult.COMPLETE, 22), NAMES, SHORT)
    assert line.text == "¡22 yardas!"


@pytest.mark.parametrize(("failed", "cue"), [(Team.HOME, "turnover"), (Team.AWAY, "turnover_won")])
def test_a_turnover_on_downs_sounds_like_whose_loss_it_is(failed: Team, cue: str) -> None:
    lines = Narrator(NAMES, failed).lines([ev.TurnoverOnDowns(team=failed, spot=40)])
    assert [line.cue for line in lines] == [cue]
