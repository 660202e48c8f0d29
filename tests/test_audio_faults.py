"""Each fault leaves the game usable: text still reaches listeners, the reason is recorded once,
nothing raises, no thread hangs, and close() returns within a second."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from audio_helpers import wait_for

from sudden_death.audio.protocols import Message, Priority, Voice
from sudden_death.audio.silent import SilentSpeaker
from sudden_death.audio.synth import Synthesizer, start_synth
from sudden_death.audio.system import open_audio

ROOT = Path(__file__).resolve().parent.parent


def run_child(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    environ = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True,
        timeout=60,
    )


def no_engine() -> Synthesizer:
    raise RuntimeError("no speech engine on this test machine")


class FlakySynth:
    """A real engine that fails on any text containing BROKEN, or blocks until aborted on HANG."""

    def __init__(self) -> None:
        self.inner = start_synth()
        self.rate_range = self.inner.rate_range
        self.released = threading.Event()
        self.stuck = threading.Event()  # set once a HANG render has begun

    def voices(self) -> list[Voice]:
        return self.inner.voices()

    def apply(self, rate: int | None, voice_id: str | None) -> None:
        self.inner.apply(rate, voice_id)

    def render(self, text: str) -> bytes:
        if "BROKEN" in text:
            raise RuntimeError("synthesis failed")
        if "HANG" in text:
            self.stuck.set()
            self.released.wait(30)
            raise RuntimeError("aborted")
        return self.inner.render(text)

    def abort(self) -> None:
        self.released.set()
        self.inner.abort()


def test_no_speech_engine_keeps_text_and_cues() -> None:
    audio = open_audio(synth_factory=no_engine)
    got: list[Message] = []
    heard: list[str] = []
    audio.speaker.add_listener(got.append)
    audio.cues.add_listener(heard.append)
    audio.speaker.say("Coin toss.", priority=Priority.ALERT)
    audio.speaker.silence()
    audio.cues.play("coin")
    assert got == [Message("Coin toss.", Priority.ALERT)]
    assert heard == ["coin"]
    assert isinstance(audio.speaker, SilentSpeaker)
    assert len(audio.notices) == 1 and "no speech engine" in audio.notices[0]
    assert audio.speaker.notice == audio.notices[0]
    assert audio.take_notices() == audio.notices and audio.take_notices() == []
    assert audio.speaker.voices() == []
    audio.speaker.set_rate(200)  # settings are harmless without an engine
    audio.close()  # returns: the test's timeout guards a hang


def test_a_failed_synthesis_is_reported_once_and_speech_goes_on() -> None:
    audio = open_audio(sound=False, synth_factory=FlakySynth)
    service = audio.speech
    assert service is not None
    started: list[str] = []
    got: list[str] = []
    service.add_playback_listener(lambda text, _when: started.append(text))
    audio.speaker.add_listener(lambda m: got.append(m.text))
    audio.speaker.say("BROKEN one.")
    audio.speaker.say("BROKEN two.", interrupt=False)
    audio.speaker.say("Still speaking.", interrupt=False)
    assert service.wait_idle(10)
    assert started == ["Still speaking."]
    assert got == ["BROKEN one.", "BROKEN two.", "Still speaking."]
    assert len(audio.notices) == 1 and "could not be synthesized" in audio.notices[0]
    assert service.worker_alive
    audio.close()


@pytest.mark.timeout(30)
def test_close_frees_a_worker_stuck_in_synthesis() -> None:
    synths: list[FlakySynth] = []

    def flaky() -> FlakySynth:
        synths.append(FlakySynth())
        return synths[-1]

    audio = open_audio(sound=False, synth_factory=flaky)
    assert audio.speech is not None
    audio.speaker.say("HANG here.")
    assert wait_for(lambda: bool(synths) and synths[0].stuck.is_set(), 10), "never got stuck"
    audio.close()  # would wait for ever on the stuck synthesis; the timeout says so
    assert not audio.speech.worker_alive


def test_speech_and_sound_off_still_listen() -> None:
    audio = open_audio(speech=False, sound=False)
    got: list[str] = []
    audio.speaker.add_listener(lambda m: got.append(m.text))
    audio.cues.add_listener(got.append)
    audio.speaker.say("Hello.")
    audio.cues.play("whistle")
    audio.cues.play("not-a-cue")
    audio.cues.play_dice([1, 2])
    assert got == ["Hello.", "whistle", "dice"]
    assert audio.notices == []
    audio.close()


def test_missing_cue_files_are_reported_not_raised(tmp_path: Path) -> None:
    audio = open_audio(speech=False, sounds=tmp_path)
    heard: list[str] = []
    audio.cues.add_listener(heard.append)
    audio.cues.play("coin")
    audio.cues.play_dice([4])
    assert heard == ["coin", "dice"]
    assert len(audio.notices) == 1 and "missing" in audio.notices[0]
    audio.close()


def test_the_portable_save_to_file_path_synthesizes_too() -> None:
    # The path SAPI5 and NSSS use, exercised here with eSpeak NG, in a child: a capture synth
    # started in this process has made the library synchronous, which pyttsx3's loop is not.
    code = """
from sudden_death.audio.synth import EngineSynth, start_synth
synth = start_synth(capture=False)
assert type(synth) is EngineSynth
synth.apply(180, None)
data = synth.render("Field goal is good.")
print(data[:4] == b"RIFF", len(data) > 22050)  # over half a second of 16-bit audio
"""
    result = run_child(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


def test_no_audio_device_keeps_the_game_going() -> None:
    code = """
import json
from sudden_death.audio.system import open_audio
audio = open_audio()
got = []
audio.speaker.add_listener(lambda m: got.append(m.text))
audio.cues.add_listener(got.append)
audio.speaker.say("First down.")
audio.cues.play("whistle")
audio.speaker.set_volume(0.5)
audio.cues.set_volume(0.5)
audio.close()
print(json.dumps({"got": got, "notices": audio.notices}))
"""
    result = run_child(code, SDL_AUDIODRIVER="no-such-driver")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["got"] == ["First down.", "whistle"]
    assert len(report["notices"]) == 1 and "No audio device" in report["notices"][0]


def test_importing_the_audio_layer_has_no_side_effects() -> None:
    """Importing starts nothing: no thread, no mixer, no speech engine, no eSpeak library (pygame
    itself is imported at the top of the modules that play sound, and stays uninitialised)."""
    code = """
import json, sys, threading
import sudden_death.audio.cache, sudden_death.audio.cues, sudden_death.audio.espeak_setup
import sudden_death.audio.notices, sudden_death.audio.protocols
import sudden_death.audio.silent, sudden_death.audio.speech, sudden_death.audio.synth
import sudden_death.audio.system
import pygame
maps = open("/proc/self/maps").read() if sys.platform.startswith("linux") else ""
print(json.dumps({"threads": threading.active_count(), "mixer": pygame.mixer.get_init(),
                  "sdl": pygame.get_init(), "pyttsx3": "pyttsx3" in sys.modules,
                  "espeak": "espeak" in maps}))
"""
    result = run_child(code)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "threads": 1, "mixer": None, "sdl": False, "pyttsx3": False, "espeak": False
    }


def test_the_engine_never_imports_audio() -> None:
    code = """
import pkgutil, importlib, sys
import sudden_death.engine as e
for m in pkgutil.walk_packages(e.__path__, "sudden_death.engine."):
    importlib.import_module(m.name)
banned = ("pygame", "pyttsx3")
print(sorted(k for k in sys.modules if k.startswith("sudden_death.audio") or k in banned))
"""
    result = run_child(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_librarys_words_go_to_the_log_and_the_game_says_its_own(
        caplog: pytest.LogCaptureFixture) -> None:
    """BrlAPI's own message ("couldn't connect to b':0' with key b'keyfile:...'") is never
    spoken: the game's plain clause is, and the log has the library's."""
    from sudden_death.audio.notices import PlainFault, said_reason

    raw = "couldn't connect to b':0' with key b'keyfile:/etc/brlapi.key+polkit'"
    assert said_reason(ConnectionError(raw), "braille") == ""
    assert f"braille: {raw}" in caplog.text
    assert said_reason(PlainFault("eSpeak NG's voice data folder is missing"), "speech") == (
        "eSpeak NG's voice data folder is missing")


def test_braille_without_brltty_says_so_plainly(monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    from types import SimpleNamespace

    from sudden_death.audio import speech_dispatcher

    raw = "couldn't connect to b':0' with key b'keyfile:/etc/brlapi.key+polkit'"

    def refuse() -> None:
        raise ConnectionError(raw)

    monkeypatch.setattr(speech_dispatcher, "load_system_module",
                        lambda name: SimpleNamespace(Connection=refuse))
    braille, notice = speech_dispatcher.Braille.connect()
    assert braille is None and notice == "no braille display answers through BRLTTY"
    assert raw in caplog.text
