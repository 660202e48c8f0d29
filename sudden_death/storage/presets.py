"""The verbosity dial's levels and the switches each preset sets: plain data, apart from the
settings file (settings.py) because the narrator reads them (ui/words/verbosity.py) where no
settings file is, in the page's own game in the browser (issue 74), which has no platformdirs
and no player's folders."""

from __future__ import annotations

from collections.abc import Mapping

VERBOSITIES = ("short", "normal", "detailed")
# The switches under the verbosity dial (ui/words/verbosity.Telling), as each preset sets them:
# the dice and percentages, explanations and hints every time, the position in lists on every
# move, the computer's swaps. Choosing a preset sets all four; each can then be changed alone.
SWITCHES = ("dice", "explanations", "positions", "computer_swaps")
PRESETS: Mapping[str, Mapping[str, bool]] = {
    "short": {"dice": False, "explanations": False, "positions": False, "computer_swaps": True},
    "normal": {"dice": False, "explanations": False, "positions": False, "computer_swaps": True},
    "detailed": {"dice": True, "explanations": True, "positions": True, "computer_swaps": True},
}
