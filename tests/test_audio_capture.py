"""The in-memory eSpeak renderer must see the end of every utterance however the library was built.

The Linux library synthesizes on its own threads: its event thread sends bufferless calls with
word events and finally MSG_TERMINATED. The Windows DLL in espeakng-loader has no threads and
calls back inside Synth, ending only with a bufferless call. Waiting for MSG_TERMINATED alone made
every utterance time out under Windows (found by the Wine smoke test); taking any bufferless call
as the end cut Linux utterances short (found by the fuzz test). A fake binding plays both builds'
call sequences here; the real Linux library is exercised by the other audio tests, the real
Windows DLL by tests/test_windows_build.py.
"""

from __future__ import annotations

import ctypes
import io
import subprocess
import sys
import textwrap
import threading
import time
import wave
from types import SimpleNamespace
from typing import Any

import pytest

from sudden_death.audio.synth import EspeakCaptureSynth, SynthesisError

LIST_TERMINATED, WORD, SENTENCE, END, MSG_TERMINATED, SAMPLERATE = 0, 1, 2, 5, 6, 8


def events(*types: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(type=t) for t in (*types, LIST_TERMINATED)]


class FakeEspeak:
    """pyttsx3's `_espeak` binding, reduced to what the renderer calls."""

    EVENT_LIST_TERMINATED = LIST_TERMINATED
    EVENT_MSG_TERMINATED = MSG_TERMINATED
    ENDPAUSE = 0x1000
    CHARS_UTF8 = 1
    AUDIO_OUTPUT_SYNCHRONOUS = 2

    def __init__(self, threaded: bool, end_event: bool, end_call: bool) -> None:
        self.threaded, self.end_event, self.end_call = threaded, end_event, end_call
        self.callback: Any = None
        self.cancelled = 0
        self.modes: list[int] = []

    def Initialize(self, output: int, buflength: int) -> int:
        self.modes.append(output)
        return 22050

    def SetVoiceByName(self, name: bytes) -> int:
        return 0

    def SetSynthCallback(self, callback: Any) -> None:
        self.callback = callback

    def IsPlaying(self) -> int:
        return 0

    def Cancel(self) -> None:
        self.cancelled += 1

    def _run(self, samples: list[int]) -> None:
        if self.threaded:  # synthesis takes a while on the library's thread
            time.sleep(0.03)
        buffer = (ctypes.c_short * len(samples))(*samples)
        half = len(samples) // 2
        first = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_short))
        second = ctypes.cast(ctypes.byref(buffer, half * 2), ctypes.POINTER(ctypes.c_short))
        self.callback(first, half, events(SAMPLERATE, SENTENCE, WORD))
        self.callback(second, len(samples) - half, events(WORD, END))
        nothing = ctypes.POINTER(ctypes.c_short)()
        if self.end_call:
            self.callback(nothing, 0, events())
        if self.end_event:
            if self.threaded:  # the event thread reports words, then the end, a little later
                time.sleep(0.01)
                self.callback(nothing, 0, events(WORD))
                time.sleep(0.01)
            self.callback(nothing, 0, events(MSG_TERMINATED))

    def Synth(self, text: bytes, flags: int) -> int:
        samples = list(range(1, len(text) * 10))
        if self.threaded:
            threading.Thread(target=self._run, args=(samples,), daemon=True).start()
        else:
            self._run(samples)
        return 0


class FakeEngine:
    def setProperty(self, name: str, value: object) -> None:
        pass

    def isBusy(self) -> bool:
        return False


def frames(wav: bytes) -> int:
    with wave.open(io.BytesIO(wav)) as reader:
        return reader.getnframes()


@pytest.mark.parametrize(
    ("threaded", "end_event", "end_call"),
    [
        (False, False, True),  # Windows DLL: inside Synth, ends with a bufferless call only
        (True, True, True),  # Linux: own thread, bufferless call, then the event (late)
        (True, True, False),  # a build that only sends the event
    ],
)
def test_every_build_ends_with_all_samples(threaded: bool, end_event: bool,
                                           end_call: bool) -> None:
    espeak = FakeEspeak(threaded, end_event, end_call)
    synth = EspeakCaptureSynth(FakeEngine(), espeak)
    for text in ("Touchdown!", "Fourth and two at the 40."):
        assert frames(synth.render(text)) == len(text.encode()) * 10 - 1
    assert espeak.cancelled == 0
    assert espeak.modes == [FakeEspeak.AUDIO_OUTPUT_SYNCHRONOUS]  # asked for, whatever it does


def test_the_real_library_synthesizes_on_the_calling_thread() -> None:
    """The bundled eSpeak NG, started again in its synchronous mode: every callback comes on
    the thread inside Synth, so a voice change between utterances races nothing (one engine
    per process, so in a child)."""
    script = textwrap.dedent("""
        import threading
        from sudden_death.audio.synth import start_synth
        synth = start_synth()
        seen = set()
        original = synth._on_synth
        def spy(wav, numsamples, events):
            seen.add(threading.get_ident())
            return original(wav, numsamples, events)
        synth._espeak.SetSynthCallback(spy)
        synth._keep = spy
        for voice in ("roa/es-419", "", "roa/es-419"):
            synth.apply(175, voice)
            assert len(synth.render("Primera y diez en tu propia 25.")) > 20000
        print(seen == {threading.get_ident()}, len(seen))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "1"]


def test_no_end_signal_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sudden_death.audio.synth.SYNTH_TIMEOUT_S", 0.05)
    espeak = FakeEspeak(threaded=False, end_event=False, end_call=False)
    synth = EspeakCaptureSynth(FakeEngine(), espeak)
    with pytest.raises(SynthesisError, match="did not finish"):
        synth.render("Hello")
    assert espeak.cancelled == 1
