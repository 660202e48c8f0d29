"""The speech engines a player can choose (settings: Speech engine) and the fallback between them.

The game speaks with its own bundled eSpeak NG everywhere; Windows and macOS also offer the
system's voices through pyttsx3. If the chosen engine cannot start (Wine has no SAPI5 voices,
say), the other one speaks and the player hears why. Engines are started on the speech worker's
thread, each at most once per process: pyttsx3 keeps one engine per driver, and eSpeak must not
be initialised twice.
"""

from __future__ import annotations

from collections.abc import Callable

from .synth import ESPEAK, Synthesizer, engine_label, engine_names, start_engine

Report = Callable[[str], None]


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

    def get(self, name: str) -> Synthesizer:
        """The engine `name`, started now or earlier in this process; raises if it cannot start."""
        if name not in self.names:
            raise RuntimeError(f"{self.label(name)} are not offered here")
        if name not in self._started:
            self._started[name] = self._start(name)
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
                report(f"{self.label(self.preferred)} could not start ({_reason(failure)}); "
                       f"{self.label(name)} speaks instead.")
            return name, synth
        assert failure is not None
        raise failure

    def switch(self, name: str, current: str, report: Report) -> tuple[str, Synthesizer] | None:
        """Change to `name`; None (and the reason said) when it cannot start: `current` goes on."""
        try:
            return name, self.get(name)
        except BaseException as exc:
            report(f"{self.label(name)} could not start ({_reason(exc)}); "
                   f"{self.label(current)} goes on.")
            return None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."
