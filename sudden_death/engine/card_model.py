"""The shapes of card data: identifiers, band tables and cards.

The values live in `cards.py`; keeping the shapes apart lets the data module read as a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

BANDS: tuple[int, ...] = (-3, -2, -1, 0, 1, 2, 3)
PERCENT = 100


class OffCall(str, Enum):
    """Offensive play calls."""

    INSIDE_RUN = "inside_run"
    OUTSIDE_RUN = "outside_run"
    DRAW = "draw"
    SCREEN = "screen"
    QUICK_SLANT = "quick_slant"
    DEEP_PASS = "deep_pass"


class DefCall(str, Enum):
    """Defensive calls."""

    STACK_THE_BOX = "stack_the_box"
    BLITZ = "blitz"
    MAN_COVERAGE = "man_coverage"
    ZONE_COVERAGE = "zone_coverage"
    PREVENT = "prevent"
    CONTAIN = "contain"


class Player(str, Enum):
    """Featured players, four per side."""

    POWER_BACK = "power_back"
    SCATBACK = "scatback"
    SLOT_RECEIVER = "slot_receiver"
    DEEP_THREAT = "deep_threat"
    NOSE_TACKLE = "nose_tackle"
    EDGE_SETTER = "edge_setter"
    SHUTDOWN_CORNER = "shutdown_corner"
    CENTER_FIELDER = "center_fielder"


class Role(str, Enum):
    """Which side of the ball a team or card is on for the current down."""

    OFFENSE = "offense"
    DEFENSE = "defense"


class PlayKind(str, Enum):
    RUN = "run"
    PASS = "pass"


class PlayResult(str, Enum):
    """What a snap did. A run is always RUN; a pass is one of the other four. The values are the
    simulator's JSON keys."""

    RUN = "run"
    COMPLETE = "complete"
    INCOMPLETE = "incomplete"
    INTERCEPTION = "interception"
    SACK = "sack"


Call = OffCall | DefCall
Card = Player | Call  # any card of the game: a player or a call of either side


@dataclass(frozen=True)
class BandTable:
    """What one offensive call does at one band.

    `yards` is a weighted table of (yards gained, weight); the weights sum to 100 so one
    percentile roll picks a row. Chances are whole percents. Runs use only `fumble`.
    """

    yards: tuple[tuple[int, int], ...]
    fumble: int
    incomplete: int = 0
    interception: int = 0
    sack: int = 0


@dataclass(frozen=True)
class OffCallCard:
    call: OffCall
    name: str
    kind: PlayKind
    blurb: str
    bands: dict[int, BandTable]


@dataclass(frozen=True)
class DefCallCard:
    call: DefCall
    name: str
    blurb: str


@dataclass(frozen=True)
class PlayerCard:
    """A featured player: +1 to the band (offense) or -1 (defense) when `call` is the final call."""

    player: Player
    name: str
    role: Role
    call: OffCall
    blurb: str
