"""A finished game's figures, read from its events alone: each drive's plays, yards, points and
end, each team's longest play, and the play that turned the game.

The record, the story told after the final score and the CSV export all read these, so the
figures a player hears are the engine's own (a test checks them against seeded games).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from . import events as ev
from .card_model import OffCall, PlayResult
from .field import Down
from .state import DriveEnd, GameEnd, Outcome, Team

# Below this many yards a gain is not what a game turned on; a turnover can be instead.
TURNING_GAIN = 10


@dataclass(frozen=True)
class DrivePlay:
    """One snap: who ran it, the call, what it did and the yards, and the down it was run on."""

    drive: int
    offense: Team
    call: OffCall
    result: PlayResult
    yards: int
    down: Down


@dataclass(frozen=True)
class DriveSummary:
    drive: int
    offense: Team
    plays: int  # snaps run; the punt or field goal that may end it is its `end`
    yards: int  # net yards of those snaps
    points: int  # the offense's points on this drive (a touchdown and its extra point)
    end: DriveEnd | None  # None: conceded before it ended


@dataclass(frozen=True)
class GameSummary:
    drives: tuple[DriveSummary, ...]
    plays: tuple[DrivePlay, ...]
    outcome: Outcome | None

    def longest(self, team: Team) -> DrivePlay | None:
        """The team's longest gain (the first of equals); None when it gained no yards."""
        gains = [play for play in self.plays if play.offense is team and play.yards > 0]
        return max(gains, key=lambda play: play.yards, default=None)

    def turning_play(self) -> DrivePlay | None:
        """What the game turned on: the winner's longest gain when it was a real gain, else
        the loser's turnover; in a tie, the longest gain of the game. None for a conceded
        game or when nothing stands out."""
        outcome = self.outcome
        if outcome is None or outcome.end is GameEnd.CONCEDED:
            return None
        if outcome.winner is None:
            longest = max((p for p in self.plays if p.yards > 0), key=lambda p: p.yards,
                          default=None)
            return longest if longest is not None and longest.yards >= TURNING_GAIN else None
        longest = self.longest(outcome.winner)
        if longest is not None and longest.yards >= TURNING_GAIN:
            return longest
        lost = [p for p in self.plays if p.offense is outcome.winner.other
                and p.result is PlayResult.INTERCEPTION]
        return lost[0] if lost else longest


def summarize(events: Iterable[ev.Event]) -> GameSummary:
    """The figures of the game the events tell (from its first event)."""
    drives: list[DriveSummary] = []
    plays: list[DrivePlay] = []
    current: DriveSummary | None = None
    down: Down | None = None
    outcome: Outcome | None = None
    for event in events:
        if isinstance(event, ev.DriveStarted):
            current = DriveSummary(event.drive, event.offense, 0, 0, 0, None)
        elif isinstance(event, ev.DownStarted):
            down = event.down
        elif isinstance(event, ev.PlayResolved) and current is not None and down is not None:
            plays.append(DrivePlay(current.drive, event.offense, event.call, event.result,
                                   event.yards, down))
            current = replace(current, plays=current.plays + 1, yards=current.yards + event.yards)
        elif isinstance(event, ev.ScoreChanged) and current is not None \
                and event.team is current.offense:
            current = replace(current, points=current.points + event.points)
        elif isinstance(event, ev.DriveEnded) and current is not None:
            drives.append(replace(current, end=event.reason))
            current = None
        elif isinstance(event, ev.GameOver):
            outcome = event.outcome
    if current is not None:  # conceded mid-drive
        drives.append(current)
    return GameSummary(tuple(drives), tuple(plays), outcome)

