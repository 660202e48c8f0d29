"""Field arithmetic: downs, kicks and where the next drive starts.

Spots are yards from the offense's own goal line (0..100); the opponent's goal is 100.
"""

from __future__ import annotations

from dataclasses import dataclass

GOAL_LINE = 100
OPENING_SPOT = 25
TOUCHBACK_SPOT = 20
FIRST_DOWN_YARDS = 10
LAST_DOWN = 4
LAST_DRIVE = 2  # one drive a team: drive 2 is the last
FIELD_GOAL_EXTRA = 17
LONGEST_FIELD_GOAL = 65
MISSED_FIELD_GOAL_SETBACK = 7
EXTRA_POINT_NEEDS = 6
KICK_DICE = 3  # extra points, field goals and punts all roll three six-sided dice

# (longest distance, 3d6 total needed), shortest kicks first.
FIELD_GOAL_NEEDS: tuple[tuple[int, int], ...] = ((39, 6), (49, 8), (59, 10), (65, 13))
# (highest 3d6 total, net yards), lowest totals first.
PUNT_NETS: tuple[tuple[int, int], ...] = ((7, 30), (13, 40), (18, 50))


@dataclass(frozen=True)
class Down:
    """A down: number (1..4), line of scrimmage and first-down marker (>= 100: goal to go)."""

    number: int
    line: int
    marker: int

    @property
    def goal_to_go(self) -> bool:
        return self.marker >= GOAL_LINE

    @property
    def distance(self) -> int:
        return min(self.marker, GOAL_LINE) - self.line

    @staticmethod
    def first(line: int) -> Down:
        return Down(1, line, line + FIRST_DOWN_YARDS)


def field_goal_distance(line: int) -> int:
    return (GOAL_LINE - line) + FIELD_GOAL_EXTRA


def field_goal_needs(distance: int) -> int | None:
    """The 3d6 total a kick of this distance needs, or None when it is too long to try."""
    for longest, needed in FIELD_GOAL_NEEDS:
        if distance <= longest:
            return needed
    return None


def punt_net(total: int) -> int:
    for highest, net in PUNT_NETS:
        if total <= highest:
            return net
    raise ValueError(f"3d6 total out of range: {total}")


def punt_receiving_spot(line: int, net: int) -> tuple[int, bool]:
    """Where the receiving team starts after a punt, and whether it was a touchback."""
    landing = line + net
    if landing >= GOAL_LINE:
        return TOUCHBACK_SPOT, True
    return GOAL_LINE - landing, False


def flip(spot: int) -> int:
    """The same spot seen from the other team's goal line (turnovers, failed fourth downs)."""
    return GOAL_LINE - spot


def missed_field_goal_spot(line: int) -> int:
    """The opponent takes over at the kicking spot, or at its own 20 if that is farther out."""
    return max(TOUCHBACK_SPOT, GOAL_LINE - (line - MISSED_FIELD_GOAL_SETBACK))
