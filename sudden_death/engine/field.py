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
LAST_DRIVE = 2  # one drive a team: drive 2 is the last (of regulation, with overtime on)
FIELD_GOAL_EXTRA = 17
LONGEST_FIELD_GOAL = 65
MISSED_FIELD_GOAL_SETBACK = 7
EXTRA_POINT_NEEDS = 6
KICK_DICE = 3  # extra points, field goals and punts all roll three six-sided dice

# Overtime, a house rule (off by default: the rules let a tie stand). A game tied after drive 2
# goes on in pairs of drives, one a team in the regulation order, each from the opponent's 25,
# until a pair ends with one team ahead. The dice end every tie with probability 1; the cap
# only keeps a game finite, and a game still tied after it is a tie.
OVERTIME_SPOT = GOAL_LINE - OPENING_SPOT  # the opponent's 25, in the offense's own yards
MAX_OVERTIME_PAIRS = 100
LAST_OVERTIME_DRIVE = LAST_DRIVE + 2 * MAX_OVERTIME_PAIRS

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


def is_overtime(drive: int) -> bool:
    """Whether drive number `drive` is an overtime drive (3, 4, ...)."""
    return drive > LAST_DRIVE


def overtime_period(drive: int) -> int:
    """Which pair of overtime drives `drive` belongs to: 0 in regulation, 1 for drives 3-4,
    2 for 5-6, ... (for words such as "second overtime")."""
    return 0 if drive <= LAST_DRIVE else (drive - LAST_DRIVE + 1) // 2


def is_last_drive(drive: int, overtime: bool) -> bool:
    """Whether the game can end on the scores after `drive`: the team on offense in it is the
    last to have the ball unless the scores are level (and overtime is on). Drive 2 without
    overtime; with it, drive 2 and the second drive of every overtime pair."""
    if not overtime:
        return drive == LAST_DRIVE
    return drive >= LAST_DRIVE and (drive - LAST_DRIVE) % 2 == 0


def last_possible_drive(overtime: bool) -> int:
    """The highest drive number a game can reach: 2, or the overtime cap's last drive."""
    return LAST_OVERTIME_DRIVE if overtime else LAST_DRIVE


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
