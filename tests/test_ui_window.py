"""The window draws something a sighted helper can read: rendered to a PNG, it is not blank."""

from __future__ import annotations

from pathlib import Path

import pygame

from sudden_death.audio.recording import RecordingCues, RecordingSpeaker
from sudden_death.engine.state import CoinFace, Side
from sudden_death.ui.app import App
from sudden_death.ui.render import BACKGROUND, HEIGHT, WIDTH, Fonts, draw


def test_screenshot_of_a_decision_is_not_blank(tmp_path: Path) -> None:
    pygame.display.init()
    pygame.font.init()
    try:
        surface = pygame.display.set_mode((WIDTH, HEIGHT))
        app = App(RecordingSpeaker(), RecordingCues(), seed=1)
        app.start()
        app.names_chosen("Hawks", "Bears")
        app.act(CoinFace.HEADS)
        app.act(Side.OFFENSE)
        draw(surface, Fonts(), app.view())
        pygame.display.flip()
        path = tmp_path / "window.png"
        pygame.image.save(pygame.display.get_surface(), str(path))
        image = pygame.image.load(str(path))
        colours = set()
        lit = 0
        for x in range(0, WIDTH, 4):
            for y in range(0, HEIGHT, 4):
                colour = tuple(image.get_at((x, y)))[:3]
                colours.add(colour)
                lit += colour != BACKGROUND
        assert len(colours) >= 6
        assert lit > (WIDTH // 4) * (HEIGHT // 4) // 20
        assert app.view().menu is not None and app.view().ball == 25
    finally:
        pygame.display.quit()
