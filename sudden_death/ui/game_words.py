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
from ..language import N_, _, down_ordinal, n_, p_
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


def spot_words(spot: int, offense: Team) -> str:
    """A spot (yards from the offense's goal line) as the player hears it."""
    if spot == MIDFIELD:
        # Translators: the spot on the field halfway between the goal lines, as in
        # "1st and 10 at midfield".
        return _("midfield")
    mine = offense is HUMAN
    if spot < MIDFIELD:
        if mine:
            # Translators: a spot on the field in the player's own half, counted from the
            # player's own goal line, as in "1st and 10 at your own 25".
            return _("your own {yards}").format(yards=spot)
        # Translators: a spot on the field in the computer team's own half (they have the ball),
        # counted from their own goal line, as in "1st and 10 at their own 25".
        return _("their own {yards}").format(yards=spot)
    if mine:
        # Translators: a spot on the field in the other team's half, counted from their goal
        # line, as in "1st and 10 at their 30" (the player has the ball).
        return _("their {yards}").format(yards=GOAL_LINE - spot)
    # Translators: a spot on the field in the player's half, counted from the player's goal
    # line, as in "1st and 10 at your 30" (the other team has the ball).
    return _("your {yards}").format(yards=GOAL_LINE - spot)


def down_words(down: Down, offense: Team, short: bool = False) -> str:
    """ "2nd and 7 at your own 31", "1st and goal at their 6"; short: "2nd and 7, your own 31"."""
    number, spot = down_ordinal(down.number), spot_words(down.line, offense)
    if down.goal_to_go:
        if short:
            # Translators: the down, short form: "1st and goal, their 6" (the goal line is the
            # line to gain; {spot} is a spot such as "their 6").
            return _("{down} and goal, {spot}").format(down=number, spot=spot)
        # Translators: the down: "1st and goal at their 6" (the goal line is the line to
        # gain; {spot} is a spot such as "their 6").
        return _("{down} and goal at {spot}").format(down=number, spot=spot)
    if short:
        # Translators: the down, short form: "2nd and 7, your own 31" (7 yards to go for a
        # first down; {spot} is a spot such as "your own 31").
        return _("{down} and {distance}, {spot}").format(
            down=number, distance=down.distance, spot=spot)
    # Translators: the down: "2nd and 7 at your own 31" (7 yards to go for a first down;
    # {spot} is a spot such as "your own 31").
    return _("{down} and {distance} at {spot}").format(
        down=number, distance=down.distance, spot=spot)


def gain_words(yards: int) -> str:
    """ "a gain of 5 yards", "a loss of 3 yards", "no gain"."""
    if yards > 0:
        # Translators: part of a sentence, as in "Complete, a gain of 5 yards."
        return n_("a gain of {count} yard", "a gain of {count} yards", yards).format(count=yards)
    if yards < 0:
        # Translators: part of a sentence, as in "Complete, a loss of 3 yards."
        return n_("a loss of {count} yard", "a loss of {count} yards", -yards).format(
            count=-yards)
    # Translators: part of a sentence, as in "Complete, no gain."
    return _("no gain")


def dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return str(dice[0])
    # Translators: the dice of a roll and their sum: "3, 5, 2, total 10".
    return _("{dice}, total {total}").format(dice=", ".join(str(d) for d in dice),
                                             total=sum(dice))


def score_words(scores: tuple[int, int], names: Names) -> str:
    # Translators: the score, the player's team first: "Hawks 7, Bears 3".
    return _("{home} {home_points}, {away} {away_points}").format(
        home=names.home, home_points=scores[0], away=names.away, away_points=scores[1])


def hand_words(hand: Hand) -> str:
    """ "Power Back, Scatback; Inside Run, Draw Play, Deep Pass"."""
    players = ", ".join(_(card_name(p)) for p in hand.players)
    calls = ", ".join(_(card_name(c)) for c in hand.calls)
    # Translators: a hand of cards: the players, then the calls, each a list of card names:
    # "Power Back, Scatback; Inside Run, Draw Play, Deep Pass".
    return _("{players}; {calls}").format(players=players, calls=calls)


# -- what a side needs (S on the last drive) ---------------------------------------------------

_SCORES = (
    # Translators: what a team needs, as in "You need a field goal to tie, a touchdown to win."
    (FIELD_GOAL_POINTS, N_("a field goal")),
    # Translators: what a team needs, as in "You need a touchdown to win."
    (TOUCHDOWN_POINTS, N_("a touchdown")),
    # Translators: what a team needs, as in "You need a touchdown and the extra point to win."
    (TOUCHDOWN_POINTS + EXTRA_POINT_POINTS, N_("a touchdown and the extra point")),
)


def needs_words(state: GameState, names: Names) -> str:
    """On the last drive: what the team with the ball needs to tie or win ("" otherwise)."""
    if state.drive != LAST_DRIVE or state.offense is None or state.outcome is not None:
        return ""
    offense = state.offense
    you = offense is HUMAN
    team = names.of(offense)
    behind = state.scores[offense.other] - state.scores[offense]
    if behind < 0:
        if you:
            return _("You need nothing more: a stop or any score still wins.")
        return _("The {team} need nothing more: a stop or any score still wins.").format(
            team=team)
    if behind == 0:
        if you:
            return _("You need any score to win; without one it's a tie.")
        return _("The {team} need any score to win; without one it's a tie.").format(team=team)
    tie = next((_(words) for points, words in _SCORES if points == behind), "")
    win = next((_(words) for points, words in _SCORES if points > behind), "")
    if tie and win:
        if you:
            # Translators: {tie} and {win} are scores such as "a field goal" or "a touchdown".
            return _("You need {tie} to tie, {win} to win.").format(tie=tie, win=win)
        # Translators: {tie} and {win} are scores such as "a field goal" or "a touchdown".
        return _("The {team} need {tie} to tie, {win} to win.").format(
            team=team, tie=tie, win=win)
    if win:
        if you:
            # Translators: {win} is a score such as "a field goal" or "a touchdown".
            return _("You need {win} to win.").format(win=win)
        # Translators: {win} is a score such as "a field goal" or "a touchdown".
        return _("The {team} need {win} to win.").format(team=team, win=win)
    if you:
        # Translators: {tie} is a score such as "a touchdown and the extra point".
        return _("You need {tie} just to tie; nothing wins it.").format(tie=tie)
    # Translators: {tie} is a score such as "a touchdown and the extra point".
    return _("The {team} need {tie} just to tie; nothing wins it.").format(team=team, tie=tie)


def situation_words(state: GameState, names: Names) -> str:
    """What S says: the score, the drive, who has the ball, the down, and what is needed."""
    words = [_("Score: {score}.").format(score=score_words(state.scores, names))]
    if state.outcome is not None:
        words.append(_("The game is over."))
        return " ".join(words)
    if state.offense is None:
        words.append(_("The game has not kicked off yet."))
        return " ".join(words)
    if state.offense is HUMAN:
        words.append(_("Drive {drive} of {drives}, you are on offense.").format(
            drive=state.drive, drives=LAST_DRIVE))
    else:
        words.append(_("Drive {drive} of {drives}, you are on defense.").format(
            drive=state.drive, drives=LAST_DRIVE))
    if state.down is not None:
        # Translators: who has the ball and the down: "Hawks ball, 2nd and 7 at your own 31."
        words.append(_("{team} ball, {down}.").format(
            team=names.of(state.offense), down=down_words(state.down, state.offense)))
    needs = needs_words(state, names)
    if needs:
        words.append(needs)
    return " ".join(words)


def outcome_words(outcome: Outcome, names: Names) -> str:
    """The game-over message; it always begins with "Final score"."""
    words = [_("Final score: {score}.").format(score=score_words(outcome.scores, names))]
    if outcome.end is GameEnd.CONCEDED:
        loser = outcome.winner.other if outcome.winner is not None else HUMAN
        words.append(_("The {team} conceded.").format(team=names.of(loser)))
    elif outcome.end is GameEnd.SAFETY:
        words.append(_("It ended on a safety."))
    if outcome.winner is None:
        words.append(_("It ends in a tie."))
    elif outcome.winner is HUMAN:
        words.append(_("The {team} win it!").format(team=names.home))
    else:
        words.append(_("The {team} hold on and win.").format(team=names.away))
    return " ".join(words)


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
    # Translators: where a punt can end up: "a touchback to their own 20".
    touchback = _("a touchback to their own {yards}").format(yards=TOUCHBACK_SPOT)
    for outcome in punt_outcomes(down.line):
        place = touchback if outcome.touchback else spot_words(down.line + outcome.net, HUMAN)
        chances[place] = chances.get(place, Fraction(0)) + outcome.chance
    # Translators: a place a punt can land and its chance: "their 30 (33 percent)".
    places = [_("{place} ({chance})").format(place=place, chance=percent_words(chance))
              if detailed else place
              for place, chance in chances.items()]
    landings = [place for place in places if not place.startswith(touchback)]
    if landings and len(landings) < len(places):
        # Translators: a menu label; {places} is a list of spots ("their 30, their 35 or their
        # 40"), {touchback} is "a touchback to their own 20".
        label = _("Punt: lands at {places}, or {touchback}").format(
            places=_either(landings), touchback=places[-1])
    elif landings:
        # Translators: a menu label; {places} is a list of spots: "their 30, their 35 or their 40".
        label = _("Punt: lands at {places}").format(places=_either(landings))
    else:
        # Translators: a menu label; {touchback} is "a touchback to their own 20".
        label = _("Punt: {touchback}").format(touchback=places[-1])
    if state.drive != LAST_DRIVE:
        return KickOption(label)
    mine, theirs = state.scores[HUMAN], state.scores[HUMAN.other]
    verdict = _verdict(mine, theirs)
    label = _ends_game(label, verdict)
    confirm = ""
    if verdict == "loses":
        confirm = _("A punt ends the game with the {team} ahead, {theirs} to {mine}: you "
                    "would lose. Punt anyway?").format(team=names.away, theirs=theirs, mine=mine)
    return KickOption(label, confirm=confirm)


def _either(words: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    if len(words) == 1:
        return words[0]
    # Translators: the last of a list of choices: "their 30, their 35 or their 40"; {items}
    # are the others, separated by commas.
    return _("{items} or {last}").format(items=", ".join(words[:-1]), last=words[-1])


def _ends_game(label: str, verdict: str, either_way: bool = False) -> str:
    """A kick's label ({label}) with what it decides on the last drive."""
    if either_way:
        sentences = {
            # Translators: added to a field goal's menu label ({label}) on the last drive.
            "wins": _("{label}; it ends the game and you win either way"),
            # Translators: added to a field goal's menu label ({label}) on the last drive.
            "ties": _("{label}; it ends the game and it's a tie either way"),
            # Translators: added to a field goal's menu label ({label}) on the last drive.
            "loses": _("{label}; it ends the game and you lose either way"),
        }
    else:
        sentences = {
            # Translators: added to a kick's menu label ({label}) on the last drive.
            "wins": _("{label}; it ends the game and you win"),
            # Translators: added to a kick's menu label ({label}) on the last drive.
            "ties": _("{label}; it ends the game and it's a tie"),
            # Translators: added to a kick's menu label ({label}) on the last drive.
            "loses": _("{label}; it ends the game and you lose"),
        }
    return sentences[verdict].format(label=label)


def _kick_verdict(verdict: str) -> str:
    """What a field goal would do, as in "good wins, a miss ties"."""
    words = {
        # Translators: what a kick would do to the game, as in "good wins, a miss loses".
        "wins": p_("kick result", "wins"),
        # Translators: what a kick would do to the game, as in "good wins, a miss ties".
        "ties": p_("kick result", "ties"),
        # Translators: what a kick would do to the game, as in "good ties, a miss loses".
        "loses": p_("kick result", "loses"),
    }
    return words[verdict]


def field_goal_option(state: GameState, names: Names) -> KickOption:
    """Distance, the total it needs, its exact chance, and on the last drive what it decides."""
    down = state.down
    assert down is not None
    distance = field_goal_distance(down.line)
    needed = field_goal_needs(distance)
    chance = field_goal_chance(distance)
    if needed is None or chance is None:
        # Translators: a menu label for a field goal out of range; {longest} is in yards.
        words = n_("Field goal: {distance} yard is too far; the longest is {longest}",
                   "Field goal: {distance} yards is too far; the longest is {longest}",
                   distance).format(distance=distance, longest=LONGEST_FIELD_GOAL)
        # Translators: why a field goal cannot be tried; {longest} is in yards.
        reason = n_("Field goal: {distance} yard is too far; the longest is {longest}.",
                    "Field goal: {distance} yards is too far; the longest is {longest}.",
                    distance).format(distance=distance, longest=LONGEST_FIELD_GOAL)
        return KickOption(words, available=False, reason=reason)
    # Translators: a menu label: "Field goal: 35 yards, needs 7 or more on 2 dice, 58 percent".
    # {dice} is how many dice are rolled (always 2); {chance} is "58 percent".
    label = n_("Field goal: {distance} yard, needs {needed} or more on {dice} dice, {chance}",
               "Field goal: {distance} yards, needs {needed} or more on {dice} dice, {chance}",
               distance).format(distance=distance, needed=needed, dice=KICK_DICE,
                                chance=percent_words(chance))
    if state.drive != LAST_DRIVE:
        return KickOption(label)
    mine, theirs = state.scores[HUMAN], state.scores[HUMAN.other]
    good, missed = _verdict(mine + FIELD_GOAL_POINTS, theirs), _verdict(mine, theirs)
    if good == missed:
        label = _ends_game(label, good, either_way=True)
    else:
        # Translators: added to the field goal's menu label ({label}) on the last drive:
        # what happens if the kick is good, and if it misses ({good}, {missed}: "wins",
        # "ties" or "loses").
        label = _("{label}; it ends the game: good {good}, a miss {missed}").format(
            label=label, good=_kick_verdict(good), missed=_kick_verdict(missed))
    confirm = ""
    if good == "loses":
        confirm = _("Even a good field goal ends the game behind, {mine} to {theirs}: you would "
                    "lose. Kick anyway?").format(mine=mine + FIELD_GOAL_POINTS, theirs=theirs)
    return KickOption(label, confirm=confirm)


def kick_summary(state: GameState) -> str:
    """One short clause for a fourth down: the field goal's distance and chance, if in range."""
    down = state.down
    assert down is not None
    distance = field_goal_distance(down.line)
    chance = field_goal_chance(distance)
    if chance is None:
        # Translators: one clause of the fourth-down prompt ("Fourth down, {field_goal}.").
        return _("too far for a field goal")
    # Translators: one clause of the fourth-down prompt: "a 35 yard field goal is 58
    # percent" ({chance} is "58 percent").
    return n_("a {distance} yard field goal is {chance}",
              "a {distance} yard field goal is {chance}",
              distance).format(distance=distance, chance=percent_words(chance))


def human_spots(state: GameState) -> tuple[int, int, bool] | None:
    """(ball, first-down marker, you have the ball), counted from the human player's own goal
    line as the window and the field tone show them; None when no down is being played."""
    if state.down is None or state.offense is None:
        return None
    mine = state.offense is HUMAN
    if mine:
        return state.down.line, state.down.marker, True
    return GOAL_LINE - state.down.line, GOAL_LINE - state.down.marker, False
