"""Kick odds: the exact 3d6 chances the snap menu speaks, checked against every throw and the
engine's own kick rules."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from sudden_death.engine.field import (
    FIELD_GOAL_NEEDS,
    LONGEST_FIELD_GOAL,
    field_goal_distance,
    field_goal_needs,
    punt_net,
    punt_receiving_spot,
)
from sudden_death.engine.kicks import (
    chance_at_least,
    field_goal_chance,
    punt_outcomes,
    total_chances,
)

THROWS = list(itertools.product(range(1, 7), repeat=3))


def test_three_dice_totals_are_exact() -> None:
    chances = total_chances()
    assert sum(chances.values()) == 1
    for total, chance in chances.items():
        assert chance == Fraction(sum(sum(t) == total for t in THROWS), len(THROWS))
    assert chances[10] == Fraction(27, 216) and chances[3] == Fraction(1, 216)


@pytest.mark.parametrize("distance", range(18, LONGEST_FIELD_GOAL + 3))
def test_field_goal_chance_counts_the_throws_the_rules_accept(distance: int) -> None:
    needed = field_goal_needs(distance)
    chance = field_goal_chance(distance)
    if needed is None:
        assert chance is None
        return
    made = sum(sum(throw) >= needed for throw in THROWS)
    assert chance == Fraction(made, len(THROWS))


# The seed rules by hand: 6+ up to 39 yards, 8+ for 40-49, 10+ for 50-59, 13+ for 60-65, and no
# kick past 65. Each band's edges are listed, so moving any edge by a yard fails.
@pytest.mark.parametrize(("distance", "needed"), [
    (17, 6), (18, 6), (39, 6), (40, 8), (41, 8), (49, 8), (50, 10), (59, 10), (60, 13),
    (64, 13), (65, 13), (66, None), (67, None), (100, None)])
def test_field_goal_needs_follow_the_rules_table(distance: int, needed: int | None) -> None:
    assert field_goal_needs(distance) == needed


@pytest.mark.parametrize(("line", "distance"), [(83, 34), (78, 39), (52, 65), (51, 66), (99, 18)])
def test_field_goal_distance_is_the_yards_to_the_goal_plus_17(line: int, distance: int) -> None:
    assert field_goal_distance(line) == distance


def test_field_goal_bands_match_the_rules() -> None:
    # 6+, 8+, 10+, 13+ on three dice: the four distance bands.
    assert [chance_at_least(needed) for _, needed in FIELD_GOAL_NEEDS] == [
        Fraction(206, 216), Fraction(181, 216), Fraction(135, 216), Fraction(56, 216)]


@pytest.mark.parametrize("line", [1, 25, 49, 50, 60, 69, 70, 95])
def test_punt_outcomes_follow_the_engine(line: int) -> None:
    outcomes = punt_outcomes(line)
    assert sum(o.chance for o in outcomes) == 1
    for outcome in outcomes:
        throws = [t for t in THROWS if punt_net(sum(t)) == outcome.net]
        assert outcome.chance == Fraction(len(throws), len(THROWS))
        assert (outcome.receiving_spot, outcome.touchback) == punt_receiving_spot(
            line, outcome.net)


def test_a_punt_total_past_three_dice_is_refused_by_name() -> None:
    assert [punt_net(total) for total in (3, 7, 8, 13, 14, 18)] == [30, 30, 40, 40, 50, 50]
    with pytest.raises(ValueError) as raised:
        punt_net(19)
    assert str(raised.value) == "3d6 total out of range: 19"
