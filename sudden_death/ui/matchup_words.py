"""M: how each of your calls meets each of the other side's revealed calls, in one short
sentence per call, with both sides' featured players counted.

Every figure comes from the engine: the band from `resolve.compute_band` (the function the dice
use), the average gain and the chances from `stats.band_stats`. Bands always count for the
offense, as everywhere in the game.
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.card_model import Call, DefCall, OffCall, Player, PlayKind, Role
from ..engine.cards import OFFENSIVE_CALLS, card_name
from ..engine.resolve import compute_band
from ..engine.state import Hand
from ..engine.stats import BandStats, band_stats
from .explorer_words import mean_words, percent_words, signed

RISK_WORDS = {
    "loss": "loses yards",
    "incomplete": "incomplete",
    "interception": "intercepted",
    "sack": "sacked",
    "fumble": "fumbles",
}


def main_risk(kind: PlayKind, stats: BandStats) -> tuple[str, Fraction]:
    """The likeliest thing to go wrong for the offense at this band: (words, chance)."""
    names = ["loss", "fumble"]
    if kind is PlayKind.PASS:
        names += ["incomplete", "interception", "sack"]
    name = max(names, key=lambda risk: getattr(stats, risk))
    return RISK_WORDS[name], getattr(stats, name)


def matchup(off_call: OffCall, def_call: DefCall, off_players: tuple[Player, ...],
            def_players: tuple[Player, ...]) -> tuple[int, str]:
    """(band, "band plus 1, average gain 5.2 yards, fumbles 2 percent") of one matchup."""
    band = compute_band(off_call, def_call, off_players, def_players).value
    stats = band_stats(off_call, band)
    risk, chance = main_risk(OFFENSIVE_CALLS[off_call].kind, stats)
    return band, (f"band {signed(band)}, {mean_words(stats.mean_yards)}, "
                  f"{risk} {percent_words(chance)}")


def call_line(call: Call, role: Role, mine: Hand, theirs: Hand) -> str:
    """One sentence: `call` of yours against each call they hold."""
    parts = []
    for other in theirs.calls:
        if role is Role.OFFENSE:
            assert isinstance(call, OffCall) and isinstance(other, DefCall)
            _band, words = matchup(call, other, mine.players, theirs.players)
        else:
            assert isinstance(call, DefCall) and isinstance(other, OffCall)
            _band, words = matchup(other, call, theirs.players, mine.players)
        parts.append(f"against {card_name(other)} {words}")
    return f"{card_name(call)}: " + "; ".join(parts) + "."


def matchups_words(role: Role, mine: Hand, theirs: Hand) -> str:
    """Every call of yours, one sentence each; on defense, a reminder whose gain it is."""
    lines = [call_line(call, role, mine, theirs) for call in mine.calls]
    lead = "" if role is Role.OFFENSE else "Bands and gains are the offense's. "
    return lead + " ".join(lines)
