"""The window draws something a sighted helper can read: rendered to a PNG, it is not blank."""

from __future__ import annotations

from pathlib import Path

import pygame
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.actions import CallCoin, ChooseSide
from sudden_death.engine.state import CoinFace, Side
from sudden_death.ui.app import App
from sudden_death.ui.window.palette import BACKGROUND
from sudden_death.ui.window.render import HEIGHT, WIDTH, Fonts, draw


def test_screenshot_of_a_decision_is_not_blank(tmp_path: Path) -> None:
    pygame.display.init()
    pygame.font.init()
    try:
        surface = pygame.display.set_mode((WIDTH, HEIGHT))
        app = App(RecordingSpeaker(), RecordingCues(), seed=1)
        app.start()
        app.names_chosen("Hawks", "Bears")
        app.act(CallCoin(CoinFace.HEADS))
        app.act(ChooseSide(Side.OFFENSE))
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


def test_no_score_before_a_game_and_notices_fade_after_a_key() -> None:
    pygame.display.init()
    try:
        app = App(RecordingSpeaker(), RecordingCues(), seed=1)
        app.start()
        assert app.view().score == ""  # the title screen shows no "Hawks 0, Bears 0"
        app.tell_notice("Sound is not available; the game shows its words on screen.")
        assert list(app.view().notices) == [
            "Sound is not available; the game shows its words on screen."]
        app.handle_key(pygame.K_DOWN, 0)
        assert list(app.view().notices) == []  # heard, then a key: it leaves the window
        texts = [m.text for m in app.comfort.history.messages]
        assert "Sound is not available; the game shows its words on screen." in texts
        app.names_chosen("Hawks", "Bears")
        assert app.view().score == "Hawks 0, Bears 0"
    finally:
        pygame.display.quit()


def test_page_keys_scroll_the_text_panel_and_say_where(tmp_path: Path) -> None:
    pygame.display.init()
    pygame.font.init()
    try:
        surface = pygame.display.set_mode((WIDTH, HEIGHT))
        speaker = RecordingSpeaker()
        app = App(speaker, RecordingCues(), seed=1)
        app.start()
        fonts = Fonts()
        frame = draw(surface, fonts, app.view())
        app.panel.lines = (frame.panel_lines, frame.panel_shown)
        app.handle_key(pygame.K_PAGEDOWN, 0)
        assert speaker.spoken[-1].text == "The text below the decision is all shown."
        app.handle_key(pygame.K_F1, 0)
        app.handle_key(pygame.K_F1, 0)  # every key: longer than the panel at 200 percent
        app.comfort.settings = app.comfort.settings.changed(text_size=200)
        frame = draw(surface, fonts, app.view())
        assert frame.panel_lines > frame.panel_shown > 0 and frame.panel_first == 0
        app.panel.lines = (frame.panel_lines, frame.panel_shown)
        app.handle_key(pygame.K_PAGEDOWN, 0)
        shown = frame.panel_shown
        assert speaker.spoken[-1].text == (f"Text lines {shown + 1} to {2 * shown} of "
                                       f"{frame.panel_lines}.")
        frame = draw(surface, fonts, app.view())
        assert frame.panel_first == shown  # the keys list is still what the panel shows
        assert any(box.text.startswith("Lines ") for box in frame.boxes if box.role == "more")
        app.handle_key(pygame.K_PAGEUP, 0)
        assert draw(surface, fonts, app.view()).panel_first == 0
    finally:
        pygame.display.quit()


def test_the_field_is_drawn_from_the_players_own_goal_on_both_sides() -> None:
    """One flip (situation.human_spots) serves the window and the field tone."""
    from engine_helpers import snap_game

    from sudden_death.engine.state import Team
    from sudden_death.ui.words.situation import human_spots

    assert human_spots(snap_game(30, offense=Team.HOME).state, Team.HOME) == (30, 40, True)
    assert human_spots(snap_game(30, offense=Team.AWAY).state, Team.HOME) == (70, 60, False)
    assert human_spots(snap_game(95, down=2, marker=100, offense=Team.AWAY).state, Team.HOME) == (
        5, 0, False)
