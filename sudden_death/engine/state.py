"""The game's state as frozen values; the engine replaces it whole after each legal action."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, IntEnum
from typing import Any

from .card_model import Call, DefCall, OffCall, Player
from .field import Down


class Team(IntEnum):
    """HOME calls the coin (the human in the game); scores are indexed by team."""

    HOME = 0
    AWAY = 1

    @property
    def other(self) -> Team:
        return Team.AWAY if self is Team.HOME else Team.HOME


# Both teams in order, as `tuple(Team)`: looping over the Enum class makes a generator each
# time, and the table server does it thousands of times a second (docs/server.md).
TEAMS: tuple[Team, ...] = (Team.HOME, Team.AWAY)


class CoinFace(str, Enum):
    HEADS = "heads"
    TAILS = "tails"


class Side(str, Enum):
    """What the coin-toss winner takes first."""

    OFFENSE = "offense"
    DEFENSE = "defense"


class SnapChoice(str, Enum):
    """The offense's choice before a down: run a play or kick."""

    PLAY = "play"
    PUNT = "punt"
    FIELD_GOAL = "field_goal"


class Phase(str, Enum):
    COIN_TOSS = "coin_toss"
    SIDE_CHOICE = "side_choice"
    SNAP_CHOICE = "snap_choice"
    SELECTION = "selection"
    SUBSTITUTION = "substitution"
    FINAL_CALL = "final_call"
    GAME_OVER = "game_over"


class DriveEnd(str, Enum):
    """How a drive ended; the values are the simulator's JSON keys."""

    TOUCHDOWN = "touchdown"
    FIELD_GOAL_MADE = "field_goal_made"
    FIELD_GOAL_MISSED = "field_goal_missed"
    PUNT = "punt"
    INTERCEPTION = "interception"
    FUMBLE_LOST = "fumble_lost"
    DOWNS = "downs"
    SAFETY = "safety"


class GameEnd(str, Enum):
    BOTH_DRIVES = "both_drives"
    SAFETY = "safety"
    CONCEDED = "conceded"


class SwapKind(str, Enum):
    KEEP = "keep"
    PLAYER = "player"
    CALL = "call"


@dataclass(frozen=True)
class Hand:
    """One side's cards for a down: 2 featured players and 3 calls."""

    players: tuple[Player, ...]
    calls: tuple[Call, ...]


@dataclass(frozen=True)
class Swap:
    """A substitution: keep everything, or replace one player, or replace one call."""

    kind: SwapKind
    out: Player | OffCall | DefCall | None = None
    into: Player | OffCall | DefCall | None = None

    @staticmethod
    def keep() -> Swap:
        return Swap(SwapKind.KEEP)

    @staticmethod
    def player(out: Player, into: Player) -> Swap:
        return Swap(SwapKind.PLAYER, out, into)

    @staticmethod
    def call(out: Call, into: Call) -> Swap:
        return Swap(SwapKind.CALL, out, into)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: final scores, the winner (None for a tie) and why it ended."""

    scores: tuple[int, int]
    winner: Team | None
    end: GameEnd


@dataclass(frozen=True)
class GameState:
    phase: Phase = Phase.COIN_TOSS
    scores: tuple[int, int] = (0, 0)
    drive: int = 0
    offense: Team | None = None
    coin_winner: Team | None = None
    down: Down | None = None
    offense_hand: Hand | None = None
    defense_hand: Hand | None = None
    outcome: Outcome | None = None
    # The overtime house rule (field.py), fixed when the game is made: part of the state so
    # that every rule, computer and snapshot reads it from the one place.
    overtime: bool = False

    @property
    def defense(self) -> Team | None:
        return None if self.offense is None else self.offense.other


STATE_FIELDS = frozenset(field.name for field in fields(GameState))


def evolve(state: GameState, **changes: Any) -> GameState:
    """`dataclasses.replace` without its per-call field scan: the engine's hottest path. A
    misspelt field is refused (it would otherwise add an attribute no rule ever reads)."""
    if not changes.keys() <= STATE_FIELDS:
        unknown = ", ".join(sorted(changes.keys() - STATE_FIELDS))
        raise TypeError(f"GameState has no field {unknown}")
    new = object.__new__(GameState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new
