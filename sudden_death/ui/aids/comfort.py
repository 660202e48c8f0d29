"""Player comfort, wired into the app in one place: settings, history, the field tone, verbosity,
how to play and the guided first drive.

`Comfort` is owned by the app (one per game window, never a module global). The app calls it at
a handful of points (a key it did not use, a new screen, events after a choice) so that the shared
game loop needs only small hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ...audio.protocols import Category, CuePlayer, Speaker
from ...engine import events as ev
from ...engine.state import GameState
from ...language import _, choose, switch
from ...storage.settings import Settings, load_settings, save_settings
from ..keys import own_keys
from ..keys.keymap import KeyMap
from ..screens.base import Extra, Host, Screen
from ..words.commands import command_names
from ..words.phrases import Names
from ..words.situation import human_spots
from ..words.verbosity import Telling, Verbosity
from . import field_tone
from .audio_controls import AudioControls
from .history import History, Review
from .how_to_play import RulesScreen
from .lesson import TutorialGuide
from .settings_screen import SettingsScreen
from .sound_glossary import SoundGlossaryScreen


class ComfortHost(Host, Protocol):
    """What comfort asks of the app beyond a screen's needs: the screen on top, a way to show a
    settings file's problem, the game's state (None before the first match) and the team
    names (which team is the player's)."""

    names: Names
    keys: KeyMap

    @property
    def top(self) -> Screen: ...

    def tell_notice(self, notice: str, cue: bool = True, again: bool = False) -> None: ...

    def game_state(self) -> GameState | None: ...


class Comfort:
    """Settings, history, field tone and learning aids for one app."""

    def __init__(self, app: ComfortHost, speaker: Speaker, cues: CuePlayer) -> None:
        self.app = app
        self.cues = cues
        self.settings = Settings()
        self.config: Path | None = None
        self.controls = AudioControls(speaker, cues)
        self.history = History()
        self._asked_for_reader = False  # the player just chose a screen reader in settings
        self.settings_focus = 0  # settings open again where they were closed
        self.guide = TutorialGuide(app)
        speaker.add_listener(self.history.record)

    # -- settings ----------------------------------------------------------------------------

    def start(self, config: Path | None,
              loaded: tuple[Settings, str | None] | None = None) -> None:
        """Apply the saved settings (`loaded`, when the caller has read them already); speak
        the notice if the file was missing or bad."""
        self.config = config
        self.settings, notice = loaded if loaded is not None else load_settings(config)
        self.controls.apply(self.settings)
        keys_notice = self._use_keys(self.settings)
        for words in (notice, keys_notice):
            if words:
                self.app.tell_notice(words, cue=False)

    def _use_keys(self, settings: Settings) -> str | None:
        """The player's own keys into the app's map; a sentence if some could not be used."""
        own = own_keys.build(settings.keys)
        own.keys.speaks_pad = self.app.keys.speaks_pad
        self.app.keys = own.keys
        return own_keys.restored_notice(own, command_names())

    def change(self, settings: Settings) -> None:
        """Apply at once (the next words are already in the new setting) and save."""
        language_notice = None
        if settings.language != self.settings.language:  # the next words are in it already
            chosen, language_notice = choose(settings.language)
            switch(chosen)
        # A screen reader chosen here is confirmed when it answers; at launch it only speaks.
        if settings.speech_output != self.settings.speech_output:
            self._asked_for_reader = True
        keys_changed = settings.keys != self.settings.keys
        self.settings = settings
        self.controls.apply(settings)
        if keys_changed:
            self._use_keys(settings)  # the Keys screen only gives maps that keep every rule
        notice = save_settings(settings, self.config)
        if language_notice:
            self.app.tell_notice(language_notice, cue=False)
        if notice:
            self.app.tell_notice(notice, cue=False)

    def tick(self) -> None:
        """Every turn of the loop: say what became of a screen reader asked for (it answers
        off the loop), and show it in the settings line if the settings are open."""
        self.controls.follow(self.app.game_state())  # the crowd under a game
        news = self.controls.news(confirm=self._asked_for_reader)
        if news:
            self._asked_for_reader = False
        for words in news:
            self.app.tell_notice(words, cue=False, again=True)
        top = self.app.top
        if news and isinstance(top, SettingsScreen):
            top.refresh()

    # -- hooks the app calls -----------------------------------------------------------------

    @property
    def telling(self) -> Telling:
        """What the words include, from the player's settings; the guided first drive is
        always told in detail."""
        if self.guide.active:
            return Telling.preset(Verbosity.DETAILED)
        return Telling.of(self.settings)

    def on_show(self, screen: Screen) -> None:
        self.guide.on_show(screen)

    def after_events(self, events: Sequence[ev.Event]) -> None:
        """After a play the guide may close the lesson (the short field tone comes with the
        new down's words: see narration.Line.field_tone)."""
        self.guide.after_events(events)

    # -- actions -----------------------------------------------------------------------------

    def review(self, review: Review) -> None:
        """A history key's answer: its cue, then the message (never itself recorded)."""
        if review.cue:
            self.app.cue(review.cue)
        self.app.say(review.text, category=Category.HISTORY)

    def open(self, extra: Extra) -> None:
        """Open settings, How to play, or start the guided first drive."""
        if extra is Extra.SETTINGS:
            if isinstance(self.app.top, SettingsScreen):
                # Translators: {back} is a key.
                self.app.say(self.app.keys.fill(_(
                    "You are in settings already. {back} closes them.")))
                return
            self.app.push(SettingsScreen(self.app, self))
        elif extra is Extra.RULES:
            if not isinstance(self.app.top, RulesScreen):
                self.app.push(RulesScreen(self.app))
        elif extra is Extra.SOUNDS:
            if not isinstance(self.app.top, SoundGlossaryScreen):
                self.app.push(SoundGlossaryScreen(self.app))
        else:
            self.guide.begin()

    def field_position(self) -> tuple[int, int | None, bool] | None:
        """(ball, marker, you have the ball) counted from your own goal, or None before a down."""
        state = self.app.game_state()
        if state is None or state.outcome is not None:
            return None
        return human_spots(state, self.app.names.you)

    def play_sweep(self, start: int, end: int) -> None:
        """The play heard: a glide from the old spot to the new one (Settings, Hear the play)."""
        self.cues.play_tone(field_tone.sweep_wav(start, end, mono=self.settings.mono), "sweep")

    def play_field_tone(self, speak: bool) -> None:
        """F: the tone, then the spot and the marker in words; after a play: the tone alone."""
        position = self.field_position()
        if position is None:
            if speak:
                self.app.say(_("No ball on the field yet."), category=Category.INFO)
            return
        ball, marker, mine = position
        seconds = field_tone.TONE_SECONDS if speak else field_tone.AFTER_PLAY_SECONDS
        self.cues.play_tone(field_tone.tone_wav(ball, seconds, mono=self.settings.mono),
                            "field_tone")
        if speak:
            self.app.say(field_tone.field_words(ball, marker, mine), category=Category.INFO)
