"""The kick choices before a snap, word for word, worked by hand from the seed's rules: a punt
rolls three dice for 30 (totals 3-7: 35 throws in 216, 16 percent), 40 (8-13: 146 in 216, 68
percent) or 50 net yards (14-18: 35 in 216); past the goal it is a touchback to the receivers'
own 20. A field goal's distance is the yards to the goal plus 17; it needs 6, 8, 10 or 13 on
three dice up to 39, 49, 59 and 65 yards (206, 181, 135 and 56 throws in 216: 95, 84, 63 and 26
percent); longer is not allowed."""

from __future__ import annotations

import pytest
from engine_helpers import fourth_down

from sudden_death import language
from sudden_death.engine import GameState, Team
from sudden_death.engine.field import Down
from sudden_death.ui.words.kicks import field_goal_option, kick_summary, punt_option
from sudden_death.ui.words.phrases import Names

NAMES = Names("Hawks", "Bears")  # the player is the Hawks (home)


@pytest.mark.parametrize(("line", "label"), [
    (30, "Punt: lands at their 40, their 30 or their 20"),  # 60, 70, 80
    (10, "Punt: lands at your own 40, midfield or their 40"),  # 40, 50, 60
    (55, "Punt: lands at their 15 or their 5, or a touchback to their own 20"),  # 85, 95, 105
    (65, "Punt: lands at their 5, or a touchback to their own 20"),  # 95, 105, 115
    (75, "Punt: a touchback to their own 20"),  # 105, 115, 125
])
def test_where_each_punt_lands(line: int, label: str) -> None:
    option = punt_option(fourth_down(line), NAMES)
    assert (option.label, option.available, option.reason, option.confirm) == (label, True, "",
                                                                                  "")


def test_with_odds_each_landing_has_its_chance() -> None:
    assert punt_option(fourth_down(30), NAMES, with_odds=True).label == (
        "Punt: lands at their 40 (16 percent), their 30 (68 percent) or their 20 (16 percent)")
    # Two landings past the goal are one touchback: 146 + 35 throws, 84 percent.
    assert punt_option(fourth_down(55), NAMES, with_odds=True).label == (
        "Punt: lands at their 15 (16 percent) or their 5 (68 percent), or a touchback to their "
        "own 20 (16 percent)")
    assert punt_option(fourth_down(65), NAMES, with_odds=True).label == (
        "Punt: lands at their 5 (16 percent), or a touchback to their own 20 (84 percent)")
    assert punt_option(fourth_down(75), NAMES, with_odds=True).label == (
        "Punt: a touchback to their own 20 (100 percent)")


@pytest.mark.parametrize(("scores", "ending", "confirm"), [
    ((7, 0), "; it ends the game and you win", ""),
    ((3, 3), "; it ends the game and it's a tie", ""),
    ((0, 7), "; it ends the game and you lose",
     "A punt ends the game with the Bears ahead, 7 to 0: you would lose. Punt anyway?"),
    ((10, 14), "; it ends the game and you lose",
     "A punt ends the game with the Bears ahead, 14 to 10: you would lose. Punt anyway?"),
])
def test_a_punt_on_the_last_drive_says_how_the_game_ends(scores: tuple[int, int], ending: str,
                                                         confirm: str) -> None:
    option = punt_option(fourth_down(30, drive=2, scores=scores), NAMES)
    assert option.label == "Punt: lands at their 40, their 30 or their 20" + ending
    assert option.confirm == confirm


@pytest.mark.parametrize(("line", "label"), [
    (82, "Field goal: 35 yards, needs 6 or more on 3 dice, 95 percent"),
    (70, "Field goal: 47 yards, needs 8 or more on 3 dice, 84 percent"),
    (60, "Field goal: 57 yards, needs 10 or more on 3 dice, 63 percent"),
    (52, "Field goal: 65 yards, needs 13 or more on 3 dice, 26 percent"),
])
def test_a_field_goal_in_range(line: int, label: str) -> None:
    option = field_goal_option(fourth_down(line), NAMES)
    assert (option.label, option.available, option.reason, option.confirm) == (label, True, "",
                                                                                  "")


def test_a_field_goal_out_of_range_says_why() -> None:
    option = field_goal_option(fourth_down(51), NAMES)  # 49 + 17 = 66 yards
    assert option.label == "Field goal: 66 yards is too far; the longest is 65"
    assert option.reason == "Field goal: 66 yards is too far; the longest is 65."
    assert option.available is False and option.confirm == ""


def test_the_field_goal_words_are_translated() -> None:
    # Plural messages are found by their English singular, so the singular matters in Spanish
    # even where no kick is ever 1 yard long.
    with language.using(language.load("es")):
        too_far = field_goal_option(fourth_down(51), NAMES)
        in_range = field_goal_option(fourth_down(82), NAMES)
    assert too_far.label.startswith("Gol de campo: 66 yardas") and "65" in too_far.label
    assert too_far.reason.startswith("Gol de campo: 66 yardas") and too_far.reason.endswith(".")
    assert too_far.reason != too_far.label
    assert in_range.label.startswith(
        "Gol de campo: 35 yardas, necesita 6 o más con 3 dados, 95 ")


LABEL_35 = "Field goal: 35 yards, needs 6 or more on 3 dice, 95 percent"


@pytest.mark.parametrize(("scores", "ending", "confirm"), [
    ((7, 0), "; it ends the game and you win either way", ""),  # 10-0 or 7-0
    ((0, 7), "; it ends the game and you lose either way",
     "Even a good field goal ends the game behind, 3 to 7: you would lose. Kick anyway?"),
    ((0, 0), "; it ends the game: good wins, a miss ties", ""),
    ((0, 3), "; it ends the game: good ties, a miss loses", ""),
    ((0, 2), "; it ends the game: good wins, a miss loses", ""),
    ((10, 12), "; it ends the game: good wins, a miss loses", ""),
])
def test_a_field_goal_on_the_last_drive_says_what_good_and_a_miss_do(
        scores: tuple[int, int], ending: str, confirm: str) -> None:
    option = field_goal_option(fourth_down(82, drive=2, scores=scores), NAMES)
    assert (option.label, option.confirm) == (LABEL_35 + ending, confirm)


def test_the_verdicts_follow_the_players_team_when_it_is_away() -> None:
    away = Names("Hawks", "Bears", you=Team.AWAY)
    state = GameState(scores=(7, 0), drive=2, offense=Team.AWAY, down=Down(4, 82, 87))
    option = field_goal_option(state, away)  # the player (away) has 0, the Hawks 7
    assert option.label == LABEL_35 + "; it ends the game and you lose either way"
    assert option.confirm == ("Even a good field goal ends the game behind, 3 to 7: you would "
                              "lose. Kick anyway?")
    assert punt_option(state, away).confirm == (
        "A punt ends the game with the Hawks ahead, 7 to 0: you would lose. Punt anyway?")


@pytest.mark.parametrize(("line", "summary"), [
    (82, "a 35 yard field goal is 95 percent"),
    (52, "a 65 yard field goal is 26 percent"),
    (51, "too far for a field goal"),
])
def test_the_fourth_down_clause(line: int, summary: str) -> None:
    assert kick_summary(fourth_down(line)) == summary


def test_the_last_drive_verdicts_are_translated_in_their_own_context() -> None:
    # "wins", "ties" and "loses" are looked up with the context "kick result": Spanish says
    # them to the player ("ganas", "empatas", "pierdes"), not of a team.
    with language.using(language.load("es")):
        level = field_goal_option(fourth_down(82, drive=2, scores=(0, 0)), NAMES).label
        behind = field_goal_option(fourth_down(82, drive=2, scores=(0, 3)), NAMES).label
    assert level.endswith("; termina el partido: si entra, ganas; si falla, empatas")
    assert behind.endswith("; termina el partido: si entra, empatas; si falla, pierdes")
