"""The small phrases everything else is built from: spots, downs, yards, scores, hands, needs
and kicks, always from the human player's side ("your own 25", "their 30").

The numbers come from the engine's own constants and odds, so a rule change changes the words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..engine.cards import card_name
from ..engine.field import (
    GOAL_LINE,
    KICK_DICE,
    LONGEST_FIELD_GOAL,
    TOUCHBACK_SPOT,
    Down,
    field_goal_distance,
    field_goal_needs,
)
from ..engine.game import EXTRA_POINT_POINTS, FIELD_GOAL_POINTS, TOUCHDOWN_POINTS
from ..engine.kicks import field_goal_chance, punt_outcomes
from ..engine.state import GameEnd, GameState, Hand, Outcome, Team
from .explorer_words import percent_words

HUMAN = Team.HOME
MIDFIELD = GOAL_LINE // 2
LAST_DRIVE = 2


@dataclass(frozen=True)
class Names:
    """The two team names: the player's first."""

    home: str
    away: str

    def of(self, team: Team) -> str:
        return self.home if team is Team.HOME else self.away


# -- numbers, spots, downs ---------------------------------------------------------------------


def ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def spot_words(spot: int, offense: Team) -> str:
    """A spot (yards from the offense's goal line) as the player hears it."""
    if spot == MIDFIELD:
        return "midfield"
    mine = offense is HUMAN
    if spot < MIDFIELD:
        return f"your own {spot}" if mine else f"their own {spot}"
    return f"their {GOAL_LINE - spot}" if mine else f"your {GOAL_LINE - spot}"


def distance_words(down: Down) -> str:
    return "goal" if down.goal_to_go else str(down.distance)


def down_words(down: Down, offense: Team) -> str:
    """ "2nd and 7 at your own 31", "1st and goal at their 6"."""
    return f"{ordinal(down.number)} and {distance_words(down)} at {spot_words(down.line, offense)}"


def gain_words(yards: int) -> str:
    """ "a gain of 5 yards", "a loss of 3 yards", "no gain"."""
    if yards > 0:
        return f"a gain of {plural(yards, 'yard')}"
    if yards < 0:
        return f"a loss of {plural(-yards, 'yard')}"
    return "no gain"


def dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return str(dice[0])
    return f"{', '.join(str(d) for d in dice)}, total {sum(dice)}"


def score_words(scores: tuple[int, int], names: Names) -> str:
    return f"{names.home} {scores[0]}, {names.away} {scores[1]}"


def hand_words(hand: Hand) -> str:
    """ "Power Back, Scatback; Inside Run, Draw Play, Deep Pass"."""
    players = ", ".join(card_name(p) for p in hand.players)
    calls = ", ".join(card_name(c) for c in hand.calls)
    return f"{players}; {calls}"


# -- what a side needs (S on the last drive) ---------------------------------------------------

_SCORES = (
    (FIELD_GOAL_POINTS, "a field goal"),
    (TOUCHDOWN_POINTS, "a touchdown"),
    (TOUCHDOWN_POINTS + EXTRA_POINT_POINTS, "a touchdown and the extra point"),
)


def needs_words(state: GameState, names: Names) -> str:
    """On the last drive: what the team with the ball needs to tie or win ("" otherwise)."""
    if state.drive != LAST_DRIVE or state.offense is None or state.outcome is not None:
        return ""
    offense = state.offense
    who = "You need" if offense is HUMAN else f"The {names.of(offense)} need"
    behind = state.scores[offense.other] - state.scores[offense]
    if behind < 0:
        return f"{who} nothing more: a stop or any score still wins."
    if behind == 0:
        return f"{who} any score to win; without one it's a tie."
    tie = next((words for points, words in _SCORES if points == behind), "")
    win = next((words for points, words in _SCORES if points > behind), "")
    if tie and win:
        return f"{who} {tie} to tie, {win} to win."
    if win:
        return f"{who} {win} to win."
    return f"{who} {tie} just to tie; nothing wins it."


def situation_words(state: GameState, names: Names) -> str:
    """What S says: the score, the drive, who has the ball, the down, and what is needed."""
    words = f"Score: {score_words(state.scores, names)}."
    if state.outcome is not None:
        return words + " The game is over."
    if state.offense is None:
        return words + " The game has not kicked off yet."
    role = "on offense" if state.offense is HUMAN else "on defense"
    words += f" Drive {state.drive} of {LAST_DRIVE}, you are {role}."
    if state.down is not None:
        words += f" {names.of(state.offense)} ball, {down_words(state.down, state.offense)}."
    needs = needs_words(state, names)
    return f"{words} {needs}" if needs else words


def outcome_words(outcome: Outcome, names: Names) -> str:
    """The game-over message; it always begins with "Final score"."""
    words = f"Final score: {score_words(outcome.scores, names)}."
    if outcome.end is GameEnd.CONCEDED:
        loser = outcome.winner.other if outcome.winner is not None else HUMAN
        words += f" The {names.of(loser)} conceded."
    elif outcome.end is GameEnd.SAFETY:
        words += " It ended on a safety."
    if outcome.winner is None:
        return words + " It ends in a tie."
    if outcome.winner is HUMAN:
        return words + f" The {names.home} win it!"
    return words + f" The {names.away} hold on and win."


# -- kicks before the snap ---------------------------------------------------------------------


@dataclass(frozen=True)
class KickOption:
    """A kick as the snap menu offers it: its label, why it can't be tried, and the question to
    confirm it when it would end the game with the player certain to lose."""

    label: str
    available: bool = True
    reason: str = ""
    confirm: str = ""


def _verdict(mine: int, theirs: int) -> str:
    return "wins" if mine > theirs else ("ties" if mine == theirs else "loses")


def punt_option(state: GameState, names: Names, detailed: bool = False) -> KickOption:
    """Where each of the three punts would land, and what it means on the last drive."""
    down = state.down
    assert down is not None
    chances: dict[str, Fraction] = {}  # each landing (or the touchback) and its chance
    touchback = f"a touchback to their own {TOUCHBACK_SPOT}"
    for outcome in punt_outcomes(down.line):
        place = touchback if outcome.touchback else spot_words(down.line + outcome.net, HUMAN)
        chances[place] = chances.get(place, Fraction(0)) + outcome.chance
    places = [f"{place} ({percent_words(chance)})" if detailed else place
              for place, chance in chances.items()]
    landings = [place for place in places if not place.startswith(touchback)]
    label = "Punt: "
    if landings:
        label += "lands at " + _either(landings)
    if len(landings) < len(places):
        label += (", or " if landings else "") + places[-1]
    if state.drive != LAST_DRIVE:
        return KickOption(label)
    mine, theirs = state.scores[HUMAN], state.scores[HUMAN.other]
    verdict = _verdict(mine, theirs)
    label += f"; it ends the game and {verdict_words(verdict)}"
    confirm = ""
    if verdict == "loses":
        confirm = (f"A punt ends the game with the {names.away} ahead, {theirs} to {mine}: you "
                   f"would lose. Punt anyway?")
    return KickOption(label, confirm=confirm)


def _either(words: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def verdict_words(verdict: str) -> str:
    return {"wins": "you win", "ties": "it's a tie", "loses": "you lose"}[verdict]


def field_goal_option(state: GameState, names: Names) -> KickOption:
    """Distance, the total it needs, its exact chance, and on the last drive what it decides."""
    down = state.down
    assert down is not None
    distance = field_goal_distance(down.line)
    needed = field_goal_needs(distance)
    chance = field_goal_chance(distance)
    if needed is None or chance is None:
        words = (f"Field goal: {distance} yards is too far; the longest is "
                 f"{LONGEST_FIELD_GOAL}")
        return KickOption(words, available=False, reason=words + ".")
    label = (f"Field goal: {distance} yards, needs {needed} or more on {KICK_DICE} dice, "
             f"{percent_words(chance)}")
    if state.drive != LAST_DRIVE:
        return KickOption(label)
    mine, theirs = state.scores[HUMAN], state.scores[HUMAN.other]
    good, missed = _verdict(mine + FIELD_GOAL_POINTS, theirs), _verdict(mine, theirs)
    if good == missed:
        label += f"; it ends the game and {verdict_words(good)} either way"
    else:
        label += f"; it ends the game: good {good}, a miss {missed}"
    confirm = ""
    if good == "loses":
        confirm = (f"Even a good field goal ends the game behind, {mine + FIELD_GOAL_POINTS} to "
                   f"{theirs}: you would lose. Kick anyway?")
    return KickOption(label, confirm=confirm)


def kick_summary(state: GameState) -> str:
    """One short clause for a fourth down: the field goal's distance and chance, if in range."""
    down = state.down
    assert down is not None
    distance = field_goal_distance(down.line)
    chance = field_goal_chance(distance)
    if chance is None:
        return "too far for a field goal"
    return f"a {distance} yard field goal is {percent_words(chance)}"


def human_spots(state: GameState) -> tuple[int, int, bool] | None:
    """(ball, first-down marker, you have the ball), counted from the human player's own goal
    line as the window and the field tone show them; None when no down is being played."""
    if state.down is None or state.offense is None:
        return None
    mine = state.offense is HUMAN
    if mine:
        return state.down.line, state.down.marker, True
    return GOAL_LINE - state.down.line, GOAL_LINE - state.down.marker, False
