"""M: how each of your calls meets each of the other side's revealed calls, in one short
sentence per call, with both sides' featured players counted.

Every figure comes from the engine: the band from `resolve.compute_band` (the function the dice
use), the average gain and the chances from `stats.band_stats`. Bands always count for the
offense, as everywhere in the game.
"""

from __future__ import annotations

from fractions import Fraction

from ...engine.card_model import Call, DefCall, OffCall, Player, PlayKind, Role
from ...engine.cards import OFFENSIVE_CALLS, card_name
from ...engine.resolve import compute_band
from ...engine.state import Hand
from ...engine.stats import BandStats, band_stats
from ...language import N_, _
from .numbers import mean_words, percent_words, signed

# The likeliest risk of a matchup, said before its chance: "fumbles 2 percent" (translated
# where it is said).
RISK_WORDS = {
    # Translators: a play's likeliest risk, before its chance: "loses yards 12 percent".
    "loss": N_("loses yards"),
    # Translators: a play's likeliest risk, before its chance: "incomplete 30 percent".
    "incomplete": N_("incomplete"),
    # Translators: a play's likeliest risk, before its chance: "intercepted 4 percent".
    "interception": N_("intercepted"),
    # Translators: a play's likeliest risk, before its chance: "sacked 8 percent".
    "sack": N_("sacked"),
    # Translators: a play's likeliest risk, before its chance: "fumbles 2 percent".
    "fumble": N_("fumbles"),
}


def main_risk(kind: PlayKind, stats: BandStats) -> tuple[str, Fraction]:
    """The likeliest thing to go wrong for the offense at this band: (words, chance)."""
    names = ["loss", "fumble"]
    if kind is PlayKind.PASS:
        names += ["incomplete", "interception", "sack"]
    name = max(names, key=lambda risk: getattr(stats, risk))
    return _(RISK_WORDS[name]), getattr(stats, name)


def matchup(off_call: OffCall, def_call: DefCall, off_players: tuple[Player, ...],
            def_players: tuple[Player, ...]) -> tuple[int, str]:
    """(band, "band plus 1, average gain 5.2 yards, fumbles 2 percent") of one matchup."""
    band = compute_band(off_call, def_call, off_players, def_players).value
    stats = band_stats(off_call, band)
    risk, chance = main_risk(OFFENSIVE_CALLS[off_call].kind, stats)
    # Translators: one matchup: "band plus 1, average gain 5.2 yards, fumbles 2 percent"
    # ({risk} is the likeliest risk, such as "fumbles", and {chance} its chance).
    return band, _("band {band}, {mean}, {risk} {chance}").format(
        band=signed(band), mean=mean_words(stats.mean_yards), risk=risk,
        chance=percent_words(chance))


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
        # Translators: {matchup} is "band plus 1, average gain 5.2 yards, fumbles 2 percent".
        parts.append(_("against {card} {matchup}").format(card=_(card_name(other)),
                                                          matchup=words))
    # Translators: one of your calls against each of theirs: "Inside Run: against Blitz band
    # plus 1, ...; against Zone Coverage band 0, ...".
    return _("{card}: {matchups}.").format(card=_(card_name(call)), matchups="; ".join(parts))


def matchups_words(role: Role, mine: Hand, theirs: Hand) -> str:
    """Every call of yours, one sentence each; on defense, a reminder whose gain it is."""
    lines = [call_line(call, role, mine, theirs) for call in mine.calls]
    lead = "" if role is Role.OFFENSE else _("Bands and gains are the offense's.") + " "
    return lead + " ".join(lines)
