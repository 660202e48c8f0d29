"""Driving the app in-process, as a player's keys would: a started app on its title screen and
key presses by pygame's own key names (the dummy SDL drivers from conftest)."""

from __future__ import annotations

from pathlib import Path

import pygame

from sudden_death.audio.protocols import Speaker
from sudden_death.audio.recording import RecordingCues
from sudden_death.ui.app import App


def started_app(config: Path, speaker: Speaker, seed: int = 4) -> App:
    """The title screen, speaking through `speaker`, with its settings kept in `config`."""
    pygame.display.init()
    app = App(speaker, RecordingCues(), seed=seed)
    app.start()
    app.comfort.start(config)
    return app


def press(app: App, *names: str) -> None:
    """Each key by pygame's name for it ("o", "end", "right", "space")."""
    for name in names:
        app.handle_key(pygame.key.key_code(name), 0)
