"""Verbosity: how much the game says after each step (the narrator, the screens and the menus
read it), one scale from short to detailed.

Short keeps only what changed (the other side's cards, the yards, the new down); normal says each
thing once; detailed adds the rolls and the reasoning a learner wants. Cues are never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from ...language import N_
from ...storage.presets import PRESETS

if TYPE_CHECKING:  # only its type: the settings file's module needs the player's folders
    from ...storage.settings import Settings


class Verbosity(IntEnum):
    """Ordered, so "at least normal" is `verbosity >= Verbosity.NORMAL`."""

    SHORT = 0
    NORMAL = 1
    DETAILED = 2

    @classmethod
    def of(cls, setting: str) -> Verbosity:
        """The level a settings file names ("short", "normal", "detailed"); normal otherwise."""
        return cls.__members__.get(setting.upper(), cls.NORMAL)

    @property
    def setting(self) -> str:
        """The name settings.json keeps."""
        return self.name.lower()


@dataclass(frozen=True)
class Telling:
    """What the words include, switch by switch, as screen readers let their users choose:
    the dial (`Verbosity`) sets them all, and each can then be changed alone (Settings).

    `brief` is the short preset's own: the fewest words for each thing. `dice`: the rolls
    and the percentages behind results and kicks. `explanations`: a screen explains itself
    every time (else the first time in a game, and a key's use until the player has used
    it), and results add their reasons. `positions`: the place in a list on every move
    (else when a list is entered, and never when brief). `computer_swaps`: the other side's
    swaps are said."""

    brief: bool = False
    dice: bool = False
    explanations: bool = False
    positions: bool = False
    computer_swaps: bool = True

    @classmethod
    def preset(cls, level: Verbosity) -> Telling:
        switches = PRESETS[level.setting]
        return cls(brief=level is Verbosity.SHORT, **switches)

    @classmethod
    def of(cls, settings: Settings) -> Telling:
        """What the player's settings ask for: the dial's brevity and their own switches."""
        return cls(brief=Verbosity.of(settings.verbosity) is Verbosity.SHORT,
                   dice=settings.switch("dice"), explanations=settings.switch("explanations"),
                   positions=settings.switch("positions"),
                   computer_swaps=settings.switch("computer_swaps"))


# Marked for the catalog here; shown with `_()` where they are used.
VERBOSITY_WORDS = {
    # Translators: a verbosity setting, as in "Verbosity: short: only what changed".
    Verbosity.SHORT: N_("short: only what changed"),
    # Translators: a verbosity setting, as in "Verbosity: normal".
    Verbosity.NORMAL: N_("normal"),
    # Translators: a verbosity setting, as in "Verbosity: detailed: with the rolls and the
    # reasons".
    Verbosity.DETAILED: N_("detailed: with the rolls and the reasons"),
}
