"""Exact statistics of a call at a band, computed from the tables the engine rolls on.

Card details, the explorer and the balance checks all read these, so what a player hears is what
the dice do. Figures ignore the field (a gain is not cut short by the goal line).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .card_model import BandTable, DefCall, OffCall, PlayKind
from .cards import MATCHUPS, OFFENSIVE_CALLS
from .field import GOAL_LINE
from .resolve import MAX_BAND, MIN_BAND, RECOVERY_SIDES

SACK_MEAN_LOSS = Fraction(7)  # 2d6
BIG_GAIN = 10
# A turnover swings field position by about this many yards; used only to rank plays.
TURNOVER_COST_YARDS = 40
FUMBLE_LOST_SHARE = Fraction(RECOVERY_SIDES // 2, RECOVERY_SIDES)


@dataclass(frozen=True)
class BandStats:
    """Per-play chances (0..1) and the average gain of one call at one band."""

    mean_yards: Fraction
    gain_10_plus: Fraction
    loss: Fraction
    incomplete: Fraction
    interception: Fraction
    sack: Fraction
    fumble: Fraction

    @property
    def turnover(self) -> Fraction:
        """Chance the offense loses the ball: interceptions plus fumbles it does not recover."""
        return self.interception + self.fumble * FUMBLE_LOST_SHARE

    @property
    def value(self) -> Fraction:
        """One number to rank plays by: yards gained minus the cost of turning it over."""
        return self.mean_yards - TURNOVER_COST_YARDS * self.turnover


def _pct(value: int) -> Fraction:
    return Fraction(value, 100)


def table_stats(kind: PlayKind, table: BandTable) -> BandStats:
    rows = [(yards, _pct(weight)) for yards, weight in table.yards]
    gain_mean = sum((yards * share for yards, share in rows), Fraction(0))
    gain_10 = sum((share for yards, share in rows if yards >= BIG_GAIN), Fraction(0))
    gain_loss = sum((share for yards, share in rows if yards < 0), Fraction(0))
    if kind is PlayKind.RUN:
        return BandStats(gain_mean, gain_10, gain_loss, Fraction(0), Fraction(0), Fraction(0),
                         _pct(table.fumble))
    sack, interception, incomplete = _pct(table.sack), _pct(table.interception), _pct(
        table.incomplete
    )
    complete = 1 - sack - interception - incomplete
    return BandStats(
        mean_yards=complete * gain_mean - sack * SACK_MEAN_LOSS,
        gain_10_plus=complete * gain_10,
        loss=complete * gain_loss + sack,
        incomplete=incomplete,
        interception=interception,
        sack=sack,
        fumble=(complete + sack) * _pct(table.fumble),
    )


def band_stats(call: OffCall, band: int) -> BandStats:
    if not MIN_BAND <= band <= MAX_BAND:
        raise ValueError(f"band must be between {MIN_BAND} and {MAX_BAND}, not {band}")
    card = OFFENSIVE_CALLS[call]
    return table_stats(card.kind, card.bands[band])


def matchup_stats(off_call: OffCall, def_call: DefCall) -> BandStats:
    """The call's figures at the band its matchup alone gives (no player bonuses)."""
    band = max(MIN_BAND, min(MAX_BAND, MATCHUPS[off_call][def_call]))
    return band_stats(off_call, band)


def gain_chance(call: OffCall, band: int, line: int, needed: int) -> Fraction:
    """Chance that one snap of `call` at `band` from `line` gains at least `needed` yards and
    the offense keeps the ball: what decides a 3rd or 4th down. As the dice go: a pass must be
    caught first; a gain that reaches the goal line never fumbles, and a fumble the offense
    recovers keeps its yards. The field counts here (`line`), unlike the figures above."""
    card = OFFENSIVE_CALLS[call]
    table = card.bands[band]
    kept_after_fumble = 1 - _pct(table.fumble) * FUMBLE_LOST_SHARE
    reached = Fraction(0)
    for yards, weight in table.yards:
        if yards >= needed:
            reached += _pct(weight) * (1 if line + yards >= GOAL_LINE else kept_after_fumble)
    if card.kind is PlayKind.RUN:
        return reached
    caught = 1 - _pct(table.sack) - _pct(table.interception) - _pct(table.incomplete)
    return caught * reached
