"""All wording of the card explorer and of card details (D).

Every figure comes from the engine: statistics from `stats.band_stats` (exact Fractions), bands
from `resolve.compute_band`, yardage from the band tables in `cards.py`. The functions take the
engine's values and only round and phrase them, so tests can hold each spoken number against the
engine's own calculation, and D and the explorer can never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ..engine.card_model import BANDS, PERCENT, DefCall, OffCall, Player, PlayKind, Role
from ..engine.cards import DEFENSIVE_CALLS, MATCHUPS, OFFENSIVE_CALLS, PLAYERS, card_name
from ..engine.resolve import MAX_BAND, MIN_BAND, Band
from ..engine.stats import BIG_GAIN, BandStats, band_stats

DETAILS_BAND = 0  # SPEC: previews and details use band 0; real plays use the real band


# -- numbers -----------------------------------------------------------------------------------


def _round_half_up(value: Fraction, places: int) -> Fraction:
    """Round a non-negative exact value to `places` decimals, halves away from zero."""
    scale = 10**places
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


def _decimal(value: Fraction, places: int) -> str:
    """An exact value as spoken digits: "4.1", "12", never "4.0"."""
    rounded = _round_half_up(abs(value), places)
    text = f"{float(rounded):.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def percent_words(chance: Fraction) -> str:
    """A chance (0..1) as "12 percent"; one decimal below 10 percent so small risks still show."""
    percent = chance * 100
    if percent.denominator == 1:
        return f"{percent.numerator} percent"
    return f"{_decimal(percent, 1 if percent < 10 else 0)} percent"


def signed(value: int) -> str:
    """A band or modifier as spoken: "plus 2", "minus 1", "0"."""
    return f"plus {value}" if value > 0 else (f"minus {-value}" if value < 0 else "0")


def band_name(band: int) -> str:
    """ "band plus 1"."""
    return f"band {signed(band)}"


def mean_words(mean: Fraction) -> str:
    """ "average gain 4.1 yards" or "average loss 0.3 yards"."""
    if mean < 0:
        return f"average loss {_decimal(mean, 1)} yards"
    return f"average gain {_decimal(mean, 1)} yards"


def yards_words(yards: int) -> str:
    """One row of a yardage table: "loss of 3", "no gain", "gain of 12"."""
    if yards < 0:
        return f"loss of {-yards}"
    return "no gain" if yards == 0 else f"gain of {yards}"


# -- statistics of a call at a band ------------------------------------------------------------


def figures(kind: PlayKind, stats: BandStats) -> list[tuple[str, Fraction, str]]:
    """(name, exact value, words) for every figure spoken about a call at a band, in order."""
    out = [
        ("mean_yards", stats.mean_yards, mean_words(stats.mean_yards)),
        ("gain_10_plus", stats.gain_10_plus,
         f"{BIG_GAIN} or more yards {percent_words(stats.gain_10_plus)}"),
        ("loss", stats.loss, f"loses yards {percent_words(stats.loss)}"),
    ]
    if kind is PlayKind.PASS:
        out += [
            ("incomplete", stats.incomplete, f"incomplete {percent_words(stats.incomplete)}"),
            ("interception", stats.interception,
             f"intercepted {percent_words(stats.interception)}"),
            ("sack", stats.sack, f"sacked {percent_words(stats.sack)}"),
        ]
    out.append(("fumble", stats.fumble, f"fumbles {percent_words(stats.fumble)}"))
    return out


def stats_words(kind: PlayKind, stats: BandStats) -> str:
    """ "average gain 4.1 yards, 10 or more yards 12 percent, loses yards 14 percent, ..."."""
    return ", ".join(words for _, _, words in figures(kind, stats))


def call_stats_words(call: OffCall, band: int) -> str:
    """The statistics of `call` at `band`, straight from the engine's exact calculation."""
    return stats_words(OFFENSIVE_CALLS[call].kind, band_stats(call, band))


def band_summary(call: OffCall, band: int) -> str:
    """ "At band 0: average gain ..."; the sentence D and the explorer both speak."""
    return f"At {band_name(band)}: {call_stats_words(call, band)}."


def yardage_table_words(call: OffCall, band: int) -> str:
    """The table the dice read, row by row, in chances out of 100."""
    card = OFFENSIVE_CALLS[call]
    table = card.bands[band]
    rows = "; ".join(f"{yards_words(yards)}, {weight} in 100" for yards, weight in table.yards)
    if card.kind is PlayKind.RUN:
        return (f"{card.name} yardage table at {band_name(band)}: {rows}. "
                f"Then a fumble {table.fumble} in 100.")
    caught = PERCENT - table.sack - table.interception - table.incomplete
    return (f"{card.name} at {band_name(band)}: first the pass roll, out of 100: sacked "
            f"{table.sack}, intercepted {table.interception}, incomplete {table.incomplete}, "
            f"caught {caught}. A sack loses 2 dice of yards. When caught, the yardage table: "
            f"{rows}. After a catch or a sack, a fumble {table.fumble} in 100.")


# -- matchups and players ----------------------------------------------------------------------


def matchup_note(modifier: int, for_offense: bool) -> str:
    """ "band plus 2, strong": the band always counts for the offense; strength is the card's."""
    mine = modifier if for_offense else -modifier
    verdict = "strong" if mine > 0 else ("weak" if mine < 0 else "even")
    return f"{band_name(modifier)}, {verdict}"


def _matchup_summary(pairs: Sequence[tuple[OffCall | DefCall, int]], for_offense: bool) -> str:
    def mine(modifier: int) -> int:
        return modifier if for_offense else -modifier

    def listed(wanted: list[tuple[OffCall | DefCall, int]]) -> str:
        return "; ".join(f"{card_name(card)}, {band_name(m)}" for card, m in wanted) or "nothing"

    strong = [(c, m) for c, m in pairs if mine(m) > 0]
    weak = [(c, m) for c, m in pairs if mine(m) < 0]
    even = [card_name(c) for c, m in pairs if m == 0]
    words = f"Strong against: {listed(strong)}. Weak against: {listed(weak)}."
    if even:
        words += f" Even against: {', '.join(even)}."
    return words


def offense_matchups(call: OffCall) -> list[tuple[DefCall, int]]:
    """The matchup modifier of `call` against each defensive call, from the engine's table."""
    return list(MATCHUPS[call].items())


def defense_matchups(call: DefCall) -> list[tuple[OffCall, int]]:
    """The matchup modifier of each offensive call against `call`, from the engine's table."""
    return [(off, MATCHUPS[off][call]) for off in OffCall]


def matchup_words(call: OffCall | DefCall) -> str:
    """What a call is strong and weak against, with the band each matchup gives."""
    if isinstance(call, OffCall):
        return _matchup_summary(offense_matchups(call), for_offense=True)
    return _matchup_summary(defense_matchups(call), for_offense=False)


def player_effect_words(player: Player) -> str:
    """ "adds 1 to the band when the final offensive call is Deep Pass"."""
    info = PLAYERS[player]
    call = card_name(info.call)
    if info.role is Role.OFFENSE:
        return f"adds 1 to the band when the final offensive call is {call}"
    return f"takes 1 off the band when the offense's final call is {call}"


def band_reason_words(band: Band) -> str:
    """ "band minus 1: matchup minus 2, Deep Threat adds 1", from the engine's own `Band`."""
    parts = [f"matchup {signed(band.matchup)}"]
    if band.offense_player is not None:
        parts.append(f"{card_name(band.offense_player)} adds 1")
    if band.defense_player is not None:
        parts.append(f"{card_name(band.defense_player)} takes 1 away")
    raw = band.matchup + band.offense_bonus - band.defense_bonus
    words = f"{band_name(band.value)}: {', '.join(parts)}"
    if raw != band.value:
        words += f", capped at {signed(band.value)}"
    return words


def band_change_words(call: OffCall, without: Band, with_player: Band) -> str:
    """How one player moves the band of `call`, and what that does to the average gain."""
    before, after = without.value, with_player.value
    if before == after:
        return (f"{band_name(before)} stays {signed(after)}, already at the "
                f"{'top' if after == MAX_BAND else 'bottom'}")
    return (f"{band_name(before)} becomes {signed(after)}: "
            f"{mean_words(band_stats(call, after).mean_yards)}, instead of "
            f"{mean_words(band_stats(call, before).mean_yards)}")


# -- whole paragraphs --------------------------------------------------------------------------


def card_details(card: OffCall | DefCall | Player) -> str:
    """What D says about a card: band 0 statistics and matchups, the explorer's own words."""
    if isinstance(card, Player):
        info = PLAYERS[card]
        return f"{info.name}, {info.role.value} player: {player_effect_words(card)}. {info.blurb}"
    if isinstance(card, OffCall):
        off = OFFENSIVE_CALLS[card]
        return (f"{off.name}, {off.kind.value} play. {off.blurb} "
                f"{band_summary(card, DETAILS_BAND)} {matchup_words(card)}")
    defense = DEFENSIVE_CALLS[card]
    return f"{defense.name}, defensive call. {defense.blurb} {matchup_words(card)}"


def band_rules_lines() -> list[str]:
    """How the band is made, one short line each, ending with the matchup table."""
    lines = [
        "The band measures how well the offense's final call fits the defense's. It runs "
        f"from {signed(MIN_BAND)} to {signed(MAX_BAND)}; higher is better for the offense.",
        "It starts at the matchup of the two final calls: the number in the matchup table.",
        "An offensive player whose card names the final offensive call adds 1.",
        "A defensive player whose card names the final offensive call takes 1 away.",
        f"The total is capped at {signed(MIN_BAND)} and {signed(MAX_BAND)}.",
        "The offensive call's table for that band gives the dice their odds: "
        f"{len(BANDS)} tables per call, one per band.",
        "Card details and previews use band 0; a real play uses its real band.",
    ]
    for off in OffCall:
        row = ", ".join(f"{card_name(d)} {signed(m)}" for d, m in offense_matchups(off))
        lines.append(f"Matchup table, {card_name(off)}: {row}.")
    return lines
