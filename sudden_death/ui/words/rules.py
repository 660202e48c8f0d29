"""How to play, in short sections a listener can step through one at a time.

Our own wording of the rules (the seed and SPEC are the authority); each section is a few
sentences so that nobody has to hold a whole page in their head. Every number comes from the
engine's constants, so the rules read aloud cannot drift from the rules played.
"""

from __future__ import annotations

from ...engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ...engine.card_model import Role
from ...engine.cards import calls_for, players_for
from ...engine.field import (
    EXTRA_POINT_NEEDS,
    FIELD_GOAL_EXTRA,
    FIRST_DOWN_YARDS,
    KICK_DICE,
    LAST_DOWN,
    LONGEST_FIELD_GOAL,
    OPENING_SPOT,
    PUNT_NETS,
    TOUCHBACK_SPOT,
)
from ...engine.game import FIELD_GOAL_POINTS, SAFETY_POINTS, TOUCHDOWN_POINTS
from ...engine.resolve import MAX_BAND, MIN_BAND, SACK_DICE
from ...language import _, down_ordinal, n_, p_
from ..keys.keymap import KeyMap


def number_word(n: int) -> str:
    """Small counts read as words ("four downs"), anything larger as digits."""
    words = (
        # Translators: small numbers spelled out, as in "four downs" and "two dice".
        p_("number", "zero"), p_("number", "one"), p_("number", "two"), p_("number", "three"),
        p_("number", "four"), p_("number", "five"), p_("number", "six"),
        p_("number", "seven"), p_("number", "eight"), p_("number", "nine"),
        p_("number", "ten"),
    )
    return words[n] if 0 <= n < len(words) else str(n)


def _or_list(values: list[int]) -> str:
    """ "30, 40 or 50" """
    if len(values) == 1:
        return str(values[0])
    head = ", ".join(str(v) for v in values[:-1])
    # Translators: the last of a list of choices: "30, 40 or 50".
    return _("{items} or {last}").format(items=head, last=values[-1])


def _yards(count: int, words: str | None = None) -> str:
    """ "17 yards", or with `words` ("ten") in place of the digits."""
    return n_("{count} yard", "{count} yards", count).format(
        count=str(count) if words is None else words)


def _points(count: int) -> str:
    return n_("{count} point", "{count} points", count).format(count=count)


def _dice(count: int) -> str:
    return n_("{count} die", "{count} dice", count).format(count=count)


def rules_sections(keys: KeyMap | None = None) -> list[tuple[str, str]]:
    """The sections, in reading order: (title, text); the keys they name as `keys` binds them
    (None: the game's own keys)."""
    keys = KeyMap.default() if keys is None else keys
    downs, last_down = number_word(LAST_DOWN), down_ordinal(LAST_DOWN, spelled=True)
    low, high = -MIN_BAND, MAX_BAND
    nets = [net for _total, net in PUNT_NETS]
    return [
        (p_("rules section", "The idea"),
         _("You coach one football team against the computer. Each team gets the ball once, "
           "for one drive. Whoever has more points after both drives wins; equal points are a "
           "tie. There is no clock.")),
        (p_("rules section", "Starting"),
         # Translators: {spot} is a yard line counted from the offense's own goal line.
         _("You name the teams and call the coin. Whoever wins the toss picks: take the ball "
           "first, or defend first. Each drive starts at the offense's own "
           "{spot} yard line.").format(spot=OPENING_SPOT)),
        (p_("rules section", "Downs"),
         # Translators: {downs} is a number in words ("four"); {yards} is a distance, as
         # "ten yards"; {down} is the last down spelled out ("fourth").
         n_("The offense has {downs} down, or try, to gain {yards}. Gain them and you get "
            "{downs} fresh down. Fall short on {down} down and the other team "
            "takes over right there. Reach the far goal line for a touchdown.",
            "The offense has {downs} downs, or tries, to gain {yards}. Gain them and you get "
            "{downs} fresh downs. Fall short on {down} down and the other team "
            "takes over right there. Reach the far goal line for a touchdown.",
            LAST_DOWN).format(downs=downs, down=last_down,
                              yards=_yards(FIRST_DOWN_YARDS, number_word(FIRST_DOWN_YARDS)))),
        (p_("rules section", "Your cards"),
         # Translators: {players} is a count of featured players, as "2 featured players", and
         # {calls} a count of play calls, as "3 play calls"; {all_players} and {all_calls} are
         # how many cards there are of each kind.
         _("Every down, both sides secretly pick {players} out of {all_players}, and {calls} "
           "out of {all_calls}. The offense picks offensive cards, the defense defensive ones. "
           "Cards come back every down.").format(
             players=n_("{count} featured player", "{count} featured players",
                        PLAYERS_PER_HAND).format(count=PLAYERS_PER_HAND),
             all_players=len(players_for(Role.OFFENSE)),
             calls=n_("{count} play call", "{count} play calls",
                      CALLS_PER_HAND).format(count=CALLS_PER_HAND),
             all_calls=len(calls_for(Role.OFFENSE)))),
        (p_("rules section", "Reveal and swap"),
         _("Both hands are shown together. Then each side may keep everything, swap one "
           "player, or swap one call, never both. The new hands are shown together too.")),
        (p_("rules section", "The final call"),
         # Translators: {calls} is how many calls each side holds, a number in words ("three").
         _("Each side now picks one call of its {calls}, and both are "
           "revealed. The computer always commits before it sees your choice. The rules' "
           "computer picks at random; the coach (Settings, Opponent) knows the card tables and "
           "picks what they favour.").format(calls=number_word(CALLS_PER_HAND))),
        (p_("rules section", "The band"),
         # Translators: bands run from "minus {low}" (worst for the offense) to "plus {high}".
         _("The two final calls meet in a matchup worth minus {low} to plus {high}. Each "
           "featured player whose card names the offense's final call pushes it: an offensive "
           "player adds 1, a defensive player takes 1 away. The total, kept between minus "
           "{low} and plus {high}, is the band. Higher bands mean bigger gains and fewer "
           "disasters for the offense.").format(low=low, high=high)),
        (p_("rules section", "What can happen"),
         # Translators: {dice} is a number in words ("two").
         n_("Runs gain yards from a table for the band. Passes can be complete, incomplete, "
            "intercepted, or sacked; a sack loses {dice} die worth of yards. After a run, a "
            "catch or a sack the ball may come loose, and either side recovers it half the "
            "time. Nobody ever runs back a turnover.",
            "Runs gain yards from a table for the band. Passes can be complete, incomplete, "
            "intercepted, or sacked; a sack loses {dice} dice worth of yards. After a run, a "
            "catch or a sack the ball may come loose, and either side recovers it half the "
            "time. Nobody ever runs back a turnover.",
            SACK_DICE).format(dice=number_word(SACK_DICE))),
        (p_("rules section", "Scoring"),
         # Translators: {touchdown} and {safety} are points, as "6 points"; {dice} is as
         # "3 dice"; {needs} is the dice total the extra point needs; {field_goal} is a bare
         # number of points.
         _("A touchdown is {touchdown}, then an automatic extra point try: {dice}, {needs} or "
           "more is good. A field goal is {field_goal}. A safety, being tackled in your own "
           "end zone, gives the other side {safety} and ends the whole game on the "
           "spot.").format(touchdown=_points(TOUCHDOWN_POINTS), dice=_dice(KICK_DICE),
                           needs=EXTRA_POINT_NEEDS, field_goal=FIELD_GOAL_POINTS,
                           safety=_points(SAFETY_POINTS))),
        (p_("rules section", "Kicking"),
         # Translators: {dice} is as "3 dice"; {nets} is the punt's distances, as
         # "30, 40 or 50 yards"; {extra} and {longest} are distances, as "17 yards"; {down} is
         # the last down spelled out ("fourth").
         _("On offense you may punt or try a field goal before any down, instead of picking "
           "cards. A punt rolls {dice} and goes {nets}. A field goal's length is the "
           "distance to the goal line plus {extra}; longer kicks need higher dice, and beyond "
           "{longest} you cannot try. The computer kicks on {down} down.").format(
             dice=_dice(KICK_DICE), nets=_yards(nets[-1], _or_list(nets)),
             extra=_yards(FIELD_GOAL_EXTRA), longest=_yards(LONGEST_FIELD_GOAL),
             down=last_down)),
        (p_("rules section", "The second drive"),
         # Translators: {opening} and {touchback} are yard lines counted from the team's own
         # goal line; {down} is the last down spelled out ("fourth").
         _("After a touchdown or a good field goal, the other team starts at its own "
           "{opening}. After a punt, it starts where the ball came down, or at its "
           "{touchback} on a touchback. After a turnover or a failed {down} down, it starts "
           "where the ball was. After a missed field goal, it starts at the kicking spot, or "
           "its own {touchback} if that is better.").format(
             opening=OPENING_SPOT, touchback=TOUCHBACK_SPOT, down=last_down)),
        (p_("rules section", "Listening tips"),
         # Translators: names in braces are keys: {situation}, {field_tone}, {history_back},
         # {history_forward}, {settings} and {help} as "S", "F", "Comma", "Period", "O or F2"
         # and "F1".
         keys.fill(_("{situation} tells the score and the down. {field_tone} plays a tone for "
                     "the ball: higher and further right means closer to their goal. "
                     "{history_back} and {history_forward} step through everything said so "
                     "far. {settings} opens settings for speech speed, voice and how much is "
                     "said. {help} helps anywhere."))),
    ]
