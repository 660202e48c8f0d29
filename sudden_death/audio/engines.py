"""The speech engines a player can choose (settings: Speech engine) and the fallback between them.

The game speaks with its own bundled eSpeak NG everywhere; Windows and macOS also offer the
system's voices through pyttsx3. If the chosen engine cannot start (Wine has no SAPI5 voices,
say), the other one speaks and the player hears why. Engines are started on the speech worker's
thread, each at most once per process: pyttsx3 keeps one engine per driver, and eSpeak must not
be initialised twice.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from ..language import _
from .notices import PlainFault, said_reason
from .synth import ESPEAK, Synthesizer, engine_label, engine_names, start_engine

Report = Callable[[str], object]  # NoticeBoard.add returns whether it was new


class Engines:
    """Starts engines by name, remembers the ones started, and falls back in a fixed order."""

    def __init__(self, preferred: str = ESPEAK, names: tuple[str, ...] | None = None,
                 start: Callable[[str], Synthesizer] = start_engine,
                 label: Callable[[str], str] = engine_label) -> None:
        self.names = engine_names() if names is None else names
        self.preferred = preferred if preferred in self.names else self.names[0]
        self.label = label
        self._start = start
        self._started: dict[str, Synthesizer] = {}
        # Engines that failed, with why: never tried twice (a half-started pyttsx3 driver is
        # not safe to start again), and a second request is answered at once.
        self._failed: dict[str, BaseException] = {}

    def get(self, name: str) -> Synthesizer:
        """The engine `name`, started now or earlier in this process; raises if it cannot start."""
        if name not in self.names:
            # Translators: {engine} is "eSpeak NG", "Windows voices" or "Mac voices"; this is
            # said inside brackets: "... could not start ({reason}), so ...".
            raise PlainFault(_("{engine} are not offered here").format(engine=self.label(name)))
        if name in self._failed:
            raise self._failed[name]
        if name not in self._started:
            try:
                self._started[name] = self._start(name)
            except BaseException as exc:
                self._failed[name] = exc
                # The full reason is for whoever reads the console; the player hears it short.
                print(f"sudden_death: {self.label(name)} could not start: "
                      f"{type(exc).__name__}: {exc}", file=sys.stderr)
                raise
        return self._started[name]

    def first(self, report: Report) -> tuple[str, Synthesizer]:
        """The preferred engine, or the first other one that starts (saying why). Raises the
        preferred engine's error when none starts."""
        order = [self.preferred, *(n for n in self.names if n != self.preferred)]
        failure: BaseException | None = None
        for name in order:
            try:
                synth = self.get(name)
            except BaseException as exc:  # SystemExit from a broken driver too
                failure = failure or exc
                continue
            if name != self.preferred and failure is not None:
                report(_could_not_start(self.label(self.preferred), self.label(name), failure))
            return name, synth
        assert failure is not None
        raise failure

    def switch(self, name: str, current: str, report: Report) -> tuple[str, Synthesizer] | None:
        """Change to `name`; None (and the reason said) when it cannot start: `current` goes on."""
        failed_before = name in self._failed
        try:
            return name, self.get(name)
        except BaseException as exc:
            report(_goes_on(self.label(name), self.label(current), exc, failed_before))
            return None


def _could_not_start(engine: str, other: str, failure: BaseException) -> str:
    """Why the preferred engine is not the one speaking."""
    reason = _why(failure)
    if reason is None:
        # Translators: {engine} and {other} are speech engines: "eSpeak NG", "Windows voices"
        # or "Mac voices".
        return _("{engine} could not start, so {other} speaks.").format(
            engine=engine, other=other)
    # Translators: {engine} and {other} are speech engines ("eSpeak NG", "Windows voices",
    # "Mac voices"); {reason} is a short reason, such as "Windows voices has no voices installed".
    return _("{engine} could not start ({reason}), so {other} speaks.").format(
        engine=engine, reason=reason, other=other)


def _goes_on(engine: str, current: str, failure: BaseException, failed_before: bool) -> str:
    """Why the engine the player chose is not the one speaking: the current one goes on."""
    if failed_before:
        # Translators: {engine} and {current} are speech engines: "eSpeak NG", "Windows
        # voices" or "Mac voices".
        return _("{engine} still cannot start; {current} goes on.").format(
            engine=engine, current=current)
    reason = _why(failure)
    if reason is None:
        # Translators: {engine} and {current} are speech engines: "eSpeak NG", "Windows
        # voices" or "Mac voices".
        return _("{engine} could not start; {current} goes on.").format(
            engine=engine, current=current)
    # Translators: {engine} and {current} are speech engines ("eSpeak NG", "Windows voices",
    # "Mac voices"); {reason} is a short reason, such as "Windows voices has no voices installed".
    return _("{engine} could not start ({reason}); {current} goes on.").format(
        engine=engine, reason=reason, current=current)


def _why(exc: BaseException) -> str | None:
    """The reason in words a player can use: the game's own messages, such as "has no voices
    installed"; a library's internals (import errors, paths) only go to the log, as spoken
    noise they would hide the one fact that matters. None: no reason to say."""
    return said_reason(exc, "a speech engine could not start") or None
