"""Player comfort, wired into the app in one place: settings, history, the field tone, verbosity,
how to play and the guided first down.

`Comfort` is owned by the app (one per game window, never a module global). The app calls it at
a handful of points (a key it did not use, a new screen, events after a choice) so that the shared
game loop needs only small hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..audio.protocols import Voice
from ..engine import events as ev
from ..settings import Settings, load_settings, save_settings
from . import field_tone
from .game_words import human_spots
from .history import History, Review
from .narration import Line
from .verbosity import DETAILED

if TYPE_CHECKING:
    from .app import App
    from .screens import Screen

DEFAULT_RATE_RANGE = (80, 450)


class AudioControls:
    """Applies settings to whatever the speaker and cues support (real, recording or silent)."""

    def __init__(self, speaker: Any, cues: Any) -> None:
        self.speaker = speaker
        self.cues = cues
        self.applied: Settings | None = None

    def apply(self, settings: Settings) -> None:
        _call(self.speaker, "set_engine", settings.speech_engine)  # first: the rest is its own
        _call(self.speaker, "set_rate", settings.speech_rate)
        if settings.voice:
            _call(self.speaker, "set_voice", settings.voice)
        _call(self.speaker, "set_volume", settings.speech_volume)
        _call(self.cues, "set_volume", settings.cue_volume)
        self.applied = settings

    def voices(self) -> list[Voice]:
        getter = getattr(self.speaker, "voices", None)
        try:
            return list(getter()) if callable(getter) else []
        except Exception:  # a voice list is a nicety; never let it break the menu
            return []

    def engine_choices(self) -> list[tuple[str, str]]:
        """(name, label) of the speech engines offered here (just the game's own, by default)."""
        getter = getattr(self.speaker, "engine_choices", None)
        try:
            found = list(getter()) if callable(getter) else []
        except Exception:
            found = []
        return found or [("espeak", "eSpeak NG")]

    def rate_range(self) -> tuple[int, int]:
        found = getattr(self.speaker, "rate_range", None)
        if isinstance(found, tuple) and len(found) == 2:
            return int(found[0]), int(found[1])
        return DEFAULT_RATE_RANGE


def _call(target: Any, name: str, value: object) -> None:
    method = getattr(target, name, None)
    if callable(method):
        method(value)


class Comfort:
    """Settings, history, field tone and learning aids for one app."""

    def __init__(self, app: App) -> None:
        from .tutorial import TutorialGuide

        self.app = app
        self.settings = Settings()
        self.config: Path | None = None
        self.controls = AudioControls(app.speaker, app.cues)
        self.history = History()
        self.guide = TutorialGuide(app)
        app.speaker.add_listener(self.history.record)

    # -- settings ----------------------------------------------------------------------------

    def start(self, config: Path | None) -> None:
        """Load and apply the saved settings; speak the notice if the file was missing or bad."""
        self.config = config
        self.settings, notice = load_settings(config)
        self.controls.apply(self.settings)
        if notice:
            self.app.notices.append(notice)
            self.app.say(notice, interrupt=False, category="notice")

    def change(self, settings: Settings) -> None:
        """Apply at once (the next words are already in the new setting) and save."""
        self.settings = settings
        self.controls.apply(settings)
        notice = save_settings(settings, self.config)
        if notice and notice not in self.app.notices:
            self.app.notices.append(notice)
            self.app.say(notice, interrupt=False, category="notice")

    # -- hooks the app calls -----------------------------------------------------------------

    @property
    def verbosity(self) -> str:
        """The player's verbosity; the guided first down is always told in detail."""
        return DETAILED if self.guide.active else self.settings.verbosity

    def narrate(self, events: Sequence[ev.Event]) -> list[Line]:
        return self.app.narrator.lines(events, self.verbosity)

    def on_show(self, screen: Screen) -> None:
        self.guide.on_show(screen)

    def after_events(self, events: Sequence[ev.Event]) -> None:
        """After a play the guide may close the lesson (the short field tone comes with the
        new down's words: see narration.Line.field_tone)."""
        self.guide.after_events(events)

    def handle_key(self, key: int, mod: int) -> bool:
        """Comfort keys (history, field tone, settings); True when the key was one of them."""
        import pygame

        shift = bool(mod & pygame.KMOD_SHIFT)
        if key == pygame.K_COMMA:
            self._review(self.history.first() if shift else self.history.step(-1))
        elif key == pygame.K_PERIOD:
            self._review(self.history.last() if shift else self.history.step(1))
        elif key == pygame.K_SLASH:
            self._review(self.history.cycle_filter(-1 if shift else 1))
        elif key == pygame.K_f:
            self.play_field_tone(speak=True)
        elif key in (pygame.K_o, pygame.K_F2):
            self.open("settings")
        else:
            return False
        return True

    # -- actions -----------------------------------------------------------------------------

    def _review(self, review: Review) -> None:
        if review.cue:
            self.app.cue(review.cue)
        self.app.say(review.text, category="history")

    def open(self, name: str) -> None:
        """Open a comfort screen by name: settings, rules or tutorial."""
        from .settings_menu import SettingsScreen
        from .tutorial import RulesScreen

        if name == "settings":
            if isinstance(self.app.top, SettingsScreen):
                self.app.say("You are in settings already. Escape closes them.")
                return
            self.app.push(SettingsScreen(self.app, self))
        elif name == "rules":
            if not isinstance(self.app.top, RulesScreen):
                self.app.push(RulesScreen(self.app))
        elif name == "tutorial":
            self.guide.begin()

    def field_position(self) -> tuple[int, int | None, bool] | None:
        """(ball, marker, you have the ball) counted from your own goal, or None before a down."""
        match = self.app.match
        if match is None:
            return None
        if match.state.outcome is not None:
            return None
        return human_spots(match.state)

    def play_field_tone(self, speak: bool) -> None:
        """F: the tone, then the spot and the marker in words; after a play: the tone alone."""
        position = self.field_position()
        if position is None:
            if speak:
                self.app.say("No ball on the field yet.", category="info")
            return
        ball, marker, mine = position
        seconds = field_tone.TONE_SECONDS if speak else field_tone.AFTER_PLAY_SECONDS
        player = getattr(self.app.cues, "play_tone", None)
        if callable(player):
            player(field_tone.tone_wav(ball, seconds), "field_tone")
        if speak:
            self.app.say(field_tone.field_words(ball, marker, mine), category="info")
