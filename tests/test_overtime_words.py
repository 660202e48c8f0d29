"""The overtime house rule as the player meets it: off by default and said so in Settings,
turned on there for the next game, and every overtime drive, situation and last-drive kick
told as overtime (never "drive 3 of 2", never "it ends the game" on a tie that plays on)."""

from __future__ import annotations

import random
from pathlib import Path

from app_driver import press, started_app
from recording import RecordingSpeaker

from sudden_death.engine import events as ev
from sudden_death.engine.field import OVERTIME_SPOT, Down
from sudden_death.engine.match import Match
from sudden_death.engine.state import GameState, Phase, Team
from sudden_death.storage.settings import Settings, load_settings, save_settings
from sudden_death.ui.words.kicks import field_goal_option, punt_option
from sudden_death.ui.words.narration import Narrator
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import needs_words, situation_words

NAMES = Names("Hawks", "Bears")


def overtime_game() -> tuple[int, list[ev.Event]]:
    """The first seed whose game, played at random with the rule on, goes to a second pair."""
    for seed in range(500):
        match = Match.against_computer(seed, overtime=True)
        rng = random.Random(seed)
        events = match.advance()
        while not match.is_over:
            played, _ = match.play([rng.choice(match.legal_actions())])
            events += played
        if any(isinstance(e, ev.DriveStarted) and e.drive >= 5 for e in events):
            return seed, events
    raise AssertionError("no seed reached a second overtime")


def test_overtime_drives_are_told_as_overtime() -> None:
    _, events = overtime_game()
    narrator = Narrator(NAMES)
    said = [line.text for line in narrator.lines(events)]
    starts = [text for text in said if "drive 3:" in text or "drive 5:" in text]
    assert starts[0].startswith("Tied after both drives: overtime, one more drive each")
    assert "Overtime, drive 3: " in starts[0]
    assert starts[1].startswith("Still tied: another drive each. Overtime, drive 5: ")
    assert not any(" of 2:" in text for text in said if "drive 3" in text or "drive 4" in text)


def overtime_state(drive: int, scores: tuple[int, int], offense: Team = Team.HOME,
                   line: int = OVERTIME_SPOT) -> GameState:
    return GameState(phase=Phase.SNAP_CHOICE, scores=scores, drive=drive, offense=offense,
                     down=Down(4, line, line + 10), overtime=True)


def test_the_situation_and_the_needs_of_an_overtime_drive() -> None:
    state = overtime_state(4, (7, 7))
    assert "Overtime, drive 4, you are on offense." in situation_words(state, NAMES)
    assert needs_words(state, NAMES) == "You need any score to win; without one the game " \
                                        "goes on."
    assert needs_words(overtime_state(3, (7, 7)), NAMES) == ""  # the other team has its ball
    # Without the rule, drive 2 tied: the tie stands.
    regulation = GameState(phase=Phase.SNAP_CHOICE, scores=(0, 0), drive=2, offense=Team.HOME,
                           down=Down(4, 60, 70))
    assert needs_words(regulation, NAMES).endswith("without one it's a tie.")


def test_a_kick_that_leaves_the_game_level_goes_to_overtime() -> None:
    tied = overtime_state(2, (0, 0), line=80)
    punt = punt_option(tied, NAMES).label
    assert punt.endswith("tied, the game goes to overtime") and "ends the game" not in punt
    goal = field_goal_option(tied, NAMES).label
    assert goal.endswith("good wins, a miss goes to overtime")
    assert "ends the game" not in goal
    behind = overtime_state(4, (3, 0), Team.AWAY, line=80)  # the Bears kick, 3 behind
    assert "either way" not in field_goal_option(behind, Names("Hawks", "Bears", Team.AWAY)).label


def test_the_setting_is_off_by_default_and_on_starts_the_next_game_with_it(
        tmp_path: Path) -> None:
    assert Settings().overtime is False
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "o")  # settings
    while "Overtime" not in speaker.spoken[-1].text:
        press(app, "down")
    assert speaker.spoken[-1].text.startswith("Overtime, a house rule: off; as the rules say, "
                                              "a tie stands")
    press(app, "right")
    assert speaker.spoken[-1].text.startswith("Overtime, a house rule: on")
    assert load_settings(tmp_path)[0].overtime is True
    press(app, "escape", "return", "return", "return")  # Start a game, both default names
    assert app.match is not None and app.match.state.overtime
    saved = app.session.saved()
    assert saved is not None and saved.overtime  # a resumed game keeps its rule


def test_a_saved_overtime_game_resumes_with_the_rule(tmp_path: Path) -> None:
    save_settings(Settings(overtime=True), tmp_path)
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "return", "return", "return", "return")  # names, then heads
    again = started_app(tmp_path, RecordingSpeaker())
    save_settings(Settings(overtime=False), tmp_path)  # the setting changed meanwhile
    press(again, "return")  # Resume your game
    assert again.match is not None and again.match.state.overtime
