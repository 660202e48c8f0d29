"""pyttsx3 turned into a function from text to audio, used only by the speech worker thread.

pyttsx3's own `say()` plays through an external program and cannot be interrupted safely, so the
worker asks it for audio instead and plays that itself. Two renderers share one engine wrapper:

- `EngineSynth.render`: the portable path, `save_to_file` + `runAndWait`, then read the file.
  This is what SAPI5 (Windows) and NSSpeechSynthesizer (macOS) use, and it works with eSpeak NG too.
- `EspeakCaptureSynth.render` (every platform, the bundled eSpeak NG): the same pyttsx3 espeak
  binding, but the synthesized samples are taken from its callback in memory. That skips the
  temporary file and `runAndWait`'s 10 ms polling sleep, which roughly halves the time before
  speech starts.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import logging
import os
import sys
import tempfile
import threading
import time
import wave
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from ..language import _
from .espeak_setup import prepare_espeak
from .notices import PlainFault
from .protocols import Voice

LOG = logging.getLogger(__name__)
ESPEAK_RATE_RANGE = (80, 450)  # words per minute eSpeak NG accepts
SYSTEM_RATE_RANGE = (50, 400)  # SAPI5 / NSSS: a range they all speak sensibly
IDLE_WAIT_S = 0.2  # longest wait for eSpeak to go idle before a settings change
SYNTH_TIMEOUT_S = 10.0  # a single utterance that takes longer than this has failed


class SynthesisError(PlainFault):
    """The engine produced no audio for an utterance."""


class Synthesizer(Protocol):
    """What the speech worker needs from an engine. All calls come from the worker thread,
    except `abort`, which close() calls from any thread to free a worker stuck in synthesis."""

    rate_range: tuple[int, int]

    def voices(self) -> list[Voice]: ...

    def apply(self, rate: int | None, voice_id: str | None) -> None: ...

    def render(self, text: str) -> bytes: ...  # a complete WAV (or AIFF) file

    def abort(self) -> None: ...


def pcm_to_wav(pcm: bytes, sample_rate: int, channels: int = 1) -> bytes:
    """Wrap 16-bit PCM in a WAV header, so pygame can load it in any mixer format."""
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(2)
        wav.setframerate(sample_rate)
        wav.writeframes(pcm)
    return out.getvalue()


class EngineSynth:
    """One pyttsx3 engine (one per process) plus the rate/voice it last applied."""

    def __init__(self, engine: Any, driver_name: str) -> None:
        self.engine = engine
        self.driver_name = driver_name
        self.rate_range = ESPEAK_RATE_RANGE if driver_name == "espeak" else SYSTEM_RATE_RANGE
        self.rate: int | None = None
        self.voice_id: str | None = None
        self.default_voice: str | None = None  # the engine's own, which "" brings back
        with contextlib.suppress(Exception):
            self.default_voice = str(engine.getProperty("voice") or "") or None
        self._dir: str | None = None  # made on first use: the capture renderer needs no files
        self._count = 0
        with contextlib.suppress(Exception):
            self.engine.setProperty("volume", 1.0)  # loudness is the speech channel's job

    def voices(self) -> list[Voice]:
        found = self.engine.getProperty("voices") or []
        return [Voice(str(v.id), str(v.name or v.id)) for v in found]

    def apply(self, rate: int | None, voice_id: str | None) -> None:
        """Apply settings between utterances, so they hold from the next one.

        pyttsx3 only queues a property change while its driver counts as busy (a fresh eSpeak
        driver does until a run loop has started). Here the next render's runAndWait runs the
        queued change before the utterance; the capture renderer flushes it itself.
        """
        if voice_id == "":  # the engine's own voice again (a language without one of its own)
            voice_id = self.default_voice if self.voice_id is not None else None
        changing_voice = voice_id is not None and voice_id != self.voice_id
        changing_rate = rate is not None and rate != self.rate
        if not (changing_voice or changing_rate):
            return
        self._wait_until_idle()
        if changing_voice:
            self.engine.setProperty("voice", voice_id)
            self.voice_id = voice_id
        if rate is not None and (changing_rate or changing_voice):  # a voice resets the rate
            low, high = self.rate_range
            self.rate = max(low, min(high, int(rate)))
            self.engine.setProperty("rate", self.rate)
        self._flush()

    def _wait_until_idle(self) -> None:
        """Nothing to wait for here: runAndWait has returned, so the engine is idle."""

    def _flush(self) -> None:
        """Nothing to do here: render's runAndWait executes queued property changes first."""

    def render(self, text: str) -> bytes:
        self._count += 1
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="sudden-death-speech-")
        path = os.path.join(self._dir, f"utterance-{self._count % 4}.wav")
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)
        self.engine.save_to_file(text, path)
        # pyttsx3's espeak driver prints "Audio saved to ..." for every file; keep stdout clean.
        quiet = self.driver_name == "espeak"
        with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
            self.engine.runAndWait()
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            LOG.warning("the engine's audio file could not be read: %s", exc)
            # Translators: this and the other synthesis failures are said inside "Some speech
            # could not be synthesized ({reason}); text is shown."
            raise SynthesisError(_("the engine wrote no audio")) from exc
        if len(data) <= 44:
            raise SynthesisError(_("the engine produced an empty utterance"))
        return data

    def warm_up(self) -> None:
        """The first runAndWait after init can return before the audio exists; spend it here."""
        with contextlib.suppress(Exception):
            self.render("ready")

    def abort(self) -> None:
        pass  # runAndWait cannot be interrupted safely; close() stops waiting for it instead


class EspeakCaptureSynth(EngineSynth):
    """eSpeak NG through pyttsx3's binding, with samples captured from the synthesis callback.

    The library is synchronous here: each Synth runs on the calling (worker) thread and its
    callbacks come inside it, as the Windows DLL always does. pyttsx3 starts it in its
    asynchronous mode, where synthesis runs on the library's own threads; a voice change from
    the worker (SetVoiceByName is never queued) could then race them, and switching from an
    English voice to the Spanish one crashed the process about one time in two under Python
    3.12 (tests/test_reliability_fuzz.py changes the language). The library is one per process
    and not reentrant, so every instance shares one lock around it: a worker still finishing
    an utterance for a closed speech service never overlaps a new one.
    """

    # One library per process: these are shared by every instance, as the library is.
    _library_lock: ClassVar[threading.RLock] = threading.RLock()
    _started: ClassVar[weakref.WeakSet[Any]] = weakref.WeakSet()  # made synchronous already
    _callback_owner: ClassVar[weakref.ReferenceType[EspeakCaptureSynth] | None] = None

    def __init__(self, engine: Any, espeak: Any) -> None:
        super().__init__(engine, "espeak")
        self._espeak = espeak
        self._chunks: list[bytes] = []
        self._done = threading.Event()
        self._aborted = False
        self._sample_rate = 22050
        self._synth_thread: int | None = None  # the thread inside Synth, while it is
        with self._library_lock:
            if espeak not in self._started:
                # Starting again in this mode leaves the idle asynchronous threads unused.
                espeak.Initialize(espeak.AUDIO_OUTPUT_SYNCHRONOUS, 1000)
                if self.default_voice:  # starting again chose the library's default voice
                    espeak.SetVoiceByName(self.default_voice.encode("utf-8"))
                self._started.add(espeak)
            # Replaces the driver's callback (which writes files); pyttsx3 keeps a reference.
            self._take_callback()
            # A fresh driver counts as busy (property changes only queue) until a run loop
            # starts; an empty runAndWait starts and ends one, after which changes apply at once.
            self._flush()

    def voices(self) -> list[Voice]:
        with self._library_lock:
            return super().voices()

    def apply(self, rate: int | None, voice_id: str | None) -> None:
        with self._library_lock:
            super().apply(rate, voice_id)

    def _on_synth(self, wav: Any, numsamples: int, events: Any) -> int:
        """Collect samples and note the end of the message. A threaded library (Linux) calls
        this on its own threads and ends a message with the MSG_TERMINATED event; its event
        thread also sends events with no buffer, so a missing buffer means nothing there. A
        library built without threads (espeakng-loader's Windows DLL) calls it inside Synth, on
        the caller's thread, and never sends that event: there, the call with no buffer is the
        end of the message."""
        if wav:
            if numsamples > 0:
                self._chunks.append(ctypes.string_at(wav, numsamples * 2))
        elif threading.get_ident() == self._synth_thread:
            self._done.set()
        i = 0
        while events[i].type != self._espeak.EVENT_LIST_TERMINATED:
            if events[i].type == self._espeak.EVENT_MSG_TERMINATED:
                self._done.set()
            i += 1
        return 1 if self._aborted else 0

    def render(self, text: str) -> bytes:
        with self._library_lock:
            return self._render(text)

    def _take_callback(self) -> None:
        espeak_owner = EspeakCaptureSynth._callback_owner
        if espeak_owner is None or espeak_owner() is not self:
            self._espeak.SetSynthCallback(self._on_synth)
            EspeakCaptureSynth._callback_owner = weakref.ref(self)

    def _render(self, text: str) -> bytes:
        self._take_callback()  # a later instance (a new speech service) may have taken it
        self._chunks = []
        self._done.clear()
        self._synth_thread = threading.get_ident()
        flags = self._espeak.ENDPAUSE | self._espeak.CHARS_UTF8
        status = self._espeak.Synth(text.encode("utf-8"), flags=flags)
        if status not in (0, None):
            raise SynthesisError(_("eSpeak refused the text (status {status})").format(
                status=status))
        if not self._done.wait(SYNTH_TIMEOUT_S) or self._aborted:
            with contextlib.suppress(Exception):
                self._espeak.Cancel()
            raise SynthesisError(_("eSpeak did not finish the utterance"))
        pcm = b"".join(self._chunks)
        if not pcm:
            raise SynthesisError(_("eSpeak produced no audio"))
        return pcm_to_wav(pcm, self._sample_rate)

    def _wait_until_idle(self) -> None:
        """Started synchronously, the library is idle whenever Synth has returned, and this
        returns at once. Should it still run asynchronously (a build that ignored the request),
        its thread winds down for a few ms after the end-of-message callback, and a parameter
        set before then is not reliably applied: wait (bounded) for it to finish."""
        deadline = time.monotonic() + IDLE_WAIT_S
        while self._espeak.IsPlaying() and time.monotonic() < deadline:
            time.sleep(0.001)

    def _flush(self) -> None:
        """Run property changes pyttsx3 queued: an empty runAndWait executes them (~10 ms, only
        when a setting changed; after the first one the driver is idle and they apply at once)."""
        if self.engine.isBusy():
            self.engine.runAndWait()

    def abort(self) -> None:
        self._aborted = True
        self._done.set()


SynthFactory = Callable[[], Synthesizer]

ESPEAK, SYSTEM = "espeak", "system"


def engine_names(platform: str | None = None) -> tuple[str, ...]:
    """The speech engines this platform can offer, the game's own first: eSpeak NG everywhere
    (bundled), and the system's voices through pyttsx3 on Windows (SAPI5) and macOS."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("linux"):
        return (ESPEAK,)
    return (ESPEAK, SYSTEM)


def engine_label(name: str, platform: str | None = None) -> str:
    """How settings and notices name an engine."""
    platform = sys.platform if platform is None else platform
    if name == ESPEAK:
        # Translators: the name of the game's own speech synthesizer; keep it as it is unless
        # your alphabet needs another spelling.
        return _("eSpeak NG")
    if platform == "win32":
        # Translators: the speech engine made of the voices installed with Windows (SAPI5).
        return _("Windows voices")
    # Translators: the speech engine made of the voices installed with macOS.
    return _("Mac voices")


def start_engine(name: str = ESPEAK, capture: bool = True) -> Synthesizer:
    """Start one engine by name (call on the speech worker thread). Raises if it cannot start.

    eSpeak NG is the bundled library through pyttsx3's espeak driver, its samples captured in
    memory (or, with `capture=False`, written to files the portable way: only in a process where
    no capture synth has started, since that one makes the library synchronous, and pyttsx3's
    own loop then waits for events that never come). The system engine is
    pyttsx3's own platform driver, rendered through files.
    """
    if name == ESPEAK:
        problem = prepare_espeak()
        if problem is not None:
            raise PlainFault(problem)  # the reason, in the game's words (espeak_setup)
        import pyttsx3

        engine = pyttsx3.init("espeak")
        if capture:
            from pyttsx3.drivers import _espeak

            return EspeakCaptureSynth(engine, _espeak)
        with contextlib.suppress(Exception):  # a capture synth earlier in this process took it
            from pyttsx3.drivers import _espeak

            _espeak.SetSynthCallback(engine.proxy._driver._onSynth)
        synth = EngineSynth(engine, "espeak")
        synth.warm_up()
        return synth
    if name not in engine_names():
        # Translators: {engine} is "Windows voices" or "Mac voices"; said inside brackets, as in
        # "... could not start ({reason}), so eSpeak NG speaks."
        raise PlainFault(_("{engine} are not available on this system").format(
            engine=engine_label(name)))
    import pyttsx3

    driver = "sapi5" if sys.platform == "win32" else "nsss"
    synth = EngineSynth(pyttsx3.init(driver), driver)
    if not synth.voices():
        # Translators: {engine} is "Windows voices" or "Mac voices"; said inside brackets, as in
        # "... could not start ({reason}), so eSpeak NG speaks."
        raise PlainFault(_("{engine} has no voices installed").format(
            engine=engine_label(name)))
    synth.warm_up()
    return synth


def start_synth(capture: bool = True) -> Synthesizer:
    """The game's own voice (eSpeak NG), started on the worker thread."""
    return start_engine(ESPEAK, capture)
