"""The stadium bed: a crowd murmuring under the game on its own mixer channel.

Why: a game heard over silence sounds like a log read aloud; a crowd under it sounds like a
broadcast. The bed must never cost a word, so it ducks the moment speech starts playing (the
speech service tells it, from its own thread) and comes back once speech is over (the game's
loop asks every turn). While words play, the crowd stays SPEECH_ABOVE_DB under the speech on
the mixed output; it rises by TENSION_DB on third and fourth down and near a goal line. It
answers the news: it roars after the player's score, big play or takeaway and hushes after the
other side's (REACTIONS_DB), for REACTION_S once the words that told it are over, since under
them it is ducked anyway. Its level is the player's "Crowd" setting (0 is off); there is no
crowd outside a game.
"""

from __future__ import annotations

import threading
import time
from array import array

import pygame

from .levels import MIX_HEADROOM
from .stereo import fold_to_mono

# The bed's file is made this much quieter than speech and the cues (tools/make_sounds.py,
# BED_DBFS -26 against -18 dBFS), so equal gains already leave it this far under them.
BED_QUIETER_DB = 8.0
SPEECH_ABOVE_DB = 19.0  # the crowd under speech while words play: 15 asked, 4 to spare
TENSION_DB = 6.0  # third and fourth down, near a goal line: the crowd leans in
# How the home crowd answers each side's news (the cue that tells it): up for the player's,
# down for the other side's (the crowd is the player's own, as the cues say whose news it is).
REACTIONS_DB = {
    "touchdown": 6.0, "turnover_won": 6.0, "big_play": 4.0, "field_goal_good": 4.0,
    "touchdown_theirs": -9.0, "turnover": -9.0, "big_play_theirs": -6.0,
    "field_goal_theirs": -6.0,
}
REACTION_S = 3.0  # how long it answers once the words that told the news are over


class Crowd:
    """The crowd loop on `channel`, ducked under whatever plays on `speech`."""

    def __init__(self, sound: pygame.mixer.Sound, channel: pygame.mixer.Channel,
                 speech: pygame.mixer.Channel) -> None:
        self._sound = sound
        self._stereo = sound
        self._mono: pygame.mixer.Sound | None = None
        self._channel = channel
        self._speech = speech
        self._lock = threading.Lock()  # duck() comes from the speech worker's thread
        self._level = 0.0
        self._tension = False
        self._ducked = False
        self._playing = False
        self._reaction_db = 0.0
        self._reaction_until = 0.0

    def set_level(self, level: float) -> None:
        """The crowd's volume, 0 to 1 (0: no crowd)."""
        with self._lock:
            self._level = max(0.0, min(1.0, float(level)))
            self._apply()

    def set_tension(self, on: bool) -> None:
        with self._lock:
            self._tension = on
            self._apply()

    def set_mono(self, on: bool) -> None:
        """Both sides of the crowd in both ears (made once, the first time it is asked)."""
        with self._lock:
            if on and self._mono is None:
                self._mono = folded(self._stereo)
            sound = self._mono if on and self._mono is not None else self._stereo
            if sound is not self._sound:
                self._sound = sound
                if self._playing:  # the loop starts again on the new sound
                    self._channel.stop()
                    self._playing = False
                self._apply()

    def react(self, cue: str, now: float | None = None) -> None:
        """A cue has played: the crowd answers it if it is news for one side (REACTIONS_DB)."""
        change = REACTIONS_DB.get(cue)
        if change is None:
            return
        with self._lock:
            self._reaction_db = change
            self._reaction_until = (time.monotonic() if now is None else now) + REACTION_S
            self._apply()

    def duck(self, *_: object) -> None:
        """Speech has started playing (a playback listener: text and time are not needed).
        Called on the speech worker's thread, so it only turns the bed down: starting it is
        left to the loop's thread (set_level, set_mono)."""
        with self._lock:
            self._ducked = True
            self._apply(start=False)

    def tick(self, now: float | None = None) -> None:
        """Once a loop turn: back up once speech has ended; an answer to the news lasts
        REACTION_S past the words that told it, then the crowd settles."""
        now = time.monotonic() if now is None else now
        with self._lock:
            changed = False
            if self._ducked and not self._speech.get_busy():
                self._ducked = False
                changed = True
            if self._reaction_db:
                if self._ducked:
                    self._reaction_until = max(self._reaction_until, now + REACTION_S)
                elif now >= self._reaction_until:
                    self._reaction_db = 0.0
                    changed = True
            if changed:
                self._apply()

    @property
    def reaction_db(self) -> float:
        """How far the crowd is answering the news now, in dB (0: it is not)."""
        return self._reaction_db

    @property
    def gain(self) -> float:
        """The channel's volume now (for tests and the mix's checks)."""
        return self._channel.get_volume() if self._playing else 0.0

    def close(self) -> None:
        with self._lock:
            self._level = 0.0
            self._apply()

    def _apply(self, start: bool = True) -> None:
        if self._level <= 0:
            if self._playing:
                self._channel.stop()
                self._playing = False
            return
        if not self._playing:
            if not start:
                return
            self._channel.play(self._sound, loops=-1)
            self._playing = True
        lean = TENSION_DB if self._tension else 0.0
        gain = self._level * MIX_HEADROOM * 10 ** ((lean + self._reaction_db) / 20)
        if self._ducked:
            under = 10 ** (-(SPEECH_ABOVE_DB - BED_QUIETER_DB) / 20)
            gain = min(gain, self._speech.get_volume() * under)
        self._channel.set_volume(min(1.0, gain))


def folded(sound: pygame.mixer.Sound) -> pygame.mixer.Sound:
    """`sound` (in the mixer's format, 16-bit) with each frame's sides averaged into both;
    the same sound when the mixer is mono."""
    init = pygame.mixer.get_init()
    if init is None or init[2] != 2 or abs(init[1]) != 16:
        return sound
    return pygame.mixer.Sound(buffer=fold_to_mono(array("h", sound.get_raw())).tobytes())
