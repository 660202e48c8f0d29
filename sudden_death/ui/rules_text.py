"""How to play, in short sections a listener can step through one at a time.

Our own wording of the rules (the seed and SPEC are the authority); each section is a few
sentences so that nobody has to hold a whole page in their head. Every number comes from the
engine's constants, so the rules read aloud cannot drift from the rules played.
"""

from __future__ import annotations

from ..engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ..engine.card_model import Role
from ..engine.cards import calls_for, players_for
from ..engine.field import (
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
from ..engine.game import FIELD_GOAL_POINTS, SAFETY_POINTS, TOUCHDOWN_POINTS
from ..engine.resolve import MAX_BAND, MIN_BAND, SACK_DICE

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


def number_word(n: int) -> str:
    """Small counts read as words ("four downs"), anything larger as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def _or_list(values: list[int]) -> str:
    """ "30, 40 or 50" """
    return ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}"


def rules_sections() -> list[tuple[str, str]]:
    """The sections, in reading order: (title, text)."""
    downs, gain = number_word(LAST_DOWN), number_word(FIRST_DOWN_YARDS)
    band = f"minus {-MIN_BAND} to plus {MAX_BAND}"
    kept = f"minus {-MIN_BAND} and plus {MAX_BAND}"
    return [
        ("The idea",
         "You coach one football team against the computer. Each team gets the ball once, for "
         "one drive. Whoever has more points after both drives wins; equal points are a tie. "
         "There is no clock."),
        ("Starting",
         "You name the teams and call the coin. Whoever wins the toss picks: take the ball "
         "first, or defend first. Each drive starts at the offense's own "
         f"{OPENING_SPOT} yard line."),
        ("Downs",
         f"The offense has {downs} downs, or tries, to gain {gain} yards. Gain them and you get "
         f"{downs} fresh downs. Fall short on {_ordinal(LAST_DOWN)} down and the other team "
         "takes over right there. Reach the far goal line for a touchdown."),
        ("Your cards",
         f"Every down, both sides secretly pick {PLAYERS_PER_HAND} featured players out of "
         f"{len(players_for(Role.OFFENSE))}, and {CALLS_PER_HAND} play calls out of "
         f"{len(calls_for(Role.OFFENSE))}. The offense picks offensive cards, the defense "
         "defensive ones. Cards come back every down."),
        ("Reveal and swap",
         "Both hands are shown together. Then each side may keep everything, swap one player, "
         "or swap one call, never both. The new hands are shown together too."),
        ("The final call",
         f"Each side now picks one call of its {number_word(CALLS_PER_HAND)}, and both are "
         "revealed. The computer always commits before it sees your choice, and it picks at "
         "random."),
        ("The band",
         f"The two final calls meet in a matchup worth {band}. Each featured player whose card "
         "names the offense's final call pushes it: an offensive player adds 1, a defensive "
         f"player takes 1 away. The total, kept between {kept}, is the band. Higher bands "
         "mean bigger gains and fewer disasters for the offense."),
        ("What can happen",
         "Runs gain yards from a table for the band. Passes can be complete, incomplete, "
         f"intercepted, or sacked; a sack loses {number_word(SACK_DICE)} dice worth of yards. "
         "After a run, a catch or a sack the ball may come loose, and either side recovers it "
         "half the time. Nobody ever runs back a turnover."),
        ("Scoring",
         f"A touchdown is {TOUCHDOWN_POINTS} points, then an automatic extra point try: "
         f"{KICK_DICE} dice, {EXTRA_POINT_NEEDS} or more is good. A field goal is "
         f"{FIELD_GOAL_POINTS}. A safety, being tackled in your own end zone, gives the other "
         f"side {SAFETY_POINTS} points and ends the whole game on the spot."),
        ("Kicking",
         "On offense you may punt or try a field goal before any down, instead of picking "
         f"cards. A punt rolls {KICK_DICE} dice and goes "
         f"{_or_list([net for _total, net in PUNT_NETS])} yards. A field goal's length is the "
         f"distance to the goal line plus {FIELD_GOAL_EXTRA} yards; longer kicks need higher "
         f"dice, and beyond {LONGEST_FIELD_GOAL} yards you cannot try. The computer kicks on "
         f"{_ordinal(LAST_DOWN)} down."),
        ("The second drive",
         "After a touchdown or a good field goal, the other team starts at its own "
         f"{OPENING_SPOT}. After a punt, it starts where the ball came down, or at its "
         f"{TOUCHBACK_SPOT} on a touchback. After a turnover or a failed {_ordinal(LAST_DOWN)} "
         "down, it starts where the ball was. After a missed field goal, it starts at the "
         f"kicking spot, or its own {TOUCHBACK_SPOT} if that is better."),
        ("Listening tips",
         "S tells the score and the down. F plays a tone for the ball: higher and further right "
         "means closer to their goal. Comma and period step through everything said so far. "
         "O opens settings for speech speed, voice and how much is said. F1 helps anywhere."),
    ]


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")
