"""Hearing the field: the ball's position as a short stereo tone, then in words.

The tone rises in pitch toward the opponent's goal and moves from the left ear (your own goal)
to the right ear (theirs), so a glance by ear tells how far there is to go. Pure standard
library: the samples are built here and handed to the cue player as a WAV.
"""

from __future__ import annotations

import math
import sys
from array import array
from itertools import accumulate, chain, repeat
from operator import mul

from ...audio.stereo import fold_to_mono
from ...audio.synth import pcm_to_wav
from ...engine.field import GOAL_LINE
from ...language import _, n_
from ..words.phrases import MIDFIELD

SAMPLE_RATE = 22050
LOW_HZ = 220.0  # your own goal line
OCTAVES = 2.0  # the opponent's goal line is two octaves higher (880 Hz)
TONE_SECONDS = 0.22
AFTER_PLAY_SECONDS = 0.12  # the brief version played after each play
SWEEP_SECONDS = 0.4  # a play's sweep: about as long as the dice, under the result's first words
FADE_SECONDS = 0.015
PEAK = 0.35  # of full scale: well under speech so it never masks it


def frequency_for(spot: float) -> float:
    """Pitch for a spot 0..100 yards from the player's own goal: exponential, as ears hear."""
    return LOW_HZ * 2 ** (OCTAVES * max(0, min(100, spot)) / 100)


def pan_for(spot: float) -> float:
    """0.0 = full left (your own goal) .. 1.0 = full right (the opponent's goal)."""
    return max(0, min(100, spot)) / 100


def tone_samples(spot: int, seconds: float = TONE_SECONDS,
                 rate: int = SAMPLE_RATE) -> array:
    """Interleaved stereo 16-bit samples (left, right, left, ...) with equal-power panning."""
    frequency = frequency_for(spot)
    angle = pan_for(spot) * math.pi / 2
    left_gain, right_gain = math.cos(angle), math.sin(angle)
    count = max(1, int(seconds * rate))
    fade = max(1, min(count // 2, int(FADE_SECONDS * rate)))
    out = array("h", bytes(4 * count))
    step = 2 * math.pi * frequency / rate
    for i in range(count):
        envelope = min(1.0, i / fade, (count - 1 - i) / fade)
        value = PEAK * 32767 * envelope * math.sin(step * i)
        out[2 * i] = int(value * left_gain)
        out[2 * i + 1] = int(value * right_gain)
    return out


def tone_wav(spot: int, seconds: float = TONE_SECONDS, mono: bool = False) -> bytes:
    """The tone as a complete stereo WAV file, ready for `pygame.mixer.Sound`; `mono` (the
    Mono sound setting) gives both ears the same, the pitch still telling the spot."""
    samples = tone_samples(spot, seconds)
    return _wav(fold_to_mono(samples) if mono else samples)


def sweep_samples(start: int, end: int, seconds: float = SWEEP_SECONDS,
                  rate: int = SAMPLE_RATE) -> array:
    """A glide from `start` to `end` (spots from the player's own goal, held to the field):
    pitch and pan move as the field tone's would at each spot on the way, so a gain toward
    their goal rises and moves right, and a loss falls back. Interleaved stereo 16-bit, like
    `tone_samples`.

    Made on the game's thread as a play's result is told, so no sample is computed in Python:
    along a straight glide the pitch grows by a constant ratio and the pan angle by a constant
    step, so the phases and angles are running products and sums (itertools), and sines,
    gains and products are mapped in C: under 4 ms for a play's sweep, where a loop over the
    samples took 14 (measured on the CI machine)."""
    count = max(1, int(seconds * rate))
    fade = max(1, min(count // 2, int(FADE_SECONDS * rate)))
    first, last = (max(0.0, min(100.0, float(spot))) for spot in (start, end))
    steps = max(1, count - 1)
    ratio = 2 ** (OCTAVES * (last - first) / 100 / steps)  # pitch, sample to sample
    increments = accumulate(repeat(ratio, count - 1), mul,
                            initial=2 * math.pi * frequency_for(first) / rate)
    phases = accumulate(increments)
    turn = (last - first) / 100 * (math.pi / 2) / steps  # pan angle, sample to sample
    angles = list(accumulate(repeat(turn, count - 1), initial=pan_for(first) * math.pi / 2))
    scale = PEAK * 32767
    edge = [scale * min(1.0, i / fade, (count - 1 - i) / fade) for i in range(min(fade, count))]
    middle = max(0, count - 2 * len(edge))
    envelope = chain(edge, repeat(scale, middle), reversed(edge[: count - len(edge) - middle]))
    values = list(map(mul, envelope, map(math.sin, phases)))
    out = array("h", bytes(4 * count))
    out[0::2] = array("h", map(int, map(mul, values, map(math.cos, angles))))
    out[1::2] = array("h", map(int, map(mul, values, map(math.sin, angles))))
    return out


def sweep_wav(start: int, end: int, seconds: float = SWEEP_SECONDS, mono: bool = False) -> bytes:
    """The play's sweep as a complete stereo WAV file (`mono`: the same in both ears)."""
    samples = sweep_samples(start, end, seconds)
    return _wav(fold_to_mono(samples) if mono else samples)


def _wav(samples: array) -> bytes:
    if sys.byteorder == "big":
        samples = array("h", samples)
        samples.byteswap()  # WAV is little-endian
    return pcm_to_wav(samples.tobytes(), SAMPLE_RATE, channels=2)


def spot_from_left(spot: int) -> str:
    """A spot 0..100 from the player's own goal, in words: "your own 30", "their 20"."""
    if spot == MIDFIELD:
        # Translators: the 50-yard line, as a spot on the field ("Ball on midfield").
        return _("midfield")
    if spot < MIDFIELD:
        # Translators: a spot on the field, {yard_line} yards from the player's own goal line.
        return _("your own {yard_line}").format(yard_line=spot)
    # Translators: a spot on the field, {yard_line} yards from the other team's goal line.
    return _("their {yard_line}").format(yard_line=GOAL_LINE - spot)


def field_words(ball: int, marker: int | None, human_offense: bool) -> str:
    """What follows the tone: the ball, the first-down marker, and the yards to go."""
    spot = spot_from_left(ball)
    if marker is None:
        # Translators: {spot} is "your own 30", "their 20" or "midfield".
        return _("Ball on {spot}.").format(spot=spot)
    if human_offense:
        if marker >= GOAL_LINE:
            yards = GOAL_LINE - ball
            # Translators: the player has the ball; {spot} is "their 6".
            return n_("Ball on {spot}, goal to go: {yards} yard to the end zone.",
                      "Ball on {spot}, goal to go: {yards} yards to the end zone.",
                      yards).format(spot=spot, yards=yards)
        # Translators: the player has the ball; {spot} and {marker} are "your own 30", "their
        # 20" or "midfield"; {yards} is the yards still to gain for a first down.
        return _("Ball on {spot}, first down at {marker}, {yards} to go.").format(
            spot=spot, marker=spot_from_left(marker), yards=marker - ball)
    if marker <= 0:
        # Translators: the other team has the ball near the player's goal; {spot} is "your own
        # 6".
        return n_("Ball on {spot}, they have goal to go: {yards} yard from your end zone.",
                  "Ball on {spot}, they have goal to go: {yards} yards from your end zone.",
                  ball).format(spot=spot, yards=ball)
    # Translators: the other team has the ball; {spot} and {marker} are "your own 30", "their
    # 20" or "midfield"; {yards} is the yards they still need for a first down.
    return _("Ball on {spot}, their first down at {marker}, {yards} to go.").format(
        spot=spot, marker=spot_from_left(marker), yards=ball - marker)
