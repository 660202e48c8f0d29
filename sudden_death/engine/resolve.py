"""Band and play resolution: the only place a down's dice are rolled."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .card_model import BandTable, DefCall, OffCall, Player, PlayKind, PlayResult
from .cards import MATCHUPS, OFFENSIVE_CALLS, PLAYERS
from .dice import Roll, percentile, roll
from .field import GOAL_LINE

MIN_BAND = -3
MAX_BAND = 3
SACK_DICE = 2
RECOVERY_SIDES = 6  # offense recovers a fumble on 1-3, the defense on 4-6


@dataclass(frozen=True)
class Band:
    matchup: int
    offense_bonus: int
    defense_bonus: int
    offense_player: Player | None
    defense_player: Player | None

    @property
    def value(self) -> int:
        raw = self.matchup + self.offense_bonus - self.defense_bonus
        return max(MIN_BAND, min(MAX_BAND, raw))


def matching_player(players: tuple[Player, ...], call: OffCall) -> Player | None:
    """The player in `players` whose card names `call`, if any."""
    return next((p for p in players if PLAYERS[p].call is call), None)


def compute_band(
    off_call: OffCall,
    def_call: DefCall,
    offense_players: tuple[Player, ...] = (),
    defense_players: tuple[Player, ...] = (),
) -> Band:
    off_player = matching_player(offense_players, off_call)
    def_player = matching_player(defense_players, off_call)
    return Band(
        matchup=MATCHUPS[off_call][def_call],
        offense_bonus=int(off_player is not None),
        defense_bonus=int(def_player is not None),
        offense_player=off_player,
        defense_player=def_player,
    )


def pick_yards(table: BandTable, percent: int) -> int:
    """The yardage row that a percentile roll (1..100) lands on."""
    running = 0
    for yards, weight in table.yards:
        running += weight
        if percent <= running:
            return yards
    raise ValueError(f"weights of the table sum to {running}, below the roll {percent}")


@dataclass(frozen=True)
class PlayOutcome:
    """The raw outcome of a snap, before downs and drives are applied."""

    result: PlayResult
    yards: int
    outcome_roll: Roll | None
    yardage_roll: Roll | None
    fumble_roll: Roll | None = None
    recovery_roll: Roll | None = None

    @property
    def fumbled(self) -> bool:
        return self.recovery_roll is not None

    @property
    def fumble_lost(self) -> bool:
        return self.recovery_roll is not None and self.recovery_roll.total > RECOVERY_SIDES // 2


def resolve_play(call: OffCall, band: int, line: int, rng: random.Random) -> PlayOutcome:
    """Roll one play of `call` at `band` from `line`.

    A touchdown or safety stands before any fumble check, so such plays never fumble.
    """
    card = OFFENSIVE_CALLS[call]
    table = card.bands[band]
    outcome_roll: Roll | None = None
    if card.kind is PlayKind.RUN:
        result = PlayResult.RUN
    else:
        outcome_roll = percentile(rng)
        result = _pass_result(table, outcome_roll.total)
    yardage_roll: Roll | None = None
    yards = 0
    if result in (PlayResult.RUN, PlayResult.COMPLETE):
        yardage_roll = percentile(rng)
        yards = pick_yards(table, yardage_roll.total)
    elif result is PlayResult.SACK:
        yardage_roll = roll(rng, SACK_DICE)
        yards = -yardage_roll.total
    spot = line + yards
    if result in (PlayResult.INCOMPLETE, PlayResult.INTERCEPTION) or spot >= GOAL_LINE or spot <= 0:
        return PlayOutcome(result, yards, outcome_roll, yardage_roll)
    fumble_roll = percentile(rng)
    if fumble_roll.total > table.fumble:
        return PlayOutcome(result, yards, outcome_roll, yardage_roll, fumble_roll)
    recovery = roll(rng, 1, RECOVERY_SIDES)
    return PlayOutcome(result, yards, outcome_roll, yardage_roll, fumble_roll, recovery)


def _pass_result(table: BandTable, percent: int) -> PlayResult:
    thresholds = (
        (table.sack, PlayResult.SACK),
        (table.interception, PlayResult.INTERCEPTION),
        (table.incomplete, PlayResult.INCOMPLETE),
    )
    running = 0
    for chance, result in thresholds:
        running += chance
        if percent <= running:
            return result
    return PlayResult.COMPLETE
