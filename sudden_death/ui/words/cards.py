"""All wording about cards: card details (D), the explorer's figures, matchups and how a band is
made.

Every figure comes from the engine: statistics from `stats.band_stats` (exact Fractions), bands
from `resolve.compute_band`, yardage from the band tables in `cards.py`. The functions take the
engine's values and only round and phrase them, so tests can hold each spoken number against the
engine's own calculation, and D and the explorer can never disagree."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...engine.card_model import BANDS, PERCENT, DefCall, OffCall, Player, PlayKind, Role
from ...engine.cards import DEFENSIVE_CALLS, MATCHUPS, OFFENSIVE_CALLS, PLAYERS, card_name
from ...engine.resolve import MAX_BAND, MIN_BAND, Band
from ...engine.stats import BIG_GAIN, BandStats, band_stats
from ...language import _, n_, p_
from .numbers import band_name, mean_words, percent_words, signed, yards_words

DETAILS_BAND = 0  # SPEC: previews and details use band 0; real plays use the real band


def kind_words(kind: PlayKind) -> str:
    """ "run play" or "pass play": what an offensive call is."""
    return _("run play") if kind is PlayKind.RUN else _("pass play")


def role_player_words(role: Role) -> str:
    """ "offense player" or "defense player": which side a player card helps."""
    return _("offense player") if role is Role.OFFENSE else _("defense player")


def figures(kind: PlayKind, stats: BandStats) -> list[tuple[str, Fraction, str]]:
    """(name, exact value, words) for every figure spoken about a call at a band, in order."""
    out = [
        ("mean_yards", stats.mean_yards, mean_words(stats.mean_yards)),
        ("gain_10_plus", stats.gain_10_plus,
         # Translators: "10 or more yards 12 percent": how often the play gains that much.
         n_("{count} or more yard {chance}", "{count} or more yards {chance}", BIG_GAIN)
         .format(count=BIG_GAIN, chance=percent_words(stats.gain_10_plus))),
        # Translators: "loses yards 14 percent": how often the play loses yards.
        ("loss", stats.loss, _("loses yards {chance}").format(chance=percent_words(stats.loss))),
    ]
    if kind is PlayKind.PASS:
        out += [
            ("incomplete", stats.incomplete,
             # Translators: "incomplete 30 percent": how often the pass falls incomplete.
             _("incomplete {chance}").format(chance=percent_words(stats.incomplete))),
            ("interception", stats.interception,
             # Translators: "intercepted 4 percent": how often the pass is intercepted.
             _("intercepted {chance}").format(chance=percent_words(stats.interception))),
            ("sack", stats.sack,
             # Translators: "sacked 6 percent": how often the passer is sacked.
             _("sacked {chance}").format(chance=percent_words(stats.sack))),
        ]
    out.append(("fumble", stats.fumble,
                # Translators: "fumbles 1.5 percent": how often the ball carrier fumbles.
                _("fumbles {chance}").format(chance=percent_words(stats.fumble))))
    return out


def stats_words(kind: PlayKind, stats: BandStats) -> str:
    """ "average gain 4.1 yards, 10 or more yards 12 percent, loses yards 14 percent, ..."."""
    return ", ".join(words for _name, _value, words in figures(kind, stats))


def call_stats_words(call: OffCall, band: int) -> str:
    """The statistics of `call` at `band`, straight from the engine's exact calculation."""
    return stats_words(OFFENSIVE_CALLS[call].kind, band_stats(call, band))


def band_summary(call: OffCall, band: int) -> str:
    """ "At band 0: average gain ..."; the sentence D and the explorer both speak."""
    # Translators: {band} is "band plus 1"; {figures} is a comma list such as
    # "average gain 4.1 yards, 10 or more yards 12 percent, loses yards 14 percent".
    return _("At {band}: {figures}.").format(band=band_name(band),
                                             figures=call_stats_words(call, band))


def yardage_table_words(call: OffCall, band: int) -> str:
    """The table the dice read, row by row, in chances out of 100."""
    card = OFFENSIVE_CALLS[call]
    table = card.bands[band]
    # Translators: one row of a yardage table: "gain of 12, 8 in 100" (8 chances out of 100).
    rows = "; ".join(_("{result}, {weight} in 100").format(result=yards_words(yards),
                                                            weight=weight)
                     for yards, weight in table.yards)
    if card.kind is PlayKind.RUN:
        # Translators: {call} is a run's name, {band} "band plus 1", {rows} the table's rows,
        # separated by semicolons ("loss of 3, 4 in 100; no gain, 10 in 100; ...").
        return _("{call} yardage table at {band}: {rows}. Then a fumble {fumble} in 100.").format(
            call=_(card_name(call)), band=band_name(band), rows=rows, fumble=table.fumble)
    caught = PERCENT - table.sack - table.interception - table.incomplete
    # Translators: {call} is a pass's name, {band} "band plus 1"; the numbers are chances out
    # of 100; {rows} is the table's rows, separated by semicolons ("gain of 5, 20 in 100; ...").
    return _("{call} at {band}: first the pass roll, out of 100: sacked {sack}, intercepted "
             "{interception}, incomplete {incomplete}, caught {caught}. A sack loses 2 dice of "
             "yards. When caught, the yardage table: {rows}. After a catch or a sack, a fumble "
             "{fumble} in 100.").format(
        call=_(card_name(call)), band=band_name(band), sack=table.sack,
        interception=table.interception, incomplete=table.incomplete, caught=caught, rows=rows,
        fumble=table.fumble)


def matchup_note(modifier: int, for_offense: bool) -> str:
    """ "band plus 2, strong": the band always counts for the offense; strength is the card's."""
    mine = modifier if for_offense else -modifier
    band = band_name(modifier)
    if mine > 0:
        # Translators: a matchup: {band} is "band plus 2"; this card is strong against that one.
        return _("{band}, strong").format(band=band)
    if mine < 0:
        # Translators: a matchup: {band} is "band minus 2"; this card is weak against that one.
        return _("{band}, weak").format(band=band)
    # Translators: a matchup: {band} is "band 0"; neither card has the better of it.
    return _("{band}, even").format(band=band)


def _matchup_summary(pairs: Sequence[tuple[OffCall | DefCall, int]], for_offense: bool) -> str:
    def mine(modifier: int) -> int:
        return modifier if for_offense else -modifier

    def listed(wanted: list[tuple[OffCall | DefCall, int]]) -> str:
        # Translators: one entry of the list after "Strong against:": "Blitz, band plus 2".
        return "; ".join(_("{card}, {band}").format(card=_(card_name(card)), band=band_name(m))
                         for card, m in wanted) or _("nothing")

    strong = [(c, m) for c, m in pairs if mine(m) > 0]
    weak = [(c, m) for c, m in pairs if mine(m) < 0]
    even = [_(card_name(c)) for c, m in pairs if m == 0]
    if even:
        # Translators: {strong} and {weak} are lists such as "Blitz, band plus 2; Zone, band
        # plus 1" (or "nothing"); {even} is a comma list of card names.
        return _("Strong against: {strong}. Weak against: {weak}. Even against: {even}.").format(
            strong=listed(strong), weak=listed(weak), even=", ".join(even))
    # Translators: {strong} and {weak} are lists such as "Blitz, band plus 2; Zone, band plus 1"
    # (or "nothing").
    return _("Strong against: {strong}. Weak against: {weak}.").format(
        strong=listed(strong), weak=listed(weak))


def offense_matchups(call: OffCall) -> list[tuple[DefCall, int]]:
    """The matchup modifier of `call` against each defensive call, from the engine's table."""
    return list(MATCHUPS[call].items())


def defense_matchups(call: DefCall) -> list[tuple[OffCall, int]]:
    """The matchup modifier of each offensive call against `call`, from the engine's table."""
    return [(off, MATCHUPS[off][call]) for off in OffCall]


def strengths_words(call: OffCall | DefCall) -> str:
    """What a call is strong and weak against, with the band each matchup gives."""
    if isinstance(call, OffCall):
        return _matchup_summary(offense_matchups(call), for_offense=True)
    return _matchup_summary(defense_matchups(call), for_offense=False)


def player_effect_words(player: Player) -> str:
    """ "adds 1 to the band when the final offensive call is Deep Pass"."""
    info = PLAYERS[player]
    call = _(card_name(info.call))
    if info.role is Role.OFFENSE:
        # Translators: what an offensive player card does; {call} is an offensive call's name.
        return _("adds 1 to the band when the final offensive call is {call}").format(call=call)
    # Translators: what a defensive player card does; {call} is an offensive call's name.
    return _("takes 1 off the band when the offense's final call is {call}").format(call=call)


def band_reason_words(band: Band) -> str:
    """ "band minus 1: matchup minus 2, Deep Threat adds 1", from the engine's own `Band`."""
    # Translators: part of how a band was made: {value} is "plus 2", "minus 1" or "0".
    parts = [_("matchup {value}").format(value=signed(band.matchup))]
    if band.offense_player is not None:
        # Translators: part of how a band was made; {player} is a player card's name.
        parts.append(_("{player} adds 1").format(player=_(card_name(band.offense_player))))
    if band.defense_player is not None:
        # Translators: part of how a band was made; {player} is a player card's name.
        parts.append(_("{player} takes 1 away").format(player=_(card_name(band.defense_player))))
    raw = band.matchup + band.offense_bonus - band.defense_bonus
    reasons = ", ".join(parts)
    if raw != band.value:
        # Translators: {band} is "band plus 3"; {reasons} a comma list such as "matchup plus 2,
        # Deep Threat adds 1"; {value} is "plus 3" or "minus 3", the band's limit.
        return _("{band}: {reasons}, capped at {value}").format(
            band=band_name(band.value), reasons=reasons, value=signed(band.value))
    # Translators: {band} is "band minus 1"; {reasons} a comma list such as "matchup minus 2,
    # Deep Threat adds 1".
    return _("{band}: {reasons}").format(band=band_name(band.value), reasons=reasons)


def band_change_words(call: OffCall, without: Band, with_player: Band) -> str:
    """How one player moves the band of `call`, and what that does to the average gain."""
    before, after = without.value, with_player.value
    if before == after:
        if after == MAX_BAND:
            # Translators: {band} is "band plus 3", {value} "plus 3": the player cannot raise
            # the band further.
            return _("{band} stays {value}, already at the top").format(
                band=band_name(before), value=signed(after))
        # Translators: {band} is "band minus 3", {value} "minus 3": the player cannot lower
        # the band further.
        return _("{band} stays {value}, already at the bottom").format(
            band=band_name(before), value=signed(after))
    # Translators: {band} is "band 0", {value} "plus 1"; {after} and {before} are
    # "average gain 4.1 yards" (with the player, and without).
    return _("{band} becomes {value}: {after}, instead of {before}").format(
        band=band_name(before), value=signed(after),
        after=mean_words(band_stats(call, after).mean_yards),
        before=mean_words(band_stats(call, before).mean_yards))


def card_details(card: OffCall | DefCall | Player) -> str:
    """What D says about a card: band 0 statistics and matchups, the explorer's own words."""
    if isinstance(card, Player):
        info = PLAYERS[card]
        # Translators: {player} is a player card's name, {role} "offense player" or "defense
        # player", {effect} "adds 1 to the band when ...", {blurb} the card's own sentence.
        return _("{player}, {role}: {effect}. {blurb}").format(
            player=_(card_name(card)), role=role_player_words(info.role),
            effect=player_effect_words(card), blurb=_(info.blurb))
    if isinstance(card, OffCall):
        off = OFFENSIVE_CALLS[card]
        # Translators: {call} is a call's name, {kind} "run play" or "pass play", {blurb} the
        # card's own sentence, {summary} "At band 0: ...", {matchups} "Strong against: ...".
        return _("{call}, {kind}. {blurb} {summary} {matchups}").format(
            call=_(card_name(card)), kind=kind_words(off.kind), blurb=_(off.blurb),
            summary=band_summary(card, DETAILS_BAND), matchups=strengths_words(card))
    defense = DEFENSIVE_CALLS[card]
    # Translators: {call} is a defensive call's name, {blurb} the card's own sentence,
    # {matchups} "Strong against: ...".
    return _("{call}, defensive call. {blurb} {matchups}").format(
        call=_(card_name(card)), blurb=_(defense.blurb), matchups=strengths_words(card))


def band_rules_lines() -> list[str]:
    """How the band is made, one short line each, ending with the matchup table."""
    lines = [
        # Translators: {low} is "minus 3" and {high} "plus 3".
        _("The band measures how well the offense's final call fits the defense's. It runs "
          "from {low} to {high}; higher is better for the offense.").format(
            low=signed(MIN_BAND), high=signed(MAX_BAND)),
        _("It starts at the matchup of the two final calls: the number in the matchup table."),
        _("An offensive player whose card names the final offensive call adds 1."),
        _("A defensive player whose card names the final offensive call takes 1 away."),
        # Translators: {low} is "minus 3" and {high} "plus 3".
        _("The total is capped at {low} and {high}.").format(
            low=signed(MIN_BAND), high=signed(MAX_BAND)),
        n_("The offensive call's table for that band gives the dice their odds: "
           "{count} table per call, one per band.",
           "The offensive call's table for that band gives the dice their odds: "
           "{count} tables per call, one per band.", len(BANDS)).format(count=len(BANDS)),
        _("Card details and previews use band 0; a real play uses its real band."),
    ]
    for off in OffCall:
        # Translators: one entry of a matchup table row: "Blitz minus 2".
        row = ", ".join(_("{card} {value}").format(card=_(card_name(d)), value=signed(m))
                        for d, m in offense_matchups(off))
        # Translators: {call} is an offensive call's name; {row} a comma list such as
        # "Blitz minus 2, Zone plus 1".
        lines.append(_("Matchup table, {call}: {row}.").format(call=_(card_name(off)), row=row))
    return lines


def card_label(card: OffCall | DefCall | Player) -> tuple[str, str]:
    """A card's name and kind ("player" or "call") for menus, in the player's language."""
    if isinstance(card, Player):
        # Translators: the note beside a card in menus: the card is a featured player.
        return _(card_name(card)), p_("card kind", "player")
    # Translators: the note beside a card in menus: the card is a play call.
    return _(card_name(card)), p_("card kind", "call")
