"""The words of the held keys setting (Settings, Held keys repeat): its line in the menu."""

from __future__ import annotations

from ...language import _, n_, p_
from ...storage.settings import KEY_REPEATS


def speed_words(name: str) -> str:
    """A speed's word, with a context of its own: "fast" here is not a verbosity's word."""
    if name == "slow":
        # Translators: how fast a held arrow key repeats, as in "Held keys repeat: slow, after
        # 600 milliseconds, then 6 times a second".
        return p_("key repeat", "slow")
    if name == "fast":
        # Translators: how fast a held arrow key repeats, the quickest choice.
        return p_("key repeat", "fast")
    if name == "normal":
        # Translators: how fast a held arrow key repeats, as a screen reader's do.
        return p_("key repeat", "normal")
    return name


def key_repeat_label(name: str) -> str:
    """The setting's line: off, or its speed with the pause and the rate it sets."""
    timing = KEY_REPEATS.get(name)
    if timing is None:
        # Translators: the setting for arrow keys, the D-pad and the stick repeating while
        # held (as a screen reader's do), turned off: each press moves once.
        return _("Held keys repeat: off")
    pause, rate = timing
    # Translators: {speed} is "slow", "normal" or "fast"; {pause} a number of milliseconds
    # before a held arrow key first repeats.
    before = n_("Held keys repeat: {speed}, after {pause} millisecond",
                "Held keys repeat: {speed}, after {pause} milliseconds",
                round(pause * 1000)).format(speed=speed_words(name),
                                            pause=round(pause * 1000))
    # Translators: said after "Held keys repeat: normal, after 400 milliseconds"; {rate} is
    # how many times a second the held key then repeats.
    return before + n_(", then {rate} time a second", ", then {rate} times a second",
                       rate).format(rate=rate)
