"""M: how each of your calls meets the other side's revealed calls, answer first: the best call
and the riskiest, then one short sentence a call; on a card you might bring in, only what it
changes. On 3rd and 4th down, each call's chance of reaching the line to gain.

Every figure comes from the engine: the band from `resolve.compute_band` (the function the dice
use), the gains and chances from `stats.band_stats` and `stats.gain_chance`. Their final call is
not known yet, so a call's figures are the average over their three, each as likely. Bands
always count for the offense, as everywhere in the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...engine.actions import swapped
from ...engine.card_model import Call, DefCall, OffCall, Role
from ...engine.cards import card_name
from ...engine.field import LAST_DOWN
from ...engine.resolve import compute_band
from ...engine.state import GameState, Hand, Swap
from ...engine.stats import band_stats, gain_chance
from ...language import _, join_words
from .numbers import mean_words, percent_number, percent_words, signed
from .rules import number_word

NOTABLE_TURNOVER = Fraction(5, 100)  # a call's turnover chance is said from this much
DECIDING_DOWN = LAST_DOWN - 1  # from 3rd down, the chance of making the line to gain is said


@dataclass(frozen=True)
class Needed:
    """A 3rd or 4th down's line to gain: from `line`, `yards` to go."""

    line: int
    yards: int


@dataclass(frozen=True)
class CallFigures:
    """One of your calls against their revealed calls, averaged over those."""

    call: Call
    bands: tuple[int, ...]  # against each of their calls, in their order
    mean: Fraction  # the offense's average gain
    turnover: Fraction  # the offense's chance of losing the ball
    big_gain: Fraction  # the offense's chance of 10 yards or more
    convert: Fraction | None  # the offense's chance of reaching the line to gain

    @property
    def value(self) -> Fraction:
        """The offense's yards less what its turnovers cost (stats.BandStats.value)."""
        return self.mean - 40 * self.turnover


def needed_now(state: GameState) -> Needed | None:
    """The yards that decide this down, on 3rd and 4th down; None on the others."""
    down = state.down
    if down is None or down.number < DECIDING_DOWN:
        return None
    return Needed(down.line, down.distance)


def call_figures(call: Call, role: Role, mine: Hand, theirs: Hand,
                 needed: Needed | None = None) -> CallFigures:
    """`call` of yours against each call they hold, with both sides' featured players."""
    bands, stats, chances = [], [], []
    for other in theirs.calls:
        if role is Role.OFFENSE:
            assert isinstance(call, OffCall) and isinstance(other, DefCall)
            off_call = call
            band = compute_band(call, other, mine.players, theirs.players).value
        else:
            assert isinstance(call, DefCall) and isinstance(other, OffCall)
            off_call = other
            band = compute_band(other, call, theirs.players, mine.players).value
        bands.append(band)
        stats.append(band_stats(off_call, band))
        if needed is not None:
            chances.append(gain_chance(off_call, band, needed.line, needed.yards))
    count = len(stats)
    return CallFigures(
        call=call, bands=tuple(bands),
        mean=sum((s.mean_yards for s in stats), Fraction(0)) / count,
        turnover=sum((s.turnover for s in stats), Fraction(0)) / count,
        big_gain=sum((s.gain_10_plus for s in stats), Fraction(0)) / count,
        convert=sum(chances, Fraction(0)) / count if chances else None)


def hand_figures(role: Role, mine: Hand, theirs: Hand,
                 needed: Needed | None = None) -> list[CallFigures]:
    return [call_figures(call, role, mine, theirs, needed) for call in mine.calls]


def best_and_riskiest(role: Role, figures: Sequence[CallFigures]) -> tuple[Call, Call]:
    """Offense: the most yards for the turnovers risked, and the likeliest to turn it over.
    Defense: the fewest yards given for the turnovers forced, and the likeliest to give up a
    big play."""
    if role is Role.OFFENSE:
        best = max(figures, key=lambda f: f.value)
        riskiest = max(figures, key=lambda f: f.turnover)
    else:
        best = min(figures, key=lambda f: f.value)
        riskiest = max(figures, key=lambda f: f.big_gain)
    return best.call, riskiest.call


def _bands_phrase(bands: tuple[int, ...]) -> str:
    """ "band plus 2 against all three" or "bands plus 2, plus 1 and 0"."""
    if len(set(bands)) == 1:
        # Translators: {band} is "plus 2"; {count} how many calls they hold, in words.
        return _("band {band} against all {count}").format(
            band=signed(bands[0]), count=number_word(len(bands)))
    # Translators: {bands} lists bands, as "plus 2, plus 1 and 0".
    return _("bands {bands}").format(bands=join_words([signed(b) for b in bands]))


def _call_sentence(figures: CallFigures, needed: Needed | None) -> str:
    """ "Inside Run: plus 1, 0, minus 1, average gain 4.2 yards, 55 percent to make the 4." """
    parts = [", ".join(signed(band) for band in figures.bands), mean_words(figures.mean)]
    if needed is not None and figures.convert is not None:
        # Translators: the chance of reaching the line to gain: "55 percent to make the 4"
        # ({yards} is how many yards are needed).
        parts.append(_("{chance} to make the {yards}").format(
            chance=percent_words(figures.convert), yards=needed.yards))
    if figures.turnover >= NOTABLE_TURNOVER:
        # Translators: the chance of losing the ball: "turnover 6 percent".
        parts.append(_("turnover {chance}").format(chance=percent_words(figures.turnover)))
    # Translators: one call's figures against theirs, as "Inside Run: plus 1, 0, minus 1,
    # average gain 4.2 yards".
    return _("{card}: {figures}.").format(card=_(card_name(figures.call)),
                                          figures=", ".join(parts))


def matchups_words(role: Role, mine: Hand, theirs: Hand, needed: Needed | None = None) -> str:
    """M at the swap and the final call: the answer first, then each call in one sentence."""
    figures = hand_figures(role, mine, theirs, needed)
    best, riskiest = best_and_riskiest(role, figures)
    best_figures = next(f for f in figures if f.call is best)
    # Translators: {calls} lists their revealed calls, in the order the bands follow.
    against = _("Against {calls}.").format(
        calls=join_words([_(card_name(call)) for call in theirs.calls]))
    # Translators: the answer first: {best} is a call's name, {bands} "band plus 2 against all
    # three" or "bands plus 2, plus 1 and 0"; {riskiest} another call's name (or the same).
    lead = _("Best: {best}, {bands}; riskiest: {riskiest}.").format(
        best=_(card_name(best)), bands=_bands_phrase(best_figures.bands),
        riskiest=_(card_name(riskiest)))
    lines = [_call_sentence(f, needed) for f in figures]
    side = "" if role is Role.OFFENSE else _("Bands and gains are the offense's.")
    return " ".join(filter(None, [side, against, lead, *lines]))


def swap_words(role: Role, mine: Hand, swap: Swap, theirs: Hand,
               needed: Needed | None = None) -> str:
    """M on a card you might bring in: only what it changes."""
    assert swap.into is not None and swap.out is not None
    before = {f.call: f for f in hand_figures(role, mine, theirs, needed)}
    after = hand_figures(role, swapped(mine, swap), theirs, needed)
    changed = [f for f in after if f.call not in before or before[f.call].bands != f.bands]
    # Translators: {incoming} is brought in for {outgoing} (two card names).
    opening = _("With {incoming} for {outgoing}:").format(
        incoming=_(card_name(swap.into)), outgoing=_(card_name(swap.out)))
    if not changed:
        return " ".join([opening, _("no band changes against their calls.")])
    best, _riskiest = best_and_riskiest(role, after)
    # Translators: {best} is a call's name: the best of the hand with the new card.
    verdict = _("Best then: {best}.").format(best=_(card_name(best)))
    return " ".join([opening, *(_call_sentence(f, needed) for f in changed), verdict])


def conversion_words(role: Role, mine: Hand, theirs: Hand, needed: Needed) -> str:
    """On 3rd and 4th down, at the final call: each call's chance of reaching the line to
    gain against their calls (the offense's, on defense too)."""
    figures = hand_figures(role, mine, theirs, needed)
    # Translators: a call's chance, the number alone: "Inside Run 55".
    chances = [_("{card} {number}").format(card=_(card_name(f.call)),
                                           number=percent_number(f.convert or Fraction(0)))
               for f in figures]
    if role is Role.OFFENSE:
        # Translators: {yards} is how many yards are needed; {chances} lists "Inside Run 55,
        # Outside Run 40 and Deep Pass 30": each call's chance, in percent.
        words = _("To make the {yards}: {chances} percent.")
    else:
        # Translators: the offense's chances against each of your calls, in percent:
        # {chances} lists "Blitz 30, Man Coverage 25 and Zone Coverage 45".
        words = _("Their chance to make the {yards}: against {chances} percent.")
    return words.format(yards=needed.yards, chances=join_words(chances))
