"""Exact odds of kicks, so a player hears what a punt or field goal would do before choosing.

Both kicks roll three six-sided dice; these are the exact chances of the totals the rules read,
counted over all 216 throws, never estimated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from .field import (
    KICK_DICE,
    PUNT_NETS,
    field_goal_needs,
    punt_receiving_spot,
)

DIE_SIDES = 6


@cache
def total_chances(count: int = KICK_DICE, sides: int = DIE_SIDES) -> dict[int, Fraction]:
    """The chance of each total of `count` dice with `sides` faces."""
    totals: dict[int, int] = {}
    for throw in product(range(1, sides + 1), repeat=count):
        total = sum(throw)
        totals[total] = totals.get(total, 0) + 1
    throws = sides**count
    return {total: Fraction(n, throws) for total, n in sorted(totals.items())}


def chance_at_least(needed: int, count: int = KICK_DICE) -> Fraction:
    """The chance that `count` dice total `needed` or more."""
    return sum((p for total, p in total_chances(count).items() if total >= needed), Fraction(0))


def field_goal_chance(distance: int) -> Fraction | None:
    """The chance a field goal of `distance` yards is good, or None when it is too long."""
    needed = field_goal_needs(distance)
    return None if needed is None else chance_at_least(needed)


@dataclass(frozen=True)
class PuntOutcome:
    """One of the three punt results: its net yards, chance and where the other team starts."""

    net: int
    chance: Fraction
    receiving_spot: int  # the receiving team's own coordinates
    touchback: bool


def punt_outcomes(line: int) -> tuple[PuntOutcome, ...]:
    """The three possible punts from `line`, shortest first."""
    chances = total_chances()
    outcomes = []
    lowest = min(chances)
    for highest, net in PUNT_NETS:
        chance = sum((p for total, p in chances.items() if lowest <= total <= highest),
                     Fraction(0))
        spot, touchback = punt_receiving_spot(line, net)
        outcomes.append(PuntOutcome(net, chance, spot, touchback))
        lowest = highest + 1
    return tuple(outcomes)
