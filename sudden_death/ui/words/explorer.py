"""The explorer's levels as words: what each list holds and what each line says in full.

The desktop's explorer screens (`ui/screens/explorer.py`) and the browser page's dialog
(`web/explorer_words.py`) both read their levels from here, so the two can never say different
figures or word a line two ways. Like the screens, this reads the card tables, `band_stats` and
`compute_band` only, never a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from ...engine.card_model import BANDS, Card, DefCall, OffCall, Player, Role
from ...engine.cards import OFFENSIVE_CALLS, PLAYERS, card_name, players_for
from ...engine.resolve import compute_band
from ...engine.stats import band_stats
from ...language import _, p_
from . import cards, numbers


@dataclass(frozen=True)
class Line:
    """One line of a level: its label, the note said after it, the card it shows, and what
    asking for more says (made only when asked: a yardage table is long)."""

    label: str
    note: str = ""
    card: Card | None = None
    more: Callable[[], str] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Part:
    """A titled list of lines; `focus` is the line a player starts on."""

    title: str
    lines: list[Line]
    focus: int = 0


def back_label() -> str:
    # Translators: the button (and its group) that goes back one level of the explorer.
    return p_("button", "Back")


def card_lists() -> list[tuple[str, list[Card]]]:
    """The explorer's four lists of cards, by title, in the order its main menu gives them."""
    return [
        (_("Offensive calls"), list(OffCall)),
        (_("Defensive calls"), list(DefCall)),
        (_("Offensive players"), list(players_for(Role.OFFENSE))),
        (_("Defensive players"), list(players_for(Role.DEFENSE))),
    ]


def card_note(card: Card) -> str:
    """What a card is, said after its name in a list: a play's kind, or the call it touches."""
    if isinstance(card, OffCall):
        return cards.kind_words(OFFENSIVE_CALLS[card].kind)
    if isinstance(card, DefCall):
        return _("defensive call")
    assert isinstance(card, Player)
    call = _(card_name(PLAYERS[card].call))
    if PLAYERS[card].role is Role.OFFENSE:
        # Translators: what an offensive player card does; {call} is an offensive call's name.
        return _("boosts {call}").format(call=call)
    # Translators: what a defensive player card does; {call} is an offensive call's name.
    return _("stops {call}").format(call=call)


def list_lines(kind: list[Card]) -> list[Line]:
    """A list of cards: each one's name and what it is."""
    return [Line(_(card_name(card)), card_note(card), card=card) for card in kind]


def against(card: OffCall | DefCall) -> str:
    """ "Against Blitz": a matchup's label in a card's list of matchups."""
    # Translators: a list entry: the matchup of this screen's card against {card}.
    return _("Against {card}").format(card=_(card_name(card)))


def versus(off: OffCall, defense: DefCall) -> str:
    """ "Inside Run against Blitz": one offensive call against one defensive call."""
    # Translators: {offense} is an offensive call's name, {defense} a defensive call's name.
    return _("{offense} against {defense}").format(offense=_(card_name(off)),
                                                    defense=_(card_name(defense)))


def matchup_result(off: OffCall, defense: DefCall) -> str:
    """A matchup in full: how its band is made, then the figures at that band."""
    band = compute_band(off, defense)
    # Translators: {matchup} is "Inside Run against Blitz"; {reasons} "band minus 1: matchup
    # minus 2"; {summary} "At band minus 1: average gain ...".
    return _("{matchup}, {reasons}. {summary}").format(
        matchup=versus(off, defense), reasons=cards.band_reason_words(band),
        summary=cards.band_summary(off, band.value))


def _matchup_note(off: OffCall, modifier: int, for_offense: bool) -> str:
    return (f"{cards.matchup_note(modifier, for_offense=for_offense)}, "
            f"{numbers.mean_words(band_stats(off, modifier).mean_yards)}")


def off_call_parts(call: OffCall) -> list[Part]:
    """An offensive call: its bands (each with its yardage table), its matchups and the
    players that touch it."""
    bands = [Line(numbers.band_title(band), cards.call_stats_words(call, band),
                  more=partial(cards.yardage_table_words, call, band)) for band in BANDS]
    matchups = [Line(against(d), _matchup_note(call, m, True), card=d,
                     more=partial(matchup_result, call, d))
                for d, m in cards.offense_matchups(call)]
    players = [Line(_(card_name(p)), f"{cards.role_player_words(PLAYERS[p].role)}, "
                                     f"{cards.player_effect_words(p)}", card=p)
               for p in PLAYERS if PLAYERS[p].call is call]
    return [Part(_("Bands"), bands, focus=BANDS.index(cards.DETAILS_BAND)),
            Part(_("Matchups"), matchups), Part(_("Players"), players)]


def def_call_parts(call: DefCall) -> list[Part]:
    """A defensive call against each offensive call, each matchup's figures in full."""
    lines = [Line(against(off), _matchup_note(off, m, False), card=off,
                  more=partial(matchup_result, off, call))
             for off, m in cards.defense_matchups(call)]
    return [Part(_("Against each offensive call"), lines)]


def player_parts(player: Player) -> list[Part]:
    """How one player moves its call's band against each defensive call."""
    info = PLAYERS[player]
    offense = info.role is Role.OFFENSE
    lines = []
    for defense in DefCall:
        without = compute_band(info.call, defense)
        with_player = (compute_band(info.call, defense, offense_players=(player,))
                       if offense else
                       compute_band(info.call, defense, defense_players=(player,)))
        lines.append(Line(versus(info.call, defense),
                          cards.band_change_words(info.call, without, with_player),
                          card=defense))
    # Translators: {player} is a player card's name.
    title = _("How {player} moves the band").format(player=_(card_name(player)))
    return [Part(title, lines)]


def card_parts(card: Card) -> list[Part]:
    """A card's own level, whatever its kind."""
    if isinstance(card, OffCall):
        return off_call_parts(card)
    if isinstance(card, DefCall):
        return def_call_parts(card)
    assert isinstance(card, Player)
    return player_parts(card)


def rules_title() -> str:
    return _("How the band is made")


def rules_parts() -> list[Part]:
    """How the band is made, line by line, and the whole matchup table."""
    return [Part(rules_title(), [Line(line) for line in cards.band_rules_lines()])]
