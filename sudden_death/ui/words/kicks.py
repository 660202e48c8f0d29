"""The kicks before the snap, as the menus offer them: where a punt lands, a field goal's chance,
and on the last drive what each would decide."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...engine.field import (
    KICK_DICE,
    LONGEST_FIELD_GOAL,
    TOUCHBACK_SPOT,
    field_goal_distance,
    field_goal_needs,
    is_last_drive,
)
from ...engine.game import FIELD_GOAL_POINTS
from ...engine.kicks import field_goal_chance, punt_outcomes
from ...engine.state import GameState
from ...language import _, n_, p_
from .numbers import percent_words
from .phrases import Names, spot_words


@dataclass(frozen=True)
class KickOption:
    """A kick as the snap menu offers it: its label, why it can't be tried, and the question to
    confirm it when it would end the game with the player certain to lose."""

    label: str
    available: bool = True
    reason: str = ""
    confirm: str = ""


def _verdict(mine: int, theirs: int, overtime: bool = False) -> str:
    """What the scores would mean if the game ended now; level goes to overtime with it."""
    if mine == theirs:
        return "overtime" if overtime else "ties"
    return "wins" if mine > theirs else "loses"


def punt_option(state: GameState, names: Names, with_odds: bool = False) -> KickOption:
    """Where each of the three punts would land, and what it means on the last drive."""
    down = state.down
    assert down is not None
    chances: dict[str, Fraction] = {}  # each landing (or the touchback) and its chance
    # Translators: where a punt can end up: "a touchback to their own 20".
    touchback = _("a touchback to their own {yards}").format(yards=TOUCHBACK_SPOT)
    for outcome in punt_outcomes(down.line):
        landing = down.line + outcome.net  # the player punts: their own offense's spot
        place = touchback if outcome.touchback else spot_words(landing, names.you, names.you)
        chances[place] = chances.get(place, Fraction(0)) + outcome.chance
    # Translators: a place a punt can land and its chance: "their 30 (33 percent)".
    places = [_("{place} ({chance})").format(place=place, chance=percent_words(chance))
              if with_odds else place
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
    if not is_last_drive(state.drive, state.overtime):
        return KickOption(label)
    mine, theirs = state.scores[names.you], state.scores[names.you.other]
    verdict = _verdict(mine, theirs, state.overtime)
    label = _ends_game(label, verdict)
    confirm = ""
    if verdict == "loses":
        confirm = _("A punt ends the game with the {team} ahead, {theirs} to {mine}: you "
                    "would lose. Punt anyway?").format(team=names.theirs, theirs=theirs, mine=mine)
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
            # Translators: added to a field goal's menu label ({label}) on the last drive of a
            # game with the overtime house rule.
            "overtime": _("{label}; either way the game goes to overtime"),
            # Translators: added to a field goal's menu label ({label}) on the last drive.
            "loses": _("{label}; it ends the game and you lose either way"),
        }
    else:
        sentences = {
            # Translators: added to a kick's menu label ({label}) on the last drive.
            "wins": _("{label}; it ends the game and you win"),
            # Translators: added to a kick's menu label ({label}) on the last drive.
            "ties": _("{label}; it ends the game and it's a tie"),
            # Translators: added to a kick's menu label ({label}) on the last drive of a game
            # with the overtime house rule.
            "overtime": _("{label}; tied, the game goes to overtime"),
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
        # Translators: what a kick would do to the game, as in "good wins, a miss goes to
        # overtime".
        "overtime": p_("kick result", "goes to overtime"),
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
    if not is_last_drive(state.drive, state.overtime):
        return KickOption(label)
    mine, theirs = state.scores[names.you], state.scores[names.you.other]
    good = _verdict(mine + FIELD_GOAL_POINTS, theirs, state.overtime)
    missed = _verdict(mine, theirs, state.overtime)
    if good == missed:
        label = _ends_game(label, good, either_way=True)
    elif "overtime" in (good, missed):
        # Translators: added to the field goal's menu label ({label}) on the last drive of a
        # game with the overtime house rule: "good wins, a miss goes to overtime".
        label = _("{label}; good {good}, a miss {missed}").format(
            label=label, good=_kick_verdict(good), missed=_kick_verdict(missed))
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

