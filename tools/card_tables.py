"""Rebuild the band tables in sudden_death/engine/cards.py from a few tuning parameters.

Why: the 42 rows of band tables were not written by hand. Each call has one band-0 row (the
realistic play); the other bands tilt that row toward long gains (positive bands) or short ones
(negative bands) and move the risks a little per band. Keeping the recipe here lets a maintainer
change one knob, regenerate and re-run the balance report (docs/balance.md), and a test checks that
cards.py still equals what this recipe gives.

Usage: python tools/card_tables.py            print the tables as Python source for cards.py
       python tools/card_tables.py --check    exit 1 if cards.py differs from the recipe
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudden_death.engine.card_model import BANDS, BandTable, OffCall

RUN_TILT = (1.0, 0.17)  # exponent per band for positive, negative bands: runs gain a lot when open
PASS_TILT = (0.57, 0.81)  # passes fall off fast when covered, which keeps runs worth calling
PASS_YARDS = 1.6  # completions are long: the rules' computer calls plays at random, so drives
SLANT_YARDS = 1.45  # need big plays to reach the end zone as often as the targets ask
INCOMPLETE_STEP = (2, 4)
INTERCEPTION_STEP = (0.34, 1.5)
SACK_STEP = (0.67, 1)
FUMBLE_STEP = (0.34, 0.34)


@dataclass(frozen=True)
class Recipe:
    """A call's band-0 row and how its other bands are derived from it."""

    columns: tuple[int, ...]
    weights: tuple[int, ...]
    tilt: tuple[float, float]
    fumble: int
    incomplete: int | None = None
    interception: int = 0
    sack: int = 0
    yards_scale: float = 1.0
    interception_floor: int = 1


def _scaled(columns: tuple[int, ...], scale: float) -> tuple[int, ...]:
    return tuple(round(c * scale) if c > 0 else c for c in columns)


RECIPES: dict[OffCall, Recipe] = {
    OffCall.INSIDE_RUN: Recipe(
        (-3, -1, 0, 1, 2, 3, 4, 5, 6, 8, 12, 20, 30),
        (4, 8, 10, 10, 11, 12, 11, 9, 8, 8, 5, 3, 1),
        RUN_TILT,
        fumble=1,
    ),
    OffCall.OUTSIDE_RUN: Recipe(
        (-5, -3, -1, 0, 2, 4, 6, 8, 11, 15, 22, 30, 40),
        (6, 10, 11, 10, 13, 13, 10, 8, 7, 5, 4, 2, 1),
        RUN_TILT,
        fumble=1,
    ),
    OffCall.DRAW: Recipe(
        (-4, -2, 0, 1, 2, 3, 4, 6, 8, 12, 18, 25, 35),
        (6, 9, 10, 11, 12, 12, 11, 10, 8, 5, 3, 2, 1),
        RUN_TILT,
        fumble=1,
    ),
    OffCall.SCREEN: Recipe(
        (-4, -2, 0, 3, 5, 8, 10, 13, 17, 22, 28, 35),
        (5, 7, 9, 11, 13, 14, 12, 10, 8, 6, 4, 1),
        PASS_TILT,
        fumble=2,
        incomplete=18,
        interception=1,
        sack=3,
        yards_scale=PASS_YARDS,
        interception_floor=0,
    ),
    OffCall.QUICK_SLANT: Recipe(
        (3, 4, 6, 7, 9, 10, 12, 14, 17, 22, 28, 35),
        (6, 8, 10, 11, 12, 12, 11, 10, 8, 7, 4, 1),
        PASS_TILT,
        fumble=1,
        incomplete=28,
        interception=2,
        sack=4,
        yards_scale=SLANT_YARDS,
    ),
    OffCall.DEEP_PASS: Recipe(
        (16, 18, 20, 23, 26, 29, 32, 36, 40, 45, 55),
        (10, 12, 13, 13, 12, 11, 9, 8, 6, 4, 2),
        PASS_TILT,
        fumble=1,
        incomplete=50,
        interception=5,
        sack=8,
        yards_scale=PASS_YARDS,
    ),
}


def tilt(weights: tuple[int, ...], band: int, strength: float) -> tuple[int, ...]:
    """Lean the weights toward the last columns (band > 0) or the first (band < 0); whole
    percents summing to 100, rounded by largest remainder so the table stays exact."""
    n = len(weights)
    raw = [w * math.exp(band * strength * (2 * i / (n - 1) - 1)) for i, w in enumerate(weights)]
    total = sum(raw)
    scaled = [r * 100 / total for r in raw]
    whole = [int(x) for x in scaled]
    by_remainder = sorted(range(n), key=lambda i: scaled[i] - whole[i], reverse=True)
    for i in by_remainder[: 100 - sum(whole)]:
        whole[i] += 1
    return tuple(whole)


def risk(base: int, steps: tuple[float, float], band: int, floor: int = 0) -> int:
    """A risk in percent: `base` at band 0, falling per band above it, rising per band below."""
    step = steps[0] if band > 0 else steps[1]
    return max(floor, round(base - step * band))


def band_tables(recipe: Recipe) -> dict[int, BandTable]:
    columns = _scaled(recipe.columns, recipe.yards_scale)
    tables = {}
    for band in BANDS:
        strength = recipe.tilt[0] if band > 0 else recipe.tilt[1]
        yards = tuple(zip(columns, tilt(recipe.weights, band, strength), strict=True))
        fumble = risk(recipe.fumble, FUMBLE_STEP, band, floor=1)
        if recipe.incomplete is None:
            tables[band] = BandTable(yards, fumble)
            continue
        tables[band] = BandTable(
            yards,
            fumble,
            incomplete=risk(recipe.incomplete, INCOMPLETE_STEP, band),
            interception=risk(
                recipe.interception, INTERCEPTION_STEP, band, recipe.interception_floor
            ),
            sack=risk(recipe.sack, SACK_STEP, band, floor=1),
        )
    return tables


def all_tables() -> dict[OffCall, dict[int, BandTable]]:
    return {call: band_tables(recipe) for call, recipe in RECIPES.items()}


def source() -> str:
    """The tables as the Python source that cards.py holds."""
    lines = []
    for call, tables in all_tables().items():
        is_pass = RECIPES[call].incomplete is not None
        columns = tuple(yards for yards, _ in tables[0].yards)
        lines += [
            f"_{call.name} = _{'pass' if is_pass else 'run'}_bands(",
            f"    {columns},",
            "    {",
        ]
        for band, table in tables.items():
            weights = tuple(weight for _, weight in table.yards)
            risks = (
                f"{table.incomplete}, {table.interception}, {table.sack}, {table.fumble}"
                if is_pass
                else f"{table.fumble}"
            )
            lines.append(f"        {band}: ({risks}, {weights}),")
        lines += ["    },", ")"]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if "--check" in argv:
        from sudden_death.engine.cards import OFFENSIVE_CALLS

        differing = [c.name for c, t in all_tables().items() if OFFENSIVE_CALLS[c].bands != t]
        print("cards.py matches the recipe" if not differing else f"differs: {differing}")
        return 1 if differing else 0
    print(source())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
