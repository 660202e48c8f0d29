"""Speech engines by name: the chosen one starts or another speaks (saying why), a switch happens
between utterances with the new engine's own voice, and on Windows and macOS pyttsx3's fixed
eSpeak lookup is pointed at the bundled library."""

from __future__ import annotations

import ctypes
import sys
from array import array
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from audio_helpers import wait_for

from sudden_death.audio import espeak_setup
from sudden_death.audio.engines import Engines
from sudden_death.audio.notices import NoticeBoard, PlainFault
from sudden_death.audio.protocols import Voice
from sudden_death.audio.speech import SpeechService
from sudden_death.audio.synth import ESPEAK, SYSTEM, engine_label, engine_names, pcm_to_wav
from sudden_death.storage.settings import Settings, from_mapping

LABELS = {ESPEAK: "eSpeak NG", SYSTEM: "Windows voices"}


class ToneSynth:
    """A synthesizer whose audio length says which engine made it (eSpeak short, system long)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rate_range = (80, 450) if name == ESPEAK else (50, 400)
        self.rendered: list[str] = []

    def voices(self) -> list[Voice]:
        return [Voice(f"{self.name}/one", f"{self.name} one")]

    def apply(self, rate: int | None, voice_id: str | None) -> None:
        pass

    def render(self, text: str) -> bytes:
        self.rendered.append(text)
        seconds = 0.2 if self.name == ESPEAK else 0.4
        return pcm_to_wav(array("h", [5000, -5000] * int(seconds * 11025)).tobytes(), 22050)

    def abort(self) -> None:
        pass


class Starter:
    """Starts ToneSynths by name, or fails for the names in `broken`; counts the starts."""

    def __init__(self, broken: tuple[str, ...] = ()) -> None:
        self.broken = broken
        self.starts: list[str] = []

    def __call__(self, name: str) -> ToneSynth:
        self.starts.append(name)
        if name in self.broken:
            raise PlainFault(f"{name} has no voices installed")  # the game's own words
        return ToneSynth(name)


def engines(preferred: str, starter: Starter) -> Engines:
    return Engines(preferred, (ESPEAK, SYSTEM), start=starter, label=LABELS.__getitem__)


def test_the_platforms_engines_and_their_names() -> None:
    assert engine_names("linux") == (ESPEAK,)
    assert engine_names("win32") == engine_names("darwin") == (ESPEAK, SYSTEM)
    assert engine_label(SYSTEM, "win32") == "Windows voices"
    assert engine_label(SYSTEM, "darwin") == "Mac voices"
    assert engine_label(ESPEAK, "linux") == "eSpeak NG"


def test_the_chosen_engine_starts_or_the_other_speaks_and_says_why() -> None:
    said: list[str] = []
    starter = Starter()
    assert engines(SYSTEM, starter).first(said.append)[0] == SYSTEM and not said
    starter = Starter(broken=(SYSTEM,))
    name, synth = engines(SYSTEM, starter).first(said.append)
    assert (name, synth.name) == (ESPEAK, ESPEAK)
    assert said == ["Windows voices could not start (system has no voices installed), so "
                    "eSpeak NG speaks."]
    with pytest.raises(RuntimeError, match="espeak has no voices"):
        engines(ESPEAK, Starter(broken=(ESPEAK, SYSTEM))).first(said.append)


def test_a_librarys_internal_error_is_not_read_out(capsys: pytest.CaptureFixture[str]) -> None:
    """Under Wine, SAPI5 fails with an ImportError naming comtypes and a path: the player hears
    only which engine speaks; the console gets the whole reason."""
    said: list[str] = []

    def start(name: str) -> ToneSynth:
        if name == SYSTEM:
            raise ImportError(r"cannot import name 'SpeechLib' from 'comtypes.gen' (C:\x\y)")
        return ToneSynth(name)

    room = Engines(SYSTEM, (ESPEAK, SYSTEM), start=start, label=LABELS.__getitem__)
    assert room.first(said.append)[0] == ESPEAK
    assert said == ["Windows voices could not start, so eSpeak NG speaks."]
    assert "ImportError: cannot import name 'SpeechLib'" in capsys.readouterr().err


def test_a_switch_that_fails_keeps_the_engine_and_an_engine_starts_once() -> None:
    said: list[str] = []
    starter = Starter(broken=(SYSTEM,))
    room = engines(ESPEAK, starter)
    room.first(said.append)
    assert room.switch(SYSTEM, ESPEAK, said.append) is None
    assert said == ["Windows voices could not start (system has no voices installed); "
                    "eSpeak NG goes on."]
    assert room.switch(SYSTEM, ESPEAK, said.append) is None
    assert said[-1] == "Windows voices still cannot start; eSpeak NG goes on."
    assert starter.starts == [ESPEAK, SYSTEM]  # a failed engine is not started again
    working = engines(ESPEAK, Starter())
    first = working.first(said.append)[1]
    working.switch(SYSTEM, ESPEAK, said.append)
    assert working.switch(ESPEAK, SYSTEM, said.append) == (ESPEAK, first)  # reused, not redone


@pytest.fixture
def mixer() -> Iterator[pygame.mixer.Channel]:
    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=256)
    yield pygame.mixer.Channel(0)
    pygame.mixer.quit()


def test_speech_switches_engine_between_utterances(mixer: pygame.mixer.Channel) -> None:
    starter = Starter()
    board = NoticeBoard()
    speech = SpeechService(mixer, lambda: ToneSynth("unused"), board,
                           engines=engines(ESPEAK, starter))
    try:
        assert speech.wait_ready(5) and speech.engine == ESPEAK
        assert speech.engine_choices() == [(ESPEAK, "eSpeak NG"), (SYSTEM, "Windows voices")]
        speech.say("Heard in eSpeak.")
        assert wait_for(lambda: not speech.is_speaking())
        speech.set_engine(SYSTEM)
        speech.say("Heard in the Windows voice.")
        assert wait_for(lambda: not speech.is_speaking())
        assert speech.engine == SYSTEM and speech.rate_range == (50, 400)
        assert [v.id for v in speech.voices()] == ["system/one"]
        assert starter.starts == [ESPEAK, SYSTEM]
        speech.set_engine(ESPEAK)
        speech.say("Heard in eSpeak.")  # said before: the cache was emptied by the switch
        assert wait_for(lambda: not speech.is_speaking())
        assert speech.synth_count == 3 and board.items == []
    finally:
        speech.close()


def test_a_failed_switch_is_said_and_the_engine_goes_on(mixer: pygame.mixer.Channel) -> None:
    board = NoticeBoard()
    speech = SpeechService(mixer, lambda: ToneSynth("unused"), board,
                           engines=engines(ESPEAK, Starter(broken=(SYSTEM,))))
    try:
        assert speech.wait_ready(5)
        speech.set_engine(SYSTEM)
        speech.say("Still eSpeak.")
        assert wait_for(lambda: not speech.is_speaking())
        assert speech.engine == ESPEAK
        assert board.items == ["Windows voices could not start (system has no voices "
                               "installed); eSpeak NG goes on."]
    finally:
        speech.close()


def test_a_saved_engine_that_fell_back_is_said_once(mixer: pygame.mixer.Channel) -> None:
    """The saved engine is asked for at start and again when the settings are applied: one
    notice, not two; choosing it again later is answered."""
    board = NoticeBoard()
    starter = Starter(broken=(SYSTEM,))
    speech = SpeechService(mixer, lambda: ToneSynth("unused"), board,
                           engines=engines(SYSTEM, starter))
    try:
        assert speech.wait_ready(5) and speech.engine == ESPEAK
        speech.set_engine(SYSTEM)  # the settings applied at start
        speech.say("Spoken by eSpeak.")
        assert wait_for(lambda: not speech.is_speaking())
        assert board.items == ["Windows voices could not start (system has no voices "
                               "installed), so eSpeak NG speaks."]
        speech.set_engine(ESPEAK)
        speech.set_engine(SYSTEM)  # the player picks it again in the settings
        speech.say("Still eSpeak.")
        assert wait_for(lambda: not speech.is_speaking())
        assert wait_for(lambda: len(board.items) == 2)
        assert board.items[1] == "Windows voices still cannot start; eSpeak NG goes on."
        assert starter.starts == [SYSTEM, ESPEAK] and speech.engine == ESPEAK
    finally:
        speech.close()


class FakeLoader:
    """Stands in for ctypes.cdll: records the names asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def LoadLibrary(self, name: str) -> str:  # ctypes' own name
        self.asked.append(name)
        return f"library at {name}"


def test_pyttsx3s_fixed_espeak_lookup_is_pointed_at_the_bundled_library(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    binding = tmp_path / "fake_espeak_binding.py"
    fixed = r"C:\Program Files\eSpeak NG\libespeak-ng.dll"  # where pyttsx3 looks on Windows
    binding.write_text(f"from ctypes import cdll\ndll = cdll.LoadLibrary({fixed!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(espeak_setup, "BINDING", "fake_espeak_binding")
    loader = FakeLoader()
    monkeypatch.setattr(ctypes, "cdll", loader)
    espeak_setup.bind_pyttsx3_to(r"C:\Game\_internal\espeakng_loader\espeak-ng.dll")
    module = sys.modules["fake_espeak_binding"]
    assert module.dll == r"library at C:\Game\_internal\espeakng_loader\espeak-ng.dll"
    assert loader.asked == [r"C:\Game\_internal\espeakng_loader\espeak-ng.dll"]
    assert loader.LoadLibrary("x") == "library at x"  # the loader is itself again
    monkeypatch.delitem(sys.modules, "fake_espeak_binding")


def test_the_engine_setting_is_kept_only_when_it_is_one() -> None:
    assert from_mapping({"speech_engine": "system"}).speech_engine == SYSTEM
    assert from_mapping({"speech_engine": "festival"}).speech_engine == ESPEAK
    assert Settings().speech_engine == ESPEAK
