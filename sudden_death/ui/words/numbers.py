"""Numbers as the player hears them: percentages, signed bands, average gains, table rows.

Every value comes from the engine; these functions only round and phrase it."""

from __future__ import annotations

import math
from fractions import Fraction

from ...language import _


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


def percent_number(chance: Fraction) -> str:
    """A chance (0..1) as its percent, the number alone: "12"; one decimal below 10 percent
    so small risks still show ("4.5")."""
    percent = chance * 100
    if percent.denominator == 1:
        return str(percent.numerator)
    return _decimal(percent, 1 if percent < 10 else 0)


def percent_words(chance: Fraction) -> str:
    """A chance (0..1) as "12 percent"."""
    # Translators: a chance; {percent} is a number such as "12" or "4.5".
    return _("{percent} percent").format(percent=percent_number(chance))


def signed(value: int) -> str:
    """A band or modifier as spoken: "plus 2", "minus 1", "0"."""
    if value > 0:
        # Translators: a band or modifier above zero, "plus 2".
        return _("plus {value}").format(value=value)
    if value < 0:
        # Translators: a band or modifier below zero, "minus 1".
        return _("minus {value}").format(value=-value)
    return "0"


def band_name(band: int) -> str:
    """ "band plus 1"."""
    # Translators: {band} is "plus 1", "minus 2" or "0". The band measures how well the
    # offense's call fits the defense's.
    return _("band {band}").format(band=signed(band))


def band_title(band: int) -> str:
    """ "Band plus 1": the band as the label of a list entry (the band name, capitalized)."""
    # Translators: a list entry's label; {band} is "plus 1", "minus 2" or "0".
    return _("Band {band}").format(band=signed(band))


def mean_words(mean: Fraction) -> str:
    """ "average gain 4.1 yards" or "average loss 0.3 yards"."""
    if mean < 0:
        # Translators: {yards} is a decimal number such as "0.3" or "1" (always said "yards").
        return _("average loss {yards} yards").format(yards=_decimal(mean, 1))
    # Translators: {yards} is a decimal number such as "4.1" or "1" (always said "yards").
    return _("average gain {yards} yards").format(yards=_decimal(mean, 1))


def yards_words(yards: int) -> str:
    """One row of a yardage table: "loss of 3", "no gain", "gain of 12"."""
    if yards < 0:
        # Translators: one row of a yardage table, a loss of {yards} yards.
        return _("loss of {yards}").format(yards=-yards)
    if yards == 0:
        return _("no gain")
    # Translators: one row of a yardage table, a gain of {yards} yards.
    return _("gain of {yards}").format(yards=yards)

