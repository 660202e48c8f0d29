"""The words of the held keys setting (Settings, Held keys repeat): its line in the menu."""

from __future__ import annotations

from ...language import N_, _, n_
from ...storage.settings import KEY_REPEATS

SPEED_WORDS = {
    # Translators: how fast a held arrow key repeats, as in "Held keys repeat: slow, after
    # 600 milliseconds, 6 a second".
    "slow": N_("slow"),
    # Translators: how fast a held arrow key repeats, as a screen reader's do.
    "normal": N_("normal"),
    # Translators: how fast a held arrow key repeats, the quickest choice.
    "fast": N_("fast"),
}


def key_repeat_label(name: str) -> str:
    """The setting's line: off, or its speed with the pause and the rate it sets."""
    timing = KEY_REPEATS.get(name)
    if timing is None:
        # Translators: the setting for arrow keys, the D-pad and the stick repeating while
        # held (as a screen reader's do), turned off: each press moves once.
        return _("Held keys repeat: off")
    pause, rate = timing
    speed = SPEED_WORDS.get(name)
    # Translators: {speed} is "slow", "normal" or "fast"; {pause} a number of milliseconds
    # before a held arrow key first repeats.
    before = n_("Held keys repeat: {speed}, after {pause} millisecond",
                "Held keys repeat: {speed}, after {pause} milliseconds",
                round(pause * 1000)).format(speed=_(speed) if speed else name,
                                            pause=round(pause * 1000))
    # Translators: said after "Held keys repeat: normal, after 400 milliseconds"; {rate} is
    # how many times a second the held key then repeats.
    return before + n_(", then {rate} time a second", ", then {rate} times a second",
                       rate).format(rate=rate)
