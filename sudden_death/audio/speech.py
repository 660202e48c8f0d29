"""The speech service: say() returns at once; one worker thread owns the engine and plays the
result on a reserved pygame.mixer channel, so interrupting is just stopping that channel.

A line is made and played a sentence at a time: the first sentence starts playing while the next
is made, and each next one is queued on the channel, so it follows without a gap. Making audio
costs about 2 ms per second of speech (synthesis plus the mixer's resampling), so a long line
would otherwise be heard that much later.

Rules (see protocols.Priority): an interrupting say() of priority P stops what is playing and drops
what is queued or being synthesized, but only items of priority <= P. So a focus move (INFO) never
cuts a result (ALERT): it waits behind it, replacing any INFO that was waiting. silence() cuts all.
"""

from __future__ import annotations

import contextvars
import io
import re
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ..language import _
from .cache import DEFAULT_CACHE_BYTES, Key, PhraseCache
from .engines import Engines
from .levels import MIX_HEADROOM
from .notices import NoticeBoard, said_reason
from .protocols import Category, Message, Priority, Voice
from .silence import trim_wav
from .synth import ESPEAK, ESPEAK_RATE_RANGE, Synthesizer, SynthFactory, engine_label

PlaybackListener = Callable[[str, float], None]  # (text, time.perf_counter() at play start)
# Takes a call to the thread that owns pygame (the game's loop), which makes it there soon.
HandOff = Callable[[Callable[[], None]], None]

# Long one-off sentences (results, reveals, intros: 8-20 s) would crowd out the short phrases that
# repeat (menu items with their place, card names, check feedback: 1-4 s): only audio up to this
# long is cached, and never more than LONG_PHRASE_SHARE of the cache.
MAX_CACHED_SECONDS = 4.5
LONG_PHRASE_SHARE = 6
# Listeners (the history keeps every line) get one shared Message for a line that repeats
# verbatim, as menu items and prompts do every down, instead of a new copy each time.
RECENT_MESSAGES = 512
POLL_S = 0.005  # how often a queued utterance checks whether the one before it has finished
# Between a sentence and the one queued behind it the mixer clears the queue a moment before it
# starts the queued sound, so the channel can look idle with a sentence about to play: a next
# sentence that finds it so looks again after this long before taking the channel over.
BETWEEN_SOUNDS_S = 0.005


@dataclass(eq=False)
class _Request:
    text: str
    priority: Priority
    voice: str | None
    rate: int | None
    cancelled: bool = False
    on_start: Callable[[], None] | None = None
    skip: int = 0  # sentences already started by say() (a cached first one)

    def key(self, part: str) -> Key:
        return (part, self.voice, self.rate)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
CLAUSE_END = re.compile(r"(?<=[,:;])\s+")
SHORTEST_CLAUSE_WORDS = 2


def sentences(text: str) -> list[str]:
    """The parts a line is made and played in: its sentences, the first one split after its
    first clause (a comma, colon or semicolon), so the part that must be made before anything
    is heard is short. eSpeak reads the punctuation each part ends with, so the pauses and the
    tune of the voice stay as they were."""
    parts = [part for part in SENTENCE_END.split(text.strip()) if part]
    if parts:
        clause = CLAUSE_END.split(parts[0], maxsplit=1)
        if len(clause) == 2 and min(len(c.split()) for c in clause) >= SHORTEST_CLAUSE_WORDS:
            parts[:1] = clause
    return parts


class SpeechService:
    """Speaker backed by a synthesizer on a worker thread and one mixer channel."""

    def __init__(
        self,
        channel: pygame.mixer.Channel,
        synth_factory: SynthFactory,
        notices: NoticeBoard,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        engines: Engines | None = None,
        hand_off: HandOff | None = None,
    ) -> None:
        """`engines`, when given, replaces `synth_factory`: the chosen engine starts (or another,
        with a notice) and `set_engine` can change it between utterances.

        `hand_off`, when given, is how a line's `on_start` (its cues, dice, sweep, field tone
        and rumble) reaches the loop's thread when the worker starts the line: pygame called
        from two threads at once has crashed the process. Without it the worker calls it."""
        self._hand_off = hand_off
        self.notice: str | None = None
        self.engine: str | None = None  # the engine speaking, when `engines` was given
        self._engines = engines
        self._switch_to: str | None = None
        self._requested = engines.preferred if engines is not None else None
        self.synth_count = 0  # utterances actually synthesized (tests: cache hits skip this)
        self.cache_hits = 0
        self.rate_range: tuple[int, int] = ESPEAK_RATE_RANGE
        self._channel = channel
        self._synth_factory = synth_factory
        self._notices = notices
        self._cache: PhraseCache[pygame.mixer.Sound] = PhraseCache(cache_bytes)
        self._listeners: list[Callable[[Message], None]] = []
        self._recent: dict[tuple[str, Priority, str], Message] = {}
        self._playback_listeners: list[PlaybackListener] = []
        self._queue: deque[_Request] = deque()
        self._pending: _Request | None = None  # taken by the worker, not yet playing
        self._playing: _Request | None = None  # on the channel (if the channel is still busy)
        self._volume = 1.0
        self._rate: int | None = None
        self._voice: str | None = None
        self._voices: list[Voice] = []
        self._synth: Synthesizer | None = None
        self._reported: set[str] = set()
        self._alive = True  # False once the engine is known to be unavailable
        self._closed = False
        self._cond = threading.Condition()
        self._ready = threading.Event()
        # In a copy of this context, so the notices it words are in the game's language.
        self._thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run,),
                                        name="speech-worker", daemon=True)
        self._thread.start()

    # --- the Speaker contract -------------------------------------------------------------

    def say(
        self,
        text: str,
        *,
        interrupt: bool = True,
        priority: Priority = Priority.INFO,
        category: Category = Category.INFO,
        on_start: Callable[[], None] | None = None,
    ) -> None:
        """Tell listeners now; queue the speech, or start it at once if it is cached.
        `on_start` runs when playback starts (at once if nothing will be heard; never if the
        words are cut before they start)."""
        message = self._message(text, priority, category)
        for listener in list(self._listeners):
            listener(message)
        if not text.strip() or not self._alive or self._closed:
            if on_start is not None:
                on_start()
            return
        with self._cond:
            if self._closed:
                return
            request = _Request(text, priority, self._voice, self._rate, on_start=on_start)
            if interrupt:
                self._cut(priority)
            if not self._queue and self._pending is None and not self._busy():
                parts = sentences(text)
                sound = self._cache.get(request.key(parts[0]))
                if sound is not None:  # heard before: it starts now, the rest follows
                    self.cache_hits += 1
                    self._start(request, sound)
                    if len(parts) == 1:
                        return
                    request.skip = 1
            self._queue.append(request)
            self._cond.notify_all()

    def silence(self) -> None:
        """Stop speaking now and forget everything queued, whatever its priority."""
        with self._cond:
            self._cut(Priority.ALERT)
            self._cond.notify_all()

    def add_listener(self, listener: Callable[[Message], None]) -> None:
        self._listeners.append(listener)

    def close(self, timeout: float = 0.8) -> None:
        """Stop speech and the worker; never waits longer than `timeout`."""
        with self._cond:
            self._closed = True
            self._cut(Priority.ALERT)
            self._cond.notify_all()
        synth = self._synth
        if synth is not None:
            synth.abort()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._listeners.clear()
        self._playback_listeners.clear()

    # --- settings and inspection ----------------------------------------------------------

    def set_rate(self, words_per_minute: int) -> None:
        """Takes effect from the next utterance (the worker applies it while eSpeak is idle)."""
        low, high = self.rate_range
        with self._cond:
            self._rate = max(low, min(high, int(words_per_minute)))

    def set_engine(self, name: str) -> None:
        """Speak with another engine from the next utterance on (the worker starts it; if it
        cannot start, the current one goes on and a notice says why)."""
        if self._engines is None:
            return
        with self._cond:
            # Asked for what was already asked for (the saved engine, applied again at start
            # after it fell back): nothing new to try or to say.
            if name == self._requested:
                return
            self._requested = name
            self._switch_to = None if name == self.engine else name
            self._cond.notify_all()

    def engine_choices(self) -> list[tuple[str, str]]:
        """(name, label) of the engines the player may choose here, the game's own first."""
        if self._engines is None:
            return [(ESPEAK, engine_label(ESPEAK))]
        return [(name, self._engines.label(name)) for name in self._engines.names]

    def set_voice(self, voice_id: str) -> None:
        with self._cond:
            self._voice = voice_id

    def set_volume(self, volume: float) -> None:
        """Speech loudness is the channel's volume, so cached phrases stay valid."""
        with self._cond:
            self._volume = max(0.0, min(1.0, float(volume)))
            self._channel.set_volume(self._volume * MIX_HEADROOM)

    def voices(self) -> list[Voice]:
        self.wait_ready(2.0)
        return list(self._voices)

    def add_playback_listener(self, listener: PlaybackListener) -> None:
        """Called (from either thread) with the text and the moment its playback starts."""
        self._playback_listeners.append(listener)

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the engine has started or failed; True if it settled in time."""
        return self._ready.wait(timeout)

    @property
    def available(self) -> bool:
        return self._alive and self._ready.is_set()

    def is_speaking(self) -> bool:
        with self._cond:
            return bool(self._queue) or self._pending is not None or self._busy()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or playing; True if that happened within `timeout`."""
        deadline = time.monotonic() + timeout
        while self.is_speaking():
            if time.monotonic() > deadline:
                return False
            time.sleep(POLL_S)
        return True

    @property
    def worker_alive(self) -> bool:
        return self._thread.is_alive()

    # --- internals (all under self._cond unless noted) ------------------------------------

    def _message(self, text: str, priority: Priority, category: Category) -> Message:
        """The Message for a line; a repeat of a recent one is the same (immutable) object.
        Not under the lock: single dict operations are atomic, and a race only makes a copy."""
        key = (text, priority, category)
        message = self._recent.get(key)
        if message is None:
            message = Message(text, priority, category)
            if len(self._recent) >= RECENT_MESSAGES:
                self._recent.clear()  # bounded; clearing only costs copies of old lines
            self._recent[key] = message
        return message

    def _busy(self) -> bool:
        if self._playing is not None and not self._channel.get_busy():
            self._playing = None
        return self._playing is not None

    def _cut(self, priority: Priority) -> None:
        if self._playing is not None and self._playing.priority <= priority:
            stop_with_queue(self._channel)  # and whatever sentence was queued behind it
            self._playing.cancelled = True  # no further sentences of it
            self._playing = None
        if self._pending is not None and self._pending.priority <= priority:
            self._pending.cancelled = True
            self._pending = None
        kept: deque[_Request] = deque()
        for request in self._queue:
            if request.priority <= priority:
                request.cancelled = True
            else:
                kept.append(request)
        self._queue = kept

    def _start(self, request: _Request, sound: pygame.mixer.Sound, first: bool = True) -> None:
        self._channel.play(sound)
        self._channel.set_volume(self._volume * MIX_HEADROOM)
        self._playing = request
        if not first:
            return  # a later sentence of a line already started (its gap was too long to queue)
        started = time.perf_counter()
        if request.on_start is not None:
            if self._hand_off is not None and threading.current_thread() is self._thread:
                self._hand_off(request.on_start)  # the loop plays them, on its own thread
            else:  # started by say(), on the caller's thread
                _run_hook(request.on_start)
        for listener in list(self._playback_listeners):
            listener(request.text, started)

    def _report(self, kind: str, reason: str) -> None:
        """Record a fault once per kind; the front end shows AudioSystem.notices."""
        if kind in self._reported:
            return
        self._reported.add(kind)
        if self.notice is None:
            self.notice = reason
        self._notices.add(reason)

    def _run(self) -> None:
        """The worker: start the engine, then synthesize and play requests in order."""
        try:
            if self._engines is not None:
                self.engine, synth = self._engines.first(self._notices.add)
            else:
                synth = self._synth_factory()
        except BaseException as exc:  # SystemExit from a broken driver must not escape either
            self._alive = False
            reason = said_reason(exc, "no speech engine could start")
            # Translators: {reason} is a short reason, such as "eSpeak NG's voice data folder
            # is missing".
            self._report("engine", _("Speech is off: no speech engine could start ({reason})."
                                     ).format(reason=reason) if reason else
                         _("Speech is off: no speech engine could start."))
            self._ready.set()
            return
        self._use(synth)
        self._ready.set()
        while True:
            with self._cond:
                while not self._closed and not self._queue and self._switch_to is None:
                    self._cond.wait()
                if self._closed:
                    return
                switch, self._switch_to = self._switch_to, None
                request = None if switch is not None else self._queue.popleft()
                self._pending = request
            if switch is not None:
                self._switch(switch)
                continue
            assert request is not None and self._synth is not None
            self._speak(self._synth, request)
            with self._cond:
                if self._pending is request:
                    self._pending = None

    def _use(self, synth: Synthesizer) -> None:
        """Make `synth` the one speaking: its rate range and voices are the settings' now."""
        self._synth = synth
        self.rate_range = synth.rate_range
        try:
            self._voices = synth.voices()
        except Exception:
            self._voices = []

    def _switch(self, name: str) -> None:
        """Start (or reuse) engine `name` between utterances; the cache held the old voice."""
        assert self._engines is not None and self.engine is not None
        started = self._engines.switch(name, self.engine, self._notices.add)
        if started is None:
            return
        self.engine, synth = started
        with self._cond:
            self._cache.clear()
        self._use(synth)

    def _speak(self, synth: Synthesizer, request: _Request) -> None:
        """Make and play `request` a sentence at a time (each made outside the lock, so say()
        never waits on synthesis): the first starts once the channel is free, each next one is
        queued behind the one playing."""
        for index, part in enumerate(sentences(request.text)):
            if index < request.skip:
                continue
            sound = self._prepare(synth, request, part)
            with self._cond:
                if index == 0:
                    while not request.cancelled and not self._closed and self._busy():
                        self._cond.wait(POLL_S)
                else:  # the channel holds one queued sound: wait until the last one started
                    while (not request.cancelled and not self._closed and self._busy()
                           and self._channel.get_queue() is not None):
                        self._cond.wait(POLL_S)
                if request.cancelled or self._closed or sound is None:
                    return
                if index == 0:
                    self._start(request, sound)
                    continue
                if not self._channel.get_busy():
                    self._cond.wait(BETWEEN_SOUNDS_S)  # the queued sentence may be starting
                    if request.cancelled or self._closed:
                        return
                if self._channel.get_busy():  # behind the sentence playing, never over it
                    self._channel.queue(sound)
                    self._playing = request
                else:
                    self._start(request, sound, first=False)

    def _prepare(self, synth: Synthesizer, request: _Request,
                 part: str) -> pygame.mixer.Sound | None:
        """Cached audio, or freshly synthesized audio (cached for next time); None on failure."""
        key = request.key(part)
        with self._cond:
            sound = self._cache.get(key)
            if sound is not None:
                self.cache_hits += 1
                return sound
        if request.cancelled:
            return None
        cacheable = True
        try:
            synth.apply(request.rate, request.voice)
        except Exception as exc:
            cacheable = False
            said_reason(exc, "a speech setting could not be applied")
            self._report("setting", _("A speech setting could not be applied."))
        try:
            data = trim_wav(synth.render(part))
            sound = pygame.mixer.Sound(file=io.BytesIO(data))
        except Exception as exc:
            if request.cancelled or self._closed:
                return None  # cut short on purpose (interrupted, or shutting down): no fault
            why = said_reason(exc, "speech could not be synthesized")
            # Translators: {reason} is a short reason, such as "eSpeak produced no audio".
            reason = (_("Some speech could not be synthesized ({reason}); text is shown."
                        ).format(reason=why) if why else
                      _("Some speech could not be synthesized; text is shown."))
            self._report("synthesis", reason)
            return None
        self.synth_count += 1
        size = _sound_bytes(sound, len(data))
        if cacheable and _short(sound) and size <= self._cache.max_bytes // LONG_PHRASE_SHARE:
            with self._cond:
                self._cache.put(key, sound, size)
        return sound


def _run_hook(hook: Callable[[], None]) -> None:
    """A line's sounds start with its words; a failing hook must not stop the speech worker."""
    try:
        hook()
    except Exception:
        traceback.print_exc()


def _short(sound: pygame.mixer.Sound) -> bool:
    """Short enough to be worth caching (a phrase that repeats, not a one-off sentence)."""
    try:
        return float(sound.get_length()) <= MAX_CACHED_SECONDS
    except (pygame.error, TypeError, ValueError):
        return True  # the byte share still bounds it


def _sound_bytes(sound: pygame.mixer.Sound, fallback: int) -> int:
    """What a Sound really holds in memory: the mixer's format (stereo doubles a mono WAV)."""
    try:
        init = pygame.mixer.get_init()
        if init is None:
            return fallback
        frequency, size, channels = init
        return max(fallback, int(sound.get_length() * frequency) * channels * (abs(size) // 8))
    except (pygame.error, TypeError, ValueError):
        return fallback


def stop_with_queue(channel: pygame.mixer.Channel) -> None:
    """Stop `channel` and drop the sound queued behind it. pygame's stop() dropped the queue;
    pygame-ce's starts the queued sound at once, so it is stopped in turn (a second stop on
    an idle channel does nothing)."""
    channel.stop()
    if channel.get_busy():
        channel.stop()
