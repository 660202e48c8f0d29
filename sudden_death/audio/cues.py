"""Sound cues: the WAVs of sounds/ (resources.sounds_dir()) on the mixer's free channels, at
their own volume."""

from __future__ import annotations

import io
import sys
import wave
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame

from ..language import _
from .crowd import Crowd, folded
from .levels import MIX_HEADROOM
from .notices import NoticeBoard, said_reason
from .protocols import CUE_NAMES
from .synth import pcm_to_wav

DIE_CLICK = "die_click"  # extra file: the single click play_dice repeats once per die
CROWD = "crowd"  # extra file: the stadium bed, looped under the game (crowd.py)
DIE_GAP_S = 0.11  # between clicks: slow enough to count by ear
MAX_DICE_SOUNDS = 8  # recent composed rolls kept (about 60 KB each); others are composed afresh


class CueBank:
    """CuePlayer over pygame Sounds loaded once from a folder of WAVs."""

    def __init__(self, folder: Path, notices: NoticeBoard,
                 crowd_channels: tuple[pygame.mixer.Channel, pygame.mixer.Channel] | None = None,
                 ) -> None:
        """`crowd_channels`: the stadium bed's own channel and the speech channel it ducks
        under (none: no crowd)."""
        self.notice: str | None = None
        self._notices = notices
        self._volume = 1.0
        self._closed = False
        self._listeners: list[Callable[[str], None]] = []
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._dice_sounds: OrderedDict[tuple[int, ...], pygame.mixer.Sound] = OrderedDict()
        # The cues made in stereo (a crowd all around), as made and folded for the mono
        # setting; the folded copy is made the first time it is asked for.
        self._wide: dict[str, pygame.mixer.Sound] = {}
        self._narrow: dict[str, pygame.mixer.Sound] = {}
        missing = []
        for name in CUE_NAMES:
            try:
                self._sounds[name] = pygame.mixer.Sound(str(folder / f"{name}.wav"))
                self._sounds[name].set_volume(MIX_HEADROOM)
            except (pygame.error, OSError, FileNotFoundError):
                missing.append(name)
            else:
                if _channels(folder / f"{name}.wav") == 2:
                    self._wide[name] = self._sounds[name]
        self.crowd: Crowd | None = None
        if crowd_channels is not None:
            try:
                bed = pygame.mixer.Sound(str(folder / f"{CROWD}.wav"))
            except (pygame.error, OSError, FileNotFoundError):
                missing.append(CROWD)
            else:
                self.crowd = Crowd(bed, *crowd_channels)
        if missing:
            # Translators: {cues} lists the sound files' names, such as "coin, dice".
            self._report(_("Some sound cues are missing: {cues}.").format(
                cues=", ".join(missing)))
        self._click, self._click_rate = _read_mono16(folder / f"{DIE_CLICK}.wav")

    def play(self, name: str) -> None:
        """Play a cue; an unknown or missing name is ignored (with a notice), never raised."""
        if name not in CUE_NAMES:
            # Translators: {cue} is the name asked for, in quotes: 'whistle'.
            self._report(_("The game asked for an unknown sound cue {cue}.").format(
                cue=repr(name)))
            return
        sound = self._sounds.get(name)
        if sound is not None:
            sound.play()
        if self.crowd is not None:
            self.crowd.react(name)
        self._emit(name)

    def play_dice(self, dice: Sequence[int], then: str | None = None) -> None:
        """One click per die, each pitched by its pips: the roll is heard, not just announced.
        `then` is the result's cue, played as the last click dies away, never before it."""
        key = tuple(int(d) for d in dice)
        sound = self._dice_sounds.get(key)
        if sound is None:
            sound = self._compose_dice(key)
        else:
            self._dice_sounds.move_to_end(key)
        channel = sound.play() if sound is not None else None
        self._emit("dice")
        if then is None:
            return
        follow = self._sounds.get(then)
        if channel is not None and follow is not None and then in CUE_NAMES:
            # Queued on the roll's own channel: the mixer starts it the moment the last click
            # ends, with no thread or timer (a timer per roll outlived fast games).
            channel.queue(follow)
            self._emit(then)
        else:
            self.play(then)  # nothing to wait behind (or a name play() will report)

    def play_tone(self, wav: bytes, name: str = "tone") -> None:
        """Play a generated sound (a WAV in memory) at the cue volume; listeners hear `name`."""
        try:
            sound = pygame.mixer.Sound(file=io.BytesIO(wav))
        except (pygame.error, ValueError) as exc:
            said_reason(exc, "a generated sound could not be played")
            self._report(_("A generated sound could not be played."))
        else:
            sound.set_volume(self._volume * MIX_HEADROOM)
            sound.play()
        self._emit(name)

    def set_volume(self, volume: float) -> None:
        self._volume = max(0.0, min(1.0, float(volume)))
        for sound in (*self._sounds.values(), *self._dice_sounds.values()):
            sound.set_volume(self._volume * MIX_HEADROOM)

    def set_crowd(self, level: float) -> None:
        """The stadium bed's volume, 0 to 1; 0 silences it (no game, or the setting off)."""
        if self.crowd is not None:
            self.crowd.set_level(level)

    def set_tension(self, on: bool) -> None:
        """A tense moment (third or fourth down, near a goal line): the crowd leans in."""
        if self.crowd is not None:
            self.crowd.set_tension(on)

    def set_mono(self, on: bool) -> None:
        """Every sound the same in both ears: the stereo cues and the crowd fold (each side
        averaged into both), so nothing is heard in one ear only."""
        for name, wide in self._wide.items():
            if on and name not in self._narrow:
                self._narrow[name] = folded(wide)
            sound = self._narrow[name] if on else wide
            sound.set_volume(self._volume * MIX_HEADROOM)  # the one set while it was away
            self._sounds[name] = sound
        if self.crowd is not None:
            self.crowd.set_mono(on)

    def tick(self) -> None:
        """Once a loop turn: the crowd comes back up once speech has ended."""
        if self.crowd is not None:
            self.crowd.tick()

    def add_listener(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self._closed = True
        self._listeners.clear()
        if self.crowd is not None:
            self.crowd.close()
        for sound in (*self._sounds.values(), *self._dice_sounds.values()):
            sound.stop()  # a roll's channel drops its queued result cue with it

    def _compose_dice(self, dice: tuple[int, ...]) -> pygame.mixer.Sound | None:
        if self._click is None or not dice:
            return self._sounds.get("dice")
        samples = dice_samples(self._click, self._click_rate, dice)
        sound = pygame.mixer.Sound(file=io.BytesIO(pcm_to_wav(samples.tobytes(), self._click_rate)))
        sound.set_volume(self._volume * MIX_HEADROOM)
        self._dice_sounds[dice] = sound
        while len(self._dice_sounds) > MAX_DICE_SOUNDS:
            self._dice_sounds.popitem(last=False)  # least recently rolled
        return sound

    def _emit(self, name: str) -> None:
        for listener in list(self._listeners):
            listener(name)

    def _report(self, reason: str) -> None:
        if self.notice is None:
            self.notice = reason
        self._notices.add(reason)


def dice_samples(click: array, rate: int, dice: Sequence[int]) -> array:
    """Mix one copy of `click` per die, DIE_GAP_S apart; higher pips play the click higher."""
    gap = int(DIE_GAP_S * rate)
    pieces = [_resample(click, 0.8 + 0.1 * max(1, min(6, die))) for die in dice]
    total = gap * (len(pieces) - 1) + max(len(p) for p in pieces)
    out = array("h", bytes(2 * total))
    for index, piece in enumerate(pieces):
        start = index * gap
        for i, value in enumerate(piece):
            mixed = out[start + i] + value
            out[start + i] = max(-32768, min(32767, mixed))
    return out


def _resample(samples: array, factor: float) -> array:
    """Play `samples` `factor` times faster (nearest sample): a cheap, clean pitch shift."""
    length = int(len(samples) / factor)
    return array("h", (samples[min(len(samples) - 1, int(i * factor))] for i in range(length)))


def _channels(path: Path) -> int:
    """How many channels a WAV file has (its header only); 0 if it cannot be read."""
    try:
        with wave.open(str(path), "rb") as wav:
            return int(wav.getnchannels())
    except (OSError, wave.Error, EOFError):
        return 0


def _read_mono16(path: Path) -> tuple[array | None, int]:
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                return None, 22050
            samples = array("h", wav.readframes(wav.getnframes()))
            if sys.byteorder == "big":
                samples.byteswap()  # WAV is little-endian
            return samples, wav.getframerate()
    except (OSError, wave.Error, EOFError):
        return None, 22050
