"""The game's words for single events, at every verbosity: gains that stop at the goal line,
fumbles that name the team, drama cues, kick odds, what each side needs, and the final score.
Events come from the real engine with forced dice (engine_helpers), never typed by hand."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from engine_helpers import (
    d6,
    even_defense,
    final_call_game,
    final_calls,
    fourth_down,
    pct,
    percent_for_yards,
    step,
    three_d6,
)

from sudden_death.engine import (
    ChooseSnap,
    DefCall,
    Game,
    Hand,
    OffCall,
    PickHand,
    PickSwap,
    Player,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
)
from sudden_death.engine import events as ev
from sudden_death.engine.cards import OFFENSIVE_CALLS
from sudden_death.engine.kicks import chance_at_least
from sudden_death.engine.match import Match
from sudden_death.engine.state import GameEnd, Outcome
from sudden_death.ui.words.kicks import field_goal_option, punt_option
from sudden_death.ui.words.narration import Narrator
from sudden_death.ui.words.numbers import percent_words
from sudden_death.ui.words.phrases import Names, score_words
from sudden_death.ui.words.plays import BIG_PLAY_YARDS
from sudden_death.ui.words.situation import (
    human_spots,
    needs_words,
    outcome_words,
    situation_words,
)
from sudden_death.ui.words.verbosity import Telling, Verbosity

VERBOSITIES = ("short", "normal", "detailed")
NAMES = Names("Hawks", "Bears")
RUN_EVEN = even_defense(OffCall.INSIDE_RUN)


def told(events: list[ev.Event], verbosity: str, offense: Team = Team.HOME) -> list:
    return Narrator(NAMES, offense).lines(events, Telling.preset(Verbosity.of(verbosity)))


def text(lines: list) -> str:
    return " ".join(line.text for line in lines)


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_a_touchdown_run_gains_only_the_yards_to_the_goal(verbosity: str) -> None:
    # A 30-yard row from the 98: the ball crosses after 2 yards.
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 30)) + three_d6(10)
    game = final_call_game(98, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    said = text(told(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), verbosity))
    assert "2 yards, into the end zone!" in said and "30" not in said
    assert "Touchdown, Hawks!" in said


def test_whose_touchdown_it_is_is_heard_in_its_cue() -> None:
    """The same touchdown is a cheer for the scoring side's player and a groan for the other
    side's (the guest at a table hears the events from the away side)."""
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 30)) + three_d6(10)
    game = final_call_game(98, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    scorer = [line.cue for line in Narrator(NAMES, Team.HOME).lines(events)]
    other = [line.cue for line in
             Narrator(Names("Hawks", "Bears", you=Team.AWAY), Team.HOME).lines(events)]
    assert "touchdown" in scorer and "touchdown_theirs" not in scorer
    assert "touchdown_theirs" in other and "touchdown" not in other


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_a_safety_sack_loses_only_the_yards_to_the_goal(verbosity: str) -> None:
    screen = even_defense(OffCall.SCREEN)
    game = final_call_game(4, OffCall.SCREEN, screen, pct(1) + d6(4, 5))  # 9 on the dice
    lines = told(final_calls(game, OffCall.SCREEN, screen), verbosity)
    said = text(lines)
    assert "loss of 4 yards" in said and "loss of 9" not in said
    assert "Safety!" in said and said.count("Final score") == 1
    cues = [line.cue for line in lines if line.cue]
    assert cues.index("sack") < cues.index("safety") < cues.index("game_lost")


@pytest.mark.parametrize("verbosity", VERBOSITIES)
@pytest.mark.parametrize(("recovery", "keeper"), [(2, "Hawks"), (5, "Bears")])
def test_a_fumble_names_the_team_that_has_the_ball(verbosity: str, recovery: int,
                                                   keeper: str) -> None:
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 3)) + pct(1) + d6(recovery)
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    lines = told(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), verbosity)
    fumble = next(i for i, line in enumerate(lines) if line.text == "Fumble!")
    assert lines[fumble].cue == "fumble"
    assert keeper in lines[fumble + 1].text and lines[fumble + 1].dice == (recovery,)
    assert lines[fumble + 1].cue == ("turnover" if keeper == "Bears" else None)
    assert ("Recovery die" in text(lines)) is (verbosity == "detailed")
    assert "of 100" not in text(lines) or verbosity == "detailed"  # raw rolls: detailed only


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_a_big_gain_has_its_own_cue_and_call(verbosity: str) -> None:
    yards = BIG_PLAY_YARDS + 5
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, yards)) + pct(100)
    game = final_call_game(30, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    lines = told(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), verbosity)
    play = next(line for line in lines if line.cue == "big_play")
    assert str(yards) in play.text and play.dice  # the roll, then the cue, with its words
    if verbosity != "short":
        assert play.text.endswith(f"Breaks loose for {yards} yards!")


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_an_interception_cue_comes_with_its_words_after_the_dice(verbosity: str) -> None:
    table_call = OffCall.DEEP_PASS
    defense = even_defense(table_call)
    band = OFFENSIVE_CALLS[table_call].bands[0]
    roll = band.sack + 1  # the first percent past the sacks is an interception
    game = final_call_game(40, table_call, defense, pct(roll))
    lines = told(final_calls(game, table_call, defense), verbosity)
    picked = next(line for line in lines if line.cue == "interception")
    assert "Intercepted by the Bears!" in picked.text and picked.dice == (roll,)
    calls = next(i for i, line in enumerate(lines) if " against " in (line.logged or line.text))
    assert lines.index(picked) > calls


@pytest.mark.parametrize("verbosity", VERBOSITIES)
@pytest.mark.parametrize(("scores", "winner", "cue"), [
    ((7, 3), Team.HOME, "game_won"), ((3, 7), Team.AWAY, "game_lost"), ((3, 3), None, "game_tied")])
def test_the_final_result_has_its_cue_and_begins_final_score(
        verbosity: str, scores: tuple[int, int], winner: Team | None, cue: str) -> None:
    outcome = Outcome(scores, winner, GameEnd.BOTH_DRIVES)
    (line,) = told([ev.GameOver(outcome)], verbosity)
    assert line.text.startswith(f"Final score: Hawks {scores[0]}, Bears {scores[1]}.")
    assert line.cue == cue and line.category == "game_over"


def test_a_score_is_said_once_after_the_extra_point() -> None:
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 8)) + three_d6(10)
    game = final_call_game(95, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    said = text(told(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), "normal"))
    assert said.count("Hawks 7, Bears 0") == 1 and "Hawks 6" not in said
    assert said.count("own 25") == 1  # the next drive's spot, once


# -- kicks, needs and the situation ------------------------------------------------------------


# Worked by hand from the seed: distance = (100 - line) + 17; the chance of at least 6, 8, 10 or
# 13 on three dice is 206, 181, 135 or 56 throws in 216, said as whole percents.
@pytest.mark.parametrize(("line", "words"), [
    (52, "65 yards, needs 13 or more on 3 dice, 26 percent"),
    (57, "60 yards, needs 13 or more on 3 dice, 26 percent"),
    (58, "59 yards, needs 10 or more on 3 dice, 63 percent"),
    (67, "50 yards, needs 10 or more on 3 dice, 63 percent"),
    (68, "49 yards, needs 8 or more on 3 dice, 84 percent"),
    (77, "40 yards, needs 8 or more on 3 dice, 84 percent"),
    (78, "39 yards, needs 6 or more on 3 dice, 95 percent"),
    (83, "34 yards, needs 6 or more on 3 dice, 95 percent"),
])
def test_field_goal_words_give_distance_total_and_exact_chance(line: int, words: str) -> None:
    option = field_goal_option(fourth_down(line), NAMES)
    assert option.label == f"Field goal: {words}" and option.available


def test_a_field_goal_past_the_limit_says_why() -> None:
    option = field_goal_option(fourth_down(40), NAMES)
    assert not option.available and option.reason.startswith("Field goal: 77 yards is too far")


def test_punt_words_say_where_each_roll_lands() -> None:
    assert punt_option(fourth_down(25), NAMES).label == (
        "Punt: lands at their 45, their 35 or their 25")
    assert punt_option(fourth_down(65), NAMES).label == (
        "Punt: lands at their 5, or a touchback to their own 20")
    detailed = punt_option(fourth_down(25), NAMES, with_odds=True).label
    assert f"their 35 ({percent_words(Fraction(146, 216))})" in detailed


@pytest.mark.parametrize(("scores", "punt_confirms", "goal_confirms", "words"), [
    ((0, 7), True, True, "you lose either way"),
    ((0, 3), True, False, "good ties, a miss loses"),
    ((0, 2), True, False, "good wins, a miss loses"),
    ((0, 0), False, False, "good wins, a miss ties"),
])
def test_a_kick_on_the_last_drive_says_how_the_game_ends_and_asks_if_it_can_only_lose(
        scores: tuple[int, int], punt_confirms: bool, goal_confirms: bool, words: str) -> None:
    state = fourth_down(70, drive=2, scores=scores)
    punt, goal = punt_option(state, NAMES), field_goal_option(state, NAMES)
    assert bool(punt.confirm) is punt_confirms and bool(goal.confirm) is goal_confirms
    assert punt.label.endswith(("you lose", "it's a tie"))
    assert goal.label.endswith(words)
    assert field_goal_option(fourth_down(70, drive=1, scores=scores), NAMES).confirm == ""


@pytest.mark.parametrize(("behind", "words"), [
    (0, "any score to win"),
    (2, "a field goal to win."),
    (3, "a field goal to tie, a touchdown to win."),
    (5, "a touchdown to win."),
    (6, "a touchdown to tie, a touchdown and the extra point to win."),
    (7, "a touchdown and the extra point just to tie; nothing wins it."),
])
@pytest.mark.parametrize("offense", [Team.HOME, Team.AWAY])
def test_s_says_what_the_side_with_the_ball_needs_on_the_last_drive(
        behind: int, words: str, offense: Team) -> None:
    scores = (behind, 0) if offense is Team.AWAY else (0, behind)
    state = fourth_down(30, drive=2, scores=scores, offense=offense)
    who = "You need" if offense is Team.HOME else "The Bears need"
    assert needs_words(state, NAMES) == f"{who} {words}" or (
        needs_words(state, NAMES).startswith(f"{who} {words}"))
    assert situation_words(state, NAMES).endswith(needs_words(state, NAMES))
    assert needs_words(fourth_down(30, drive=1, scores=scores, offense=offense), NAMES) == ""


def test_a_safety_ending_is_said_in_the_final_score() -> None:
    assert chance_at_least(13) == Fraction(56, 216)
    assert outcome_words(Outcome((0, 2), Team.AWAY, GameEnd.SAFETY), NAMES) == (
        "Final score: Hawks 0, Bears 2. It ended on a safety. The Bears hold on and win.")


def _event_types() -> set[type[ev.Event]]:
    """Every event class the engine defines (all subclasses, however deep)."""
    found: set[type[ev.Event]] = set()
    todo = [ev.Event]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found


def test_every_event_the_engine_can_emit_has_a_teller_of_its_own() -> None:
    """A new event type must be given words (or a deliberate silence) in Narrator.tell, never
    fall through to the base case; the engine module's own list of types is the reference."""
    told = set(Narrator.__dict__["tell"].dispatcher.registry) - {object, ev.Event}
    defined = {cls for cls in vars(ev).values()
               if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event}
    engine_made = {cls for cls in _event_types() if cls.__module__ == ev.__name__}
    assert defined and told == defined == engine_made


def test_an_event_without_a_teller_says_nothing_and_is_therefore_caught_above() -> None:
    class Unheard(ev.Event):
        pass

    assert Narrator(NAMES).tell(Unheard()) == []
    assert Unheard not in Narrator.__dict__["tell"].dispatcher.registry


def test_the_words_follow_the_players_team_when_it_is_the_away_side() -> None:
    """Everything is said from `names.you`: the same events heard by the away team's player
    put their spot, their score and their side first (the guest of a table, later)."""
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 3)) + three_d6(10)
    game = final_call_game(30, OffCall.INSIDE_RUN, RUN_EVEN, dice, offense=Team.AWAY)
    before = game.state
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    home_view = text(Narrator(NAMES, Team.AWAY).lines(events))
    away_view = text(Narrator(Names("Hawks", "Bears", you=Team.AWAY), Team.AWAY).lines(events))
    assert home_view.endswith("2nd and 7 at their own 33.")
    assert away_view.endswith("2nd and 7 at your own 33.")
    assert score_words((7, 3), Names("Hawks", "Bears", you=Team.AWAY)) == "Bears 3, Hawks 7"
    assert before.down is not None
    assert human_spots(before, Team.AWAY) == (before.down.line, before.down.marker, True)
    assert human_spots(before, Team.HOME) == (70, 60, False)
    match = Match.against_computer(1, human=Team.AWAY)
    assert match.human is Team.AWAY and Match.against_computer(1).human is Team.HOME


@pytest.mark.parametrize("you_attack", [True, False])
def test_short_final_calls_say_only_theirs_and_the_log_keeps_both(you_attack: bool) -> None:
    """The player's own call was the last thing they chose: short verbosity names the other
    team's alone, and the game log (`logged`) keeps the whole matchup."""
    event = ev.FinalCallsRevealed(OffCall.DEEP_PASS, DefCall.BLITZ)
    (line,) = told([event], "short", offense=Team.HOME if you_attack else Team.AWAY)
    assert line.text == ("Bears: Blitz." if you_attack else "Bears: Deep Pass.")
    assert line.logged == "Deep Pass against Blitz."
    (normal,) = told([event], "normal")
    assert normal.text == "Deep Pass against Blitz." and not normal.logged


@pytest.mark.parametrize("swapped", [True, False])
def test_short_verbosity_confirms_your_own_swap_in_a_word(swapped: bool) -> None:
    """Issue 59, 8: at short verbosity the player who brought a card in heard nothing of it
    before the other team's answer. The card brought in is said in a word ("Slot Receiver
    in."), and only for a swap: a keep stays silent, and the other team's answer follows."""
    offense = Hand((Player.POWER_BACK, Player.SCATBACK),
                   (OffCall.INSIDE_RUN, OffCall.DRAW, OffCall.SCREEN))
    defense = Hand((Player.NOSE_TACKLE, Player.EDGE_SETTER),
                   (DefCall.BLITZ, DefCall.PREVENT, DefCall.CONTAIN))
    game = Game.from_kickoff(random.Random(3), Team.HOME)
    step(game, ChooseSnap(SnapChoice.PLAY))
    step(game, PickHand(offense), PickHand(defense))
    mine = Swap(SwapKind.PLAYER, Player.SCATBACK, Player.SLOT_RECEIVER) if swapped \
        else Swap.keep()
    events = step(game, PickSwap(mine), PickSwap(Swap.keep()))
    (line,) = [line for line in told(events, "short") if line.cue == "reveal"]
    assert line.text.startswith("Slot Receiver in. ") is swapped, line.text
    assert "Scatback" not in line.text  # a word, not the whole swap again
    assert line.text.endswith("Bears keep.")  # then the other team's answer
    words = len(line.text.split())
    assert words <= 5  # a word past the card: the budget stays short
