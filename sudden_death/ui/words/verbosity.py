"""Verbosity: how much the game says after each step (the narrator, the screens and the menus
read it), one scale from short to detailed.

Short keeps only what changed (the other side's cards, the yards, the new down); normal says each
thing once; detailed adds the rolls and the reasoning a learner wants. Cues are never dropped.
"""

from __future__ import annotations

from enum import IntEnum

from ...language import N_


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
