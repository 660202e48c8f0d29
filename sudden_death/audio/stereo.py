"""What two ears hear: folding a stereo sound into the same sound in both (Mono sound).

Shared by the sounds made while playing (the field tone, the play's sweep) and the crowd bed;
the averaging is mapped in C over the interleaved samples, as it runs on the game's thread.
"""

from __future__ import annotations

from array import array
from itertools import repeat
from operator import add, floordiv


def fold_to_mono(samples: array) -> array:
    """Interleaved stereo 16-bit samples with each frame's two sides averaged into both: for a
    player with one ear or one speaker, nothing is lost to the side they do not hear."""
    both = array("h", map(floordiv, map(add, samples[0::2], samples[1::2]), repeat(2)))
    out = array("h", bytes(2 * len(samples)))
    out[0::2] = both
    out[1::2] = both
    return out
