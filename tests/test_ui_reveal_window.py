"""The window shows the reveal: from Keep or replace to the final call, both hands (the
player's, and the other team's with a card brought in marked) are on screen, whole, at the
smallest window and the largest text; Concede is drawn after the decision."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.actions import PickSwap, actors, held_hand, legal_actions
from sudden_death.engine.cards import card_name
from sudden_death.engine.state import Phase, SwapKind
from sudden_death.ui.app import App
from sudden_death.ui.window.layout import TEXT_SIZES
from sudden_death.ui.window.render import Fonts, draw

SMALLEST = (800, 600)


def to_phase(app: App, phase: Phase, swap: bool = False) -> None:
    """Play the player's first legal choice (a player swap, when `swap`) until `phase`."""
    assert app.match is not None
    while app.match.state.phase is not phase:
        state = app.match.state
        assert app.names.you in actors(state), state.phase
        legal = legal_actions(state, app.names.you)
        swaps = [a for a in legal if isinstance(a, PickSwap) and a.swap.kind is SwapKind.PLAYER]
        app.act(swaps[0] if swap and swaps else legal[0])


@pytest.fixture
def screen() -> object:
    pygame.display.init()
    pygame.font.init()
    try:
        yield pygame.display.set_mode(SMALLEST)
    finally:
        pygame.display.quit()


def hand_texts(frame: object) -> list[str]:
    return [box.text for box in frame.boxes if box.role == "hand"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("text_size", TEXT_SIZES)
def test_both_hands_are_on_screen_whole_from_the_reveal_to_the_final_call(
        screen: object, text_size: int, tmp_path: Path) -> None:
    app = App(RecordingSpeaker(), RecordingCues(), seed=3)
    app.start()
    app.names_chosen("Hawks", "Bears")
    fonts = Fonts()
    assert app.match is not None
    to_phase(app, Phase.SELECTION)
    frame = draw(screen, fonts, dataclasses.replace(app.view(), text_size=text_size))
    assert hand_texts(frame) == []  # nothing is revealed while picking
    for phase, swap in ((Phase.SUBSTITUTION, False), (Phase.FINAL_CALL, True)):
        to_phase(app, phase, swap)
        state = app.match.state
        frame = draw(screen, fonts, dataclasses.replace(app.view(), text_size=text_size))
        shown = hand_texts(frame)
        for team in (app.names.you, app.names.you.other):
            hand = held_hand(state, team)
            assert hand is not None
            for card in (*hand.players, *hand.calls):
                assert any(card_name(card) in line for line in shown), (card, shown)
        for box in frame.boxes:  # every text whole inside the window
            assert box.x >= 0 and box.y >= 0, box
            assert box.x + box.w <= SMALLEST[0] and box.y + box.h <= SMALLEST[1], box
        items = [box for box in frame.boxes if box.role == "item"]
        concede = [box for box in items if box.text.endswith("Concede the game")]
        if concede:  # drawn after every choice of the decision
            assert all(box.y < concede[0].y for box in items if box not in concede)
    assert any("(brought in)" in line for line in shown), shown  # the player's own swap
    pygame.image.save(screen, str(tmp_path / "final_call.png"))
    to_phase(app, Phase.SNAP_CHOICE if app.match.state.phase is not Phase.GAME_OVER
             else Phase.GAME_OVER)
