"""Numbers as the player hears them, each written by hand: percentages rounded half up (one
decimal below 10 percent), signed bands, average gains, and yardage table rows."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sudden_death.ui.words.numbers import (
    band_name,
    band_title,
    mean_words,
    percent_number,
    percent_words,
    signed,
    yards_words,
)


@pytest.mark.parametrize(("chance", "spoken"), [
    (Fraction(0), "0"),
    (Fraction(1), "100"),
    (Fraction(1, 4), "25"),  # exact: no rounding
    (Fraction(1, 3), "33"),  # 33.33...
    (Fraction(2, 3), "67"),  # 66.66... rounds up
    (Fraction(1, 8), "13"),  # 12.5: a half goes up
    (Fraction(5, 8), "63"),  # 62.5
    (Fraction(199, 2000), "10"),  # 9.95 is under 10: one decimal, the half goes up to 10.0
    (Fraction(197, 2000), "9.9"),  # 9.85
    (Fraction(1, 36), "2.8"),  # 2.777...
    (Fraction(1, 216), "0.5"),  # 0.4629...
    (Fraction(3, 100), "3"),  # exactly 3: no ".0"
    (Fraction(1, 20), "5"),
    (Fraction(21, 200), "11"),  # 10.5: at 10 and over, whole percents
    (Fraction(1, 1000), "0.1"),
    (Fraction(1, 3000), "0"),  # 0.0333...: "0", never "0.0"
])
def test_percent_numbers(chance: Fraction, spoken: str) -> None:
    assert percent_number(chance) == spoken
    assert percent_words(chance) == f"{spoken} percent"


@pytest.mark.parametrize(("value", "spoken"), [
    (2, "plus 2"), (1, "plus 1"), (0, "0"), (-1, "minus 1"), (-3, "minus 3")])
def test_signed_bands(value: int, spoken: str) -> None:
    assert signed(value) == spoken
    assert band_name(value) == f"band {spoken}"
    assert band_title(value) == f"Band {spoken}"


@pytest.mark.parametrize(("mean", "spoken"), [
    (Fraction(41, 10), "average gain 4.1 yards"),
    (Fraction(4), "average gain 4 yards"),
    (Fraction(0), "average gain 0 yards"),
    (Fraction(1, 20), "average gain 0.1 yards"),  # 0.05 rounds up
    (Fraction(1, 21), "average gain 0 yards"),  # 0.0476 rounds down
    (Fraction(-3, 10), "average loss 0.3 yards"),
    (Fraction(-1, 20), "average loss 0.1 yards"),  # halves go away from zero
    (Fraction(-12), "average loss 12 yards"),
    (Fraction(199, 20), "average gain 10 yards"),  # 9.95: rounds to 10, said without ".0"
])
def test_average_gains(mean: Fraction, spoken: str) -> None:
    assert mean_words(mean) == spoken


@pytest.mark.parametrize(("yards", "spoken"), [
    (-3, "loss of 3"), (-1, "loss of 1"), (0, "no gain"), (1, "gain of 1"), (12, "gain of 12")])
def test_yardage_table_rows(yards: int, spoken: str) -> None:
    assert yards_words(yards) == spoken
