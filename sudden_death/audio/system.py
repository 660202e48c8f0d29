"""open_audio(): the one entry point the front end uses to get speech, cues and their settings.

It never raises. Whatever is missing (audio device, speech engine, sound files) becomes a silent
part that still tells listeners every message, and the reason goes into `notices`.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from ..language import _
from ..resources import sounds_dir
from .cues import CueBank
from .diagnostics import Diagnostics
from .engines import Engines
from .notices import NoticeBoard, said_reason
from .protocols import CuePlayer, Speaker
from .silent import SilentCues, SilentSpeaker
from .speech import HandOff, SpeechService
from .synth import (
    ESPEAK,
    Synthesizer,
    SynthFactory,
    start_engine,
    start_synth,
)

# 256 frames is the smallest mix SDL allows; at 44.1 kHz it is 5.8 ms, so a sound starts within
# 6 ms of play() (at 22050 Hz, what eSpeak speaks at, it would be 11.6 ms). The cues are made
# at 44.1 kHz; speech is resampled as it is made, a sentence at a time (speech.py).
MIXER_FREQUENCY = 44100
MIXER_BUFFER = 256
MIXER_CHANNELS = 16
SPEECH_CHANNEL = 0  # reserved: cues never take it, so stopping it only ever stops speech
CROWD_CHANNEL = 1  # reserved too: the stadium bed loops there, under everything else
ENGINE_START_WAIT_S = 5.0
CLOSE_BUDGET_S = 0.8


class AudioSystem:
    """Speech, cues and their settings; `notices` lists fault reasons to show once."""

    def __init__(
        self,
        speaker: Speaker,
        cues: CuePlayer,
        notice_board: NoticeBoard,
        *,
        speech: SpeechService | None = None,
        cue_bank: CueBank | None = None,
        owns_mixer: bool = False,
    ) -> None:
        self.speaker = speaker
        self.cues = cues
        self.notice_board = notice_board
        self.notices: list[str] = notice_board.items  # grows if a fault happens later
        self.speech = speech  # the real service, or None when speech is silent
        self._cue_bank = cue_bank
        self._owns_mixer = owns_mixer
        self._closed = False
        # Only when SUDDEN_DEATH_DIAGNOSTICS names a file (packaging checks, benchmarks).
        self.diagnostics = Diagnostics.from_env(self._synth_count, lambda: list(self.notices))
        if self.diagnostics is not None and speech is not None:
            speech.add_playback_listener(self.diagnostics.on_playback)

    def _synth_count(self) -> int:
        return self.speech.synth_count if self.speech is not None else 0

    def take_notices(self) -> list[str]:
        """Notices not yet taken: call once per frame to show each reason exactly once."""
        return self.notice_board.take_new()

    def close(self) -> None:
        """Stop everything; returns within about a second even if the engine is stuck."""
        if self._closed:
            return
        self._closed = True
        started = time.monotonic()
        self.speaker.close()
        self.cues.close()
        in_time = time.monotonic() - started < CLOSE_BUDGET_S
        worker_gone = self.speech is None or not self.speech.worker_alive
        if self._owns_mixer and in_time and worker_gone:
            pygame.mixer.quit()
        if self.diagnostics is not None:
            self.diagnostics.write(closed=True)


def open_audio(
    *,
    speech: bool = True,
    sound: bool = True,
    synth_factory: SynthFactory | None = None,
    sounds: Path | None = None,
    engine: str = ESPEAK,
    hand_off: HandOff | None = None,
) -> AudioSystem:
    """Start the mixer, the speech worker and the cues; never raises.

    `engine` is the player's saved speech engine (the other one speaks if it cannot start).
    `hand_off` takes a line's sounds from the speech worker to the thread that plays sounds
    (the game's loop: see SpeechService); without it the worker plays them itself.
    `synth_factory` and `sounds` exist for tests (a failing engine, a folder with files missing).
    """
    board = NoticeBoard()
    owns_mixer = False
    mixer_ready = False
    if speech or sound:
        try:
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(
                    frequency=MIXER_FREQUENCY, size=-16, channels=2, buffer=MIXER_BUFFER
                )
                owns_mixer = True
            pygame.mixer.set_num_channels(MIXER_CHANNELS)
            pygame.mixer.set_reserved(CROWD_CHANNEL + 1)
            mixer_ready = True
        except Exception as exc:
            said_reason(exc, "no audio device")
            board.add(_("No audio device: speech and sounds are off, text is shown."))

    speaker: Speaker
    service: SpeechService | None = None
    if speech and mixer_ready:
        try:
            engines = None if synth_factory is not None else Engines(engine, start=_start)
            service = SpeechService(
                pygame.mixer.Channel(SPEECH_CHANNEL), synth_factory or start_synth, board,
                engines=engines, hand_off=hand_off,
            )
        except Exception as exc:
            reason = said_reason(exc, "speech could not start")
            # Translators: {reason} is a short reason, such as "eSpeak NG's voice data folder
            # is missing".
            board.add(_("Speech is off ({reason}).").format(reason=reason) if reason
                      else _("Speech is off: it could not start."))
        if service is not None:
            if not service.wait_ready(ENGINE_START_WAIT_S):
                board.add(_("The speech engine is slow to start; speech may begin late."))
            elif not service.available:
                service.close()
                service = None
    speaker = service if service is not None else SilentSpeaker(_first(board.items))

    cues: CuePlayer
    bank: CueBank | None = None
    if sound and mixer_ready:
        try:
            bank = CueBank(sounds or sounds_dir(), board,
                           crowd_channels=(pygame.mixer.Channel(CROWD_CHANNEL),
                                           pygame.mixer.Channel(SPEECH_CHANNEL)))
        except Exception as exc:
            said_reason(exc, "the sound cues could not be loaded")
            board.add(_("Sound cues are off: they could not be loaded."))
    cues = bank if bank is not None else SilentCues(_first(board.items) if sound else None)
    if bank is not None and bank.crowd is not None and service is not None:
        service.add_playback_listener(bank.crowd.duck)  # the moment words start playing
    return AudioSystem(speaker, cues, board, speech=service, cue_bank=bank, owns_mixer=owns_mixer)


def _start(name: str) -> Synthesizer:
    """Start an engine by name; eSpeak NG through this module's `start_synth` (tests replace it
    to make the engine fail)."""
    return start_synth() if name == ESPEAK else start_engine(name)


def _first(items: list[str]) -> str | None:
    return items[0] if items else None

