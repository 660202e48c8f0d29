"""Driving the app in-process, as a player's keys would: a started app on its title screen and
key presses by pygame's own key names (the dummy SDL drivers from conftest)."""

from __future__ import annotations

from pathlib import Path

import pygame
from recording import RecordingCues

from sudden_death.audio.protocols import Speaker
from sudden_death.ui.app import App
from sudden_death.ui.run.key_script import parse_step, post_step
from sudden_death.ui.run.loop import _dispatch


def started_app(config: Path, speaker: Speaker, seed: int = 4) -> App:
    """The title screen, speaking through `speaker`, with its settings kept in `config`."""
    pygame.display.init()
    app = App(speaker, RecordingCues(), seed=seed)
    app.config_folder = config  # as --config does: saves and seats live there too
    app.keeps_games = True
    app.start()
    app.comfort.start(config)
    return app


def keys(app: App, *lines: str) -> None:
    """Each line as a key script's step ("down", "type Anna"), posted as pygame events and
    dispatched by the loop's own `_dispatch`, as a player's keyboard is."""
    for line in lines:
        step = parse_step(line)
        assert step is not None, line
        pygame.event.clear()
        post_step(step)
        for event in pygame.event.get():
            _dispatch(app, event)


def press(app: App, *names: str) -> None:
    """Each key by pygame's name for it ("o", "end", "right", "space"); a name with a "shift+"
    prefix is pressed with Shift ("shift+tab")."""
    pygame.display.init()  # key names are looked up through SDL, which must be started
    for name in names:
        shift = name.startswith("shift+")
        name = name.removeprefix("shift+")
        app.handle_key(pygame.key.key_code(name), pygame.KMOD_LSHIFT if shift else 0)
