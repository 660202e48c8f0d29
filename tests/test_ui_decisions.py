"""The decisions of a down, driven by real key events in one process: last down's cards come
checked again, D reads every card (swap lists, the computer's revealed cards), a kick that can
only lose asks first, fourth down asks before the cards, and S says what each side needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_driver import press, started_app
from recording import RecordingCues, RecordingSpeaker

from sudden_death.audio.protocols import Category
from sudden_death.engine.actions import PickSwap
from sudden_death.engine.card_model import Role
from sudden_death.engine.cards import card_name
from sudden_death.engine.field import Down
from sudden_death.engine.state import GameState, Phase, Swap, Team
from sudden_death.storage.settings import Settings, save_settings
from sudden_death.ui.app import App
from sudden_death.ui.screens.base import ConfirmScreen
from sudden_death.ui.screens.decisions import SnapScreen
from sudden_death.ui.screens.hands import SelectionScreen, SubstitutionScreen
from sudden_death.ui.words.cards import card_details


def said(speaker: RecordingSpeaker) -> list[str]:
    return [m.text for m in speaker.spoken]


def app_at_first_cards(seed: int = 1) -> tuple[App, RecordingSpeaker]:
    """Seed 1, heads: the player wins the toss and takes the ball; the first card screen."""
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=seed)
    app.start()
    press(app, "return")
    app.handle_text("Jets")
    press(app, "return", "return", "return", "return")
    assert isinstance(app.top, SelectionScreen)
    return app, speaker


def test_last_downs_cards_come_checked_and_enter_plays_them_again() -> None:
    app, speaker = app_at_first_cards()
    press(app, "1", "3", "2", "4", "6", "return", "return", "return")  # pick, keep, first call
    assert app.match is not None
    hand = app.session.last_hands[Role.OFFENSE]
    top = app.top
    assert isinstance(top, SelectionScreen) and top.again == hand
    checked = [item.card for group in top.menu.groups[1:3] for item in group.checked()]
    assert checked == [*hand.players, *hand.calls]
    assert said(speaker)[-2].startswith("Your cards: ")
    assert "checked again: Enter plays them" in said(speaker)[-2]  # taught the first time
    press(app, "return")
    assert app.match.state.phase is Phase.SUBSTITUTION
    assert app.match.state.offense_hand == hand  # the same cards, with one key


def test_changing_one_card_is_two_checkboxes() -> None:
    app, _ = app_at_first_cards()
    press(app, "1", "2", "1", "2", "3", "return", "return", "return")
    assert app.match is not None
    press(app, "tab", "space", "down", "down", "down", "space", "return")
    hand = app.match.state.offense_hand
    assert hand is not None and [card_name(c) for c in hand.calls] == [
        "Outside Run", "Draw Play", "Screen Pass"]


def test_d_reads_cards_in_the_swap_lists_and_the_computers_revealed_cards() -> None:
    app, speaker = app_at_first_cards()
    press(app, "1", "2", "1", "2", "3", "return")
    assert isinstance(app.top, SubstitutionScreen)
    press(app, "down", "d")  # "Replace Power Back"
    assert said(speaker)[-1] == card_details(app.top.hand.players[0])
    press(app, "return", "d")  # the players that can come in
    coming = app.top.menu.item
    assert coming is not None and coming.card is not None
    assert said(speaker)[-1] == card_details(coming.card)
    press(app, "escape", "h")  # back, then the Computer calls section
    assert said(speaker)[-1].startswith("Computer calls. Their cards: ")
    computer = app.match.state.defense_hand if app.match else None
    assert computer is not None
    press(app, "d")
    assert said(speaker)[-1] == card_details(computer.players[0])
    press(app, "end", "d")
    assert said(speaker)[-1] == card_details(computer.calls[-1])
    press(app, "tab")
    assert said(speaker)[-1].startswith("Their moves: Bears show ")


def _fourth_down_app(scores: tuple[int, int], drive: int) -> tuple[App, RecordingSpeaker]:
    app, speaker = app_at_first_cards()
    assert app.match is not None
    game = app.match.match.game
    game.state = GameState(phase=Phase.SNAP_CHOICE, scores=scores, drive=drive,
                           offense=Team.HOME, down=Down(4, 70, 75))
    app.show_decision()
    return app, speaker


def test_fourth_down_asks_before_the_cards_with_the_field_goal_chance() -> None:
    app, speaker = _fourth_down_app((0, 0), drive=1)
    assert isinstance(app.top, SnapScreen)
    assert said(speaker)[-2].startswith("Fourth down: go for it with your cards")
    assert "a 47 yard field goal is 84 percent" in said(speaker)[-2]
    assert said(speaker)[-1] == "Go for it, 1 of 3"
    press(app, "return")  # go for it: the cards, with no kicks list
    assert isinstance(app.top, SelectionScreen) and not app.top.kicks


def test_a_kick_that_can_only_lose_asks_first_and_no_keeps_the_game() -> None:
    app, speaker = _fourth_down_app((0, 7), drive=2)
    press(app, "down")
    assert said(speaker)[-1].endswith("it ends the game and you lose")
    press(app, "return")
    assert isinstance(app.top, ConfirmScreen)
    assert said(speaker)[-1].startswith(
        "A punt ends the game with the Bears ahead, 7 to 0: you would lose. Punt anyway? No")
    press(app, "return")  # No: nothing happened
    assert isinstance(app.top, SnapScreen) and app.match is not None
    assert app.match.state.phase is Phase.SNAP_CHOICE
    press(app, "return", "down", "return")  # Punt, then Yes
    assert app.match.state.phase is Phase.GAME_OVER
    assert any(s.startswith("Final score: Jets 0, Bears 7.") for s in said(speaker))


def test_before_fourth_down_the_kicks_are_the_last_list_of_the_card_screen() -> None:
    app, speaker = app_at_first_cards()
    press(app, "shift+tab", "shift+tab")
    assert said(speaker)[-1] == (
        "Or kick instead: Punt: lands at their 45 (16 percent), their 35 (68 percent) or "
        "their 25 (16 percent), 1 of 2")  # the landing odds, as the field goal's
    press(app, "return")
    assert app.match is not None and app.match.state.drive == 2  # the punt ended drive 1
    assert any(re.fullmatch(r"(You punt|Your punt|You punt it away|You boom the punt): "
                            r"[345]0 yards\.", s) for s in said(speaker))


def test_s_on_defense_says_what_the_computer_needs() -> None:
    app, speaker = app_at_first_cards()
    assert app.match is not None
    app.match.match.game.state = GameState(phase=Phase.SNAP_CHOICE, scores=(3, 0), drive=2,
                                     offense=Team.AWAY, down=Down(1, 25, 35))
    press(app, "s")
    assert said(speaker)[-1] == (
        "Score: Jets 3, Bears 0. Drive 2 of 2, you are on defense. Bears ball, 1st and 10 at "
        "their own 25. The Bears need a field goal to tie, a touchdown to win.")


@pytest.mark.parametrize("verbosity", ["short", "normal", "detailed"])
def test_your_own_swap_is_confirmed_and_kept_in_the_history_and_the_log(
        tmp_path: Path, verbosity: str) -> None:
    """The swap you just made is said back in a few words (the reveal used to say only the
    computer's) and stays in the history and the game log (H); at short verbosity the list
    you chose it from said it, and only the game log keeps it."""
    save_settings(Settings().preset(verbosity), tmp_path)
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=1)
    press(app, "return")
    app.handle_text("Jets")
    press(app, "return", "return", "return", "return", "1", "2", "1", "2", "3", "return")
    assert isinstance(app.top, SubstitutionScreen)
    out, into = app.top.hand.players[0], None
    press(app, "down", "return")  # Replace the first player
    coming = app.top.menu.item
    assert coming is not None and coming.card is not None
    into = coming.card
    press(app, "return")
    names = {"into": card_name(into), "out": card_name(out)}
    mine = "You bring in {into} for {out}.".format(**names)
    assert any(mine in line for line in app.panel.log)  # H, the game log
    if verbosity == "short":
        assert not any(mine in m.text for m in speaker.spoken)
        return
    reveal = next(m for m in reversed(speaker.spoken) if mine in m.text)
    assert reveal.category is Category.COMPUTER
    assert any(mine in m.text for m in app.comfort.history.messages)  # comma and period


def test_the_switches_under_the_dial_change_only_what_they_name() -> None:
    """Dice and percentages alone, at normal: the rolls come, the rest stays as normal; the
    computer's swaps off: their keep is not said, yours still is."""
    from sudden_death.engine import events as ev
    from sudden_death.ui.words.narration import Narrator
    from sudden_death.ui.words.phrases import Names
    from sudden_death.ui.words.verbosity import Telling, Verbosity

    app, _speaker = app_at_first_cards()
    press(app, "1", "2", "1", "2", "3", "return")
    assert app.match is not None
    events = app.match.match.act(PickSwap(Swap.keep())) + app.match.match.act(
        app.match.legal_actions()[0])
    normal = Telling.preset(Verbosity.NORMAL)
    plain = " ".join(line.text for line in Narrator(Names("Jets", "Bears")).lines(events, normal))
    rolls = " ".join(line.text for line in Narrator(Names("Jets", "Bears")).lines(
        events, Telling(dice=True)))
    assert "roll" not in plain and "roll" in rolls
    assert all(part in rolls for part in plain.split(". "))  # the normal words are all there
    quiet = Narrator(Names("Jets", "Bears")).lines(
        [e for e in events if isinstance(e, ev.HandsRevealed)], Telling(computer_swaps=False))
    assert all("Bears" not in line.text for line in quiet)
    assert Settings(verbosity="normal", dice=True).own_switches()
    assert not Settings().preset("detailed").own_switches()
    assert Settings().preset("detailed").switch("explanations")
    assert Settings(verbosity="detailed").switch("dice")  # a verbosity alone has its preset
    assert Settings().preset("short").switch("computer_swaps")
