"""Structured events: what happened, as data. The front end turns them into speech and cues."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .card_model import DefCall, OffCall, Player, PlayResult
from .dice import Roll
from .field import Down
from .state import CoinFace, DriveEnd, Hand, Outcome, Side, SnapChoice, Swap, Team


@dataclass(frozen=True)
class Event:
    """Base of all events; `kind` is a stable name for logs, transcripts and tallies. A
    dataclass with no fields of its own, so the type checker knows every event is one."""

    kind: ClassVar[str] = "event"


@dataclass(frozen=True)
class CoinTossed(Event):
    kind: ClassVar[str] = "coin_tossed"
    call: CoinFace
    face: CoinFace
    winner: Team


@dataclass(frozen=True)
class SideChosen(Event):
    kind: ClassVar[str] = "side_chosen"
    team: Team
    side: Side


@dataclass(frozen=True)
class DriveStarted(Event):
    """`after` is how the previous drive ended (None for the opening drive)."""

    kind: ClassVar[str] = "drive_started"
    drive: int
    offense: Team
    spot: int
    after: DriveEnd | None = None
    touchback: bool = False


@dataclass(frozen=True)
class DownStarted(Event):
    kind: ClassVar[str] = "down_started"
    offense: Team
    down: Down


@dataclass(frozen=True)
class SnapChosen(Event):
    kind: ClassVar[str] = "snap_chosen"
    team: Team
    choice: SnapChoice


@dataclass(frozen=True)
class HandsRevealed(Event):
    """Both sides' cards shown together: step 1 after selection, step 2 after substitution."""

    kind: ClassVar[str] = "hands_revealed"
    step: int
    offense: Hand
    defense: Hand
    offense_swap: Swap | None = None
    defense_swap: Swap | None = None


@dataclass(frozen=True)
class FinalCallsRevealed(Event):
    kind: ClassVar[str] = "final_calls_revealed"
    offense_call: OffCall
    defense_call: DefCall


@dataclass(frozen=True)
class BandSet(Event):
    """How the band was made: matchup + offense bonus - defense bonus, clamped to -3..+3."""

    kind: ClassVar[str] = "band_set"
    matchup: int
    offense_bonus: int
    defense_bonus: int
    band: int
    offense_player: Player | None
    defense_player: Player | None

    @property
    def raw(self) -> int:
        return self.matchup + self.offense_bonus - self.defense_bonus


@dataclass(frozen=True)
class PlayResolved(Event):
    """The play itself.

    `yards` is what the ball really moved, stopped at a goal line (a touchdown gains only the
    yards to the goal, a safety loses only the yards to its own), and `spot` is `line + yards`.
    """

    kind: ClassVar[str] = "play_resolved"
    offense: Team
    call: OffCall
    band: int
    result: PlayResult
    line: int
    yards: int
    spot: int
    outcome_roll: Roll | None
    yardage_roll: Roll | None


@dataclass(frozen=True)
class Fumble(Event):
    kind: ClassVar[str] = "fumble"
    offense: Team
    spot: int
    check_roll: Roll
    recovery_roll: Roll
    lost: bool


@dataclass(frozen=True)
class FirstDown(Event):
    kind: ClassVar[str] = "first_down"
    offense: Team
    spot: int


@dataclass(frozen=True)
class Touchdown(Event):
    kind: ClassVar[str] = "touchdown"
    team: Team


@dataclass(frozen=True)
class ExtraPoint(Event):
    kind: ClassVar[str] = "extra_point"
    team: Team
    roll: Roll
    needed: int
    good: bool


@dataclass(frozen=True)
class Safety(Event):
    kind: ClassVar[str] = "safety"
    team: Team  # the defense, which scores


@dataclass(frozen=True)
class FieldGoal(Event):
    kind: ClassVar[str] = "field_goal"
    team: Team
    line: int
    distance: int
    needed: int
    roll: Roll
    good: bool


@dataclass(frozen=True)
class Punt(Event):
    kind: ClassVar[str] = "punt"
    team: Team
    line: int
    roll: Roll
    net: int
    touchback: bool
    receiving_spot: int


@dataclass(frozen=True)
class TurnoverOnDowns(Event):
    kind: ClassVar[str] = "turnover_on_downs"
    team: Team
    spot: int


@dataclass(frozen=True)
class ScoreChanged(Event):
    kind: ClassVar[str] = "score_changed"
    team: Team
    points: int
    scores: tuple[int, int]


@dataclass(frozen=True)
class DriveEnded(Event):
    """`next_spot` is where the other team starts (its own coordinates), None if the game ends."""

    kind: ClassVar[str] = "drive_ended"
    drive: int
    offense: Team
    reason: DriveEnd
    next_spot: int | None
    touchback: bool = False


@dataclass(frozen=True)
class Conceded(Event):
    kind: ClassVar[str] = "conceded"
    team: Team


@dataclass(frozen=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    outcome: Outcome
